// SPDX-License-Identifier: GPL-3.0-or-later
/// Why the settings cannot be used: one line naming where the bad value came from (the file and
/// key, the environment variable or the flag) and what to do about it.
public struct SettingsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is: a file path, an environment variable or a flag.
    public var source: SettingsSource
    /// The key, as the file spells it (`rate`, `audio.output`), when the problem is one value.
    public var key: String?
    /// What is wrong and what to do, without the source.
    public var problem: String

    /// Creates an error about `key` (if any) from `source`.
    public init(source: SettingsSource, key: String?, problem: String) {
        self.source = source
        self.key = key
        self.problem = problem
    }

    /// The one-line message, e.g. `config file /etc/announced/announced.json, key "rate": ...`.
    public var description: String {
        switch source {
        case .file(let path):
            if let key { return "config file \(path), key \"\(key)\": \(problem)" }
            return "config file \(path): \(problem)"
        case .environment(let name):
            return "environment variable \(name): \(problem)"
        case .flag(let name):
            return "\(name): \(problem)"
        }
    }
}

/// Where a setting came from.
public enum SettingsSource: Sendable, Hashable, CustomStringConvertible {
    /// A configuration file, by path.
    case file(String)
    /// An `ANNOUNCED_*` environment variable, by name.
    case environment(String)
    /// A command-line flag, e.g. `--rate`.
    case flag(String)

    /// `config file PATH`, `environment variable NAME` or the flag.
    public var description: String {
        switch self {
        case .file(let path): return "config file \(path)"
        case .environment(let name): return "environment variable \(name)"
        case .flag(let name): return name
        }
    }
}
