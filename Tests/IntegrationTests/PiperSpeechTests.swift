// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The real Piper engine and test voice, where `scripts/fetch-piper-engine.sh` puts them.
enum FetchedPiper {
    /// The engine's libraries of this checkout.
    static let libraryDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/piper-engine/lib").path
    /// The test voice's folder.
    static let voiceDirectory =
        (ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] ?? NSHomeDirectory() + "/.cache") + "/announced/voices"

    static var isFetched: Bool {
        FileManager.default.fileExists(atPath: libraryDirectory + "/libsherpa-onnx-c-api.so")
            && FileManager.default.fileExists(atPath: voiceDirectory + "/en_US-joe-medium.onnx")
    }

    /// Puts en_US-joe-medium in `directory` (a hard link where the file system allows, else a copy).
    static func install(in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for file in ["en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"] {
            let source = voiceDirectory + "/" + file
            let target = directory + "/" + file
            if link(source, target) != 0 { try FileManager.default.copyItem(atPath: source, toPath: target) }
        }
    }
}

/// A post in a Piper voice through the real daemon: `announced-piper` speaks it, the monitor
/// names the engine, and espeak-ng's posts go on beside it.
@Suite(
    "Daemon: a Piper voice spoken by announced-piper", .daemonTimeLimit, .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct PiperSpeechTests {
    @Test(
        "voice en_us-joe-medium: queued, started, finished in order, heard (not silent) in the WAV file, the monitor naming piper; espeak-ng's post after it names espeak-ng"
    )
    func speaksAPostWithPiper() throws {
        let daemon = try DaemonProcess(environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory])
        try FetchedPiper.install(in: daemon.voicesDirectory)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        let monitor = try speechWatcher(daemon)
        let client = try daemon.connect()
        client.send(announce(1, "Download complete.", #","voice":"en_us-joe-medium""#))
        let terminal = try #require(client.waitForTerminal(id: 1, timeout: 90))
        #expect(terminal["success"] == .bool(true), "\(terminal.text)")
        let lines = client.lines(id: 1)
        #expect(lines.map { $0.event ?? "" } == ["queued", "started", "finished"])
        let seq = try #require(lines.first?["seq"]?.intValue)

        let samples = try daemon.wavSamples(seq: seq)
        let peak = samples.map { abs(Int($0)) }.max() ?? 0
        print("Piper through the daemon: \(samples.count) samples, peak \(peak)")
        #expect(samples.count > 11_025, "at least half a second of speech")
        #expect(peak > 1_000, "not silent")

        let started = try #require(
            monitor.waitFor(timeout: 10) { $0["state"] == .string("started") && $0["seq"] == .integer(Int64(seq)) })
        #expect(started["engine"] == .string("piper"), "\(started.text)")

        client.send(announce(2, "And espeak-ng."))
        #expect(client.waitForTerminal(id: 2)?["success"] == .bool(true))
        let seq2 = try #require(client.lines(id: 2).first?["seq"]?.intValue)
        let espeak = try #require(
            monitor.waitFor(timeout: 10) { $0["state"] == .string("started") && $0["seq"] == .integer(Int64(seq2)) })
        #expect(espeak["engine"] == .string("espeak-ng"), "\(espeak.text)")
        // Each engine in its own helper.
        #expect(EngineCrashTests.children(of: daemon.process.processIdentifier).count == 2)
        #expect(daemon.stop() == 0)
    }
}
