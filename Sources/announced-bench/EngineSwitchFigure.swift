// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// Figure 15: a post whose language runs switch engines, "The file Привет was saved" in the Piper
/// voice (its Russian run spoken by espeak-ng), heard at a PulseAudio null sink.
struct EngineSwitchFigures {
    /// The silence each switch adds beyond the rendering's own pause there, Piper → espeak-ng and
    /// espeak-ng → Piper.
    var toEspeak = Figure(name: "15. silence added at the switch Piper → espeak-ng")
    var toPiper = Figure(name: "15. silence added at the switch espeak-ng → Piper")
    /// The rendering's own pauses at the two switches (last audible → first audible), ms.
    var ownPauses = (toEspeak: 0.0, toPiper: 0.0)
    /// Write → first audible sample: the mixed text, and the same text in one language.
    var firstAudible: [Figure] = []
    /// The silence added inside the first run, one engine's (the output running dry while
    /// nothing switches), for comparison.
    var insideFirstRun = Figure(name: "15. silence added inside the first run (Piper alone, no switch)")
    /// Rounds in which the end of the first run or the start of the third was not found.
    var unlocated = 0

    var described: String {
        ([
            "15. rendered pauses: Piper → espeak-ng \(format(ownPauses.toEspeak, 1)) ms, espeak-ng → Piper \(format(ownPauses.toPiper, 1)) ms"
        ]
            + ([toEspeak, toPiper, insideFirstRun] + firstAudible).map {
                pad($0.name, 96)
                    + "p50 \(format($0.p50, 1))  p99 \(format($0.p99, 1))  max \(format($0.max, 1))  N = \($0.values.count)"
            }
            + [
                "    (rounds above 30 ms: Piper → espeak-ng \(toEspeak.values.filter { $0 > 30 }.count), espeak-ng → Piper \(toPiper.values.filter { $0 > 30 }.count), inside the first run \(insideFirstRun.values.filter { $0 > 30 }.count); "
                    + "\(unlocated) rounds left out: the end of the first run or the start of the third not found)"
            ])
            .joined(separator: "\n")
    }
}

/// Where a post's runs are in a recording: the last audible sample of the first run, the first
/// of the second, the last of the second, the first of the third.
private struct RunEdges {
    var last1: Int
    var first2: Int
    var last2: Int
    var first3: Int
}

/// Whether two stretches of samples are the same within a few steps a sample (noiseless Piper).
private func sameSamples(_ first: ArraySlice<Int16>, _ second: ArraySlice<Int16>) -> Bool {
    first.count == second.count && !zip(first, second).contains { abs(Int($0) - Int($1)) > 8 }
}

/// The mixed text's rendering, checked to begin and end with its Piper runs' own renderings, and
/// its runs' edges in it.
private struct SwitchRendering {
    let rendered: [Int16]
    /// The first Piper run's first audible sample.
    let firstAudible: Int
    let own: RunEdges
    /// The first run's last 20 ms and the third run's first 20 ms, to find them in a recording.
    let firstEnd: ArraySlice<Int16>
    let thirdStart: ArraySlice<Int16>

    init(rendered: [Int16], firstRun: [Int16], lastRun: [Int16]) throws {
        guard rendered.count > firstRun.count + lastRun.count,
            sameSamples(rendered[..<firstRun.count], firstRun[...]),
            sameSamples(rendered[(rendered.count - lastRun.count)...], lastRun[...])
        else {
            throw BenchError("the mixed text's rendering does not begin and end with its Piper runs' own renderings")
        }
        let audible = { (sample: Int16) in abs(Int(sample)) > MonitorRecorder.audibleThreshold }
        guard let firstAudible1 = firstRun.firstIndex(where: audible),
            let last1 = firstRun.lastIndex(where: audible),
            let first3Offset = lastRun.firstIndex(where: audible),
            let first2 = rendered[firstRun.count...].firstIndex(where: audible)
        else { throw BenchError("a run of the rendering is silent") }
        let first3 = rendered.count - lastRun.count + first3Offset
        guard let last2 = rendered[..<(rendered.count - lastRun.count)].lastIndex(where: audible) else {
            throw BenchError("the Russian run of the rendering is silent")
        }
        let window = MonitorRecorder.rate / 50
        self.rendered = rendered
        firstAudible = firstAudible1
        own = RunEdges(last1: last1, first2: first2, last2: last2, first3: first3)
        firstEnd = rendered[(last1 + 1 - window)...last1]
        thirdStart = rendered[first3..<(first3 + window)]
    }

}

extension Figures {
    /// The mixed text's runs: Piper, espeak-ng's Russian, Piper.
    static let switchRuns = ["The file ", "Привет ", "was saved"]
    /// The same text in one language (one run, one engine).
    static let oneLanguageText = "The file Privet was saved"

    /// 15. The daemon's rendering of the mixed text, from a daemon with the `wav` output (noiseless
    /// Piper, `ANNOUNCED_PIPER_NOISE=0`, so every rendering of a text is the same within a step
    /// a sample), where each run's samples follow the run before's with nothing added: the pause
    /// there is the engines' own. The same text heard `rounds` times at the sink from a second
    /// daemon (`pulse`, also noiseless): the silence at each switch less the rendered one is what
    /// the switch added (the output running dry while the next run's first samples were not
    /// there). The first run's end is found in the recording by its last 20 ms of rendered
    /// samples, the third run's start by its first 20 ms; the silence added inside the first run
    /// (from the post's first audible sample to that end, less the rendered span) is measured
    /// beside them, as what the output adds where nothing switches. Then write → first
    /// audible of the mixed text and of the same text in one language, Piper and espeak-ng.
    func engineSwitch(files: PiperBenchFiles) throws -> EngineSwitchFigures {
        guard HeadlessPulseAudio.canRecord else {
            throw BenchError(
                "figure 15 needs pulseaudio and pulseaudio-utils (apt-get install pulseaudio pulseaudio-utils)")
        }
        let rounds = self.rounds(atLeast: 20, perSamples: 10)
        let directory = "/tmp/announced-bench-switch-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let setup = try files.daemonSetup(directory, settings: #""speech_cache": 0"#)
        let environment = setup.environment.merging(["ANNOUNCED_PIPER_NOISE": "0"]) { $1 }
        let text = Self.switchRuns.joined()
        let rendering = try renderSwitch(text, config: setup.config, environment: environment, wav: directory + "/wav")
        var figures = EngineSwitchFigures()
        figures.ownPauses = (
            milliseconds(rendering.own.first2 - rendering.own.last1),
            milliseconds(rendering.own.first3 - rendering.own.last2)
        )

        let pulse = try HeadlessPulseAudio()
        defer { pulse.kill() }
        let recorder = try pulse.record()
        var heardEnvironment = pulse.clientEnvironment
        for (key, value) in environment { heardEnvironment[key] = value }
        let daemon = try BenchDaemon(
            executable: executable, audio: "pulse", extra: ["--config", setup.config], environment: heardEnvironment)
        defer { daemon.stop() }
        // The null sink renders 2 s blocks until the recorder (a low-latency client) has settled it.
        usleep(3_000_000)
        let client = try daemon.connect()
        var id = 0
        // Warm: the Piper voice loaded, and the mixed text spoken once.
        try client.speakWhole(id: &id, #""text":"Ready.""#)
        try client.speakWhole(id: &id, #""text":"\#(text)""#)
        usleep(300_000)
        for _ in 0..<rounds {
            try heardSwitches(text, rendering: rendering, recorder: recorder, client: client, id: &id, into: &figures)
            usleep(300_000)
        }
        for (voice, name) in [("", "Piper"), (#""voice":"en-us","#, "espeak-ng")] {
            for (body, what) in [(text, "mixed, switching engines"), (Self.oneLanguageText, "one language")] {
                let mixed = body == text
                var figure = Figure(
                    name:
                        "15. write → audible, \(name): \"\(body)\" (\(mixed && name == "espeak-ng" ? "mixed, en-us and ru voices" : what))"
                )
                for _ in 0..<rounds {
                    id += 1
                    let times = try recorder.timeHeardPost(
                        #"{"op":"announce","id":\#(id),\#(voice)"text":"\#(body)"}"#, id: id, on: client)
                    figure.add(nanoseconds: times.heard)
                }
                figures.firstAudible.append(figure)
            }
        }
        return figures
    }

    /// The mixed text as the daemon renders it to WAV files (`wav`), beside its first and last
    /// Piper runs rendered alone, and where its runs begin and end.
    private func renderSwitch(_ text: String, config: String, environment: [String: String], wav: String) throws
        -> SwitchRendering
    {
        let daemon = try BenchDaemon(
            executable: executable, audio: "wav:\(wav)", extra: ["--config", config], environment: environment)
        defer { daemon.stop() }
        let client = try daemon.connect()
        var id = 0
        func render(_ fields: String) throws -> [Int16] {
            let before = Set((try? FileManager.default.contentsOfDirectory(atPath: wav)) ?? [])
            id += 1
            client.send(#"{"op":"announce","id":\#(id),\#(fields)}"#)
            guard client.waitFor(#""event":"finished""#, #""id":\#(id),"#) != nil else {
                throw BenchError("lost the connection")
            }
            let new = Set(try FileManager.default.contentsOfDirectory(atPath: wav)).subtracting(before)
            guard new.count == 1, let file = new.first,
                let pcm = WAVSamples.read(path: wav + "/" + file)
            else { throw BenchError("the wav output did not record one file for the post") }
            return pcm
        }
        _ = try render(#""text":"Ready.""#)
        let rendered = try render(#""text":"\#(text)""#)
        let firstRun = try render(#""text":"\#(Self.switchRuns[0])""#)
        let lastRun = try render(#""text":"\#(Self.switchRuns[2])""#)
        return try SwitchRendering(rendered: rendered, firstRun: firstRun, lastRun: lastRun)
    }

    /// One round: the mixed text heard at the sink, its runs' edges found in the recording, and
    /// the silence at each switch (and inside the first run) beyond the rendering's own.
    private func heardSwitches(
        _ text: String, rendering: SwitchRendering, recorder: MonitorRecorder, client: BenchClient, id: inout Int,
        into figures: inout EngineSwitchFigures
    ) throws {
        let own = rendering.own
        let start = recorder.sampleCount
        try client.speakWhole(id: &id, #""text":"\#(text)""#)
        guard let heard = recorder.waitForSilence(after: start, timeout: 30) else {
            throw BenchError("the mixed text was not heard at the sink")
        }
        let recording = recorder.samples(from: heard.firstAudible, to: heard.lastAudible + 1)
        guard let edges = Self.edges(in: recording, firstEnd: rendering.firstEnd, thirdStart: rendering.thirdStart)
        else {
            figures.unlocated += 1
            return
        }
        figures.insideFirstRun.add(
            nanoseconds: Self.nanoseconds(max(0, edges.last1 - (own.last1 - rendering.firstAudible))))
        figures.toEspeak.add(
            nanoseconds: Self.nanoseconds(max(0, (edges.first2 - edges.last1) - (own.first2 - own.last1))))
        figures.toPiper.add(
            nanoseconds: Self.nanoseconds(max(0, (edges.first3 - edges.last2) - (own.first3 - own.last2))))
    }

    /// The runs' edges in `recording` (from the post's first audible sample): the first run's
    /// last audible sample where its rendered last 20 ms (`firstEnd`) end, the second's first
    /// audible after it, the third's start where its rendered first 20 ms (`thirdStart`) are
    /// found, the second's last audible before that. Nil when either is not found.
    private static func edges(
        in recording: [Int16], firstEnd: ArraySlice<Int16>, thirdStart: ArraySlice<Int16>
    ) -> RunEdges? {
        let audible = { (sample: Int16) in abs(Int(sample)) > MonitorRecorder.audibleThreshold }
        guard let endOfFirst = find(firstEnd, in: recording, from: 0) else { return nil }
        let last1 = endOfFirst + firstEnd.count - 1
        guard let first2 = recording[(last1 + 1)...].firstIndex(where: audible),
            let first3 = find(thirdStart, in: recording, from: first2 + 1),
            let last2 = recording[..<first3].lastIndex(where: audible)
        else { return nil }
        return RunEdges(last1: last1, first2: first2, last2: last2, first3: first3)
    }

    /// Where `stretch` first occurs in `recording` from `start` on, within a few steps a sample.
    private static func find(_ stretch: ArraySlice<Int16>, in recording: [Int16], from start: Int) -> Int? {
        guard let lead = stretch.first else { return nil }
        var candidate = start
        while candidate + stretch.count <= recording.count {
            if abs(Int(recording[candidate]) - Int(lead)) <= 8,
                sameSamples(recording[candidate..<(candidate + stretch.count)], stretch)
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    private static func nanoseconds(_ samples: Int) -> UInt64 {
        UInt64(samples) * 1_000_000_000 / UInt64(MonitorRecorder.rate)
    }

    private func milliseconds(_ samples: Int) -> Double { Double(samples) * 1000 / Double(MonitorRecorder.rate) }
}

/// The samples of a 16-bit mono WAV file the daemon's `wav` output wrote.
enum WAVSamples {
    /// Nil when the file cannot be read or has no `data` chunk.
    static func read(path: String) -> [Int16]? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let bytes = [UInt8](data)
        var offset = 12
        while offset + 8 <= bytes.count {
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if bytes[offset..<(offset + 4)] == [0x64, 0x61, 0x74, 0x61] {
                let end = min(bytes.count, offset + 8 + size)
                return stride(from: offset + 8, to: end - 1, by: 2).map {
                    Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
                }
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
