// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import DesktopBus
import Foundation
import Testing

/// Announcements from a real GTK 3 application (python3-gi, `Fixtures/announcing-app.py`) on a
/// private desktop: Xvfb, a session bus, at-spi-bus-launcher and its accessibility bus with
/// at-spi2-registryd (both D-Bus activated), the atk-bridge in the application.
@Suite(
    .onBlockingThreads,
    .enabled(if: DesktopParts.installed(DesktopParts.announcingDesktop), DesktopParts.note(DesktopParts.announcingDesktop))
)
struct ToolkitAnnouncementTests {
    @Test func anATKAnnouncementArrivesWithTheApplicationsName() async throws {
        let app = try await AnnouncingApp()
        defer { app.stop() }
        let accessibility = app.accessibility
        let announcements = try await within(30, "registering for object:announcement") { try await accessibility.announcements() }
        try await app.announce("Download complete", politeness: -1)
        let received = try await announcements.first(30, "the announcement")
        #expect(received?.text == "Download complete", "app log: \(app.desktop.log("python3"))")
        #expect(received?.politeness == .unspecified)
        // GTK 3's application accessible is named by the program name (g_set_prgname).
        #expect(received?.application == "announcing-app")
    }

    @Test func politenessComesFromDetail1InOrder() async throws {
        let app = try await AnnouncingApp()
        defer { app.stop() }
        let accessibility = app.accessibility
        let announcements = try await within(30, "registering for object:announcement") { try await accessibility.announcements() }
        try await app.announce("Saved", politeness: 1)
        try await app.announce("Battery low", politeness: 2)
        try await app.announce("Plain", politeness: 0)
        var received: [ToolkitAnnouncement] = []
        for _ in 0..<3 {
            if let next = try await announcements.first(30, "announcement \(received.count + 1)") { received.append(next) }
        }
        #expect(received.map(\.text) == ["Saved", "Battery low", "Plain"])
        #expect(received.map(\.politeness) == [.polite, .assertive, .unspecified])
        // The script's own connection has no accessible: the name is its process's.
        #expect(received.map(\.application) == ["python3", "python3", "python3"])
    }

    @Test func theStreamFinishesWhenTheConnectionCloses() async throws {
        let app = try await AnnouncingApp()
        defer { app.stop() }
        let announcements = try await app.accessibility.announcements()
        try await app.announce("Before", politeness: -1)
        #expect(try await announcements.first(30, "the announcement")?.text == "Before")
        app.accessibility.close()
        #expect(try await announcements.first(30, "the stream's end") == nil)
    }
}

/// The private desktop with the GTK application running and both buses connected.
struct AnnouncingApp {
    let desktop: PrivateDesktop
    let session: BusConnection
    let accessibility: AccessibilityBus

    init() async throws {
        desktop = try PrivateDesktop()
        do {
            try desktop.startDisplay()
            session = try BusConnection.session(address: desktop.busAddress)
            // Wait for the application's name through the bus's own signal.
            let (owners, ownerInput) = AsyncStream.makeStream(of: String.self)
            let match = try await session.addMatch(
                "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.announced.TestApp'",
                handler: { signal in
                    _ = try? signal.readString()
                    _ = try? signal.readString()
                    if let owner = try? signal.readString(), !owner.isEmpty { ownerInput.yield(owner) }
                },
                finished: { ownerInput.finish() }
            )
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/announcing-app.py").path
            try desktop.start("/usr/bin/python3", [script], extra: ["GTK_MODULES": "gail:atk-bridge"])
            guard try await owners.first(60, "the GTK application's start") != nil else {
                throw DeadlinePassed(what: "the application's bus name")
            }
            session.remove(match)
            accessibility = try await AccessibilityBus.connect(session: session)
        } catch {
            desktop.stop()
            throw error
        }
    }

    /// Asks the application to announce `text` (politeness < 0: through ATK).
    func announce(_ text: String, politeness: Int32) async throws {
        let session = self.session
        try await within(30, "the application's Announce") {
            try await session.call(
                destination: "org.announced.TestApp", path: "/org/announced/TestApp", interface: "org.announced.TestApp",
                member: "Announce",
                arguments: [.string(text), .int32(politeness)]
            ) { _ in }
        }
    }

    func stop() {
        accessibility.close()
        session.close()
        desktop.stop()
    }
}
