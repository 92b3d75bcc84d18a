// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import DesktopBus
import Foundation
import TestSupport
import Testing

/// Announcements from a real GTK 3 application (python3-gi, `Fixtures/announcing-app.py`) on a
/// private desktop: Xvfb, a session bus, at-spi-bus-launcher and its accessibility bus with
/// at-spi2-registryd (both D-Bus activated), the atk-bridge in the application.
@Suite(
    .enabled(
        if: DesktopParts.installed(DesktopParts.announcingDesktop), DesktopParts.note(DesktopParts.announcingDesktop))
)
struct ToolkitAnnouncementTests {
    @Test func anATKAnnouncementArrivesWithTheApplicationsName() async throws {
        try await AnnouncingApp.withApp { app in
            let accessibility = app.accessibility
            let announcements = try await withTimeout("registering for object:announcement", seconds: 30) {
                try await accessibility.announcements()
            }
            try await app.announce("Download complete", politeness: -1)
            let received = try await announcements.next(within: 30, "the announcement")
            #expect(received?.text == "Download complete", "app log: \(app.desktop.log("python3"))")
            #expect(received?.politeness == .unspecified)
            // GTK 3's application accessible is named by the program name (g_set_prgname).
            #expect(received?.application == "announcing-app")
        }
    }

    @Test func politenessComesFromDetail1InOrder() async throws {
        try await AnnouncingApp.withApp { app in
            let accessibility = app.accessibility
            let announcements = try await withTimeout("registering for object:announcement", seconds: 30) {
                try await accessibility.announcements()
            }
            try await app.announce("Saved", politeness: 1)
            try await app.announce("Battery low", politeness: 2)
            try await app.announce("Plain", politeness: 0)
            var received: [ToolkitAnnouncement] = []
            for _ in 0..<3 {
                if let next = try await announcements.next(within: 30, "announcement \(received.count + 1)") {
                    received.append(next)
                }
            }
            #expect(received.map(\.text) == ["Saved", "Battery low", "Plain"])
            #expect(received.map(\.politeness) == [.polite, .assertive, .unspecified])
            // The script's own connection has no accessible: the name is its process's.
            #expect(received.map(\.application) == ["python3", "python3", "python3"])
        }
    }

    @Test func theStreamFinishesWhenTheConnectionCloses() async throws {
        try await AnnouncingApp.withApp { app in
            let announcements = try await app.accessibility.announcements()
            try await app.announce("Before", politeness: -1)
            #expect(try await announcements.next(within: 30, "the announcement")?.text == "Before")
            app.accessibility.close()
            #expect(try await announcements.next(within: 30, "the stream's end") == nil)
        }
    }
}

/// The private desktop with the GTK application running and both buses connected.
struct AnnouncingApp {
    let desktop: PrivateDesktop
    let session: BusConnection
    let accessibility: AccessibilityBus

    /// Runs `body` with the application started on a new private desktop, stopping both after it
    /// (the desktop's blocking steps on the ``BlockingThreads``).
    static func withApp<T>(_ body: (AnnouncingApp) async throws -> T) async throws -> T {
        try await PrivateDesktop.withDesktop { desktop in
            let app = try await AnnouncingApp(on: desktop)
            defer { app.close() }
            return try await body(app)
        }
    }

    private init(on desktop: PrivateDesktop) async throws {
        self.desktop = desktop
        try await onBlockingThread { try desktop.startDisplay() }
        let session = try BusConnection.session(address: desktop.busAddress)
        do {
            accessibility = try await Self.startApplication(on: desktop, session: session)
            self.session = session
        } catch {
            session.close()
            throw error
        }
    }

    /// Starts the GTK application, waits for its bus name, and connects to the accessibility bus.
    private static func startApplication(on desktop: PrivateDesktop, session: BusConnection) async throws
        -> AccessibilityBus
    {
        try await desktop.startPythonOwner(
            of: "org.announced.TestApp", script: "announcing-app.py", extra: ["GTK_MODULES": "gail:atk-bridge"],
            session: session)
        return try await AccessibilityBus.connect(session: session)
    }

    /// Asks the application to announce `text` (politeness < 0: through ATK).
    func announce(_ text: String, politeness: Int32) async throws {
        let session = self.session
        try await withTimeout("the application's Announce", seconds: 30) {
            try await session.call(
                destination: "org.announced.TestApp", path: "/org/announced/TestApp",
                interface: "org.announced.TestApp",
                member: "Announce",
                arguments: [.string(text), .int32(politeness)]
            ) { _ in }
        }
    }

    /// Closes both connections (the desktop is stopped by ``withApp(_:)``).
    func close() {
        accessibility.close()
        session.close()
    }
}
