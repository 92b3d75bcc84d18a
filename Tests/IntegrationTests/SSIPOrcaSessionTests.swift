// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// What Orca 43 sends (shared/ssip.md §9), replayed byte for byte over a raw socket: the connect
/// sequence, then utterances, each `CANCEL self`, RATE/PITCH/VOLUME and a SPEAK of SSML with
/// Orca's `start:end` marks. The replies' codes and texts, the events' order and CR LF line ends
/// are checked on the wire.
@Suite("SSIP: an Orca-shaped session on a raw socket", .daemonTimeLimit, .onBlockingThreads)
struct SSIPOrcaSessionTests {
    /// Orca's SSML for one utterance.
    static let utterance =
        #"<speak><mark name="0:6"/>Cancel <mark name="7:11"/>push <mark name="12:19"/>button.</speak>"#
    /// A longer one, to be cancelled while it speaks.
    static let longUtterance =
        #"<speak><mark name="0:4"/>This <mark name="5:7"/>is <mark name="8:9"/>a <mark name="10:16"/>rather <mark name="17:21"/>long <mark name="22:34"/>announcement <mark name="35:39"/>that <mark name="40:44"/>will <mark name="45:54"/>certainly <mark name="55:57"/>be <mark name="58:69"/>interrupted.</speak>"#

    /// Sends `line` and expects exactly the reply `lines`.
    private func expectReply(
        _ client: RawSSIPClient, _ line: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let reply = client.command(line)
        #expect(reply?.lines == lines, "reply to \(line)", sourceLocation: sourceLocation)
    }

    /// Orca's connect sequence; the client id.
    private func connect(_ client: RawSSIPClient) throws -> Int {
        expectReply(client, "SET self CLIENT_NAME unknown:Orca:default", ["208 OK CLIENT NAME SET"])
        let idReply = try #require(client.command("HISTORY GET CLIENT_ID"))
        #expect(idReply.code == 245 && idReply.text == "OK CLIENT ID SENT" && idReply.data.count == 1, "\(idReply)")
        let clientID = try #require(idReply.data.first.flatMap { Int($0) })
        for type in ["index_marks", "begin", "end", "cancel", "pause", "resume"] {
            expectReply(client, "SET self NOTIFICATION \(type) on", ["220 OK NOTIFICATION SET"])
        }
        expectReply(client, "SET self PRIORITY message", ["202 OK PRIORITY SET"])
        expectReply(client, "SET self SSML_MODE on", ["219 OK SSML MODE SET"])
        expectReply(client, "SET self PUNCTUATION most", ["205 OK PUNCTUATION SET"])
        expectReply(client, "SET self CAP_LET_RECOGN none", ["206 OK CAP LET RECOGNITION SET"])
        expectReply(client, "SET self LANGUAGE en", ["201 OK LANGUAGE SET"])
        expectReply(client, "SET self LANGUAGE en-US", ["201 OK LANGUAGE SET"])
        return clientID
    }

    /// One of Orca's utterances: CANCEL self (its 213 returned), the voice settings, SPEAK. The
    /// message id.
    private func utter(_ client: RawSSIPClient, _ ssml: String) throws -> (cancelReply: Int?, messageID: Int) {
        let cancel = client.command("CANCEL self")
        #expect(cancel?.lines == ["213 OK CANCELED"])
        let cancelIndex = client.lastReplyIndex
        expectReply(client, "SET self RATE 2", ["203 OK RATE SET"])
        expectReply(client, "SET self PITCH 10", ["204 OK PITCH SET"])
        expectReply(client, "SET self VOLUME 100", ["218 OK VOLUME SET"])
        let spoken = client.speak(ssml)
        #expect(spoken.receiving?.lines == ["230 OK RECEIVING DATA"])
        let messageID = try #require(spoken.messageID, "\(String(describing: spoken.queued))")
        #expect(spoken.queued?.lines == ["225-\(messageID)", "225 OK MESSAGE QUEUED"])
        return (cancelIndex, messageID)
    }

    /// The exact lines of event `code` about `messageID`.
    private func eventLines(_ code: Int, _ messageID: Int, _ clientID: Int, _ text: String, mark: String? = nil)
        -> [String]
    {
        ["\(code)-\(messageID)", "\(code)-\(clientID)"] + (mark.map { ["\(code)-\($0)"] } ?? []) + ["\(code) \(text)"]
    }

    @Test(
        "connect sequence, utterances with marks, CANCEL self: exact replies, 213 before its 703, one 702 or 703 each, CR LF"
    )
    func orcaSession() throws {
        let ssip = try SSIPDaemon()
        let client = try ssip.connectSSIP()
        let clientID = try connect(client)

        // 1. An utterance spoken to its end: 701, the three marks in order, 702.
        let first = try utter(client, Self.utterance)
        let end = try #require(client.waitForEvent(702, messageID: first.messageID))
        #expect(end.lines == eventLines(702, first.messageID, clientID, "END"))
        #expect(
            client.events(messageID: first.messageID).map(\.lines) == [
                eventLines(701, first.messageID, clientID, "BEGIN"),
                eventLines(700, first.messageID, clientID, "INDEX MARK", mark: "0:6"),
                eventLines(700, first.messageID, clientID, "INDEX MARK", mark: "7:11"),
                eventLines(700, first.messageID, clientID, "INDEX MARK", mark: "12:19"),
                eventLines(702, first.messageID, clientID, "END"),
            ])

        // 2. A long utterance, cancelled by the next one's CANCEL self as it speaks (a focus change).
        let long = try utter(client, Self.longUtterance)
        try #require(client.waitForEvent(700, messageID: long.messageID) != nil)
        let next = try utter(client, Self.utterance)
        let cancelEvent = try #require(
            client.waitForEvent(703, messageID: long.messageID), "703 for the cancelled message")
        #expect(cancelEvent.lines == eventLines(703, long.messageID, clientID, "CANCELED"))
        let canceled = try #require(client.indexOfEvent(703, messageID: long.messageID))
        let cancelReply = try #require(next.cancelReply)
        #expect(cancelReply < canceled, "213 OK CANCELED comes before the 703 it causes (shared/ssip.md §7)")
        _ = try #require(client.waitForEvent(702, messageID: next.messageID))
        #expect(client.events(messageID: next.messageID).map(\.code) == [701, 700, 700, 700, 702])

        // 3. A message cancelled right after it was queued (its first event still held): 213 before 703.
        let quick = try utter(client, Self.longUtterance)
        let after = try utter(client, Self.utterance)
        try #require(client.waitForEvent(703, messageID: quick.messageID) != nil, "703 for the cancelled message")
        let quickCanceled = try #require(client.indexOfEvent(703, messageID: quick.messageID))
        #expect((after.cancelReply ?? .max) < quickCanceled, "213 OK CANCELED comes before the 703 it causes")
        let queuedIndex = client.blocks.firstIndex { $0.lines == ["225-\(quick.messageID)", "225 OK MESSAGE QUEUED"] }
        #expect((queuedIndex ?? .max) < quickCanceled, "225 comes before the message's first event")

        // 4. CANCEL self with nothing speaking: 213 and no event.
        _ = try #require(client.waitForEvent(702, messageID: after.messageID))
        let eventsBefore = client.blocks.filter(\.isEvent).count
        expectReply(client, "CANCEL self", ["213 OK CANCELED"])
        #expect(client.blocks.filter(\.isEvent).count == eventsBefore)

        // Every message: 225 before any 7xx of it, exactly one 702 or 703, no event after that.
        for message in [first, long, next, quick, after].map(\.messageID) {
            let events = client.events(messageID: message)
            let terminals = events.filter { $0.code == 702 || $0.code == 703 }
            #expect(terminals.count == 1, "message \(message): \(events)")
            #expect(events.last?.code == 702 || events.last?.code == 703, "message \(message) ends with its 702/703")
            #expect(events.allSatisfy { $0.clientID == clientID })
            let queued = client.blocks.firstIndex { $0.lines.first == "225-\(message)" }
            let firstEvent = client.blocks.firstIndex { $0.isEvent && $0.messageID == message }
            #expect((queued ?? .max) < (firstEvent ?? .max), "message \(message): 225 before its events")
        }
        expectReply(client, "QUIT", ["231 HAPPY HACKING"])
        #expect(client.linesWithoutCR.isEmpty, "lines without CR: \(client.linesWithoutCR)")
        withExtendedLifetime(ssip) {}
    }
}
