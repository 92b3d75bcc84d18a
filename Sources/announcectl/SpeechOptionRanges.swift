// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import ArgumentParser

/// announcectl's `--rate`, `--pitch` and `--volume`: their help and their checks, from the
/// protocol's ``SpeechRanges``, so that they refuse exactly what the daemon would.
enum SpeechOptionRanges {
    /// `--rate`'s help.
    static let rateHelp = ArgumentHelp(
        "Words per minute, \(SpeechRanges.rate.lowerBound) to \(SpeechRanges.rate.upperBound)"
            + " (\(SpeechRanges.normalRate) is normal).")

    /// Refuses `rate`, `pitch` or `volume` outside its range, with a message naming the flag and the range.
    static func check(rate: Int?, pitch: Int? = nil, volume: Int? = nil) throws {
        try check(rate, "--rate", SpeechRanges.rate, unit: " words per minute")
        try check(pitch, "--pitch", SpeechRanges.pitch)
        try check(volume, "--volume", SpeechRanges.volume)
    }

    private static func check(_ value: Int?, _ flag: String, _ range: ClosedRange<Int>, unit: String = "") throws {
        guard let value, !range.contains(value) else { return }
        throw ValidationError(
            "\(flag) must be between \(range.lowerBound) and \(range.upperBound)\(unit), not \(value)")
    }
}
