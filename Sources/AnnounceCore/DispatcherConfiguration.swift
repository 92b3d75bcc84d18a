// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// The defaults and limits the dispatcher starts with.
public struct DispatcherConfiguration: Sendable, Hashable {
    /// The default voice's name (an espeak-ng or Piper voice).
    public var voice: String = "en-us"
    /// Which voice speaks a language when a post names only its `lang`.
    public var voicePreferences = VoicePreferences()
    /// The default rate, words per minute.
    public var rate: Int = 175
    /// What SSIP's `RATE 100` stands for, words per minute (`ssip_max_rate`).
    public var ssipMaxRate: Int = SpeechRanges.ssipMaxRate
    /// The default pitch.
    public var pitch: Int = 50
    /// The default volume.
    public var volume: Int = 100
    /// The default punctuation mode.
    public var punctuation: Punctuation = .none
    /// Play the earcon before `screen-changed` speech.
    public var earcons: Bool = true
    /// The most posts one connection may have pending or speaking.
    public var maxPendingPerClient: Int = 256
    /// The most Unicode scalars of text one post may speak.
    public var maxTextChars: Int = DecodingLimits.protocolMaxTextChars
    /// The most announcements the history keeps (`history_size`); 0 keeps none.
    public var historySize: Int = 50
    /// The history keeps SSIP messages too (`history_ssip`).
    public var historySSIP: Bool = false
    /// The daemon's version, reported by `hello` and `status`.
    public var version: String = "0.1.0"
    /// The settings per client (`clients`): the first entry a client's name matches.
    public var clientSettings: [ClientSettingsEntry] = []

    /// The defaults of the protocol.
    public init() {}

    /// The configuration `settings` give, with the daemon's `version`.
    public init(_ settings: LiveSettings, version: String) {
        self.version = version
        adopt(settings)
    }

    /// Takes every value `settings` carries.
    mutating func adopt(_ settings: LiveSettings) {
        voice = settings.voice
        voicePreferences = settings.voicePreferences
        rate = settings.rate
        pitch = settings.pitch
        volume = settings.volume
        punctuation = settings.punctuation
        earcons = settings.earcons
        ssipMaxRate = settings.ssipMaxRate
        historySize = settings.historySize
        historySSIP = settings.historySSIP
        clientSettings = settings.clients
        maxPendingPerClient = settings.maxPendingPerClient
        maxTextChars = settings.maxTextChars
    }
}

/// The speech defaults `set` may change, and whether speech is muted. A front-end whose
/// protocol sets voice parameters relative to the defaults (SSIP's -100...100) reads them here.
public struct SpeechDefaults: Sendable, Hashable {
    /// The default voice's name.
    public internal(set) var voice: String
    /// The default rate, words per minute.
    public internal(set) var rate: Int
    /// The default pitch.
    public internal(set) var pitch: Int
    /// The default volume.
    public internal(set) var volume: Int
    /// The default punctuation mode.
    public internal(set) var punctuation: Punctuation
    /// Speech is muted.
    public internal(set) var muted = false
    /// What SSIP's `RATE 100` stands for, words per minute (`ssip_max_rate`; a reload changes
    /// it, `set` does not).
    public internal(set) var ssipMaxRate: Int
    /// The language of posts that name no voice or language (a `clients` entry's), if any.
    public internal(set) var language: String?

    /// Creates defaults (speech on).
    public init(
        voice: String, rate: Int, pitch: Int, volume: Int, punctuation: Punctuation, muted: Bool = false,
        ssipMaxRate: Int = SpeechRanges.ssipMaxRate,
        language: String? = nil
    ) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.muted = muted
        self.ssipMaxRate = ssipMaxRate
        self.language = language
    }
}
