// SPDX-License-Identifier: GPL-3.0-or-later
import CSystemdBus

// What sd-bus holds for a connection between two turns of its queue: calls waiting for their
// replies, match rules, and the C callbacks sd-bus calls with them.

/// A match rule added with ``BusConnection/addMatch(_:handler:finished:)``, to remove it.
public struct BusMatch: Sendable {
    let match: SignalMatch
}

/// A method call waiting for its reply; retained by the connection's table, handed to sd-bus
/// unretained.
// Unchecked: made, completed and dropped on its connection's queue (`complete` is not Sendable).
final class PendingCall: @unchecked Sendable {
    unowned(unsafe) let connection: BusConnection
    let complete: (Result<OpaquePointer, DesktopBusError>) -> Void

    init(connection: BusConnection, complete: @escaping (Result<OpaquePointer, DesktopBusError>) -> Void) {
        self.connection = connection
        self.complete = complete
    }
}

/// A match rule's slot and handler; retained by the connection's table.
// Unchecked: `installed`, `slot` and `connection` are touched only on the connection's queue.
final class SignalMatch: @unchecked Sendable {
    let handler: @Sendable (inout BusMessageReader) -> Void
    let finished: @Sendable () -> Void
    var installed: ((DesktopBusError?) -> Void)?
    var slot: OpaquePointer?
    weak var connection: BusConnection?

    init(handler: @escaping @Sendable (inout BusMessageReader) -> Void, finished: @escaping @Sendable () -> Void) {
        self.handler = handler
        self.finished = finished
    }

    /// Drops the rule from sd-bus and tells the owner the match is over.
    func end() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        finished()
    }
}

func pendingCallReply(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    let call = Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue()
    call.connection.finish(call, reply: message)
    return 0
}

func signalMatchMessage(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    let match = Unmanaged<SignalMatch>.fromOpaque(userdata).takeUnretainedValue()
    var reader = BusMessageReader(message)
    match.handler(&reader)
    return 0
}

func signalMatchInstalled(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let userdata else { return 0 }
    let match = Unmanaged<SignalMatch>.fromOpaque(userdata).takeUnretainedValue()
    guard let connection = match.connection else { return 0 }
    if sd_bus_message_is_method_error(message, nil) != 0 {
        let failure = sd_bus_message_get_error(message)?.pointee
        connection.matchInstalled(
            match,
            error: .callFailed(
                method: "org.freedesktop.DBus.AddMatch", name: failure?.name.map { String(cString: $0) } ?? "unknown",
                message: failure?.message.map { String(cString: $0) } ?? ""
            )
        )
    } else {
        connection.matchInstalled(match, error: nil)
    }
    return 0
}
