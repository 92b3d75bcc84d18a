import Foundation

/// One RIFF/WAVE file of 16-bit mono PCM, written as samples arrive.
final class WAVFileWriter {
    /// The size of the canonical 44-byte header.
    static let headerSize = 44

    let path: String
    let sampleRate: Int
    private let handle: FileHandle
    private(set) var frames = 0

    /// Creates (or replaces) the file with a header for an empty recording.
    init(path: String, sampleRate: Int) throws {
        self.path = path
        self.sampleRate = sampleRate
        guard FileManager.default.createFile(atPath: path, contents: Self.header(sampleRate: sampleRate, frames: 0)),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw SpeechSynthesisError.fileWriteFailed(path, reason: "the file could not be created")
        }
        self.handle = handle
        do {
            try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw SpeechSynthesisError.fileWriteFailed(path, reason: "\(error)")
        }
    }

    /// Appends samples, little-endian.
    func append(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        var data = Data(count: samples.count * 2)
        data.withUnsafeMutableBytes { bytes in
            for (index, sample) in samples.enumerated() {
                bytes.storeBytes(of: sample.littleEndian, toByteOffset: index * 2, as: Int16.self)
            }
        }
        try perform { try handle.write(contentsOf: data) }
        frames += samples.count
    }

    /// Cuts the recording down to its first `frames` frames.
    func truncate(toFrames newFrames: Int) throws {
        guard newFrames < frames else { return }
        let kept = max(0, newFrames)
        try perform {
            try handle.truncate(atOffset: UInt64(Self.headerSize + kept * 2))
            try handle.seekToEnd()
        }
        frames = kept
    }

    /// Writes the final sizes into the header and closes the file.
    func finish() throws {
        try perform {
            try handle.seek(toOffset: 0)
            try handle.write(contentsOf: Self.header(sampleRate: sampleRate, frames: frames))
            try handle.close()
        }
    }

    /// Closes the file without touching the header.
    func abandon() {
        try? handle.close()
    }

    private func perform(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            throw SpeechSynthesisError.fileWriteFailed(path, reason: "\(error)")
        }
    }

    /// The 44-byte header of a 16-bit mono PCM file of `frames` frames.
    static func header(sampleRate: Int, frames: Int) -> Data {
        var data = Data()
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { data.append(contentsOf: $0) } }
        let dataBytes = frames * 2
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(sampleRate)
        append32(sampleRate * 2)  // byte rate
        append16(2)  // block align
        append16(16)  // bits per sample
        append("data")
        append32(dataBytes)
        return data
    }
}
