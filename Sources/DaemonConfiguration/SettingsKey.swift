// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// A configuration key, as the file spells it (`audio.output` is `"audio": {"output": ...}`).
public enum SettingsKey: String, Sendable, Hashable, CaseIterable {
    /// `socket`.
    case socket
    /// `ssip_socket`.
    case ssipSocket = "ssip_socket"
    /// `audio.output`.
    case audioOutput = "audio.output"
    /// `audio.device`.
    case audioDevice = "audio.device"
    /// `voice`.
    case voice
    /// `voice_for_language`: `{"en": "en_us-joe-medium"}`.
    case voiceForLanguage = "voice_for_language"
    /// `rate`.
    case rate
    /// `pitch`.
    case pitch
    /// `volume`.
    case volume
    /// `punctuation`.
    case punctuation
    /// `earcons`.
    case earcons
    /// `duck`.
    case duck
    /// `max_line_bytes`.
    case maxLineBytes = "max_line_bytes"
    /// `max_text_chars`.
    case maxTextChars = "max_text_chars"
    /// `max_pending_per_client`.
    case maxPendingPerClient = "max_pending_per_client"
    /// `max_outbound_bytes`.
    case maxOutboundBytes = "max_outbound_bytes"
    /// `allow_uids`.
    case allowUIDs = "allow_uids"
    /// `log_level`.
    case logLevel = "log_level"
    /// `engine_idle_unload`.
    case engineIdleUnload = "engine_idle_unload"
    /// `piper_threads`.
    case piperThreads = "piper_threads"

    /// The type a value of this key has.
    var type: SettingType {
        switch self {
        case .socket, .ssipSocket, .audioOutput, .audioDevice, .voice, .punctuation, .logLevel, .duck: return .string
        case .rate, .pitch, .volume, .maxLineBytes, .maxTextChars, .maxPendingPerClient, .maxOutboundBytes, .engineIdleUnload, .piperThreads: return .int
        case .earcons: return .bool
        case .allowUIDs: return .intArray
        case .voiceForLanguage: return .stringArray
        }
    }

    /// The whole numbers a value of this key (or of each of its elements) may be.
    private var range: ClosedRange<Int> {
        switch self {
        case .rate: return SpeechRanges.rate
        case .pitch: return SpeechRanges.pitch
        case .volume: return SpeechRanges.volume
        case .allowUIDs: return 0...Int(UInt32.max - 1)
        default: return 1...Int(Int32.max)
        }
    }

    /// What a value of this key must be, as an error message says it: `must be a whole number
    /// from 80 to 450`.
    public var requirement: String {
        switch self {
        case .socket: return "must be the path of a Unix socket, not empty"
        case .ssipSocket:
            return "must be off, default (speech-dispatcher's place, $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock) or the absolute path of a Unix socket"
        case .audioOutput: return "must be auto, pulse, alsa, null or wav:DIR"
        case .audioDevice: return "must not be empty (leave it out, or null, for the output's default device)"
        case .voice: return "must be a voice name such as en-us or en_us-joe-medium (announcectl voices lists them)"
        case .voiceForLanguage:
            return "must be an object of language tags and voice names such as {\"en\": \"en_us-joe-medium\", \"de\": \"de\"} (ANNOUNCED_VOICE_FOR_LANGUAGE=en=en_us-joe-medium,de=de)"
        case .punctuation: return "must be one of \(Punctuation.allCases.map(\.rawValue).joined(separator: ", "))"
        case .logLevel: return "must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", "))"
        case .earcons: return "must be true or false"
        case .duck: return DuckSetting.requirement
        case .allowUIDs: return "must be a list of user ids (numbers from 0 to 4294967294) such as [1001, 1002]"
        case .rate, .pitch, .volume, .maxLineBytes, .maxTextChars, .maxPendingPerClient, .maxOutboundBytes, .engineIdleUnload, .piperThreads:
            if range.upperBound == Int(Int32.max) { return "must be a whole number greater than 0" }
            return "must be a whole number from \(range.lowerBound) to \(range.upperBound)"
        }
    }

    /// Whether `value` is a value this key accepts: of its type, in its range, one of its words.
    func accepts(_ value: SettingValue) -> Bool {
        switch value {
        case .string(let text):
            switch self {
            case .audioOutput: return AudioOutputSetting(text) != nil
            case .ssipSocket: return SSIPSocketSetting(text) != nil
            case .punctuation: return Punctuation(rawValue: text) != nil
            case .logLevel: return LogLevel(rawValue: text) != nil
            case .duck: return DuckSetting(text) != nil
            case .socket, .audioDevice, .voice: return !text.isEmpty
            default: return false
            }
        case .int(let number): return type == .int && range.contains(number)
        case .bool: return type == .bool
        case .intArray(let numbers): return type == .intArray && numbers.allSatisfy(range.contains)
        case .stringArray(let pairs): return self == .voiceForLanguage && pairs.allSatisfy { Self.languageVoicePair($0) != nil }
        }
    }

    /// The environment variable that sets this key: `ANNOUNCED_` and the key in upper case, with
    /// `audio.output` as `ANNOUNCED_AUDIO` and `audio.device` as `ANNOUNCED_AUDIO_DEVICE`.
    public var environmentVariable: String {
        let words = self == .audioOutput ? ["audio"] : rawValue.split(separator: ".").map(String.init)
        return "ANNOUNCED_" + words.map { $0.uppercased() }.joined(separator: "_")
    }

    /// The command-line flag that sets this key, if there is one.
    public var flag: String? {
        switch self {
        case .socket: return "--socket"
        case .ssipSocket: return "--ssip-socket"
        case .audioOutput: return "--audio"
        case .voice: return "--voice"
        case .rate: return "--rate"
        case .pitch: return "--pitch"
        case .volume: return "--volume"
        case .punctuation: return "--punctuation"
        case .logLevel: return "--log-level"
        case .duck: return "--duck"
        default: return nil
        }
    }

    /// `lang=voice` (how `voice_for_language` travels through the layers) split, when the
    /// language is a plausible BCP 47 tag and the voice is not empty.
    static func languageVoicePair(_ text: String) -> (language: String, voice: String)? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, RequestLine.isPlausibleLanguageTag(String(parts[0].map { $0 == "_" ? "-" : $0 })), !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1])
    }

    /// The top-level keys of the file (`audio` holds `output` and `device`).
    static let fileTopLevelKeys: [String] = {
        var keys: [String] = []
        for key in allCases {
            let top = String(key.rawValue.split(separator: ".")[0])
            if !keys.contains(top) { keys.append(top) }
        }
        return keys
    }()
}
