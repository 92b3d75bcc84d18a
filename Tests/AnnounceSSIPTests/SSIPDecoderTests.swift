import AnnounceProtocol
import AnnounceServer
import NIOCore
import SSIPProtocol
import TestSupport
import Testing

// SPDX-License-Identifier: GPL-3.0-or-later
@testable import AnnounceCore
@testable import AnnounceSSIP

@Suite("SSIP decoder: a connection's lines become the dispatcher's input")
struct SSIPDecoderTests {
    let frontEnd = SSIPFrontEnd(voices: SilentBackend().voices)

    @Test("each kind of step becomes its input, in the order the client sent the lines")
    func everyStepInOrder() {
        var probe = DecoderProbe(frontEnd, client: 3)
        let inputs = probe.send(
            #"SET SELF CLIENT_NAME "joe:orca:main""#,
            "HISTORY GET CLIENT_ID",
            "SET self PRIORITY message",
            "SPEAK", "Hello", "..world", ".",
            "char a",
            "STOP self", "CANCEL all", "PAUSE 7", "RESUME self",
            "LIST SYNTHESIS_VOICES",
            "SET all RATE 10",
            "GET RATE",
            "FLY away"
        )
        #expect(
            inputs == [
                "name joe:orca:main",
                "208 OK CLIENT NAME SET|",
                "245-3|245 OK CLIENT ID SENT|",
                "202 OK PRIORITY SET|",
                "230 OK RECEIVING DATA|",
                "message 1 message \"Hello\n.world\"",
                #"message 2 message "a""#,
                "control stop own",
                "control cancel all",
                "control pause client(7)",
                "control resume own",
                "249-en-us\ten-US\tnone|249-de\tde\tnone|249 OK VOICE LIST SENT|",
                "203 OK RATE SET|",
                "251-10|251 OK GET RETURNED|",
                "500 ERR INVALID COMMAND|",
            ])
    }

    @Test("message ids count up per connection, across reads and a message split over reads")
    func messageIDsAcrossReads() {
        var probe = DecoderProbe(frontEnd)
        #expect(probe.send("SPEAK", "first part") == ["230 OK RECEIVING DATA|"])
        #expect(probe.read("second part\r\n.").inputs.isEmpty, "the end marker waits for its line end")
        #expect(
            probe.read("\r\nKEY a\r\n").inputs.map(describe) == [
                #"message 1 message "first part\#nsecond part""#,
                #"message 2 message "a""#,
            ])
    }

    @Test("QUIT answers 231 and ends decoding: the lines behind it and later reads are not decoded")
    func quitEndsDecoding() {
        var probe = DecoderProbe(frontEnd)
        let decoded = probe.read("GET RATE\r\nQUIT\r\nCHAR a\r\n")
        #expect(decoded.inputs.map(describe) == ["251-0|251 OK GET RETURNED|", "231 HAPPY HACKING|"])
        #expect(decoded.framingLost, "the server closes the connection after the reply")
        let later = probe.read("CHAR b\r\n")
        #expect(later.inputs.isEmpty)
        #expect(!later.framingLost)
    }

    @Test("a line of max_line_bytes (its CR included) is decoded; one byte more answers 520 and loses framing")
    func lineLimit() {
        let frontEnd = SSIPFrontEnd(voices: [], maxLineBytes: 16)
        var probe = DecoderProbe(frontEnd)
        let atLimit = "SET self RATE 9\r"
        #expect(atLimit.utf8.count == 16)
        #expect(probe.read(atLimit + "\n").inputs.map(describe) == ["203 OK RATE SET|"])

        let decoded = probe.read("GET RATE\r\nSET self RATE 10\r\nGET RATE\r\n")
        #expect(
            decoded.inputs.map(describe) == [
                "251-9|251 OK GET RETURNED|",
                "520 ERR LINE LONGER THAN 16 BYTES; THE CONNECTION IS CLOSED; SEND LONG TEXT AS SEVERAL LINES|",
            ])
        #expect(decoded.framingLost)
        #expect(probe.read("GET RATE\r\n").inputs.isEmpty, "nothing is decoded once framing is lost")
    }

    @Test("an unfinished line answers 520 as soon as it passes max_line_bytes, before its line end arrives")
    func unfinishedLinePastTheLimit() {
        var probe = DecoderProbe(SSIPFrontEnd(voices: [], maxLineBytes: 16))
        #expect(probe.read("SPEAK\r\n").inputs.map(describe) == ["230 OK RECEIVING DATA|"])
        #expect(probe.read(String(repeating: "x", count: 16)).inputs.isEmpty)
        let decoded = probe.read("x")
        #expect(decoded.inputs.map { describe($0).prefix(4) } == ["520 "])
        #expect(decoded.framingLost)
    }

    @Test("a SPEAK block over max_text_chars gets 420, and never more than the limit is held while it arrives")
    func speakOverTheTextLimit() {
        var probe = DecoderProbe(SSIPFrontEnd(voices: [], maxTextChars: 100))
        let connection = probe.decoder.connection
        #expect(probe.send("SPEAK") == ["230 OK RECEIVING DATA|"])
        for _ in 0..<40 {
            #expect(probe.send(String(repeating: "a", count: 50)).isEmpty)
            #expect(connection.session.withLock { $0.heldDataBytes } <= 100)
        }
        #expect(
            probe.send(".") == [
                "420 ERR MESSAGE TOO LONG: 2039 CHARACTERS, THE LIMIT IS 100; SPLIT IT INTO SEVERAL MESSAGES|"
            ])
        #expect(connection.session.withLock { $0.heldDataBytes } == 0)
        // The connection keeps its framing: the next message is queued as usual.
        #expect(probe.send("SPEAK", "short", ".") == ["230 OK RECEIVING DATA|", #"message 1 message "short""#])
    }

    @Test("CHAR is spelled (but `space` is said as the word), never SSML; the settings of the moment go with it")
    func charConversion() throws {
        var probe = DecoderProbe(frontEnd)
        _ = probe.send("SET self SSML_MODE on", "SET self RATE 50", "SET self PRIORITY important")
        let decoded = probe.read("CHAR a\r\nCHAR space\r\n").inputs
        let letter = try #require(message(decoded.first))
        #expect(letter.text == "a")
        #expect(letter.priority == .important)
        let letterOptions = letter.options(testDefaults)
        #expect(letterOptions.spell)
        #expect(!letterOptions.ssml)
        #expect((letterOptions.rate ?? 0) > testDefaults.rate)
        let space = try #require(message(decoded.last))
        #expect(space.text == "space")
        #expect(!space.options(testDefaults).spell)
    }

    @Test("a KEY whose spoken form passes max_text_chars answers 420 (found by FuzzSSIP: `kp-` grows into `keypad `)")
    func spokenKeyBounded() throws {
        var probe = DecoderProbe(SSIPFrontEnd(voices: [], maxTextChars: 12))
        #expect(
            probe.send("KEY kp-enter1") == [
                "420 ERR MESSAGE TOO LONG: 13 CHARACTERS, THE LIMIT IS 12; SPLIT IT INTO SEVERAL MESSAGES|"
            ])
        let fits = try #require(message(probe.read("KEY kp-enter\r\n").inputs.first))
        #expect(fits.text == "keypad enter")
    }

    @Test(
        "LANGUAGE C or POSIX (spd-say in a bare environment sends its locale) is no language: the default voice speaks",
        arguments: ["C", "POSIX", "c"])
    func localeLanguageIsNone(language: String) throws {
        var probe = DecoderProbe(frontEnd)
        _ = probe.send("SET self LANGUAGE \(language)")
        let post = try #require(message(probe.read("SPEAK\r\nhello\r\n.\r\n").inputs.last))
        #expect(post.options(testDefaults).lang == nil)
        _ = probe.send("SET self LANGUAGE fr")
        let french = try #require(message(probe.read("SPEAK\r\nbonjour\r\n.\r\n").inputs.last))
        #expect(french.options(testDefaults).lang == "fr")
    }

    @Test(
        "KEY names are said as words",
        arguments: [
            ("KEY shift_a", "shift a"),
            ("KEY control_alt_delete", "control alt delete"),
            ("KEY kp-enter", "keypad enter"),
            ("KEY a", "a"),
        ])
    func keyConversion(line: String, spoken: String) throws {
        var probe = DecoderProbe(frontEnd)
        _ = probe.send("SET self SPELLING on", "SET self SSML_MODE on")
        let key = try #require(message(probe.read(line + "\r\n").inputs.first))
        #expect(key.text == spoken)
        #expect(key.sound == nil)
        #expect(!key.options(testDefaults).spell)
        #expect(!key.options(testDefaults).ssml)
    }

    @Test(
        "SOUND_ICON plays the earcon of its name, without text; an unknown icon is a message with nothing to play",
        arguments: [
            ("SOUND_ICON window", EarconSound?.some(.screenChange)),
            ("SOUND_ICON Screen-Change", .some(.screenChange)),
            ("SOUND_ICON boundary", .some(.boundary)),
            ("SOUND_ICON edge", .some(.boundary)),
            ("SOUND_ICON bell", nil),
        ])
    func soundIconConversion(line: String, sound: EarconSound?) throws {
        var probe = DecoderProbe(frontEnd)
        let icon = try #require(message(probe.read(line + "\r\n").inputs.first))
        #expect(icon.sound == sound)
        #expect(icon.text == "")
    }

    @Test("messages inside a block queue as `message` (a block is spoken whole); important stays important")
    func blockMessagesQueueAsMessage() {
        var probe = DecoderProbe(frontEnd)
        let inputs = probe.send(
            "SET self PRIORITY text",
            "BLOCK BEGIN", "SPEAK", "one", ".", "CHAR x", "BLOCK END",
            "SPEAK", "after", ".",
            "SET self PRIORITY important",
            "BLOCK BEGIN", "KEY a", "BLOCK END"
        )
        #expect(
            inputs.filter { $0.hasPrefix("message") } == [
                #"message 1 message "one""#,
                #"message 2 message "x""#,
                #"message 3 text "after""#,
                #"message 4 important "a""#,
            ])
    }

    @Test("SET all changes every open connection's setting; SET <id> that connection's only")
    func setOthers() {
        var first = DecoderProbe(frontEnd, client: 1)
        var second = DecoderProbe(frontEnd, client: 2)
        #expect(first.send("SET all RATE 30") == ["203 OK RATE SET|"])
        #expect(first.send("GET RATE") == ["251-30|251 OK GET RETURNED|"])
        #expect(second.send("GET RATE") == ["251-30|251 OK GET RETURNED|"])
        #expect(first.send("SET 2 PUNCTUATION all") == ["205 OK PUNCTUATION SET|"])
        #expect(second.send("GET PUNCTUATION") == ["251-all|251 OK GET RETURNED|"])
        #expect(first.send("GET PUNCTUATION") == ["251-none|251 OK GET RETURNED|"])
        #expect(first.send("SET 1 VOLUME -20") == ["218 OK VOLUME SET|"], "its own id names the connection itself")
        #expect(first.send("GET VOLUME") == ["251--20|251 OK GET RETURNED|"])
        // A closed connection's id names nobody any more.
        second.decoder.closed()
        #expect(first.send("SET 2 RATE 5") == ["303 ERR COULDNT SET RATE|"])
    }

    @Test(
        "SET <id> for an id no connection has answers that setting's 3xx and changes nothing",
        arguments: [
            ("LANGUAGE de", 302), ("RATE 5", 303), ("PITCH 5", 304), ("PUNCTUATION most", 305),
            ("CAP_LET_RECOGN spell", 306), ("SPELLING on", 308), ("VOICE_TYPE FEMALE1", 309),
            ("SYNTHESIS_VOICE de", 309), ("OUTPUT_MODULE espeak-ng", 312), ("PAUSE_CONTEXT 2", 313),
            ("VOLUME 5", 314), ("SSML_MODE on", 315), ("PITCH_RANGE 5", 340),
        ])
    func setUnknownClient(setting: String, code: Int) throws {
        var probe = DecoderProbe(frontEnd, client: 1)
        let answer = try #require(probe.send("SET 99 " + setting).first)
        #expect(answer.hasPrefix("\(code) ERR COULDNT SET"), "\(answer)")
        let session = probe.decoder.connection.session.withLock { $0.settings }
        #expect(session == SSIPSettings())
    }

    @Test("end of input is QUIT without a reply: nothing is decoded of an unfinished line or message")
    func endOfInput() {
        var probe = DecoderProbe(frontEnd)
        _ = probe.send("SPEAK", "unfinished")
        #expect(probe.decoder.decodeLast().inputs.isEmpty)
    }
}
