// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// Figure 14's baseline: the pipeline users run today, PyPI piper-tts's `piper` command line
/// (`-m VOICE --output-raw`, text lines on standard input) piped into `paplay --raw`, played at the
/// figure's private PulseAudio.
struct PiperPipeline {
    /// The `piper` executable.
    let cli: String
    /// The voice's `.onnx`.
    let voice: String
    /// The PulseAudio client environment of the figure's server.
    let environment: [String: String]

    /// paplay's arguments for the voice's raw output (22,050 Hz mono s16le). The default latency
    /// is what a user's pipeline gets: PulseAudio's 2 s buffer, which starts playing once full or
    /// once piper's output ends.
    static let paplay = "paplay --raw --rate=22050 --channels=1 --format=s16le"
    /// With the model kept loaded, the stream must start on less than 2 s of audio: 20 ms latency
    /// (as a user of this mode would have to ask for).
    static let paplayLowLatency = paplay + " --latency-msec=20"

    /// Cold: start → first audible sample, the text written and standard input closed at once
    /// (`echo TEXT | piper ... | paplay ...`), `coldRounds` times a text; Python's start and the
    /// model's load are part of it. Warm: one pipeline kept running, a line written → its first
    /// audible sample, `rounds` times a text (after one unmeasured line); the long text's audio
    /// cannot be stopped without ending the pipeline, so it gets a fresh warmed pipeline per round
    /// and `coldRounds` rounds.
    func measure(recorder: MonitorRecorder, rounds: Int, coldRounds: Int) throws -> [Figure] {
        var rows: [Figure] = []
        for text in PiperBenchTexts.all {
            var figure = Figure(name: "14. piper CLI | paplay: start → audible, \(text.name)")
            for _ in 0..<coldRounds {
                let startSample = recorder.sampleCount
                let start = now()
                let pipeline = try RunningPipeline(
                    command: "\"$0\" -m \"$1\" --output-raw | " + Self.paplay, cli: cli, voice: voice,
                    environment: environment)
                pipeline.write(text.text + "\n")
                pipeline.closeInput()
                let first = recorder.firstAudible(after: startSample, timeout: 60)
                pipeline.kill()
                guard let first, let heard = recorder.renderedNanoseconds(ofSample: first) else {
                    throw BenchError("the piper pipeline was not heard at the sink within 60 s")
                }
                figure.add(nanoseconds: heard > start ? heard - start : 0)
                usleep(300_000)
            }
            rows.append(figure)
        }
        for text in PiperBenchTexts.all {
            var figure = Figure(name: "14. piper CLI | paplay, model loaded: line → audible, \(text.name)")
            let long = text.text.utf8.count > 1000
            var pipeline: RunningPipeline?
            for _ in 0..<(long ? coldRounds : rounds) {
                let running = try pipeline ?? warmPipeline(recorder)
                pipeline = running
                let startSample = recorder.sampleCount
                let start = now()
                running.write(text.text + "\n")
                guard let first = recorder.firstAudible(after: startSample, timeout: 60),
                    let heard = recorder.renderedNanoseconds(ofSample: first)
                else { throw BenchError("the piper pipeline was not heard at the sink within 60 s") }
                figure.add(nanoseconds: heard > start ? heard - start : 0)
                if long {
                    running.kill()
                    pipeline = nil
                } else {
                    _ = recorder.waitForSilence(after: first, timeout: 60)
                }
                usleep(300_000)
            }
            pipeline?.kill()
            rows.append(figure)
        }
        return rows
    }

    /// A running low-latency pipeline whose model is loaded: one line spoken and heard to its end.
    private func warmPipeline(_ recorder: MonitorRecorder) throws -> RunningPipeline {
        let pipeline = try RunningPipeline(
            command: "\"$0\" -m \"$1\" --output-raw | " + Self.paplayLowLatency, cli: cli, voice: voice,
            environment: environment)
        let startSample = recorder.sampleCount
        pipeline.write("Ready.\n")
        guard recorder.waitForSilence(after: startSample, timeout: 60) != nil else {
            pipeline.kill()
            throw BenchError("the piper pipeline's first line was not heard at the sink within 60 s")
        }
        usleep(300_000)
        return pipeline
    }
}

/// `sh -c 'piper ... | paplay ...'`, its standard input a pipe from the benchmark. The shell
/// makes the pipe between the two as a user's shell does.
final class RunningPipeline {
    private let shell = Process()
    private let input = Pipe()

    init(command: String, cli: String, voice: String, environment: [String: String]) throws {
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command, cli, voice]
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        shell.environment = merged
        shell.standardInput = input
        shell.standardOutput = FileHandle.nullDevice
        shell.standardError = FileHandle.nullDevice
        try shell.run()
    }

    func write(_ line: String) {
        let bytes = Array(line.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                Glibc.write(input.fileHandleForWriting.fileDescriptor, $0.baseAddress, $0.count)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// Kills piper and paplay (the shell's children, by pid) and waits for the shell.
    func kill() {
        for child in childProcesses(of: shell.processIdentifier) { Glibc.kill(child, SIGKILL) }
        closeInput()
        shell.waitUntilExit()
    }
}

extension MonitorRecorder {
    /// Writes `request` (announcement `id`) on `client` and times it at the sink: write →
    /// `started` and write → its first audible sample, in nanoseconds. Then stops the post, waits
    /// for its `finished` and leaves 300 ms of silence before the next. Figures 12 and 14.
    func timeHeardPost(_ request: String, id: Int, on client: BenchClient) throws -> (started: UInt64, heard: UInt64) {
        let startSample = sampleCount
        let start = now()
        client.send(request)
        guard let started = client.waitFor(#""event":"started""#, #""id":\#(id),"#) else {
            throw BenchError("lost the connection")
        }
        guard let first = firstAudible(after: startSample), let heard = renderedNanoseconds(ofSample: first)
        else { throw BenchError("nothing was heard at the sink") }
        client.send(#"{"op":"stop","id":"s\#(id)"}"#)
        guard client.waitFor(#""event":"finished""#, #""id":\#(id),"#) != nil else {
            throw BenchError("lost the connection")
        }
        usleep(300_000)
        return (started - start, heard > start ? heard - start : 0)
    }

    /// The first audible sample recorded after `start`, looking every 2 ms for up to `timeout` s.
    func firstAudible(after start: Int, timeout: Double = 10) -> Int? {
        var scanned = start
        let deadline = now() + UInt64(timeout * 1e9)
        while now() < deadline {
            let end = sampleCount
            if let index = samples(from: scanned, to: end).firstIndex(where: {
                abs(Int($0)) > MonitorRecorder.audibleThreshold
            }) {
                return scanned + index
            }
            scanned = end
            usleep(2_000)
        }
        return nil
    }
}
