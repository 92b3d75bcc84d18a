import Foundation
import Glibc
import TestSupport

/// One SSIP reply: its code, its `NNN-` data lines and the text of its final `NNN ` line.
struct SSIPReplyLines: CustomStringConvertible {
    var code: Int
    var data: [String]
    var text: String
    var description: String { (data.map { "\(code)-\($0)" } + ["\(code) \(text)"]).joined(separator: " | ") }
}

/// One 7xx event: `7NN-<msg_id>`, `7NN-<client_id>`, for 700 `700-<mark>`, then `7NN TEXT`.
struct SSIPEventLine: Equatable, CustomStringConvertible {
    var code: Int
    var messageID: Int
    var clientID: Int
    /// The mark's name, for 700 INDEX MARK.
    var mark: String?
    var description: String { "\(code) msg \(messageID)" + (mark.map { " mark \($0)" } ?? "") }
}

/// A blocking client on the daemon's SSIP socket, written as speech-dispatcher's clients behave:
/// one command, then its whole reply; the 7xx events that arrive between replies are kept in
/// ``events`` in the order they came.
final class SSIPSocketClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var sawEOF = false
    /// Every event received so far, in order.
    private(set) var events: [SSIPEventLine] = []
    /// The lines of an event being received.
    private var eventLines: [String] = []

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

    /// Shuts the connection down both ways: the daemon sees its end at once.
    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Writes `line` and CR LF.
    func send(_ line: String) { sendRaw(Array((line + "\r\n").utf8)) }

    /// Writes raw bytes.
    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    /// Sends `line` and reads its reply (keeping the events that come before it).
    func command(_ line: String, timeout: Double = 30) throws -> SSIPReplyLines {
        send(line)
        return try reply(to: line, timeout: timeout)
    }

    /// Reads the next reply, keeping the events before it.
    func reply(to what: String, timeout: Double = 30) throws -> SSIPReplyLines {
        let deadline = Date().addingTimeInterval(timeout)
        var data: [String] = []
        while let line = nextLine(deadline: deadline) {
            if takeEvent(line) { continue }
            guard line.count >= 4, let code = Int(line.prefix(3)) else { throw SSIPClientError("a reply line without a code to \(what): \(line)") }
            let rest = String(line.dropFirst(4))
            if line.dropFirst(3).first == "-" {
                data.append(rest)
            } else {
                return SSIPReplyLines(code: code, data: data, text: rest)
            }
        }
        throw SSIPClientError("no reply to \(what) (\(sawEOF ? "the daemon closed the connection" : "timed out"))")
    }

    /// `SPEAK`, the text's lines (dots doubled) and the end marker; the message id from `225-<id>`.
    func speak(_ text: String) throws -> Int {
        let start = try command("SPEAK")
        guard start.code == 230 else { throw SSIPClientError("SPEAK answered \(start)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        sendRaw(Array((lines + ["."]).map { $0 + "\r\n" }.joined().utf8))
        return try queuedID(try reply(to: "SPEAK's data"), what: "SPEAK")
    }

    /// The message id of a `225-<id>` + `225 OK MESSAGE QUEUED` reply.
    func queuedID(_ reply: SSIPReplyLines, what: String) throws -> Int {
        guard reply.code == 225, let id = reply.data.first.flatMap({ Int($0) }) else { throw SSIPClientError("\(what) answered \(reply)") }
        return id
    }

    /// The first event (among those received, or reading on) for which `predicate` holds; nil on
    /// timeout or end of stream. Only for when no reply is awaited (a reply line read here is lost).
    func waitForEvent(timeout: Double = 30, _ predicate: (SSIPEventLine) -> Bool) -> SSIPEventLine? {
        if let event = events.first(where: predicate) { return event }
        let deadline = Date().addingTimeInterval(timeout)
        while let line = nextLine(deadline: deadline) {
            guard takeEvent(line) else { continue }
            if eventLines.isEmpty, let event = events.last, predicate(event) { return event }
        }
        return nil
    }

    /// Waits for message `id`'s 702 or 703.
    @discardableResult
    func waitForTerminal(of id: Int, timeout: Double = 60) -> SSIPEventLine? {
        waitForEvent(timeout: timeout) { $0.messageID == id && ($0.code == 702 || $0.code == 703) }
    }

    /// The codes of the events received about message `id`, in order.
    func eventCodes(of id: Int) -> [Int] { events.filter { $0.messageID == id }.map(\.code) }

    /// Takes `line` into the event being received if it is a 7xx line; true if it was.
    private func takeEvent(_ line: String) -> Bool {
        guard line.first == "7", line.count >= 4, let code = Int(line.prefix(3)) else { return false }
        if line.dropFirst(3).first == "-" {
            eventLines.append(String(line.dropFirst(4)))
        } else {
            events.append(
                SSIPEventLine(
                    code: code, messageID: eventLines.first.flatMap { Int($0) } ?? -1,
                    clientID: eventLines.dropFirst().first.flatMap { Int($0) } ?? -1,
                    mark: eventLines.count > 2 ? eventLines[2] : nil
                )
            )
            eventLines = []
        }
        return true
    }

    /// The next CR LF line, or nil at the deadline or the end of the stream.
    private func nextLine(deadline: Date) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
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
}

/// The SSIP conversation did not go as speech-dispatcher's clients expect.
struct SSIPClientError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension DaemonProcess {
    /// A raw connection to the SSIP socket (the daemon must have been started with `ssip: true`).
    func connectSSIP() throws -> SSIPSocketClient {
        guard let ssipSocketPath else { throw SSIPClientError("the daemon was started without ssip: true") }
        return try SSIPSocketClient(path: ssipSocketPath)
    }

    /// What a speech-dispatcher client needs in its environment to reach this daemon's SSIP
    /// socket, and never to start a real speech-dispatcher (`SPEECHD_CMD=/bin/false`).
    var ssipClientEnvironment: [String: String] {
        ["SPEECHD_CMD": "/bin/false", "SPEECHD_ADDRESS": "unix_socket:\(ssipSocketPath ?? "/nonexistent")"]
    }
}
