// SPDX-License-Identifier: GPL-3.0-or-later

/// Why a desktop bus could not be used. Each case says what to do next in its description, so a
/// caller can log it as one line and go on without the bus.
public enum DesktopBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// There is no session bus to connect to: neither `DBUS_SESSION_BUS_ADDRESS` nor
    /// `$XDG_RUNTIME_DIR/bus` leads to one (`reason` is the system's error).
    case sessionBusUnavailable(reason: String)
    /// The session bus has no accessibility bus to give (no at-spi-bus-launcher answers
    /// `org.a11y.Bus.GetAddress`), or the one it names cannot be reached.
    case accessibilityBusUnavailable(reason: String)
    /// The bus at `address` refused the connection or could not be reached.
    case connectionFailed(address: String, reason: String)
    /// A method call came back with the D-Bus error `name` (for example
    /// `org.freedesktop.DBus.Error.ServiceUnknown` when nothing owns the destination).
    case callFailed(method: String, name: String, message: String)
    /// A reply or signal did not have the arguments its interface promises.
    case unexpectedMessage(String)
    /// The connection was closed, by ``BusConnection/close()`` or by the bus going away.
    case closed

    /// One line for the log, saying what is missing and what to do.
    public var description: String {
        switch self {
        case .sessionBusUnavailable(let reason):
            return
                "no D-Bus session bus (\(reason)): run announced inside a desktop session, or set DBUS_SESSION_BUS_ADDRESS"
        case .accessibilityBusUnavailable(let reason):
            return "no accessibility bus (\(reason)): install at-spi2-core, or run announced inside a desktop session"
        case .connectionFailed(let address, let reason):
            return "cannot connect to the D-Bus bus at \(address) (\(reason))"
        case .callFailed(let method, let name, let message):
            return "D-Bus call \(method) failed: \(name): \(message)"
        case .unexpectedMessage(let what):
            return "unexpected D-Bus message: \(what)"
        case .closed:
            return "the D-Bus connection is closed"
        }
    }
}
