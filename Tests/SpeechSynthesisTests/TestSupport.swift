// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import BlockingThreads
import Foundation
import TestSupport
import Logging
@testable import SpeechSynthesis

/// Collects a backend's events in order. A guard task ends the stream after `timeout`, so a
/// missing event fails the test instead of hanging it; nothing here waits on time otherwise.
struct EventRecorder {
    let handler: @Sendable (SpeechBackendEvent) -> Void
    private var iterator: AsyncStream<SpeechBackendEvent>.Iterator
    private(set) var all: [SpeechBackendEvent] = []

    init(timeout: Duration = .seconds(90)) {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechBackendEvent.self)
        handler = { continuation.yield($0) }
        iterator = stream.makeAsyncIterator()
        Task {
            try? await Task.sleep(for: timeout)
            continuation.finish()
        }
    }

    /// Events up to and including the first one matching `predicate` (all events so far if the
    /// guard timeout ended the stream first).
    mutating func events(through predicate: (SpeechBackendEvent) -> Bool) async -> [SpeechBackendEvent] {
        var collected: [SpeechBackendEvent] = []
        while let event = await iterator.next() {
            collected.append(event)
            all.append(event)
            if predicate(event) { break }
        }
        return collected
    }

    /// Events up to and including `finished` for `seq`.
    mutating func events(untilFinished seq: UInt64) async -> [SpeechBackendEvent] {
        await events(through: { if case .finished(seq, _) = $0 { return true } else { return false } })
    }
}

extension [SpeechBackendEvent] {
    /// The outcome of the `finished` event for `seq`.
    func outcome(of seq: UInt64) -> SpeechOutcome? {
        for case .finished(seq, let outcome) in self { return outcome }
        return nil
    }

    /// The word events for `seq`.
    func words(of seq: UInt64) -> [(offset: Int, length: Int)] {
        compactMap { if case .word(seq, let offset, let length) = $0 { (offset, length) } else { nil } }
    }
}

extension String {
    /// The substring at a range counted in Unicode scalars.
    func scalars(offset: Int, length: Int) -> String {
        let scalars = Array(unicodeScalars)
        guard offset >= 0, length >= 0, offset + length <= scalars.count else { return "<out of range \(offset)+\(length)>" }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[offset..<offset + length])
        return result
    }
}

enum TestAudio {
    static let logger = Logger(label: "SpeechSynthesisTests")

    /// The speech thread every backend of these tests is made with (as the daemon's `main` makes
    /// one for its backend): one espeak-ng helper for the test process.
    static let speech = SpeechThread.start()

    /// A fresh temporary directory.
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "speech-synthesis-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The PCM samples of a 16-bit mono WAV file's (or stream's) `data` chunk, plus its rate.
    static func pcm(fromWAV data: Data) -> (sampleRate: Int, samples: [Int16])? {
        let bytes = [UInt8](data)
        guard bytes.count >= 44, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46] else { return nil }
        func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
        let sampleRate = u32(24)
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            if id == "data" {
                let start = offset + 8
                let end = min(bytes.count, start + size)
                var samples: [Int16] = []
                samples.reserveCapacity((end - start) / 2)
                var index = start
                while index + 1 < end {
                    samples.append(Int16(bitPattern: UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8))
                    index += 2
                }
                return (sampleRate, samples)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// `espeak-ng -v VOICE -s RATE --stdout TEXT`, as PCM (run on a blocking thread: it waits
    /// for the tool to exit).
    static func cliPCM(text: String, voice: String = "en-us", rate: Int = 175) async throws -> [Int16] {
        try await onBlockingThread { try cliPCMBlocking(text: text, voice: voice, rate: rate) }
    }

    private static func cliPCMBlocking(text: String, voice: String, rate: Int) throws -> [Int16] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", voice, "-s", "\(rate)", "--stdout", text]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        return pcm(fromWAV: data)?.samples ?? []
    }

    /// Samples without leading and trailing zeros.
    static func trimmed(_ samples: [Int16]) -> ArraySlice<Int16> {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 }) else {
            return []
        }
        return samples[first...last]
    }
}

/// A null output that records, after each write returns, how much of what was written is still
/// unplayed: the engine's lookahead. A device paces its writer when that stays within its buffer.
final class LookaheadRecordingOutput: AudioOutput, @unchecked Sendable {
    private let device = NullAudioOutput()
    private let lock = NSLock()
    private var written = 0
    private var largest = 0

    var description: String { "lookahead-recording null" }

    /// The most frames ever unplayed when a write returned, and the frames written in all.
    var lookahead: (largest: Int, written: Int) { lock.withLock { (largest, written) } }

    func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        try device.begin(seq: seq, sampleRate: sampleRate, abortSignal: abortSignal)
        lock.withLock { written = 0 }
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        try device.write(samples)
        let played = device.playedFrames
        lock.withLock {
            written += samples.count
            largest = max(largest, written - played)
        }
    }

    var playedFrames: Int { device.playedFrames }
    func waitForPlayout(timeout: Duration) throws -> Bool { try device.waitForPlayout(timeout: timeout) }
    func discard() { device.discard() }
    func pause() { device.pause() }
    func resume() { device.resume() }
    func end() throws { try device.end() }
}

extension SpeechThread {
    /// The thread's Piper engine, whose load state the tests look at.
    var piper: PiperEngine {
        engine(PiperEngine.self)!
    }
}
