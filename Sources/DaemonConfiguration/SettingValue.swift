// SPDX-License-Identifier: GPL-3.0-or-later

/// The types a setting's value can have.
enum SettingType: Sendable, Hashable {
    /// Text: paths, names, words such as `auto` or `off`.
    case string
    /// A whole number.
    case int
    /// `true` or `false`.
    case bool
    /// A list of whole numbers (`allow_uids`).
    case intArray
    /// A list of texts (`voice_for_language`'s `language=voice` pairs).
    case stringArray
}

/// One setting's value as a layer (flags, variables or file) gives it, before the key checks it.
enum SettingValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// A whole number.
    case int(Int)
    /// `true` or `false`.
    case bool(Bool)
    /// A list of whole numbers.
    case intArray([Int])
    /// A list of texts.
    case stringArray([String])

    /// The value as the user wrote it on the command line, for error messages: `5`, `"x"`.
    var written: String {
        switch self {
        case .string(let text): return "\"\(text)\""
        case .int(let number): return "\(number)"
        case .bool(let flag): return "\(flag)"
        case .intArray(let numbers): return "[" + numbers.map(String.init).joined(separator: ", ") + "]"
        case .stringArray(let texts): return "[" + texts.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    /// An environment variable's text as a value of `type`, or nil when it is not one: whole
    /// numbers in decimal; `true`, `yes` or `1` and `false`, `no` or `0` in any case; lists
    /// separated by commas, each element trimmed of spaces.
    init?(environmentText text: String, as type: SettingType) {
        switch type {
        case .string:
            self = .string(text)
        case .int:
            guard let number = Int(text) else { return nil }
            self = .int(number)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": self = .bool(true)
            case "false", "no", "0": self = .bool(false)
            default: return nil
            }
        case .intArray:
            var numbers: [Int] = []
            for element in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = Int(element.trimmingWhitespace) else { return nil }
                numbers.append(number)
            }
            self = .intArray(numbers)
        case .stringArray:
            self = .stringArray(text.split(separator: ",").map { String($0.trimmingWhitespace) }.filter { !$0.isEmpty })
        }
    }
}

extension Substring {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return self[first...last]
    }
}
