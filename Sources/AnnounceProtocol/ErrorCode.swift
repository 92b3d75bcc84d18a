// SPDX-License-Identifier: Apache-2.0
/// The `code` of an `error` line.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable {
    /// The line is not valid JSON.
    case badJSON = "bad-json"
    /// The line is JSON but not an object.
    case notObject = "not-object"
    /// The object has no `op`.
    case missingOp = "missing-op"
    /// `op` is not one the daemon knows.
    case unknownOp = "unknown-op"
    /// A field has a wrong type or value; the message names the field.
    case invalid
    /// `text` is longer than `max_text_chars`.
    case textTooLong = "text-too-long"
    /// The line is longer than `max_line_bytes`; the connection is closed after this error.
    case lineTooLong = "line-too-long"
    /// `cancel` named a post that is not pending or speaking.
    case notFound = "not-found"
    /// The peer's uid is not allowed; the connection is closed after this error.
    case forbidden
    /// The daemon failed; the message says how.
    case `internal`
    /// `navigate`: there is no current screen.
    case noScreen = "no-screen"
    /// `navigate`: the focus is at the first or last stop already.
    case endOfScreen = "end-of-screen"
    /// `navigate` `increment`/`decrement`: the focused element is not adjustable.
    case notAdjustable = "not-adjustable"
    /// `navigate`: the focused element has no custom actions.
    case noActions = "no-actions"
}

/// A request the daemon refuses, answered with an `error` line.
public struct RequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error code.
    public var code: ErrorCode
    /// A sentence for people, naming the field when there is one.
    public var message: String
    /// The request's `id`, when the line had a valid one.
    public var id: RequestID?

    /// Creates a request error.
    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// The `error` line for this error.
    public var event: Event { .error(id: id, code: code, message: message) }
}

/// The `id` a client gives a request: a string or an integer, echoed in every line about it.
public enum RequestID: Sendable, Hashable, CustomStringConvertible {
    /// An integer id.
    case integer(Int64)
    /// A string id.
    case string(String)

    /// The id as JSON.
    public var json: JSONValue {
        switch self {
        case .integer(let value): return .integer(value)
        case .string(let value): return .string(value)
        }
    }

    /// Reads an id from JSON; nil for any other type.
    public init?(json: JSONValue) {
        switch json {
        case .string(let value): self = .string(value)
        case .integer(let value): self = .integer(value)
        default: return nil
        }
    }

    /// The id as JSON text.
    public var description: String { json.jsonText }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    /// An integer id from a literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A string id from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}
