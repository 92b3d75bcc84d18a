// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus

/// One argument of a method call, in D-Bus's type system.
public enum BusArgument: Sendable, Equatable {
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `b`
    case bool(Bool)
    /// `as`
    case stringArray([String])
    /// `v`, holding one of the other kinds (what `org.freedesktop.DBus.Properties.Set` takes).
    indirect case variant(BusArgument)

    /// The argument's D-Bus type signature.
    var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .int32: "i"
        case .uint32: "u"
        case .bool: "b"
        case .stringArray: "as"
        case .variant: "v"
        }
    }

    /// Appends the argument to `message`; sd-bus's negative errno on failure.
    func append(to message: OpaquePointer) -> Int32 {
        switch self {
        case .string(let value):
            return value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        case .objectPath(let value):
            return value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "o")), $0) }
        case .int32(let value):
            return withUnsafePointer(to: value) { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), $0) }
        case .uint32(let value):
            return withUnsafePointer(to: value) { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), $0) }
        case .bool(let value):
            let flag: Int32 = value ? 1 : 0
            return withUnsafePointer(to: flag) { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), $0) }
        case .variant(let value):
            var result = sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), value.signature)
            if result >= 0 { result = value.append(to: message) }
            return result < 0 ? result : sd_bus_message_close_container(message)
        case .stringArray(let values):
            var result = sd_bus_message_open_container(message, CChar(UInt8(ascii: "a")), "s")
            for value in values where result >= 0 {
                result = value.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            }
            return result < 0 ? result : sd_bus_message_close_container(message)
        }
    }
}
