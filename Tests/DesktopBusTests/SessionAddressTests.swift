// SPDX-License-Identifier: GPL-3.0-or-later
import DesktopBus
import Foundation
import Testing

/// Where the session bus is, found before any sd-bus call (sd-bus's own rule): the variable, else
/// the socket in the runtime directory; without either, an error that names what is missing.
struct SessionAddressTests {
    @Test func theVariableComesFirst() throws {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/elsewhere/bus", "XDG_RUNTIME_DIR": "/run/user/1"]
        #expect(try BusConnection.sessionAddress(environment: environment) == "unix:path=/elsewhere/bus")
    }

    @Test func withNeitherTheErrorNamesBoth() {
        #expect(
            throws: DesktopBusError.sessionBusUnavailable(
                reason: "neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set")
        ) { try BusConnection.sessionAddress(environment: [:]) }
    }

    @Test func aRuntimeDirectoryWithoutABusIsNoBus() throws {
        let directory = NSTemporaryDirectory() + "announced-no-bus-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(
            throws: DesktopBusError.sessionBusUnavailable(
                reason: "DBUS_SESSION_BUS_ADDRESS is not set and \(directory)/bus is no socket")
        ) { try BusConnection.sessionAddress(environment: ["XDG_RUNTIME_DIR": directory]) }
        // A file of that name is not a bus either.
        #expect(FileManager.default.createFile(atPath: directory + "/bus", contents: Data()))
        #expect(throws: DesktopBusError.self) {
            try BusConnection.sessionAddress(environment: ["XDG_RUNTIME_DIR": directory])
        }
    }

    @Test func theSocketsPathIsEscapedForTheAddress() throws {
        let directory = NSTemporaryDirectory() + "announced bus ü-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = directory + "/bus"
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        let escaped = directory.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "ü", with: "%c3%bc")
        #expect(
            try BusConnection.sessionAddress(environment: ["XDG_RUNTIME_DIR": directory]) == "unix:path=\(escaped)/bus")
    }
}
