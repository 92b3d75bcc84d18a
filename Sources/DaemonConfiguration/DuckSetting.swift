// SPDX-License-Identifier: GPL-3.0-or-later
/// What `duck` says: leave other applications' playback alone, or lower it by a number of
/// decibels while announced speaks.
public enum DuckSetting: Sendable, Hashable, CustomStringConvertible {
    /// Other applications' playback is never touched (the default).
    case off
    /// Other applications' playback streams are lowered by this many decibels (negative).
    case level(decibels: Int)

    /// The levels a user may give, in decibels.
    public static let decibelRange = -60 ... -1

    /// What a value must be, as an error message says it.
    static let requirement = "must be off or a level in decibels from -60 to -1 (e.g. -12)"

    /// Parses `off`, or a whole number of decibels from -60 to -1 (`-12`, also `-12dB`); nil for
    /// anything else.
    public init?(_ text: String) {
        if text == "off" {
            self = .off
            return
        }
        var number = Substring(text)
        if number.lowercased().hasSuffix("db") { number = number.dropLast(2) }
        guard let decibels = Int(number), Self.decibelRange.contains(decibels) else { return nil }
        self = .level(decibels: decibels)
    }

    /// The setting as written: `off` or the number of decibels (`-12`).
    public var description: String {
        switch self {
        case .off: return "off"
        case .level(let decibels): return "\(decibels)"
        }
    }
}
