// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import SSIPProtocol
import TestSupport
import Testing

/// An SSIP message is spoken exactly as a native post with the same text and settings: its
/// recorded PCM is the same, sample for sample. Each rendering is the first message of a fresh
/// daemon (a fresh espeak-ng helper renders a text the same way every time; later renderings in
/// one process differ by a few samples, notes/headless-audio.md).
@Suite("SSIP: a message's audio equals a native post's", .daemonTimeLimit, .onBlockingThreads)
struct SSIPAudioTests {
    private let text = "Your meeting with the design team starts in five minutes, in room four."

    /// A fresh daemon's recording of `text` sent over SSIP after `settings` (`SET self …` lines).
    private func ssipRendering(_ settings: [String]) throws -> [Int16] {
        let ssip = try SSIPDaemon()
        let client = try ssip.connectSSIP()
        #expect(client.command("SET self CLIENT_NAME \"unknown:audio:test\"")?.code == 208)
        #expect(client.command("SET self NOTIFICATION end on")?.code == 220)
        for setting in settings {
            #expect(client.command("SET self " + setting)?.lines.last?.hasPrefix("2") == true, "\(setting)")
        }
        let messageID = try #require(client.speak(text).messageID)
        try #require(client.waitForEvent(702, messageID: messageID) != nil)
        return try ssip.daemon.wavSamples(seq: messageID)
    }

    /// A fresh daemon's recording of `text` posted natively with `fields` (`,"rate":285`), and the
    /// daemon's default rate, pitch and volume.
    private func nativeRendering(_ fields: String = "") throws -> (
        samples: [Int16], defaults: (rate: Int, pitch: Int, volume: Int)
    ) {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(#"{"op":"status","id":1}"#)
        let status = try #require(client.waitFor("ok", id: 1))
        let defaults = (
            rate: try #require(status["rate"]?.intValue), pitch: try #require(status["pitch"]?.intValue),
            volume: try #require(status["volume"]?.intValue)
        )
        client.send(announce(2, text, fields))
        let queued = try #require(client.waitFor("queued", id: 2))
        let finished = try #require(client.waitForTerminal(id: 2))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        return (try daemon.wavSamples(seq: try #require(queued["seq"]?.intValue)), defaults)
    }

    @Test("RATE 0, PITCH 0, VOLUME 0 (the defaults) over SSIP: the same PCM as a native post without settings")
    func defaultSettings() throws {
        let ssip = try ssipRendering(["RATE 0", "PITCH 0", "VOLUME 0"])
        let native = try nativeRendering().samples
        #expect(!WAVFile.trimmed(native).isEmpty)
        #expect(ssip.count == native.count)
        #expect(ssip == native, "the SSIP message's PCM differs from the native post's")
    }

    @Test("RATE 40, PITCH -30, VOLUME -20 over SSIP: the same PCM as a native post with SSIPVoiceMapping's values")
    func mappedSettings() throws {
        let ssip = try ssipRendering(["RATE 40", "PITCH -30", "VOLUME -20"])
        let plain = try nativeRendering()
        let defaults = plain.defaults
        let rate = SSIPVoiceMapping.rate(40, defaultRate: defaults.rate, maxRate: SpeechRanges.ssipMaxRate)
        let pitch = SSIPVoiceMapping.pitch(-30, defaultPitch: defaults.pitch)
        let volume = SSIPVoiceMapping.volume(-20, defaultVolume: defaults.volume)
        #expect(
            rate != defaults.rate && pitch != defaults.pitch && volume != defaults.volume,
            "the settings are not the defaults")
        let native = try nativeRendering(#","rate":\#(rate),"pitch":\#(pitch),"volume":\#(volume)"#).samples
        #expect(ssip.count == native.count)
        #expect(
            ssip == native,
            "the SSIP message's PCM differs from the native post's at rate \(rate), pitch \(pitch), volume \(volume)")
        // And the settings made a difference: the faster rendering is shorter than the default one.
        #expect(WAVFile.trimmed(native).count < WAVFile.trimmed(plain.samples).count)
    }
}
