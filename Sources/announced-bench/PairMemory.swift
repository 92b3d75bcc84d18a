// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// One process's memory from /proc/PID/smaps_rollup, in MiB: resident (RSS) and proportional
/// (PSS: each shared page divided by the processes that map it), each split into anonymous
/// memory (heap, stacks) and file-backed pages (code and data of the executable and libraries).
struct MemoryRollup {
    var rss = 0.0
    var anonymous = 0.0
    var pss = 0.0
    var pssAnonymous = 0.0
    var pssFile = 0.0

    var fileBacked: Double { rss - anonymous }

    init() {}

    init(pid: Int32) {
        guard let file = fopen("/proc/\(pid)/smaps_rollup", "r") else {
            rss = .nan
            return
        }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let fields = text.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3, let kibibytes = Double(fields[1]) else { continue }
            let mebibytes = kibibytes / 1024
            switch fields[0] {
            case "Rss:": rss = mebibytes
            case "Anonymous:": anonymous = mebibytes
            case "Pss:": pss = mebibytes
            case "Pss_Anon:": pssAnonymous = mebibytes
            case "Pss_File:": pssFile = mebibytes
            default: break
            }
        }
    }

    static func + (lhs: MemoryRollup, rhs: MemoryRollup) -> MemoryRollup {
        var sum = MemoryRollup()
        sum.rss = lhs.rss + rhs.rss
        sum.anonymous = lhs.anonymous + rhs.anonymous
        sum.pss = lhs.pss + rhs.pss
        sum.pssAnonymous = lhs.pssAnonymous + rhs.pssAnonymous
        sum.pssFile = lhs.pssFile + rhs.pssFile
        return sum
    }

    /// One table row.
    func row(_ name: String) -> String {
        pad(name, 22)
            + [rss, anonymous, fileBacked, pss, pssAnonymous, pssFile].map { pad(format($0, 1), 10) }.joined()
    }

    static let header =
        pad("", 22) + ["RSS", "anon", "file", "PSS", "PSS anon", "PSS file"].map { pad($0, 10) }.joined()

    /// A table: `title`, then the header and one row a rollup, each indented by two spaces.
    static func table(_ title: String, _ rows: [(name: String, memory: MemoryRollup)]) -> String {
        ([title, "  " + header] + rows.map { "  " + $0.memory.row($0.name) }).joined(separator: "\n")
    }
}

/// Figure 5b: the daemon and its espeak-ng helper together, idle after speaking, with one
/// audio output.
struct PairMemory {
    var audio: String
    var posts: Int
    var daemon = MemoryRollup()
    var helper = MemoryRollup()
    var sum: MemoryRollup { daemon + helper }

    /// The figure as a small table, MiB.
    var described: String {
        MemoryRollup.table(
            "--audio \(audio), idle 2 s after \(posts) posts spoken one after another (MiB, from /proc/PID/smaps_rollup):",
            [("daemon", daemon), ("espeak-ng helper", helper), ("daemon + helper", sum)]
        )
    }
}

extension Figures {
    /// 5b. A fresh daemon with `--audio audio` speaks `posts` short posts, each waited for, and is
    /// left alone for 2 s (it gives freed heap back after a quiet second); then both processes'
    /// memory is read. With `pulse`, the audio goes to a private headless PulseAudio null sink.
    func pairMemory(audio: String, posts: Int) throws -> PairMemory {
        var pulse: HeadlessPulseAudio?
        if audio == "pulse" {
            guard HeadlessPulseAudio.isInstalled else {
                throw BenchError(
                    "the PulseAudio figure needs pulseaudio and pulseaudio-utils (apt-get install pulseaudio pulseaudio-utils)"
                )
            }
            pulse = try HeadlessPulseAudio()
        }
        defer { pulse?.kill() }
        let daemon = try BenchDaemon(executable: executable, audio: audio, environment: pulse?.clientEnvironment ?? [:])
        defer { daemon.stop() }
        let client = try daemon.connect()
        for id in 1...posts {
            client.send(#"{"op":"announce","id":\#(id),"text":"Saved"}"#)
            guard
                client.skipToLine(
                    containingAnyOf: [#""event":"finished""#, #""event":"error""#].map { Array($0.utf8) })
            else {
                throw BenchError("the daemon closed the connection during the memory figure")
            }
        }
        usleep(2_000_000)
        var figure = PairMemory(audio: audio, posts: posts)
        let memory = try daemon.memoryOfPair()
        figure.daemon = memory.daemon
        figure.helper = memory.helper
        return figure
    }
}

extension BenchDaemon {
    /// The memory of the daemon and of its one espeak-ng helper, and of the two together.
    func memoryOfPair() throws -> (daemon: MemoryRollup, helper: MemoryRollup, sum: MemoryRollup) {
        let helpers = childProcesses(of: process.pid)
        guard helpers.count == 1 else { throw BenchError("expected one espeak-ng helper, found \(helpers)") }
        let daemon = MemoryRollup(pid: process.pid)
        let helper = MemoryRollup(pid: helpers[0])
        return (daemon, helper, daemon + helper)
    }
}
