// SPDX-License-Identifier: GPL-3.0-or-later
import Glibc
import SystemPackage

/// One RIFF/WAVE file of 16-bit mono PCM, written as samples arrive.
final class WAVFileWriter {
    /// The size of the canonical 44-byte header.
    static let headerSize = 44

    let path: String
    let sampleRate: Int
    private var descriptor: Int32
    private(set) var frames = 0

    /// Creates (or replaces) the file with a header for an empty recording.
    init(path: String, sampleRate: Int) throws {
        self.path = path
        self.sampleRate = sampleRate
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SpeechSynthesisError.fileWriteFailed(path, reason: "it could not be created (\(Self.lastError()))")
        }
        do {
            try write(Self.header(sampleRate: sampleRate, frames: 0), at: 0)
        } catch {
            close(descriptor)
            throw error
        }
    }

    /// Appends samples, little-endian.
    func append(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        var bytes = [UInt8](repeating: 0, count: samples.count * 2)
        bytes.withUnsafeMutableBytes { buffer in
            for (index, sample) in samples.enumerated() {
                buffer.storeBytes(of: sample.littleEndian, toByteOffset: index * 2, as: Int16.self)
            }
        }
        try write(bytes, at: Self.headerSize + frames * 2)
        frames += samples.count
    }

    /// Cuts the recording down to its first `frames` frames.
    func truncate(toFrames newFrames: Int) throws {
        guard newFrames < frames else { return }
        let kept = max(0, newFrames)
        guard ftruncate(descriptor, off_t(Self.headerSize + kept * 2)) == 0 else {
            throw SpeechSynthesisError.fileWriteFailed(path, reason: Self.lastError())
        }
        frames = kept
    }

    /// Writes the final sizes into the header and closes the file.
    func finish() throws {
        defer { abandon() }
        try write(Self.header(sampleRate: sampleRate, frames: frames), at: 0)
    }

    /// Closes the file without touching the header.
    func abandon() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Writes all of `bytes` at `offset`.
    private func write(_ bytes: [UInt8], at offset: Int) throws {
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(toAbsoluteOffset: Int64(offset), bytes)
        } catch {
            throw SpeechSynthesisError.fileWriteFailed(path, reason: "\(error)")
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }

    /// The 44-byte header of a 16-bit mono PCM file of `frames` frames.
    static func header(sampleRate: Int, frames: Int) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(headerSize)
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) }
        }
        func append16(_ value: Int) {
            withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) }
        }
        let dataBytes = frames * 2
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1) // PCM
        append16(1) // mono
        append32(sampleRate)
        append32(sampleRate * 2) // byte rate
        append16(2) // block align
        append16(16) // bits per sample
        append("data")
        append32(dataBytes)
        return data
    }
}
