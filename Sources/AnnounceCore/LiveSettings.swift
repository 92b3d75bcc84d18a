// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol
import Glibc
import POSIXThreads

/// One entry of the `clients` setting: a glob over a client's name and the settings its clients
/// speak with (speech-dispatcher's `BeginClient` … `EndClient` section). Every field but
/// ``match`` is optional; one left out is the defaults'.
public struct ClientSettingsEntry: Sendable, Hashable {
    /// The glob, matched against the whole name without regard to case: `*:Orca:*`, `atspi:*`,
    /// `mail`. `*` is any run of characters (colons too), `?` one character, `[...]` a class.
    public var match: String
    /// The voice its clients speak with.
    public var voice: String?
    /// Words per minute.
    public var rate: Int?
    /// Pitch.
    public var pitch: Int?
    /// Volume.
    public var volume: Int?
    /// Which punctuation is spoken.
    public var punctuation: Punctuation?
    /// The language of its posts that name no voice or language (the voice for it, by
    /// `voice_for_language`); with ``voice`` given too, the voice speaks.
    public var language: String?
    /// True: its clients' posts end `muted`, never spoken.
    public var mute: Bool?

    /// An entry for the clients `match` matches.
    public init(
        match: String, voice: String? = nil, rate: Int? = nil, pitch: Int? = nil, volume: Int? = nil,
        punctuation: Punctuation? = nil, language: String? = nil, mute: Bool? = nil
    ) {
        self.match = match
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.language = language
        self.mute = mute
    }

    /// Whether `name` (a client's whole name) matches ``match``, case-insensitively (glibc's
    /// `fnmatch` with `FNM_CASEFOLD`; speech-dispatcher matches case-sensitively).
    public func matches(_ name: String) -> Bool {
        fnmatch(match, name, Self.caseFold) == 0
    }

    /// glibc's `FNM_CASEFOLD` (`1 << 4` in `<fnmatch.h>`), a GNU extension Swift's Glibc module
    /// does not bring in.
    static let caseFold: Int32 = 1 << 4
}

/// What the daemon derives from its settings and every front door reads: the speech defaults,
/// the entries of `clients`, and the limits. One value, made once from the settings at start and
/// again at each reload (``SettingsFlow``); a reload applies exactly the keys it carries.
public struct LiveSettings: Sendable, Hashable {
    /// The default voice (`voice`).
    public var voice: String
    /// Which voice speaks a language (`voice_for_language`).
    public var voicePreferences: VoicePreferences
    /// The default rate (`rate`).
    public var rate: Int
    /// The default pitch (`pitch`).
    public var pitch: Int
    /// The default volume (`volume`).
    public var volume: Int
    /// The default punctuation (`punctuation`).
    public var punctuation: Punctuation
    /// The screen-change earcon (`earcons`).
    public var earcons: Bool
    /// What SSIP's `RATE 100` stands for, words per minute (`ssip_max_rate`).
    public var ssipMaxRate: Int
    /// The most announcements the history keeps (`history_size`); 0 keeps none.
    public var historySize: Int
    /// The history keeps SSIP messages too (`history_ssip`).
    public var historySSIP: Bool
    /// The settings per client (`clients`), first match wins.
    public var clients: [ClientSettingsEntry]
    /// The most Unicode scalars one post may speak (`max_text_chars`; read at start only).
    public var maxTextChars: Int
    /// The most posts, or Spiel streams, one client may have at once (`max_pending_per_client`;
    /// read at start only).
    public var maxPendingPerClient: Int

    /// The values of a daemon that read no settings: the protocol's defaults.
    public init(
        voice: String = "en-us", voicePreferences: VoicePreferences = VoicePreferences(), rate: Int = 175,
        pitch: Int = 50, volume: Int = 100, punctuation: Punctuation = .none, earcons: Bool = true,
        ssipMaxRate: Int = SpeechRanges.ssipMaxRate, historySize: Int = 50, historySSIP: Bool = false,
        clients: [ClientSettingsEntry] = [], maxTextChars: Int = DecodingLimits.protocolMaxTextChars,
        maxPendingPerClient: Int = 256
    ) {
        self.voice = voice
        self.voicePreferences = voicePreferences
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.earcons = earcons
        self.ssipMaxRate = ssipMaxRate
        self.historySize = historySize
        self.historySSIP = historySSIP
        self.clients = clients
        self.maxTextChars = maxTextChars
        self.maxPendingPerClient = maxPendingPerClient
    }

    /// The first `clients` entry whose pattern matches `name`, if any.
    public func entry(forClientNamed name: String) -> ClientSettingsEntry? {
        clients.first { $0.matches(name) }
    }

    /// The speech defaults a client named `name` speaks with: the first matching `clients`
    /// entry's fields over the defaults.
    public func speechDefaults(forClientNamed name: String) -> SpeechDefaults {
        var defaults = SpeechDefaults(
            voice: voice, rate: rate, pitch: pitch, volume: volume, punctuation: punctuation, ssipMaxRate: ssipMaxRate)
        if let entry = entry(forClientNamed: name) { defaults.overlay(entry) }
        return defaults
    }
}

extension LiveSettings {
    /// The voice of `voices` that a request naming no voice speaks with, for a client whose
    /// defaults are `defaults` (``speechDefaults(forClientNamed:)``): for a `clients` entry's
    /// language, the voice `voice_for_language` names or espeak-ng's for it; else the default voice,
    /// looked up as every door looks up a voice name (a name, a file name, a language, a title).
    /// Nil when none of `voices` is it.
    public func voice(for defaults: SpeechDefaults, among voices: [VoiceDescription]) -> VoiceDescription? {
        if let language = defaults.language,
            let voice = RunVoices(voices: voices, preferences: voicePreferences).voice(forLanguage: language)
        {
            return voice
        }
        return voices.first { $0.name == defaults.voice } ?? VoiceIndex(voices).voice(named: defaults.voice)
    }
}

extension SpeechDefaults {
    /// These defaults with the fields `entry` gives in their place.
    mutating func overlay(_ entry: ClientSettingsEntry) {
        if let voice = entry.voice { self.voice = voice }
        if let rate = entry.rate { self.rate = rate }
        if let pitch = entry.pitch { self.pitch = pitch }
        if let volume = entry.volume { self.volume = volume }
        if let punctuation = entry.punctuation { self.punctuation = punctuation }
        // A voice named too is the one that speaks: the language would choose another.
        if let language = entry.language, entry.voice == nil { self.language = language }
        if entry.mute == true { muted = true }
    }
}

/// The one place the daemon's ``LiveSettings`` live while it runs: the value now, read by every
/// front door where it needs it (a post, an SSIP message, a Spiel request), and the observers
/// told of each new value (the dispatcher's reload). Thread-safe; observers are called on the
/// publisher's thread, in the order they were added.
public final class SettingsFlow: Sendable {
    private let state: LockedValue<(current: LiveSettings, observers: [@Sendable (LiveSettings) -> Void])>

    /// A flow starting at `initial`.
    public init(_ initial: LiveSettings) {
        state = LockedValue((initial, []))
    }

    /// The settings now.
    public var current: LiveSettings { state.withLock { $0.current } }

    /// Calls `observer` with every value published from now on.
    public func observe(_ observer: @escaping @Sendable (LiveSettings) -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Makes `settings` the current value and tells the observers.
    public func publish(_ settings: LiveSettings) {
        let observers = state.withLock { state in
            state.current = settings
            return state.observers
        }
        for observer in observers { observer(settings) }
    }
}
