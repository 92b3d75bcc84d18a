// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Testing

private let status = StatusReport(
    running: false, muted: true, speaking: false, pending: 2, voice: "en-us", rate: 175, pitch: 50,
    volume: 100, audio: "wav", clients: 3, focus: "save", uptimeSeconds: 12, version: "0.1.0")

/// A status with the added fields (punctuation, what is speaking) set.
private var speakingStatus: StatusReport {
    var report = status
    report.speaking = true
    report.punctuation = .all
    report.speakingText = "3 new messages"
    report.speakingClient = "mail"
    report.paused = true
    return report
}

private let saveButton = Element(
    id: "save", label: "Save", value: "draft", traits: [.button, .notEnabled], hint: "Saves the document.",
    sortPriority: 2.5)

/// One of each event kind, with both id types and every termination.
private let events: [Event] = [
    .queued(id: 7, seq: 41),
    .started(id: "a\"b", seq: 41, text: "Save, button.\nSaves ✓"),
    // Additions to protocol 1.
    .queued(id: 7, seq: 41, warning: "no voice speaks the language \"xx\""),
    .started(id: 7, seq: 41, text: "Hi", voice: "en+f3"),
    .statusChanged(speakingStatus),
    .word(id: 7, seq: 41, offset: 5, length: 6),
    .mark(id: 7, seq: 41, name: "m1"),
    .paused(id: 7, seq: 41),
    .resumed(id: "r", seq: 41),
    .finished(id: 7, seq: 41, termination: .success),
    .finished(id: 7, seq: 41, termination: .failure(reason: .interrupted, spokenChars: 12)),
    .finished(id: 7, seq: 41, termination: .failure(reason: .error, spokenChars: 0, message: "audio failed")),
    .dropped(id: 7, reason: .offMain),
    .dropped(id: "x", reason: .queueFull),
    .error(id: 7, code: .invalid, message: "`rate` must be an integer"),
    .error(id: nil, code: .badJSON, message: "the line is not valid JSON"),
    .ok(id: 1, fields: ["daemon": "announced", "protocol": .integer(1)]),
    .ok(id: 2, fields: [:]),
    .statusChanged(status),
    .focusChanged(from: nil, to: "b", owner: true),
    .focusChanged(from: "a", to: nil, owner: false),
    .speech(.started(seq: 41, client: "mail", text: "3 new messages")),
    .speech(.started(seq: 41, client: "mail", text: "3 new messages", engine: "espeak-ng")),
    .speech(.finished(seq: 41, client: "mail", termination: .failure(reason: .muted, spokenChars: 0))),
    .speech(.finished(seq: 42, client: "pid:12", termination: .success)),
    .speech(.dropped(client: "mail", reason: .offMain)),
    .speech(.run(seq: 41, SpeechRun(language: "ru", voice: "ru", engine: "espeak-ng", range: 9..<15))),
    .speech(
        .run(
            seq: 41, SpeechRun(language: "xx", voice: "en_us-joe-medium", engine: "piper", range: 0..<4, fallback: true)
        )),
    .focused(element: "b"),
    .unfocused(element: "a"),
    .action(element: "slider", action: .increment, name: nil),
    .action(element: "row-3", action: .custom, name: "Delete"),
    .action(element: nil, action: .escape, name: nil),
    .lint(element: "save", rule: "label-period", message: "the label ends with a period"),
    .history(
        HistoryEntry(
            seq: 41, time: "2026-11-28T08:00:00Z", client: "mail", text: "3 new messages", voice: "en-us",
            language: "en-us", ending: .spoken(spokenChars: 14))),
    .history(
        HistoryEntry(
            seq: 42, time: "2026-11-28T08:00:01Z", client: "atspi:gedit", text: "<speak>Saved</speak>", ssml: true,
            voice: "de", language: "de-DE", ending: .ended(.error, spokenChars: 3, message: "espeak-ng crashed"))),
    .history(
        HistoryEntry(
            seq: nil, time: "2026-11-28T08:00:02Z", client: "pid:7", text: String(repeating: "x", count: 1001),
            voice: "en-us", language: "en", ending: .dropped(.offMain))),
]

private var everyOption: SpeechOptions {
    var options = SpeechOptions()
    options.thread = "background"
    options.priority = .high
    options.queue = true
    options.voice = "de"
    options.lang = "de-DE"
    options.rate = 200
    options.pitch = 40
    options.volume = 150
    options.punctuation = .some
    options.spell = true
    options.ssml = true
    options.words = true
    return options
}

/// One of each request kind, and each post kind with every subject.
private let requests: [RequestLine] = [
    RequestLine(id: 1, .speech(.announce("Download complete"))),
    RequestLine(id: "s", .speech(.announce("<speak>Hi</speak>", options: everyOption))),
    RequestLine(id: nil, .speech(.announce("fire and forget"))),
    RequestLine(id: 2, .speech(SpeechPost(kind: .focus, subject: .element(saveButton)))),
    RequestLine(id: 3, .speech(SpeechPost(kind: .focus, subject: .text("Settings")))),
    RequestLine(
        id: 4, .speech(SpeechPost(kind: .screenChanged, subject: .none, elements: [saveButton, Element(id: "b")]))),
    RequestLine(id: 5, .speech(SpeechPost(kind: .screenChanged, subject: .text("Inbox")))),
    RequestLine(id: 6, .speech(SpeechPost(kind: .layoutChanged, subject: .none))),
    RequestLine(
        id: 7, .speech(SpeechPost(kind: .layoutChanged, subject: .element(Element(id: "c", traits: [.header]))))),
    RequestLine(id: 8, .hello(client: "mail")),
    RequestLine(id: nil, .hello(client: nil)),
    RequestLine(id: 9, .status),
    RequestLine(id: 10, .stop),
    RequestLine(id: 10, .pause(untilResume: false)),
    RequestLine(id: 10, .pause(untilResume: true)),
    RequestLine(id: "p", .resume),
    RequestLine(id: 11, .cancel(target: "post-3")),
    RequestLine(id: 12, .set(SettingsChange(muted: true, voice: "en-gb", rate: 300, pitch: 10, volume: 0))),
    RequestLine(id: 13, .set(SettingsChange(muted: false))),
    RequestLine(id: 14, .subscribe([.status, .focus, .speech])),
    RequestLine(id: 15, .hello(client: "app", lint: true)),
    RequestLine(id: 16, .navigate(NavigateRequest(.next))),
    RequestLine(id: 17, .navigate(NavigateRequest(.rotorSelect, rotor: "headings"))),
    RequestLine(id: 18, .navigate(NavigateRequest(.custom, name: "Delete"))),
    RequestLine(
        id: 19,
        .update(
            ElementUpdate(
                id: "slider", label: .some(nil), value: "50 percent", traits: [.adjustable], hidden: false,
                actions: ["Reset"]))),
    RequestLine(
        id: 20,
        .speech(
            SpeechPost(
                kind: .screenChanged, subject: .none,
                elements: [
                    Element(
                        id: "row", label: "Inbox", children: [Element(id: "flag", label: "Flagged", traits: [.image])],
                        childrenMode: .combine, actions: ["Delete", "Flag"]),
                    Element(id: "gone", hidden: true),
                ],
                rotors: [CustomRotor(name: "Unread", elements: ["row", "flag"])]))),
    // Additions to protocol 1.
    RequestLine(id: 31, .set(SettingsChange(punctuation: .some))),
    RequestLine(id: 32, .cancelOwn(target: "build")),
    RequestLine(id: 33, .cancelOwn(target: nil)),
    RequestLine(id: 34, .voices(language: nil)),
    RequestLine(id: 35, .voices(language: "pt-BR")),
    RequestLine(id: 36, .short(.character(" "), SpeechOptions())),
    RequestLine(id: 37, .short(.key("control_alt_delete"), everyOption)),
    RequestLine(id: 38, .short(.sound("screen-changed"), SpeechOptions())),
    RequestLine(id: 39, .history(limit: nil)),
    RequestLine(id: 40, .history(limit: 5)),
    RequestLine(id: 41, .subscribe([.history])),
]

@Suite("Round trips of the wire types")
struct RoundTripTests {
    @Test("every event decodes to what was encoded", arguments: events)
    func event(_ event: Event) throws {
        let line = event.line
        #expect(line.last == UInt8(ascii: "\n"))
        let decoded = try Event(line: line.dropLast())
        #expect(decoded == event)
    }

    @Test("every request decodes to what was encoded", arguments: requests)
    func request(_ request: RequestLine) throws {
        let line = request.line
        #expect(line.last == UInt8(ascii: "\n"))
        let decoded = try RequestLine.decode(line: line.dropLast()).get()
        #expect(decoded == request)
    }

    @Test("a status answer's fields read as a status report")
    func statusFromOK() throws {
        let event = try Event(line: Array(Event.ok(id: 1, fields: status.jsonObject).line.dropLast()))
        guard case .ok(_, let fields) = event else {
            Issue.record("not an ok line: \(event)")
            return
        }
        #expect(try StatusReport(fields) == status)
    }

    @Test("event lines ignore unknown fields and tolerate a carriage return")
    func unknownFields() throws {
        let event = try Event(line: Array(#"{"event":"queued","future":[1],"id":3,"seq":9}"#.utf8) + [13])
        #expect(event == .queued(id: 3, seq: 9))
    }

    @Test(
        "bad event lines name what is wrong",
        arguments: [
            (#"{"event":"queued","id":3}"#, "seq"),
            (#"{"event":"teleported"}"#, "event"),
            (#"[1]"#, "line"),
            (#"{"event":"finished","id":1,"seq":2,"success":false,"reason":"bored"}"#, "reason"),
            ("not json", "line"),
        ])
    func badLines(line: String, field: String) {
        #expect(throws: FieldError.self) { try Event(line: Array(line.utf8)) }
        do {
            _ = try Event(line: Array(line.utf8))
        } catch {
            #expect(error.field == field)
        }
    }
}

@Suite("History entries on the wire")
struct HistoryEntryTests {
    @Test("an entry is written as the protocol's example, and a text past the limit is cut and marked truncated")
    func protocolExample() {
        let entry = HistoryEntry(
            seq: 41, time: "2026-11-28T08:00:00Z", client: "mail", text: "3 new messages", voice: "en-us",
            language: "en-us", ending: .spoken(spokenChars: 14))
        #expect(
            JSONValue.object(entry.jsonObject).jsonText
                == #"{"seq":41,"time":"2026-11-28T08:00:00Z","client":"mail","text":"3 new messages","voice":"en-us","lang":"en-us","success":true,"spoken_chars":14}"#
        )
        let interrupted = HistoryEntry(
            seq: 42, time: "t", client: "c", text: "x", voice: "v", language: "l",
            ending: HistoryEnding(.failure(reason: .interrupted, spokenChars: 0), length: 1))
        #expect(interrupted.jsonObject["reason"] == .string("interrupted"))
        #expect(interrupted.jsonObject["success"] == .bool(false))
        let long = HistoryEntry(
            seq: 1, time: "t", client: "c", text: String(repeating: "é", count: HistoryEntry.textLimit + 1),
            voice: "v", language: "l", ending: .spoken(spokenChars: HistoryEntry.textLimit + 1))
        #expect(long.truncated && long.text.unicodeScalars.count == HistoryEntry.textLimit)
        #expect(long.jsonObject["truncated"] == .bool(true))
    }
}
