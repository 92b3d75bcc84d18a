// SPDX-License-Identifier: GPL-3.0-or-later
import Logging

/// The seam between the speech thread and a synthesizer: one engine, whose synthesizer runs in a
/// supervised helper process of its own (`EngineHelperProcess`) that speaks the helper wire.
///
/// The speech thread asks the engine for its helper before each utterance (the engine starts or
/// loads it as it needs), talks to it for the utterance (synthesize, abort, read samples, words,
/// marks and `done`), stops it when it crashed or hangs, and gives it back after the utterance's
/// terminal line. espeak-ng (`EspeakEngine`) starts at once and restarts right after a crash;
/// Piper (`PiperEngine`) starts and loads its voice on first use, on a loader thread of its own,
/// so that a load never holds up other engines' posts, and unloads when idle.
protocol SpeechEngine: AnyObject, Sendable {
    /// The engine's name in logs, messages and the monitor: `espeak-ng`, `piper`.
    var name: String { get }

    /// What a crash message adds after "the speech engine was restarted and later posts speak."
    var crashAdvice: String { get }

    /// The helper, ready to synthesize with `voice`: started (or loaded) first when it needs to
    /// be, waiting for that on `thread` unless the utterance is stopped meanwhile. Called on the
    /// speech thread; the helper is the speech thread's until `giveBack`.
    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer

    /// The speech thread is done with the helper for this utterance, after its terminal line; a
    /// helper that died is replaced (now, or at its next use).
    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger)
}

/// What `SpeechEngine.helper(for:on:logger:)` answers.
enum EngineHelperAnswer {
    /// The helper to speak with.
    case ready(EngineHelperProcess)
    /// The engine cannot speak with the voice; the message says why and what to do.
    case failed(String)
    /// The utterance was stopped while the engine loaded.
    case aborted
}
