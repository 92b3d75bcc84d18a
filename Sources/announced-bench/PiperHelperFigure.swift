// SPDX-License-Identifier: GPL-3.0-or-later
import EngineWire
import Foundation
import Glibc

/// The Piper helper alone (`--only piper`): from writing a synthesis request to reading its first
/// `samples` frame, warm (the voice loaded, one utterance spoken first), for "Download complete."
/// with ONNX Runtime on 1 and on 2 threads (`ANNOUNCED_PIPER_THREADS`) and for a text of 5,000
/// characters; and from writing `abort` right after those first samples to reading `done`. The engine and
/// voice are those scripts/fetch-piper-engine.sh fetches (`ANNOUNCED_PIPER_LIBRARY_DIR` and
/// `ANNOUNCED_PIPER_TEST_VOICE` override where they are looked for).
struct PiperHelperFigure {
    let helper: String
    let libraryDirectory: String
    let voice: String
    let runs: Int

    /// A text of 5,000 characters whose first sentence is "Download complete.".
    static let longText =
        "Download complete. "
        + String(
            repeating: "The next sentence of a long text waits until the first has been sent, clause by clause. ",
            count: 57)

    /// The figures: first samples (short text, 1 and 2 threads; long text, 1 thread), and abort →
    /// done; with the voice's load time for the helper each came from.
    func measure() throws -> [(Figure, loadSeconds: Double)] {
        let one = try measure(threads: 1, text: "Download complete.")
        let two = try measure(threads: 2, text: "Download complete.")
        let long = try measure(threads: 1, text: Self.longText, name: "5,000 characters")
        return [(one.first, one.load), (two.first, two.load), (long.first, long.load), (one.abort, one.load)]
    }

    private func measure(threads: Int, text: String, name: String? = nil) throws -> (
        first: Figure, abort: Figure, load: Double
    ) {
        var environment = ProcessInfo.processInfo.environment
        environment["ANNOUNCED_PIPER_LIBRARY_DIR"] = libraryDirectory
        environment["ANNOUNCED_PIPER_VOICE_DIRS"] = URL(fileURLWithPath: voice).deletingLastPathComponent().path
        environment["ANNOUNCED_PIPER_THREADS"] = String(threads)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.environment = environment
        let toHelper = Pipe()
        let fromHelper = Pipe()
        process.standardInput = toHelper
        process.standardOutput = fromHelper
        try process.run()
        defer {
            try? toHelper.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let requests = FrameChannel(fd: toHelper.fileHandleForWriting.fileDescriptor)
        let messages = FrameChannel(fd: fromHelper.fileHandleForReading.fileDescriptor)
        func next() throws -> EngineMessage {
            guard let frame = messages.readFrame(timeout: 120_000) else {
                throw BenchError("announced-piper stopped answering")
            }
            return try EngineMessage(tag: frame.tag, payload: frame.payload)
        }
        guard case .ready = try next() else {
            throw BenchError("announced-piper did not start: is the engine at \(libraryDirectory)?")
        }
        let loadStart = ContinuousClock.now
        requests.write(EngineRequest.prepare(voice: voice).frame)
        guard case .voicePrepared(0, _) = try next() else { throw BenchError("announced-piper cannot load \(voice)") }
        let load = ContinuousClock.now - loadStart
        let request = EngineRequest.synthesize(
            SynthesisRequest(
                voice: voice, rate: 175, pitch: 50, volume: 100, punctuation: .none, punctuationList: "", ssml: false,
                text: text)
        ).frame
        var figure = Figure(
            name: "Piper helper: \(name ?? "\"\(text)\"") → first samples, \(threads) thread\(threads == 1 ? "" : "s")")
        var abortFigure = Figure(name: "Piper helper: abort after the first samples → done")
        func nanoseconds(_ duration: Duration) -> UInt64 {
            UInt64(duration.components.seconds) * 1_000_000_000
                + UInt64(duration.components.attoseconds / 1_000_000_000)
        }
        for run in 0...runs {
            let start = ContinuousClock.now
            requests.write(request)
            var first: Duration?
            var aborted: ContinuousClock.Instant?
            while true {
                let message = try next()
                if case .samples = message, first == nil {
                    first = ContinuousClock.now - start
                    aborted = ContinuousClock.now
                    requests.write(EngineRequest.abort.frame)
                }
                if case .done = message { break }
            }
            // The first run is not counted (the helper's first utterance after loading).
            if run > 0, let first, let aborted {
                figure.add(nanoseconds: nanoseconds(first))
                abortFigure.add(nanoseconds: nanoseconds(ContinuousClock.now - aborted))
            }
        }
        let seconds = Double(load.components.seconds) + Double(load.components.attoseconds) / 1e18
        return (figure, abortFigure, seconds)
    }
}
