// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// How one key's values are written and read: the one parser for a flag's or a variable's text,
/// the one for the file's JSON, what a value must be (for errors) and how the file writes it.
///
/// A parser checks everything at once (type, range, words), so each value is parsed once, where
/// it is read; nil means "not a value of this key", and the error then states ``requirement``.
public struct SettingType<Value: Sendable & Hashable>: Sendable {
    /// The type column of Config/README.md's table: `integer 0-100`, `"off"`, `"some"` or `"all"`.
    public let summary: String
    /// What a value must be, as an error says it: `must be a whole number from 0 to 100`.
    public let requirement: String
    /// The value a flag's or variable's text gives, or nil when it is not one.
    let fromText: @Sendable (String) -> Value?
    /// The value a file's JSON (never `null`, which leaves a key unset) gives, or nil.
    let fromJSON: @Sendable (JSONValue) -> Value?
    /// The value as the file writes it.
    let toJSON: @Sendable (Value) -> JSONValue
    /// What exactly is wrong with a file's JSON that ``fromJSON`` refuses, when the type can say
    /// more than ``requirement`` (which entry of a list, which field); nil says only that.
    let explain: (@Sendable (JSONValue) -> String?)?

    /// A type from its parts.
    public init(
        summary: String, requirement: String, fromText: @escaping @Sendable (String) -> Value?,
        fromJSON: @escaping @Sendable (JSONValue) -> Value?, toJSON: @escaping @Sendable (Value) -> JSONValue,
        explain: (@Sendable (JSONValue) -> String?)? = nil
    ) {
        self.summary = summary
        self.requirement = requirement
        self.fromText = fromText
        self.fromJSON = fromJSON
        self.toJSON = toJSON
        self.explain = explain
    }

    /// The same parsers with another requirement and summary.
    public func described(summary: String? = nil, requirement: String? = nil) -> SettingType<Value> {
        SettingType(
            summary: summary ?? self.summary, requirement: requirement ?? self.requirement, fromText: fromText,
            fromJSON: fromJSON,
            toJSON: toJSON, explain: explain)
    }

    /// Values of another type that stand for these one for one (`allow_uids`' `UInt32`s).
    public func map<Other>(
        _ forward: @escaping @Sendable (Value) -> Other, back: @escaping @Sendable (Other) -> Value
    ) -> SettingType<Other> {
        let fromText = self.fromText
        let fromJSON = self.fromJSON
        let toJSON = self.toJSON
        return SettingType<Other>(
            summary: summary, requirement: requirement, fromText: { fromText($0).map(forward) },
            fromJSON: { fromJSON($0).map(forward) },
            toJSON: { toJSON(back($0)) })
    }
}

extension SettingType where Value == Int {
    /// A whole number in `range`; an upper bound of `Int32.max` means "no limit" in the messages.
    public static func integer(_ range: ClosedRange<Int>) -> SettingType<Int> {
        let (low, high) = (range.lowerBound, range.upperBound)
        let unbounded = high == Int(Int32.max)
        let words = unbounded ? (low == 1 ? "greater than 0" : "of \(low) or more") : "from \(low) to \(high)"
        let summary = unbounded ? (low == 1 ? "integer > 0" : "integer ≥ \(low)") : "integer \(low)-\(high)"
        return SettingType(
            summary: summary, requirement: "must be a whole number \(words)",
            fromText: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
            fromJSON: { $0.integerValue.flatMap { Int(exactly: $0) }.flatMap { range.contains($0) ? $0 : nil } },
            toJSON: { .integer(Int64($0)) })
    }

    /// A whole number greater than 0 (limits, counts, seconds).
    public static let positive = integer(1...Int(Int32.max))
}

extension SettingType where Value == Bool {
    /// `true` or `false`; a variable may also say `yes`, `no`, `1` or `0`, in any case.
    public static let boolean = SettingType(
        summary: "boolean", requirement: "must be true or false",
        fromText: { text in
            switch text.lowercased() {
            case "true", "yes", "1": return true
            case "false", "no", "0": return false
            default: return nil
            }
        },
        fromJSON: { $0.boolValue }, toJSON: { .bool($0) })
}

extension SettingType where Value == String {
    /// Text that is not empty: a path, a name.
    public static func text(_ requirement: String) -> SettingType<String> {
        SettingType(
            summary: "string", requirement: requirement, fromText: { $0.isEmpty ? nil : $0 },
            fromJSON: { $0.stringValue.flatMap { $0.isEmpty ? nil : $0 } }, toJSON: { .string($0) })
    }
}

extension SettingType {
    /// One of `Value`'s words (`none`, `some`, `all`), written as a string.
    public static func word(_ words: Value.Type) -> SettingType<Value>
    where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return SettingType(
            summary: names.map { "`\"\($0)\"`" }.joined(separator: ", "),
            requirement: "must be one of \(names.joined(separator: ", "))",
            fromText: { Value(rawValue: $0) }, fromJSON: { $0.stringValue.flatMap(Value.init(rawValue:)) },
            toJSON: { .string($0.rawValue) })
    }

    /// A value written as one string that `parse` reads (`auto`, `wav:DIR`), and as `description`.
    public static func parsed(summary: String, requirement: String, _ parse: @escaping @Sendable (String) -> Value?)
        -> SettingType<Value>
    where Value: CustomStringConvertible {
        SettingType(
            summary: summary, requirement: requirement, fromText: parse, fromJSON: { $0.stringValue.flatMap(parse) },
            toJSON: { .string($0.description) })
    }

    /// `wrapped`'s values, or `null` (the default of a key that is unset unless given).
    public static func orNull<Wrapped>(_ wrapped: SettingType<Wrapped>) -> SettingType<Wrapped?>
    where Value == Wrapped? {
        SettingType(
            summary: wrapped.summary + " or null", requirement: wrapped.requirement,
            // Mapped, so that a text or JSON the wrapped type refuses stays refused (nil), not null.
            fromText: { wrapped.fromText($0).map { .some($0) } }, fromJSON: { wrapped.fromJSON($0).map { .some($0) } },
            toJSON: { $0.map(wrapped.toJSON) ?? .null })
    }

    /// A list of `element`'s values: a JSON array in the file, commas in a variable or flag (each
    /// element trimmed of spaces).
    public static func list<Element>(of element: SettingType<Element>, requirement: String) -> SettingType<[Element]>
    where Value == [Element] {
        SettingType(
            summary: "array of " + element.summary, requirement: requirement,
            fromText: { text in
                var elements: [Element] = []
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let value = element.fromText(String(part.trimmingWhitespace)) else { return nil }
                    elements.append(value)
                }
                return elements
            },
            fromJSON: { json in
                guard let array = json.arrayValue else { return nil }
                let elements = array.compactMap(element.fromJSON)
                return elements.count == array.count ? elements : nil
            },
            toJSON: { .array($0.map(element.toJSON)) })
    }
}

extension Substring {
    /// The text without leading and trailing whitespace.
    var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }
}
