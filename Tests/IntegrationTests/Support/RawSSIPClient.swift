// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A blocking SSIP client on the daemon's SSIP socket, speaking the bytes itself (no libspeechd):
/// writes CR LF lines, reads reply and event blocks (`NNN-…` lines up to the `NNN …` one), and
/// keeps every block in the order it came (``blocks``) and every line that lacked its CR.
final class RawSSIPClient {
    private let connection: SocketLines
    /// Event blocks (7xx) read while waiting for a reply, in order.
    private(set) var events: [[String]] = []
    /// Every block read, replies and events, in the order they came.
    private(set) var blocks: [SSIPBlock] = []
    /// Lines that ended with a bare LF instead of CR LF, as read.
    private(set) var linesWithoutCR: [String] = []
    /// The position among ``blocks`` of the reply ``reply(timeout:)`` returned last.
    private(set) var lastReplyIndex: Int?
    /// Replies read while waiting for an event, for the next ``reply(timeout:)``, with their
    /// positions in ``blocks``.
    private var unreadReplies: [(lines: [String], index: Int)] = []
    /// Positions in ``blocks`` of events ``waitForEvent(_:messageID:timeout:)`` returned.
    private var matchedEvents = Set<Int>()

    init(path: String) throws { connection = try SocketLines(path: path) }

    /// The connection's socket.
    var fd: Int32 { connection.fd }
    /// Every byte read so far, counted (lines included or not).
    var bytesRead: Int { connection.bytesRead }
    /// Whether the daemon closed the connection.
    var sawEOF: Bool { connection.sawEOF }
    /// Why the last `sendRaw` stopped before the end, if it did.
    var sendError: String? { connection.sendError }

    /// Writes `lines` in one write, each followed by CR LF.
    func send(_ lines: String...) { sendRaw(Array(lines.map { $0 + "\r\n" }.joined().utf8)) }

    /// Writes raw bytes; stops and records the error when the daemon no longer takes them.
    func sendRaw(_ bytes: [UInt8]) { connection.send(bytes) }

    /// The next line without its CR LF, waiting up to `timeout` seconds; nil on timeout or end of
    /// stream (a reset connection ends the stream too, after what was buffered).
    func nextLine(timeout: Double = 20) -> String? {
        connection.nextLine(timeout: timeout).map(withoutCR)
    }

    /// `line` without its CR; a line that lacked it is kept in ``linesWithoutCR``.
    private func withoutCR(_ line: [UInt8]) -> String {
        guard line.last == UInt8(ascii: "\r") else {
            linesWithoutCR.append(String(decoding: line, as: UTF8.self))
            return String(decoding: line, as: UTF8.self)
        }
        return String(decoding: line.dropLast(), as: UTF8.self)
    }

    /// The next block: lines up to the one whose fourth character is a space (SSIP's last line).
    func nextBlock(timeout: Double = 20) -> [String]? {
        var lines: [String] = []
        while let line = nextLine(timeout: timeout) {
            lines.append(line)
            if line.utf8.count < 4 || Array(line.utf8)[3] == UInt8(ascii: " ") {
                blocks.append(SSIPBlock(lines: lines))
                return lines
            }
        }
        return nil
    }

    /// The next reply, keeping the event blocks read before it in ``events``.
    func reply(timeout: Double = 20) -> [String]? {
        if !unreadReplies.isEmpty {
            let unread = unreadReplies.removeFirst()
            lastReplyIndex = unread.index
            return unread.lines
        }
        while let block = nextBlock(timeout: timeout) {
            if block.first?.hasPrefix("7") == true {
                events.append(block)
            } else {
                lastReplyIndex = blocks.count - 1
                return block
            }
        }
        return nil
    }

    /// The last line of the next reply (`225 OK MESSAGE QUEUED`), or nil.
    func replyLine(timeout: Double = 20) -> String? { reply(timeout: timeout)?.last }

    /// Waits for the event block whose last line is `name` (`701 BEGIN`) about message `id`.
    func waitForEvent(_ name: String, message id: String, timeout: Double = 30) -> Bool {
        if events.contains(where: { $0.last == name && $0.first == "\(name.prefix(3))-\(id)" }) { return true }
        let deadline = Date().addingTimeInterval(timeout)
        while let block = nextBlock(timeout: max(0, deadline.timeIntervalSinceNow)) {
            if block.first?.hasPrefix("7") == true {
                events.append(block)
            } else {
                unreadReplies.append((block, blocks.count - 1))
            }
            if block.last == name && block.first == "\(name.prefix(3))-\(id)" { return true }
        }
        return false
    }

    /// Sends `line` and returns its reply.
    func command(_ line: String, timeout: Double = 20) -> SSIPBlock? {
        send(line)
        return reply(timeout: timeout).map(SSIPBlock.init(lines:))
    }

    /// `SPEAK`, the data lines of `text` (each CR LF ended, a leading dot doubled), `.`: the 230
    /// and 225 replies, and the message id (nil if it was not queued).
    func speak(_ text: String, timeout: Double = 20) -> (receiving: SSIPBlock?, queued: SSIPBlock?, messageID: Int?) {
        let receiving = command("SPEAK", timeout: timeout)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            ($0.hasPrefix(".") ? "." : "") + $0
        }
        sendRaw(Array((lines + ["."]).map { $0 + "\r\n" }.joined().utf8))
        let queued = reply(timeout: timeout).map(SSIPBlock.init(lines:))
        return (receiving, queued, queued?.code == 225 ? queued?.data.first.flatMap { Int($0) } : nil)
    }

    /// The first event with `code` about message `messageID` that no earlier call returned,
    /// reading on as needed; nil on timeout or end of stream.
    @discardableResult
    func waitForEvent(_ code: Int, messageID: Int, timeout: Double = 30) -> SSIPBlock? {
        waitForEvent([code], messageID: messageID, timeout: timeout)
    }

    /// Waits for message `messageID`'s 702 END or 703 CANCELED (see ``waitForEvent(_:messageID:timeout:)``).
    @discardableResult
    func waitForTerminal(messageID: Int, timeout: Double = 30) -> SSIPBlock? {
        waitForEvent([702, 703], messageID: messageID, timeout: timeout)
    }

    /// The first event with one of `codes` about message `messageID` that no earlier call
    /// returned, reading on as needed; nil on timeout or end of stream.
    @discardableResult
    func waitForEvent(_ codes: Set<Int>, messageID: Int, timeout: Double = 30) -> SSIPBlock? {
        let deadline = Date().addingTimeInterval(timeout)
        var index = 0
        while true {
            while index < blocks.count {
                if codes.contains(blocks[index].code), blocks[index].messageID == messageID,
                    !matchedEvents.contains(index)
                {
                    matchedEvents.insert(index)
                    return blocks[index]
                }
                index += 1
            }
            guard let block = nextBlock(timeout: max(0, deadline.timeIntervalSinceNow)) else { return nil }
            if block.first?.hasPrefix("7") == true {
                events.append(block)
            } else {
                unreadReplies.append((block, blocks.count - 1))
            }
        }
    }

    /// The events about message `messageID` so far, in order.
    func events(messageID: Int) -> [SSIPBlock] { blocks.filter { $0.isEvent && $0.messageID == messageID } }

    /// The position among ``blocks`` of the first event with `code` about message `messageID`.
    func indexOfEvent(_ code: Int, messageID: Int) -> Int? {
        blocks.firstIndex { $0.code == code && $0.messageID == messageID }
    }

    /// Shuts the connection down both ways: the daemon sees its end at once.
    func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Reads until the daemon closes the connection; true if it did within `timeout`.
    func waitForEOF(timeout: Double = 30) -> Bool {
        connection.waitForEOF(timeout: timeout) { _ = withoutCR($0) }
    }
}

/// A private directory for an SSIP socket, and the socket's path in it.
struct SSIPSocketPlace {
    let directory = DaemonProcess.makeTemporaryDirectory()
    var path: String { directory.path + "/ssip.sock" }
    /// The daemon's environment that serves SSIP there.
    var environment: [String: String] { ["ANNOUNCED_SSIP_SOCKET": path, "SPEECHD_CMD": "/bin/false"] }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
