// SPDX-License-Identifier: Apache-2.0
/// A JSON value, as read from or written to one protocol line.
///
/// Objects keep their members in order, so lines are written with their fields in the order the
/// protocol shows them (`event` first, then `id`, `seq`, ...).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in the order written.
    case object(JSONObject)
}

/// A JSON object that keeps its members in order. Looking a key up returns its last value, as
/// most JSON readers do with duplicate keys.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// Creates an object from members in order.
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// Creates an object from a literal, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { (key: $0.0, value: $0.1) }
    }

    /// The value of `key`, or nil when it is absent.
    public subscript(key: String) -> JSONValue? {
        get { members.last(where: { $0.key == key })?.value }
        set {
            members.removeAll { $0.key == key }
            if let newValue { members.append((key: key, value: newValue)) }
        }
    }

    /// Appends a member without looking for an earlier one with the same key.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key: key, value: value))
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Two objects are equal when they have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension JSONValue {
    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer, or a number with no fraction that fits.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): return value
        case .number(let value):
            guard value.rounded() == value, let exact = Int64(exactly: value) else { return nil }
            return exact
        default: return nil
        }
    }

    /// The number, if this is a number.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// The array, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The JSON type's name, for error messages: `string`, `number`, `object`, ...
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
