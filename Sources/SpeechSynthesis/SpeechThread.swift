// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import DequeModule
import Logging
import POSIXThreads

/// The thread that speaks, and the one owner of its state: the queue, the utterance being spoken,
/// its abort and the pause, all behind one lock; and the engines (`[any SpeechEngine]`, in the
/// order `SpeechEngines.registered` gives them), whose helpers it shares with the Spiel streams
/// (`StreamSynthesizer`), one holder at a time.
///
/// It plays what the engines' helper processes synthesize, one utterance at a time, in order of
/// arrival. Whoever makes backends makes one of these (the daemon's `main`, a test suite) and hands
/// it to each backend; every backend given the same thread shares its queue, its engines and its
/// pause. The thread runs until ``stop(then:)``.
public final class SpeechThread: @unchecked Sendable {
    /// The lock of everything below, and the speech thread's one wait: for work, for the end of
    /// an abortable sleep, for `resume`, for an engine that loads.
    private let condition = ConditionLock()
    private var queue: Deque<QueuedUtterance> = []
    private var current: QueuedUtterance?
    /// Raised while `current` is being stopped: ends the thread's sleeps and waits.
    private var abortRaised = false
    private var paused = false
    /// Whether the engines started with the thread (or why not); nil while they start.
    private var engineStart: Result<Void, SpeechSynthesisError>?
    /// Set by `stop`: the thread stops the engines' helpers and ends.
    private var stopping = false
    /// The thread has ended (or never ran, when an engine could not start).
    private var ended = false
    /// Called once the thread has ended.
    private var whenEnded: [@Sendable () -> Void] = []

    /// The engines, the first the one that speaks every voice no other engine claims.
    let engines: [any SpeechEngine]

    /// How long the thread waits with nothing to speak before it lets the last output rest
    /// (`AudioOutput.rest`).
    let outputRestDelay: Duration

    /// Creates the owner of `engines` without a thread (tests of the waits use it as it is).
    init(engines: [any SpeechEngine] = SpeechEngines.registered(), outputRestDelay: Duration = defaultOutputRestDelay) {
        self.engines = engines
        self.outputRestDelay = outputRestDelay
    }

    /// Starts the speech thread, which starts the engines that start at once (their helpers)
    /// before anything else, so that they load while the caller goes on (the daemon parses its
    /// command line and reads its configuration); the first backend waits for them.
    public static func start() -> SpeechThread {
        start(engines: SpeechEngines.registered())
    }

    /// `start`, with `engines` (tests name their own) and the wait before the output rests.
    static func start(engines: [any SpeechEngine], outputRestDelay: Duration = defaultOutputRestDelay) -> SpeechThread {
        let thread = SpeechThread(engines: engines, outputRestDelay: outputRestDelay)
        DedicatedThread.start(name: "speech", stackSize: 1 << 20) {
            let start = Result { () throws(SpeechSynthesisError) in
                for engine in engines { try engine.start() }
            }
            thread.condition.lock()
            thread.engineStart = start
            thread.condition.broadcast()
            thread.condition.unlock()
            if case .success = start {
                thread.run(UtteranceSpeaker(thread: thread, sampleRates: engines.compactMap(\.sampleRate)))
            }
            for engine in engines { engine.shutDown() }
            thread.end()
        }
        return thread
    }

    /// Applies the daemon's engine settings (`engine_idle_unload`, `piper_threads`, `speech_cache`) to every engine.
    public func configureEngines(_ settings: EngineSettings) {
        for engine in engines { engine.configure(settings) }
    }

    /// Stops the thread: the utterance being spoken is aborted and those still queued end
    /// aborted (their `finished` reported on the calling thread), then the thread stops the
    /// engines' helpers and ends, and calls `stopped` (at once when it has already ended). Posts
    /// given to its backends afterwards are never spoken: stop it last.
    public func stop(then stopped: @escaping @Sendable () -> Void) {
        condition.lock()
        guard !ended else {
            condition.unlock()
            stopped()
            return
        }
        whenEnded.append(stopped)
        stopping = true
        if current != nil { abortRaised = true }
        let dropped = queue
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
        for job in dropped {
            job.audioPath.eventHandler(.finished(seq: job.utterance.seq, outcome: .aborted(spokenChars: 0)))
        }
    }

    /// The thread has ended: tells whoever waits in `stop`.
    private func end() {
        condition.lock()
        ended = true
        let waiting = whenEnded
        whenEnded = []
        condition.unlock()
        for stopped in waiting { stopped() }
    }

    /// The files of the voices `identifiers` (a Piper voice's model path) were installed again or
    /// removed: the engines forget what they rendered in them, and load them again from the
    /// new files. Any thread.
    public func voiceFilesChanged(_ identifiers: Set<String>) {
        guard !identifiers.isEmpty else { return }
        for engine in engines { engine.voiceFilesChanged(identifiers) }
    }

    /// The engines, waiting for those that start with the thread.
    /// - Throws: `SpeechSynthesisError` when a helper cannot be found or started, or its engine
    ///   cannot be initialized.
    func startedEngines() throws(SpeechSynthesisError) -> [any SpeechEngine] {
        condition.lock()
        while engineStart == nil { condition.wait() }
        let start = engineStart!
        condition.unlock()
        try start.get()
        return engines
    }

    /// The engine of type `type`, if it is registered (tests look at one engine's state).
    func engine<Engine: SpeechEngine>(_ type: Engine.Type) -> Engine? {
        engines.lazy.compactMap { $0 as? Engine }.first
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

    /// The daemon's wait before its output rests: shorter than the 10 s after which an idle daemon
    /// is to be asleep, long enough that a burst of posts keeps its connection to the sound server.
    static let defaultOutputRestDelay: Duration = .seconds(5)

    /// The thread's loop: take the next job, speak it, until `stop`. After `outputRestDelay`
    /// with nothing to speak, the output last spoken through rests, so an idle daemon wakes for
    /// nothing.
    private func run(_ speaker: UtteranceSpeaker) {
        var awake: (any AudioOutput)?
        while true {
            condition.lock()
            if awake != nil, queue.isEmpty, !stopping, !waitForWork(for: outputRestDelay) {
                condition.unlock()
                awake?.rest()
                awake = nil
                continue
            }
            while queue.isEmpty, !stopping { condition.wait() }
            if stopping {
                condition.unlock()
                return
            }
            let job = queue.removeFirst()
            current = job
            condition.unlock()

            speaker.perform(job)
            awake = job.audioPath.output

            condition.lock()
            current = nil
            abortRaised = false
            condition.unlock()
        }
    }

    /// Waits, with the lock held, until there is work or `stop`; false when `duration` passed first.
    private func waitForWork(for duration: Duration) -> Bool {
        let deadline = monotonicTime(after: duration)
        while queue.isEmpty, !stopping {
            if !condition.wait(until: deadline) { return !queue.isEmpty || stopping }
        }
        return true
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
