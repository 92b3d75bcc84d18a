// SPDX-License-Identifier: GPL-3.0-or-later
#if DEBUG
    import AnnounceProtocol
    import BlockingThreads
    import EngineSandbox
    import Foundation
    import TestSupport
    import Testing

    @Suite(
        "Daemon: an engine that breaks its sandbox costs one post, not the daemon", .daemonTimeLimit, .onBlockingThreads
    )
    struct SandboxViolationTests {
        /// `text` as the inside of a JSON string (the probe's prefix is a control character).
        static func json(_ text: String) -> String {
            text.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        }

        @Test("a forbidden system call ends the helper: that post finishes error naming the call, the next one speaks")
        func forbiddenCall() throws {
            let daemon = try DaemonProcess()
            let client = try daemon.connect()
            for round in 0..<2 {
                let breaking = 1 + 2 * round
                // The debug helper's probe opens a socket, which its sandbox refuses.
                client.send(announce(breaking, Self.json(SandboxProbe.openSocket.text())))
                let terminal = try #require(client.waitForTerminal(id: breaking))
                #expect(terminal["reason"] == .string("error"))
                let message = terminal["message"]?.stringValue ?? ""
                #expect(
                    message.contains("the speech engine was stopped for breaking its sandbox (system call socket)"),
                    "\(message)")
                client.send(announce(breaking + 1, "Still speaking"))
                let next = try #require(client.waitForTerminal(id: breaking + 1))
                #expect(next["success"] == .bool(true))
                #expect(try daemon.wavSamples(seq: breaking + 1).count > 10_000)
            }
            #expect(
                daemon.waitForStderr(containing: "espeak-ng broke its sandbox", count: 2, timeout: 10),
                "\(daemon.stderrText())")
            #expect(daemon.stop() == 0)
        }
    }
#endif
