// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: the log reads well in a terminal and in journalctl", .daemonTimeLimit, .onBlockingThreads, .serialized)
struct LogFormatTests {
    @Test("a start that fails logs no audio output it never used, and no line repeats its label")
    func failedStart() throws {
        let first = try DaemonProcess()
        let second = try DaemonProcess(socketPath: first.socketPath, waitForReady: false)
        #expect(second.waitForExit() == 1)
        let stderr = second.stderrText()
        #expect(stderr.contains("announced: another announced is already serving"), "\(stderr)")
        // (DaemonProcess logs at debug level; only debug lines may mention the output it opened.)
        #expect(
            !stderr.split(separator: "\n").contains { $0.contains("audio") && !$0.contains(" debug: ") }, "\(stderr)")
        #expect(!stderr.contains("[announced]") && !stderr.contains("announced: ["), "\(stderr)")
    }

    @Test("under journald every line starts with its syslog priority and names no label twice")
    func journalLines() throws {
        let daemon = try DaemonProcess(environment: ["JOURNAL_STREAM": "8:12345"])
        let client = try daemon.connect()
        client.send(announce(1, "Hello", #","lang":"xx""#))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
        let lines = daemon.stderrText().split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.wholeMatch(of: /<[0-7]>[^<\[].*/) != nil, "\(line)")
            #expect(!line.contains("[Announce") && !line.contains("[announced]"), "\(line)")
        }
        #expect(lines.contains { $0.hasPrefix("<6>ready audio=wav:") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<5>dispatcher: no voice speaks the language \"xx\"") }, "\(lines)")
    }
}
