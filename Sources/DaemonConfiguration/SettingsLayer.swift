// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// One layer of the settings: the flags, the `ANNOUNCED_*` variables or the file. It hands on
/// only values their key accepts.
///
/// A value of the wrong type, out of range or not one of the key's words throws a
/// ``SettingsError`` naming the layer, the key and the value as the user wrote it.
struct SettingsLayer: Sendable {
    /// Where a layer's values come from.
    enum Origin: Sendable {
        /// The flags given, by key.
        case commandLine([SettingsKey: SettingValue])
        /// The `ANNOUNCED_*` variables, by name (empty ones left out).
        case environment([String: String])
        /// The configuration file.
        case file(SettingsFileSnapshot)
    }

    let origin: Origin

    /// The flags layer.
    static func commandLine(_ values: [SettingsKey: SettingValue]) -> SettingsLayer {
        SettingsLayer(origin: .commandLine(values))
    }

    /// The `ANNOUNCED_*` variables of `environment`; empty ones count as unset.
    static func environment(_ environment: [String: String]) -> SettingsLayer {
        SettingsLayer(origin: .environment(environment.filter { $0.key.hasPrefix("ANNOUNCED_") && !$0.value.isEmpty }))
    }

    /// The file layer.
    static func file(_ file: SettingsFileSnapshot) -> SettingsLayer {
        SettingsLayer(origin: .file(file))
    }

    /// The value this layer gives `key`, or nil when it does not set it.
    ///
    /// - Throws: ``SettingsError`` when the value is not one `key` accepts.
    func value(_ key: SettingsKey) throws(SettingsError) -> SettingValue? {
        let value: SettingValue?
        switch origin {
        case .commandLine(let values):
            value = values[key]
        case .environment(let variables):
            guard let text = variables[key.environmentVariable] else { return nil }
            guard let parsed = SettingValue(environmentText: text, as: key.type) else { throw failure(key) }
            value = parsed
        case .file(let file):
            guard let json = file.values[key.rawValue] else { return nil }
            guard let parsed = SettingsFileSnapshot.value(of: json, for: key) else { throw failure(key) }
            value = parsed
        }
        if let value, !key.accepts(value) { throw failure(key) }
        return value
    }

    /// The error for `key`'s value in this layer: the requirement, the value and what to do.
    func failure(_ key: SettingsKey) -> SettingsError {
        let source: SettingsSource
        let written: String?
        let advice: String
        switch origin {
        case .commandLine(let values):
            source = .flag(key.flag ?? "--" + key.rawValue)
            written = values[key]?.written
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
}
