// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import DesktopBus
import TestSupport
import Testing

/// `BusConnection` against a private `dbus-daemon --session`: names and error replies.
@Suite(.enabled(if: DesktopParts.installed([DesktopParts.busDaemon]), DesktopParts.note([DesktopParts.busDaemon])))
struct BusConnectionTests {
    @Test func theRuntimeDirectorysSocketIsTheSessionBus() async throws {
        try await PrivateDesktop.withDesktop { desktop in
            let address = try BusConnection.sessionAddress(environment: [
                "XDG_RUNTIME_DIR": desktop.directory + "/runtime"
            ])
            #expect(address == "unix:path=\(desktop.directory)/runtime/bus")
            let session = try BusConnection.session(address: address)
            defer { session.close() }
            #expect(try await session.requestName("org.announced.RuntimeDirectory") == true)
        }
    }

    @Test func aNameHasOneOwner() async throws {
        try await PrivateDesktop.withDesktop { desktop in try await aNameHasOneOwner(on: desktop) }
    }

    private func aNameHasOneOwner(on desktop: PrivateDesktop) async throws {
        let first = try BusConnection.session(address: desktop.busAddress)
        let second = try BusConnection.session(address: desktop.busAddress)
        defer {
            first.close()
            second.close()
        }
        #expect(try await first.requestName("org.announced.Test") == true)
        #expect(try await first.requestName("org.announced.Test") == true)
        #expect(try await second.requestName("org.announced.Test") == false)
        let owner = try await second.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner",
            arguments: [.string("org.announced.Test")]
        ) { try $0.readString() }
        #expect(owner.hasPrefix(":1."))
        // Once the bus says the owner has gone (NameOwnerChanged with no new owner), the name is free.
        let (released, releasedInput) = AsyncStream.makeStream(of: Void.self)
        _ = try await second.addMatch(
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.announced.Test',arg2=''",
            handler: { _ in releasedInput.yield() }, finished: { releasedInput.finish() }
        )
        first.close()
        #expect(try await released.next(within: 30, "the name's release") != nil)
        #expect(try await second.requestName("org.announced.Test") == true)
    }

    @Test func anErrorReplyIsOneErrorNamingTheMethodAndTheBusError() async throws {
        try await PrivateDesktop.withDesktop { desktop in
            try await anErrorReplyIsOneErrorNamingTheMethodAndTheBusError(on: desktop)
        }
    }

    private func anErrorReplyIsOneErrorNamingTheMethodAndTheBusError(on desktop: PrivateDesktop) async throws {
        let session = try BusConnection.session(address: desktop.busAddress)
        defer { session.close() }
        await #expect {
            try await session.call(
                destination: "org.announced.Nobody", path: "/", interface: "org.announced.Nobody", member: "Hello"
            ) { _ in }
        } throws: { error in
            guard case DesktopBusError.callFailed(let method, let name, _) = error else { return false }
            return method == "org.announced.Nobody.Hello" && name == "org.freedesktop.DBus.Error.ServiceUnknown"
        }
        // A reply of another type than the decoder reads is an error too, and the connection goes on.
        await #expect(throws: DesktopBusError.self) {
            try await session.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetId"
            ) { try $0.readBool() }
        }
        let id = try await session.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetId"
        ) { try $0.readString() }
        #expect(id.count == 32)
    }
}
