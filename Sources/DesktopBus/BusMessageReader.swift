// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus

/// Reads the arguments of one received message, in order. It is handed to a reply's or a
/// signal's decoder on the connection's queue and is valid only during that call.
public struct BusMessageReader {
    private let message: OpaquePointer

    init(_ message: OpaquePointer) { self.message = message }

    /// The unique bus name of the message's sender (`:1.42`), if the bus filled it in.
    public var sender: String? { sd_bus_message_get_sender(message).map { String(cString: $0) } }
    /// The object path a signal was emitted from, or a call was made to.
    public var path: String? { sd_bus_message_get_path(message).map { String(cString: $0) } }
    /// The member (method or signal name).
    public var member: String? { sd_bus_message_get_member(message).map { String(cString: $0) } }

    /// Reads an `s` or `o` argument.
    public mutating func readString() throws -> String {
        let type = try peekType()
        guard type == "s" || type == "o" else { throw mismatch(expected: "s", found: type) }
        var value: UnsafePointer<CChar>?
        try check(sd_bus_message_read_basic(message, type.cValue, &value), "read \(type)")
        return value.map { String(cString: $0) } ?? ""
    }

    /// Reads an `i` argument.
    public mutating func readInt32() throws -> Int32 {
        var value: Int32 = 0
        try readBasic("i", into: &value)
        return value
    }

    /// Reads a `u` argument.
    public mutating func readUInt32() throws -> UInt32 {
        var value: UInt32 = 0
        try readBasic("u", into: &value)
        return value
    }

    /// Reads a `d` argument.
    public mutating func readDouble() throws -> Double {
        var value: Double = 0
        try readBasic("d", into: &value)
        return value
    }

    /// Reads an `h` argument: the descriptor as sd-bus holds it, valid while the message is
    /// (`dup` it to keep it).
    public mutating func readFileDescriptor() throws -> Int32 {
        var value: Int32 = -1
        try readBasic("h", into: &value)
        return value
    }

    /// Reads a `b` argument.
    public mutating func readBool() throws -> Bool {
        var value: Int32 = 0
        try readBasic("b", into: &value)
        return value != 0
    }

    /// Reads an `as` argument.
    public mutating func readStringArray() throws -> [String] {
        try enter("a", "s")
        var values: [String] = []
        while try !atEnd() { values.append(try readString()) }
        try exit()
        return values
    }

    /// Reads a `v` argument with `body`, which reads the value inside (whatever its type; the
    /// contained signature is passed to `body`).
    public mutating func readVariant<T>(_ body: (inout BusMessageReader, _ signature: String) throws -> T) throws -> T {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        try check(sd_bus_message_peek_type(message, &type, &contents), "peek v")
        guard Character(Unicode.Scalar(UInt8(bitPattern: type))) == "v", let contents else {
            throw mismatch(expected: "v", found: Character(Unicode.Scalar(UInt8(bitPattern: type))))
        }
        let signature = String(cString: contents)
        try check(sd_bus_message_enter_container(message, "v".cValue, contents), "enter v")
        let value = try body(&self, signature)
        try exit()
        return value
    }

    /// Reads a struct argument whose fields are `contents` (`so` for `(so)`) with `body`.
    public mutating func readStruct<T>(_ contents: String, _ body: (inout BusMessageReader) throws -> T) throws -> T {
        try enter("r", contents)
        let value = try body(&self)
        try exit()
        return value
    }

    /// Reads an `a{sv}` argument: `body` is called with each key and the reader positioned at its
    /// `v`; it returns whether it read the value (a value it leaves is skipped).
    public mutating func readPropertyMap(_ body: (String, inout BusMessageReader) throws -> Bool) throws {
        try enter("a", "{sv}")
        while try !atEnd() {
            try enter("e", "sv")
            let key = try readString()
            if try !body(key, &self) { try skip("v") }
            try exit()
        }
        try exit()
    }

    /// Skips arguments of the complete types in `signature`.
    public mutating func skip(_ signature: String) throws {
        try check(sd_bus_message_skip(message, signature), "skip \(signature)")
    }

    /// Whether the arguments (or the container being read) are all read.
    public func atEnd() throws -> Bool {
        let result = sd_bus_message_at_end(message, 0)
        try check(result, "at end")
        return result > 0
    }

    private func peekType() throws -> Character {
        var type: CChar = 0
        guard sd_bus_message_peek_type(message, &type, nil) > 0 else {
            throw DesktopBusError.unexpectedMessage("\(member ?? "message") has fewer arguments than expected")
        }
        return Character(Unicode.Scalar(UInt8(bitPattern: type)))
    }

    private mutating func readBasic<T: BitwiseCopyable>(_ type: Character, into value: inout T) throws {
        let found = try peekType()
        guard found == type else { throw mismatch(expected: type, found: found) }
        let result = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type.cValue, $0) }
        try check(result, "read \(type)")
    }

    private mutating func enter(_ type: Character, _ contents: String) throws {
        let result = sd_bus_message_enter_container(message, type.cValue, contents)
        try check(result, "enter \(type)\(contents)")
        guard result > 0 else {
            throw DesktopBusError.unexpectedMessage("\(member ?? "message"): expected \(type)\(contents)")
        }
    }

    private mutating func exit() throws {
        try check(sd_bus_message_exit_container(message), "exit container")
    }

    private func mismatch(expected: Character, found: Character) -> DesktopBusError {
        .unexpectedMessage("\(member ?? "message"): expected an argument of type \(expected), found \(found)")
    }

    private func check(_ result: Int32, _ what: String) throws {
        guard result >= 0 else {
            throw DesktopBusError.unexpectedMessage("\(member ?? "message"): \(what): \(errnoName(-result))")
        }
    }
}

extension Character {
    /// The character as the `char` sd-bus takes for a type code (ASCII only).
    var cValue: CChar { CChar(bitPattern: asciiValue ?? 0) }
}

extension String {
    /// A one-letter type code as sd-bus's `char`.
    var cValue: CChar { CChar(bitPattern: utf8.first ?? 0) }
}
