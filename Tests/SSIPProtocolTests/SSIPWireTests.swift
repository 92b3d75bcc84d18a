// SPDX-License-Identifier: GPL-3.0-or-later
import SSIPProtocol
import Testing

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite("SSIP replies, events and data mode")
struct SSIPWireTests {
    @Test("replies are CR LF lines with the code on every line, space on the last")
    func replyBytes() {
        #expect(text(SSIPReply.messageQueued(12).bytes) == "225-12\r\n225 OK MESSAGE QUEUED\r\n")
        #expect(text(SSIPReply.clientID(3).bytes) == "245-3\r\n245 OK CLIENT ID SENT\r\n")
        #expect(text(SSIPReply.canceled.bytes) == "213 OK CANCELED\r\n")
        #expect(text(SSIPReply.receivingData.bytes) == "230 OK RECEIVING DATA\r\n")
        #expect(text(SSIPReply.bye.bytes) == "231 HAPPY HACKING\r\n")
        #expect(text(SSIPReply.got("en-US").bytes) == "251-en-US\r\n251 OK GET RETURNED\r\n")
    }

    @Test("a value with a line break cannot break the framing")
    func noLineBreakInData() {
        #expect(text(SSIPReply.got("a\r\nb").bytes) == "251-a  b\r\n251 OK GET RETURNED\r\n")
    }

    @Test(
        "events in the exact formats",
        arguments: [
            (SSIPEvent.begin, "701-5\r\n701-2\r\n701 BEGIN\r\n"),
            (.end, "702-5\r\n702-2\r\n702 END\r\n"),
            (.canceled, "703-5\r\n703-2\r\n703 CANCELED\r\n"),
            (.paused, "704-5\r\n704-2\r\n704 PAUSED\r\n"),
            (.resumed, "705-5\r\n705-2\r\n705 RESUMED\r\n"),
            (.indexMark("7:11"), "700-5\r\n700-2\r\n700-7:11\r\n700 INDEX MARK\r\n"),
        ])
    func events(event: SSIPEvent, expected: String) {
        #expect(text(event.bytes(messageID: 5, clientID: 2)) == expected)
    }

    @Test("LIST SYNTHESIS_VOICES is name, language and variant split by tabs")
    func synthesisVoices() {
        let reply = SSIPReply.synthesisVoices([
            SSIPVoice(name: "en-gb", language: "en-GB"), SSIPVoice(name: "a\tb", language: "fr", variant: "f1"),
        ])
        #expect(text(reply.bytes) == "249-en-gb\ten-GB\tnone\r\n249-a b\tfr\tf1\r\n249 OK VOICE LIST SENT\r\n")
    }

    @Test("notifications: one type, all, and off again")
    func notifications() {
        var set = SSIPNotifications()
        #expect(!set.contains(.begin))
        set.set(.end, true)
        #expect(set.contains(.end) && !set.contains(.begin))
        set.set(nil, true)
        #expect(SSIPNotification.allCases.allSatisfy(set.contains))
        set.set(.indexMarks, false)
        #expect(!set.contains(.indexMarks) && set.contains(.cancel))
    }

    private func read(_ lines: [String], limit: Int = 100) -> SSIPMessageReader.Outcome? {
        var reader = SSIPMessageReader(maxCharacters: limit)
        for (index, line) in lines.enumerated() {
            let outcome = reader.take(Array(line.utf8))
            if index < lines.count - 1 { #expect(outcome == .needMore, "line \(index)") } else { return outcome }
        }
        return nil
    }

    @Test("data: lines joined, doubled dots undone, CR LF or bare LF, ended by a lone dot and CR LF")
    func data() {
        #expect(read(["Hello\r", "world\r", ".\r"]) == .message("Hello\nworld"))
        #expect(read(["..x", "a.", ".. .", ".\r"]) == .message(".x\na.\n. ."))
        #expect(read(["bare lf line", ".\r"]) == .message("bare lf line"))
        #expect(read(["...", ".\r"]) == .message(".."))
    }

    @Test("a lone dot ended by a bare LF is text (libspeechd sends it so), only dot CR LF ends the data")
    func loneDotWithBareLF() {
        #expect(read(["first line", ".", "last line\r", ".\r"]) == .message("first line\n.\nlast line"))
        #expect(read([".", ".\r"]) == .message("."))
    }

    @Test("an empty message is 227, invalid UTF-8 is 501, too long is refused with the limit")
    func refusedData() {
        #expect(read([".\r"]) == .refused(.messageCanceled))
        #expect(read(["  ", ".\r"]) == .refused(.messageCanceled))
        var reader = SSIPMessageReader(maxCharacters: 100)
        #expect(reader.take([0xFF, 0x41]) == .needMore)
        #expect(reader.take(Array(".\r".utf8)) == .refused(.invalidEncoding))
        guard
            case .refused(let reply)? = read([
                String(repeating: "a", count: 60), String(repeating: "b", count: 60), ".\r",
            ])
        else {
            Issue.record("a long message was not refused")
            return
        }
        #expect(reply.code == 420)
        #expect(reply.text.contains("121 CHARACTERS, THE LIMIT IS 100"))
        #expect(
            read([String(repeating: "a", count: 99), ".\r"], limit: 100) == .message(String(repeating: "a", count: 99)))
    }
}
