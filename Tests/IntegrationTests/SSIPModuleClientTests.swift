// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// python3-speechd's output modules against the real daemon: `piper` once Piper's helper is
/// installed (the tests' daemon finds the announced-piper built beside it), refused with
/// speech-dispatcher's code for a module that cannot be set without it; with the helper and no
/// voice, set, and spoken for by espeak-ng; then its voices once a Piper voice is installed (a
/// tiny fake pair, never spoken with: speaking needs the engine).
@Suite("SSIP: python3-speechd's output modules against the daemon", .daemonTimeLimit, .onBlockingThreads)
struct SSIPModuleClientTests {
    @Test(
        "without Piper's helper: only espeak-ng is listed; set_output_module('piper') is accepted (216) and espeak-ng speaks"
    )
    func piperNeedsItsHelper() throws {
        let ssip = try SSIPDaemon(environment: ["ANNOUNCED_PIPER_HELPER": "/nonexistent/announced-piper"])
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        #expect(try driver.call("list_output_modules") == .array([.string("espeak-ng")]))
        try driver.call("set_output_module", .string("piper"))
        #expect(try driver.command("GET", "OUTPUT_MODULE").data == ["piper"])
        try driver.speak("Download complete.", tag: "fallback")
        #expect(driver.waitForTerminalCallback(tag: "fallback") == "end")
        try driver.call("close")
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }

    @Test(
        "with Piper's helper and no voice: piper is listed and set (216), lists no voices (249), and espeak-ng speaks its messages; a voice installed later is listed"
    )
    func piperWithoutVoices() throws {
        let ssip = try SSIPDaemon()
        let monitor = try speechWatcher(ssip.daemon)
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        #expect(try driver.call("list_output_modules") == .array([.string("espeak-ng"), .string("piper")]))
        let espeakVoices = try #require(try driver.call("list_synthesis_voices")?.arrayValue)
        #expect(espeakVoices.count > 50)
        try driver.call("set_output_module", .string("piper"))
        #expect(try driver.command("GET", "OUTPUT_MODULE").data == ["piper"])
        let none = try driver.command("LIST", "SYNTHESIS_VOICES")
        #expect(none.code == 249 && none.data.isEmpty, "\(none)")
        #expect(try driver.call("list_synthesis_voices") == .array([]))

        try driver.speak("Download complete.", tag: "fallback")
        #expect(driver.waitForTerminalCallback(tag: "fallback") == "end")
        #expect(driver.callbacks(tag: "fallback") == ["begin", "end"])
        let started = try #require(monitor.waitFor(timeout: 10) { $0["state"] == .string("started") })
        #expect(started["engine"] == .string("espeak-ng"), "\(started.text)")
        let samples = try ssip.daemon.wavSamples(seq: try #require(started["seq"]?.intValue))
        #expect(samples.count > 11_025 && (samples.map { abs(Int($0)) }.max() ?? 0) > 1_000, "heard, not silent")

        try FakeVoice.install(
            "en_US-fake-medium", in: ssip.daemon.voicesDirectory, config: FakeVoice.config(dataset: "fake"))
        try FakeVoice.install(
            "de_DE-fake-low", in: ssip.daemon.voicesDirectory,
            config: FakeVoice.config(code: "de_DE", quality: "low", espeak: "de"))
        #expect(
            ssip.daemon.waitForStderr(
                containing: "piper voices changed voices=de_de-fake-low,en_us-fake-medium", timeout: 10))
        #expect(try driver.call("list_output_modules") == .array([.string("espeak-ng"), .string("piper")]))
        let piperVoices = try #require(try driver.call("list_synthesis_voices"))
        #expect(
            piperVoices
                == .array([
                    .array([.string("de_de-fake-low"), .string("de-DE"), .string("none")]),
                    .array([.string("en_us-fake-medium"), .string("en-US"), .string("none")]),
                ]), "\(piperVoices)")
        try driver.call("set_output_module", .string("espeak-ng"))
        let espeakAgain = try #require(try driver.call("list_synthesis_voices")?.arrayValue)
        #expect(
            espeakAgain.count == espeakVoices.count
                && !espeakAgain.contains { $0.arrayValue?.first == .string("en_us-fake-medium") })
        try driver.call("set_output_module", .string("festival"))
        #expect(try driver.command("GET", "OUTPUT_MODULE").data == ["festival"])
        try driver.call("close")
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }
}

/// python3-speechd speaking with the real Piper engine and voice through `set_output_module('piper')`.
@Suite(
    "SSIP: python3-speechd speaks with the piper module", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct SSIPPiperSpeechTests {
    @Test("set_output_module('piper'), speak(): BEGIN then END, the monitor says piper, and the WAV file is heard")
    func speaksWithPiper() throws {
        let ssip = try SSIPDaemon(environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory])
        try FetchedPiper.install(in: ssip.daemon.voicesDirectory)
        #expect(ssip.daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        let monitor = try speechWatcher(ssip.daemon)
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        try driver.call("set_output_module", .string("piper"))
        try driver.speak("Download complete.", tag: "p")
        #expect(driver.waitForCallback("begin", tag: "p", timeout: 90) != nil)
        #expect(driver.waitForTerminalCallback(tag: "p", timeout: 90) == "end")
        #expect(driver.callbacks(tag: "p") == ["begin", "end"])
        let started = try #require(monitor.waitFor(timeout: 10) { $0["state"] == .string("started") })
        #expect(started["engine"] == .string("piper"), "\(started.text)")
        let samples = try ssip.daemon.wavSamples(seq: try #require(started["seq"]?.intValue))
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        print("python3-speechd with piper: \(samples.count) samples, peak \(peak)")
        #expect(samples.count > 11_025 && peak > 1_000, "heard, not silent")
        try driver.call("close")
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }
}
