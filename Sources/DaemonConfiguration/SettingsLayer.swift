// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// One layer of the settings, the flags, the `ANNOUNCED_*` variables or the file, read into the
/// values it sets, each parsed once by its key's ``SettingType``.
///
/// A value of the wrong type, out of range or not one of the key's words throws a
/// ``SettingsError`` naming the layer, the key and the value as the user wrote it, with what to do.
struct SettingsLayer: Sendable {
    /// The values the layer sets, by key.
    let values: [String: SettingBox]

    /// The `ANNOUNCED_*` variables of `environment`; empty ones count as unset.
    static func environment(_ environment: [String: String]) throws(SettingsError) -> SettingsLayer {
        var values: [String: SettingBox] = [:]
        for entry in SettingsTable.entries {
            guard let name = entry.environmentVariable, let text = environment[name], !text.isEmpty else { continue }
            guard let value = entry.parse(text: text) else {
                throw SettingsError(
                    source: .environment(name), key: entry.key,
                    problem: "\(entry.requirement), not \"\(text)\"; correct or unset it")
            }
            values[entry.key] = value
        }
        return SettingsLayer(values: values)
    }

    /// The keys the file sets.
    static func file(_ file: SettingsFileSnapshot) throws(SettingsError) -> SettingsLayer {
        var values: [String: SettingBox] = [:]
        for entry in SettingsTable.entries {
            guard let json = file.values[entry.key] else { continue }
            guard let value = entry.parse(json: json) else {
                throw SettingsError(
                    source: .file(file.providerName), key: entry.key,
                    problem: "\(entry.problem(json: json)); correct it, or remove the key to use the default")
            }
            values[entry.key] = value
        }
        return SettingsLayer(values: values)
    }
}
