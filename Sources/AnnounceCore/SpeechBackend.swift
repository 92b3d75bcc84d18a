// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// How an utterance's punctuation is spoken: the wire's `punctuation` option.
public typealias PunctuationMode = Punctuation

/// One piece of speech, ready for the synthesizer: everything the dispatcher decided is in here.
public struct Utterance: Sendable, Hashable {
    /// The daemon-wide sequence number of the post this utterance speaks.
    public var seq: UInt64
    /// Exactly the text handed to the synthesizer (SSML when `ssml` is true).
    public var text: String
    /// `text` is SSML.
    public var ssml: Bool
    /// What the synthesizer selects the voice with: a voice's ``VoiceDescription/identifier``
    /// (e.g. `gmw/en-US`), with a `+variant` suffix when one was asked for.
    public var voice: String
    /// Words per minute, within `SpeechRanges.rate`.
    public var rate: Int
    /// Pitch, 0...100.
    public var pitch: Int
    /// Volume, 0...200 (100 is normal).
    public var volume: Int
    /// How punctuation is spoken.
    public var punctuation: PunctuationMode
    /// Speak the text character by character.
    public var spell: Bool
    /// Play an earcon before the speech.
    public var earcon: Bool
    /// Which earcon `earcon` plays.
    public var earconSound: EarconSound

    /// Creates an utterance.
    public init(
        seq: UInt64, text: String, ssml: Bool = false, voice: String, rate: Int = 175,
        pitch: Int = 50, volume: Int = 100, punctuation: PunctuationMode = .none, spell: Bool = false,
        earcon: Bool = false, earconSound: EarconSound = .screenChange
    ) {
        self.seq = seq
        self.text = text
        self.ssml = ssml
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.spell = spell
        self.earcon = earcon
        self.earconSound = earconSound
    }
}

/// The short sounds an utterance may start with.
public enum EarconSound: Sendable, Hashable {
    /// A new screen (`screen-changed`): two rising tones.
    case screenChange
    /// Navigation hit the first or last stop (`end-of-screen`): one low tone.
    case boundary
}

/// How the backend ended an utterance.
public enum SpeechOutcome: Sendable, Hashable {
    /// Every sample was played.
    case completed
    /// Stopped early by `abort`; `spokenChars` counts the Unicode scalars of `text` already played.
    case aborted(spokenChars: Int)
    /// Synthesis or the audio output failed; `spokenChars` as for `aborted`.
    case failed(message: String, spokenChars: Int)
}

/// What a speech backend reports about an utterance, in this order: `started`, any `run`, `word`
/// and `mark`, then exactly one `finished`. An utterance aborted before its audio began reports
/// `finished` without `started`.
public enum SpeechBackendEvent: Sendable, Hashable {
    /// The first audio of the utterance reached the audio output.
    case started(seq: UInt64)
    /// Playback reached a language run of the utterance; its range is in Unicode scalars of the
    /// utterance's text.
    case run(seq: UInt64, SpeechRun)
    /// Playback reached a word; `offset` and `length` are in Unicode scalars of the text.
    case word(seq: UInt64, offset: Int, length: Int)
    /// Playback reached an SSML `<mark name="..."/>`.
    case mark(seq: UInt64, name: String)
    /// The utterance ended.
    case finished(seq: UInt64, outcome: SpeechOutcome)
}

/// The synthesizer and audio output behind the dispatcher. The dispatcher hands it one
/// utterance at a time and waits for `finished` before handing the next.
///
/// Implementations must not block the caller: `speak` and `abort` are called on the main actor.
/// Events are delivered through the handler given to the backend, on any thread, in order.
public protocol SpeechBackend: AnyObject, Sendable {
    /// Starts speaking `utterance` as soon as possible.
    func speak(_ utterance: Utterance)
    /// Stops the utterance `seq` as soon as possible, discarding audio not yet played. Does
    /// nothing if that utterance already finished.
    func abort(seq: UInt64)
    /// Holds the audio output where it is, at once: the utterance speaking (if any) writes
    /// nothing more and keeps its place, and no utterance begins playing until `resume`. An
    /// `abort` still ends an utterance while paused.
    func pause()
    /// Continues after `pause` from the next unplayed sample.
    func resume()
    /// A short description of the audio output in use, e.g. `null`, `wav:/tmp/out`, `pulse`.
    var outputDescription: String { get }
    /// The voices this backend can speak with.
    var voices: [VoiceDescription] { get }
    /// The name of the engine that speaks the voice `identifier` (`espeak-ng`, `piper`), shown by
    /// the monitor; nil when the backend does not say.
    func engineName(forVoice identifier: String) -> String?
    /// The name of the engine that speaks `utterance` (a backend may give an utterance that asks
    /// for what its voice's engine cannot do to another engine); shown by the monitor.
    func engineName(for utterance: Utterance) -> String?
    /// Gets the voice `identifier` ready in the background, when its engine loads voices, so that
    /// its first post does not wait for the load; returns at once.
    func prepare(voice identifier: String)
    /// The voices as they are now: a backend whose voices are files a user installs while the
    /// daemon runs (Piper voices) returns its catalog's latest here, which is kept up to date off
    /// the main queue; it must not scan here, on the caller's queue. The dispatcher calls it when
    /// `voices` is asked and when a post, `set` or a reload names a voice it does not know. The
    /// default returns ``voices``.
    func rescanVoices() -> [VoiceDescription]
    /// Calls `current`, on any thread, once ``rescanVoices()`` reflects every voice installed or
    /// removed before this call (a catalog still settling a change scans it first); returns at
    /// once. The default calls `current` at once.
    func whenVoicesCurrent(_ current: @escaping @Sendable () -> Void)
}

extension SpeechBackend {
    /// Says nothing (a backend of one engine).
    public func engineName(forVoice identifier: String) -> String? { nil }
    /// The engine of the utterance's voice: ``engineName(forVoice:)``.
    public func engineName(for utterance: Utterance) -> String? { engineName(forVoice: utterance.voice) }
    /// Nothing to prepare (an engine whose voices need no loading).
    public func prepare(voice identifier: String) {}
    /// ``voices``: a backend whose voices never change has nothing to look for again.
    public func rescanVoices() -> [VoiceDescription] { voices }
    /// At once: a backend whose voices never change is always current.
    public func whenVoicesCurrent(_ current: @escaping @Sendable () -> Void) { current() }
}

/// A voice the backend offers.
public struct VoiceDescription: Sendable, Hashable {
    /// The name to select it with: espeak-ng's file name without its folder, lower-cased, e.g.
    /// `en-us`, `en` (British English), `fr` (French as spoken in France).
    public var name: String
    /// What the synthesizer is given to select it: espeak-ng's full file name, e.g. `gmw/en`.
    public var identifier: String
    /// The languages it speaks, lower-case BCP 47 tags, best first, e.g. `["en-us", "en"]`.
    public var languages: [String]
    /// `male` or `female`, when the synthesizer says.
    public var gender: String?
    /// The synthesizer's own title for it, e.g. `English (Great Britain)`, when it has one.
    public var title: String?
    /// The engine that speaks it: `espeak-ng`, or `piper` for a Piper voice (a `.onnx` model
    /// with its `.onnx.json`, whose ``identifier`` is the model's absolute path).
    public var engine: String
    /// How good the voice's model is, as its maker rates it (Piper's `x_low`, `low`, `medium`,
    /// `high`), when known.
    public var quality: String?
    /// What its engine does beyond speaking it (variants, the language fallback): the daemon asks
    /// this, never the engine's name.
    public var capabilities: EngineCapabilities

    /// Creates a voice description; `identifier` defaults to `name`. By default it is an
    /// espeak-ng voice, with espeak-ng's capabilities (variants, the language fallback); a voice
    /// of another engine names its engine and that engine's capabilities.
    public init(
        name: String, identifier: String? = nil, languages: [String], gender: String? = nil, title: String? = nil,
        engine: String = "espeak-ng", quality: String? = nil,
        capabilities: EngineCapabilities = EngineCapabilities(voiceVariants: true, languageFallback: true)
    ) {
        self.name = name
        self.identifier = identifier ?? name
        self.languages = languages
        self.gender = gender
        self.title = title
        self.engine = engine
        self.quality = quality
        self.capabilities = capabilities
    }
}

/// What an engine does beyond speaking its voices, which the daemon asks of a voice
/// (``VoiceDescription/capabilities``) instead of testing its engine's name. Each engine says
/// its own (in its engine type); its SSIP output module is named as the engine is
/// (``VoiceDescription/engine``).
public struct EngineCapabilities: Sendable, Hashable {
    /// Its voices take a `+variant` suffix (`en-us+f3`, SSIP's `VOICE_TYPE`); another engine's
    /// voice asked for with one is spoken as it is.
    public var voiceVariants: Bool
    /// Its voices speak a language run of a post that no `voice_for_language` voice speaks
    /// (`RunVoices`), and it is the output module an SSIP connection has before it sets one.
    public var languageFallback: Bool

    /// Capabilities; by default none (a voice spoken as it is, never a fallback).
    public init(voiceVariants: Bool = false, languageFallback: Bool = false) {
        self.voiceVariants = voiceVariants
        self.languageFallback = languageFallback
    }
}

extension VoiceDescription {
    /// The voice as one entry of the `voices` answer: `name`, `language` (its best), `languages`,
    /// `file`, `gender` and `title` when known, `engine`, and `quality` when known.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        object.append("name", .string(name))
        object.append("language", .string(languages.first ?? name))
        object.append("languages", .array(languages.map(JSONValue.string)))
        object.append("file", .string(identifier))
        if let gender { object.append("gender", .string(gender)) }
        if let title { object.append("title", .string(title)) }
        object.append("engine", .string(engine))
        if let quality { object.append("quality", .string(quality)) }
        return object
    }
}
