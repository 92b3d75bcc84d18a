// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// A private desktop with the real daemon on it: a session bus (at-spi-bus-launcher and its
/// accessibility bus D-Bus activated from it), Xvfb, and GTK 3 applications from python3-gi
/// (`Tests/DesktopBusTests/Fixtures/announcing-app.py`) that announce through ATK's
/// `announcement` signal (or, for a politeness, the same D-Bus signal with `detail1`), asked
/// to with `dbus-send`. The daemon records each post to `wav:DIR`; a `speech` watcher sees its
/// lines.
final class ToolkitDesktop {
    static let programs: [(path: String, package: String)] = [
        ("/usr/bin/dbus-daemon", "dbus"), ("/usr/bin/dbus-send", "dbus"),
        ("/usr/libexec/at-spi-bus-launcher", "at-spi2-core"), ("/usr/bin/Xvfb", "xvfb"),
        ("/usr/lib/python3/dist-packages/gi/__init__.py", "python3-gi"),
        ("/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib", "gir1.2-gtk-3.0"),
    ]
    static var isInstalled: Bool { programs.allSatisfy { FileManager.default.fileExists(atPath: $0.path) } }
    static let missing: Comment =
        "needs a GTK 3 desktop (apt-get install dbus at-spi2-core xvfb python3-gi gir1.2-gtk-3.0)"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../DesktopBusTests/Fixtures/announcing-app.py").standardized.path

    let session: DesktopSession
    let daemon: DaemonProcess
    let watcher: LineClient

    /// Starts the desktop and the daemon on it with `environment` (settings), and waits until the
    /// daemon listens on the accessibility bus (with `waitForBus`).
    init(environment: [String: String] = [:], arguments: [String] = [], waitForBus: Bool = true) throws {
        session = try DesktopSession()
        try session.startSessionBus()
        try session.startDisplay()
        var environment = environment
        guard let busAddress = session.busAddress else { throw SSIPClientError("the session bus has no address") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        daemon = try DaemonProcess(arguments: arguments, environment: environment)
        if waitForBus {
            #expect(
                daemon.waitForStderr(containing: "listening on the accessibility bus", timeout: 60),
                "the daemon's log: \(daemon.stderrSoFar())")
        }
        watcher = try speechWatcher(daemon)
    }

    deinit {
        // The daemon first: stopping the session ends every process that names its folder.
        daemon.stop()
        session.stop()
    }

    /// Starts the GTK application `name` (nil: `announcing-app` on `org.announced.TestApp`) and
    /// waits until it owns its bus name.
    func startApp(_ name: String? = nil) throws {
        let app = try session.start(
            name ?? "announcing-app", "/usr/bin/python3", [Self.script] + (name.map { [$0] } ?? []),
            extra: ["GTK_MODULES": "gail:atk-bridge"], output: .pipe)
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("ready\n") {
            let chunk = try #require(app.output).availableData
            if chunk.isEmpty { throw SSIPClientError("the GTK application ended before it was ready") }
            printed += chunk
        }
    }

    /// Has the application `name` announce `text` (politeness < 0: through ATK, else the signal
    /// with that `detail1`); returns once it has sent it.
    func announce(_ text: String, politeness: Int32 = -1, app name: String? = nil) throws {
        try call(app: name, "Announce", ["string:\(text)", "int32:\(politeness)"])
    }

    /// Has the application `name` announce `text 1` ... `text COUNT` as fast as it can.
    func announceMany(_ text: String, count: Int, app name: String? = nil) throws {
        try call(app: name, "AnnounceMany", ["string:\(text)", "int32:\(count)", "int32:-1"])
    }

    /// Sets `org.a11y.Status.ScreenReaderEnabled` the way GNOME does, and waits until the daemon
    /// logged the change.
    func setScreenReader(_ enabled: Bool) throws {
        let result = try session.run(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.a11y.Bus", "/org/a11y/bus",
                "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status", "string:ScreenReaderEnabled",
                "variant:boolean:\(enabled)",
            ])
        #expect(result.status == 0, "dbus-send: \(result.output)")
        #expect(
            daemon.waitForStderr(containing: "screen reader status changed running=\(enabled)", timeout: 30),
            "the daemon's log: \(daemon.stderrSoFar())")
    }

    private func call(app name: String?, _ method: String, _ arguments: [String]) throws {
        let result = try session.run(
            "/usr/bin/dbus-send",
            [
                "--session", "--print-reply", "--dest=org.announced.TestApp" + (name.map { ".\($0)" } ?? ""),
                "/org/announced/TestApp", "org.announced.TestApp.\(method)",
            ] + arguments)
        #expect(result.status == 0, "dbus-send \(method): \(result.output)")
    }

    /// The `started` line of the post saying `text`.
    func started(_ text: String, timeout: Double = 30) -> JSONValue? {
        watcher.waitFor(timeout: timeout) {
            $0.event == "speech" && $0["state"] == .string("started") && $0["text"]?.stringValue == text
        }
    }

    /// The terminal `speech` line of the post `seq`.
    func finished(seq: Int64, timeout: Double = 30) -> JSONValue? {
        watcher.waitFor(timeout: timeout) {
            $0.event == "speech" && $0["state"] == .string("finished") && $0["seq"] == .integer(seq)
        }
    }

    /// Every `started` line seen so far.
    var startedTexts: [String] {
        watcher.received.filter { $0.event == "speech" && $0["state"] == .string("started") }
            .compactMap { $0["text"]?.stringValue }
    }
}

@Suite(
    "Toolkit announcements spoken by the daemon (a GTK 3 app on a private desktop)", .daemonTimeLimit,
    .onBlockingThreads,
    .enabled(if: ToolkitDesktop.isInstalled, ToolkitDesktop.missing)
)
struct ToolkitAnnouncementSpeechTests {
    @Test func anATKAnnouncementIsSpokenAndHeardUnderItsApplicationsName() throws {
        let desktop = try ToolkitDesktop(environment: ["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on"])
        try desktop.startApp()
        try desktop.announce("Download complete")
        let started = try #require(desktop.started("Download complete"), "\(desktop.watcher.received)")
        #expect(started["client"] == .string("atspi:announcing-app"))
        let seq = try #require(started["seq"]?.integerValue)
        #expect(desktop.finished(seq: seq)?["success"] == .bool(true))
        // The history keeps it under the application's name.
        let kept = try #require(try historyEntries(desktop.watcher, id: 90).first)
        #expect(kept["client"] == .string("atspi:announcing-app") && kept["seq"] == .integer(seq))
        #expect(kept["text"] == .string("Download complete") && kept["success"] == .bool(true))
        let heard = WAVFile.trimmed(try desktop.daemon.wavSamples(seq: Int(seq)))
        let reference = WAVFile.trimmed(try espeakReference(text: "Download complete", voice: "en-us", rate: 175))
        #expect(
            !heard.isEmpty && heard.elementsEqual(reference),
            "heard \(heard.count) samples, espeak-ng's \(reference.count)")
    }

    @Test func offNeverSpeaksNorListens() throws {
        let desktop = try ToolkitDesktop(environment: ["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "off"], waitForBus: false)
        try desktop.startApp()
        try desktop.announce("Never spoken")
        // Two native posts in line after it (the app returned once it had sent it): an
        // announcement posted any time before the first one ends would start before the second.
        let client = try desktop.daemon.connect()
        client.send(#"{"op":"announce","id":1,"text":"Native one","queue":true}"#)
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        client.send(#"{"op":"announce","id":2,"text":"Native two","queue":true}"#)
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        #expect(desktop.started("Native two") != nil)
        #expect(desktop.startedTexts == ["Native one", "Native two"])
        #expect(!desktop.daemon.stderrSoFar().contains("listening on the accessibility bus"))
    }

    @Test func anAssertiveAnnouncementInterruptsAPoliteOne() throws {
        let desktop = try ToolkitDesktop(environment: ["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on"])
        try desktop.startApp()
        try desktop.announce(interruptibleText, politeness: 1)
        let polite = try #require(desktop.started(interruptibleText))
        #expect(polite["client"] == .string("atspi:python3"))
        try desktop.announce("Battery low", politeness: 2)
        let politeSeq = try #require(polite["seq"]?.integerValue)
        let politeEnd = try #require(desktop.finished(seq: politeSeq))
        #expect(politeEnd["success"] == .bool(false) && politeEnd["reason"] == .string("interrupted"), "\(politeEnd)")
        let assertive = try #require(desktop.started("Battery low"))
        let assertiveSeq = try #require(assertive["seq"]?.integerValue)
        #expect(desktop.finished(seq: assertiveSeq)?["success"] == .bool(true))
    }

    @Test func aPoliteAnnouncementWaitsForTheOneSpeaking() throws {
        let desktop = try ToolkitDesktop(environment: ["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on"])
        try desktop.startApp()
        try desktop.announce("First in line", politeness: 1)
        let first = try #require(desktop.started("First in line"))
        try desktop.announce("Second in line", politeness: 1)
        let firstSeq = try #require(first["seq"]?.integerValue)
        #expect(desktop.finished(seq: firstSeq)?["success"] == .bool(true))
        #expect(desktop.started("Second in line") != nil)
    }

    @Test func anIgnoredApplicationIsNotSpokenAndOthersAre() throws {
        let desktop = try ToolkitDesktop(environment: [
            "ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on", "ANNOUNCED_TOOLKIT_ANNOUNCEMENTS_IGNORE": "noisy",
        ])
        try desktop.startApp("noisy")
        try desktop.startApp("quiet")
        try desktop.announce("From the ignored app", app: "noisy")
        #expect(
            desktop.daemon.waitForStderr(containing: "its application is in toolkit_announcements_ignore", timeout: 30))
        try desktop.announce("From the other app", app: "quiet")
        let started = try #require(desktop.started("From the other app"))
        #expect(started["client"] == .string("atspi:quiet"))
        #expect(desktop.startedTexts == ["From the other app"])
    }

    @Test func aFloodingAppFillsOnlyItsOwnShare() throws {
        // Each application has a connection's limits: with max_pending_per_client 3, the flood
        // keeps at most 3 posts, the rest dropped queue-full under its own name.
        let desktop = try ToolkitDesktop(environment: [
            "ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on", "ANNOUNCED_MAX_PENDING_PER_CLIENT": "3",
        ])
        try desktop.startApp("flooder")
        try desktop.startApp("other")
        try desktop.announceMany("Flood", count: 60, app: "flooder")
        try desktop.announce("From the other app", app: "other")
        let native = try desktop.daemon.connect()
        native.send(#"{"op":"announce","id":1,"text":"From a native client","queue":true}"#)
        let other = try #require(desktop.started("From the other app", timeout: 60), "\(desktop.watcher.received)")
        #expect(other["client"] == .string("atspi:other"))
        let otherSeq = try #require(other["seq"]?.integerValue)
        #expect(desktop.finished(seq: otherSeq)?["success"] == .bool(true))
        #expect(native.waitForTerminal(id: 1, timeout: 60)?["success"] == .bool(true))
        let dropped = desktop.watcher.received.filter { $0.event == "speech" && $0["state"] == .string("dropped") }
        #expect(
            dropped.count >= 50
                && dropped.allSatisfy {
                    $0["client"] == .string("atspi:flooder") && $0["reason"] == .string("queue-full")
                }, "\(dropped)")
        #expect(desktop.startedTexts.filter { $0.hasPrefix("Flood") }.count <= 4, "\(desktop.startedTexts)")
    }
}

@Suite("Toolkit announcements without the desktop's buses", .daemonTimeLimit, .onBlockingThreads)
struct ToolkitAnnouncementNoBusTests {
    @Test func noSessionBusIsOneLogLineAndTheSocketServes() throws {
        let daemon = try DaemonProcess(environment: [
            "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/announced-test/bus",
            "ANNOUNCED_TOOLKIT_ANNOUNCEMENTS": "on",
        ])
        let client = try daemon.connect()
        client.send(#"{"op":"announce","id":1,"text":"Still here"}"#)
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        let log = daemon.stderrText()
        // One line for everything the session bus serves: the screen reader's status, the toolkit
        // announcements and the Spiel provider.
        let busLines = log.split(separator: "\n").filter { $0.contains("bus") && !$0.contains(" debug: ") }
        #expect(busLines.count == 1, "\(busLines)")
        #expect(busLines.first?.contains("no D-Bus session bus") == true)
        #expect(
            busLines.first?.contains(
                "screen_reader is false, toolkit announcements are not spoken, announced is not a Spiel speech provider:"
            )
                == true)
        #expect(log.split(separator: "\n").filter { $0.contains("Spiel") }.count == 1, "\(log)")
        #expect(busLines.first?.contains("/nonexistent/announced-test/bus") == true)
    }
}

/// `auto`, which looks at the whole machine's processes for Orca: its tests run one at a time, so
/// that the stand-in Orca of one does not silence the other.
@Suite(
    "Toolkit announcements with auto: silent while a screen reader runs", .daemonTimeLimit, .onBlockingThreads,
    .serialized,
    .enabled(if: ToolkitDesktop.isInstalled, ToolkitDesktop.missing)
)
struct ToolkitAnnouncementAutoTests {
    @Test func autoIsSilentWhileAScreenReaderRunsAndSpeaksAfter() throws {
        let desktop = try ToolkitDesktop()
        #expect(
            desktop.daemon.waitForStderr(
                containing: "screen reader status followed on the session bus running=false", timeout: 30))
        try desktop.startApp()
        try desktop.setScreenReader(true)
        try desktop.announce("Said by the screen reader")
        #expect(desktop.daemon.waitForStderr(containing: "toolkit announcement left to the screen reader", timeout: 30))
        try desktop.setScreenReader(false)
        try desktop.announce("Said by announced")
        let started = try #require(desktop.started("Said by announced"))
        #expect(started["client"] == .string("atspi:announcing-app"))
        #expect(desktop.startedTexts == ["Said by announced"])
    }

    @Test func autoIsSilentWhileAnOrcaProcessRuns() throws {
        let desktop = try ToolkitDesktop()
        try desktop.startApp()
        // A process named orca (a copy of sleep), as the desktop's Orca is, stopped with the session.
        let orca = desktop.session.directory.appendingPathComponent("orca")
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: orca.path)
        try desktop.session.start("orca", orca.path, ["600"])
        try desktop.announce("Said by Orca")
        #expect(desktop.daemon.waitForStderr(containing: "toolkit announcement left to the screen reader", timeout: 30))
        let client = try desktop.daemon.connect()
        client.send(#"{"op":"announce","id":1,"text":"Native one","queue":true}"#)
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(desktop.started("Native one") != nil)
        #expect(desktop.startedTexts == ["Native one"])
    }
}
