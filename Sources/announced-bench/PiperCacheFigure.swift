// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// Figure 14's rows for the speech cache: a repeated "Download complete." in the Piper voice
/// played from the cache, and the memory the cache holds when full.
struct PiperCacheFigures {
    /// Write → first audible sample, and write → `started`, of the cached phrase.
    var heard = Figure(name: "14. announced + Piper, speech cache: write → audible, \"Download complete.\" (cached)")
    var started = Figure(name: "14. announced + Piper, speech cache: write → started, \"Download complete.\" (cached)")
    /// The cache daemon's `speech_cache`, MiB.
    var limitMiB = 0
    /// The daemon with one phrase cached, and after more distinct phrases than the cache holds.
    var daemonOnePhrase = MemoryRollup()
    var daemonFull = MemoryRollup()
    /// The distinct phrases spoken whole to fill the cache, and the seconds that took.
    var fillPhrases = 0
    var fillSeconds = 0.0

    var described: String {
        "\n"
            + [heard, started].map {
                pad($0.name, 84)
                    + "p50 \(format($0.p50))  p99 \(format($0.p99))  max \(format($0.max))  N = \($0.values.count)"
            }
            .joined(separator: "\n")
            + "\n"
            + MemoryRollup.table(
                "14. speech cache memory (MiB; speech_cache \(limitMiB), then \(fillPhrases) distinct phrases spoken whole "
                    + "in \(format(fillSeconds, 1)) s):",
                [("daemon, one phrase cached", daemonOnePhrase), ("daemon, cache full", daemonFull)]
            )
    }
}

extension Figures {
    /// The cache's daemon: like the uncached one, with `speech_cache` 1 MiB, small enough to fill
    /// in a bench run (the lookup does not depend on the size). One "Download complete." post is
    /// spoken whole (synthesized and stored), then `rounds` posts of it are timed; then distinct
    /// phrases at rate 450 fill the cache, and the daemon's memory is read before and after.
    func speakFromCache(
        files: PiperBenchFiles, threads: Int?, pulse: HeadlessPulseAudio, recorder: MonitorRecorder, rounds: Int
    ) throws -> PiperCacheFigures {
        var figures = PiperCacheFigures()
        figures.limitMiB = 1
        let directory = "/tmp/announced-bench-piper-cache-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let threadsSetting = threads.map { #", "piper_threads": \#($0)"# } ?? ""
        let (config, piperEnvironment) = try files.daemonSetup(
            directory, settings: #""speech_cache": \#(figures.limitMiB)\#(threadsSetting)"#)
        let environment = pulse.clientEnvironment.merging(piperEnvironment) { $1 }
        let daemon = try BenchDaemon(
            executable: executable, audio: "pulse", extra: ["--config", config], environment: environment)
        defer { daemon.stop() }
        // As for the uncached daemon: the null sink settles with the new stream.
        usleep(3_000_000)
        let client = try daemon.connect()
        var id = 0
        // Loads the voice, then renders the phrase once, whole: the cache keeps it.
        try client.speakWhole(id: &id, #""text":"Ready.""#)
        try client.speakWhole(id: &id, #""text":"\#(PiperBenchTexts.short)""#)
        for _ in 0..<rounds {
            id += 1
            let times = try recorder.timeHeardPost(
                #"{"op":"announce","id":\#(id),"text":"\#(PiperBenchTexts.short)"}"#, id: id, on: client)
            figures.started.add(nanoseconds: times.started)
            figures.heard.add(nanoseconds: times.heard)
        }
        usleep(2_000_000)
        figures.daemonOnePhrase = MemoryRollup(pid: daemon.process.pid)
        // More distinct phrases than the cache holds, each spoken whole (each over a second at
        // rate 450: more than 44 KB of samples at 22.05 kHz); a smoke run speaks a few.
        let fillStart = now()
        while figures.fillPhrases < (smoke ? 3 : 30) {
            figures.fillPhrases += 1
            try client.speakWhole(
                id: &id,
                #""text":"Message \#(figures.fillPhrases) of the day has arrived in your inbox with an attachment.","rate":450"#
            )
        }
        figures.fillSeconds = Double(now() - fillStart) / 1e9
        usleep(2_000_000)
        figures.daemonFull = MemoryRollup(pid: daemon.process.pid)
        return figures
    }
}
