// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: a daemon started with
/// `NOTIFY_SOCKET` set to ``path`` says `READY=1` there once it serves.
public final class ReadinessSocket {
    /// Where the socket is bound, for the child's `NOTIFY_SOCKET`.
    public let path: String
    private let fd: Int32

    /// Binds a new socket at `path` (a stale file there is removed first).
    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un.make(path: path)
        unlink(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Blocks until a datagram containing the line `READY=1` arrives, or `timeout` seconds pass;
    /// whether it came.
    public func waitForReady(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, deadline.timeIntervalSinceNow * 1000))
            guard poll(&pfd, 1, milliseconds) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0, String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") {
                return true
            }
        }
        return false
    }
}
