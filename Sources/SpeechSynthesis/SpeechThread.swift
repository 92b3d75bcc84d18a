// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import DequeModule

/// The one thread of the process that speaks: it talks to the espeak-ng helper process and
/// plays what the helper synthesizes.
///
/// espeak-ng is a global, non-thread-safe library, and some texts crash it, so it runs in a
/// helper process (`announced-espeak`) that only this thread talks to, one utterance at a time.
/// The thread and the helper are started on first use and kept for the life of the process (a
/// helper that crashed is replaced at the next utterance). All engines share them and speak in
/// order of arrival.
final class SpeechThread: @unchecked Sendable {
    /// The process-wide worker, or why espeak-ng could not start.
    static let shared: Result<SpeechThread, SpeechSynthesisError> = start()

    /// The synthesizer's sample rate (22050 Hz for espeak-ng's own voices).
    let sampleRate: Int
    /// The voices espeak-ng offers, listed once at start.
    let voices: [VoiceDescription]

    /// Guards `queue` and `current`, and wakes the thread.
    private let condition = ConditionLock()
    private var queue: Deque<QueuedUtterance> = []
    private var current: QueuedUtterance?

    private init(sampleRate: Int, voices: [VoiceDescription]) {
        self.sampleRate = sampleRate
        self.voices = voices
    }

    /// Adds a job to the end of the queue.
    func enqueue(_ job: QueuedUtterance) {
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Stops the utterance `seq` of `audioPath`: flags it when it is being spoken, or removes it
    /// from the queue and reports it aborted (on the calling thread) when it is still waiting.
    func abort(seq: UInt64, audioPath: AudioPath) {
        condition.lock()
        if let current, current.matches(seq: seq, audioPath: audioPath) {
            current.requestAbort()
            UtteranceAbortSignal.shared.raise()
            SpeechPauseGate.shared.wake()
            condition.unlock()
            return
        }
        guard let index = queue.firstIndex(where: { $0.matches(seq: seq, audioPath: audioPath) }) else {
            condition.unlock()
            return
        }
        let job = queue.remove(at: index)
        condition.unlock()
        job.audioPath.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
    }

    // MARK: - The thread

    private static func start() -> Result<SpeechThread, SpeechSynthesisError> {
        let helper: EspeakHelperProcess
        do {
            helper = try EspeakHelperProcess()
            try helper.start()
        } catch {
            return .failure(error)
        }
        let worker = SpeechThread(sampleRate: helper.sampleRate, voices: helper.voices)
        let handoff = HelperHandoff(helper)
        DedicatedThread.start(name: "speech", stackSize: 1 << 20) {
            UtteranceAbortSignal.shared.adoptCurrentThread()
            worker.run(UtteranceSpeaker(helper: handoff.helper))
        }
        return .success(worker)
    }

    /// Hands the helper to the speech thread, which alone uses it from then on.
    private final class HelperHandoff: @unchecked Sendable {
        let helper: EspeakHelperProcess
        init(_ helper: EspeakHelperProcess) { self.helper = helper }
    }

    /// The thread's loop: take the next job, speak it, forever.
    private func run(_ synthesizer: UtteranceSpeaker) {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            current = job
            condition.unlock()

            synthesizer.perform(job)

            condition.lock()
            current = nil
            // Raised only while the job it stopped is current (outputs used on their own, as in
            // tests, then sleep as they should).
            UtteranceAbortSignal.shared.lower()
            condition.unlock()
        }
    }
}
