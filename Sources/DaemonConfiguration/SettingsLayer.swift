// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import Configuration

/// One layer of the settings (the flags, the `ANNOUNCED_*` variables or the file) as a
/// configuration provider that hands on only values their key accepts.
///
/// A value of the wrong type, out of range or not one of the key's words throws a
/// ``SettingsError`` naming the layer, the key and the value as the user wrote it, so a
/// `ConfigReader` over the layers (which stops at the first provider that throws) reports it.
struct SettingsLayer: ConfigProvider, ConfigSnapshot {
    /// Where a layer's values come from, and how the user wrote each.
    enum Origin: Sendable {
        /// The flags, with each value as it was given (`5`, `"x"`).
        case commandLine([SettingsKey: String])
        /// The `ANNOUNCED_*` variables, by name.
        case environment([String: String])
        /// The configuration file.
        case file(SettingsFileSnapshot)
    }

    let origin: Origin
    let upstream: any ConfigSnapshot

    var providerName: String {
        switch origin {
        case .commandLine: return "command line"
        case .environment: return "environment"
        case .file(let file): return file.providerName
        }
    }

    /// The flags layer.
    static func commandLine(_ values: [SettingsKey: ConfigContent]) -> SettingsLayer {
        var contents: [AbsoluteConfigKey: ConfigValue] = [:]
        var written: [SettingsKey: String] = [:]
        for (key, content) in values {
            contents[AbsoluteConfigKey(ConfigKey(key.rawValue))] = ConfigValue(content, isSecret: false)
            switch content {
            case .string(let text): written[key] = "\"\(text)\""
            case .int(let number): written[key] = "\(number)"
            default: break
            }
        }
        return SettingsLayer(origin: .commandLine(written), upstream: InMemoryProvider(name: "command line", values: contents).snapshot())
    }

    /// The `ANNOUNCED_*` variables of `environment` (empty ones count as unset), read by the
    /// library's environment provider with `audio.output` as `ANNOUNCED_AUDIO`.
    static func environment(_ environment: [String: String]) -> SettingsLayer {
        let variables = environment.filter { $0.key.hasPrefix("ANNOUNCED_") && !$0.value.isEmpty }
        let provider = EnvironmentVariablesProvider(environmentVariables: variables).mapKeys { key in
            guard let known = SettingsKey(rawValue: key.components.joined(separator: ".")) else { return key }
            return AbsoluteConfigKey(known.environmentComponents)
        }
        return SettingsLayer(origin: .environment(variables), upstream: provider.snapshot())
    }

    /// The file layer.
    static func file(_ file: SettingsFileSnapshot) -> SettingsLayer {
        SettingsLayer(origin: .file(file), upstream: file)
    }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        guard let setting = SettingsKey(rawValue: key.components.joined(separator: ".")) else {
            return try upstream.value(forKey: key, type: type)
        }
        let result: LookupResult
        do {
            result = try upstream.value(forKey: key, type: type)
        } catch {
            throw failure(setting)
        }
        if let content = result.value?.content, !setting.accepts(content) { throw failure(setting) }
        return result
    }

    /// The error for `key`'s value in this layer: the requirement, the value and what to do.
    func failure(_ key: SettingsKey) -> SettingsError {
        let source: SettingsSource
        let written: String?
        let advice: String
        switch origin {
        case .commandLine(let values):
            source = .flag(key.flag ?? "--" + key.rawValue)
            written = values[key]
            advice = ""
        case .environment(let variables):
            source = .environment(key.environmentVariable)
            written = variables[key.environmentVariable].map { "\"\($0)\"" }
            advice = "; correct or unset it"
        case .file(let file):
            source = .file(file.providerName)
            written = file.values[key.rawValue]?.jsonText
            advice = "; correct it, or remove the key to use the default"
        }
        return SettingsError(source: source, key: key.rawValue, problem: key.requirement + (written.map { ", not " + $0 } ?? "") + advice)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { self }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
