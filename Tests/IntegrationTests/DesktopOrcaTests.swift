// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// Orca 43, the real screen reader, headless (shared/notes/desktop-clients.md): a private D-Bus
/// session bus (AT-SPI is activated from it), Xvfb, a GTK dialog (`zenity --entry`), and
/// `xdotool` pressing Tab. Orca runs from `Tests/DesktopClients/orca-private.py` and reaches the
/// daemon's SSIP socket through an ``SSIPWireTap``, so the test sees what Orca sent and exactly
/// what it received.
enum OrcaDesktop {
    /// The programs the session needs, by name, with their paths when installed.
    static let programs: [(name: String, path: String?)] = [
        ("orca", installedTool("orca")), ("Xvfb", installedTool("Xvfb")), ("xdotool", installedTool("xdotool")),
        ("zenity", installedTool("zenity")), ("dbus-daemon", installedTool("dbus-daemon")),
        (
            "at-spi-bus-launcher",
            FileManager.default.isExecutableFile(atPath: "/usr/libexec/at-spi-bus-launcher")
                ? "/usr/libexec/at-spi-bus-launcher" : nil
        ),
    ]
    static var isInstalled: Bool { programs.allSatisfy { $0.path != nil } }
    static let missing: Comment =
        "needs Orca, Xvfb, xdotool, zenity and AT-SPI (apt-get install orca xvfb xdotool zenity at-spi2-core dbus)"
    static func path(_ name: String) throws -> String { try #require(programs.first { $0.name == name }?.path) }

    /// The client name Orca gives itself.
    static let clientName = "unknown:Orca:default"

    /// Orca's preferences: speech through speech-dispatcher, no key echo (a key press would
    /// otherwise be spoken as well and cancel the focus speech), no first-start wizard.
    static let settings = """
        {"general": {"speechServerFactory": "speechdispatcherfactory", "enableSpeech": true, "enableKeyEcho": false,
                     "enableEchoByCharacter": false, "enableEchoByWord": false, "firstStart": false},
         "profiles": {"default": {"profile": ["Default", "default"]}},
         "pronunciations": {}, "keybindings": {}}
        """

    /// The mark names of SSML `text`, in order.
    static func markNames(_ text: String) -> [String] {
        text.components(separatedBy: "<mark name=\"").dropFirst().compactMap { $0.components(separatedBy: "\"").first }
    }
}

/// A running Orca session against an SSIP daemon: the daemon, a `speech` watcher on its main
/// socket, the tap Orca talks through, and the desktop.
final class OrcaRun {
    let ssip: SSIPDaemon
    let watcher: LineClient
    let session: DesktopSession
    let tap: SSIPWireTap

    /// Starts the daemon, the desktop, `zenity --entry` (title "Rename", label "Filename") and
    /// Orca, and waits until Orca has spoken the dialog's focused entry to its end.
    init() throws {
        ssip = try SSIPDaemon()
        watcher = try speechWatcher(ssip.daemon)
        session = try DesktopSession()
        tap = try SSIPWireTap(
            path: session.runtime.appendingPathComponent("ssip-tap.sock").path, upstream: ssip.ssipPath)
        try session.startSessionBus()
        try session.startDisplay()
        let prefs = session.directory.appendingPathComponent("orca-prefs")
        try FileManager.default.createDirectory(at: prefs, withIntermediateDirectories: true)
        try Data(OrcaDesktop.settings.utf8).write(to: prefs.appendingPathComponent("user-settings.conf"))
        try session.start(
            "zenity", try OrcaDesktop.path("zenity"), ["--entry", "--title", "Rename", "--text", "Filename"])
        // Not /usr/bin/orca: it kills (--replace) or gives way to any other process named orca
        // of this user, another session's included (see the launcher).
        try session.start(
            "orca", "/usr/bin/python3", [desktopClients.appendingPathComponent("orca-private.py").path, prefs.path],
            extra: ["SPEECHD_ADDRESS": "unix_socket:\(tap.path)"]
        )
        // Orca says "Screen reader on", the dialog and its focused entry ("Filename text").
        let entry = try #require(
            watcher.waitFor(timeout: 120) {
                self.isOrcaSpeech($0, "started") && $0["text"]?.stringValue?.contains("Filename") == true
            },
            "Orca never spoke the entry. Orca's output: \(session.log("orca")) zenity's: \(session.log("zenity"))"
        )
        try #require(
            watcher.waitForSpeech("finished", seq: Int(try #require(entry["seq"]?.integerValue)), timeout: 60) != nil)
    }

    deinit {
        session.stop()
        tap.stop()
    }

    /// Whether `line` is a `speech` line of `state` about one of Orca's messages.
    func isOrcaSpeech(_ line: JSONValue, _ state: String) -> Bool {
        line.event == "speech" && line["state"]?.stringValue == state
            && line["client"]?.stringValue == OrcaDesktop.clientName
    }

    /// The next of Orca's messages to start whose text holds every one of `words`.
    func waitForOrcaMessage(_ words: [String], timeout: Double = 60) -> JSONValue? {
        watcher.waitFor(timeout: timeout) { line in
            self.isOrcaSpeech(line, "started") && words.allSatisfy { line["text"]?.stringValue?.contains($0) == true }
        }
    }

    /// Presses `keys` (xdotool key names) in the dialog.
    func press(_ keys: String...) throws {
        let result = try session.run(try OrcaDesktop.path("xdotool"), ["key", "--delay", "0"] + keys)
        #expect(result.status == 0, "xdotool: \(result.output)")
    }

    /// Orca's connection through the tap, once the server's answer to message `id` has ended
    /// with 702 or 703.
    func orcaConnection(ending id: Int, timeout: Double = 30) -> Int? {
        tap.waitForConnection(timeout: timeout) { server, client in
            client.contains("SET self CLIENT_NAME \(OrcaDesktop.clientName)")
                && (server.contains("702-\(id)") || server.contains("703-\(id)"))
        }
    }
}

@Suite(
    "Desktop: Orca 43 speaking through the daemon's SSIP socket", .daemonTimeLimit, .onBlockingThreads,
    .enabled(if: OrcaDesktop.isInstalled, OrcaDesktop.missing)
)
struct DesktopOrcaTests {
    @Test(
        "Tab moves focus to a button: Orca speaks it, and its SSML marks reach Orca as 700 events, in order, between 701 and 702"
    )
    func focusMoveIsSpokenWithMarks() throws {
        let orca = try OrcaRun()
        try orca.press("Tab")
        let button = try #require(
            orca.waitForOrcaMessage(["Cancel", "button"]), "\(orca.watcher.received.map(\.text))")
        let id = Int(try #require(button["seq"]?.integerValue))
        let finished = try #require(orca.watcher.waitForSpeech("finished", seq: id))
        #expect(finished["success"] == .bool(true), "spoken to its end: \(finished.text)")
        let ssml = try #require(button["text"]?.stringValue)
        let marks = OrcaDesktop.markNames(ssml)
        #expect(marks.count >= 3, "Orca marks every word: \(ssml)")
        let connection = try #require(orca.orcaConnection(ending: id))
        #expect(orca.tap.messageIDs(connection).contains(id), "the SSIP message id is the daemon's seq")
        #expect(orca.tap.events(connection, messageID: id) == ["701"] + marks.map { "700 \($0)" } + ["702"])
        #expect(
            orca.tap.clientLines(connection).contains("SET self NOTIFICATION index_marks on"),
            "Orca asked for the marks")
        // What the user hears: the button's words, in the daemon's recording of that message.
        #expect(!WAVFile.trimmed(try orca.ssip.daemon.wavSamples(seq: id)).isEmpty)
    }

    @Test(
        "Tab while Orca speaks the last focus: its CANCEL self is answered 213, then the message ends 703; the new focus ends 702"
    )
    func focusMovesWhileSpeaking() throws {
        let orca = try OrcaRun()
        try orca.press("Tab")
        let cancel = try #require(
            orca.waitForOrcaMessage(["Cancel", "button"]), "\(orca.watcher.received.map(\.text))")
        let cancelID = Int(try #require(cancel["seq"]?.integerValue))
        // The Cancel button's words have begun playing: the next focus change cuts them short.
        try orca.press("Tab")
        let ok = try #require(orca.waitForOrcaMessage(["OK", "button"]), "\(orca.watcher.received.map(\.text))")
        let okID = Int(try #require(ok["seq"]?.integerValue))
        let interrupted = try #require(orca.watcher.waitForSpeech("finished", seq: cancelID))
        #expect(
            interrupted["success"] == .bool(false) && interrupted["reason"] == .string("cancelled"),
            "\(interrupted.text)")
        #expect(try #require(orca.watcher.waitForSpeech("finished", seq: okID))["success"] == .bool(true))
        let connection = try #require(orca.orcaConnection(ending: okID))
        #expect(orca.tap.events(connection, messageID: cancelID).first == "701")
        #expect(orca.tap.events(connection, messageID: cancelID).last == "703", "begun, then cancelled")
        #expect(orca.tap.events(connection, messageID: okID).last == "702")
        // On the wire: the 213 of the CANCEL self Orca sent for the new focus comes before the
        // 703 it caused about the Cancel button's message (shared/ssip.md §7).
        let lines = orca.tap.serverLines(connection)
        let queued = try #require(lines.firstIndex(of: "225-\(cancelID)"), "\(lines)")
        let canceled = try #require(lines.firstIndex(of: "703-\(cancelID)"), "\(lines)")
        #expect(queued < canceled && lines[queued..<canceled].contains("213 OK CANCELED"), "\(lines)")
    }
}
