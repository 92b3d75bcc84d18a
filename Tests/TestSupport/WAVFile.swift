// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation

/// 16-bit mono PCM WAV files and streams: the daemon's `wav:DIR` output, `espeak-ng --stdout`.
public enum WAVFile {
    /// The samples of the WAV file at `url`.
    /// - Throws: when the file cannot be read or is not a WAV file with a `data` chunk.
    public static func samples(at url: URL) throws -> [Int16] {
        guard let samples = pcm(try Data(contentsOf: url))?.samples else { throw CocoaError(.fileReadCorruptFile) }
        return samples
    }

    /// The sample rate and the samples of a WAV file's (or stream's) `data` chunk; nil when
    /// `data` is not a WAV file with one. A chunk cut short (a stream's) gives what is there.
    public static func pcm(_ data: Data) -> (sampleRate: Int, samples: [Int16])? {
        let bytes = [UInt8](data)
        guard bytes.count >= 44, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46] else { return nil }
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = u32(offset + 4)
            if bytes[offset..<offset + 4] == [0x64, 0x61, 0x74, 0x61] { // "data"
                let end = min(bytes.count, offset + 8 + size)
                let samples = stride(from: offset + 8, to: end - 1, by: 2).map {
                    Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
                }
                return (u32(24), samples)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// The samples without leading and trailing zeros.
    public static func trimmed(_ samples: [Int16]) -> ArraySlice<Int16> {
        guard let first = samples.firstIndex(where: { $0 != 0 }), let last = samples.lastIndex(where: { $0 != 0 })
        else { return [] }
        return samples[first...last]
    }

    /// `espeak-ng -v VOICE -s RATE --stdout TEXT` (`-m` with `ssml`), as samples: the rendering
    /// the daemon's audio is compared with. Blocks until the tool exits.
    public static func espeakReference(text: String, voice: String = "en-us", rate: Int = 175, ssml: Bool = false)
        throws -> [Int16]
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/espeak-ng")
        process.arguments = ["-v", voice, "-s", String(rate), "--stdout"] + (ssml ? ["-m"] : []) + [text]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = "/tmp/announced-test-config"
        process.environment = environment
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        guard let samples = pcm(data)?.samples else { throw CocoaError(.fileReadCorruptFile) }
        return samples
    }
}
