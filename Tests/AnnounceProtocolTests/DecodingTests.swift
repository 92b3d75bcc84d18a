// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

private func decode(_ line: String, limits: DecodingLimits = DecodingLimits()) -> Result<RequestLine, RequestError> {
    RequestLine.decode(line: Array(line.utf8), limits: limits)
}

private func error(_ line: String, limits: DecodingLimits = DecodingLimits()) -> RequestError? {
    if case .failure(let error) = decode(line, limits: limits) { return error }
    return nil
}

@Suite("Request decoding")
struct DecodingTests {
    @Test("an announce with every option")
    func fullAnnounce() throws {
        let line = try decode(
            #"{"op":"announce","id":7,"text":"Saved","priority":"high","queue":true,"voice":"de","lang":"de-DE","rate":200,"pitch":40,"volume":150,"punctuation":"some","spell":true,"ssml":false,"words":true,"thread":"main","future_field":[1,2]}"#
        ).get()
        #expect(line.id == .integer(7))
        guard case .speech(let post) = line.request else {
            Issue.record("not a post")
            return
        }
        #expect(post.kind == .announce)
        #expect(post.subject == .text("Saved"))
        let o = post.options
        #expect(o.priority == .high && o.queue && o.voice == "de" && o.lang == "de-DE")
        #expect(o.rate == 200 && o.pitch == 40 && o.volume == 150 && o.punctuation == .some)
        #expect(o.spell && !o.ssml && o.words && o.isMainThread)
    }

    @Test("a trailing carriage return is tolerated; string ids are echoed")
    func carriageReturn() throws {
        let line = try decode("{\"op\":\"status\",\"id\":\"abc\"}\r").get()
        #expect(line.id == .string("abc"))
        #expect(line.request == .status)
    }

    @Test(
        "element objects, strings and null",
        arguments: [
            (
                #"{"op":"focus","element":{"id":"a","label":"Save","value":"v","traits":["button","not-enabled"],"hint":"h","sort_priority":2.5}}"#,
                PostSubject.element(
                    Element(
                        id: "a", label: "Save", value: "v", traits: [.button, .notEnabled], hint: "h", sortPriority: 2.5
                    ))
            ),
            (#"{"op":"screen-changed","element":"Settings"}"#, .text("Settings")),
            (#"{"op":"layout-changed","element":null}"#, .none),
            (#"{"op":"layout-changed"}"#, .none),
        ])
    func subjects(line: String, subject: PostSubject) throws {
        guard case .speech(let post) = try decode(line).get().request else {
            Issue.record("not a post")
            return
        }
        #expect(post.subject == subject)
    }

    @Test("control requests")
    func controls() throws {
        #expect(try decode(#"{"op":"hello","client":"mail"}"#).get().request == .hello(client: "mail", lint: false))
        #expect(try decode(#"{"op":"stop"}"#).get().request == .stop)
        #expect(try decode(#"{"op":"pause","id":1}"#).get().request == .pause(untilResume: false))
        #expect(try decode(#"{"op":"pause","id":1,"until":"resume"}"#).get().request == .pause(untilResume: true))
        #expect(try decode(#"{"op":"resume","id":2}"#).get().request == .resume)
        #expect(try decode(#"{"op":"cancel","target":"x"}"#).get().request == .cancel(target: "x"))
        #expect(
            try decode(#"{"op":"set","muted":true,"rate":90}"#).get().request
                == .set(SettingsChange(muted: true, rate: 90)))
        #expect(
            try decode(#"{"op":"subscribe","events":["status","speech"]}"#).get().request
                == .subscribe([.status, .speech]))
    }

    @Test(
        "each error code the decoder gives",
        arguments: [
            ("{not json", ErrorCode.badJSON),
            (#"{"op":"announce","text":"a"} trailing"#, .badJSON),
            ("[1,2]", .notObject),
            (#""announce""#, .notObject),
            (#"{"id":1}"#, .missingOp),
            (#"{"op":"shout","id":1}"#, .unknownOp),
            (#"{"op":5}"#, .invalid),
            (#"{"op":"announce"}"#, .invalid),
            (#"{"op":"announce","text":"   "}"#, .invalid),
            (#"{"op":"announce","text":5}"#, .invalid),
            (#"{"op":"announce","text":"a","priority":"urgent"}"#, .invalid),
            (#"{"op":"announce","text":"a","rate":79}"#, .invalid),
            (#"{"op":"announce","text":"a","rate":\#(SpeechRanges.rate.upperBound + 1)}"#, .invalid),
            (#"{"op":"announce","text":"a","pitch":101}"#, .invalid),
            (#"{"op":"announce","text":"a","volume":-1}"#, .invalid),
            (#"{"op":"announce","text":"a","rate":1.5}"#, .invalid),
            (#"{"op":"announce","text":"a","queue":"yes"}"#, .invalid),
            (#"{"op":"announce","text":"a","punctuation":"most"}"#, .invalid),
            (#"{"op":"announce","text":"a","lang":"not a tag"}"#, .invalid),
            (#"{"op":"announce","text":"a","id":[1]}"#, .invalid),
            (#"{"op":"focus","element":{"label":"no id"}}"#, .invalid),
            (#"{"op":"focus","element":{"id":"a","traits":["sparkly"]}}"#, .invalid),
            (#"{"op":"focus","element":{"id":"a","traits":"button"}}"#, .invalid),
            (#"{"op":"focus","element":{"id":"a","sort_priority":"high"}}"#, .invalid),
            (#"{"op":"focus","element":7}"#, .invalid),
            (#"{"op":"screen-changed","elements":{"id":"a"}}"#, .invalid),
            (#"{"op":"cancel"}"#, .invalid),
            (#"{"op":"set","muted":"yes"}"#, .invalid),
            (#"{"op":"subscribe","events":["weather"]}"#, .invalid),
            (#"{"op":"subscribe"}"#, .invalid),
            ("{\"op\":\"announce\",\"text\":\"\u{7F}\\ud800\"}", .badJSON),
        ])
    func errorCodes(line: String, code: ErrorCode) {
        #expect(error(line)?.code == code, "\(line)")
    }

    @Test("invalid errors name the field")
    func invalidNamesField() {
        #expect(error(#"{"op":"announce","text":"a","rate":10000}"#)?.message.contains("rate") == true)
        #expect(
            error(#"{"op":"focus","element":{"id":"a","traits":["x"]}}"#)?.message.contains("element.traits") == true)
        #expect(
            error(#"{"op":"screen-changed","elements":[{"id":"a"},{"label":"b"}]}"#)?.message.contains("elements[1].id")
                == true)
    }

    @Test("errors carry the request's id when it had a valid one")
    func errorsKeepID() {
        #expect(error(#"{"op":"nope","id":"x"}"#)?.id == .string("x"))
        #expect(error(#"{"op":"announce","id":4,"text":""}"#)?.id == .integer(4))
        #expect(error("{bad")?.id == nil)
    }

    @Test("text-too-long at max_text_chars + 1, counted in Unicode scalars")
    func textLimit() {
        let limits = DecodingLimits(maxTextChars: 5)
        #expect((try? decode(#"{"op":"announce","text":"ééééé"}"#, limits: limits).get()) != nil)
        #expect(error(#"{"op":"announce","text":"éééééé"}"#, limits: limits)?.code == .textTooLong)
        #expect(error(#"{"op":"focus","element":"abcdef"}"#, limits: limits)?.code == .textTooLong)
        let long = String(repeating: "a", count: 1_048_577)
        #expect(error(#"{"op":"announce","text":"\#(long)"}"#)?.code == .textTooLong)
        #expect((try? decode(#"{"op":"announce","text":"\#(long.dropLast())"}"#).get()) != nil)
    }

    @Test("text-too-long says how long the text is, the limit, and what to do instead")
    func textLimitMessage() {
        let message =
            error(#"{"op":"announce","text":"abcdef"}"#, limits: DecodingLimits(maxTextChars: 5))?.message ?? ""
        #expect(message.contains("6 characters"), "\(message)")
        #expect(message.contains("the limit is 5 (`max_text_chars`)"), "\(message)")
        #expect(message.contains("several posts with `queue: true`"), "\(message)")
        #expect(message.contains("raise `max_text_chars`"), "\(message)")
        #expect(DecodingLimits().maxTextChars == 1_048_576)
    }
}

@Suite("JSON")
struct JSONTests {
    @Test("parses and writes back the values the protocol uses")
    func roundTrip() throws {
        let text = #"{"a":[1,-2,3.5,true,false,null],"b":"é\n\"\\\u0001","c":{}}"#
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value.jsonText == #"{"a":[1,-2,3.5,true,false,null],"b":"é\n\"\\\u0001","c":{}}"#)
    }

    @Test(
        "rejects what RFC 8259 rejects",
        arguments: [
            "", "{", "{\"a\":}", "[1,]", "01", "1.", "\"\\x\"", "{\"a\" 1}", "tru", "\"\u{01}\"", "nan", "[1] [2]",
        ])
    func rejects(text: String) {
        #expect(throws: (any Error).self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("nesting deeper than 64 is refused rather than overflowing the stack")
    func depth() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: (any Error).self) { try JSONParser.parse(Array(deep.utf8)) }
    }

    @Test(
        "invalid UTF-8 is refused, in a plain string and after an escape",
        arguments: [
            [0xC3, 0x28], // a lead byte without its continuation
            [0x80], // a continuation byte alone
            [0xE2, 0x82], // a sequence cut short
            [0xC0, 0xAF], // an overlong "/"
            [0xED, 0xA0, 0x80], // a UTF-16 surrogate
            [0xF4, 0x90, 0x80, 0x80], // past U+10FFFF
            [0xFF],
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let n = UInt8(ascii: "n")
        #expect(throws: (any Error).self) { try JSONParser.parse([quote] + bytes + [quote]) }
        #expect(throws: (any Error).self) { try JSONParser.parse([quote, backslash, n] + bytes + [quote]) }
        #expect(throws: (any Error).self) { try JSONParser.parse([quote] + bytes + [backslash, n, quote]) }
    }

    @Test("valid UTF-8 comes through unchanged, U+FFFD written out included")
    func validUTF8() throws {
        for text in ["Grüße", "日本語", "😀", "\u{FFFD}", "a\u{FFFD}b"] {
            #expect(try JSONParser.parse(Array("\"\(text)\"".utf8)) == .string(text))
            #expect(try JSONParser.parse(Array("\"\\n\(text)\"".utf8)) == .string("\n" + text))
        }
    }

    @Test("surrogate pairs decode to one scalar")
    func surrogates() throws {
        #expect(try JSONParser.parse(Array(#""\ud83d\ude00""#.utf8)) == .string("😀"))
    }
}

@Suite("Event encoding")
struct EventEncodingTests {
    @Test(
        "lines match the protocol's examples",
        arguments: [
            (Event.queued(id: 7, seq: 41), #"{"event":"queued","id":7,"seq":41}"#),
            (
                .started(id: 7, seq: 41, text: "Save, button. Saves the document."),
                #"{"event":"started","id":7,"seq":41,"text":"Save, button. Saves the document."}"#
            ),
            (.finished(id: 7, seq: 41, termination: .success), #"{"event":"finished","id":7,"seq":41,"success":true}"#),
            (
                .finished(id: 7, seq: 41, termination: .failure(reason: .interrupted, spokenChars: 12)),
                #"{"event":"finished","id":7,"seq":41,"success":false,"reason":"interrupted","spoken_chars":12}"#
            ),
            (
                .finished(id: 7, seq: 41, termination: .failure(reason: .error, spokenChars: 0, message: "boom")),
                #"{"event":"finished","id":7,"seq":41,"success":false,"reason":"error","spoken_chars":0,"message":"boom"}"#
            ),
            (.dropped(id: 7, reason: .offMain), #"{"event":"dropped","id":7,"reason":"off-main"}"#),
            (
                .error(id: nil, code: .lineTooLong, message: "m"),
                #"{"event":"error","code":"line-too-long","message":"m"}"#
            ),
            (.word(id: 7, seq: 41, offset: 5, length: 6), #"{"event":"word","id":7,"seq":41,"offset":5,"length":6}"#),
            (.mark(id: 7, seq: 41, name: "m1"), #"{"event":"mark","id":7,"seq":41,"name":"m1"}"#),
            (.paused(id: 7, seq: 41), #"{"event":"paused","id":7,"seq":41}"#),
            (.resumed(id: 7, seq: 41), #"{"event":"resumed","id":7,"seq":41}"#),
            (
                .focusChanged(from: "a", to: "b", owner: true),
                #"{"event":"focus-changed","from":"a","to":"b","owner":true}"#
            ),
            (
                .speech(.started(seq: 41, client: "mail", text: "3 new messages")),
                #"{"event":"speech","state":"started","seq":41,"client":"mail","text":"3 new messages"}"#
            ),
            (
                .speech(.started(seq: 41, client: "mail", text: "3 new messages", engine: "piper")),
                #"{"event":"speech","state":"started","seq":41,"client":"mail","text":"3 new messages","engine":"piper"}"#
            ),
            (
                .speech(
                    .finished(seq: 41, client: "mail", termination: .failure(reason: .interrupted, spokenChars: 0))),
                #"{"event":"speech","state":"finished","seq":41,"client":"mail","success":false,"reason":"interrupted","spoken_chars":0}"#
            ),
            (
                .speech(.run(seq: 41, SpeechRun(language: "ru", voice: "ru", engine: "espeak-ng", range: 9..<15))),
                #"{"event":"speech","state":"run","seq":41,"lang":"ru","voice":"ru","engine":"espeak-ng","start":9,"end":15}"#
            ),
            (
                .speech(
                    .run(
                        seq: 41,
                        SpeechRun(language: "xx", voice: "en-us", engine: "espeak-ng", range: 0..<4, fallback: true))),
                #"{"event":"speech","state":"run","seq":41,"lang":"xx","voice":"en-us","engine":"espeak-ng","start":0,"end":4,"fallback":true}"#
            ),
            (.focused(element: "b"), #"{"event":"focused","element":"b"}"#),
            (.unfocused(element: "a"), #"{"event":"unfocused","element":"a"}"#),
        ])
    func lines(event: Event, line: String) {
        #expect(event.json.jsonText == line)
        #expect(event.line == Array((line + "\n").utf8))
    }
}

@Suite("Decoding the additions for spd-say users (voices, cancel scope, char, key, sound)")
struct AdditionDecodingTests {
    @Test(
        "cancel's scope and the voices request: what is valid, and invalid naming the field",
        arguments: [
            (#"{"op":"cancel","id":1,"scope":"client"}"#, nil),
            (#"{"op":"cancel","id":1,"scope":"client","target":"x"}"#, nil),
            (#"{"op":"cancel","id":1,"scope":"connection"}"#, "`target`"),
            (#"{"op":"cancel","id":1,"scope":"everyone","target":1}"#, "`scope`"),
            (#"{"op":"voices","id":1}"#, nil),
            (#"{"op":"voices","id":1,"lang":"1"}"#, "`lang`"),
            (#"{"op":"set","id":1,"punctuation":"most"}"#, "`punctuation`"),
            (#"{"op":"history","id":1}"#, nil),
            (#"{"op":"history","id":1,"limit":1}"#, nil),
            (#"{"op":"history","id":1,"limit":0}"#, "`limit`"),
            (#"{"op":"history","id":1,"limit":"3"}"#, "`limit`"),
            (#"{"op":"history","id":1,"limit":2.5}"#, "`limit`"),
            (#"{"op":"subscribe","id":1,"events":["history","lyrics"]}"#, "`events`"),
        ] as [(String, String?)])
    func additions(line: String, invalidField: String?) {
        switch RequestLine.decode(line: Array(line.utf8)) {
        case .success:
            #expect(invalidField == nil, "\(line) decoded")
        case .failure(let error):
            #expect(
                error.code == .invalid && invalidField.map { error.message.contains($0) } == true,
                "\(line): \(error.message)")
        }
    }
}
