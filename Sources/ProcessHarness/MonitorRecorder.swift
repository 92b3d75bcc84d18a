// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation
import Glibc
import POSIXThreads

extension HeadlessPulseAudio {
    /// `parec`, if installed.
    public static let parec = findExecutable("parec")
    /// Whether a server can be started and its null sink recorded.
    public static var canRecord: Bool { isInstalled && parec != nil }

    /// Starts recording the null sink's monitor.
    public func record() throws -> MonitorRecorder {
        guard let parec = Self.parec else {
            throw SpawnError("parec is not installed (apt-get install pulseaudio-utils)")
        }
        return try MonitorRecorder(executable: URL(fileURLWithPath: parec), environment: serverEnvironment)
    }
}

/// `parec` on a sink's monitor: raw s16le mono at 22050 Hz, collected as it arrives, with the
/// time each chunk arrived (for the benchmark's figures of what is heard when).
// Unchecked: what parec delivered (`bytes`, `arrivals`, `ended`) is touched only with `condition` held.
public final class MonitorRecorder: @unchecked Sendable {
    /// |x| above this is "audio" (espeak-ng's quietest onset samples are small; silence is zeros).
    public static let audibleThreshold: Int16 = 64
    /// The recording's sample rate.
    public static let rate = 22_050

    private let process = Process()
    private let condition = ConditionLock()
    private var bytes: [UInt8] = []
    /// For each chunk: the samples recorded once it had arrived, and when (CLOCK_MONOTONIC ns).
    private var arrivals: [(endSample: Int, nanoseconds: UInt64)] = []
    private var ended = false
    /// When recording began.
    public let started = ContinuousClock.now

    /// Records `sink`'s monitor with `parec`, asking the server for `latency` ms chunks (PipeWire
    /// needs 20: with less, parec delivers 64 KiB chunks and drops the last partial one on exit).
    public init(executable: URL, environment: [String: String], sink: String = "null", latency: Int = 5) throws {
        process.executableURL = executable
        process.arguments = [
            "-d", "\(sink).monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
            "--latency-msec=\(latency)",
        ]
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        let thread = Thread { [self] in
            while true {
                let data = handle.availableData
                let arrival = Self.monotonicNanoseconds()
                condition.withLock {
                    if data.isEmpty {
                        ended = true
                    } else {
                        bytes.append(contentsOf: data)
                        arrivals.append((bytes.count / 2, arrival))
                    }
                    condition.broadcast()
                }
                if data.isEmpty { return }
            }
        }
        thread.start()
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
        }
        // The reader thread ends at the pipe's end of file; wait for it, so no thread of this
        // recorder is left running while the test process exits.
        let deadline = monotonicTime(after: .seconds(5))
        condition.withLock { _ = condition.wait(until: { ended }, deadline: deadline) }
    }

    /// The samples recorded so far.
    public var sampleCount: Int {
        condition.withLock { bytes.count / 2 }
    }

    /// Waits until `count` samples have been recorded (or the recording ended, or `timeout`
    /// seconds passed); whether they were.
    public func waitForSamples(_ count: Int, timeout: Double = 10) -> Bool {
        let deadline = monotonicTime(after: .seconds(timeout))
        return condition.withLock {
            _ = condition.wait(until: { bytes.count / 2 >= count || ended }, deadline: deadline)
            return bytes.count / 2 >= count
        }
    }

    /// Waits until the sink renders at the recorder's latency (or `timeout` seconds passed);
    /// whether it does. A PulseAudio null sink renders in 2 s blocks until a low-latency client
    /// connects, and finishes the block under way first: the recorder's first chunk comes when
    /// that block ends, and the chunks after it every few milliseconds.
    public func waitUntilSinkSettles(timeout: Double = 10) -> Bool { waitForSamples(1, timeout: timeout) }

    /// The recorded samples from `start` up to (not including) `end`, as far as recorded.
    public func samples(from start: Int, to end: Int) -> [Int16] {
        condition.withLock {
            let upper = min(end, bytes.count / 2)
            guard start < upper else { return [] }
            return (start..<upper).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
        }
    }

    /// When the sample `index` was rendered, CLOCK_MONOTONIC ns, estimated as parec's tools do:
    /// its chunk's arrival less the samples after it in the chunk. Nil if it has not arrived.
    public func renderedNanoseconds(ofSample index: Int) -> UInt64? {
        condition.withLock {
            var low = 0
            var high = arrivals.count
            while low < high {
                let middle = (low + high) / 2
                if arrivals[middle].endSample > index { high = middle } else { low = middle + 1 }
            }
            guard low < arrivals.count else { return nil }
            let after = UInt64(arrivals[low].endSample - index)
            return arrivals[low].nanoseconds - after * 1_000_000_000 / UInt64(Self.rate)
        }
    }

    /// What was heard from `start` on, once audio has begun and then been followed by 300 ms of
    /// silence (or the recording ended); nil if nothing audible arrived within `timeout`.
    public func waitForSilence(after start: Int, timeout: Double = 20) -> (
        audible: Int, firstAudible: Int, lastAudible: Int
    )? {
        let deadline = monotonicTime(after: .seconds(timeout))
        let quiet = Self.rate * 3 / 10
        return condition.withLock {
            var scanned = start
            var first: Int?
            var last = start
            while true {
                let count = bytes.count / 2
                while scanned < count {
                    let value = Int16(bitPattern: UInt16(bytes[2 * scanned]) | UInt16(bytes[2 * scanned + 1]) << 8)
                    if abs(Int(value)) > Self.audibleThreshold {
                        if first == nil { first = scanned }
                        last = scanned
                    }
                    scanned += 1
                }
                if let first, count - last > quiet || ended {
                    return (last - first + 1, first, last)
                }
                if ended || !condition.wait(until: deadline) {
                    return first.map { (last - $0 + 1, $0, last) }
                }
            }
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
