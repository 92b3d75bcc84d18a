// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// What `duck` says: leave other applications' playback alone, or lower it by a number of
/// decibels while announced speaks.
public enum DuckSetting: Sendable, Hashable, CustomStringConvertible {
    /// Other applications' playback is never touched (the default).
    case off
    /// Other applications' playback streams are lowered by this many decibels (negative).
    case level(decibels: Int)

    /// The levels a user may give, in decibels.
    public static let decibelRange = -60 ... -1

    /// `duck`'s type: `off` or a level, which the file may write as a number (`-12`) or a string
    /// (`"-12"`, `"-12dB"`).
    static let settingType = SettingType<DuckSetting>(
        summary: "`\"off\"` or a number of decibels from -60 to -1",
        requirement: "must be off or a level in decibels from -60 to -1 (e.g. -12)",
        fromText: DuckSetting.init,
        fromJSON: { json in
            json.integerValue.map { DuckSetting(String($0)) } ?? json.stringValue.flatMap(DuckSetting.init)
        },
        toJSON: { duck in
            switch duck {
            case .off: return .string("off")
            case .level(let decibels): return .integer(Int64(decibels))
            }
        })

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
