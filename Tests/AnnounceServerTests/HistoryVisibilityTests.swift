// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Glibc
import NIOEmbedded
import TestSupport
import Testing

@testable import AnnounceServer

@MainActor
@Suite("The history by the peer's uid (SO_PEERCRED, allow_uids)")
struct HistoryVisibilityTests {
    /// The texts of the entries of the `history` answer to `id` among `lines`.
    func answeredTexts(_ lines: [JSONValue], id: Int64) -> [String]? {
        let answer = lines.first { $0.objectValue?["event"] == .string("ok") && $0.objectValue?["id"] == .integer(id) }
        return answer?.objectValue?["history"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
    }

    /// The texts of the `history` events among `lines`.
    func eventTexts(_ lines: [JSONValue]) -> [String] {
        lines.compactMap { line in
            guard line.objectValue?["event"] == .string("history") else { return nil }
            return line.objectValue?["entry"]?.objectValue?["text"]?.stringValue
        }
    }

    @Test(
        "a client of another allowed uid is answered and sent only its own uid's entries; the daemon's own uid sees all"
    )
    func otherUID() throws {
        let h = ServerHarness(allowUIDs: [4242])
        let own = try h.connect()
        let other = try h.connect(uid: 4242)
        // Muted, every post ends at once, and the history keeps it.
        try own.receive(
            #"{"op":"subscribe","id":1,"events":["history"]}"# + "\n" + #"{"op":"set","id":2,"muted":true}"# + "\n")
        h.settle(own)
        try other.receive(#"{"op":"subscribe","id":1,"events":["history"]}"# + "\n")
        h.settle(other)
        try own.receive(#"{"op":"announce","id":3,"text":"Mine"}"# + "\n")
        h.settle(own)
        try other.receive(#"{"op":"announce","id":3,"text":"Theirs"}"# + "\n")
        h.settle(other)
        for channel in [own, other] {
            try channel.receive(#"{"op":"history","id":4}"# + "\n")
            h.settle(channel)
        }
        let ownLines = try own.writtenLines().map { try JSONParser.parse(Array($0.utf8)) }
        let otherLines = try other.writtenLines().map { try JSONParser.parse(Array($0.utf8)) }
        #expect(answeredTexts(ownLines, id: 4) == ["Theirs", "Mine"])
        #expect(eventTexts(ownLines) == ["Mine", "Theirs"])
        #expect(answeredTexts(otherLines, id: 4) == ["Theirs"])
        #expect(eventTexts(otherLines) == ["Theirs"])
    }
}
