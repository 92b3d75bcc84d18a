// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// What figure 14 needs besides the daemon: the Piper engine and test voice that
/// scripts/fetch-piper-engine.sh fetches, and the `piper` command line that
/// scripts/fetch-piper-cli.sh installs (nil when it is not installed: its rows are left out).
struct PiperBenchFiles {
    /// The engine's library directory (`ANNOUNCED_PIPER_LIBRARY_DIR`).
    let libraryDirectory: String
    /// en_US-joe-medium's `.onnx` (its `.onnx.json` beside it).
    let voice: String
    /// PyPI piper-tts's `piper` executable.
    let cli: String?

    /// A new directory `directory` holding the test voice in `data/announced/voices` (linked, or
    /// copied where a link cannot be made), for a daemon whose `XDG_DATA_HOME` is `directory/data`.
    func voiceHome(_ directory: String) throws {
        let voices = directory + "/data/announced/voices"
        try FileManager.default.createDirectory(atPath: voices, withIntermediateDirectories: true)
        for suffix in ["", ".json"] {
            let target = voices + "/en_US-joe-medium.onnx" + suffix
            if link(voice + suffix, target) != 0 {
                try FileManager.default.copyItem(atPath: voice + suffix, toPath: target)
            }
        }
    }

    /// The setup every Piper figure's daemon shares: the test voice in `directory`'s private voice
    /// directory (``voiceHome(_:)``), a config file `directory/announced.json` whose default voice
    /// is the test voice and which holds `settings` besides (a JSON object's members, or empty),
    /// and the environment that points the daemon at both and at the engine's library.
    func daemonSetup(_ directory: String, settings: String = "") throws -> (
        config: String, environment: [String: String]
    ) {
        try voiceHome(directory)
        let config = directory + "/announced.json"
        let members = [#""voice": "en_us-joe-medium""#] + (settings.isEmpty ? [] : [settings])
        try Data("{\(members.joined(separator: ", "))}".utf8).write(to: URL(fileURLWithPath: config))
        return (config, ["XDG_DATA_HOME": directory + "/data", "ANNOUNCED_PIPER_LIBRARY_DIR": libraryDirectory])
    }
}

/// The texts of figure 14.
enum PiperBenchTexts {
    /// The short text of the targets.
    static let short = "Download complete."
    /// The texts, by the name their rows carry.
    static let all: [(name: String, text: String)] = [
        ("\"Download complete.\"", short),
        ("a 7-word sentence", "Three new messages arrived in your inbox."),
        ("5,035 characters", PiperHelperFigure.longText),
    ]
}

/// Figure 14: announced with espeak-ng, announced with a Piper voice and PyPI's piper CLI piped
/// into paplay, heard at one private PulseAudio null sink in one run.
struct PiperHeardFigures {
    /// Write → first audible sample, by engine and text (announced), then the CLI's rows.
    var rows: [Figure] = []
    /// Write → the post's `started` line, by engine and text (announced's rows only): what the
    /// daemon and synthesis take; the rest of write → audible is the audio path.
    var started: [Figure] = []
    /// An interrupting post written while a Piper post is audible → the old post's last audible sample.
    var interrupted = Figure(name: "14. announced + Piper: interrupting post → old audio silent")
    /// Interrupting posts that fell into a silence of the speech, and so measured nothing.
    var inSilence = 0
    /// Seconds from the first Piper post to its `finished` (the voice's load included).
    var firstPostSeconds = Double.nan
    /// The daemon before the first Piper post (its espeak-ng helper started).
    var daemonBefore = MemoryRollup()
    /// The daemon and the Piper helper, the voice loaded, 1 s after the last Piper post.
    var daemonLoaded = MemoryRollup()
    var helperLoaded = MemoryRollup()
    /// The daemon once the helper has exited (`engine_idle_unload`), and how long after the last
    /// post that was seen.
    var daemonUnloaded = MemoryRollup()
    var unloadSeconds = Double.nan
    /// The speech cache's rows and memory (PiperCacheFigure.swift).
    var cache = PiperCacheFigures()

    /// The latency rows and the memory table.
    var described: String {
        (rows + started + [interrupted]).map {
            pad($0.name, 78)
                + "p50 \(format($0.p50))  p99 \(format($0.p99))  max \(format($0.max))  N = \($0.values.count)"
        }
        .joined(separator: "\n")
            + "\n    (\(inSilence) interrupting posts fell between words and measured nothing; the first Piper post, voice load included, took \(format(firstPostSeconds, 2)) s)\n"
            + MemoryRollup.table(
                "14. memory (MiB, from /proc/PID/smaps_rollup; the Piper helper exited \(format(unloadSeconds, 1)) s after the last post):",
                [
                    ("daemon, before Piper", daemonBefore), ("Piper helper, loaded", helperLoaded),
                    ("daemon, Piper loaded", daemonLoaded),
                    ("daemon, unloaded", daemonUnloaded),
                ]
            )
            + cache.described
    }
}

extension Figures {
    /// `engine_idle_unload` of figure 14's daemon, seconds: long enough for no unload between
    /// its Piper rows, short enough to watch the helper go.
    static let piperIdleUnload = 5

    /// 14. One private PulseAudio, its null sink's monitor recorded; one daemon (`--audio pulse`,
    /// config `voice` en_us-joe-medium in a private voice directory, `engine_idle_unload` 5 s,
    /// `speech_cache` 0).
    /// Each text is spoken `rounds` times by espeak-ng (posts naming `voice` `en-us`) and by the
    /// Piper voice, warm (one unmeasured Piper post loads the voice first): write → first
    /// audible sample; then interrupting Piper posts; the memory; then the same with the speech
    /// cache (PiperCacheFigure.swift); then the piper CLI's pipelines.
    /// `threads` is the daemon's `piper_threads` (nil: its default).
    func piperHeard(files: PiperBenchFiles, threads: Int? = nil) throws -> PiperHeardFigures {
        guard HeadlessPulseAudio.canRecord else {
            throw BenchError(
                "figure 14 needs pulseaudio and pulseaudio-utils (apt-get install pulseaudio pulseaudio-utils)")
        }
        // The CLI's rounds are slow (Python's start, and the model's load when cold), so the
        // figure takes fewer of them than of announced's.
        let rounds = self.rounds(atLeast: 20, perSamples: 5)
        let pulse = try HeadlessPulseAudio()
        defer { pulse.kill() }
        let recorder = try pulse.record()
        var figures = PiperHeardFigures()
        try speakThroughAnnounced(
            files: files, threads: threads, pulse: pulse, recorder: recorder, rounds: rounds, into: &figures)
        figures.cache = try speakFromCache(
            files: files, threads: threads, pulse: pulse, recorder: recorder, rounds: rounds)
        if let cli = files.cli {
            let pipeline = PiperPipeline(cli: cli, voice: files.voice, environment: pulse.clientEnvironment)
            figures.rows += try pipeline.measure(
                recorder: recorder, rounds: self.rounds(atLeast: 10, perSamples: 10),
                coldRounds: self.rounds(atLeast: 5, perSamples: 20))
        }
        return figures
    }

    private func speakThroughAnnounced(
        files: PiperBenchFiles, threads: Int?, pulse: HeadlessPulseAudio, recorder: MonitorRecorder, rounds: Int,
        into figures: inout PiperHeardFigures
    ) throws {
        let directory = "/tmp/announced-bench-piper-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let threadsSetting = threads.map { #", "piper_threads": \#($0)"# } ?? ""
        // Without the speech cache: every round is synthesized (the cache's rows have their own daemon).
        let (config, piperEnvironment) = try files.daemonSetup(
            directory,
            settings: #""engine_idle_unload": \#(Self.piperIdleUnload), "speech_cache": 0\#(threadsSetting)"#)
        let environment = pulse.clientEnvironment.merging(piperEnvironment) { $1 }
        let daemon = try BenchDaemon(
            executable: executable, audio: "pulse", extra: ["--config", config], environment: environment)
        defer { daemon.stop() }
        // The null sink renders 2 s blocks until the recorder (a low-latency client) has settled it.
        usleep(3_000_000)
        let client = try daemon.connect()
        var id = 0
        // espeak-ng's helper starts with the daemon; one post warms it.
        try client.speakWhole(id: &id, #""voice":"en-us","text":"Ready.""#)
        try heardRows(
            client, recorder, engine: "espeak-ng", voiceField: #""voice":"en-us","#, id: &id, rounds: rounds,
            into: &figures)
        usleep(1_000_000)
        figures.daemonBefore = MemoryRollup(pid: daemon.process.pid)

        let loading = now()
        try client.speakWhole(id: &id, #""text":"Ready.""#)
        figures.firstPostSeconds = Double(now() - loading) / 1e9
        try heardRows(client, recorder, engine: "Piper", voiceField: "", id: &id, rounds: rounds, into: &figures)
        try measureInterruptions(client, recorder, id: &id, rounds: rounds, into: &figures)
        let lastPost = now()
        usleep(1_000_000)
        guard let helper = piperHelper(of: daemon) else {
            throw BenchError("the daemon has no announced-piper helper after its Piper posts")
        }
        figures.helperLoaded = MemoryRollup(pid: helper)
        figures.daemonLoaded = MemoryRollup(pid: daemon.process.pid)
        let deadline = now() + UInt64(Self.piperIdleUnload + 30) * 1_000_000_000
        while piperHelper(of: daemon) != nil {
            guard now() < deadline else {
                throw BenchError("the Piper helper was still running 30 s after engine_idle_unload")
            }
            usleep(50_000)
        }
        figures.unloadSeconds = Double(now() - lastPost) / 1e9
        // The daemon gives freed heap back after a quiet second (MemoryTrimmer).
        usleep(2_000_000)
        figures.daemonUnloaded = MemoryRollup(pid: daemon.process.pid)
    }

    /// Posts `fields` as announcement `id + 1` and waits for its terminal line.
    /// Write → first audible sample, and write → `started`, for each text, `rounds` times (each
    /// post stopped once heard, then 300 ms of silence).
    private func heardRows(
        _ client: BenchClient, _ recorder: MonitorRecorder, engine: String, voiceField: String, id: inout Int,
        rounds: Int,
        into figures: inout PiperHeardFigures
    ) throws {
        for text in PiperBenchTexts.all {
            var figure = Figure(name: "14. announced + \(engine): write → audible, \(text.name)")
            var startedFigure = Figure(name: "14. announced + \(engine): write → started, \(text.name)")
            for _ in 0..<rounds {
                id += 1
                let times = try recorder.timeHeardPost(
                    #"{"op":"announce","id":\#(id),\#(voiceField)"text":"\#(text.text)"}"#, id: id, on: client
                )
                startedFigure.add(nanoseconds: times.started)
                figure.add(nanoseconds: times.heard)
            }
            figures.rows.append(figure)
            figures.started.append(startedFigure)
        }
    }

    /// An interrupting post (at volume 0) written while a Piper post is audible (the 20 ms before
    /// the write audible) → the last audible sample rendered after the write, once the new post's
    /// `started` line has arrived and 50 ms more have been recorded.
    private func measureInterruptions(
        _ client: BenchClient, _ recorder: MonitorRecorder, id: inout Int, rounds: Int,
        into figures: inout PiperHeardFigures
    ) throws {
        let text =
            "A long sentence that keeps speaking while it is interrupted, again and again, until the very end of it."
        // The interrupting post is spoken at volume 0, so every audible sample after its write is
        // the old post's, however soon the new post's audio comes (its first chunk starts 5 ms
        // before it is audible, sooner than its `started` line may reach the client). Each round
        // then starts an audible post again, which the next round interrupts.
        func speakAudibly() throws {
            id += 1
            client.send(#"{"op":"announce","id":\#(id),"text":"\#(text)"}"#)
            guard client.waitFor(#""event":"started""#, #""id":\#(id),"#) != nil else {
                throw BenchError("lost the connection")
            }
        }
        try speakAudibly()
        for round in 0..<rounds {
            // Somewhere in the middle of a word, most of the time.
            usleep(UInt32(300_000 + (round * 37_000) % 200_000))
            let from = max(0, recorder.sampleCount - MonitorRecorder.rate / 10)
            id += 1
            let sent = now()
            client.send(#"{"op":"announce","id":\#(id),"text":"\#(text)","volume":0}"#)
            guard client.waitFor(#""event":"started""#, #""id":\#(id),"#) != nil else {
                throw BenchError("lost the connection")
            }
            usleep(50_000)
            let recorded = recorder.samples(from: from, to: recorder.sampleCount)
            let times = recorded.indices.compactMap { index in
                abs(Int(recorded[index])) > MonitorRecorder.audibleThreshold
                    ? recorder.renderedNanoseconds(ofSample: from + index) : nil
            }
            if times.contains(where: { $0 < sent && $0 + 20_000_000 >= sent }) {
                let last = times.last ?? sent
                figures.interrupted.add(nanoseconds: last > sent ? last - sent : 0)
            } else {
                figures.inSilence += 1
            }
            try speakAudibly()
        }
        client.send(#"{"op":"stop","id":"s\#(id)"}"#)
        guard client.waitFor(#""event":"finished""#, #""id":\#(id),"#) != nil else {
            throw BenchError("lost the connection")
        }
    }

    /// The daemon's `announced-piper` child, if one runs.
    func piperHelper(of daemon: BenchDaemon) -> Int32? {
        childProcesses(of: daemon.process.pid).first { pid in
            var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/\(pid)/exe", &path, Int(PATH_MAX))
            return length > 0
                && String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasSuffix(
                    "/announced-piper")
        }
    }
}
