// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// Everything the daemon reads from its flags, `ANNOUNCED_*` environment variables and its
/// configuration file, with the defaults that apply when none of them sets a key.
///
/// The keys, as the file spells them, are listed in ``SettingsKey``; `Config/announced.json`
/// shows each with its default.
public struct DaemonSettings: Sendable, Hashable {
    /// `socket`: the Unix socket to serve; nil means the protocol's fallbacks
    /// (`ANNOUNCED_SOCKET`, `$XDG_RUNTIME_DIR/announced/announced.sock`, `/tmp/announced-<uid>/`).
    public var socket: String?
    /// `ssip_socket`: whether and where speech-dispatcher's protocol (SSIP) is served.
    public var ssipSocket: SSIPSocketSetting = .off
    /// `audio.output`: `auto`, `pulse`, `alsa`, `null` or `wav:DIR`.
    public var audioOutput: AudioOutputSetting = .auto
    /// `audio.device`: the PulseAudio sink or ALSA device to play on; nil means the output's default.
    public var audioDevice: String?
    /// `voice`: the default voice (espeak-ng's or an installed Piper voice's name).
    public var voice = "en-us"
    /// `voice_for_language`: which voice speaks a language when a post names only its `lang`,
    /// as language tag → voice name, in the order given.
    public var voiceForLanguage: [LanguageVoice] = []
    /// `rate`: the default rate, words per minute (80-450).
    public var rate = 175
    /// `pitch`: the default pitch (0-100).
    public var pitch = 50
    /// `volume`: the default volume (0-200).
    public var volume = 100
    /// `punctuation`: which punctuation is spoken by default.
    public var punctuation: Punctuation = .none
    /// `earcons`: play the screen-change earcon before `screen-changed` speech.
    public var earcons = true
    /// `duck`: whether, and by how much, other applications' playback is lowered while announced speaks.
    public var duck: DuckSetting = .off
    /// `max_line_bytes`: the longest request line, in bytes.
    public var maxLineBytes = LineSplitter.protocolMaxLineBytes
    /// `max_text_chars`: the most Unicode scalars one post may speak.
    public var maxTextChars = DecodingLimits.protocolMaxTextChars
    /// `max_pending_per_client`: the most posts one connection may have pending or speaking.
    public var maxPendingPerClient = 256
    /// `max_outbound_bytes`: the most unread bytes a client may leave before it is disconnected.
    public var maxOutboundBytes = 1_048_576
    /// `allow_uids`: users besides the daemon's own who may connect.
    public var allowUIDs: [UInt32] = []
    /// `log_level`: the least severe log messages written.
    public var logLevel: LogLevel = .info
    /// `engine_idle_unload`: seconds an engine that loads its voices (Piper) may go unused before
    /// its helper is stopped and its model unloaded.
    public var engineIdleUnload = 300
    /// `piper_threads`: the threads ONNX Runtime runs one Piper synthesis on (the daemon uses at
    /// most as many as the machine has cores).
    public var piperThreads = DaemonSettings.defaultPiperThreads

    /// `piper_threads`' default: 2 (the daemon takes at most the machine's cores). On this 2-core
    /// machine, otherwise idle, two threads were heard in about half the time of one (a short
    /// post p50 82-85 ms against 168); while other programs keep both cores busy one thread is
    /// the steadier (Benchmarks/README.md, figures 13 and 14).
    public static let defaultPiperThreads = 2

    /// The defaults.
    public init() {}
}

/// One entry of `voice_for_language`: a language tag and the voice that speaks it.
public struct LanguageVoice: Sendable, Hashable {
    /// The language tag as written, e.g. `en` or `pt_BR`.
    public var language: String
    /// The voice's name, e.g. `en_us-joe-medium`.
    public var voice: String

    /// Creates an entry.
    public init(language: String, voice: String) {
        self.language = language
        self.voice = voice
    }
}

/// Where the daemon's audio goes.
public enum AudioOutputSetting: Sendable, Hashable, CustomStringConvertible {
    /// PulseAudio if a server answers, else ALSA, else `null`.
    case auto
    /// PulseAudio (or PipeWire's PulseAudio server).
    case pulse
    /// ALSA.
    case alsa
    /// Nowhere, in real time.
    case null
    /// Nowhere, in real time, and each post's audio written to `DIR/<seq>.wav`.
    case wav(directory: String)

    /// Parses `auto`, `pulse`, `alsa`, `null` or `wav:DIR`; nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "auto": self = .auto
        case "pulse": self = .pulse
        case "alsa": self = .alsa
        case "null": self = .null
        default:
            guard text.hasPrefix("wav:"), text.count > 4 else { return nil }
            self = .wav(directory: String(text.dropFirst(4)))
        }
    }

    /// The setting as written: `auto`, `pulse`, `alsa`, `null` or `wav:DIR`.
    public var description: String {
        switch self {
        case .auto: return "auto"
        case .pulse: return "pulse"
        case .alsa: return "alsa"
        case .null: return "null"
        case .wav(let directory): return "wav:\(directory)"
        }
    }
}

/// Where the daemon serves speech-dispatcher's protocol (SSIP), as `ssip_socket` says.
public enum SSIPSocketSetting: Sendable, Hashable, CustomStringConvertible {
    /// Not served (the default).
    case off
    /// speech-dispatcher's own place, where its clients look first:
    /// ``SocketLocation/speechDispatcherDefault(environment:)``.
    case `default`
    /// The socket at this absolute path.
    case path(String)

    /// Parses `off`, `default` or an absolute path; nil for anything else.
    public init?(_ text: String) {
        switch text {
        case "off": self = .off
        case "default": self = .default
        default:
            guard text.hasPrefix("/") else { return nil }
            self = .path(text)
        }
    }

    /// The setting as written: `off`, `default` or the path.
    public var description: String {
        switch self {
        case .off: return "off"
        case .default: return "default"
        case .path(let path): return path
        }
    }

    /// The socket to serve for `environment` (`XDG_RUNTIME_DIR`, `XDG_CACHE_HOME`, `HOME`), or
    /// nil when SSIP is off. `default` is a default location, whose directory must be the user's
    /// own with mode 0700; a path someone named is theirs to choose, as for `socket`.
    public func location(environment: [String: String]) -> SocketLocation? {
        switch self {
        case .off: return nil
        case .default: return SocketLocation.speechDispatcherDefault(environment: environment)
        case .path(let path): return SocketLocation(path: path, isDefault: false)
        }
    }
}

/// The daemon's log levels, least to most severe (swift-log's names).
public enum LogLevel: String, Sendable, Hashable, CaseIterable {
    /// Everything.
    case trace
    /// Diagnostics.
    case debug
    /// Normal operation (the default).
    case info
    /// Notable events.
    case notice
    /// Problems the daemon works around.
    case warning
    /// Failures.
    case error
    /// Failures that stop the daemon.
    case critical
}

extension DaemonSettings {
    /// The settings a `SIGHUP` reload may change without a restart: the speech defaults, the
    /// language preferences and the earcon switch.
    public struct Reloadable: Sendable, Hashable {
        /// `voice`.
        public var voice: String
        /// `rate`.
        public var rate: Int
        /// `pitch`.
        public var pitch: Int
        /// `volume`.
        public var volume: Int
        /// `punctuation`.
        public var punctuation: Punctuation
        /// `earcons`.
        public var earcons: Bool
        /// `voice_for_language`.
        public var voiceForLanguage: [LanguageVoice]
    }

    /// The part of these settings a reload applies.
    public var reloadable: Reloadable {
        get {
            Reloadable(
                voice: voice, rate: rate, pitch: pitch, volume: volume, punctuation: punctuation, earcons: earcons,
                voiceForLanguage: voiceForLanguage
            )
        }
        set {
            voice = newValue.voice
            rate = newValue.rate
            pitch = newValue.pitch
            volume = newValue.volume
            punctuation = newValue.punctuation
            earcons = newValue.earcons
            voiceForLanguage = newValue.voiceForLanguage
        }
    }
}
