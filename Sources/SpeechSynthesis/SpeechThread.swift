// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import DequeModule
import Logging

/// The thread that speaks, and the one owner of its state: the queue, the utterance being spoken,
/// its abort and the pause, all behind one lock.
///
/// It talks to the engines' helper processes (espeak-ng's `announced-espeak`, started at once;
/// Piper's `announced-piper`, started on first use) and plays what they synthesize, one utterance
/// at a time, in order of arrival. Whoever makes backends makes one of these (the daemon's `main`,
/// a test suite) and hands it to each backend; every backend given the same thread shares its
/// queue, its helpers and its pause. The thread lives as long as the process.
public final class SpeechThread: @unchecked Sendable {
    /// The lock of everything below, and the speech thread's one wait: for work, for the end of
    /// an abortable sleep, for `resume`, for an engine that loads.
    private let condition = ConditionLock()
    private var queue: Deque<QueuedUtterance> = []
    private var current: QueuedUtterance?
    /// Raised while `current` is being stopped: ends the thread's sleeps and waits.
    private var abortRaised = false
    private var paused = false
    /// espeak-ng's engine once its helper started (or why it could not); nil while it starts.
    private var espeakStart: Result<EspeakEngine, SpeechSynthesisError>?

    /// How long an unused Piper helper is kept by default (`engine_idle_unload`): 5 minutes.
    public static let defaultPiperIdleUnload: Duration = .seconds(300)

    /// Piper's engine: its helper starts when a Piper voice is first used or prepared.
    let piper: PiperEngine

    /// Creates the owner without a thread (tests of the waits use it as it is); `piperHelper`
    /// says where Piper's helper is looked for.
    init(piperIdleUnload: Duration = SpeechThread.defaultPiperIdleUnload, piperHelper: EngineHelperKind = .piper) {
        piper = PiperEngine(idleUnload: piperIdleUnload, helper: piperHelper)
        piper.wakeSpeechThread = { [weak self] in self?.wake() }
    }

    /// Starts the speech thread, which starts espeak-ng's helper before anything else, so that
    /// espeak-ng loads while the caller goes on (the daemon parses its command line and reads its
    /// configuration); the first backend waits for it. A Piper helper that has spoken nothing for
    /// `piperIdleUnload` is stopped, which unloads its model.
    public static func start(piperIdleUnload: Duration = SpeechThread.defaultPiperIdleUnload) -> SpeechThread {
        start(piperIdleUnload: piperIdleUnload, piperHelper: .piper)
    }

    /// `start`, with Piper's helper looked for as `piperHelper` says (tests).
    static func start(piperIdleUnload: Duration, piperHelper: EngineHelperKind) -> SpeechThread {
        let thread = SpeechThread(piperIdleUnload: piperIdleUnload, piperHelper: piperHelper)
        DedicatedThread.start(name: "speech", stackSize: 1 << 20) {
            let start = Result { () throws(SpeechSynthesisError) -> EspeakEngine in try EspeakEngine() }
            thread.condition.lock()
            thread.espeakStart = start
            thread.condition.broadcast()
            thread.condition.unlock()
            guard case .success(let espeak) = start else { return }
            thread.run(UtteranceSpeaker(thread: thread, espeak: espeak))
        }
        return thread
    }

    /// Sets how long a Piper helper may sit unused before it is stopped (its model unloaded).
    public func setPiperIdleUnload(_ duration: Duration) {
        piper.setIdleUnload(duration)
    }

    /// Sets the threads ONNX Runtime runs one Piper synthesis on (`piper_threads`), at most the
    /// machine's cores; a helper started from now on uses them.
    public func setPiperThreads(_ threads: Int) {
        piper.setThreads(threads)
    }

    /// espeak-ng's engine, waiting for its helper to start.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be found or started, or espeak-ng
    ///   cannot be initialized.
    func espeak() throws(SpeechSynthesisError) -> EspeakEngine {
        condition.lock()
        while espeakStart == nil { condition.wait() }
        let start = espeakStart!
        condition.unlock()
        return try start.get()
    }

    /// Adds a job to the end of the queue.
    func enqueue(_ job: QueuedUtterance) {
        condition.lock()
        queue.append(job)
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the utterance `seq` of `audioPath`: raises the abort when it is being spoken, or
    /// removes it from the queue and reports it aborted (on the calling thread) when it is still
    /// waiting.
    func abort(seq: UInt64, audioPath: AudioPath) {
        condition.lock()
        if let current, current.matches(seq: seq, audioPath: audioPath) {
            abortRaised = true
            condition.broadcast()
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

    // MARK: - Pause

    /// Holds the output from the next slice on.
    func pause() {
        condition.lock()
        paused = true
        condition.unlock()
    }

    /// Lets the output continue.
    func resume() {
        condition.lock()
        paused = false
        condition.broadcast()
        condition.unlock()
    }

    /// What the utterance being spoken does now, as the speech thread checks between slices.
    enum Playback {
        case playing
        case paused
        case aborted
    }

    /// Whether the utterance plays on, is held, or is being stopped (which wins over the pause).
    var playback: Playback {
        condition.lock()
        defer { condition.unlock() }
        return abortRaised ? .aborted : paused ? .paused : .playing
    }

    /// Returns at once unless paused; otherwise waits until `resume` or an abort. False when the
    /// utterance was aborted.
    func waitWhilePaused() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while paused {
            if abortRaised { return false }
            condition.wait()
        }
        return !abortRaised
    }

    // MARK: - Abort

    /// Whether the utterance being spoken is being stopped.
    var isAbortRaised: Bool {
        condition.lock()
        defer { condition.unlock() }
        return abortRaised
    }

    /// Stops the utterance being spoken (also for tests of the waits, which have no queue).
    func raiseAbort() {
        condition.lock()
        abortRaised = true
        condition.broadcast()
        condition.unlock()
    }

    /// A new utterance starts (also for tests of the waits).
    func lowerAbort() {
        condition.lock()
        abortRaised = false
        condition.unlock()
    }

    /// Sleeps for `duration` unless the abort is raised first; false when it was (at once if it
    /// already was).
    func sleepUnlessAborted(for duration: Duration) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let deadline = monotonicTime(after: duration)
        while !abortRaised {
            if !condition.wait(until: deadline) { return !abortRaised }
        }
        return false
    }

    /// Waits until `isDone` is true (checked under the thread's lock, so whoever makes it true
    /// and then calls `wake` is never missed) or the abort is raised. False on the abort.
    func waitUnlessAborted(until isDone: () -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isDone() {
            if abortRaised { return false }
            condition.wait()
        }
        return true
    }

    /// Wakes the thread to look at what it waits for again (an engine finished loading).
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - The thread

    /// The thread's loop: take the next job, speak it, forever.
    private func run(_ speaker: UtteranceSpeaker) {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            current = job
            condition.unlock()

            speaker.perform(job)

            condition.lock()
            current = nil
            abortRaised = false
            condition.unlock()
        }
    }
}

/// The speech thread's abort as an audio output's waits see it: handed to the output with each
/// utterance (`AudioOutput.begin`), it ends the output's sleeps at once when the utterance is
/// stopped. An output begun without one (`none`, as tests do) sleeps as it would.
public struct UtteranceAbortSignal: Sendable {
    let thread: SpeechThread?

    /// No abort: sleeps run their course.
    public static let none = UtteranceAbortSignal(thread: nil)

    /// Whether the utterance is being stopped.
    var isRaised: Bool { thread?.isAbortRaised ?? false }

    /// Sleeps for `duration` unless the utterance is stopped first; false when it was.
    @discardableResult
    func sleep(for duration: Duration) -> Bool {
        guard let thread else {
            sleepThread(for: duration)
            return true
        }
        return thread.sleepUnlessAborted(for: duration)
    }
}
