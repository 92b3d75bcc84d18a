// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The test voice's option fragment for `announce`.
private let joe = #","voice":"en_us-joe-medium""#

/// The daemon's log lines that contain `message`.
private func logLines(_ daemon: DaemonProcess, _ message: String) -> [Substring] {
    daemon.stderrSoFar().split(separator: "\n").filter { $0.contains(message) }
}

/// The daemon's running `announced-piper` processes.
private func piperHelpers(_ daemon: DaemonProcess) -> [Int32] {
    EngineCrashTests.children(of: daemon.process.processIdentifier).filter {
        ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) ?? "")
            .hasSuffix("/announced-piper")
    }
}

/// Issue 37 §1: the Spiel provider's streams get their audio from the speech thread's engines,
/// through the real daemon on a private session bus, a real Gio client (Fixtures/spiel-client.py),
/// the real Piper helper and the test voice. Which helper spoke is read in the daemon's log
/// (`piper helper started`, `piper voice loaded`, `piper spare helper started`/`stopped`, the
/// speech cache's lines) and in its child processes, never in timings.
@Suite(
    "Daemon: Spiel streams on the speech thread's engines", .onBlockingThreads,
    .enabled(
        if: SpielClient.isAvailable && FetchedPiper.isFetched,
        "needs a session bus and python3-gi (apt-get install dbus-daemon python3-gi), and the Piper engine and its test voice (scripts/fetch-piper-engine.sh)"
    )
)
struct SpielEngineTests {
    /// A daemon serving `session`'s bus with the Piper test voice installed (renderings noiseless).
    private func spielPiperDaemon(_ session: DesktopSession, _ extra: [String: String] = [:]) throws
        -> DaemonProcess
    {
        let daemon = try spielDaemon(
            session,
            environment: ["ANNOUNCED_PIPER_LIBRARY_DIR": FetchedPiper.libraryDirectory, "ANNOUNCED_PIPER_NOISE": "0"]
                .merging(extra) { $1 })
        try FetchedPiper.install(in: daemon.voicesDirectory)
        #expect(daemon.waitForStderr(containing: "piper voices changed voices=en_us-joe-medium", timeout: 10))
        return daemon
    }

    @Test(
        "six Synthesize calls in a Piper voice: one helper started, the voice loaded once, and it stays loaded after the streams"
    )
    func oneHelperForManyStreams() throws {
        let session = try DesktopSession()
        let daemon = try spielPiperDaemon(session)
        let client = SpielClient(session: session)
        for number in 1...6 {
            let (summary, samples) = try client.stream(
                voice: "en_us-joe-medium", text: "Message number \(number) has arrived.")
            #expect(summary["header"]?.stringValue == "0.01")
            #expect(samples.count > 5_000 && peak(samples) > 1_000, "call \(number): \(samples.count) samples")
        }
        #expect(
            daemon.waitForStderr(
                containing: "end=finished name=spiel:python3 voice=en_us-joe-medium", count: 6, timeout: 20))
        #expect(logLines(daemon, "piper helper started").count == 1, "one helper for every stream")
        #expect(logLines(daemon, "piper voice loaded").count == 1, "the model loaded once")
        #expect(logLines(daemon, "spare helper").isEmpty, "the calls did not overlap: no spare")
        #expect(piperHelpers(daemon).count == 1, "the voice stays loaded after the streams (engine_idle_unload)")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a phrase said again through Spiel, or said natively first, is streamed from the one speech cache, the same samples"
    )
    func sharedSpeechCache() throws {
        let session = try DesktopSession()
        let daemon = try spielPiperDaemon(session)
        let client = SpielClient(session: session)
        let first = try client.stream(voice: "en_us-joe-medium", text: "Download complete.")
        let again = try client.stream(voice: "en_us-joe-medium", text: "Download complete.")
        #expect(again.samples == first.samples && first.samples.count > 5_000)
        #expect(logLines(daemon, "streaming from the speech cache").count == 1, "the second call is a cache hit")

        // Said natively, then asked for through Spiel: the post's rendering is the stream's.
        let line = try daemon.connect()
        line.send(announce(1, "Your files are ready.", joe))
        let finished = try #require(line.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "\(finished.text)")
        let native = try daemon.wavSamples(seq: try #require(finished["seq"]?.intValue))
        let streamed = try client.stream(voice: "en_us-joe-medium", text: "Your files are ready.")
        #expect(logLines(daemon, "streaming from the speech cache").count == 2, "the native post's rendering")
        #expect(streamed.samples.count == native.count && native.count > 5_000)
        #expect(largestDifference(streamed.samples, native) <= renderingTolerance)
        #expect(logLines(daemon, "piper voice loaded").count == 1)
        #expect(daemon.stop() == 0)
    }

    @Test(
        "a Spiel stream holding the Piper helper and a native post in the same voice overlap: the post gets a spare, which goes once the overlap ends; the cancelled stream's helper goes back warm"
    )
    func overlapGetsASpare() throws {
        let session = try DesktopSession()
        let daemon = try spielPiperDaemon(session)
        // Loads the voice into the warm helper.
        #expect(
            try SpielClient(session: session).stream(voice: "en_us-joe-medium", text: "Ready.").samples.count > 1000)
        let text = String(repeating: "This chapter goes on and on. ", count: 50)
        let holder = try session.start(
            "hold-open", "/usr/bin/python3", [SpielClient.script, "hold-open", "en_us-joe-medium", text],
            output: .pipe)
        try #require(
            DesktopSession.firstLine(of: holder, timeout: 90, where: { $0.contains("holding") }) != nil,
            "the stream did not start")
        let line = try daemon.connect()
        line.send(announce(1, "Your files are ready.", joe))
        let finished = try #require(line.waitForTerminal(id: 1, timeout: 90))
        #expect(finished["success"] == .bool(true), "the post did not wait for the stream: \(finished.text)")
        #expect(logLines(daemon, "piper spare helper started").count == 1)
        #expect(piperHelpers(daemon).count == 2, "the warm helper (the stream's) and the spare (the post's)")

        holder.signal(SIGTERM)
        #expect(holder.waitForExit() == 0)
        #expect(daemon.waitForStderr(containing: "end=cancelled", timeout: 20))
        #expect(daemon.waitForStderr(containing: "piper spare helper stopped", timeout: 20))
        #expect(piperHelpers(daemon).count == 1, "one copy of the voice once the requests no longer overlap")
        // The cancelled stream's helper was read to its `done` and given back, not killed: the
        // next call is spoken by it, without a new helper or a load.
        #expect(
            try SpielClient(session: session).stream(voice: "en_us-joe-medium", text: "Done now.").samples.count > 1000)
        #expect(logLines(daemon, "piper helper started").count == 1, "\(daemon.stderrSoFar().suffix(3000))")
        #expect(logLines(daemon, "piper voice loaded").count == 2, "the warm helper's load and the spare's")
        #expect(daemon.stop() == 0)
    }
}

/// Issue 37 §2: a mixed-language post said again is played from the speech cache run by run.
@Suite(
    "Daemon: the runs of a mixed-language post said again come from the speech cache", .onBlockingThreads,
    .enabled(
        if: FetchedPiper.isFetched,
        "the Piper engine or its test voice is not fetched: run scripts/fetch-piper-engine.sh")
)
struct MixedPostCacheTests {
    @Test(
        "\"The file Привет was saved.\" in the Piper voice, said twice: the second post's Piper runs are played from the cache, the recording the same"
    )
    func runsFromTheCache() throws {
        let daemon = try piperDaemon()
        let client = try daemon.connect()
        let text = "The file Привет was saved."
        var seqs: [Int] = []
        for id in 1...2 {
            client.send(announce(id, text, joe))
            let finished = try #require(client.waitForTerminal(id: id, timeout: 90))
            #expect(finished["success"] == .bool(true), "\(finished.text)")
            seqs.append(try #require(finished["seq"]?.intValue))
        }
        let whole = logLines(daemon, "speaking from the speech cache")
        let runs = logLines(daemon, "speaking a run from the speech cache")
        let of = { (seq: Int) in { (line: Substring) in line.split(separator: " ").contains("seq=\(seq)") } }
        #expect(!whole.contains(where: of(seqs[0])), "the first post is synthesized")
        #expect(whole.contains(where: of(seqs[1])), "its first run (Piper) is a hit: \(whole)")
        #expect(runs.filter(of(seqs[1])).count == 1, "its last run (Piper) is a hit: \(runs)")
        let heard = try seqs.map { try daemon.wavSamples(seq: $0) }
        #expect(heard[0].count == heard[1].count && heard[0].count > 20_000)
        // The Piper runs, "The file " and "was saved.", are the same samples; espeak-ng's Russian
        // run between them may differ by its helper's history.
        let firstDifference = heard[0].indices.first { abs(Int(heard[0][$0]) - Int(heard[1][$0])) > renderingTolerance }
        print("mixed post said again: \(heard[0].count) samples, first difference at \(firstDifference ?? -1)")
        #expect(largestDifference(Array(heard[0].prefix(8_000)), Array(heard[1].prefix(8_000))) <= renderingTolerance)
        #expect(largestDifference(Array(heard[0].suffix(8_000)), Array(heard[1].suffix(8_000))) <= renderingTolerance)
        #expect(daemon.stop() == 0)
    }
}
