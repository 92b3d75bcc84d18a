// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Testing

/// The daemon releases the pages only starting up ran (`CAnnounceLinux_release_read_only_pages`)
/// when it serves, and once more in its first quiet period: start-up goes on after READY=1 (the
/// service group starts its services), and what it ran then would otherwise stay resident.
@Suite("Daemon: start-up pages released", .onBlockingThreads)
struct StartupReleaseTests {
    @Test("released at READY=1 and once more in the first quiet second; not again after later posts")
    func releasedTwice() throws {
        let daemon = try DaemonProcess()
        let line = "start-up pages released"
        #expect(daemon.waitForStderr(containing: line, count: 1, timeout: 30))
        #expect(daemon.waitForStderr(containing: "heap trimmed", count: 1, timeout: 30))
        #expect(daemon.waitForStderr(containing: line, count: 2, timeout: 30))
        // Another post and quiet period: the heap is trimmed again, the pages are not released
        // again (the next post after an idle spell must not wait for its code to fault back in).
        let client = try daemon.connect()
        client.send(#"{"op":"announce","id":1,"text":"Saved"}"#)
        #expect(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.waitForStderr(containing: "heap trimmed", count: 2, timeout: 30))
        _ = daemon.stop()
        let log = daemon.stderrText()
        #expect(log.components(separatedBy: line).count - 1 == 2, "\(log)")
    }
}
