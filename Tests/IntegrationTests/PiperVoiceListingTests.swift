// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// Piper voices through the real daemon: found in the user's voice directory while it runs,
/// listed with their engine, language and quality, and taken by name. The voices are tiny fake
/// pairs; no test here asks the daemon to speak with one.
@Suite("Piper voices: listing and choosing through the real daemon", .daemonTimeLimit, .onBlockingThreads)
struct PiperVoiceListingTests {
    @Test(
        "a pair installed while the daemon runs is listed by `voices` and `announcectl voices` with engine piper and its quality"
    )
    func listsANewVoiceWithoutRestart() throws {
        let daemon = try DaemonProcess()
        let before = try announcectl(daemon, "voices", "--lang", "en")
        #expect(before.status == 0 && !before.stdout.contains("piper"), "\(before)")
        try FakeVoice.install(
            "en_US-fake-medium", in: daemon.voicesDirectory, config: FakeVoice.config(dataset: "fake"))
        try FakeVoice.install(
            "de_DE-fake-low", in: daemon.voicesDirectory,
            config: FakeVoice.config(code: "de_DE", dataset: "fake", quality: "low", espeak: "de"))
        #expect(
            daemon.waitForStderr(
                containing: "piper voices changed voices=de_de-fake-low,en_us-fake-medium", timeout: 10))

        let english = try announcectl(daemon, "voices", "--lang", "en")
        let row = english.stdout.split(separator: "\n").first { $0.hasPrefix("en_us-fake-medium ") }.map(String.init)
        let columns = row?.split(separator: " ").map(String.init) ?? []
        #expect(columns == ["en_us-fake-medium", "en-us", "piper", "medium", "fake", "(medium)"], "\(english.stdout)")
        #expect(!english.stdout.contains("de_de-fake-low"))
        // espeak-ng's rows say their engine too.
        #expect(
            english.stdout.split(separator: "\n").contains { $0.hasPrefix("en-us ") && $0.contains(" espeak-ng ") },
            "\(english.stdout)")

        let client = try daemon.connect()
        client.send(#"{"op":"voices","id":1,"lang":"de"}"#)
        let answer = try #require(client.waitFor("ok", id: 1))
        let entries = answer["voices"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let piper = try #require(entries.first { $0["name"] == .string("de_de-fake-low") }, "\(entries)")
        #expect(piper["engine"] == .string("piper"))
        #expect(piper["quality"] == .string("low"))
        #expect(piper["languages"] == .array([.string("de-de"), .string("de")]))
        #expect(piper["file"] == .string(daemon.voicesDirectory + "/de_DE-fake-low.onnx"))
        let espeak = try #require(entries.first { $0["name"] == .string("de") })
        #expect(espeak["engine"] == .string("espeak-ng") && espeak["quality"] == nil)
    }

    @Test(
        "`voices` asked right after a pair is written (or removed) answers with it (without it): the answer waits for the catalog to settle, even from a client that half-closed"
    )
    func voicesAnswersAsOfTheRequest() throws {
        let daemon = try DaemonProcess()
        let ready = try daemon.connect()
        ready.send(#"{"op":"voices","id":1}"#)
        #expect(ready.waitFor("ok", id: 1) != nil)

        let path = try FakeVoice.install("en_US-fake-medium", in: daemon.voicesDirectory)
        let client = try daemon.connect()
        client.send(#"{"op":"voices","id":2,"lang":"en"}"#)
        client.finishSending()
        let names = { (answer: JSONValue?) in
            (answer?["voices"]?.arrayValue ?? []).compactMap { $0.objectValue?["name"]?.stringValue }
        }
        let installed = client.waitFor("ok", id: 2)
        #expect(names(installed).contains("en_us-fake-medium"), "\(String(describing: installed))")

        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.removeItem(atPath: path + ".json")
        let again = try daemon.connect()
        again.send(#"{"op":"voices","id":3,"lang":"en"}"#)
        let removed = again.waitFor("ok", id: 3)
        #expect(removed != nil && !names(removed).contains("en_us-fake-medium"), "\(String(describing: removed))")
    }

    @Test("`set --voice` takes a Piper voice installed after the start; a removed one is refused again")
    func setTakesAPiperVoice() throws {
        let daemon = try DaemonProcess()
        let path = try FakeVoice.install("en_US-fake-medium", in: daemon.voicesDirectory)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-fake-medium", timeout: 10))
        let set = try announcectl(daemon, "set", "--voice", "en_US-fake-medium")
        #expect(set.status == 0, "\(set)")
        let client = try daemon.connect()
        client.send(#"{"op":"status","id":1}"#)
        #expect(client.waitFor("ok", id: 1)?["voice"] == .string("en_US-fake-medium"))
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.removeItem(atPath: path + ".json")
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=\"\"", timeout: 10))
        let refused = try announcectl(daemon, "set", "--voice", "en_us-fake-medium")
        #expect(refused.status == 1 && refused.stderr.contains("unknown voice"), "\(refused)")
    }

    @Test("a broken pair is left out and logged once, naming the file and what to fix; the daemon starts with it")
    func brokenPairIsLogged() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let voices = data.path + "/announced/voices"
        try FakeVoice.install("en_US-cut-medium", in: voices, model: Array(FakeVoice.model.prefix(10)))
        let daemon = try DaemonProcess(environment: ["XDG_DATA_HOME": data.path])
        let listed = try announcectl(daemon, "voices")
        #expect(!listed.stdout.contains("en_us-cut-medium"))
        _ = try announcectl(daemon, "voices")
        #expect(daemon.waitForStderr(containing: "en_US-cut-medium.onnx is cut short or damaged", timeout: 5))
        daemon.stop()
        let log = daemon.stderrText()
        #expect(log.components(separatedBy: "en_US-cut-medium.onnx is cut short").count == 2, "logged once: \(log)")
        #expect(log.contains("download it again"))
    }

    @Test(
        "the configuration's voice takes an installed Piper voice's name; voice_for_language naming a missing voice is a warning, not a failure"
    )
    func configurationTakesPiperNames() throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        try FakeVoice.install("en_US-fake-medium", in: data.path + "/announced/voices")
        let config = data.path + "/announced.json"
        try Data(
            #"{"voice": "en_us-fake-medium", "voice_for_language": {"de": "de_de-missing-low", "en": "en_us-fake-medium"}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: config))
        let daemon = try DaemonProcess(arguments: ["--config", config], environment: ["XDG_DATA_HOME": data.path])
        let client = try daemon.connect()
        client.send(#"{"op":"status","id":1}"#)
        #expect(client.waitFor("ok", id: 1)?["voice"] == .string("en_us-fake-medium"))
        daemon.stop()
        let log = daemon.stderrText()
        #expect(
            log.contains("voice_for_language names the voice \"de_de-missing-low\" for de, which is not installed"),
            "\(log)")
        #expect(!log.contains("\"en_us-fake-medium\" for en"), "an installed preferred voice is no warning")
    }
}
