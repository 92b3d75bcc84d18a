/// A configuration key, as the file spells it (`audio.output` is `"audio": {"output": ...}`).
public enum SettingsKey: String, Sendable, Hashable, CaseIterable {
    /// `socket`.
    case socket
    /// `audio.output`.
    case audioOutput = "audio.output"
    /// `audio.device`.
    case audioDevice = "audio.device"
    /// `voice`.
    case voice
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

    /// The JSON type a value of this key has.
    enum Kind {
        case string, integer, boolean, integerArray
    }

    var kind: Kind {
        switch self {
        case .socket, .audioOutput, .audioDevice, .voice, .punctuation, .logLevel: return .string
        case .rate, .pitch, .volume, .maxLineBytes, .maxTextChars, .maxPendingPerClient, .maxOutboundBytes: return .integer
        case .earcons: return .boolean
        case .allowUIDs: return .integerArray
        }
    }

    /// The environment variable that sets this key: `ANNOUNCED_` and the key in upper case, with
    /// `audio.output` as `ANNOUNCED_AUDIO` and `audio.device` as `ANNOUNCED_AUDIO_DEVICE`.
    public var environmentVariable: String {
        "ANNOUNCED_" + environmentComponents.dropFirst().map { $0.uppercased() }.joined(separator: "_")
    }

    /// The key components the environment provider encodes into ``environmentVariable``.
    var environmentComponents: [String] {
        switch self {
        case .audioOutput: return ["announced", "audio"]
        default: return ["announced"] + rawValue.split(separator: ".").map(String.init)
        }
    }

    /// The command-line flag that sets this key, if there is one.
    public var flag: String? {
        switch self {
        case .socket: return "--socket"
        case .audioOutput: return "--audio"
        case .voice: return "--voice"
        case .rate: return "--rate"
        case .logLevel: return "--log-level"
        default: return nil
        }
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
