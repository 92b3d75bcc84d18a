// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The samples a fresh daemon records for its first post of `text`, with `configuration` as its
/// file: how every door must sound with those defaults (a fresh espeak-ng helper renders a text
/// the same way every time).
func firstPostRendering(_ text: String, configuration: String, fields: String = "") throws -> [Int16] {
    let file = try EditableConfigFile(configuration)
    let daemon = try DaemonProcess(arguments: ["--config", file.path])
    let client = try daemon.connect()
    client.send(announce(1, text, fields))
    let finished = try #require(client.waitForTerminal(id: 1))
    #expect(finished["success"] == .bool(true), "\(finished.text)")
    let samples = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
    #expect(daemon.stop() == 0)
    return samples
}

/// Whether `heard` is a rendering with the settings of `expected` rather than of `other`: its
/// length within 10 % of `expected`'s and nearer to it than to `other`'s, and its loudness (RMS)
/// within 15 % of `expected`'s. (A helper's later renderings of a text differ from its first, by up to
/// 7.5 % in length here, so only a first rendering can be compared sample for sample.)
func soundsLike(_ heard: [Int16], _ expected: [Int16], not other: [Int16]) -> Bool {
    let (h, e, o) = (WAVFile.trimmed(heard), WAVFile.trimmed(expected), WAVFile.trimmed(other))
    func rms(_ samples: ArraySlice<Int16>) -> Double {
        samples.isEmpty
            ? 0 : (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
    let lengthClose = abs(h.count - e.count) * 100 <= e.count * 10 && abs(h.count - e.count) < abs(h.count - o.count)
    let loudnessClose = abs(rms(h) - rms(e)) <= rms(e) * 0.15
    if !(lengthClose && loudnessClose) {
        print(
            "soundsLike: \(h.count) samples at RMS \(Int(rms(h))), expected \(e.count) at \(Int(rms(e))), other \(o.count) at \(Int(rms(o)))"
        )
    }
    return lengthClose && loudnessClose
}

/// Issue 37 §3: a reload reaches every door. The daemon derives what its doors read from its
/// settings in one place and publishes it again at each SIGHUP; before, the Spiel provider kept
/// the settings it was started with, and SSIP messages ignored the default punctuation.
@Suite(
    "Settings flow: a SIGHUP reaches every door", .onBlockingThreads,
    .enabled(
        if: SpielClient.isAvailable,
        "needs a session bus and python3-gi for the Spiel door (apt-get install dbus-daemon python3-gi)")
)
struct SettingsFlowTests {
    private let text = "One, two; three. Four!"
    private let before = #"{"voice": "en-us", "rate": 175, "pitch": 50, "volume": 100, "punctuation": "none"}"#
    private let after = #"{"voice": "de", "rate": 330, "pitch": 80, "volume": 50, "punctuation": "all"}"#

    @Test(
        "a changed voice, rate, pitch, volume and punctuation after SIGHUP: a native post, an SSIP message and a Spiel stream all speak with them"
    )
    func reloadReachesEveryDoor() throws {
        let expected = try firstPostRendering(text, configuration: after)
        let previous = try firstPostRendering(text, configuration: before)
        #expect(!soundsLike(previous, expected, not: previous), "the two settings must sound apart")

        let session = try DesktopSession()
        try session.startSessionBus()
        let file = try EditableConfigFile(before)
        let ssipPlace = SSIPSocketPlace()
        defer { ssipPlace.remove() }
        let scratch = DaemonProcess.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let notify = try NotifyListener(path: scratch.appendingPathComponent("notify").path)
        let daemon = try DaemonProcess(
            arguments: ["--config", file.path],
            environment: ssipPlace.environment.merging([
                "NOTIFY_SOCKET": notify.path, "DBUS_SESSION_BUS_ADDRESS": try #require(session.busAddress),
            ]) { $1 },
            waitForReady: false)
        #expect(notify.waitForReady(timeout: 30))
        #expect(daemon.waitForStderr(containing: "Spiel speech provider on the session bus", timeout: 20))
        let spiel = SpielClient(session: session)
        // Spiel's default voice (an empty voice id) before the reload: the old settings.
        #expect(try spiel.stream(voice: "", text: text).samples == previous, "Spiel before the reload")

        try file.write(after)
        kill(daemon.process.processIdentifier, SIGHUP)
        #expect(notify.waitForReady(timeout: 30))

        // SSIP, with no SET of its own: the new defaults, punctuation included. Spiel's stream above
        // spoke through the same warm helper, so this is the helper's second rendering: as long and
        // as loud as a fresh daemon's first post with the new file, not the old one.
        let ssip = try RawSSIPClient(path: ssipPlace.path)
        #expect(ssip.command("SET self CLIENT_NAME \"unknown:reload:test\"")?.code == 208)
        #expect(ssip.command("SET self NOTIFICATION end on")?.code == 220)
        let messageID = try #require(ssip.speak(text).messageID)
        try #require(ssip.waitForEvent(702, messageID: messageID) != nil)
        let message = try daemon.wavSamples(seq: messageID)
        #expect(
            soundsLike(message, expected, not: previous),
            "SSIP message: \(message.count) samples, \(expected.count) expected")

        // The native door, its second rendering: as long and as loud as a fresh daemon's.
        let client = try daemon.connect()
        client.send(announce(1, text))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let native = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        let nativeSoundsNew = soundsLike(native, expected, not: previous)
        #expect(nativeSoundsNew, "the native post after the reload")

        // Spiel, on the same warm helper: as long and as loud as the new settings' rendering.
        let streamed = try spiel.stream(voice: "", text: text).samples
        #expect(
            soundsLike(streamed, expected, not: previous),
            "Spiel stream: \(streamed.count) samples, \(expected.count) expected")
        #expect(daemon.stop() == 0)
    }
}
