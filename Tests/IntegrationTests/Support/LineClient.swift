// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A blocking client on the daemon's socket: writes request lines, reads event lines.
final class LineClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var received: [JSONValue] = []
    private(set) var sawEOF = false
    /// Indices of `received` lines already returned by a `waitFor`.
    private var matched = Set<Int>()

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un.make(path: path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
    }

    deinit { close(fd) }

    /// Writes `lines` in one write, each followed by a newline.
    func send(_ lines: String...) { sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8)) }

    /// Writes raw bytes; records the error when the daemon stops taking them.
    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 {
                sendError = written < 0 ? String(cString: strerror(errno)) : "wrote nothing"
                return
            }
            offset += written
        }
    }

    /// Why the last `sendRaw` stopped before the end, if it did.
    private(set) var sendError: String?

    /// Closes the writing half: the daemon answers what was sent, then closes.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, waiting up to `timeout` seconds; nil on timeout or end of stream.
    func nextLine(timeout: Double = 20) -> JSONValue? {
        expectBlockingAllowed("Reading the daemon's socket")
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                let value = (try? JSONParser.parse(line)) ?? .string(String(decoding: line, as: UTF8.self))
                received.append(value)
                return value
            }
            if sawEOF { return nil }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { sawEOF = true } else { buffer.append(contentsOf: chunk[..<count]) }
        }
    }

    /// The first line matching `predicate` that no earlier `waitFor` returned, among the lines
    /// already read or, reading on, the next ones; nil on timeout or end of stream.
    @discardableResult
    func waitFor(timeout: Double = 20, _ predicate: (JSONValue) -> Bool) -> JSONValue? {
        if let index = received.indices.first(where: { !matched.contains($0) && predicate(received[$0]) }) {
            matched.insert(index)
            return received[index]
        }
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if predicate(line) {
                matched.insert(received.count - 1)
                return line
            }
        }
        return nil
    }

    /// Waits for the line `event` about request `id`.
    @discardableResult
    func waitFor(_ event: String, id: Int, timeout: Double = 20) -> JSONValue? {
        waitFor(timeout: timeout) { $0["event"] == .string(event) && $0["id"] == .integer(Int64(id)) }
    }

    /// Waits for the terminal line (`finished`, `dropped` or `error`) of request `id`.
    @discardableResult
    func waitForTerminal(id: Int, timeout: Double = 30) -> JSONValue? {
        waitFor(timeout: timeout) { line in
            line["id"] == .integer(Int64(id)) && ["finished", "dropped", "error"].contains(line["event"]?.stringValue ?? "")
        }
    }

    /// Every line received so far about request `id`.
    func lines(id: Int) -> [JSONValue] { received.filter { $0["id"] == .integer(Int64(id)) } }

    /// Reads until the daemon closes the connection; true if it did within `timeout`.
    func waitForEOF(timeout: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !sawEOF && deadline.timeIntervalSinceNow > 0 { _ = nextLine(timeout: deadline.timeIntervalSinceNow) }
        return sawEOF
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }
    var event: String? { self["event"]?.stringValue }
    var text: String { jsonText }
}

/// An `announce` line.
func announce(_ id: Int, _ text: String, _ extra: String = "") -> String {
    #"{"op":"announce","id":\#(id),"text":"\#(text)"\#(extra)}"#
}
