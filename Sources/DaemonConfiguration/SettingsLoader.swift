// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

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
    var values: [SettingsKey: SettingValue] {
        var values: [SettingsKey: SettingValue] = [:]
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

/// Reads the settings in layers: command-line flags over `ANNOUNCED_*`
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
        for layer in layers.dropFirst() { _ = try Self.resolve([layer]) }
        let settings = try Self.resolve(layers)
        return LoadedSettings(settings: settings, file: file?.providerName, warnings: file?.warnings ?? [])
    }

    /// Every key as the first of `layers` that sets it gives it, over the defaults.
    static func resolve(_ layers: [SettingsLayer]) throws(SettingsError) -> DaemonSettings {
        func read(_ key: SettingsKey) throws(SettingsError) -> SettingValue? {
            for layer in layers {
                if let value = try layer.value(key) { return value }
            }
            return nil
        }
        func string(_ key: SettingsKey) throws(SettingsError) -> String? {
            if case .string(let text) = try read(key) { return text }
            return nil
        }
        func int(_ key: SettingsKey) throws(SettingsError) -> Int? {
            if case .int(let number) = try read(key) { return number }
            return nil
        }
        var settings = DaemonSettings()
        settings.socket = try string(.socket)
        if let ssip = try string(.ssipSocket).flatMap(SSIPSocketSetting.init) { settings.ssipSocket = ssip }
        if let output = try string(.audioOutput).flatMap(AudioOutputSetting.init) { settings.audioOutput = output }
        settings.audioDevice = try string(.audioDevice)
        settings.voice = try string(.voice) ?? settings.voice
        if case .stringArray(let pairs) = try read(.voiceForLanguage) {
            settings.voiceForLanguage = pairs.compactMap(SettingsKey.languageVoicePair).map { LanguageVoice(language: $0.language, voice: $0.voice) }
        }
        settings.rate = try int(.rate) ?? settings.rate
        settings.pitch = try int(.pitch) ?? settings.pitch
        settings.volume = try int(.volume) ?? settings.volume
        settings.punctuation = try string(.punctuation).flatMap { Punctuation(rawValue: $0) } ?? settings.punctuation
        if case .bool(let earcons) = try read(.earcons) { settings.earcons = earcons }
        if let duck = try string(.duck).flatMap(DuckSetting.init) { settings.duck = duck }
        settings.maxLineBytes = try int(.maxLineBytes) ?? settings.maxLineBytes
        settings.maxTextChars = try int(.maxTextChars) ?? settings.maxTextChars
        settings.maxPendingPerClient = try int(.maxPendingPerClient) ?? settings.maxPendingPerClient
        settings.maxOutboundBytes = try int(.maxOutboundBytes) ?? settings.maxOutboundBytes
        if case .intArray(let uids) = try read(.allowUIDs) { settings.allowUIDs = uids.map { UInt32($0) } }
        settings.logLevel = try string(.logLevel).flatMap { LogLevel(rawValue: $0) } ?? settings.logLevel
        settings.engineIdleUnload = try int(.engineIdleUnload) ?? settings.engineIdleUnload
        settings.piperThreads = try int(.piperThreads) ?? settings.piperThreads
        return settings
    }
}
