// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import BlockingThreads
import Foundation
import Logging
import POSIXThreads
import TestSupport

@testable import SpeechSynthesis

/// Collects a backend's events in order. Each event is awaited within `timeout`
/// (``withTimeout(_:seconds:_:)``), so a missing event fails the test instead of hanging it;
/// nothing here waits on time otherwise.
struct EventRecorder {
    let handler: @Sendable (SpeechBackendEvent) -> Void
    private let stream: AsyncStream<SpeechBackendEvent>
    private let timeout: Double
    /// Whether an event did not come in time: later waits return at once, with nothing.
    private var timedOut = false
    private(set) var all: [SpeechBackendEvent] = []

    init(timeout: Duration = .seconds(90)) {
        let (stream, continuation) = AsyncStream.makeStream(of: SpeechBackendEvent.self)
        handler = { continuation.yield($0) }
        self.stream = stream
        self.timeout = Double(timeout.components.seconds)
    }

    /// Events up to and including the first one matching `predicate` (all events so far if one
    /// did not come within the timeout).
    mutating func events(through predicate: (SpeechBackendEvent) -> Bool) async -> [SpeechBackendEvent] {
        var collected: [SpeechBackendEvent] = []
        while !timedOut {
            let next: SpeechBackendEvent?
            do {
                next = try await stream.next(within: timeout, "the backend's next event")
            } catch {
                timedOut = true
                break
            }
            guard let event = next else { break }
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
        guard offset >= 0, length >= 0, offset + length <= scalars.count else {
            return "<out of range \(offset)+\(length)>"
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[offset..<offset + length])
        return result
    }
}

/// The WAV reader of every suite (TestSupport's), under its name here for the files that do not
/// import TestSupport.
typealias WAVFile = TestSupport.WAVFile

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

    /// `espeak-ng -v VOICE -s RATE --stdout TEXT`, as PCM (run on a blocking thread: it waits
    /// for the tool to exit).
    static func cliPCM(text: String, voice: String = "en-us", rate: Int = 175) async throws -> [Int16] {
        try await onBlockingThread { try WAVFile.espeakReference(text: text, voice: voice, rate: rate) }
    }
}

/// A test output over a null device: what it does not record itself, the device does.
protocol NullDeviceOutput: AudioOutput {
    var device: NullAudioOutput { get }
}

extension NullDeviceOutput {
    func write(_ samples: UnsafeBufferPointer<Int16>) throws { try device.write(samples) }
    var playedFrames: Int { device.playedFrames }
    func waitForPlayout(timeout: Duration) throws -> Bool { try device.waitForPlayout(timeout: timeout) }
    func discard() { device.discard() }
    func pause() { device.pause() }
    func resume() { device.resume() }
    func end() throws { try device.end() }
}

/// A null output that records, after each write returns, how much of what was written is still
/// unplayed: the engine's lookahead. A device paces its writer when that stays within its buffer.
final class LookaheadRecordingOutput: NullDeviceOutput, @unchecked Sendable {
    let device = NullAudioOutput()
    private let lock = ConditionLock()
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
}

extension SpeechThread {
    /// The thread's Piper engine, whose load state the tests look at.
    var piper: PiperEngine {
        engine(PiperEngine.self)!
    }
}
