// SPDX-License-Identifier: Apache-2.0
import Glibc
public import SystemPackage

extension FileDescriptor {
    /// A blocking, close-on-exec stream socket connected to the Unix socket at `path`.
    ///
    /// - Throws: the `Errno` of the failed `socket` or `connect` (`ENOENT` when nothing is at
    ///   `path`, `ECONNREFUSED` when nothing listens there), or `ENAMETOOLONG` for a path longer
    ///   than a socket address holds.
    public static func connectUnixSocket(path: String) throws(Errno) -> FileDescriptor {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let fits = withUnsafeMutableBytes(of: &address.sun_path) { raw in
            guard bytes.count < raw.count else { return false }
            raw.copyBytes(from: bytes)
            return true
        }
        guard fits else { throw .fileNameTooLong }
        let raw = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw Errno(rawValue: errno) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let error = Errno(rawValue: errno)
            Glibc.close(raw)
            throw error
        }
        return FileDescriptor(rawValue: raw)
    }

    /// Sends as much of `bytes` on this socket as it takes without waiting (retried on `EINTR`;
    /// a closed peer is an error, not `SIGPIPE`). Returns the count sent: 0 when the socket takes
    /// nothing now.
    ///
    /// - Throws: the `Errno` of the failed `send` (`EPIPE` once the peer closed).
    public func sendAvailable(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let sent = retryingOnInterrupt {
            send(rawValue, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
        }
        if sent >= 0 { return sent }
        switch errno {
        case EAGAIN, EWOULDBLOCK: return 0
        default: throw Errno(rawValue: errno)
        }
    }
}
