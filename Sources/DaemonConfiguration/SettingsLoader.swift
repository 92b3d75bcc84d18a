import AnnounceProtocol
import Configuration
import Glibc
import Synchronization

/// The values given on the command line; nil where a flag was not given.
public struct CommandLineSettings: Sendable, Hashable {
    /// `--socket PATH`.
    public var socket: String?
    /// `--config FILE`: the configuration file, which must then exist.
    public var config: String?
    /// `--audio OUTPUT`.
    public var audio: String?
    /// `--voice NAME`.
    public var voice: String?
    /// `--rate WPM`.
    public var rate: Int?
    /// `--log-level LEVEL`.
    public var logLevel: String?

    /// Creates the command-line layer.
    public init(
        socket: String? = nil, config: String? = nil, audio: String? = nil, voice: String? = nil,
        rate: Int? = nil, logLevel: String? = nil
    ) {
        self.socket = socket
        self.config = config
        self.audio = audio
        self.voice = voice
        self.rate = rate
        self.logLevel = logLevel
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
/// `socket`, then `ANNOUNCED_SOCKET` (resolved by the server with the remaining fallbacks).
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
        var warnings: [String] = []
        var file: ParsedConfigFile?
        for candidate in candidates {
            guard let bytes = try ConfigFileReader.read(candidate.path) else {
                if candidate.required {
                    throw SettingsError(
                        source: .file(candidate.path), key: nil,
                        problem: "does not exist; create it (Config/announced.json is a sample with every key) or leave out --config"
                    )
                }
                continue
            }
            let parsed = try ParsedConfigFile(path: candidate.path, bytes: bytes)
            warnings += parsed.warnings
            file = parsed
            break
        }

        let flags = InMemoryProvider(name: "command line", values: commandLineValues())
        let variables = environment.filter { $0.key.hasPrefix("ANNOUNCED_") && !$0.value.isEmpty }
        let environmentProvider = EnvironmentVariablesProvider(environmentVariables: variables).mapKeys { key in
            guard let known = SettingsKey(rawValue: key.components.joined(separator: ".")) else { return key }
            return AbsoluteConfigKey(known.environmentComponents)
        }
        var layers: [Layer] = [
            Layer(provider: flags, source: { .flag($0.flag ?? "--" + $0.rawValue) }, found: { [commandLine] key in
                switch key {
                case .socket: return commandLine.socket.map { "\"\($0)\"" }
                case .audioOutput: return commandLine.audio.map { "\"\($0)\"" }
                case .voice: return commandLine.voice.map { "\"\($0)\"" }
                case .rate: return commandLine.rate.map { "\($0)" }
                case .logLevel: return commandLine.logLevel.map { "\"\($0)\"" }
                default: return nil
                }
            }),
            Layer(provider: environmentProvider, source: { .environment($0.environmentVariable) }, found: { variables[$0.environmentVariable].map { "\"\($0)\"" } }),
        ]
        var socketLayers = [layers[0]]
        if let file {
            let fileLayer = Layer(provider: file.provider, source: { _ in .file(file.path) }, found: { file.values[$0.rawValue]?.jsonText })
            layers.append(fileLayer)
            socketLayers.append(fileLayer)
        }
        // Each layer is checked on its own first, so a bad value is reported even where a higher
        // layer overrides it (the file would fail the next time it is read without that flag).
        for layer in layers.dropFirst() { _ = try Self.resolve(Lookup(layers: [layer]), socket: nil) }
        let settings = try Self.resolve(Lookup(layers: layers), socket: Lookup(layers: socketLayers))
        return LoadedSettings(settings: settings, file: file?.path, warnings: warnings)
    }

    /// Reads every key through `lookup`, and `socket` through `socket` (nil: through `lookup`).
    static func resolve(_ lookup: Lookup, socket: Lookup?) throws(SettingsError) -> DaemonSettings {
        var settings = DaemonSettings()
        settings.socket = try (socket ?? lookup).string(.socket) { $0.isEmpty ? "must not be empty" : nil }
        if let output = try lookup.string(.audioOutput, { AudioOutputSetting($0) == nil ? "must be auto, pulse, alsa, null or wav:DIR" : nil }) {
            settings.audioOutput = AudioOutputSetting(output)!
        }
        settings.audioDevice = try lookup.string(.audioDevice) { $0.isEmpty ? "must not be empty (leave it out, or null, for the output's default device)" : nil }
        if let voice = try lookup.string(.voice, { $0.isEmpty ? "must be an espeak-ng voice name such as en-us (espeak-ng --voices lists them)" : nil }) {
            settings.voice = voice
        }
        settings.rate = try lookup.integer(.rate, in: SpeechRanges.rate) ?? settings.rate
        settings.pitch = try lookup.integer(.pitch, in: SpeechRanges.pitch) ?? settings.pitch
        settings.volume = try lookup.integer(.volume, in: SpeechRanges.volume) ?? settings.volume
        let punctuations = Punctuation.allCases.map(\.rawValue)
        if let punctuation = try lookup.string(.punctuation, { Punctuation(rawValue: $0) == nil ? "must be one of \(punctuations.joined(separator: ", "))" : nil }) {
            settings.punctuation = Punctuation(rawValue: punctuation)!
        }
        settings.earcons = try lookup.boolean(.earcons) ?? settings.earcons
        settings.maxLineBytes = try lookup.integer(.maxLineBytes, in: 1...Int(Int32.max)) ?? settings.maxLineBytes
        settings.maxTextChars = try lookup.integer(.maxTextChars, in: 1...Int(Int32.max)) ?? settings.maxTextChars
        settings.maxPendingPerClient = try lookup.integer(.maxPendingPerClient, in: 1...Int(Int32.max)) ?? settings.maxPendingPerClient
        settings.maxOutboundBytes = try lookup.integer(.maxOutboundBytes, in: 1...Int(Int32.max)) ?? settings.maxOutboundBytes
        if let uids = try lookup.integerArray(.allowUIDs, each: 0...Int(UInt32.max - 1), described: "user ids (numbers from 0 to 4294967294)") {
            settings.allowUIDs = uids.map { UInt32($0) }
        }
        let levels = LogLevel.allCases.map(\.rawValue)
        if let level = try lookup.string(.logLevel, { LogLevel(rawValue: $0) == nil ? "must be one of \(levels.joined(separator: ", "))" : nil }) {
            settings.logLevel = LogLevel(rawValue: level)!
        }
        return settings
    }

    func commandLineValues() -> [AbsoluteConfigKey: ConfigValue] {
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        func set(_ key: SettingsKey, _ content: ConfigContent?) {
            guard let content else { return }
            values[AbsoluteConfigKey(ConfigKey(key.rawValue))] = ConfigValue(content, isSecret: false)
        }
        set(.socket, commandLine.socket.map { .string($0) })
        set(.audioOutput, commandLine.audio.map { .string($0) })
        set(.voice, commandLine.voice.map { .string($0) })
        set(.rate, commandLine.rate.map { .int($0) })
        set(.logLevel, commandLine.logLevel.map { .string($0) })
        return values
    }
}

/// One layer: its provider, how to name where a key's value came from, and the value's text.
struct Layer {
    var provider: any ConfigProvider
    var source: (SettingsKey) -> SettingsSource
    var found: (SettingsKey) -> String?
}

/// Remembers the last access event, to tell which layer supplied (or failed on) a value.
final class AccessRecorder: AccessReporter {
    private let last = Mutex<AccessEvent?>(nil)

    func report(_ event: AccessEvent) { last.withLock { $0 = event } }

    func take() -> AccessEvent? { last.withLock { event in defer { event = nil }; return event } }
}

/// Reads keys through one `ConfigReader` over the layers, naming the layer in every error.
struct Lookup {
    let layers: [Layer]
    let reader: ConfigReader
    let recorder = AccessRecorder()

    init(layers: [Layer]) {
        self.layers = layers
        reader = ConfigReader(providers: layers.map(\.provider), accessReporter: recorder)
    }

    /// The value of `key` and the layer that set it; nil when no layer sets it.
    func value<T>(_ key: SettingsKey, expected: String, _ read: (ConfigReader, ConfigKey) -> T?) throws(SettingsError) -> (value: T, layer: Layer)? {
        let value = read(reader, ConfigKey(key.rawValue))
        guard let event = recorder.take() else { return value.map { ($0, layers[0]) } }
        for (index, result) in event.providerResults.enumerated() where index < layers.count {
            let layer = layers[index]
            switch result.result {
            case .failure:
                throw error(key, layer, "must be \(expected)")
            case .success(let lookup) where lookup.value != nil:
                guard let value, event.conversionError == nil else { throw error(key, layer, "must be \(expected)") }
                return (value, layer)
            case .success:
                continue
            }
        }
        return nil
    }

    func error(_ key: SettingsKey, _ layer: Layer, _ problem: String) -> SettingsError {
        let source = layer.source(key)
        var message = problem
        if let found = layer.found(key) {
            message += ", not " + found
        }
        switch source {
        case .file: message += "; correct it, or remove the key to use the default"
        case .environment: message += "; correct or unset it"
        case .flag: break
        }
        return SettingsError(source: source, key: key.rawValue, problem: message)
    }

    func string(_ key: SettingsKey, _ check: (String) -> String?) throws(SettingsError) -> String? {
        guard let (value, layer) = try value(key, expected: "a string", { $0.string(forKey: $1) }) else { return nil }
        if let problem = check(value) { throw error(key, layer, problem) }
        return value
    }

    func integer(_ key: SettingsKey, in range: ClosedRange<Int>) throws(SettingsError) -> Int? {
        let expected = range.upperBound == Int(Int32.max) ? "a whole number greater than 0" : "a whole number from \(range.lowerBound) to \(range.upperBound)"
        guard let (value, layer) = try value(key, expected: expected, { $0.int(forKey: $1) }) else { return nil }
        guard range.contains(value) else { throw error(key, layer, "must be \(expected)") }
        return value
    }

    func boolean(_ key: SettingsKey) throws(SettingsError) -> Bool? {
        try value(key, expected: "true or false", { $0.bool(forKey: $1) })?.value
    }

    func integerArray(_ key: SettingsKey, each range: ClosedRange<Int>, described: String) throws(SettingsError) -> [Int]? {
        guard let (value, layer) = try value(key, expected: "a list of \(described)", { $0.intArray(forKey: $1) }) else { return nil }
        guard value.allSatisfy(range.contains) else { throw error(key, layer, "must be a list of \(described)") }
        return value
    }
}
