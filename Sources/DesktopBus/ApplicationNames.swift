// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import NIOPosix

/// Finds the application an AT-SPI event came from: the accessible's application root
/// (`org.a11y.atspi.Accessible.GetApplication`) and that root's `Name`; when it has none, the
/// name of the sending process (`GetConnectionUnixProcessID`, then `/proc/PID/comm`, read on NIO's
/// thread pool for blocking work, not on a thread of Swift's pool). Names are kept per sender: a
/// unique bus name is never given to another connection.
struct ApplicationNames {
    let connection: BusConnection
    private var known: [String: String] = [:]

    init(connection: BusConnection) {
        self.connection = connection
    }

    /// The name of the application that sent an event from the accessible at `path`; `""` when
    /// neither the application nor the bus says.
    mutating func name(sender: String, path: String) async -> String {
        if let name = known[sender] { return name }
        var name = (try? await accessibleName(sender: sender, path: path)) ?? ""
        if name.isEmpty { name = (try? await processName(sender: sender)) ?? "" }
        known[sender] = name
        return name
    }

    private func accessibleName(sender: String, path: String) async throws -> String {
        let (bus, root) = try await connection.call(
            destination: sender, path: path, interface: "org.a11y.atspi.Accessible", member: "GetApplication"
        ) { reply in try reply.readStruct("so") { (try $0.readString(), try $0.readString()) } }
        return try await connection.call(
            destination: bus.isEmpty ? sender : bus, path: root, interface: "org.freedesktop.DBus.Properties",
            member: "Get",
            arguments: [.string("org.a11y.atspi.Accessible"), .string("Name")]
        ) { reply in try reply.readVariant { value, _ in try value.readString() } }
    }

    private func processName(sender: String) async throws -> String {
        let pid = try await connection.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetConnectionUnixProcessID", arguments: [.string(sender)]
        ) { try $0.readUInt32() }
        guard let pid = Int32(exactly: pid) else { return "" }
        return try await NIOThreadPool.singleton.runIfActive { ProcessName.of(pid: pid) ?? "" }
    }
}
