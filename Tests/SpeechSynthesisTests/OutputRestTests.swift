// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Foundation
import TestSupport
import Testing

@testable import SpeechSynthesis

/// A null output that reports each `wake`, `begin` and `rest` in order.
final class RestRecordingOutput: NullDeviceOutput, @unchecked Sendable {
    enum Call: Equatable, Sendable { case wake, begin, rest }

    let device = NullAudioOutput()
    let calls: AsyncStream<Call>
    private let continuation: AsyncStream<Call>.Continuation

    init() {
        (calls, continuation) = AsyncStream.makeStream(of: Call.self)
    }

    /// The next call, within 60 s (``withTimeout(_:seconds:_:)``): a call that never comes fails
    /// the test instead of hanging it.
    func nextCall() async throws -> Call? {
        try await calls.next(within: 60, "the output's next call")
    }

    var description: String { "rest-recording null" }

    func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        continuation.yield(.begin)
        try device.begin(seq: seq, sampleRate: sampleRate, abortSignal: abortSignal)
    }

    func rest() { continuation.yield(.rest) }
    func wake() { continuation.yield(.wake) }
}

/// The speech thread lets its output rest once nothing has been spoken for its rest delay, so an
/// idle daemon's output (a sound server's stream) wakes nobody; the next post takes it back.
@Suite
struct OutputRestTests {
    @Test(
        "the output rests once after the delay with nothing to speak, never while speaking; woken before each post's begin, it speaks again after"
    )
    func restsWhenIdle() async throws {
        var recorder = EventRecorder()
        let output = RestRecordingOutput()
        let thread = SpeechThread.start(engines: [EspeakEngine()], outputRestDelay: .milliseconds(300))
        let backend = try EngineBackend(
            thread: thread, output: output, logger: TestAudio.logger, eventHandler: recorder.handler)

        // Two posts back to back: the second is queued before the first ends, so nothing rests between.
        backend.speak(Utterance(seq: 1, text: "One, two, three, four, five.", voice: "en-us"))
        backend.speak(Utterance(seq: 2, text: "Saved.", voice: "en-us", rate: 450))
        #expect(await recorder.events(untilFinished: 2).outcome(of: 2) == .completed)
        var seen: [RestRecordingOutput.Call] = []
        while let call = try await output.nextCall() {
            seen.append(call)
            if call == .rest { break }
        }
        #expect(seen == [.wake, .begin, .wake, .begin, .rest])

        backend.speak(Utterance(seq: 3, text: "Again.", voice: "en-us", rate: 450))
        #expect(await recorder.events(untilFinished: 3).outcome(of: 3) == .completed)
        #expect(try await output.nextCall() == .wake)
        #expect(try await output.nextCall() == .begin)
        #expect(try await output.nextCall() == .rest)
        await withCheckedContinuation { done in thread.stop { done.resume() } }
    }
}
