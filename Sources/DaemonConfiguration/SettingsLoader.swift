// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// The command line's settings: `--config` and the settings flags (``SettingsTable``'s), each
/// value parsed once, when the flags are read.
public struct CommandLineSettings: Sendable, Hashable {
    /// One settings flag as given.
    public struct GivenFlag: Sendable, Hashable {
        /// The flag, e.g. `--rate`.
        public var name: String
        /// Its value as written.
        public var value: String
    }

    /// `--config FILE`: the configuration file, which must then exist.
    public var config: String?
    /// The settings flags given, in order.
    public private(set) var given: [GivenFlag] = []
    /// The values they set, by key.
    var values: [String: SettingBox] = [:]

    /// No settings flags.
    public init(config: String? = nil) {
        self.config = config
    }

    /// Reads settings flags (`--rate 200`, `--rate=200`, `--duck -12`): each takes the next
    /// argument as its value, whatever it starts with; a flag given twice counts once, the last.
    ///
    /// - Throws: ``SettingsError`` naming the flag, for an argument that is no settings flag, a
    ///   flag without a value, or a value the key does not take.
    public init(config: String? = nil, arguments: [String]) throws(SettingsError) {
        self.config = config
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard argument.hasPrefix("--"), let entry = SettingsTable.entry(flag: parts[0]), let flag = entry.flag
            else {
                throw SettingsError(
                    source: .flag(argument), key: nil,
                    problem: "is not an option announced knows; `announced --help` lists them")
            }
            guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
                throw SettingsError(
                    source: .flag(flag.name), key: entry.key,
                    problem: "needs a value (\(flag.valueName)): \(entry.requirement)")
            }
            let texts = flag.shorthand?(value) ?? [(entry.key, value)]
            for (key, text) in texts {
                guard let setting = SettingsTable.entry(key), let parsed = setting.parse(text: text) else {
                    let written = Int(value) != nil ? value : "\"\(value)\""
                    throw SettingsError(
                        source: .flag(flag.name), key: entry.key, problem: "\(entry.requirement), not \(written)")
                }
                values[key] = parsed
            }
            given.removeAll { $0.name == flag.name }
            given.append(GivenFlag(name: flag.name, value: value))
        }
    }

    /// The settings flags again, with `--config`, for another daemon: paths made absolute by `absolute`.
    public func arguments(makingPathsAbsolute absolute: (String) -> String) -> [String] {
        var arguments = config.map { ["--config", absolute($0)] } ?? []
        for flag in given {
            let value = SettingsTable.entry(flag: flag.name)?.flag?.absolutePaths(flag.value, absolute) ?? flag.value
            arguments += [flag.name, value]
        }
        return arguments
    }

    /// Whether the flags set `setting`.
    public func sets<Value>(_ setting: Setting<Value>) -> Bool {
        values[setting.key] != nil
    }
}

/// The settings in effect, the file they were read from, and warnings worth logging once.
public struct LoadedSettings: Sendable, Hashable {
    /// The settings.
    public var settings: DaemonSettings
    /// The configuration file read, or nil when none was found.
    public var file: String?
    /// Things the user should know but that do not stop the daemon (unknown keys).
    public var warnings: [String]
}

/// A place the configuration file may be.
public struct ConfigFileCandidate: Sendable, Hashable {
    /// The path.
    public var path: String
    /// True for `--config`: a missing file is an error. Default locations may be missing.
    public var required: Bool

    /// Creates a candidate.
    public init(path: String, required: Bool) {
        self.path = path
        self.required = required
    }
}

/// Reads the settings in layers: command-line flags over `ANNOUNCED_*`
/// environment variables over the configuration file over the defaults.
///
/// The one exception is `socket`, which follows the wire protocol: `--socket`, then the file's
/// `socket`, then `ANNOUNCED_SOCKET` (resolved by the server with the remaining fallbacks), so
/// its entry reads no variable.
///
/// The file is the first found of `--config`, `$XDG_CONFIG_HOME/announced/announced.json`
/// (`$HOME/.config` when `XDG_CONFIG_HOME` is unset) and ``systemFile``. Only that one is read.
public struct SettingsLoader: Sendable {
    /// The system-wide configuration file.
    public static let systemFile = "/etc/announced/announced.json"

    /// The command-line layer.
    public var commandLine: CommandLineSettings
    /// The process environment (for `ANNOUNCED_*`, `XDG_CONFIG_HOME` and `HOME`).
    public var environment: [String: String]
    /// The last place looked for the file; ``systemFile`` unless a test moves it.
    public var systemFilePath: String

    /// Creates a loader; ``load()`` reads the file anew each time it is called.
    public init(
        commandLine: CommandLineSettings = CommandLineSettings(), environment: [String: String],
        systemFilePath: String = SettingsLoader.systemFile
    ) {
        self.commandLine = commandLine
        self.environment = environment
        self.systemFilePath = systemFilePath
    }

    /// Where the file is looked for, in order.
    public var candidates: [ConfigFileCandidate] {
        if let config = commandLine.config { return [ConfigFileCandidate(path: config, required: true)] }
        var result: [ConfigFileCandidate] = []
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            result.append(ConfigFileCandidate(path: xdg + "/announced/announced.json", required: false))
        } else if let home = environment["HOME"], !home.isEmpty {
            result.append(ConfigFileCandidate(path: home + "/.config/announced/announced.json", required: false))
        }
        result.append(ConfigFileCandidate(path: systemFilePath, required: false))
        return result
    }

    /// Reads and checks every layer.
    ///
    /// - Throws: ``SettingsError`` naming the file and key (or variable) of the first bad value, a
    ///   malformed file, or a `--config` file that does not exist.
    public func load() throws(SettingsError) -> LoadedSettings {
        var file: SettingsFileSnapshot?
        for candidate in candidates {
            guard let bytes = try ConfigFileReader.read(candidate.path) else {
                if candidate.required {
                    throw SettingsError(
                        source: .file(candidate.path), key: nil,
                        problem: "does not exist; create it, starting from the sample with every key "
                            + "(\(SampleConfiguration.whereInstalled)), or leave out --config"
                    )
                }
                continue
            }
            file = try SettingsFileSnapshot(path: candidate.path, bytes: bytes)
            break
        }
        // Every layer is read whole, so a bad value is reported even where a higher layer
        // overrides it (the file would fail the next time it is read without that flag).
        var layers = [SettingsLayer(values: commandLine.values), try SettingsLayer.environment(environment)]
        if let file { layers.append(try SettingsLayer.file(file)) }
        var settings = DaemonSettings()
        for layer in layers.reversed() {
            for (key, value) in layer.values { settings.set(key, to: value) }
        }
        return LoadedSettings(settings: settings, file: file?.providerName, warnings: file?.warnings ?? [])
    }
}
