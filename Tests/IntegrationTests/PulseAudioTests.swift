// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The real audio outputs against the daemon process: a private headless PulseAudio server with a
/// null sink whose monitor is recorded, and the ALSA and `auto` fallbacks on a machine without a
/// sound card.
@Suite(
    "Daemon: PulseAudio output on a headless server", .daemonTimeLimit, .onBlockingThreads, .serialized,
    .enabled(if: HeadlessPulseAudio.canRecord, HeadlessPulseAudio.missingReason))
struct PulseAudioTests {
    @Test("an announcement is heard for about as long as espeak-ng's WAV; a stopped one clearly less")
    func playsAndStops() throws {
        let server = try HeadlessPulseAudio()
        try checkPlaysAndStops(
            label: "pulse", clientEnvironment: server.clientEnvironment, recorder: try server.record())
    }

    @Test("pause silences the sink at once and resume plays the rest: all of the post is heard, nothing twice")
    func pauseAndResume() throws {
        let server = try HeadlessPulseAudio()
        try checkPauseAndResume(
            label: "pulse", clientEnvironment: server.clientEnvironment, recorder: try server.record(),
            sampleExact: true)
    }

    @Test("losing the server mid-post fails that post with a message; after a restart the next post speaks")
    func serverRestart() throws {
        let server = try HeadlessPulseAudio()
        let daemon = try DaemonProcess(audio: "pulse", environment: server.clientEnvironment)
        let client = try daemon.connect()
        let long = "This announcement is long enough to be playing when the sound server goes away without warning"
        client.send(announce(1, long, #","words":true"#))
        try #require(
            client.waitFor { $0["id"] == .integer(1) && $0.event == "word" && ($0["offset"]?.integerValue ?? 0) >= 5 }
                != nil)
        server.kill()

        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal.event == "finished")
        #expect(terminal["success"] == .bool(false))
        #expect(terminal["reason"] == .string("error"), "\(terminal.text)")
        let message = terminal["message"]?.stringValue ?? ""
        #expect(message.contains("PulseAudio") && message.contains(server.address), "message: \(message)")
        #expect(daemon.process.isRunning)

        try server.start()
        let recorder = try server.record()
        let start = recorder.sampleCount
        client.send(announce(2, "Back again", #","voice":"en-us""#))
        let again = try #require(client.waitForTerminal(id: 2))
        #expect(again["success"] == .bool(true), "\(again.text)")
        let played = recorder.waitForSilence(after: start)
        #expect((played?.audible ?? 0) > 22_050 / 4, "the post after the restart was not heard")
        #expect(daemon.stop() == 0)
    }
}

@Suite("Daemon: ALSA and the automatic fallback", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct AudioFallbackTests {
    @Test("a named ALSA device that cannot open: exit 1 naming the device and the error")
    func missingALSADevice() throws {
        let daemon = try DaemonProcess(audio: "alsa:announced-no-such-device", waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("announced: "), "stderr: \(stderr)")
        #expect(stderr.contains("ALSA device 'announced-no-such-device' cannot be opened"), "stderr: \(stderr)")
    }

    @Test("--audio pulse with no server: exit 1 naming the server address")
    func missingPulseServer() throws {
        let dead = "unix:/tmp/announced-no-pulse-\(getpid())/native"
        let daemon = try DaemonProcess(
            audio: "pulse", environment: HeadlessPulseAudio.deadServerEnvironment(dead), waitForReady: false)
        #expect(daemon.waitForExit() == 1)
        let stderr = daemon.stderrText()
        #expect(stderr.contains("PulseAudio server at \(dead)"), "stderr: \(stderr)")
    }

    @Test("auto with no PulseAudio and no ALSA device falls back to null with one warning, and still answers")
    func autoFallsBackToNull() throws {
        let dead = "unix:/tmp/announced-no-pulse-\(getpid())/native"
        let daemon = try DaemonProcess(audio: "auto", environment: HeadlessPulseAudio.deadServerEnvironment(dead))
        let client = try daemon.connect()
        client.send(announce(1, "Still here"))
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        let stderr = daemon.stderrText()
        let warnings = stderr.split(separator: "\n").filter { $0.contains("speech is synthesized but not heard") }
        #expect(warnings.count == 1, "stderr: \(stderr)")
        #expect(warnings.first?.contains("warning") == true)
        #expect(warnings.first?.contains("--audio wav:DIR") == true)
        #expect(stderr.contains("ready audio=null"), "stderr: \(stderr)")
    }
}

// MARK: - Support

/// The recorded test of an audio server: through the daemon's `pulse` output, a whole
/// announcement is heard for about as long as `espeak-ng`'s own WAV of it, and one stopped after its
/// third word is heard clearly less and goes silent soon after its terminal line. `recorder` records
/// the server's null sink; `label` starts the figures printed.
func checkPlaysAndStops(label: String, clientEnvironment: [String: String], recorder: MonitorRecorder) throws {
    let speechRate = 175
    let daemon = try DaemonProcess(audio: "pulse", environment: clientEnvironment)
    try #require(recorder.waitUntilSinkSettles(), "\(label): the sink's monitor recorded nothing")
    let client = try daemon.connect()

    // A whole announcement.
    let text = "The build finished without errors and all tests passed"
    let start1 = recorder.sampleCount
    client.send(announce(1, text, #","voice":"en-us","rate":\#(speechRate)"#))
    let terminal1 = try #require(client.waitForTerminal(id: 1))
    #expect(terminal1["success"] == .bool(true), "\(terminal1.text)")
    let played1 = try #require(recorder.waitForSilence(after: start1), "no audio reached the sink's monitor")
    let referenceSamples = try espeakReference(text: text, voice: "en-us", rate: speechRate)[...]
    // What was heard is counted in 10 ms windows that hold audio, not as the span from the first
    // to the last audible sample: a server the daemon could not feed in time on a busy machine
    // plays silence in between, which stretches the span but adds no audio. Audio cut short,
    // played twice or at the wrong rate still changes the count.
    let reference = audibleWindows(referenceSamples)
    let heard = audibleWindows(recorder.samples(from: played1.firstAudible, to: played1.lastAudible + 1)[...])
    print(
        "\(label): heard \(heard) audible 10 ms windows over \(ms(played1.audible)) ms, espeak-ng WAV \(reference) over \(ms(audibleSpan(of: referenceSamples))) ms"
    )
    #expect(reference > 100)
    #expect(
        abs(heard - reference) <= reference / 20 + 5,
        "heard \(heard) audible 10 ms windows, expected about \(reference)")

    // A long announcement stopped after its third word.
    let long = "This is a rather long announcement that will certainly be stopped before it reaches its end"
    let start2 = recorder.sampleCount
    client.send(announce(2, long, #","voice":"en-us","rate":\#(speechRate),"words":true"#))
    try #require(
        client.waitFor { $0["id"] == .integer(2) && $0.event == "word" && ($0["offset"]?.integerValue ?? 0) >= 10 }
            != nil)
    client.send(#"{"op":"stop","id":3}"#)
    let terminal2 = try #require(client.waitForTerminal(id: 2))
    let stoppedAt = recorder.sampleCount
    #expect(terminal2["reason"] == .string("cancelled"), "\(terminal2.text)")
    let spoken = terminal2["spoken_chars"]?.integerValue ?? -1
    #expect(spoken >= 10 && spoken < long.unicodeScalars.count)
    let played2 = try #require(recorder.waitForSilence(after: start2))
    let full = audibleSpan(of: try espeakReference(text: long, voice: "en-us", rate: speechRate)[...])
    let afterStop = max(0, played2.lastAudible - stoppedAt)
    print(
        "\(label): stopped post heard \(ms(played2.audible)) ms of \(ms(full)) ms; audible after the terminal line: \(ms(afterStop)) ms"
    )
    #expect(played2.audible > 22_050 / 4, "the stopped post was barely heard: \(ms(played2.audible)) ms")
    #expect(played2.audible < full / 2, "the stopped post played \(ms(played2.audible)) ms of \(ms(full)) ms")
    #expect(afterStop < 22_050 / 5, "audio went on for \(ms(afterStop)) ms after the post ended")
    #expect(daemon.stop() == 0)
}

/// The recorded test of pausing: through the daemon's `pulse` output, a post paused after its
/// third word falls silent and stays silent until `resume`, then plays to its end; the two
/// stretches heard add up to espeak-ng's own WAV of it. With `sampleExact` (a server that does not
/// resample), the audio after the pause also continues sample by sample where it stopped.
func checkPauseAndResume(
    label: String, clientEnvironment: [String: String], recorder: MonitorRecorder, sampleExact: Bool
) throws {
    let daemon = try DaemonProcess(audio: "pulse", environment: clientEnvironment)
    try #require(recorder.waitUntilSinkSettles(), "\(label): the sink's monitor recorded nothing")
    let client = try daemon.connect()
    let text = "This is a rather long announcement that is paused in the middle and then resumed to its end"
    let start = recorder.sampleCount
    client.send(announce(1, text, #","voice":"en-us","rate":175,"words":true"#))
    try #require(
        client.waitFor { $0["id"] == .integer(1) && $0.event == "word" && ($0["offset"]?.integerValue ?? 0) >= 10 }
            != nil)
    client.send(#"{"op":"pause","id":2}"#)
    _ = try #require(client.waitFor("paused", id: 1))
    let pausedAt = recorder.sampleCount
    // The pause is silence: the first stretch ends once 300 ms of it were recorded.
    let before = try #require(recorder.waitForSilence(after: start), "no audio reached the sink's monitor")
    #expect(client.lines(id: 1).allSatisfy { $0.event != "finished" })
    let resumeAt = recorder.sampleCount
    client.send(#"{"op":"resume","id":3}"#)
    let finished = try #require(client.waitForTerminal(id: 1))
    #expect(finished["success"] == .bool(true), "\(finished.text)")
    let after = try #require(recorder.waitForSilence(after: resumeAt), "nothing was heard after resume")
    let reference = try espeakReference(text: text, voice: "en-us", rate: 175)
    let referenceSpan = audibleSpan(of: reference[...])
    let heard = before.audible + after.audible
    let afterPause = max(0, before.lastAudible - pausedAt)
    print(
        "\(label) pause: heard \(ms(before.audible)) ms before the pause and \(ms(after.audible)) ms after, \(ms(heard)) ms in all; espeak-ng WAV \(ms(referenceSpan)) ms; audible after the paused line: \(ms(afterPause)) ms"
    )
    #expect(before.audible > 22_050 / 4 && after.audible > 22_050 / 4)
    // All of it once: the two stretches add up to the whole (less a pause that fell in a gap
    // between words, which neither stretch counts).
    #expect(
        abs(heard - referenceSpan) <= referenceSpan / 10,
        "heard \(ms(heard)) ms, expected about \(ms(referenceSpan)) ms")
    #expect(afterPause < 22_050 / 5, "audio went on for \(ms(afterPause)) ms after the paused line")
    if sampleExact {
        // Sample by sample: the audio after the pause continues where the audio before it stopped
        // (the first post of a fresh daemon is espeak-ng's own output exactly; see the shared
        // notes). The tolerance is the server's own under load (PulseAudioOutputTests.pauseKeepsPlace).
        let recorded = recorder.samples(from: before.firstAudible, to: after.lastAudible + 1)
        let seam = try #require(
            PauseSeam(recorded: recorded, reference: reference), "the pause was not found in the recording")
        print("\(label) pause: \(seam)")
        #expect(seam.isWithinServerTolerance, "\(seam)")
    }
    #expect(daemon.stop() == 0)
}

/// Milliseconds of `samples` at 22050 Hz.
private func ms(_ samples: Int) -> Int { samples * 1000 / 22_050 }

/// The 10 ms windows of `samples` (from its first sample on) with a sample above the threshold.
private func audibleWindows(_ samples: ArraySlice<Int16>) -> Int {
    let window = 22_050 / 100
    return stride(from: samples.startIndex, to: samples.endIndex, by: window).count { start in
        samples[start..<min(start + window, samples.endIndex)].contains {
            abs(Int($0)) > MonitorRecorder.audibleThreshold
        }
    }
}

/// Samples from the first to the last one above the threshold.
private func audibleSpan(of samples: ArraySlice<Int16>) -> Int {
    guard let first = samples.firstIndex(where: { abs(Int($0)) > MonitorRecorder.audibleThreshold }),
        let last = samples.lastIndex(where: { abs(Int($0)) > MonitorRecorder.audibleThreshold })
    else { return 0 }
    return last - first + 1
}

extension HeadlessPulseAudio {
    static let missingReason: Comment =
        "pulseaudio, pactl or parec is not installed (apt install pulseaudio pulseaudio-utils)"
}
