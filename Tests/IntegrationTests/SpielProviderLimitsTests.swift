// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import Testing

/// The Spiel provider's setting (`speech_provider`) and its limits, with a real D-Bus client
/// (Fixtures/spiel-client.py) against the real daemon on a private session bus.
@Suite(
    "Daemon: the Spiel provider's setting and limits", .onBlockingThreads,
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
        var watching = false
        for _ in 0..<300 where !watching {
            watching = session.log("watch-name").contains("watching")
            if !watching { usleep(100_000) }
        }
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
}
