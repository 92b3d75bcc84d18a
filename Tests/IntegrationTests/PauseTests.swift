// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

@Suite(
    "Daemon: pause and resume hold the audio and continue it from the same sample", .daemonTimeLimit, .onBlockingThreads
)
struct PauseTests {
    private let text = "The quarterly report is ready. It covers sales, returns and the new stores in the north."

    /// The size of `path` in bytes (0 when it does not exist yet).
    /// A daemon whose post 1 has started and is paused (by request 2).
    private func pausedPost() throws -> (DaemonProcess, LineClient) {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        client.send(announce(1, text))
        _ = try #require(client.waitFor("started", id: 1))
        client.send(#"{"op":"pause","id":2}"#)
        _ = try #require(client.waitFor("paused", id: 1))
        return (daemon, client)
    }

    /// Sends `status` and waits for its answer: everything the daemon decided before it is done.
    private func statusRoundTrip(_ client: LineClient, id: Int) throws -> JSONValue {
        client.send(#"{"op":"status","id":\#(id)}"#)
        return try #require(client.waitFor("ok", id: id))
    }

    @Test(
        "pause during a post: a paused line, no audio and no finished while paused; resume: resumed, then finished, and the audio equals an unpaused rendering"
    )
    func pauseThenResume() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        // The first synthesis of a fresh helper equals `espeak-ng --stdout` sample for sample
        // (notes/headless-audio.md; later runs of one text differ a little), so the first post
        // is the one paused: its recording must be exactly espeak-ng's.
        let start = Date()
        client.send(announce(30, text, #","voice":"en-us","rate":175,"words":true"#))
        // Pause mid-sentence: when playback reaches the sixth word.
        for _ in 1...6 { _ = try #require(client.waitFor("word", id: 30)) }
        client.send(#"{"op":"pause","id":40}"#)
        _ = try #require(client.waitFor("paused", id: 30))
        _ = try #require(client.waitFor("ok", id: 40))
        let paused = try statusRoundTrip(client, id: 41)
        #expect(paused["paused"] == .bool(true))
        #expect(paused["speaking"] == .bool(true))

        let wav = URL(fileURLWithPath: daemon.wavDirectory).appendingPathComponent("1.wav").path
        let sizeAtPause = fileSize(wav)
        // Nothing happening has no event to wait for: let 400 ms pass (unpaused, ~17,000 bytes
        // of audio) and see that the recording did not grow and the post did not finish.
        quietSpell(seconds: 0.4)
        _ = try statusRoundTrip(client, id: 42)
        #expect(fileSize(wav) == sizeAtPause, "no audio is written while paused")
        #expect(!client.lines(id: 30).contains { $0.event == "finished" })

        client.send(#"{"op":"resume","id":43}"#)
        _ = try #require(client.waitFor("resumed", id: 30))
        let finished = try #require(client.waitForTerminal(id: 30))
        #expect(finished["success"] == .bool(true))
        let events = client.lines(id: 30).compactMap(\.event)
        #expect(events.firstIndex(of: "paused").map { events[$0 + 1] } == "resumed", "no word while paused")
        #expect(events.filter { $0 != "word" } == ["queued", "started", "paused", "resumed", "finished"])
        let resumedStatus = try statusRoundTrip(client, id: 44)
        #expect(resumedStatus["paused"] == .bool(false))

        let elapsed = Date().timeIntervalSince(start)
        let recorded = try daemon.wavSamples(seq: 1)
        let ours = WAVFile.trimmed(recorded)
        let reference = WAVFile.trimmed(try espeakReference(text: text, voice: "en-us", rate: 175))
        let audioSeconds = Double(recorded.count) / 22_050
        print(
            "pause: paused at sample \((sizeAtPause - 44) / 2) of \(recorded.count); the post took \(elapsed) s for \(audioSeconds) s of audio"
        )
        // Nothing lost, repeated or inserted at the pause.
        #expect(ours.count == reference.count)
        #expect(ours.elementsEqual(reference), "the paused and resumed PCM differs from `espeak-ng --stdout`")
    }

    @Test("cancel while paused ends the paused post cancelled with what it spoke")
    func cancelWhilePaused() throws {
        let (daemon, client) = try pausedPost()
        client.send(#"{"op":"cancel","id":3,"target":1}"#)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(false))
        #expect(finished["reason"] == .string("cancelled"))
        #expect(finished["spoken_chars"] != nil)
        // Still paused: a new post waits, and starts on resume.
        client.send(announce(4, "Next", #","priority":"high""#))
        _ = try #require(client.waitFor("queued", id: 4))
        let status = try statusRoundTrip(client, id: 5)
        #expect(status["paused"] == .bool(true))
        #expect(status["pending"] == .integer(1))
        client.send(#"{"op":"resume","id":6}"#)
        #expect(client.waitForTerminal(id: 4)?["success"] == .bool(true))
        withExtendedLifetime(daemon) {}
    }

    @Test("shutdown while paused ends the paused post with shutdown, and the daemon exits")
    func shutdownWhilePaused() throws {
        let (daemon, client) = try pausedPost()
        kill(daemon.process.processIdentifier, SIGTERM)
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["reason"] == .string("shutdown"))
        #expect(daemon.waitForExit() == 0)
    }
}

@Suite("Daemon: a long pause is not a stuck espeak-ng helper", .daemonTimeLimit, .onBlockingThreads)
struct LongPauseTests {
    @Test("a pause longer than the helper's silence limit resumes and finishes successfully")
    func pauseLongerThanTheSilenceLimit() throws {
        // The limit made 1 s (5 s for espeak-ng otherwise), so that the pause can outlast it soon.
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_HELPER_SILENCE_MS": "1000"])
        let client = try daemon.connect()
        client.send(announce(1, "One two three four five six seven eight nine ten eleven twelve.", #","words":true"#))
        _ = try #require(client.waitFor("word", id: 1))
        client.send(#"{"op":"pause","id":2}"#)
        _ = try #require(client.waitFor("paused", id: 1))
        // The speech thread gives up on a helper that sends nothing for the silence limit; the
        // pause must outlast it, and nothing observable marks that moment: this wait is the test.
        quietSpell(seconds: 1.5)
        client.send(#"{"op":"resume","id":3}"#)
        _ = try #require(client.waitFor("resumed", id: 1))
        let finished = try #require(client.waitForTerminal(id: 1))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
    }
}
