// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// Figure 16: an idle daemon is asleep. How often the daemon and its helpers wake while nothing
/// is said (every thread's context switches, voluntary and not, from /proc/PID/task/*/status),
/// and how soon the first post after such a spell is heard.
struct IdleWakeups {
    var audio: String
    var seconds: Double
    /// Context switches over the window, by process and thread name, most first.
    var threads: [(name: String, switches: Int)] = []

    var total: Int { threads.reduce(0) { $0 + $1.switches } }
    var perSecond: Double { Double(total) / seconds }

    /// One row, and the threads that woke.
    var described: String {
        let woke = threads.filter { $0.switches > 0 }.map { "\($0.name) \($0.switches)" }.joined(separator: ", ")
        return pad("16. wakeups per second, idle (--audio \(audio))", 62) + format(perSecond, 2)
            + "  (\(total) in \(format(seconds, 0)) s\(woke.isEmpty ? "" : ": " + woke))"
    }

    /// Each thread of `pids`, keyed by process and thread id: its name and context switches.
    static func switches(of pids: [Int32]) -> [String: (name: String, switches: Int)] {
        var found: [String: (name: String, switches: Int)] = [:]
        for pid in pids {
            let process =
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "\(pid)"
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            for task in tasks {
                let path = "/proc/\(pid)/task/\(task)"
                guard let status = try? String(contentsOfFile: path + "/status", encoding: .utf8) else { continue }
                let thread =
                    (try? String(contentsOfFile: path + "/comm", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? task
                let count = status.split(separator: "\n").filter { $0.contains("ctxt_switches:") }
                    .compactMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
                    .reduce(0, +)
                found["\(pid)/\(task)"] = ("\(process)/\(thread)", count)
            }
        }
        return found
    }
}

extension Figures {
    /// 16. A fresh daemon with `--audio audio` speaks one short post, is left `quiet` seconds after
    /// its `finished`, and then its threads' and its helpers' context switches are counted over
    /// `window` seconds. A thread that starts in the window counts from zero; the names group by
    /// process and thread (libdispatch's and NIO's threads each share one name).
    func idleWakeups(audio: String, quiet: Double = 10, window: Double = 20) throws -> IdleWakeups {
        var pulse: HeadlessPulseAudio?
        if audio == "pulse" { pulse = try HeadlessPulseAudio() }
        defer { pulse?.kill() }
        let daemon = try BenchDaemon(executable: executable, audio: audio, environment: pulse?.clientEnvironment ?? [:])
        defer { daemon.stop() }
        let client = try daemon.connect()
        client.send(#"{"op":"announce","id":1,"text":"Saved"}"#)
        guard client.waitFor(#""event":"finished""#) != nil else { throw BenchError("lost the connection") }
        usleep(UInt32(quiet * 1e6))
        let pids = { [daemon.process.pid] + childProcesses(of: daemon.process.pid) }
        let before = IdleWakeups.switches(of: pids())
        usleep(UInt32(window * 1e6))
        let after = IdleWakeups.switches(of: pids())
        var byName: [String: Int] = [:]
        for (key, thread) in after {
            byName[thread.name, default: 0] += thread.switches - (before[key]?.switches ?? 0)
        }
        var figure = IdleWakeups(audio: audio, seconds: window)
        figure.threads = byName.map { (name: $0.key, switches: $0.value) }.sorted { $0.switches > $1.switches }
        return figure
    }

    /// 16. Heard at a PulseAudio null sink: write → first audible sample of a short post written
    /// `quiet` seconds after the one before (an idle spell: the daemon has let its output rest),
    /// beside the same post written 300 ms after the one before, alternating, `rounds` each.
    func heardAfterIdle(rounds: Int, quiet: Double = 12) throws -> (afterIdle: Figure, warm: Figure) {
        try withHeardDaemon { daemon, recorder in
            let client = try daemon.connect()
            var afterIdle = Figure(name: "16. heard (pulse): write → audible, after \(format(quiet, 0)) s idle")
            var warm = Figure(name: "16. heard (pulse): write → audible, 300 ms after a post")
            let post = { (id: Int) in
                try recorder.timeHeardPost(
                    #"{"op":"announce","id":\#(id),"text":"Download complete"}"#, id: id, on: client)
            }
            _ = try post(0)
            for round in 1...rounds {
                usleep(UInt32(quiet * 1e6))
                afterIdle.add(nanoseconds: try post(2 * round).heard)
                warm.add(nanoseconds: try post(2 * round + 1).heard)
            }
            return (afterIdle, warm)
        }
    }
}

extension Figures {
    /// Figure 16's rows: wakeups per second with `null` and with `pulse` (when PulseAudio is
    /// installed), then write → audible after an idle spell and warm, `rounds` each (when it can
    /// record).
    func idleFigure(rounds: Int) throws -> String {
        var rows = [try idleWakeups(audio: "null").described]
        if HeadlessPulseAudio.isInstalled { rows.append(try idleWakeups(audio: "pulse").described) }
        if HeadlessPulseAudio.canRecord {
            let heard = try heardAfterIdle(rounds: rounds)
            for figure in [heard.afterIdle, heard.warm] {
                rows.append(
                    pad(figure.name, 62)
                        + "p50 \(format(figure.p50))  p99 \(format(figure.p99))  max \(format(figure.max))  (N = \(figure.values.count))"
                )
            }
        }
        return rows.joined(separator: "\n")
    }
}
