// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import TestSupport
import Testing

/// Another application playing music, for the ducking tests: a sine tone (made by `sox`) played
/// with `pacat` into the sound server's null sink, whose monitor is recorded, while announced
/// speaks into a second null sink (`speech`), so the recording holds the tone alone and its level
/// is what the ducker did to it.
final class ToneRig {
    /// `sox`, if installed.
    static let sox = HeadlessPulseAudio.findExecutable("sox")
    /// `pacat`, if installed.
    static let pacat = HeadlessPulseAudio.findExecutable("pacat")
    /// Whether the tone can be made and played.
    static var canPlay: Bool { sox != nil && pacat != nil && HeadlessPulseAudio.parec != nil }
    /// The sink announced plays into.
    static let speechSink = "speech"
    /// The tone's frequency, and its amplitude as a fraction of full scale.
    static let frequency = 440
    static let amplitude = 0.25

    let label: String
    let serverEnvironment: [String: String]
    /// The daemon's environment: the server, and the `speech` sink as its device.
    let daemonEnvironment: [String: String]
    let recorder: MonitorRecorder
    private let tone: SpawnedProcess
    private var laterTones: [SpawnedProcess] = []
    /// Where the tones' files are made.
    private let toneDirectory = URL(fileURLWithPath: "/tmp/announced-tones-\(UUID().uuidString.prefix(8))")
    /// Keeps the sound server running as long as the rig.
    private let server: AnyObject

    /// Loads the `speech` sink on `server`, starts recording the null sink and playing the tone
    /// into it, and returns once the tone is heard.
    init(
        label: String, server: AnyObject, serverEnvironment: [String: String], clientEnvironment: [String: String],
        recorderLatency: Int
    ) throws {
        self.label = label
        self.server = server
        self.serverEnvironment = serverEnvironment
        daemonEnvironment = clientEnvironment.merging(["ANNOUNCED_AUDIO_DEVICE": Self.speechSink]) { $1 }
        _ = try Self.pactl(
            [
                "load-module", "module-null-sink", "sink_name=\(Self.speechSink)", "rate=22050", "channels=1",
                "format=s16le",
            ],
            serverEnvironment
        )
        recorder = try MonitorRecorder(
            executable: URL(fileURLWithPath: HeadlessPulseAudio.parec!), environment: serverEnvironment,
            latency: recorderLatency
        )
        try FileManager.default.createDirectory(at: toneDirectory, withIntermediateDirectories: true)
        tone = try Self.playTone(frequency: Self.frequency, name: "tone", in: toneDirectory, serverEnvironment)
        guard recorder.waitUntilSinkSettles() else { throw SpawnError("\(label): the sink's monitor recorded nothing") }
        guard waitForLevel(timeout: 10, { $0 > -30 }) != nil else {
            throw SpawnError("\(label): the tone is not heard in the recording")
        }
    }

    deinit {
        for player in [tone] + laterTones {
            player.signal(SIGKILL)
            player.waitForExit()
        }
        try? FileManager.default.removeItem(at: toneDirectory)
    }

    /// Starts another application's tone at `frequency` (a stream named `name`) in the null sink.
    func playAnotherTone(frequency: Int, name: String) throws {
        laterTones.append(try Self.playTone(frequency: frequency, name: name, in: toneDirectory, serverEnvironment))
    }

    /// `pacat` playing two minutes of a sine at `frequency` into the null sink, as a stream named
    /// `name`, from a file made in `directory`.
    private static func playTone(frequency: Int, name: String, in directory: URL, _ environment: [String: String])
        throws -> SpawnedProcess
    {
        let file = directory.appendingPathComponent("\(name).raw").path
        let sox = try SpawnedProcess(
            executable: Self.sox!,
            arguments: [
                "-n", "-t", "raw", "-r", "22050", "-e", "signed", "-b", "16", "-c", "1", file,
                "synth", "120", "sine", "\(frequency)", "vol", "\(Self.amplitude)",
            ],
            environment: environment, output: .discarded
        )
        guard sox.waitForExit() == 0 else { throw SpawnError("sox could not make a tone") }
        let player = try SpawnedProcess(
            executable: Self.pacat!,
            arguments: [
                "--raw", "-d", "null", "--format=s16le", "--rate=22050", "--channels=1", "--client-name=\(name)",
                "--stream-name=\(name)", file,
            ],
            environment: environment, output: .discarded
        )
        return player
    }

    /// The rig's sample rate.
    var rate: Int { MonitorRecorder.rate }

    /// Samples in `seconds`.
    func samples(_ seconds: Double) -> Int { Int(seconds * Double(rate)) }

    /// The level, dB relative to full scale, of the recording from `start` for `seconds` (waiting
    /// until that much has been recorded).
    func level(from start: Int, seconds: Double) -> Double {
        let end = start + samples(seconds)
        _ = recorder.waitForSamples(end)
        return Self.decibels(recorder.samples(from: start, to: end))
    }

    /// The level of the recording's next `seconds`.
    func levelNow(seconds: Double) -> Double { level(from: recorder.sampleCount, seconds: seconds) }

    /// Waits, as the recording arrives, until the level of its last 100 ms satisfies
    /// `condition`; the sample where that window ends, or nil after `timeout` seconds.
    func waitForLevel(timeout: Double, _ condition: (Double) -> Bool) -> Int? {
        let window = samples(0.1)
        let step = samples(0.02)
        var end = max(recorder.sampleCount, window)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard recorder.waitForSamples(end, timeout: deadline.timeIntervalSinceNow) else { return nil }
            if condition(Self.decibels(recorder.samples(from: end - window, to: end))) { return end }
            end += step
        }
        return nil
    }

    /// The sink input of the tone, by its index, as `pactl` lists it.
    func toneSinkInput() throws -> String {
        let sinks = try Self.pactl(["list", "short", "sinks"], serverEnvironment)
        let nullSink = try #require(
            sinks.split(separator: "\n").map { $0.split(separator: "\t") }.first { $0.count > 1 && $0[1] == "null" })[0]
        let inputs = try Self.pactl(["list", "short", "sink-inputs"], serverEnvironment)
        let tone = try #require(
            inputs.split(separator: "\n").map { $0.split(separator: "\t") }.first { $0.count > 1 && $0[1] == nullSink })
        return String(tone[0])
    }

    /// `pactl ARGUMENTS`'s output; throws when it fails.
    @discardableResult
    static func pactl(_ arguments: [String], _ environment: [String: String]) throws -> String {
        let process = try SpawnedProcess(
            executable: HeadlessPulseAudio.pactl!, arguments: arguments, environment: environment, output: .pipe)
        let output = process.output?.readDataToEndOfFile() ?? Data()
        guard process.waitForExit() == 0 else {
            throw SpawnError(
                "pactl \(arguments.joined(separator: " ")) failed: \(String(decoding: output, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The RMS level of `samples` in dB relative to full scale (-120 for silence).
    static func decibels(_ samples: [Int16]) -> Double {
        guard !samples.isEmpty else { return -120 }
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        guard power > 0 else { return -120 }
        return 10 * log10(power / (32768.0 * 32768.0))
    }
}

/// A level as the report prints it.
func dB(_ value: Double) -> String { String(format: "%.1f dB", value) }
