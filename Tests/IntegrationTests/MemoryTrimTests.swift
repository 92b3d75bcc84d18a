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
    /// A daemon whose heap was trimmed a quiet second after its start, and again a quiet second
    /// after one post (slept on an event loop's timer, `EventLoopSleep`); the names of its threads
    /// then.
    static func threadsAfterTwoTrims() throws -> [String] {
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        #expect(daemon.waitForStderr(containing: "heap trimmed", timeout: 30), "no trim a quiet second after start")
        client.send(announce(1, "Saved"))
        try #require(client.waitForTerminal(id: 1)?["success"] == .bool(true))
        #expect(daemon.waitForStderr(containing: "heap trimmed", count: 2, timeout: 30), "no trim after the post")
        let names = threadNames(of: daemon.process.processIdentifier)
        try #require(!names.isEmpty)
        return names
    }

    @Test("the heap is trimmed after start and again after a post, on the one thread of the blocking pool")
    func trimmedAfterStartAndAfterAPost() throws {
        let pool = try Self.threadsAfterTwoTrims().filter { $0.hasPrefix("SGLTN-TP-") }
        #expect(pool == ["SGLTN-TP-#0"], "the blocking pool's threads: \(pool)")
    }

    /// The daemon's tasks run on NIO's event loops and sleep on their timers (`EventLoopSleep`), so
    /// no worker of libdispatch's global queues ever starts: the first one would start libdispatch's
    /// pool monitor, which wakes the daemon once a second for the rest of its life (figure 16 in
    /// Benchmarks/README.md). Those workers are named after their queue, `com.apple.root.<qos>-qos`
    /// (the kernel keeps the last 15 bytes); the overcommit queues' threads (`…-qos.overcommit`: the
    /// main queue, the bus's queue) are not watched by the monitor.
    @Test("an idle daemon has started no worker of libdispatch's global queues, so nothing wakes it each second")
    func noGlobalQueueWorker() throws {
        let names = try Self.threadsAfterTwoTrims()
        #expect(names.filter { $0.hasSuffix("-qos") } == [], "the daemon's threads: \(names)")
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
