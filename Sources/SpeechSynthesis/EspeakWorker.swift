import AnnounceCore
import CEspeakNG
import Foundation

/// The one thread of the process that talks to espeak-ng.
///
/// espeak-ng is a global, non-thread-safe library that can be initialized only once per process,
/// so every `espeak_*` call happens on this thread, started on first use and kept for the life
/// of the process. All engines share it and speak one utterance at a time, in order of arrival.
final class EspeakWorker: @unchecked Sendable {
    /// The process-wide worker, or why espeak-ng could not start.
    static let shared: Result<EspeakWorker, SpeechSynthesisError> = start()

    /// The synthesizer's sample rate (22050 Hz for espeak-ng's own voices).
    let sampleRate: Int
    /// The voices espeak-ng offers, listed once at start.
    let voices: [VoiceDescription]

    /// Guards `queue` and `current`, and wakes the thread.
    private let condition = NSCondition()
    private var queue: [SpeechJob] = []
    private var current: SpeechJob?

    private init(sampleRate: Int, voices: [VoiceDescription]) {
        self.sampleRate = sampleRate
        self.voices = voices
    }

    /// Adds a job to the end of the queue.
    func enqueue(_ job: SpeechJob) {
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Stops the utterance `seq` of `session`: flags it when it is being spoken, or removes it
    /// from the queue and reports it aborted (on the calling thread) when it is still waiting.
    func abort(seq: UInt64, session: EngineSession) {
        condition.lock()
        if let current, current.matches(seq: seq, session: session) {
            current.requestAbort()
            condition.unlock()
            return
        }
        guard let index = queue.firstIndex(where: { $0.matches(seq: seq, session: session) }) else {
            condition.unlock()
            return
        }
        let job = queue.remove(at: index)
        condition.unlock()
        job.session.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
    }

    // MARK: - The thread

    /// Hands the start result from the new thread to the one waiting for it.
    private final class StartHandoff: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var result: Result<EspeakWorker, SpeechSynthesisError>?
    }

    private static func start() -> Result<EspeakWorker, SpeechSynthesisError> {
        let handoff = StartHandoff()
        let thread = Thread {
            let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 60, nil, espeakINITIALIZE_DONT_EXIT)
            guard rate > 0 else {
                handoff.result = .failure(.espeakUnavailable(code: rate))
                handoff.done.signal()
                return
            }
            espeak_SetSynthCallback(espeakSynthCallback)
            let worker = EspeakWorker(sampleRate: Int(rate), voices: EspeakVoices.list())
            handoff.result = .success(worker)
            handoff.done.signal()
            worker.run()
        }
        thread.name = "espeak-ng"
        thread.stackSize = 8 << 20
        thread.start()
        handoff.done.wait()
        return handoff.result ?? .failure(.espeakUnavailable(code: -1))
    }

    /// The thread's loop: take the next job, speak it, forever.
    private func run() {
        let synthesizer = EspeakSynthesizer(sampleRate: sampleRate)
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            current = job
            condition.unlock()

            synthesizer.perform(job)

            condition.lock()
            current = nil
            condition.unlock()
        }
    }
}
