// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The long-lived children tests start (PipeWire, buses, socket-activated daemons) hold nothing
/// of the test process: a client's standard input pipe they inherited would never reach its end
/// when the test closes it, and the client would wait for input until it is killed.
@Suite("SpawnedProcess: a child inherits no descriptor of the test process", .onBlockingThreads)
struct SpawnedProcessTests {
    @Test("a Foundation Pipe open while a child starts is not among the child's descriptors")
    func inheritsNoPipe() throws {
        expectBlockingAllowed("starting sleep")
        let pipe = Pipe()
        let child = try SpawnedProcess(executable: "/bin/sleep", arguments: ["30"], environment: [:], output: .pipe)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        // The child's dynamic loader holds the libraries it maps open for a moment after exec:
        // its descriptors are the program's once sleep sleeps.
        try #require(Self.waitUntilSleeping(child.pid), "sleep did not reach its sleep")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").sorted()
        let targets = descriptors.map {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/\($0)")) ?? "?"
        }
        #expect(
            descriptors == ["0", "1", "2"],
            "the child's descriptors: \(zip(descriptors, targets).map { "\($0) -> \($1)" })")
        withExtendedLifetime(pipe) {}
    }

    // The Spiel figure's private bus, started from a libdispatch worker, inherited its blocked
    // SIGTERM: `stop()` sent SIGTERM and waited for it forever.
    @Test("a child started from a thread that blocks SIGTERM and ignores SIGPIPE has every signal at its default")
    func signalsAtDefault() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let ignored = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, ignored) }
        let child = try SpawnedProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: [:], output: .discarded)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        let status = try String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8)
        let masks = Dictionary(
            uniqueKeysWithValues: status.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, ["SigBlk", "SigIgn"].contains(parts[0]) else { return nil }
                return (String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces))
            })
        let blockedInChild = masks["SigBlk"].flatMap { UInt64($0, radix: 16) }
        let ignoredInChild = masks["SigIgn"].flatMap { UInt64($0, radix: 16) }
        #expect(blockedInChild == 0, "blocked in the child: \(masks["SigBlk"] ?? "?")")
        // Signals 1 to 31 (glibc keeps 32 and 33 for itself, and no process can reset them).
        #expect(ignoredInChild.map { $0 & 0x7fff_ffff } == 0, "ignored in the child: \(masks["SigIgn"] ?? "?")")
    }

    /// Polls `/proc/PID/wchan` (no event tells when a child's program has started) until the
    /// process waits in a nanosleep; false after 10 s.
    static func waitUntilSleeping(_ pid: pid_t) -> Bool {
        pollUntil(every: 0.001, timeout: 10) {
            ((try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? "").contains("nanosleep")
        }
    }

    @Test("a client's standard input reaches its end when the test closes it, though a child was started while it ran")
    func clientInputEnds() throws {
        let client = try AnnouncectlProcess([], executable: URL(fileURLWithPath: "/bin/cat"))
        let child = try SpawnedProcess(
            executable: "/bin/sleep", arguments: ["30"], environment: [:], output: .discarded)
        defer {
            child.signal(SIGKILL)
            _ = child.waitForExit()
        }
        client.finishInput("ends\n")
        let ended = client.finish(timeout: 10)
        #expect(ended.status == 0 && ended.stdout == "ends\n", "cat was killed waiting for its input to end: \(ended)")
    }
}
