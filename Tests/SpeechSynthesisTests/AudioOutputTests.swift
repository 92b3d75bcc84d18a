// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Testing

@testable import SpeechSynthesis

@Suite(.onBlockingThreads)
struct AudioOutputTests {
    @Test func wavOutputCreatesItsDirectory() throws {
        let directory = TestAudio.temporaryDirectory() + "/nested/deeper"
        let output = try WAVAudioOutput(directory: directory)
        #expect(output.description == "wav:\(directory)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) && isDirectory.boolValue)
    }

    @Test func wavOutputRejectsAFileAsDirectory() throws {
        let file = TestAudio.temporaryDirectory() + "/plain"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let error = #expect(throws: SpeechSynthesisError.self) { try WAVAudioOutput(directory: file) }
        #expect(error?.message.contains("not a directory") == true)
    }

    @Test func wavOutputWritesNoFileWithoutAudio() throws {
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory)
        try output.begin(seq: 3, sampleRate: 22_050)
        output.discard()
        try output.end()
        #expect(!FileManager.default.fileExists(atPath: output.path(forSeq: 3)))
    }

    @Test func discardKeepsOnlyPlayedFrames() throws {
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory, time: SteppedTime().playbackTime)
        try output.begin(seq: 4, sampleRate: 8_000)
        let samples = [Int16](repeating: 1000, count: 8_000) // one second
        try samples.withUnsafeBufferPointer { try output.write($0) }
        // The write returned once all but the 20 ms device buffer was played (time moves only
        // while the device waits, so the buffer is still unplayed however busy the machine is).
        #expect(output.playedFrames >= 8_000 - 8_000 / 50 - 8)
        #expect(output.playedFrames < 8_000)
        output.discard()
        let played = output.playedFrames
        try output.end()
        let data = try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 4)))
        #expect(data.count == 44 + played * 2)
        #expect(WAVFile.pcm(data)?.samples.count == played)
    }

    @Test func nullOutputResumesAfterStarvationWithoutCatchingUp() throws {
        let output = NullAudioOutput(time: SteppedTime().playbackTime)
        try output.begin(seq: 1, sampleRate: 1_000)
        let tenMilliseconds = [Int16](repeating: 0, count: 10)
        try tenMilliseconds.withUnsafeBufferPointer { try output.write($0) }
        #expect(try output.waitForPlayout(timeout: .seconds(5)))
        #expect(output.playedFrames == 10)
        // Starved: the next audio starts playing when it is written, not in the past.
        try tenMilliseconds.withUnsafeBufferPointer { try output.write($0) }
        #expect(output.playedFrames == 10)
        #expect(try output.waitForPlayout(timeout: .seconds(5)))
        #expect(output.playedFrames == 20)
    }
}

@Suite(.onBlockingThreads)
struct UtteranceAbortSignalTests {
    @Test("the speech thread's abort, handed to an output with its utterance, ends the device's waits at once")
    func aRaisedAbortEndsTheDeviceWait() {
        let thread = SpeechThread()
        var clock = VirtualPlaybackClock()
        clock.reset(sampleRate: 1_000, abortSignal: UtteranceAbortSignal(thread: thread))
        clock.recordWrite(1_000) // one second
        thread.raiseAbort()
        clock.waitForBufferSpace()
        // Returned without waiting for the second to play down to the device buffer.
        #expect(clock.playedFrames < 1_000 - clock.bufferFrames)
        #expect(!clock.waitForPlayout(timeout: .seconds(5)))
        thread.lowerAbort()
        clock.waitForBufferSpace()
        #expect(clock.playedFrames >= 1_000 - clock.bufferFrames)
    }

    @Test("an output begun without the thread's abort (used on its own) is not ended by it")
    func anOutputBegunWithoutTheSignalSleepsOn() throws {
        let thread = SpeechThread()
        thread.raiseAbort()
        let output = NullAudioOutput()
        try output.begin(seq: 1, sampleRate: 1_000)
        let samples = [Int16](repeating: 0, count: 200)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        #expect(output.playedFrames >= 200 - 20)
    }

    @Test("two speech threads have two aborts: raising one does not end the other's waits")
    func eachThreadHasItsOwnAbort() {
        let stopped = SpeechThread()
        let speaking = SpeechThread()
        stopped.raiseAbort()
        var clock = VirtualPlaybackClock()
        clock.reset(sampleRate: 1_000, abortSignal: UtteranceAbortSignal(thread: speaking))
        clock.recordWrite(200)
        clock.waitForBufferSpace()
        #expect(clock.playedFrames >= 200 - clock.bufferFrames)
    }

    @Test(
        "a paused wav output stops playing where it is, keeps every sample in its file once, and plays on after resume")
    func pausedWAVOutputHoldsItsPlace() throws {
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory, time: SteppedTime().playbackTime)
        try output.begin(seq: 5, sampleRate: 8_000)
        let samples = (0..<4_000).map { Int16(truncatingIfNeeded: $0 &* 7) } // half a second
        try samples.withUnsafeBufferPointer { try output.write($0) }
        output.pause()
        let held = output.playedFrames
        #expect(held < samples.count, "everything had played before the pause")
        // A paused device plays nothing, however long the pause.
        #expect(try !output.waitForPlayout(timeout: .milliseconds(60)))
        #expect(output.playedFrames == held)
        output.resume()
        #expect(try output.waitForPlayout(timeout: .seconds(5)))
        #expect(output.playedFrames == samples.count)
        try output.end()
        let data = try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 5)))
        #expect(WAVFile.pcm(data)?.samples == samples)
    }

    @Test("a paused wav output that is discarded keeps only what was played before the pause")
    func pausedWAVOutputDiscarded() throws {
        let directory = TestAudio.temporaryDirectory()
        let output = try WAVAudioOutput(directory: directory, time: SteppedTime().playbackTime)
        try output.begin(seq: 6, sampleRate: 8_000)
        let samples = [Int16](repeating: 1000, count: 4_000)
        try samples.withUnsafeBufferPointer { try output.write($0) }
        output.pause()
        let held = output.playedFrames
        #expect(held < samples.count, "everything had played before the pause")
        output.discard()
        #expect(output.playedFrames == held)
        try output.end()
        let data = try Data(contentsOf: URL(fileURLWithPath: output.path(forSeq: 6)))
        #expect(WAVFile.pcm(data)?.samples.count == held)
    }
}
