// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A blocking client on the daemon's socket: writes request lines, reads event lines.
final class LineClient {
    private let connection: SocketLines
    private(set) var received: [JSONValue] = []
    /// Indices of `received` lines already returned by a `waitFor`.
    private var matched = Set<Int>()

    init(path: String) throws { connection = try SocketLines(path: path) }

    /// The connection's socket.
    var fd: Int32 { connection.fd }
    /// Whether the daemon closed the connection.
    var sawEOF: Bool { connection.sawEOF }
    /// Why the last `sendRaw` stopped before the end, if it did.
    var sendError: String? { connection.sendError }

    /// Writes `lines` in one write, each followed by a newline.
    func send(_ lines: String...) { sendRaw(Array(lines.map { $0 + "\n" }.joined().utf8)) }

    /// Writes raw bytes; records the error when the daemon stops taking them.
    func sendRaw(_ bytes: [UInt8]) { connection.send(bytes) }

    /// Closes the writing half: the daemon answers what was sent, then closes.
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// The next line, waiting up to `timeout` seconds; nil on timeout or end of stream.
    func nextLine(timeout: Double = 20) -> JSONValue? {
        connection.nextLine(timeout: timeout).map(record)
    }

    /// `line` parsed (or as a string when it is not JSON), kept in ``received``.
    private func record(_ line: [UInt8]) -> JSONValue {
        let value = (try? JSONParser.parse(line)) ?? .string(String(decoding: line, as: UTF8.self))
        received.append(value)
        return value
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
            line["id"] == .integer(Int64(id))
                && ["finished", "dropped", "error"].contains(line["event"]?.stringValue ?? "")
        }
    }

    /// Every line received so far about request `id`.
    func lines(id: Int) -> [JSONValue] { received.filter { $0["id"] == .integer(Int64(id)) } }

    /// Reads until the daemon closes the connection; true if it did within `timeout`.
    func waitForEOF(timeout: Double = 20) -> Bool {
        connection.waitForEOF(timeout: timeout) { _ = record($0) }
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }
    var event: String? { self["event"]?.stringValue }
    var text: String { jsonText }
}
