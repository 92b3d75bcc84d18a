// SPDX-License-Identifier: GPL-3.0-or-later
import EspeakHelperWire
import Foundation
import Glibc

/// The Piper helper alone (`--only piper`): from writing a synthesis request for "Download
/// complete." to reading its first `samples` frame, warm (the voice loaded, one utterance spoken
/// first), with ONNX Runtime on 1 and on 2 threads (`ANNOUNCED_PIPER_THREADS`). The engine and
/// voice are those scripts/fetch-piper-engine.sh fetches (`ANNOUNCED_PIPER_LIBRARY_DIR` and
/// `ANNOUNCED_PIPER_TEST_VOICE` override where they are looked for).
struct PiperHelperFigure {
    let helper: String
    let libraryDirectory: String
    let voice: String
    let runs: Int

    /// The figures for each thread count, and the voice's load time for each.
    func measure(threads: [Int] = [1, 2], text: String = "Download complete.") throws -> [(Figure, loadSeconds: Double)] {
        try threads.map { count in try measure(threads: count, text: text) }
    }

    private func measure(threads: Int, text: String) throws -> (Figure, loadSeconds: Double) {
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
        func next() throws -> HelperMessage {
            guard let frame = messages.readFrame(timeout: 120_000) else { throw BenchError("announced-piper stopped answering") }
            return try HelperMessage(tag: frame.tag, payload: frame.payload)
        }
        guard case .ready = try next() else { throw BenchError("announced-piper did not start: is the engine at \(libraryDirectory)?") }
        let loadStart = ContinuousClock.now
        requests.write(HelperRequest.prepare(voice: voice).frame)
        guard case .voicePrepared(0, _) = try next() else { throw BenchError("announced-piper cannot load \(voice)") }
        let load = ContinuousClock.now - loadStart
        let request = HelperRequest.synthesize(
            SynthesisRequest(voice: voice, rate: 175, pitch: 50, volume: 100, punctuation: .none, punctuationList: "", ssml: false, text: text)
        ).frame
        var figure = Figure(name: "Piper helper: \"\(text)\" → first samples, \(threads) thread\(threads == 1 ? "" : "s")")
        for run in 0...runs {
            let start = ContinuousClock.now
            requests.write(request)
            var first: Duration?
            while true {
                let message = try next()
                if case .samples = message, first == nil { first = ContinuousClock.now - start }
                if case .done = message { break }
            }
            // The first run warms ONNX Runtime up (its first run allocates); it is not counted.
            if run > 0, let first {
                figure.add(nanoseconds: UInt64(first.components.seconds) * 1_000_000_000 + UInt64(first.components.attoseconds / 1_000_000_000))
            }
        }
        let seconds = Double(load.components.seconds) + Double(load.components.attoseconds) / 1e18
        return (figure, seconds)
    }
}
