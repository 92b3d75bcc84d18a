// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import Logging

/// The espeak-ng speech backend: synthesizes utterances and plays them through an audio output.
///
/// espeak-ng runs in a helper process (`announced-espeak`, found beside the running executable),
/// so that a text that crashes it costs one utterance (finished `.failed`) and not the process;
/// a crashed or stuck helper is replaced. Every engine shares one process-wide speech thread
/// that talks to the helper, started by the first engine and kept until the process exits.
/// Several engines may exist (each with its own output and event handler, e.g. in tests); they
/// speak one utterance at a time, in the order `speak` was called.
///
/// Events are delivered on the speech thread, in order: `started` when the first audio
/// reaches the output, `word` and `mark` when playback reaches them, then exactly one
/// `finished`. The one exception is an utterance aborted while still queued: its
/// `finished(.aborted(spokenChars: 0))` is delivered at once, on the thread that called `abort`.
public final class EspeakBackend: SpeechBackend {
    /// The output description, e.g. `null` or `wav:/tmp/out`.
    public let outputDescription: String
    /// The voices espeak-ng offers, by the names `Utterance.voice` accepts.
    public let voices: [VoiceDescription]
    /// The synthesizer's sample rate in Hz.
    public let sampleRate: Int
    private let audioPath: AudioPath
    private let worker: SpeechThread

    /// Creates an engine that plays through `output` and reports through `eventHandler`; it tells
    /// `activity` (if any) when each utterance begins and ends playing.
    ///
    /// The engine takes over `output`: from now on it is used only on the speech thread.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be found or started, or espeak-ng
    ///   cannot be initialized, e.g. because its data (the espeak-ng-data package) is not installed.
    public init(
        output: any AudioOutput, logger: Logger,
        eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void,
        activity: (any SpeechActivityObserver)? = nil
    ) throws {
        worker = try SpeechThread.shared.get()
        outputDescription = output.description
        voices = worker.voices
        sampleRate = worker.sampleRate
        audioPath = AudioPath(output: output, logger: logger, eventHandler: eventHandler, activity: activity)
    }

    /// Starts the espeak-ng helper process in the background, so that it loads while the daemon
    /// reads its configuration and opens its socket; the first engine then finds it ready.
    public static func prepare() {
        DedicatedThread.start(name: "speech-start", stackSize: 256 << 10) { _ = SpeechThread.shared }
    }

    /// Queues `utterance`; returns at once.
    public func speak(_ utterance: Utterance) {
        worker.enqueue(QueuedUtterance(utterance: utterance, audioPath: audioPath))
    }

    /// Stops the utterance `seq`: at once when it is playing (unplayed audio is dropped), or by
    /// removing it from the queue. Returns at once; does nothing if `seq` already finished.
    public func abort(seq: UInt64) {
        worker.abort(seq: seq, audioPath: audioPath)
    }

    /// Holds the output within one slice (about 5 ms, plus the few milliseconds a PulseAudio
    /// server takes to silence a corked stream); the utterance keeps its place. Process-wide:
    /// every engine shares the speech thread.
    public func pause() {
        SpeechPauseGate.shared.close()
    }

    /// Continues the paused utterance from its next unplayed sample.
    public func resume() {
        SpeechPauseGate.shared.open()
    }
}
