// SPDX-License-Identifier: Apache-2.0
/// The short speech requests `spd-say` users expect (additions to protocol 1, Protocol.md section 19):
/// `char`, `key` and `sound`. Each is a speech post: `queued`, `started`, one terminal line.
public enum ShortSpeech: Sendable, Hashable {
    /// `char`: one character (a grapheme), spoken as its name: `a`, `space`, `newline`.
    case character(String)
    /// `key`: a key name as SSIP writes it (`shift_a`, `control_alt_delete`, `kp-enter`, or with
    /// `+`), spoken as people say it: "shift a", "control alt delete", "keypad enter".
    case key(String)
    /// `sound`: an earcon, by name.
    case sound(String)

    /// The earcons `sound` plays.
    public static let soundNames = ["screen-changed", "boundary"]

    /// The `op` name.
    public var op: String {
        switch self {
        case .character: "char"
        case .key: "key"
        case .sound: "sound"
        }
    }

    /// The request's own field and its value.
    var field: (name: String, value: String) {
        switch self {
        case .character(let character): ("char", character)
        case .key(let name): ("key", name)
        case .sound(let name): ("name", name)
        }
    }

    /// Reads the request's own field: exactly one character, a key name of up to 100
    /// characters, or a known sound name; throws naming the field.
    static func decode(op: String, object: JSONObject) throws(FieldError) -> ShortSpeech? {
        let field = ["char": "char", "key": "key", "sound": "name"][op]
        guard let field else { return nil }
        guard let value = try object.optionalString(field) else {
            throw FieldError(field: field, problem: "is required for \(op)")
        }
        switch op {
        case "char":
            guard value.count == 1 else {
                throw FieldError(
                    field: "char", problem: "must be exactly one character (a space is \" \"), not \(value.count)")
            }
            return .character(value)
        case "key":
            guard !value.isEmpty, value.count <= 100,
                value.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0.value >= 0x20 && $0.value != 0x7F })
            else {
                throw FieldError(
                    field: "key",
                    problem:
                        "must be a key name such as \"shift_a\", \"control_alt_delete\" or \"kp-enter\" (at most 100 characters, no spaces)"
                )
            }
            return .key(value)
        default:
            guard soundNames.contains(value) else {
                throw FieldError(
                    field: "name", problem: "names no sound; the sounds are \(soundNames.joined(separator: ", "))")
            }
            return .sound(value)
        }
    }
}

extension ShortSpeech {
    /// What is spoken: the text, and whether it is SSML (a single letter in a key name is
    /// spelled, or espeak-ng would read "a" as the article).
    public var spokenText: (text: String, ssml: Bool, spell: Bool) {
        switch self {
        case .character(let character):
            if let name = Self.characterNames[character] { return (name, false, false) }
            return (character, false, true)
        case .key(let name):
            let parts = Self.keyParts(name)
            guard parts.contains(where: { $0.count == 1 }) else { return (parts.joined(separator: " "), false, false) }
            let pieces = parts.map { part in
                part.count == 1
                    ? #"<say-as interpret-as="characters">\#(Self.escaped(part))</say-as>"# : Self.escaped(part)
            }
            return ("<speak>" + pieces.joined(separator: " ") + "</speak>", true, false)
        case .sound:
            return ("", false, false)
        }
    }

    /// Names for characters espeak-ng would not say as such.
    static let characterNames: [String: String] = [
        " ": "space", "\n": "newline", "\r\n": "newline", "\r": "carriage return", "\t": "tab",
        "\u{A0}": "no-break space",
    ]

    /// Key-name words as people say them.
    static let keyWords: [String: String] = [
        "ctrl": "control", "esc": "escape", "del": "delete", "ins": "insert", "pgup": "page up",
        "pgdn": "page down", "kp": "keypad", "bs": "backspace", "cr": "return", "super": "super",
        "win": "windows", "cmd": "command", "opt": "option", "lt": "less than", "gt": "greater than",
    ]

    /// `control_alt_delete`, `shift+a`, `kp-enter` → ["control", "alt", "delete"], ["shift", "a"],
    /// ["keypad", "enter"]. A separator alone (`_`, `+`, `-`) is the key itself.
    static func keyParts(_ name: String) -> [String] {
        if name.count == 1 { return [name] }
        var parts: [String] = []
        var current = ""
        for character in name {
            if "_+-".contains(character) && !current.isEmpty {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts.map { part in keyWords[part.lowercased()] ?? (part.count == 1 ? part : part.lowercased()) }
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            default: result.append(character)
            }
        }
        return result
    }
}
