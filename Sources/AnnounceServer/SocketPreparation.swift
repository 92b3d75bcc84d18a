// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Glibc

/// Why the daemon cannot serve its socket. Each message says what to do next.
public struct SocketSetupError: Error, CustomStringConvertible {
    /// The one-line reason.
    public var description: String
}

/// Which of the daemon's sockets is being prepared: its messages name the flag that moves it and
/// who may already be serving it.
enum SocketRole {
    /// The JSON lines socket (`--socket`).
    case main
    /// The SSIP socket (`--ssip-socket`), speech-dispatcher's address by default.
    case ssip

    var flag: String { self == .main ? "--socket" : "--ssip-socket" }

    /// Says that `path` is served already, and what to do.
    func alreadyServed(_ path: String) -> String {
        switch self {
        case .main:
            return
                "another announced is already serving \(path); stop it first (announcectl status shows it) or choose another path with --socket"
        case .ssip:
            return
                "a speech server is already serving \(path) (speech-dispatcher, or another announced); stop it first "
                + "(systemctl --user stop speech-dispatcher.socket speech-dispatcher.service) or choose another path with --ssip-socket"
        }
    }
}

/// Prepares the filesystem for binding the socket: the parent directory (created 0700) and any
/// socket file already there (replaced when stale, refused when a daemon answers on it).
public enum SocketPreparation {
    /// Checks and makes ready the place of the socket at `location`, and returns the lock on its
    /// socket file, which the caller holds while it serves the socket.
    static func prepare(_ location: SocketLocation, role: SocketRole = .main) throws(SocketSetupError)
        -> SocketFileLock
    {
        let path = location.path
        let flag = role.flag
        guard path.utf8.count < 108 else {
            throw SocketSetupError(
                description:
                    "the socket path \(path) is longer than the 107 bytes a Unix socket allows; choose a shorter one with \(flag)"
            )
        }
        let dir = location.directory
        var info = stat()
        if stat(dir, &info) != 0 {
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                throw SocketSetupError(
                    description:
                        "cannot create the socket directory \(dir): \(String(cString: strerror(errno))); create it or choose another path with \(flag)"
                )
            }
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw SocketSetupError(description: "\(dir) is not a directory; choose another socket path with \(flag)")
        }
        if let problem = location.directoryProblem() {
            throw SocketSetupError(description: "refusing to serve \(path): \(problem)")
        }
        if access(dir, W_OK | X_OK) != 0 {
            throw SocketSetupError(description: cannotCreate(path, errno, role: role))
        }
        // Two daemons starting at once (two autospawning clients) must not both take a socket
        // file that is bound but not yet listening for a stale one: whoever holds the lock
        // decides, and the other is told it is already served.
        let lock = try SocketFileLock.take(for: path, role: role)
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                lock.release()
                throw SocketSetupError(
                    description: "\(path) exists and is not a socket; remove it or choose another path with \(flag)")
            }
            if isLive(path) {
                lock.release()
                throw SocketSetupError(description: role.alreadyServed(path))
            }
            unlink(path)
        }
        return lock
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
    static func cannotCreate(_ path: String, _ code: Int32, role: SocketRole = .main) -> String {
        let directory = SocketLocation(path: path, isDefault: false).directory
        let variable = role == .main ? "ANNOUNCED_SOCKET" : "ANNOUNCED_SSIP_SOCKET"
        if code == EACCES || code == EPERM || code == EROFS {
            return
                "cannot create the socket \(path): this user (uid \(getuid())) may not create files in \(directory); choose a directory you own with \(role.flag) (or \(variable)), or make \(directory) writable for this user"
        }
        return
            "cannot create the socket \(path): \(String(cString: strerror(code))); choose another path with \(role.flag)"
    }
}
