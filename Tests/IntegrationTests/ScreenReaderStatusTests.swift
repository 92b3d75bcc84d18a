// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceClient
import BlockingThreads
import DesktopBus
import Foundation
import Glibc
import TestSupport
import Testing

/// What the screen reader's status needs on the desktop: a session bus and at-spi-bus-launcher,
/// which owns `org.a11y.Status`.
private let desktopInstalled = ["/usr/bin/dbus-daemon", "/usr/libexec/at-spi-bus-launcher"].allSatisfy {
    FileManager.default.fileExists(atPath: $0)
}

/// The real daemon on a private session bus whose `org.a11y.Status` is served by the real
/// at-spi-bus-launcher (D-Bus activated by the daemon's first read, as on a desktop) and flipped
/// the way GNOME flips it while Orca starts and stops: another client's `Properties.Set` of
/// `ScreenReaderEnabled`, which the launcher announces with `PropertiesChanged`.
@Suite(
    "The screen reader's status: status, status-changed, announcectl and AnnounceClient", .daemonTimeLimit,
    .enabled(if: desktopInstalled, "needs a session bus and AT-SPI (apt-get install dbus at-spi2-core)")
)
struct ScreenReaderStatusTests {
    @Test("a flip of ScreenReaderEnabled reaches status, status-changed, announcectl and the client's sequence")
    func followsTheDesktop() async throws {
        let session = try await onBlockingThread { () throws -> DesktopSession in
            let session = try DesktopSession()
            try session.startSessionBus()
            return session
        }
        let busAddress = try #require(session.busAddress)
        let daemon = try await DaemonProcess.start(environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        do {
            try await followsTheDesktop(daemon, busAddress: busAddress)
        } catch {
            // The daemon first: its environment names the session's folder, which the session's
            // stop ends too.
            await onBlockingThread {
                daemon.stop()
                session.stop()
            }
            throw error
        }
        // The watch's bus connection closes with the rest on SIGTERM.
        #expect(await onBlockingThread { daemon.stop() } == 0)
        await onBlockingThread { session.stop() }
    }

    private func followsTheDesktop(_ daemon: DaemonProcess, busAddress: String) async throws {
        let screenReader = try BusConnection.session(address: busAddress)
        defer { screenReader.close() }
        // A raw subscriber sees the wire's status-changed lines.
        let subscriber = try daemon.connect()
        subscriber.send(#"{"op":"subscribe","id":1,"events":["status"]}"#)
        #expect(await onBlockingThread { subscriber.waitFor("ok", id: 1) } != nil)

        let monitor = try AnnouncectlProcess(["--socket", daemon.socketPath, "monitor"])
        // Ended below; this covers a test that throws first.
        defer { if monitor.process.isRunning { kill(monitor.process.processIdentifier, SIGKILL) } }
        let announcer = Announcer(socketPath: daemon.socketPath)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // The client's sequence, relayed to a stream the test waits on step by step.
            let (seen, relay) = AsyncStream.makeStream(of: Bool.self)
            let changes = announcer.screenReaderStatusChanges()
            group.addTask {
                for await running in changes { relay.yield(running) }
                relay.finish()
            }
            #expect(try await seen.first("the sequence's first value") { _ in true } == false)
            #expect(await announcer.isScreenReaderRunning == false)

            try await setScreenReader(true, from: screenReader)
            #expect(try await seen.first("the change to true") { _ in true } == true)
            let changed = await onBlockingThread {
                subscriber.waitFor { $0["event"] == .string("status-changed") && $0["screen_reader"] == .bool(true) }
            }
            #expect(
                changed != nil, "no status-changed with screen_reader true; the daemon's log:\n\(daemon.stderrSoFar())")
            #expect(await announcer.isScreenReaderRunning == true)
            let json = try await onBlockingThread { try announcectl(daemon, "status", "--json") }
            #expect(json.status == 0)
            #expect(json.stdout.contains(#""screen_reader":true"#), "\(json.stdout)")
            let text = try await onBlockingThread { try announcectl(daemon, "status") }
            #expect(text.stdout.contains("desktop      screen reader running"), "\(text.stdout)")
            let monitored = await onBlockingThread {
                monitor.waitForOutputLine {
                    $0.hasPrefix("status: speech on") && $0.hasSuffix(", screen reader running")
                }
            }
            #expect(monitored != nil)

            try await setScreenReader(false, from: screenReader)
            #expect(try await seen.first("the change to false") { _ in true } == false)
            let changedBack = await onBlockingThread {
                subscriber.waitFor { $0["event"] == .string("status-changed") && $0["screen_reader"] == .bool(false) }
            }
            #expect(changedBack != nil)
            #expect(await announcer.isScreenReaderRunning == false)
            group.cancelAll()
        }
        // Speech is untouched by the desktop.
        #expect(await announcer.announce("Still speaking") == .spoken)
        kill(monitor.process.processIdentifier, SIGINT)
        _ = await onBlockingThread { monitor.finish() }
    }

    @Test("without a session bus: one log line, screen_reader false, and the daemon speaks")
    func noSessionBus() async throws {
        let daemon = try await DaemonProcess.start(environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/announced-test/bus"
        ])
        let announcer = Announcer(socketPath: daemon.socketPath)
        #expect(await announcer.announce("Speaking without a desktop") == .spoken)
        #expect(try await announcer.status().screenReader == false)
        #expect(await announcer.isScreenReaderRunning == false)
        let json = try await onBlockingThread { try announcectl(daemon, "status", "--json") }
        #expect(json.stdout.contains(#""screen_reader":false"#), "\(json.stdout)")
        let logged = await onBlockingThread {
            daemon.waitForStderr(
                containing:
                    "screen_reader is false, toolkit announcements are not spoken, announced is not a Spiel speech provider: no D-Bus session bus",
                timeout: 10)
        }
        #expect(logged, "\(daemon.stderrSoFar())")
        #expect(daemon.stderrSoFar().components(separatedBy: "screen_reader is false").count == 2)
    }

    @Test("a session bus without at-spi2-core: one log line and false; at-spi-bus-launcher started later is followed")
    func atSpiComesLater() async throws {
        let session = try await onBlockingThread { () throws -> DesktopSession in try DesktopSession() }
        let daemonAndBus = try await onBlockingThread { () throws -> (DaemonProcess, String) in
            let busAddress = try Self.startBusWithoutServices(in: session)
            return (
                try DaemonProcess(environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress]), busAddress
            )
        }
        let (daemon, busAddress) = daemonAndBus
        do {
            try await atSpiComesLater(daemon, session: session, busAddress: busAddress)
        } catch {
            await onBlockingThread {
                daemon.stop()
                session.stop()
            }
            throw error
        }
        #expect(await onBlockingThread { daemon.stop() } == 0)
        await onBlockingThread { session.stop() }
    }

    private func atSpiComesLater(_ daemon: DaemonProcess, session: DesktopSession, busAddress: String) async throws {
        let missing = await onBlockingThread {
            daemon.waitForStderr(containing: "screen_reader is false: cannot read org.a11y.Status", timeout: 30)
        }
        #expect(missing, "\(daemon.stderrSoFar())")
        let announcer = Announcer(socketPath: daemon.socketPath)
        #expect(await announcer.isScreenReaderRunning == false)
        #expect(await announcer.announce("Speaking without AT-SPI") == .spoken)

        _ = try await onBlockingThread {
            try session.start(
                "at-spi-bus-launcher", "/usr/libexec/at-spi-bus-launcher", [],
                extra: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        }
        let followed = await onBlockingThread {
            daemon.waitForStderr(containing: "screen reader status followed", timeout: 30)
        }
        #expect(followed, "\(daemon.stderrSoFar())")
        let screenReader = try BusConnection.session(address: busAddress)
        defer { screenReader.close() }
        try await setScreenReader(true, from: screenReader)
        let changes = announcer.statusChanges()
        _ = try await changes.first("screen_reader true") { $0.isScreenReaderRunning }
        #expect(await announcer.isScreenReaderRunning == true)
        #expect(daemon.stderrSoFar().components(separatedBy: "screen_reader is false").count == 2)
    }

    /// Starts a session bus that D-Bus activates nothing on (a desktop without at-spi2-core); its address.
    private static func startBusWithoutServices(in session: DesktopSession) throws -> String {
        let configuration = session.directory.appendingPathComponent("session.conf").path
        try Data(
            """
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(session.runtime.path)/bus</listen>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8
        ).write(to: URL(fileURLWithPath: configuration))
        let bus = try session.start(
            "dbus-daemon", "/usr/bin/dbus-daemon",
            ["--config-file=\(configuration)", "--nofork", "--nosyslog", "--print-address=1"], output: .pipe)
        let output = try #require(bus.output)
        return try #require(
            LineCollector(reading: output).waitForLine(timeout: 30) { $0.hasPrefix("unix:path=") },
            "dbus-daemon printed no address")
    }

    private func setScreenReader(_ enabled: Bool, from connection: BusConnection) async throws {
        try await withTimeout("setting ScreenReaderEnabled") {
            try await connection.call(
                destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.freedesktop.DBus.Properties",
                member: "Set",
                arguments: [.string("org.a11y.Status"), .string("ScreenReaderEnabled"), .variant(.bool(enabled))]
            ) { _ in }
        }
    }
}
