import AnnounceProtocol
import Glibc

/// Why the daemon cannot serve its socket. Each message says what to do next.
public struct SocketSetupError: Error, CustomStringConvertible {
    /// The one-line reason.
    public var description: String
}

/// Prepares the filesystem for binding the socket: the parent directory (created 0700) and any
/// socket file already there (replaced when stale, refused when a daemon answers on it).
public enum SocketPreparation {
    static func prepare(_ location: SocketLocation) throws(SocketSetupError) {
        let path = location.path
        guard path.utf8.count < 108 else {
            throw SocketSetupError(description: "the socket path \(path) is longer than the 107 bytes a Unix socket allows; choose a shorter one with --socket")
        }
        let dir = location.directory
        var info = stat()
        if stat(dir, &info) != 0 {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                throw SocketSetupError(description: "cannot create the socket directory \(dir): \(String(cString: strerror(errno))); create it or choose another path with --socket")
            }
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw SocketSetupError(description: "\(dir) is not a directory; choose another socket path with --socket")
        }
        if let problem = location.directoryProblem() {
            throw SocketSetupError(description: "refusing to serve \(path): \(problem)")
        }
        if access(dir, W_OK | X_OK) != 0 {
            throw SocketSetupError(description: cannotCreate(path, errno))
        }
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw SocketSetupError(description: "\(path) exists and is not a socket; remove it or choose another path with --socket")
            }
            if isLive(path) {
                throw SocketSetupError(description: "another announced is already serving \(path); stop it first (announcectl status shows it) or choose another path with --socket")
            }
            unlink(path)
        }
    }

    /// True when something accepts connections on the socket at `path`: a daemon serving it, or
    /// systemd listening on it for one.
    public static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}

extension SocketPreparation {
    /// Why the socket file at `path` could not be made, in words, with what to do.
    static func cannotCreate(_ path: String, _ code: Int32) -> String {
        let directory = SocketLocation(path: path, isDefault: false).directory
        if code == EACCES || code == EPERM || code == EROFS {
            return "cannot create the socket \(path): this user (uid \(getuid())) may not create files in \(directory); choose a directory you own with --socket (or ANNOUNCED_SOCKET), or make \(directory) writable for this user"
        }
        return "cannot create the socket \(path): \(String(cString: strerror(code))); choose another path with --socket"
    }
}
