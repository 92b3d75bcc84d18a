// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A blocking connection to one of the daemon's Unix sockets, read a line at a time: what the
/// JSON lines client (``LineClient``) and the SSIP client (``RawSSIPClient``) share.
///
/// Writes use MSG_NOSIGNAL: a test that keeps writing after the daemon cut it off gets EPIPE in
/// ``sendError``, not a SIGPIPE that would end the test process.
final class SocketLines {
    /// The connected socket.
    let fd: Int32
    private var buffer: [UInt8] = []
    /// Every byte read so far, counted (lines included or not).
    private(set) var bytesRead = 0
    /// Whether the daemon closed the connection (or reset it).
    private(set) var sawEOF = false
    /// Why the last `send` stopped before the end, if it did.
    private(set) var sendError: String?

    /// Connects to the socket at `path`.
    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.make(path: path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Writes `bytes`; stops and records the error when the daemon no longer takes them.
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                sendError = written < 0 ? String(cString: strerror(errno)) : "wrote nothing"
                return
            }
            offset += written
        }
    }

    /// The next line without its LF, waiting up to `timeout` seconds; nil on timeout or end of
    /// stream (a reset connection ends the stream too, after what was buffered).
    func nextLine(timeout: Double) -> [UInt8]? {
        expectBlockingAllowed("Reading the daemon's socket")
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            if sawEOF { return nil }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 {
                sawEOF = true
            } else {
                bytesRead += count
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }

    /// Reads until the daemon closes the connection, each line through `take`; true if it
    /// closed within `timeout` seconds.
    func waitForEOF(timeout: Double, _ take: ([UInt8]) -> Void) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !sawEOF && deadline.timeIntervalSinceNow > 0 {
            if let line = nextLine(timeout: deadline.timeIntervalSinceNow) { take(line) }
        }
        return sawEOF
    }
}
