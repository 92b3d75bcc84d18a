// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The Spiel provider's setting (`speech_provider`) and its limits, with a real D-Bus client
/// (Fixtures/spiel-client.py) against the real daemon on a private session bus.
@Suite(
    "Daemon: the Spiel provider's setting and limits", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: SpielClient.isAvailable,
        "needs a session bus and python3-gi (apt-get install dbus-daemon python3-gi)")
)
struct SpielProviderLimitsTests {
    @Test("speech_provider off: the daemon never owns the provider's name; on, the same watch sees it owned")
    func off() throws {
        let session = try DesktopSession()
        try session.startSessionBus()
        let busAddress = try #require(session.busAddress)
        let watcher = try session.start("watch-name", "/usr/bin/python3", [SpielClient.script, "watch-name"])
        // The watcher prints "watching" once subscribed: its log changing is the event.
        let watching = waitForFile(session.logPath("watch-name"), toContain: "watching", timeout: 30)
        try #require(watching, "the watcher did not subscribe: \(session.log("watch-name"))")

        let off = try DaemonProcess(environment: [
            "DBUS_SESSION_BUS_ADDRESS": busAddress, "ANNOUNCED_SPEECH_PROVIDER": "off",
        ])
        // The screen reader watch has read org.a11y.Status (or failed to, without at-spi2-core) on
        // the daemon's session bus connection ("... on the session bus"): it serves.
        #expect(off.waitForStderr(containing: "on the session bus", timeout: 20))
        #expect(off.stop() == 0)
        #expect(!off.stderrText().contains("Spiel"), "\(off.stderrText())")

        let on = try DaemonProcess(environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress])
        #expect(on.waitForStderr(containing: "Spiel speech provider on the session bus", timeout: 20))
        #expect(on.stop() == 0)

        watcher.signal(SIGTERM)
        #expect(watcher.waitForExit() == 0)
        let lines = session.log("watch-name").split(separator: "\n")
        let seen = try JSONParser.parse(String(try #require(lines.last)))
        let owners = Set((seen["owners"]?.arrayValue ?? []).compactMap { $0.stringValue }.filter { !$0.isEmpty })
        #expect(owners.count == 1, "only the daemon with speech_provider on owned the name: \(seen.text)")
    }

    @Test("streams are bounded provider-wide: beyond SpeechProvider.maxStreams, LimitsExceeded that says what to do")
    func providerWideLimit() throws {
        let session = try DesktopSession()
        let daemon = try spielDaemon(session, environment: ["ANNOUNCED_MAX_PENDING_PER_CLIENT": "2"])
        let text = String(repeating: "This chapter goes on and on. ", count: 200)
        // Four streams from three clients (none over its own limit of 2), a fifth from a client
        // with one, then a third from a client with two.
        let held = try SpielClient(session: session).run(["hold", "en-us", text, "0", "1", "2", "0", "1", "0"])
        let requests = held["requests"]?.arrayValue ?? []
        try #require(requests.count == 6, "\(held.text)")
        #expect(requests.prefix(4).allSatisfy { $0["stream"] == .bool(true) }, "\(held.text)")
        #expect(requests[4]["error"]?.stringValue == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(
            requests[4]["message"]?.stringValue?.contains(
                "announced already has 4 Spiel streams open, the most it synthesizes at once") == true,
            "\(held.text)")
        #expect(requests[4]["message"]?.stringValue?.contains("ask again when one has ended") == true)
        #expect(requests[5]["error"]?.stringValue == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(
            requests[5]["message"]?.stringValue?.contains("this client already has 2 streams open") == true,
            "\(held.text)")
        // The client closed its ends: the four streams end, and a new one is served.
        #expect(daemon.waitForStderr(containing: "spiel stream ended", count: 4, timeout: 20))
        #expect(try SpielClient(session: session).stream(voice: "en-us", text: "Hello").samples.count > 1000)
        #expect(daemon.stop() == 0)
    }
}
