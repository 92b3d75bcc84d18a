// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// What `speech` subscribers see of a post's language runs (`"state":"run"`), through the real
/// daemon: each run's language, voice, engine and place in the post's text, and, in the recorded
/// audio, that the voice named is the one heard.
@Suite(
    "Language runs: the run events a monitor sees, and the voice each names heard", .daemonTimeLimit, .onBlockingThreads
)
struct LanguageRunEventTests {
    @Test(
        "Greek and Japanese in an English post: runs in el and ja, each heard as espeak-ng's el and ja, nothing spelled"
    )
    func greekAndJapanese() throws {
        let daemon = try DaemonProcess()
        let watcher = try RunWatcher(daemon)
        let text = "The words Καλημέρα and こんにちは were saved"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(
            runs.map(\.summary) == [
                "en-us en-us espeak-ng The words", "el el espeak-ng Καλημέρα", "en-us en-us espeak-ng and",
                "ja ja espeak-ng こんにちは", "en-us en-us espeak-ng were saved",
            ])
        let heard = try daemon.wavSamples(seq: seq)
        let segments = try RunAudio.segments(of: heard, runs: runs)
        #expect(
            envelopeCorrelation(segments[1], try RunAudio.reference(runs[1])) > 0.9,
            "the Greek run does not sound like espeak-ng's el \"Καλημέρα\"")
        #expect(
            envelopeCorrelation(segments[3], try RunAudio.reference(runs[3])) > 0.9,
            "the Japanese run does not sound like espeak-ng's ja \"こんにちは\"")
        // English reads Greek as letter names ("kappa alpha lambda ...") and Japanese as "Japanese
        // letter" five times: the whole post would last far longer.
        let spelled = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
        #expect(
            Double(spelled.count) > Double(WAVFile.trimmed(heard).count) * 1.5,
            "English spells both: \(spelled.count) samples against \(WAVFile.trimmed(heard).count) heard")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "A Han run in an English post is Mandarin: espeak-ng's cmn-latn-pinyin, not cmn (which reads its pinyin as English)"
    )
    func chinese() throws {
        let daemon = try DaemonProcess()
        let watcher = try RunWatcher(daemon)
        let text = "The file 文件已保存 was saved"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(
            runs.map(\.summary) == [
                "en-us en-us espeak-ng The file", "zh cmn-latn-pinyin espeak-ng 文件已保存",
                "en-us en-us espeak-ng was saved",
            ])
        let segments = try RunAudio.segments(of: try daemon.wavSamples(seq: seq), runs: runs)
        let mandarin = try RunAudio.reference(runs[1])
        #expect(envelopeCorrelation(segments[1], mandarin) > 0.9, "the Han run is not espeak-ng's Mandarin")
        // espeak-ng 1.51's `cmn` turns the characters into pinyin and reads that with English rules.
        let latinAsEnglish = WAVFile.trimmed(try espeakReference(text: runs[1].text, voice: "cmn", rate: 175))
        #expect(
            abs(latinAsEnglish.count - mandarin.count) > mandarin.count / 10
                || envelopeCorrelation(segments[1], Array(latinAsEnglish)) < 0.8,
            "cmn and cmn-latn-pinyin read these characters alike: the choice would not matter")
        #expect(daemon.stop() == 0)
    }

    @Test("languages [en, uk]: a Cyrillic run is Ukrainian, heard as espeak-ng's uk")
    func ukrainian() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_LANGUAGES": "en,uk"])
        let watcher = try RunWatcher(daemon)
        let text = "The file Привіт was saved"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(
            runs.map(\.summary) == [
                "en-us en-us espeak-ng The file", "uk uk espeak-ng Привіт", "en-us en-us espeak-ng was saved",
            ])
        let segments = try RunAudio.segments(of: try daemon.wavSamples(seq: seq), runs: runs)
        #expect(envelopeCorrelation(segments[1], try RunAudio.reference(runs[1])) > 0.9)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "A post all in Russian, with the English default voice: one run, spoken by espeak-ng's ru as it speaks it alone"
    )
    func wholePostInAnotherScript() throws {
        let daemon = try DaemonProcess()
        let watcher = try RunWatcher(daemon)
        let text = "Привет, как дела?"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(runs.map(\.summary) == ["ru ru espeak-ng Привет, как дела?"])
        // The post is a fresh helper's first text: sample for sample espeak-ng's own Russian.
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: seq))
        #expect(heard.elementsEqual(try RunAudio.reference(runs[0])), "not espeak-ng's ru rendering")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "A language no voice speaks (languages [en, mn]: Cyrillic as Mongolian): the post's voice, fallback on the run")
    func fallbackInPlainText() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_LANGUAGES": "en,mn"])
        let watcher = try RunWatcher(daemon)
        let text = "The file Привет was saved"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(
            runs.map(\.summary) == [
                "en-us en-us espeak-ng The file", "mn en-us espeak-ng Привет", "en-us en-us espeak-ng was saved",
            ])
        #expect(runs.map(\.fallback) == [false, true, false])
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("no voice speaks mn"))
    }

    @Test(
        "The Piper voice's post with a Russian word: the monitor names piper for the English runs and espeak-ng for the Russian",
        .enabled(if: FetchedPiper.isFetched, "the Piper engine or its test voice is not fetched")
    )
    func piperAndEspeakInOnePost() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory])
        try FetchedPiper.install(in: daemon.voicesDirectory)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        let watcher = try RunWatcher(daemon)
        let text = "The file Привет was saved"
        let seq = try watcher.speak(text, voice: "en_us-joe-medium")
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(
            runs.map(\.summary) == [
                "en-us en_us-joe-medium piper The file", "ru ru espeak-ng Привет",
                "en-us en_us-joe-medium piper was saved",
            ])
        #expect(daemon.stop() == 0)
    }

    @Test("language_switching off: one run, the whole text in the post's voice")
    func off() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_LANGUAGE_SWITCHING": "off"])
        let watcher = try RunWatcher(daemon)
        let text = "The file Привет was saved"
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(runs.map(\.summary) == ["en-us en-us espeak-ng The file Привет was saved"])
        #expect(runs.first?.range == 0..<text.unicodeScalars.count)
        #expect(daemon.stop() == 0)
    }

    @Test("detect: an English post quoting a German sentence has a German run, heard as espeak-ng's de")
    func detectGerman() throws {
        let daemon = try DaemonProcess(environment: [
            "ANNOUNCED_LANGUAGE_SWITCHING": "detect", "ANNOUNCED_LANGUAGES": "en,de",
        ])
        let watcher = try RunWatcher(daemon)
        let text = "He wrote \"Ich habe heute leider keine Zeit für dich\" and left."
        let seq = try watcher.speak(text)
        let runs = try watcher.runs(seq: seq, of: text)
        #expect(runs.map(\.language) == ["en-us", "de", "en-us"], "\(runs.map(\.summary))")
        let germanRun = try #require(runs.first { $0.language == "de" })
        #expect(germanRun.voice == "de" && germanRun.engine == "espeak-ng")
        #expect(germanRun.text == "\"Ich habe heute leider keine Zeit für dich\"", "\(germanRun.text)")
        // CLD2 is opened when detect first asks (LazyLibraryTests: never in `script`).
        #expect(try LazyLibraryTests.maps(daemon.process.processIdentifier, "libcld2"))
        let segments = try RunAudio.segments(of: try daemon.wavSamples(seq: seq), runs: runs)
        #expect(envelopeCorrelation(segments[1], try RunAudio.reference(germanRun)) > 0.9)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "SSML over the native protocol: xml:lang runs with their places in the SSML; an unknown language says fallback")
    func nativeSSML() throws {
        let daemon = try DaemonProcess()
        let watcher = try RunWatcher(daemon)
        let ssml =
            #"<speak>Hello <lang xml:lang="el">Καλημέρα</lang> and <lang xml:lang="xx">Qapla</lang> friend</speak>"#
        let seq = try watcher.speak(ssml, ssml: true)
        let runs = try watcher.runs(seq: seq, of: ssml)
        #expect(runs.map(\.language) == ["en-us", "el", "en-us", "xx", "en-us"], "\(runs.map(\.summary))")
        #expect(runs.map(\.voice) == ["en-us", "el", "en-us", "en-us", "en-us"])
        #expect(runs.map(\.fallback) == [false, false, false, true, false])
        #expect(runs[1].text.contains("Καλημέρα") && !runs[1].text.contains("Hello"), "\(runs[1].text)")
        #expect(runs[3].text.contains("Qapla") && !runs[3].text.contains("friend"), "\(runs[3].text)")
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("no voice speaks xx"))
    }

    @Test("SSML over SSIP (SSML_MODE on): one BEGIN, marks in order, one END; a native monitor sees the xml:lang runs")
    func ssipSSML() throws {
        let ssip = try SSIPDaemon()
        let watcher = try RunWatcher(ssip.daemon)
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self CLIENT_NAME \"unknown:runs:test\"")?.code == 208)
        #expect(client.command("SET self NOTIFICATION all on")?.code == 220)
        #expect(client.command("SET self SSML_MODE on")?.code == 219)
        let ssml =
            #"<speak><mark name="a"/>Hello <lang xml:lang="de"><mark name="b"/>guten Tag</lang> <mark name="c"/>and welcome</speak>"#
        let messageID = try #require(client.speak(ssml).messageID)
        try #require(client.waitForTerminal(messageID: messageID) != nil)
        let events = client.blocks.filter { $0.isEvent && $0.messageID == messageID }
        #expect(events.map(\.code) == [701, 700, 700, 700, 702], "\(events)")
        #expect(events.compactMap(\.mark) == ["a", "b", "c"])
        let runs = try watcher.runs(client: "unknown:runs:test")
        #expect(runs.map(\.language) == ["en-us", "de", "en-us"], "\(runs.map(\.summary))")
        #expect(runs.map(\.voice) == ["en-us", "de", "en-us"])
        #expect(ssip.daemon.stop() == 0)
    }

    @Test(
        "python3-speechd speaks a mixed text: its callbacks and the wire's events unchanged, the runs seen by a native monitor"
    )
    func pythonSpeechd() throws {
        let ssip = try SSIPDaemon()
        let watcher = try RunWatcher(ssip.daemon)
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        let messageID = try driver.speak("The file Привет was saved", tag: "mixed")
        #expect(driver.waitForTerminalCallback(tag: "mixed") == "end")
        #expect(driver.callbacks(tag: "mixed") == ["begin", "end"])
        #expect(driver.wireEvents(messageID: messageID) == ["begin", "end"])
        let runs = try watcher.runs(client: nil)
        #expect(
            runs.map(\.summary).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
                "en-us en-us espeak-ng", "ru ru espeak-ng", "en-us en-us espeak-ng",
            ])
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }

    @Test("announcectl monitor shows each run's language, voice and engine; --json prints the run lines")
    func monitor() throws {
        let daemon = try DaemonProcess()
        let human = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor"])
        let json = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor", "--json"])
        #expect(human.waitForOutputLine { $0.hasPrefix("status: ") } != nil)
        let mail = try daemon.connect()
        mail.send(#"{"op":"hello","client":"mail"}"#)
        // The JSON monitor prints nothing before the first event: post until it shows a run.
        var seen: String?
        for id in 1...20 where seen == nil {
            mail.send(announce(id, "The file Привет was saved"))
            mail.waitForTerminal(id: id)
            seen = json.waitForOutputLine(timeout: 1) { $0.contains(#""state":"run""#) && $0.contains(#""lang":"ru""#) }
        }
        let line = try #require(seen)
        let seq = try #require(
            (try? JSONParser.parse(line))?.objectValue?["seq"]?.integerValue.flatMap { UInt64(exactly: $0) })
        #expect(
            try Event(line: Array(line.utf8))
                == .speech(.run(seq: seq, SpeechRun(language: "ru", voice: "ru", engine: "espeak-ng", range: 9..<15))))
        #expect(
            human.waitForOutputLine { $0 == "mail #\(seq) run ru, voice ru (espeak-ng): Привет" } != nil,
            "\(human.output.currentText())")
        mail.send(announce(99, #"<speak>Hi <lang xml:lang=\"xx\">Qapla</lang></speak>"#, #","ssml":true"#))
        mail.waitForTerminal(id: 99)
        #expect(
            human.waitForOutputLine { $0.contains("run xx, no voice for xx: the post's voice en-us (espeak-ng)") }
                != nil,
            "\(human.output.currentText())")
        for process in [human, json] {
            kill(process.process.processIdentifier, SIGINT)
            _ = process.finish()
        }
    }
}

/// One `run` line as a monitor received it, with the post's text in its range.
struct ReceivedRun {
    var seq: Int
    var language: String
    var voice: String
    var engine: String
    var range: Range<Int>
    var fallback: Bool
    /// The post's text in `range`.
    var text: String

    /// `lang voice engine text`, for comparing a post's runs at a glance.
    var summary: String { "\(language) \(voice) \(engine) \(text)" }
}

/// A native connection subscribed to `speech`, posting and reading what a monitor sees.
struct RunWatcher {
    let client: LineClient
    private let poster: LineClient

    init(_ daemon: DaemonProcess) throws {
        client = try daemon.connect()
        client.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
        try #require(client.waitFor("ok", id: 1) != nil)
        poster = try daemon.connect()
    }

    /// Announces `text` (SSML with `ssml`, in `voice` if given) and waits for it to finish; its
    /// sequence number.
    func speak(_ text: String, ssml: Bool = false, voice: String? = nil) throws -> Int {
        let id = Int.random(in: 1000...9999)
        var request: JSONObject = ["op": "announce", "id": .integer(Int64(id)), "text": .string(text)]
        if ssml { request["ssml"] = .bool(true) }
        if let voice { request["voice"] = .string(voice) }
        poster.send(JSONValue.object(request).jsonText)
        let finished = try #require(poster.waitForTerminal(id: id, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        #expect(poster.lines(id: id).map { $0.event ?? "" } == ["queued", "started", "finished"])
        return try #require(finished["seq"]?.intValue)
    }

    /// The run lines of post `seq` (whose text is `text`), once its `finished` line came; each
    /// after the post's `started`, in text order, none starting or ending with a space (the
    /// spaces between runs belong to neither).
    func runs(seq: Int, of text: String) throws -> [ReceivedRun] {
        let isOurs: (JSONValue) -> Bool = { $0.event == "speech" && $0["seq"] == .integer(Int64(seq)) }
        try #require(client.waitFor(timeout: 30) { isOurs($0) && $0["state"] == "finished" } != nil)
        let lines = client.received.filter(isOurs)
        #expect(lines.first?["state"] == "started" && lines.last?["state"] == "finished", "\(lines)")
        let runs = try lines.filter { $0["state"] == "run" }.map { try Self.decode($0, text: text) }
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.range.upperBound <= $1.range.lowerBound })
        #expect(
            runs.allSatisfy { $0.text.first?.isWhitespace == false && $0.text.last?.isWhitespace == false },
            "\(runs.map(\.text))")
        return runs
    }

    /// The runs of the one post of `client` (any client when nil) that has finished.
    func runs(client name: String?) throws -> [ReceivedRun] {
        let started = try #require(
            client.waitFor(timeout: 30) {
                $0.event == "speech" && $0["state"] == "started" && (name == nil || $0["client"]?.stringValue == name)
            })
        return try runs(seq: try #require(started["seq"]?.intValue), of: try #require(started["text"]?.stringValue))
    }

    private static func decode(_ line: JSONValue, text: String) throws -> ReceivedRun {
        guard case .speech(.run(let seq, let run)) = try Event(line: Array(line.jsonText.utf8)) else {
            throw RunLineError(line: line.jsonText)
        }
        let scalars = Array(text.unicodeScalars)
        try #require(run.range.upperBound <= scalars.count, "a run past the text's end: \(line.jsonText)")
        var slice = ""
        slice.unicodeScalars.append(contentsOf: scalars[run.range])
        return ReceivedRun(
            seq: Int(seq), language: run.language, voice: run.voice, engine: run.engine, range: run.range,
            fallback: run.fallback, text: slice)
    }
}

private struct RunLineError: Error, CustomStringConvertible {
    var line: String
    var description: String { "not a run line: \(line)" }
}

/// A post's recording cut into its runs' audio, and each run's own rendering by espeak-ng.
enum RunAudio {
    /// espeak-ng's rendering of `run`'s text with `run`'s voice, silence trimmed.
    static func reference(_ run: ReceivedRun) throws -> [Int16] {
        Array(WAVFile.trimmed(try espeakReference(text: run.text, voice: run.voice, rate: 175)))
    }

    /// The recording `heard` cut run by run: each run's audio is as long as espeak-ng's rendering
    /// of its text, after the silence between runs.
    static func segments(of heard: [Int16], runs: [ReceivedRun]) throws -> [[Int16]] {
        var rest = WAVFile.trimmed(heard)
        var segments: [[Int16]] = []
        for run in runs {
            let length = try reference(run).count
            segments.append(Array(rest.prefix(length)))
            rest = WAVFile.trimmed(Array(rest.dropFirst(length)))
        }
        return segments
    }
}
