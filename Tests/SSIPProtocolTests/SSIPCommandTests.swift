// SPDX-License-Identifier: GPL-3.0-or-later
import SSIPProtocol
import Testing

private func parse(_ line: String, insideBlock: Bool = false) -> Result<SSIPCommand, SSIPReply> {
    SSIPCommand.parse(Array(line.utf8), insideBlock: insideBlock)
}

private func code(_ line: String, insideBlock: Bool = false) -> Int? {
    if case .failure(let reply) = parse(line, insideBlock: insideBlock) { return reply.code }
    return nil
}

@Suite("SSIP commands")
struct SSIPCommandTests {
    @Test(
        "every command clients send parses, keywords in any case",
        arguments: [
            ("SET SELF CLIENT_NAME \"user:spd-say:main\"", SSIPCommand.set(.self, .clientName("user:spd-say:main"))),
            ("set self client_name unknown:Orca:default", .set(.self, .clientName("unknown:Orca:default"))),
            ("HISTORY GET CLIENT_ID", .historyClientID),
            ("SET SELF NOTIFICATION index_marks on", .set(.self, .notification(.indexMarks, true))),
            ("SET SELF NOTIFICATION ALL off", .set(.self, .notification(nil, false))),
            ("SET SELF PRIORITY message", .set(.self, .priority(.message))),
            ("SPEAK", .speak),
            ("CHAR a", .char("a")),
            ("CHAR space", .char("space")),
            ("KEY shift_a", .key("shift_a")),
            ("SOUND_ICON message", .soundIcon("message")),
            ("STOP all", .stop(.all)),
            ("CANCEL self", .cancel(.self)),
            ("PAUSE 3", .pause(.client(3))),
            ("RESUME self", .resume(.self)),
            ("SET self RATE 2", .set(.self, .rate(2))),
            ("SET all PITCH -10", .set(.all, .pitch(-10))),
            ("SET self PITCH_RANGE +30", .set(.self, .pitchRange(30))),
            ("SET 4 VOLUME 100", .set(.client(4), .volume(100))),
            ("SET self LANGUAGE en-US", .set(.self, .language("en-US"))),
            ("SET self VOICE_TYPE female2", .set(.self, .voiceType(.female2))),
            (
                "SET self SYNTHESIS_VOICE English (Great Britain)",
                .set(.self, .synthesisVoice("English (Great Britain)"))
            ),
            ("SET self OUTPUT_MODULE espeak-ng", .set(.self, .outputModule("espeak-ng"))),
            ("SET self PUNCTUATION most", .set(.self, .punctuation(.most))),
            ("SET self CAP_LET_RECOGN spell", .set(.self, .capitalLetters(.spell))),
            ("SET self SPELLING on", .set(.self, .spelling(true))),
            ("SET self SSML_MODE On", .set(.self, .ssmlMode(true))),
            ("SET self PAUSE_CONTEXT 2", .set(.self, .pauseContext(2))),
            ("SET all DEBUG on", .set(.all, .debug(true))),
            ("GET rate", .get(.rate)),
            ("GET OUTPUT_MODULE", .get(.outputModule)),
            ("LIST VOICES", .list(.voices)),
            ("LIST output_modules", .list(.outputModules)),
            ("LIST SYNTHESIS_VOICES", .list(.synthesisVoices)),
            ("BLOCK BEGIN", .blockBegin),
            ("block end", .blockEnd),
            ("HELP", .help),
            ("QUIT", .quit),
            ("BYE", .quit),
        ])
    func commands(line: String, expected: SSIPCommand) {
        #expect(parse(line) == .success(expected))
        #expect(parse(line + "\r") == .success(expected), "a trailing CR is tolerated")
    }

    @Test(
        "refusals carry speech-dispatcher's codes",
        arguments: [
            ("JUMP", 500), ("", 500), ("SET self FLAVOUR 3", 500),
            ("CHAR", 510), ("KEY", 510), ("SOUND_ICON", 510), ("STOP", 510), ("SET self", 510), ("SET self RATE", 510),
            ("GET", 510), ("LIST", 510), ("HISTORY", 510), ("HISTORY GET", 510), ("BLOCK", 510),
            ("SET self RATE fast", 511), ("SET self RATE 1x", 511), ("SET self PAUSE_CONTEXT x", 511),
            ("SET self RATE 101", 409), ("SET self RATE -101", 410), ("SET self PITCH 200", 411),
            ("SET self PITCH -200", 412),
            ("SET self VOLUME 101", 413), ("SET self VOLUME -101", 414), ("SET self PITCH_RANGE 101", 415),
            ("SET self PITCH_RANGE -101", 416),
            ("SET self PRIORITY urgent", 408), ("SET all PRIORITY text", 301),
            ("SET all CLIENT_NAME x:y:z", 514), ("SET 3 NOTIFICATION all on", 514),
            ("SET self NOTIFICATION begin maybe", 514),
            ("SET self NOTIFICATION colours on", 514), ("SET self PUNCTUATION lots", 514),
            ("SET self CAP_LET_RECOGN loud", 514),
            ("SET self VOICE_TYPE robot", 514), ("SET nobody RATE 1", 514), ("CANCEL everyone", 514),
            ("GET colour", 514),
            ("LIST fonts", 514), ("BLOCK middle", 514),
            ("SET self SPELLING yes", 513), ("SET self SSML_MODE 1", 513),
            ("STOP 0", 406), ("CANCEL -2", 406),
            ("HISTORY GET CLIENT_LIST", 380), ("HISTORY SORT", 380),
        ])
    func refusals(line: String, expected: Int) {
        #expect(code(line) == expected, "\(line)")
    }

    @Test(
        "inside a block only speech, settings of the message and BLOCK END are allowed",
        arguments: [
            ("STOP self", 332), ("CANCEL all", 332), ("PAUSE self", 332), ("RESUME self", 332), ("GET rate", 332),
            ("LIST VOICES", 332), ("HISTORY GET CLIENT_ID", 332), ("HELP", 332), ("SET self PRIORITY text", 332),
            ("SET self CLIENT_NAME a:b:c", 332), ("SET self OUTPUT_MODULE x", 332), ("SET self SPELLING on", 332),
        ])
    func notInBlock(line: String, expected: Int) {
        #expect(code(line, insideBlock: true) == expected)
        #expect(code(line, insideBlock: false) != expected)
    }

    @Test(
        "allowed inside a block",
        arguments: [
            "SPEAK", "CHAR x", "KEY a", "SOUND_ICON bell", "SET self RATE 5", "SET self SSML_MODE on", "BLOCK END",
            "QUIT",
        ])
    func inBlock(line: String) throws {
        _ = try parse(line, insideBlock: true).get()
    }

    @Test("invalid UTF-8 is 501")
    func invalidEncoding() {
        #expect(SSIPCommand.parse(Array("CHAR ".utf8) + [0xC3, 0x28]).map { _ in 0 } == .failure(.invalidEncoding))
    }

    @Test("a doubled space is not a missing argument; values keep their case and inner spaces")
    func spacing() {
        #expect(parse("SET  self  RATE  5") == .success(.set(.self, .rate(5))))
        #expect(parse("SET self SYNTHESIS_VOICE  Mb  En1 ") == .success(.set(.self, .synthesisVoice("Mb  En1"))))
        #expect(parse("CHAR É") == .success(.char("É")))
    }

    @Test("a line with letters beyond ASCII is split by characters: a space with a combining mark is no separator")
    func charactersBeyondASCII() {
        // ASCII lines are split byte by byte where they lie; this pins that other lines still split
        // as Swift's characters do (a byte-wise split would cut the language at the space).
        #expect(parse("SET self LANGUAGE x \u{301}y") == .success(.set(.self, .language("x \u{301}y"))))
        #expect(
            parse("SET self SYNTHESIS_VOICE  Zoë  Ünïcode ") == .success(.set(.self, .synthesisVoice("Zoë  Ünïcode"))))
        #expect(
            parse("SET SELF CLIENT_NAME \"user:Éditeur:main\"")
                == .success(.set(.self, .clientName("user:Éditeur:main"))))
        #expect(parse("SET self RATE ５") == .failure(.notANumber), "a digit of another script is not a number")
    }

    @Test("a keyword longer than a small string, and the same line from a buffer where it lies, parse alike")
    func longKeywordsAndBuffers() {
        #expect(parse("set self debug_destination /tmp/x") == .success(.set(.self, .debugDestination("/tmp/x"))))
        #expect(parse("LIST SYNTHESIS_VOICES") == .success(.list(.synthesisVoices)))
        for line in ["GET RATE\r", "SET self RATE 10", "set SELF synthesis_voice Mb En1", "CHAR É"] {
            let bytes = Array(line.utf8)
            let fromBuffer = bytes.withUnsafeBytes { SSIPCommand.parse(bytes: $0) }
            #expect(fromBuffer == SSIPCommand.parse(bytes.lazy.map { $0 }), "\(line)")
        }
    }
}
