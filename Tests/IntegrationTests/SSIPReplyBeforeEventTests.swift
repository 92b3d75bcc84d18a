// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A command's reply comes before every event the command causes (shared/ssip.md §7): 211 before
/// 704, 212 before 705, 210 and 213 before 703, 225 before 701. Read the way speech-dispatcher's
/// `run_test` reads: send one command, take the next complete block as its reply.
@Suite("SSIP: a command's reply comes before the events it causes, under load", .daemonTimeLimit, .onBlockingThreads)
struct SSIPReplyBeforeEventTests {
    /// A long SSML text with a mark before every word: events stream while the commands are sent.
    static let markedText: String = {
        let words = (1...240).map { "<mark name=\"w\($0)\"/>word\($0 % 10)" }
        return "<speak>" + words.joined(separator: " ") + "</speak>"
    }()

    /// Sends `command` and takes the next complete block, as `run_test` does; fails when an event
    /// the command causes (`caused`, about a message of `messages`) came before that reply.
    static func runTest(_ client: RawSSIPClient, _ command: String, expect code: Int, caused: Int, messages: [Int])
        throws
    {
        client.send(command)
        var before: [SSIPBlock] = []
        while true {
            let block = SSIPBlock(lines: try #require(client.nextBlock(timeout: 20), "no reply to \(command)"))
            guard block.isEvent else {
                #expect(block.code == code, "\(command): the next reply is \(block)")
                break
            }
            before.append(block)
        }
        let early = before.filter { $0.code == caused && messages.contains($0.messageID ?? -1) }
        #expect(early.isEmpty, "\(command): \(early.map(\.description)) came before its reply")
        for message in messages {
            let after = client.waitForEvent(caused, messageID: message, timeout: 20)
            #expect(after != nil, "\(command): no \(caused) for \(message) after its reply")
        }
    }

    /// `SPEAK` of the marked text: 230, data, then the 225 as the next reply (events of earlier
    /// messages may come between replies; none of this message's comes before its 225).
    static func speak(_ client: RawSSIPClient) throws -> Int {
        client.send("SPEAK")
        #expect(try nextReply(client).code == 230)
        client.sendRaw(Array((markedText + "\r\n.\r\n").utf8))
        let queued = try nextReply(client)
        #expect(queued.code == 225, "the reply to the data is \(queued)")
        return try #require(queued.data.first.flatMap { Int($0) })
    }

    /// The next block that is not an event.
    static func nextReply(_ client: RawSSIPClient) throws -> SSIPBlock {
        while true {
            let block = SSIPBlock(lines: try #require(client.nextBlock(timeout: 20), "no reply"))
            if !block.isEvent { return block }
        }
    }

    @Test(
        "PAUSE, RESUME, STOP and CANCEL for self, all and an id: each reply comes before the 704, 705 or 703 it causes",
        arguments: ["self", "all", "id"]
    )
    func controlRepliesComeFirst(scope: String) throws {
        let ssip = try SSIPDaemon()
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self NOTIFICATION all on")?.code == 220)
        #expect(client.command("SET self SSML_MODE on")?.code == 219)
        #expect(client.command("SET self RATE 60")?.code == 203)
        let id = try #require(client.command("HISTORY GET CLIENT_ID")?.data.first)
        let target = scope == "id" ? id : scope
        for _ in 0..<3 {
            let first = try Self.speak(client)
            try #require(client.waitForEvent(700, messageID: first) != nil, "marks stream")
            try Self.runTest(client, "PAUSE \(target)", expect: 211, caused: 704, messages: [first])
            try Self.runTest(client, "RESUME \(target)", expect: 212, caused: 705, messages: [first])
            try #require(client.waitForEvent(700, messageID: first) != nil, "marks stream again")
            try Self.runTest(client, "STOP \(target)", expect: 210, caused: 703, messages: [first])
            let second = try Self.speak(client)
            let third = try Self.speak(client)
            try #require(client.waitForEvent(700, messageID: second) != nil)
            try Self.runTest(client, "CANCEL \(target)", expect: 213, caused: 703, messages: [second, third])
        }
        // Every message got exactly one terminal event, and its 225 came before its events.
        let ids = Set(client.blocks.filter { $0.code == 225 }.compactMap { $0.data.first.flatMap { Int($0) } })
        for message in ids {
            #expect(
                client.events(messageID: message).count { $0.code == 702 || $0.code == 703 } == 1, "message \(message)")
            let queuedAt = client.blocks.firstIndex { $0.code == 225 && $0.data.first == String(message) }
            let firstEvent = client.blocks.firstIndex { $0.isEvent && $0.messageID == message }
            if let queuedAt, let firstEvent {
                #expect(queuedAt < firstEvent, "message \(message)'s event before its 225")
            }
        }
    }
}
