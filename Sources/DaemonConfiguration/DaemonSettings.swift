// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// Everything the daemon reads from its flags, `ANNOUNCED_*` environment variables and its
/// configuration file, with the defaults that apply when none of them sets a key.
///
/// Each key is read as a property named like its ``SettingsTable`` entry, typed by it:
/// `settings.rate` is an `Int`, `settings.audioOutput` an ``AudioOutputSetting``. A new value has
/// passed its key's checks, so what is read is always one the key accepts.
@dynamicMemberLookup
public struct DaemonSettings: Sendable, Hashable {
    /// Each key's value, by key; every key of the table is here.
    private var values: [String: SettingBox]

    /// Every key at its default.
    public init() {
        values = Dictionary(uniqueKeysWithValues: SettingsTable.entries.map { ($0.key, $0.boxedDefault) })
    }

    /// The value of the key `entry` names, e.g. `settings.rate`.
    public subscript<Value>(dynamicMember entry: KeyPath<SettingsTable, Setting<Value>>) -> Value {
        get { self[SettingsTable.shared[keyPath: entry]] }
        set { self[SettingsTable.shared[keyPath: entry]] = newValue }
    }

    /// The value of `setting`.
    public subscript<Value>(setting: Setting<Value>) -> Value {
        get { values[setting.key]?.value as? Value ?? setting.defaultValue }
        set { values[setting.key] = SettingBox(newValue) }
    }

    /// Sets a key to a value its entry parsed.
    mutating func set(_ key: String, to value: SettingBox) {
        values[key] = value
    }

    /// The keys whose values differ in `other`, in table order.
    public func keysDiffering(from other: DaemonSettings) -> [any AnySetting] {
        SettingsTable.entries.filter { values[$0.key] != other.values[$0.key] }
    }

    /// What a reload from `old` to these settings cannot apply, for the log: `the changes to
    /// log_level and duck take effect when announced restarts (...)`; nil when a reload applies
    /// every change.
    public func restartNotice(since old: DaemonSettings) -> String? {
        let keys = keysDiffering(from: old).filter { $0.reload == .needsRestart }.map(\.key)
        guard let last = keys.last else { return nil }
        let names = keys.count == 1 ? last : keys.dropLast().joined(separator: ", ") + " and " + last
        return
            "the change\(keys.count == 1 ? "" : "s") to \(names) take\(keys.count == 1 ? "s" : "") effect when announced restarts "
            + "(systemctl --user restart announced)"
    }
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

    /// `voice_for_language`'s type: an object of language tag → voice name in the file,
    /// `lang=voice` pairs separated by commas in the variable.
    static let settingType = SettingType<[LanguageVoice]>(
        summary: "object of language tag → voice name",
        requirement:
            "must be an object of language tags and voice names such as {\"en\": \"en_us-joe-medium\", \"de\": \"de\"} "
            + "(ANNOUNCED_VOICE_FOR_LANGUAGE=en=en_us-joe-medium,de=de)",
        fromText: { text in
            var entries: [LanguageVoice] = []
            for part in text.split(separator: ",") where !part.trimmingWhitespace.isEmpty {
                guard let entry = LanguageVoice(pair: String(part.trimmingWhitespace)) else { return nil }
                entries.append(entry)
            }
            return entries
        },
        fromJSON: { json in
            guard let object = json.objectValue else { return nil }
            let entries = object.members.compactMap { member in
                member.value.stringValue.flatMap { LanguageVoice(member.key, $0) }
            }
            return entries.count == object.members.count ? entries : nil
        },
        toJSON: { .object(JSONObject($0.map { (key: $0.language, value: .string($0.voice)) })) })

    /// `lang=voice` split, when the language is a plausible BCP 47 tag and the voice is not empty.
    init?(pair text: String) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else { return nil }
        self.init(parts[0], parts[1])
    }

    /// An entry, when `language` is a plausible BCP 47 tag and `voice` is not empty.
    init?(_ language: String, _ voice: String) {
        guard RequestLine.isPlausibleLanguageTag(String(language.map { $0 == "_" ? "-" : $0 })), !voice.isEmpty else {
            return nil
        }
        self.init(language: language, voice: voice)
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
