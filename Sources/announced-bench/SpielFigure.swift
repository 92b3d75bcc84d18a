// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// One row of the Spiel figure: its samples and its target, met or missed.
struct SpielRow {
    var figure: Figure
    /// The target as printed, e.g. "p50 ≤ 150, max ≤ 300"; empty for a row with none.
    var target = ""
    /// Whether the target was met; nil for a row with none.
    var met: Bool?

    var described: String {
        pad(figure.name, 86)
            + "p50 \(pad(format(figure.p50, 1), 8)) max \(pad(format(figure.max, 1), 8)) N = \(pad("\(figure.values.count)", 5))"
            + (target.isEmpty ? "" : "target \(target): \(met == true ? "met" : "missed")")
    }
}

/// `--only spiel` (issue 37 §2): the Spiel provider's streams against the same daemon's native
/// posts, on one machine in one run.
struct SpielFigures {
    var rows: [SpielRow] = []
    /// Daemon + helpers (MiB), idle with the Piper voice loaded, and while two Spiel streams in
    /// the Piper voice overlap.
    var idle: [(name: String, memory: MemoryRollup)] = []
    var overlapping: [(name: String, memory: MemoryRollup)] = []

    var described: String {
        rows.map(\.described).joined(separator: "\n") + "\n"
            + MemoryRollup.table(
                "spiel: memory (MiB, /proc/PID/smaps_rollup), idle with the Piper voice loaded:", idle)
            + "\n"
            + MemoryRollup.table("spiel: memory while two Spiel streams in the Piper voice overlap:", overlapping)
    }
}

extension Figures {
    /// Why the Spiel figure cannot run here (a program it needs is missing), or nil.
    static var spielMissing: String? {
        if let missing = SpielBenchClient.missing { return missing }
        if !HeadlessPulseAudio.canRecord {
            return "pulseaudio and pulseaudio-utils are not installed (apt-get install pulseaudio pulseaudio-utils)"
        }
        return nil
    }

    /// The Piper test voice's Spiel and native name.
    static let joe = "en_us-joe-medium"
    /// `engine_idle_unload` of the unload rows' daemon, seconds.
    static let spielIdleUnload = 2

    /// The Spiel figure: a private session bus and PulseAudio, one daemon (`--audio pulse`, the
    /// Piper test voice its default) serving both, Benchmarks/spiel-client.py calling Synthesize.
    /// For espeak-ng (`en-us`) and the Piper voice, both loaded, rounds of one Spiel call (call →
    /// first audio byte after the header) then one native post (write → first audible sample at
    /// the sink), each with a short text of its own ("Task 12 done.", "Item 12 done.": as short
    /// as figure 14's "Download complete.", and never a cache hit); a repeated Spiel request, a
    /// repeated mixed-language post and a repeated SSIP message (the speech cache); the memory of
    /// the daemon and its helpers idle and with two Spiel streams held open. Then a second daemon
    /// with `engine_idle_unload` 2 s: rounds of six Spiel calls, each round after an idle unload.
    /// Needs dbus-daemon, python3-gi and PulseAudio (``spielMissing``).
    func spiel(files: PiperBenchFiles) throws -> SpielFigures {
        var figures = SpielFigures()
        let rounds = self.rounds(atLeast: 20, perSamples: 5)
        let directory = "/tmp/announced-bench-spiel-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bus = try PrivateSessionBus()
        defer { bus.stop() }
        let (config, piperEnvironment) = try files.daemonSetup(directory + "/heard")
        let ssipSocket = directory + "/heard/ssip.sock"
        let pulse = try HeadlessPulseAudio()
        defer { pulse.kill() }
        let recorder = try pulse.record()
        let environment = pulse.clientEnvironment.merging(piperEnvironment) { $1 }
            .merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 }
        do {
            let daemon = try BenchDaemon(
                executable: executable, audio: "pulse", extra: ["--config", config, "--ssip-socket", ssipSocket],
                environment: environment)
            defer { daemon.stop() }
            let spiel = try SpielBenchClient(busAddress: bus.address)
            defer { spiel.stop() }
            // The null sink renders 2 s blocks until the recorder (a low-latency client) has settled it.
            usleep(3_000_000)
            let client = try daemon.connect()
            var id = 0
            // Both engines loaded, through both doors.
            _ = try spiel.speakOnceServed(voice: "en-us", text: "Ready.")
            _ = try spiel.speak(voice: Self.joe, text: "Ready.")
            try client.speakWhole(id: &id, #""voice":"en-us","text":"Ready.""#)
            try client.speakWhole(id: &id, #""text":"Ready.""#)
            // Heard posts, unmeasured, until the sink renders in small blocks (an unsettled sink
            // delivers large ones, and a sample's time, estimated from its block's arrival, is
            // early by up to a block).
            for round in 0..<5 {
                id += 1
                _ = try recorder.timeHeardPost(
                    #"{"op":"announce","id":\#(id),"voice":"en-us","text":"Settle \#(round)."}"#, id: id, on: client)
            }
            for (engine, voice) in [("espeak-ng en-us", "en-us"), ("Piper \(Self.joe)", Self.joe)] {
                var streamed = Figure(name: "spiel: call → first audio byte, \(engine), loaded")
                var posted = Figure(name: "native: write → first audible sample, \(engine), loaded")
                var postStarted = Figure(name: "native: write → started, \(engine), loaded")
                for round in 0..<rounds {
                    streamed.add(
                        nanoseconds: try spiel.speak(voice: voice, text: "Task \(round + 10) done.")
                            .firstAudio)
                    usleep(300_000)
                    id += 1
                    let times = try recorder.timeHeardPost(
                        #"{"op":"announce","id":\#(id),"voice":"\#(voice)","text":"Item \#(round + 10) done."}"#,
                        id: id, on: client)
                    posted.add(nanoseconds: times.heard)
                    postStarted.add(nanoseconds: times.started)
                }
                figures.rows.append(
                    SpielRow(
                        figure: streamed, target: "p50 ≤ native p50 + 10 = \(format(posted.p50 + 10, 1))",
                        met: streamed.p50 <= posted.p50 + 10))
                figures.rows.append(SpielRow(figure: posted))
                figures.rows.append(SpielRow(figure: postStarted))
            }
            try cacheRows(spiel, client, recorder, id: &id, rounds: rounds, into: &figures)
            try ssipRow(socket: ssipSocket, recorder, rounds: rounds, into: &figures)
            usleep(2_000_000)
            figures.idle = daemonAndHelpers(daemon)
            let long = String(repeating: "This chapter goes on and on without an end in sight. ", count: 40)
            for _ in 0..<2 { _ = try spiel.command(["hold", Self.joe, long]) }
            figures.overlapping = daemonAndHelpers(daemon)
            _ = try spiel.command(["release"])
        }
        try unloadRows(files: files, bus: bus, directory: directory + "/unload", into: &figures)
        return figures
    }

    /// The speech cache through two doors: a Spiel request said again (call → first audio byte),
    /// and "The file Привет was saved." posted again (write → first audible sample, and write →
    /// `started`), each spoken once before it is timed.
    private func cacheRows(
        _ spiel: SpielBenchClient, _ client: BenchClient, _ recorder: MonitorRecorder, id: inout Int, rounds: Int,
        into figures: inout SpielFigures
    ) throws {
        let phrase = "Download complete."
        _ = try spiel.speak(voice: Self.joe, text: phrase)
        var repeated = Figure(name: "spiel: call → first audio byte, Piper, \"\(phrase)\" said again (cache)")
        for _ in 0..<rounds {
            repeated.add(nanoseconds: try spiel.speak(voice: Self.joe, text: phrase).firstAudio)
            usleep(100_000)
        }
        figures.rows.append(SpielRow(figure: repeated, target: "p50 ≤ 15", met: repeated.p50 <= 15))

        let mixed = "The file Привет was saved."
        try client.speakWhole(id: &id, #""text":"\#(mixed)""#)
        var heard = Figure(name: "native: write → first audible, Piper, \"\(mixed)\" said again (cache)")
        var started = Figure(name: "native: write → started, Piper, \"\(mixed)\" said again (cache)")
        for _ in 0..<rounds {
            id += 1
            let times = try recorder.timeHeardPost(
                #"{"op":"announce","id":\#(id),"text":"\#(mixed)"}"#, id: id, on: client)
            heard.add(nanoseconds: times.heard)
            started.add(nanoseconds: times.started)
        }
        figures.rows.append(SpielRow(figure: heard, target: "p50 ≤ 15", met: heard.p50 <= 15))
        figures.rows.append(SpielRow(figure: started))
    }

    /// The speech cache through the SSIP door: one SSIP message in the default voice (Piper)
    /// said again, end of its text written → its first audible sample, each heard to its end.
    private func ssipRow(
        socket: String, _ recorder: MonitorRecorder, rounds: Int, into figures: inout SpielFigures
    ) throws {
        guard let ssip = BenchClient(path: socket) else { throw BenchError("cannot connect to \(socket)") }
        let phrase = "Your files are ready."
        ssip.send("SET SELF CLIENT_NAME bench:spiel:ssip\r")
        guard ssip.waitFor("208 ") != nil else { throw BenchError("SSIP: CLIENT_NAME was not set") }
        func speak() throws -> UInt64 {
            ssip.send("SPEAK\r")
            guard ssip.waitFor("230 ") != nil else { throw BenchError("SSIP: SPEAK was refused") }
            let startSample = recorder.sampleCount
            let start = now()
            ssip.send(phrase + "\r\n.\r")
            guard ssip.waitFor("225 ") != nil else { throw BenchError("SSIP: the message was not queued") }
            guard let first = recorder.firstAudible(after: startSample),
                let heard = recorder.renderedNanoseconds(ofSample: first)
            else { throw BenchError("SSIP: nothing was heard at the sink") }
            _ = recorder.waitForSilence(after: first, timeout: 30)
            usleep(300_000)
            return heard > start ? heard - start : 0
        }
        _ = try speak()
        var figure = Figure(name: "ssip: message → first audible, Piper, \"\(phrase)\" said again (cache)")
        for _ in 0..<rounds { figure.add(nanoseconds: try speak()) }
        figures.rows.append(SpielRow(figure: figure, target: "p50 ≤ 15", met: figure.p50 <= 15))
    }

    /// A daemon with `engine_idle_unload` 2 s and the audio `null`: rounds of six Spiel calls in
    /// the Piper voice, each text new; the first round on a fresh daemon (the voice not loaded
    /// yet), every later one as soon as the Piper helper has exited (an idle unload).
    private func unloadRows(
        files: PiperBenchFiles, bus: PrivateSessionBus, directory: String, into figures: inout SpielFigures
    ) throws {
        let (config, piperEnvironment) = try files.daemonSetup(
            directory, settings: #""engine_idle_unload": \#(Self.spielIdleUnload)"#)
        let daemon = try BenchDaemon(
            executable: executable, extra: ["--config", config],
            environment: piperEnvironment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 })
        defer { daemon.stop() }
        let spiel = try SpielBenchClient(busAddress: bus.address)
        defer { spiel.stop() }
        _ = try spiel.speakOnceServed(voice: "en-us", text: "Ready.")
        let sessions = smoke ? 2 : max(5, samples / 20)
        var fresh = Figure(name: "spiel: Piper call 1 on a fresh daemon (the voice's load)")
        var later = Figure(name: "spiel: Piper calls 2-6 (fresh daemon, and after each idle unload)")
        var afterUnload = (1...3).map { Figure(name: "spiel: Piper call \($0) after an idle unload") }
        for session in 0..<sessions {
            if session > 0 {
                let deadline = now() + UInt64(Self.spielIdleUnload + 30) * 1_000_000_000
                while piperHelper(of: daemon) != nil {
                    guard now() < deadline else {
                        throw BenchError("the Piper helper was still running 30 s after engine_idle_unload")
                    }
                    usleep(50_000)
                }
                // The helper has exited: the call lands while the engine's loader may still be
                // ending the unload, which must cost one load all the same.
            }
            for call in 1...6 {
                let stream = try spiel.speak(
                    voice: Self.joe, text: "Step \(session * 6 + call + 10) done.")
                if call == 1 && session == 0 { fresh.add(nanoseconds: stream.firstAudio) }
                if call > 1 { later.add(nanoseconds: stream.firstAudio) }
                if session > 0 && call <= 3 { afterUnload[call - 1].add(nanoseconds: stream.firstAudio) }
            }
        }
        figures.rows.append(SpielRow(figure: fresh))
        figures.rows.append(
            SpielRow(figure: later, target: "p50 ≤ 150, max ≤ 300", met: later.p50 <= 150 && later.max <= 300))
        // One load after an unload: calls 2 and 3 as fast as any call 2-6 (at most 300 ms).
        figures.rows.append(SpielRow(figure: afterUnload[0]))
        for figure in afterUnload.dropFirst() {
            figures.rows.append(SpielRow(figure: figure, target: "max ≤ 300 (no second load)", met: figure.max <= 300))
        }
    }

    /// The daemon, its helpers (each by its executable's name) and their sum.
    private func daemonAndHelpers(_ daemon: BenchDaemon) -> [(name: String, memory: MemoryRollup)] {
        var rows = [("daemon", MemoryRollup(pid: daemon.process.pid))]
        for helper in childProcesses(of: daemon.process.pid) {
            let name =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(helper)/exe"))
                .map { URL(fileURLWithPath: $0).lastPathComponent } ?? "helper \(helper)"
            rows.append((name, MemoryRollup(pid: helper)))
        }
        rows.append(("daemon + helpers", rows.map(\.1).reduce(MemoryRollup(), +)))
        return rows
    }
}
