import Foundation
import Glibc
import TestSupport

/// One SSIP reply or event as it came off the socket: its lines, without their CR LF.
struct SSIPBlock: Equatable, CustomStringConvertible {
    /// Every line, `NNN-data` then the final `NNN text`.
    var lines: [String]

    /// The three-digit code of the final line.
    var code: Int { Int(lines.last?.prefix(3) ?? "") ?? 0 }
    /// True for an asynchronous event (7xx).
    var isEvent: Bool { code / 100 == 7 }
    /// The data lines' contents (after `NNN-`).
    var data: [String] { lines.dropLast().map { String($0.dropFirst(4)) } }
    /// The final line's text (after `NNN `).
    var text: String { String(lines.last?.dropFirst(4) ?? "") }
    /// An event's message id (its first data line).
    var messageID: Int? { isEvent ? data.first.flatMap { Int($0) } : nil }
    /// An event's client id (its second data line).
    var clientID: Int? { isEvent && data.count > 1 ? Int(data[1]) : nil }
    /// A 700 INDEX MARK's name (its third data line).
    var mark: String? { code == 700 && data.count > 2 ? data[2] : nil }

    var description: String { lines.joined(separator: "|") }
}

/// A blocking SSIP client on a raw Unix socket: writes command lines with CR LF, reads replies
/// and events as whole blocks, and keeps every block in the order it arrived.
///
/// Written by hand rather than through python3-speechd or libspeechd: the tests must see the exact
/// bytes (codes, texts, CR LF) and the order of replies and events on the wire.
final class SSIPRawClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var partial: [String] = []
    /// Every block read so far, in order.
    private(set) var blocks: [SSIPBlock] = []
    /// Lines that did not end with CR LF (a bare LF), as read.
    private(set) var linesWithoutCR: [String] = []
    /// True once the daemon closed the connection.
    private(set) var sawEOF = false
    /// How many of `blocks` a `reply` or `waitForEvent` has looked at.
    private var consumedReplies = 0
    private var matchedEvents = Set<Int>()

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

    /// Writes `line` and CR LF.
    func send(_ line: String) { sendRaw(Array((line + "\r\n").utf8)) }

    /// Writes raw bytes.
    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// Sends `line` and returns its reply (events read meanwhile are kept in `blocks`).
    func command(_ line: String, timeout: Double = 20) -> SSIPBlock? {
        send(line)
        return reply(timeout: timeout)
    }

    /// `SPEAK`, the data lines of `text` (each CR LF ended, dots doubled), `.`; the 230 and the
    /// 225 replies, and the message id (nil if it was not queued).
    func speak(_ text: String, timeout: Double = 20) -> (receiving: SSIPBlock?, queued: SSIPBlock?, messageID: Int?) {
        let receiving = command("SPEAK", timeout: timeout)
        var data = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            data += (line.hasPrefix(".") ? "." : "") + line + "\r\n"
        }
        sendRaw(Array((data + ".\r\n").utf8))
        let queued = reply(timeout: timeout)
        return (receiving, queued, queued?.code == 225 ? queued?.data.first.flatMap { Int($0) } : nil)
    }

    /// The next reply (a non-7xx block) after the last one returned.
    func reply(timeout: Double = 20) -> SSIPBlock? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while consumedReplies < blocks.count {
                let block = blocks[consumedReplies]
                consumedReplies += 1
                if !block.isEvent {
                    lastReplyIndex = consumedReplies - 1
                    return block
                }
            }
            guard readBlock(until: deadline) else { return nil }
        }
    }

    /// The first event with `code` about message `messageID` that no earlier call returned,
    /// reading on as needed; nil on timeout or end of stream.
    @discardableResult
    func waitForEvent(_ code: Int, messageID: Int, timeout: Double = 30) -> SSIPBlock? {
        let deadline = Date().addingTimeInterval(timeout)
        var index = 0
        while true {
            while index < blocks.count {
                let block = blocks[index]
                if block.code == code, block.messageID == messageID, !matchedEvents.contains(index) {
                    matchedEvents.insert(index)
                    return block
                }
                index += 1
            }
            guard readBlock(until: deadline) else { return nil }
        }
    }

    /// The events about message `messageID` so far, in order.
    func events(messageID: Int) -> [SSIPBlock] { blocks.filter { $0.isEvent && $0.messageID == messageID } }

    /// The position among `blocks` of the reply `reply` (or `command`, `speak`) returned last.
    private(set) var lastReplyIndex: Int?

    /// The position among `blocks` of the first event with `code` about message `messageID`.
    func indexOfEvent(_ code: Int, messageID: Int) -> Int? {
        blocks.firstIndex { $0.code == code && $0.messageID == messageID }
    }

    /// Reads until one more block is complete; false on timeout or end of stream.
    private func readBlock(until deadline: Date) -> Bool {
        let before = blocks.count
        while blocks.count == before {
            if let newline = buffer.firstIndex(of: 10) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == 13 { line.removeLast() } else { linesWithoutCR.append(String(decoding: line, as: UTF8.self)) }
                let text = String(decoding: line, as: UTF8.self)
                partial.append(text)
                // The final line of a block has a space as its fourth character.
                if text.count < 4 || Array(text)[3] != "-" {
                    blocks.append(SSIPBlock(lines: partial))
                    partial = []
                }
                continue
            }
            if sawEOF { return false }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let count = read(fd, &chunk, chunk.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            if count <= 0 { sawEOF = true } else { buffer.append(contentsOf: chunk[..<count]) }
        }
        return true
    }
}
