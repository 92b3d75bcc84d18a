// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Configuration

/// The values given on the command line; nil where a flag was not given.
public struct CommandLineSettings: Sendable, Hashable {
    /// `--socket PATH`.
    public var socket: String?
    /// `--ssip-socket PATH|default|off`.
    public var ssipSocket: String?
    /// `--config FILE`: the configuration file, which must then exist.
    public var config: String?
    /// `--audio OUTPUT`.
    public var audio: String?
    /// `--voice NAME`.
    public var voice: String?
    /// `--rate WPM`.
    public var rate: Int?
    /// `--pitch PITCH`.
    public var pitch: Int?
    /// `--volume VOLUME`.
    public var volume: Int?
    /// `--punctuation LEVEL`.
    public var punctuation: String?
    /// `--log-level LEVEL`.
    public var logLevel: String?
    /// `--duck off|DB`.
    public var duck: String?

    /// Creates the command-line layer.
    public init(
        socket: String? = nil, ssipSocket: String? = nil, config: String? = nil, audio: String? = nil, voice: String? = nil,
        rate: Int? = nil, pitch: Int? = nil, volume: Int? = nil, punctuation: String? = nil, logLevel: String? = nil,
        duck: String? = nil
    ) {
        self.socket = socket
        self.ssipSocket = ssipSocket
        self.config = config
        self.audio = audio
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.logLevel = logLevel
        self.duck = duck
    }

    /// The values given, by key.
    var values: [SettingsKey: ConfigContent] {
        var values: [SettingsKey: ConfigContent] = [:]
        values[.socket] = socket.map { .string($0) }
        values[.ssipSocket] = ssipSocket.map { .string($0) }
        values[.audioOutput] = audio.map { .string($0) }
        values[.voice] = voice.map { .string($0) }
        values[.rate] = rate.map { .int($0) }
        values[.pitch] = pitch.map { .int($0) }
        values[.volume] = volume.map { .int($0) }
        values[.punctuation] = punctuation.map { .string($0) }
        values[.logLevel] = logLevel.map { .string($0) }
        values[.duck] = duck.map { .string($0) }
        return values
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

/// Reads the settings in layers with swift-configuration: command-line flags over `ANNOUNCED_*`
/// environment variables over the configuration file over the defaults.
///
/// The one exception is `socket`, which follows the wire protocol: `--socket`, then the file's
/// `socket`, then `ANNOUNCED_SOCKET` (resolved by the server with the remaining fallbacks), so
/// the environment layer leaves `ANNOUNCED_SOCKET` out.
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
    /// - Throws: ``SettingsError`` naming the file and key (or variable, or flag) of the first
    ///   bad value, a malformed file, or a `--config` file that does not exist.
    public func load() throws(SettingsError) -> LoadedSettings {
        var file: SettingsFileSnapshot?
        for candidate in candidates {
            guard let bytes = try ConfigFileReader.read(candidate.path) else {
                if candidate.required {
                    throw SettingsError(
                        source: .file(candidate.path), key: nil,
                        problem: "does not exist; create it, starting from the sample with every key (\(SampleConfiguration.whereInstalled)), or leave out --config"
                    )
                }
                continue
            }
            file = try SettingsFileSnapshot(path: candidate.path, bytes: bytes)
            break
        }
        var variables = environment
        variables["ANNOUNCED_SOCKET"] = nil
        let layers = [SettingsLayer.commandLine(commandLine.values), .environment(variables)] + (file.map { [.file($0)] } ?? [])
        // Each layer is read on its own first, so a bad value is reported even where a higher
        // layer overrides it (the file would fail the next time it is read without that flag).
        for layer in layers.dropFirst() { _ = try Self.resolve(ConfigReader(provider: layer)) }
        let settings = try Self.resolve(ConfigReader(providers: layers))
        return LoadedSettings(settings: settings, file: file?.providerName, warnings: file?.warnings ?? [])
    }

    /// Every key as `reader` gives it, over the defaults.
    static func resolve(_ reader: ConfigReader) throws(SettingsError) -> DaemonSettings {
        /// The value of `key`, or nil when no layer sets it. The layers throw a `SettingsError`
        /// for every value their key does not accept, so the only other error a `required…`
        /// read throws is the library's "no provider has this key".
        func read<Value>(_ key: SettingsKey, _ get: (ConfigKey) throws -> Value) throws(SettingsError) -> Value? {
            do {
                return try get(ConfigKey(key.rawValue))
            } catch let error as SettingsError {
                throw error
            } catch {
                return nil
            }
        }
        var settings = DaemonSettings()
        settings.socket = try read(.socket) { try reader.requiredString(forKey: $0) }
        if let ssip = try read(.ssipSocket, { try reader.requiredString(forKey: $0) }).flatMap(SSIPSocketSetting.init) {
            settings.ssipSocket = ssip
        }
        if let output = try read(.audioOutput, { try reader.requiredString(forKey: $0) }).flatMap(AudioOutputSetting.init) {
            settings.audioOutput = output
        }
        settings.audioDevice = try read(.audioDevice) { try reader.requiredString(forKey: $0) }
        settings.voice = try read(.voice) { try reader.requiredString(forKey: $0) } ?? settings.voice
        if let pairs = try read(.voiceForLanguage, { try reader.requiredStringArray(forKey: $0) }) {
            settings.voiceForLanguage = pairs.compactMap(SettingsKey.languageVoicePair).map { LanguageVoice(language: $0.language, voice: $0.voice) }
        }
        settings.rate = try read(.rate) { try reader.requiredInt(forKey: $0) } ?? settings.rate
        settings.pitch = try read(.pitch) { try reader.requiredInt(forKey: $0) } ?? settings.pitch
        settings.volume = try read(.volume) { try reader.requiredInt(forKey: $0) } ?? settings.volume
        settings.punctuation = try read(.punctuation) { try reader.requiredString(forKey: $0, as: Punctuation.self) } ?? settings.punctuation
        settings.earcons = try read(.earcons) { try reader.requiredBool(forKey: $0) } ?? settings.earcons
        if let duck = try read(.duck, { try reader.requiredString(forKey: $0) }).flatMap(DuckSetting.init) {
            settings.duck = duck
        }
        settings.maxLineBytes = try read(.maxLineBytes) { try reader.requiredInt(forKey: $0) } ?? settings.maxLineBytes
        settings.maxTextChars = try read(.maxTextChars) { try reader.requiredInt(forKey: $0) } ?? settings.maxTextChars
        settings.maxPendingPerClient = try read(.maxPendingPerClient) { try reader.requiredInt(forKey: $0) } ?? settings.maxPendingPerClient
        settings.maxOutboundBytes = try read(.maxOutboundBytes) { try reader.requiredInt(forKey: $0) } ?? settings.maxOutboundBytes
        if let uids = try read(.allowUIDs, { try reader.requiredIntArray(forKey: $0) }) {
            settings.allowUIDs = uids.map { UInt32($0) }
        }
        settings.logLevel = try read(.logLevel) { try reader.requiredString(forKey: $0, as: LogLevel.self) } ?? settings.logLevel
        settings.engineIdleUnload = try read(.engineIdleUnload) { try reader.requiredInt(forKey: $0) } ?? settings.engineIdleUnload
        return settings
    }
}
