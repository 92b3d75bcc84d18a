// SPDX-License-Identifier: Apache-2.0
/// How an announcement the history keeps ended: its `success`, `reason` and `spoken_chars`.
public enum HistoryEnding: Sendable, Hashable {
    /// Spoken to the end; `spokenChars` is its whole text's length.
    case spoken(spokenChars: Int)
    /// Ended early, after `spokenChars` characters were heard, with the terminal line's reason
    /// (`interrupted`, `cancelled`, `muted`, `shutdown`, `error` with its `message`).
    case ended(FinishReason, spokenChars: Int, message: String? = nil)
    /// Never queued: its reason is the `dropped` line's (`off-main`, `queue-full`).
    case dropped(DropReason)

    /// The ending of a post that was queued and ended with `termination`; `length` is its text's
    /// length in Unicode scalars.
    public init(_ termination: Termination, length: Int) {
        switch termination {
        case .success: self = .spoken(spokenChars: length)
        case .failure(let reason, let spokenChars, let message):
            self = .ended(reason, spokenChars: spokenChars, message: message)
        }
    }

    /// True when spoken to the end.
    public var success: Bool {
        if case .spoken = self { return true }
        return false
    }

    /// The `reason` word, the same as the terminal line's (for a post never queued, the `dropped`
    /// line's `off-main` or `queue-full`); nil when spoken to the end.
    public var reason: String? {
        switch self {
        case .spoken: return nil
        case .ended(let reason, _, _): return reason.rawValue
        case .dropped(let reason): return reason.rawValue
        }
    }

    /// How many characters of the text were heard.
    public var spokenChars: Int {
        switch self {
        case .spoken(let count), .ended(_, let count, _): return count
        case .dropped: return 0
        }
    }
}

/// One announcement the daemon's history keeps (`history` answers, `history` events): when it
/// ended, whose it was, what it said, in which voice, and how it ended.
public struct HistoryEntry: Sendable, Hashable {
    /// The most Unicode scalars of an announcement's text an entry keeps; a longer text is kept
    /// cut to this length, with ``truncated`` set.
    public static let textLimit = 1000

    /// The post's sequence number; nil for a post dropped before it was queued.
    public var seq: UInt64?
    /// When it ended (its terminal line), UTC, as `2026-11-28T08:00:00Z`.
    public var time: String
    /// The client's name: its `hello` name (else `pid:N`), `atspi:<app>` for a toolkit
    /// announcement, the SSIP client's `CLIENT_NAME`.
    public var client: String
    /// What it said (for an element, its spoken text), at most ``textLimit`` Unicode scalars.
    public var text: String
    /// The text was longer than ``textLimit`` and is kept cut short.
    public var truncated: Bool
    /// The text is SSML.
    public var ssml: Bool
    /// The voice that spoke it (or would have).
    public var voice: String
    /// The language of its text.
    public var language: String
    /// How it ended.
    public var ending: HistoryEnding

    /// An entry; `text` is cut to ``textLimit`` Unicode scalars (``truncated`` says so).
    public init(
        seq: UInt64?, time: String, client: String, text: String, ssml: Bool = false, voice: String,
        language: String, ending: HistoryEnding
    ) {
        self.seq = seq
        self.time = time
        self.client = client
        let scalars = text.unicodeScalars
        if scalars.count > Self.textLimit {
            self.text = String(String.UnicodeScalarView(scalars.prefix(Self.textLimit)))
            self.truncated = true
        } else {
            self.text = text
            self.truncated = false
        }
        self.ssml = ssml
        self.voice = voice
        self.language = language
        self.ending = ending
    }

    /// The entry as the protocol writes it: `seq` (absent for a dropped post), `time`, `client`,
    /// `text`, `voice`, `lang`, `success`, `reason`, `spoken_chars`, then `message`, `truncated` and
    /// `ssml` where they apply.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        if let seq { object.append("seq", .integer(Int64(seq))) }
        object.append("time", .string(time))
        object.append("client", .string(client))
        object.append("text", .string(text))
        object.append("voice", .string(voice))
        object.append("lang", .string(language))
        object.append("success", .bool(ending.success))
        if let reason = ending.reason { object.append("reason", .string(reason)) }
        object.append("spoken_chars", .integer(Int64(ending.spokenChars)))
        if case .ended(_, _, let message?) = ending { object.append("message", .string(message)) }
        if truncated { object.append("truncated", true) }
        if ssml { object.append("ssml", true) }
        return object
    }

    /// Reads an entry of a `history` answer or event: the inverse of ``jsonObject``.
    public init(_ object: JSONObject) throws(FieldError) {
        if let raw = object["seq"], !raw.isNull {
            guard let value = raw.integerValue, let seq = UInt64(exactly: value) else {
                throw FieldError(field: "seq", problem: "must be a non-negative integer")
            }
            self.seq = seq
        } else {
            self.seq = nil
        }
        time = try object.requiredString("time")
        client = try object.requiredString("client")
        text = try object.requiredString("text")
        voice = try object.requiredString("voice")
        language = try object.requiredString("lang")
        truncated = try object.optionalBool("truncated") ?? false
        ssml = try object.optionalBool("ssml") ?? false
        let spokenChars = try object.optionalInt("spoken_chars", range: 0...Int.max) ?? 0
        if try object.requiredBool("success") {
            ending = .spoken(spokenChars: spokenChars)
        } else if let reason = DropReason(rawValue: try object.requiredString("reason")) {
            ending = .dropped(reason)
        } else {
            guard let reason = try object.optionalEnum("reason", FinishReason.self) else {
                throw FieldError(field: "reason", problem: "is required when success is false")
            }
            ending = .ended(reason, spokenChars: spokenChars, message: try object.optionalString("message"))
        }
    }
}
