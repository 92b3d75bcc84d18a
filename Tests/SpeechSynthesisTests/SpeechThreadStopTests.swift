// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import BlockingThreads
import Glibc
import Testing
@testable import SpeechSynthesis

/// `SpeechThread.stop`, as the daemon's speech service calls it on graceful shutdown: the thread
/// ends, and every engine's helper has exited (reaped) by the time it says so.
@Suite(.serialized, .onBlockingThreads, .enabled(if: PiperFixture.isFetched, "\(PiperFixture.skipNote)"))
struct SpeechThreadStopTests {
    @Test("stop ends the posts it holds as aborted, stops Piper's helper (reaped), then says it stopped, at once the second time")
    func stopEndsTheHelpers() async throws {
        let thread = PiperFixture.thread()
        var recorder = EventRecorder()
        let backend = try PiperFixture.backend(thread, recorder: recorder)
        backend.speak(Utterance(seq: 1, text: "Loaded.", voice: PiperFixture.voicePath))
        _ = await recorder.events(untilFinished: 1)
        let piper = thread.piper.loadState.pid
        try #require(piper > 0, "Piper's helper runs")
        // Held by a pause: one post being spoken or queued, one queued behind it.
        backend.pause()
        let espeak = try #require(backend.voices.first { $0.engine == VoiceDescription.espeakEngine }?.identifier)
        backend.speak(Utterance(seq: 2, text: "Held.", voice: espeak))
        backend.speak(Utterance(seq: 3, text: "Queued.", voice: espeak))
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in thread.stop { stopped.resume() } }
        #expect(kill(piper, 0) == -1 && errno == ESRCH, "Piper's helper was stopped and reaped")
        #expect(thread.piper.loadState.pid == 0)
        // The queued post ends on the stopping thread, the held one on the speech thread: in
        // either order.
        var ended: [UInt64: SpeechOutcome] = [:]
        _ = await recorder.events { event in
            if case .finished(let seq, let outcome) = event { ended[seq] = outcome }
            return ended.count == 2
        }
        #expect(ended[2].map { if case .aborted = $0 { true } else { false } } == true, "\(ended)")
        #expect(ended[3] == .aborted(spokenChars: 0), "\(ended)")
        await withCheckedContinuation { (again: CheckedContinuation<Void, Never>) in thread.stop { again.resume() } }
    }
}
