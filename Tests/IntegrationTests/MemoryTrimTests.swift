// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Testing

/// The daemon's `MemoryTrimmer`: a quiet second after start, and after each burst of posts, it gives
/// the freed heap back (`malloc_trim`, logged `heap trimmed`), on NIO's thread pool for blocking
/// work (one thread, `SGLTN-TP-#0`), not on a thread of Swift's cooperative pool.
@Suite("Daemon: the heap given back after a quiet second", .daemonTimeLimit, .onBlockingThreads)
struct MemoryTrimTests {
    @Test("the heap is trimmed after start and again after a post, on the one thread of the blocking pool")
    func trimmedAfterStartAndAfterAPost() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        #expect(daemon.waitForStderr(containing: "heap trimmed", timeout: 30), "no trim a quiet second after start")
        client.send(announce(1, "Saved"))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.waitForStderr(containing: "heap trimmed", count: 2, timeout: 30), "no trim after the post")
        let pool = Self.threadNames(of: daemon.process.processIdentifier).filter { $0.hasPrefix("SGLTN-TP-") }
        #expect(pool == ["SGLTN-TP-#0"], "the blocking pool's threads: \(pool)")
    }

    /// The names (`/proc/PID/task/TID/comm`) of the threads of process `pid`.
    static func threadNames(of pid: Int32) -> [String] {
        let tasks = "/proc/\(pid)/task"
        let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return ids.compactMap { id in
            (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }
}
