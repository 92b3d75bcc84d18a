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
// Unchecked: its mutable state is touched only with `condition` held; `engines` and `outputRestDelay` are constants.
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
            thread.condition.withLock {
                thread.engineStart = start
                thread.condition.broadcast()
            }
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
        let dropped: Deque<QueuedUtterance>? = condition.withLock {
            guard !ended else { return nil }
            whenEnded.append(stopped)
            stopping = true
            if current != nil { abortRaised = true }
            let dropped = queue
            queue.removeAll()
            condition.broadcast()
            return dropped
        }
        guard let dropped else {
            stopped()
            return
        }
        for job in dropped {
            job.audioPath.eventHandler(.finished(seq: job.utterance.seq, outcome: .aborted(spokenChars: 0)))
        }
    }

    /// The thread has ended: tells whoever waits in `stop`.
    private func end() {
        let waiting = condition.withLock {
            ended = true
            defer { whenEnded = [] }
            return whenEnded
        }
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
        let start = condition.withLock {
            condition.wait(until: { engineStart != nil })
            return engineStart!
        }
        try start.get()
        return engines
    }

    /// The engine of type `type`, if it is registered (tests look at one engine's state).
    func engine<Engine: SpeechEngine>(_ type: Engine.Type) -> Engine? {
        engines.lazy.compactMap { $0 as? Engine }.first
    }

    /// Adds a job to the end of the queue.
    func enqueue(_ job: QueuedUtterance) {
        condition.withLock {
            queue.append(job)
            condition.broadcast()
        }
    }

    /// Stops the utterance `seq` of `audioPath`: raises the abort when it is being spoken, or
    /// removes it from the queue and reports it aborted (on the calling thread) when it is still
    /// waiting.
    func abort(seq: UInt64, audioPath: AudioPath) {
        let waiting: QueuedUtterance? = condition.withLock {
            if let current, current.matches(seq: seq, audioPath: audioPath) {
                abortRaised = true
                condition.broadcast()
                return nil
            }
            guard let index = queue.firstIndex(where: { $0.matches(seq: seq, audioPath: audioPath) }) else {
                return nil
            }
            return queue.remove(at: index)
        }
        guard let job = waiting else { return }
        job.audioPath.eventHandler(.finished(seq: seq, outcome: .aborted(spokenChars: 0)))
    }

    // MARK: - Pause

    /// Holds the output from the next slice on.
    func pause() {
        condition.withLock { paused = true }
    }

    /// Lets the output continue.
    func resume() {
        condition.withLock {
            paused = false
            condition.broadcast()
        }
    }

    /// What the utterance being spoken does now, as the speech thread checks between slices.
    enum Playback {
        case playing
        case paused
        case aborted
    }

    /// Whether the utterance plays on, is held, or is being stopped (which wins over the pause).
    var playback: Playback {
        condition.withLock { abortRaised ? .aborted : paused ? .paused : .playing }
    }

    /// Returns at once unless paused; otherwise waits until `resume` or an abort. False when the
    /// utterance was aborted.
    func waitWhilePaused() -> Bool {
        condition.withLock {
            condition.wait(until: { !paused || abortRaised })
            return !abortRaised
        }
    }

    // MARK: - Abort

    /// Whether the utterance being spoken is being stopped.
    var isAbortRaised: Bool {
        condition.withLock { abortRaised }
    }

    /// Stops the utterance being spoken (also for tests of the waits, which have no queue).
    func raiseAbort() {
        condition.withLock {
            abortRaised = true
            condition.broadcast()
        }
    }

    /// A new utterance starts (also for tests of the waits).
    func lowerAbort() {
        condition.withLock { abortRaised = false }
    }

    /// Sleeps for `duration` unless the abort is raised first; false when it was (at once if it
    /// already was).
    func sleepUnlessAborted(for duration: Duration) -> Bool {
        let deadline = monotonicTime(after: duration)
        return condition.withLock { !condition.wait(until: { abortRaised }, deadline: deadline) }
    }

    /// Waits until `isDone` is true (checked under the thread's lock, so whoever makes it true
    /// and then calls `wake` is never missed) or the abort is raised. False on the abort.
    func waitUnlessAborted(until isDone: () -> Bool) -> Bool {
        condition.withLock {
            // `isDone` is asked once per wake, before the abort (it may take what it waits for).
            var done = false
            condition.wait(until: {
                done = isDone()
                return done || abortRaised
            })
            return done
        }
    }

    /// Wakes the thread to look at what it waits for again (an engine finished loading).
    func wake() {
        condition.withLock { condition.broadcast() }
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
            let next: Step = condition.withLock {
                if awake != nil, queue.isEmpty, !stopping, !waitForWork(for: outputRestDelay) { return .rest }
                condition.wait(until: { !queue.isEmpty || stopping })
                if stopping { return .stop }
                let job = queue.removeFirst()
                current = job
                return .speak(job)
            }
            switch next {
            case .rest:
                awake?.rest()
                awake = nil
            case .stop:
                return
            case .speak(let job):
                speaker.perform(job)
                awake = job.audioPath.output
                condition.withLock {
                    current = nil
                    abortRaised = false
                }
            }
        }
    }

    /// What the thread's loop does next, as decided under the lock.
    private enum Step {
        /// Nothing came within `outputRestDelay`: let the output rest.
        case rest
        /// `stop` was called.
        case stop
        /// Speak this job (now `current`).
        case speak(QueuedUtterance)
    }

    /// Waits, with the lock held, until there is work or `stop`; false when `duration` passed first.
    private func waitForWork(for duration: Duration) -> Bool {
        condition.wait(until: { !queue.isEmpty || stopping }, deadline: monotonicTime(after: duration))
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
