// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import TestSupport
import Testing

@Suite("Daemon: espeak-ng crashes cost one post, not the daemon", .daemonTimeLimit, .onBlockingThreads)
struct EngineCrashTests {
    /// 100 times "s'": one word with 100 stacked `'s` suffixes overflows a buffer in
    /// TranslateWord3 of Debian's espeak-ng 1.51 (fixed upstream in espeak-ng PR #2495), and
    /// glibc aborts the process.
    static let crashingText = String(repeating: "s'", count: 100)

    /// Whether this machine's espeak-ng crashes on `crashingText` (the command-line tool, in a
    /// process of its own): a fixed espeak-ng must simply speak it.
    static func espeakCrashes(on text: String) throws -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", "en-us", "-w", "/dev/null", text]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitForExit()
        return process.terminationReason == .uncaughtSignal
    }

    @Test("a text that crashes espeak-ng finishes error, and the posts after it speak")
    func crashingText() throws {
        let crashes = try Self.espeakCrashes(on: Self.crashingText)
        let daemon = try DaemonProcess()
        let client = try daemon.connect()
        for round in 0..<2 {
            let crashing = 1 + 2 * round
            client.send(announce(crashing, Self.crashingText))
            let terminal = try #require(client.waitForTerminal(id: crashing))
            if crashes {
                #expect(terminal["reason"] == .string("error"))
                let message = terminal["message"]?.stringValue ?? ""
                #expect(message.contains("espeak-ng crashed while speaking this text"), "\(message)")
                #expect(message.contains("signal 6"), "glibc's abort: \(message)")
            } else {
                #expect(terminal["success"] == .bool(true))
            }
            client.send(announce(crashing + 1, "Still speaking"))
            let next = try #require(client.waitForTerminal(id: crashing + 1))
            #expect(next["success"] == .bool(true))
            #expect(client.lines(id: crashing + 1).contains { $0.event == "started" })
            #expect(try daemon.wavSamples(seq: crashing + 1).count > 10_000)
        }
        #expect(daemon.stop() == 0)
    }

    @Test("the helper killed mid-post: that post finishes error, the next one speaks")
    func helperKilled() throws {
        let (daemon, client, helper) = try Self.speakingLongPost()
        kill(helper, SIGKILL)
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal["reason"] == .string("error"))
        #expect(terminal["message"]?.stringValue?.contains("signal 9") == true)
        client.send(announce(2, "Back again"))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        let replacements = Self.children(of: daemon.process.processIdentifier)
        #expect(replacements.count == 1 && replacements != [helper], "a new helper: \(replacements)")
        #expect(daemon.stop() == 0)
    }

    @Test("a helper that stops responding is replaced: that post finishes error, the next one speaks")
    func helperStuck() throws {
        // The silence limit made 1 s (5 s for espeak-ng otherwise): the stuck helper is given up sooner.
        let (daemon, client, helper) = try Self.speakingLongPost(environment: ["ANNOUNCED_HELPER_SILENCE_MS": "1000"])
        // Stopped, it stands for espeak-ng caught in a loop: alive, but sending nothing.
        kill(helper, SIGSTOP)
        let terminal = try #require(client.waitForTerminal(id: 1))
        #expect(terminal["reason"] == .string("error"))
        let message = terminal["message"]?.stringValue ?? ""
        #expect(message.contains("stopped responding while speaking this text (nothing for 1 s;"), "\(terminal)")
        client.send(announce(2, "Back again"))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        #expect(daemon.stop() == 0)
    }

    /// A daemon (with `environment`) speaking a long post (id 1, about a minute of speech) and its one helper process.
    static func speakingLongPost(environment: [String: String] = [:]) throws -> (DaemonProcess, LineClient, Int32) {
        let daemon = try DaemonProcess(environment: environment)
        let client = try daemon.connect()
        client.send(announce(1, String(repeating: "A long announcement that is still being synthesized. ", count: 20)))
        #expect(client.waitFor("started", id: 1) != nil)
        let helpers = children(of: daemon.process.processIdentifier)
        try #require(helpers.count == 1, "one espeak-ng helper: \(helpers)")
        return (daemon, client, helpers[0])
    }

    /// The child processes of `pid`, from /proc.
    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}
