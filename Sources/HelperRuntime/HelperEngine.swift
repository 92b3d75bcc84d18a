// SPDX-License-Identifier: GPL-3.0-or-later
public import EngineWire

/// A speech engine as its helper process runs it: what differs between `announced-espeak` and
/// `announced-piper`. Everything they share (the frame loop, `abort`, the pause that is the pipe's
/// back-pressure, the sandbox probes, the sandbox's entry) is the ``HelperRuntime``'s.
///
/// The runtime makes the engine once, with itself to write to, then announces it (`ready`: its
/// ``sampleRate`` and ``voices``) and hands it one request at a time. Used on the helper's one
/// thread only.
public protocol HelperEngine: AnyObject {
    /// The sample rate of every `samples` message, in Hz.
    var sampleRate: Int32 { get }
    /// The voices the engine lists in `ready` (an engine whose voices are files lists none).
    var voices: [EngineVoice] { get }
    /// Selects `voice` for the utterance that follows (loading it first, if the engine loads voices).
    func selectVoice(_ voice: String) -> VoiceSelection
    /// Loads `voice` ahead of use, for `prepare`; nil when the engine loads nothing ahead (then
    /// `prepare` gets no answer).
    func prepare(voice: String) -> VoiceSelection?
    /// Speaks `utterance` with the selected voice: writes its words, marks and samples through the
    /// runtime (``HelperRuntime/send(_:)``, ``HelperRuntime/send(samples:)``), asking
    /// ``HelperRuntime/shouldStop()`` as often as it can stop. Returns `done`'s status: 0 when it
    /// spoke (or was stopped), else the engine's error code.
    func speak(_ utterance: SynthesisRequest) -> Int32
}

extension HelperEngine {
    /// Loads nothing ahead.
    public func prepare(voice: String) -> VoiceSelection? { nil }
}

/// What selecting a voice came to.
public enum VoiceSelection: Equatable, Sendable {
    /// The voice speaks the utterance (`voiceSelected`).
    case selected
    /// The engine has no voice by that name (`voiceUnknown`).
    case unknown
    /// The voice cannot be loaded; the message says why, for the log (`voiceFailed`).
    case failed(String)
}
