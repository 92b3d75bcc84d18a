// SPDX-License-Identifier: Apache-2.0
internal import Glibc

/// Why a line is not JSON, with the byte offset where reading stopped.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The byte offset in the line.
    public var offset: Int

    /// A sentence for the `message` of a `bad-json` error.
    public var description: String { "\(reason) at byte \(offset)" }
}

/// Reads one JSON text (RFC 8259) from UTF-8 bytes.
///
/// Strict: no trailing commas, no comments, no leading zeros, no control characters in strings,
/// nothing but white space after the value, valid UTF-8 only. Nesting is limited to `maxDepth`
/// so a hostile line cannot exhaust the stack.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64

    /// Parses `bytes` as one JSON value.
    /// Bytes in contiguous storage (an array, a slice of one, a buffer) are read where they lie;
    /// others are copied once.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        let read = { (buffer: UnsafeRawBufferPointer) in Result { () throws(JSONSyntaxError) in try parse(buffer) } }
        let result =
            bytes.withContiguousStorageIfAvailable { read(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes(read)
        return try result.get()
    }

    /// Parses the bytes of `buffer` as one JSON value, without copying them.
    public static func parse(_ buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var parser = Reader(bytes: buffer.assumingMemoryBound(to: UInt8.self))
        parser.skipWhitespace()
        let value = try parser.readValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == buffer.count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses a string as one JSON value.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(reason: reason, offset: index) }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func expect(_ literal: StaticString, value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("unexpected character") }
        index += count
        return value
    }

    mutating func readValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw error("unexpected character")
        }
    }

    mutating func readObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try readString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try readValue(depth: depth)
            object.append(key, value)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(object)
            case nil: throw error("unexpected end of input")
            default: throw error("expected ',' or '}'")
            }
        }
    }

    mutating func readArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth <= JSONParser.maxDepth else { throw error("nesting deeper than \(JSONParser.maxDepth)") }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try readValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(array)
            case nil: throw error("unexpected end of input")
            default: throw error("expected ',' or ']'")
            }
        }
    }

    mutating func readNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, isDigit(next) { throw error("leading zero in a number") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let digit = current, isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let digit = current, isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw JSONSyntaxError(reason: "number out of range", offset: start)
        }
        return .number(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    /// `bytes` as a string, or nil when they are not valid UTF-8. `String(validating:as:)` would
    /// do, but it runs unspecialized (a generic metadata lookup for every string of every line).
    /// `String(decoding:as:)` replaces invalid sequences, so only valid input comes out unchanged
    /// (compared with `memcmp`, which, unlike the generic `elementsEqual`, costs little beside the
    /// decoding on a chapter-long text).
    func validUTF8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        let unchanged = string.utf8.withContiguousStorageIfAvailable { decoded in
            decoded.count == bytes.count
                && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return unchanged ?? string.utf8.elementsEqual(bytes) ? string : nil
    }

    mutating func readString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        let run = ByteScan.jsonStringRun(in: UnsafeRawBufferPointer(bytes), from: start)
        index = run.end
        guard let stop = current else { throw error("unterminated string") }
        if stop == UInt8(ascii: "\"") {
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if run.isASCII {
                // ASCII is valid UTF-8, and decoding leaves it as it is.
                index += 1
                return String(decoding: raw, as: UTF8.self)
            }
            guard let string = validUTF8String(raw) else {
                throw JSONSyntaxError(reason: "invalid UTF-8 in a string", offset: start)
            }
            index += 1
            return string
        }
        // With escapes: the UTF-8 is gathered in one buffer and made a string once (appending
        // to a string piece by piece copied it at each escape: quadratic in a long text that a
        // client escaped, as Python's json.dumps does every non-ASCII character).
        var utf8: [UInt8] = []
        let prefix = UnsafeBufferPointer(rebasing: bytes[start..<index])
        guard validUTF8String(prefix) != nil else {
            throw JSONSyntaxError(reason: "invalid UTF-8 in a string", offset: start)
        }
        utf8.append(contentsOf: prefix)
        while true {
            guard let byte = current else { throw error("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                UTF8.encode(try readEscape()) { utf8.append($0) }
            case 0..<0x20:
                throw error("control character in a string")
            default:
                let runStart = index
                index = ByteScan.jsonStringRun(in: UnsafeRawBufferPointer(bytes), from: runStart).end
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                guard validUTF8String(run) != nil else {
                    throw JSONSyntaxError(reason: "invalid UTF-8 in a string", offset: runStart)
                }
                utf8.append(contentsOf: run)
            }
        }
    }

    mutating func readEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try readHex4()
            if (0xD800..<0xDC00).contains(unit) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error("unpaired surrogate")
                }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw error("invalid escape") }
                return scalar
            }
            guard let scalar = Unicode.Scalar(UInt32(unit)) else { throw error("unpaired surrogate") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape")
        }
    }

    mutating func readHex4() throws(JSONSyntaxError) -> UInt16 {
        guard index + 4 <= bytes.count else { throw error("unterminated escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in an escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
