// SPDX-License-Identifier: GPL-3.0-or-later
/// What the daemon asks of a speech engine's helper process (`announced-espeak`, or
/// `announced-piper` for Piper voices), on the helper's standard input.
public enum HelperRequest: Equatable, Sendable {
    /// Speak one utterance. The helper answers `voiceSelected` (or `voiceUnknown`), then words,
    /// marks and samples as espeak-ng produces them, then `done`.
    case synthesize(SynthesisRequest)
    /// Stop the utterance being synthesized; the helper answers `done` soon after. Ignored
    /// between utterances (it may cross a `done` on the way).
    case abort
    /// `announced-piper` only: load the voice `voice` (the absolute path of its `.onnx`, its
    /// `.onnx.json` beside it) now, between utterances, so the first post that names it does not
    /// wait for the model. The helper answers `voicePrepared`.
    case prepare(voice: String)
}

/// One utterance for espeak-ng, with the parameters to speak it with.
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

    /// An espeak-ng voice name, e.g. `en-us`.
    public var voice: String
    /// Words per minute, 80...450.
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
    /// The text, as espeak-ng is to read it.
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

/// A voice the helper's espeak-ng offers.
public struct HelperVoice: Equatable, Sendable {
    /// Its file name without the folder, lower-cased, e.g. `en-us`.
    public var name: String
    /// Its full file name, which selects it, e.g. `gmw/en-US`.
    public var identifier: String
    /// Its languages, best first.
    public var languages: [String]
    /// espeak-ng's gender code: 0 unknown, 1 male, 2 female.
    public var gender: UInt8
    /// espeak-ng's title for it, e.g. `English (America)`.
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
public enum HelperMessage: Equatable, Sendable {
    /// espeak-ng is initialized: its sample rate and voices. The first message.
    case ready(sampleRate: Int32, voices: [HelperVoice])
    /// espeak-ng could not be initialized (its error code); the helper exits.
    case initializationFailed(code: Int32)
    /// The request's voice is selected; its audio follows.
    case voiceSelected
    /// espeak-ng has no voice by the request's name; `done` follows.
    case voiceUnknown
    /// Audio: 16-bit mono samples at the ready sample rate.
    case samples([Int16])
    /// A word starts at `sample` (counted from the utterance's first sample); `textPosition`
    /// and `length` are espeak-ng's, in characters, 1-based.
    case word(sample: UInt32, textPosition: Int32, length: Int32)
    /// An SSML mark is reached at `sample`.
    case mark(sample: UInt32, name: String)
    /// The utterance is over: `status` 0 when espeak-ng finished or was stopped by `abort`,
    /// else espeak-ng's error code.
    case done(status: Int32)
    /// `announced-piper` only: the answer to `prepare`: `status` 0 when the voice is loaded (or
    /// was already), else 1 with why in `message`.
    case voicePrepared(status: Int32, message: String)
    /// `announced-piper` only: the request's voice cannot be loaded (`message` says why, for the
    /// log); sent instead of `voiceSelected`, and `done` follows.
    case voiceFailed(message: String)
    /// The helper made a system call its sandbox refuses (its name, e.g. `socket`) and ends
    /// with SIGSYS right after this message. Written by the helper's SIGSYS handler, at any point.
    case sandboxViolation(systemCall: String)
}

extension FrameChannel {
    /// Answers a debug build's sandbox probe (EngineSandbox's `SandboxProbe`) as an utterance
    /// would end: `voiceSelected`, a mark named by the probe's answer, `done`. Both engine helpers
    /// answer their probes this way, so the tests read them alike.
    public func writeProbeAnswer(_ answer: String) {
        write(HelperMessage.voiceSelected.frame)
        write(HelperMessage.mark(sample: 0, name: answer).frame)
        write(HelperMessage.done(status: 0).frame)
    }
}
