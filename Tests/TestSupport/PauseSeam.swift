// SPDX-License-Identifier: GPL-3.0-or-later
/// Where a recording of paused audio continues after its pause, compared with what was played:
/// the pause is the longest run of silence (exact zeros) in the recording, and the samples just
/// before and just after it are found in the reference. Zeros are left out on both sides, so a
/// pause that falls into a silence of the audio itself still lines up.
public struct PauseSeam: Equatable, CustomStringConvertible {
    /// Samples of the reference (zeros left out) heard before the pause.
    public var heardBefore: Int
    /// The first sample of the reference (zeros left out) heard after the pause.
    public var resumedAt: Int
    /// The silent samples of the pause.
    public var pauseLength: Int

    /// Reference samples lost across the pause (positive) or heard twice (negative).
    public var jump: Int { resumedAt - heardBefore }

    /// Whether the jump is within what a PulseAudio server itself gets wrong at 22050 Hz: at most
    /// 5 ms heard twice (a rewind the monitor could not take back) and 7 ms lost (a restart the
    /// monitor records late, or an underrun on a loaded machine), observed here up to 3.5 and 4.7
    /// ms. A pause that flushed the stream instead of holding it loses 10-20 ms (220-440).
    public var isWithinServerTolerance: Bool { jump >= -110 && jump <= 160 }

    /// The seam in words, for test output.
    public var description: String {
        "pause of \(pauseLength) samples after reference sample \(heardBefore), resumed at \(resumedAt) (jump \(jump))"
    }

    /// The seam of `recorded` against `reference`; nil when the recording has no pause between
    /// audio, or the samples around it are not found in the reference.
    public init?(recorded: [Int16], reference: [Int16], key: Int = 16) {
        guard let first = recorded.firstIndex(where: { $0 != 0 }), let last = recorded.lastIndex(where: { $0 != 0 })
        else { return nil }
        var longest = 0..<0
        var runStart: Int?
        for index in first...last {
            if recorded[index] == 0 {
                if runStart == nil { runStart = index }
            } else if let start = runStart {
                if index - start > longest.count { longest = start..<index }
                runStart = nil
            }
        }
        guard !longest.isEmpty else { return nil }
        let before = recorded[first..<longest.lowerBound].filter { $0 != 0 }.suffix(key)
        let after = recorded[longest.upperBound...last].filter { $0 != 0 }.prefix(key)
        let nonzero = reference.filter { $0 != 0 }
        guard before.count == key, after.count == key,
            let beforeStart = Self.find(Array(before), in: nonzero),
            let afterStart = Self.find(Array(after), in: nonzero)
        else { return nil }
        heardBefore = beforeStart + key
        resumedAt = afterStart
        pauseLength = longest.count
    }

    private static func find(_ needle: [Int16], in haystack: [Int16]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
