// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A post in several languages is spoken run by run, each run by the voice for its language, and
/// stays one post: checked in the recorded audio against espeak-ng's own rendering of each run.
@Suite("Language switching: each run in its language's voice, one post", .daemonTimeLimit, .onBlockingThreads)
struct LanguageSwitchingTests {
    /// The runs of "The file Привет was saved": the space after a run stays with it.
    private let runs = [("The file ", "en-us"), ("Привет ", "ru"), ("was saved", "en-us")]
    private var text: String { runs.map(\.0).joined() }

    /// espeak-ng's renderings of the runs, each with its voice.
    private func references() throws -> [[Int16]] {
        try runs.map { try espeakReference(text: $0.0, voice: $0.1, rate: 175) }
    }

    @Test("\"The file Привет was saved\": the Russian run is espeak-ng's Russian \"Привет\", nothing spelled")
    func cyrillicInEnglish() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, text))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        #expect(client.lines(id: 1).map { $0.event ?? "" } == ["queued", "started", "finished"])
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        let parts = try references().map { WAVFile.trimmed($0) }
        // The first run is a fresh helper's first text: sample for sample espeak-ng's. The Russian
        // run follows it, and sounds as espeak-ng's Russian "Привет" (NavigationTests' tolerance:
        // later texts of one helper differ in phase).
        let first = parts[0]
        #expect(
            heard.count > first.count && heard.prefix(first.count).elementsEqual(first),
            "the English run differs from espeak-ng's")
        let russian = Array(WAVFile.trimmed(Array(heard.dropFirst(first.count))).prefix(parts[1].count))
        #expect(
            envelopeCorrelation(russian, Array(parts[1])) > 0.9,
            "the Russian run does not sound like espeak-ng's ru \"Привет\"")
        // Spelled by the English voice ("pe er i ve ye te"), the post lasts far longer.
        let spelled = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
        #expect(
            Double(spelled.count) > Double(heard.count) * 1.2,
            "English spells Привет: \(spelled.count) samples against \(heard.count)")
        #expect(daemon.stop() == 0)
        let log = daemon.stderrText()
        #expect(
            log.contains("language=ru") && log.contains("engine=espeak-ng"), "the run's language and engine are logged")
    }

    @Test("language_switching off speaks the whole post with the post's voice, as before")
    func off() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_LANGUAGE_SWITCHING": "off"])
        let client = try daemon.connect()
        client.send(announce(1, text))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        let heard = WAVFile.trimmed(try daemon.wavSamples(seq: 1))
        let whole = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
        #expect(
            heard.elementsEqual(whole),
            "heard \(heard.count) samples; espeak-ng's English of the whole text \(whole.count)")
        #expect(daemon.stop() == 0)
    }

    @Test("languages [en, uk] reads Cyrillic as Ukrainian")
    func ukrainian() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_LANGUAGES": "en,uk"])
        let client = try daemon.connect()
        client.send(announce(1, "The file Привіт was saved"))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("language=uk"), "a run in Ukrainian was spoken")
    }

    @Test("SSML: xml:lang makes a run, marks come in text order across runs, one started and one finished")
    func ssmlMarksAcrossRuns() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let ssml =
            #"<speak><mark name=\"a\"/>Hello <lang xml:lang=\"de\"><mark name=\"b\"/>guten Tag</lang> <mark name=\"c\"/>and welcome</speak>"#
        client.send(announce(1, ssml, #","ssml":true"#))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let lines = client.lines(id: 1)
        #expect(lines.filter { $0.event == "started" }.count == 1)
        #expect(lines.filter { $0.event == "finished" }.count == 1)
        #expect(lines.filter { $0.event == "mark" }.compactMap { $0["name"]?.stringValue } == ["a", "b", "c"])
        #expect(daemon.stop() == 0)
        #expect(daemon.stderrText().contains("language=de"), "the German run was spoken in German")
    }

    @Test("stop during the second run: one terminal line, spoken_chars past the first run")
    func stopAcrossSwitch() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        let english = "The first part of this announcement is English and long enough to be heard for a while. "
        let russian = String(repeating: "Это русская часть объявления, она длинная. ", count: 6)
        client.send(announce(1, english + russian, #","words":true"#))
        let englishLength = english.unicodeScalars.count
        // The first word of the Russian run is reached: the switch happened.
        _ = try #require(
            client.waitFor(timeout: 60) {
                $0["event"] == .string("word") && ($0["offset"]?.intValue ?? 0) >= englishLength
            })
        client.send(#"{"op":"stop","id":2}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(false))
        let spoken = try #require(finished["spoken_chars"]?.intValue)
        #expect(spoken >= englishLength && spoken < (english + russian).unicodeScalars.count, "spoken_chars \(spoken)")
        #expect(client.lines(id: 1).filter { $0.event == "finished" }.count == 1)
        #expect(client.lines(id: 1).filter { $0.event == "started" }.count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test("SSIP SPEAK of a mixed text: one BEGIN, one END, the Russian run in Russian")
    func ssipSpeak() throws {
        let ssip = try SSIPDaemon()
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self CLIENT_NAME \"unknown:switch:test\"")?.code == 208)
        #expect(client.command("SET self NOTIFICATION all on")?.code == 220)
        let messageID = try #require(client.speak(text).messageID)
        try #require(client.waitForEvent(702, messageID: messageID) != nil)
        let codes = client.blocks.filter(\.isEvent).compactMap { $0.code }
        #expect(codes.filter { $0 == 701 }.count == 1 && codes.filter { $0 == 702 }.count == 1, "events \(codes)")
        #expect(ssip.daemon.stop() == 0)
        #expect(ssip.daemon.stderrText().contains("language=ru"))
    }
}
