// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// python3-speechd's output modules against the real daemon: `piper` once a Piper voice is
/// installed (a tiny fake pair, never spoken with: speaking needs the engine), refused with
/// speech-dispatcher's code for a module that cannot be set before.
@Suite("SSIP: python3-speechd's output modules against the daemon", .onBlockingThreads)
struct SSIPModuleClientTests {
    @Test("set_output_module('piper') fails with 312 until a Piper voice is installed; then it is listed and its voices are listed")
    func piperModule() throws {
        let ssip = try SSIPDaemon()
        let driver = try SpeechdDriver(ssip)
        try driver.connect()
        #expect(try driver.call("list_output_modules") == .array([.string("espeak-ng")]))
        let refused = driver.failingRequest("call", ["method": "set_output_module", "args": .array([.string("piper")])])
        #expect(refused?["code"]?.intValue == 312, "\(String(describing: refused))")

        try FakeVoice.install("en_US-fake-medium", in: ssip.daemon.voicesDirectory, config: FakeVoice.config(dataset: "fake"))
        try FakeVoice.install("de_DE-fake-low", in: ssip.daemon.voicesDirectory, config: FakeVoice.config(code: "de_DE", quality: "low", espeak: "de"))
        #expect(try driver.call("list_output_modules") == .array([.string("espeak-ng"), .string("piper")]))
        let espeakVoices = try #require(try driver.call("list_synthesis_voices")?.arrayValue)
        #expect(espeakVoices.count > 50 && !espeakVoices.contains { $0.arrayValue?.first == .string("en_us-fake-medium") })
        try driver.call("set_output_module", .string("piper"))
        #expect(try driver.command("GET", "OUTPUT_MODULE").data == ["piper"])
        let piperVoices = try #require(try driver.call("list_synthesis_voices"))
        #expect(piperVoices == .array([
            .array([.string("de_de-fake-low"), .string("de-DE"), .string("none")]),
            .array([.string("en_us-fake-medium"), .string("en-US"), .string("none")]),
        ]), "\(piperVoices)")
        try driver.call("set_output_module", .string("espeak-ng"))
        #expect(try driver.call("list_synthesis_voices")?.arrayValue?.count == espeakVoices.count)
        try driver.call("close")
        #expect(driver.finish() == 0, "\(driver.stderrText)")
    }
}
