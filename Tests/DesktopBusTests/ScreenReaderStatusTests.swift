// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import DesktopBus
import TestSupport
import Testing

/// `ScreenReaderEnabled` on a private session bus, served by the real at-spi-bus-launcher (D-Bus
/// activated by the first call, as on a desktop), flipped the way GNOME flips it: another
/// client's `org.freedesktop.DBus.Properties.Set`.
@Suite(
    .enabled(
        if: DesktopParts.installed([DesktopParts.busDaemon, DesktopParts.busLauncher]),
        DesktopParts.note([DesktopParts.busDaemon, DesktopParts.busLauncher]))
)
struct ScreenReaderStatusTests {
    @Test func readsTheStatusAndStreamsEachFlip() async throws {
        try await PrivateDesktop.withDesktop { desktop in try await readsTheStatusAndStreamsEachFlip(on: desktop) }
    }

    private func readsTheStatusAndStreamsEachFlip(on desktop: PrivateDesktop) async throws {
        let session = try BusConnection.session(address: desktop.busAddress)
        let screenReader = try BusConnection.session(address: desktop.busAddress)
        defer {
            session.close()
            screenReader.close()
        }
        let (isEnabled, changes) = try await withTimeout("reading ScreenReaderEnabled", seconds: 30) {
            try await ScreenReaderStatus.watch(on: session)
        }
        #expect(isEnabled == false)
        try await set(true, from: screenReader)
        #expect(try await changes.next(within: 30, "the change to true") == true)
        #expect(try await ScreenReaderStatus.isEnabled(on: session) == true)
        try await set(false, from: screenReader)
        #expect(try await changes.next(within: 30, "the change to false") == false)
        #expect(try await ScreenReaderStatus.isEnabled(on: session) == false)
    }

    @Test func theStreamFinishesWhenTheSessionBusGoesAway() async throws {
        try await PrivateDesktop.withDesktop { desktop in
            let session = try BusConnection.session(address: desktop.busAddress)
            let (_, changes) = try await withTimeout("reading ScreenReaderEnabled", seconds: 30) {
                try await ScreenReaderStatus.watch(on: session)
            }
            await onBlockingThread { desktop.killSessionBus() }
            #expect(try await changes.next(within: 30, "the stream's end") == nil)
            await #expect(throws: DesktopBusError.closed) { try await ScreenReaderStatus.isEnabled(on: session) }
        }
    }

    @Test func aMissingSessionBusIsOneErrorThatSaysWhatToDo() throws {
        let address = "unix:path=/nonexistent/announced-test/bus"
        #expect {
            try BusConnection.session(address: address)
        } throws: { error in
            guard case DesktopBusError.sessionBusUnavailable(let reason) = error else { return false }
            return reason.contains("/nonexistent/announced-test/bus") && "\(error)".contains("DBUS_SESSION_BUS_ADDRESS")
        }
    }

    @Test func aDesktopWithoutAtSpiIsOneErrorForEach() async throws {
        try await PrivateDesktop.withDesktop(activation: false) { desktop in
            try await aDesktopWithoutAtSpiIsOneErrorForEach(on: desktop)
        }
    }

    private func aDesktopWithoutAtSpiIsOneErrorForEach(on desktop: PrivateDesktop) async throws {
        let session = try BusConnection.session(address: desktop.busAddress)
        defer { session.close() }
        await #expect {
            try await ScreenReaderStatus.isEnabled(on: session)
        } throws: { error in
            guard case DesktopBusError.callFailed(_, let name, _) = error else { return false }
            return name == "org.freedesktop.DBus.Error.ServiceUnknown"
        }
        await #expect {
            try await AccessibilityBus.connect(session: session)
        } throws: { error in
            guard case DesktopBusError.accessibilityBusUnavailable(let reason) = error else { return false }
            return reason.contains("ServiceUnknown") && "\(error)".contains("at-spi2-core")
        }
    }

    private func set(_ enabled: Bool, from connection: BusConnection) async throws {
        try await connection.call(
            destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties",
            member: "Set",
            arguments: [.string("org.a11y.Status"), .string("ScreenReaderEnabled"), .variant(.bool(enabled))]
        ) { _ in }
    }
}

/// The order of `ScreenReaderEnabled`'s changes, against a stand-in owner (Fixtures/status-owner.py)
/// that reports the property invalidated and then changed to false, while a read of it still says
/// true: the invalidated value is read again before the next change is taken, so the changes are
/// true, then false, and the last one delivered is the last one reported.
@Suite(
    .enabled(
        if: DesktopParts.installed([DesktopParts.busDaemon, DesktopParts.python, DesktopParts.pythonGI]),
        DesktopParts.note([DesktopParts.busDaemon, DesktopParts.python, DesktopParts.pythonGI]))
)
struct ScreenReaderStatusOrderTests {
    @Test func anInvalidatedValueIsReadAgainBeforeTheNextChange() async throws {
        try await PrivateDesktop.withDesktop(activation: false) { desktop in
            let session = try BusConnection.session(address: desktop.busAddress)
            defer { session.close() }
            try await desktop.startPythonOwner(of: "org.a11y.Bus", script: "status-owner.py", session: session)
            let (isEnabled, changes) = try await withTimeout("reading ScreenReaderEnabled") {
                try await ScreenReaderStatus.watch(on: session)
            }
            #expect(isEnabled)
            let first = try await changes.next(within: 30, "the invalidated value, read again")
            let second = try await changes.next(within: 30, "the change to false")
            #expect([first, second] == [true, false], "the stand-in's log: \(desktop.log("python3"))")
        }
    }
}
