// SPDX-License-Identifier: GPL-3.0-or-later
/// What the daemon asks of a speech engine's helper process (`announced-espeak`,
/// `announced-piper`, ...), on the helper's standard input.
public enum EngineRequest: Equatable, Sendable {
    /// Speak one utterance. The helper answers `voiceSelected` (or `voiceUnknown`, or
    /// `voiceFailed`), then words, marks and samples as its engine produces them, then `done`.
    case synthesize(SynthesisRequest)
    /// Stop the utterance being synthesized; the helper answers `done` soon after. Ignored
    /// between utterances (it may cross a `done` on the way).
    case abort
    /// For an engine that loads its voices (Piper's: the absolute path of a `.onnx`, its
    /// `.onnx.json` beside it): load the voice `voice` now, between utterances, so the first post
    /// that names it does not wait for the model. The helper answers `voicePrepared`; a helper
    /// whose engine loads nothing ahead does not answer.
    case prepare(voice: String)
}

/// One utterance for a helper's engine, with the parameters to speak it with.
public struct SynthesisRequest: Equatable, Sendable {
    /// How punctuation is spoken.
    public enum Punctuation: UInt8, Sendable {
        /// Not spoken: heard as pauses.
        case none = 0
        /// Every mark spoken.
        case all = 1
        /// The marks in `punctuationList` spoken.
        case some = 2
    }

    /// The voice's identifier for its engine, e.g. espeak-ng's `gmw/en-US`, a Piper voice's `.onnx` path.
    public var voice: String
    /// Words per minute, within the daemon's `SpeechRanges.rate` (the daemon clamps it).
    public var rate: Int32
    /// 0...100.
    public var pitch: Int32
    /// 0...200.
    public var volume: Int32
    /// How punctuation is spoken.
    public var punctuation: Punctuation
    /// The marks spoken in `some` mode.
    public var punctuationList: String
    /// Whether `text` is SSML.
    public var ssml: Bool
    /// The text, as the engine is to read it.
    public var text: String

    /// Creates a request.
    public init(
        voice: String, rate: Int32, pitch: Int32, volume: Int32, punctuation: Punctuation,
        punctuationList: String, ssml: Bool, text: String
    ) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.punctuationList = punctuationList
        self.ssml = ssml
        self.text = text
    }
}

/// A voice a helper's engine offers (in its `ready`).
public struct EngineVoice: Equatable, Sendable {
    /// Its file name without the folder, lower-cased, e.g. `en-us`.
    public var name: String
    /// Its full file name, which selects it, e.g. `gmw/en-US`.
    public var identifier: String
    /// Its languages, best first.
    public var languages: [String]
    /// The gender code (espeak-ng's): 0 unknown, 1 male, 2 female.
    public var gender: UInt8
    /// The engine's title for it, e.g. espeak-ng's `English (America)`.
    public var title: String

    /// Creates a voice entry; `identifier` defaults to `name`.
    public init(name: String, identifier: String? = nil, languages: [String], gender: UInt8 = 0, title: String = "") {
        self.name = name
        self.identifier = identifier ?? name
        self.languages = languages
        self.gender = gender
        self.title = title
    }
}

/// What the helper tells the daemon, on the helper's standard output.
public enum EngineMessage: Equatable, Sendable {
    /// The engine is initialized: its sample rate and the voices it lists. The first message.
    case ready(sampleRate: Int32, voices: [EngineVoice])
    /// The engine could not be initialized (its error code); the helper exits.
    case initializationFailed(code: Int32)
    /// The request's voice is selected; its audio follows.
    case voiceSelected
    /// The engine has no voice by the request's name; `done` follows.
    case voiceUnknown
    /// Audio: 16-bit mono samples at the ready sample rate.
    case samples([Int16])
    /// A word starts at `sample` (counted from the utterance's first sample); `textPosition`
    /// and `length` are in characters of the text sent (scalars), 1-based, as espeak-ng counts.
    case word(sample: UInt32, textPosition: Int32, length: Int32)
    /// An SSML mark is reached at `sample`.
    case mark(sample: UInt32, name: String)
    /// The utterance is over: `status` 0 when the engine finished or was stopped by `abort`,
    /// else the engine's error code.
    case done(status: Int32)
    /// The answer to `prepare`: `status` 0 when the voice is loaded (or
    /// was already), else 1 with why in `message`.
    case voicePrepared(status: Int32, message: String)
    /// An engine that loads its voices: the request's voice cannot be loaded (`message` says why, for the
    /// log); sent instead of `voiceSelected`, and `done` follows.
    case voiceFailed(message: String)
    /// The helper made a system call its sandbox refuses (its name, e.g. `socket`) and ends
    /// with SIGSYS right after this message. Written by the helper's SIGSYS handler, at any point.
    case sandboxViolation(systemCall: String)
}
