// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SpeechSynthesis

/// The PulseAudio and ALSA outputs on their own, without the engine.
@Suite("Audio outputs: PulseAudio and ALSA", .onBlockingThreads, .serialized)
struct PulseAudioOutputTests {
    static let rate = 22_050

    @Test("no server at the address: the error names it and says what to do")
    func deadServer() throws {
        let address = "unix:/tmp/announced-no-pulse-\(getpid())/native"
        do {
            _ = try PulseAudioOutput(server: address)
            Issue.record("opened a PulseAudio output with no server")
        } catch let error as SpeechSynthesisError {
            #expect(error.message.contains("PulseAudio server at \(address)"), "\(error)")
            #expect(error.message.contains("--audio"), "\(error)")
        }
    }

    @Test("an ALSA device that does not exist: the error names it")
    func missingALSADevice() throws {
        do {
            _ = try ALSAAudioOutput(device: "announced-no-such-device")
            Issue.record("opened a device that does not exist")
        } catch let error as SpeechSynthesisError {
            #expect(error.message.contains("ALSA device 'announced-no-such-device' cannot be opened"), "\(error)")
        }
    }

    @Test("ALSA's null device: write, play out, discard, begin again")
    func alsaNullDevice() throws {
        let output = try ALSAAudioOutput(device: "null")
        #expect(output.description == "alsa:null")
        let tone = Self.tone(milliseconds: 200)
        try output.begin(seq: 1, sampleRate: Self.rate)
        try Self.writeInSlices(tone, to: output)
        var done = false
        for _ in 0..<200 where !done { done = try output.waitForPlayout(timeout: .milliseconds(10)) }
        #expect(done)
        #expect(output.playedFrames == tone.count)
        try output.end()

        try output.begin(seq: 2, sampleRate: Self.rate)
        #expect(output.playedFrames == 0)
        try Self.writeInSlices(tone, to: output)
        output.discard()
        let played = output.playedFrames
        #expect(played <= tone.count)
        try output.end()
        try output.begin(seq: 3, sampleRate: Self.rate)
        try Self.writeInSlices(tone, to: output)
        try output.end()

        // Paused and resumed (held in place where the device can pause), then played out.
        try output.begin(seq: 4, sampleRate: Self.rate)
        try Self.writeInSlices(tone, to: output)
        output.pause()
        output.resume()
        done = false
        for _ in 0..<200 where !done { done = try output.waitForPlayout(timeout: .milliseconds(10)) }
        #expect(done)
        #expect(output.playedFrames == tone.count)
        try output.end()
    }

    @Test(
        "a real server: writes are paced in real time, at most 60 ms ahead of playback; playout completes; discard stops at once",
        .enabled(
            if: HeadlessPulseAudio.isInstalled, "pulseaudio is not installed (apt install pulseaudio pulseaudio-utils)")
    )
    func realServer() throws {
        let server = try HeadlessPulseAudio()
        let output = try PulseAudioOutput(server: server.address)
        // One second of tone, written in 5 ms slices as the engine writes.
        let tone = Self.tone(milliseconds: 1000)
        try output.begin(seq: 1, sampleRate: Self.rate)
        var latencies: [Int] = []
        var offset = 0
        while offset < tone.count {
            let end = min(tone.count, offset + Self.rate / 200)
            try tone[offset..<end].withUnsafeBufferPointer { try output.write($0) }
            offset = end
            if offset > Self.rate / 5 { latencies.append(offset - output.playedFrames) }
        }
        var done = false
        while !done { done = try output.waitForPlayout(timeout: .milliseconds(10)) }
        try output.end()
        let sorted = latencies.sorted()
        let median = sorted[sorted.count / 2]
        print(
            "pulse: unplayed while writing 1 s: median \(median * 1000 / Self.rate) ms, max \(sorted.last! * 1000 / Self.rate) ms"
        )
        // Paced by the server: a writer that ran ahead of playback would leave far more than
        // the stream's buffer unplayed (durations are the benchmarks' business).
        #expect(median * 1000 / Self.rate <= 60, "median unplayed \(median * 1000 / Self.rate) ms")
        #expect(sorted.last! * 1000 / Self.rate <= 150, "max unplayed \(sorted.last! * 1000 / Self.rate) ms")
        #expect(output.playedFrames == tone.count)

        // Discard after half a second: played frames stop growing, the next utterance plays.
        try output.begin(seq: 2, sampleRate: Self.rate)
        try Self.writeInSlices(Array(tone[..<(Self.rate / 2)]), to: output)
        output.discard()
        let frozen = output.playedFrames
        // That nothing more plays is an absence, which no event reports: watch for 50 ms.
        quietSpell(seconds: 0.05)
        #expect(output.playedFrames == frozen)
        #expect(frozen > Self.rate / 3 && frozen <= Self.rate / 2, "played \(frozen) of \(Self.rate / 2)")
        try output.end()

        // The server goes away: the write fails with a message, begin reconnects after a restart.
        try output.begin(seq: 3, sampleRate: Self.rate)
        try Self.writeInSlices(Array(tone[..<(Self.rate / 10)]), to: output)
        server.kill()
        do {
            try Self.writeInSlices(tone, to: output)
            var finished = false
            while !finished { finished = try output.waitForPlayout(timeout: .milliseconds(10)) }
            Issue.record("played on after the server was killed")
        } catch let error as SpeechSynthesisError {
            #expect(
                error.message.contains("lost the connection to the PulseAudio server at \(server.address)"), "\(error)")
        }
        output.discard()
        try output.end()
        #expect(throws: SpeechSynthesisError.self) { try output.begin(seq: 4, sampleRate: Self.rate) }
        try server.start()
        try output.begin(seq: 5, sampleRate: Self.rate)
        try Self.writeInSlices(Array(tone[..<(Self.rate / 10)]), to: output)
        done = false
        while !done { done = try output.waitForPlayout(timeout: .milliseconds(10)) }
        try output.end()
    }

    @Test(
        "pause holds a PulseAudio stream in place: played frames stand still, and the sink hears every sample once",
        .enabled(
            if: HeadlessPulseAudio.canRecord,
            "pulseaudio or parec is not installed (apt install pulseaudio pulseaudio-utils)")
    )
    func pauseKeepsPlace() throws {
        let server = try HeadlessPulseAudio()
        let recorder = try server.record()
        try #require(recorder.waitUntilSinkSettles(), "the sink's monitor recorded nothing")
        let output = try PulseAudioOutput(server: server.address)
        // Samples that say where they are: no two runs of 16 alike, none silent.
        var state: UInt32 = 12_345
        let samples = (0..<Self.rate).map { _ -> Int16 in
            state = state &* 1_103_515_245 &+ 12_345
            let magnitude = Int16(200 + (state >> 16) % 20_000)
            return state & 0x8000 == 0 ? magnitude : -magnitude
        }
        let start = recorder.sampleCount
        try output.begin(seq: 1, sampleRate: Self.rate)
        let half = samples.count / 2
        try Self.writeInSlices(Array(samples[..<half]), to: output)
        output.pause()
        let held = output.playedFrames
        // "Nothing plays while paused" is an absence, which no event reports: hold for a while.
        quietSpell(seconds: 0.4)
        #expect(output.playedFrames == held, "played frames moved from \(held) to \(output.playedFrames) while paused")
        #expect(held < half, "everything written had played before the pause")
        output.resume()
        try Self.writeInSlices(Array(samples[half...]), to: output)
        var done = false
        while !done { done = try output.waitForPlayout(timeout: .milliseconds(10)) }
        try output.end()
        #expect(output.playedFrames == samples.count)

        let heard = try #require(recorder.waitForSilence(after: start), "nothing reached the sink's monitor")
        let recorded = recorder.samples(from: heard.firstAudible, to: heard.lastAudible + 1)
        let seam = try #require(
            PauseSeam(recorded: recorded, reference: samples), "no pause between audio in the recording")
        print(
            "pulse pause: \(seam); written \(samples.count), recorded \(recorded.count(where: { $0 != 0 })) nonzero samples"
        )
        #expect(seam.pauseLength > Self.rate / 4, "\(seam)")
        // The stream was held where it was: what the sink had mixed came back after the pause.
        // A flush would lose the stream's queue (10-20 ms, 220-440 samples). Observed here: the
        // recording misses 30-60 samples at the restart, as it misses 12-104 of a stream's start
        // (printed), both points where the sink re-mixes what it had already rendered ahead (taken
        // to be the monitor's, not the listener's, loss: not proven). On a loaded machine a late
        // write underruns the stream and the server skips up to about 5 ms of it (anywhere), and a
        // rewind the monitor could not take back is recorded twice.
        let missedAtStart = recorded.first(where: { $0 != 0 }).flatMap { samples.firstIndex(of: $0) } ?? -1
        print("pulse pause: the monitor missed the first \(missedAtStart) samples of the stream")
        #expect(seam.isWithinServerTolerance, "\(seam)")
        #expect(
            recorded.last(where: { $0 != 0 }) == samples.last, "the recording does not end with the last sample written"
        )
    }

    static func tone(milliseconds: Int) -> [Int16] {
        (0..<(rate * milliseconds / 1000)).map { Int16(8000 * sin(Double($0) * 2 * .pi * 440 / Double(rate))) }
    }

    static func writeInSlices(_ samples: [Int16], to output: any AudioOutput) throws {
        var offset = 0
        while offset < samples.count {
            let end = min(samples.count, offset + rate / 200)
            try samples[offset..<end].withUnsafeBufferPointer { try output.write($0) }
            offset = end
        }
    }
}
