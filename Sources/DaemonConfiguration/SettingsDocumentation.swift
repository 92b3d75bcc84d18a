// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol

/// What the table says to people: Config/README.md's table of keys, the sample configuration
/// (Config/announced.json) and the settings flags' help. A test compares the first two with the
/// files in Config/, so they cannot drift from the table.
public enum SettingsDocumentation {
    /// Config/README.md's table of keys, one row per entry.
    public static var readmeTable: String {
        var lines = [
            "| key | type | default | flag | variable | on `SIGHUP` | meaning |",
            "|---|---|---|---|---|---|---|",
        ]
        for entry in SettingsTable.entries {
            let cells = [
                "`\(entry.key)`", entry.typeSummary, "`\(entry.defaultJSON.jsonText)`",
                entry.flag.map { "`\($0.name)`" } ?? "",
                entry.environmentVariable.map { "`\($0)`" } ?? "", entry.reload == .applied ? "reloaded" : "at restart",
                entry.doc + (entry.details.map { " " + $0 } ?? ""),
            ]
            lines.append("| " + cells.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The sample configuration: every key at its sample value (its default unless the entry
    /// says otherwise), keys with a dot grouped in their object, two spaces of indentation.
    public static var sampleConfiguration: String {
        var groups: [(name: String, members: [(key: String, value: JSONValue)])] = []
        for entry in SettingsTable.entries {
            let parts = entry.key.split(separator: ".", maxSplits: 1).map(String.init)
            let member = (key: parts.count == 2 ? parts[1] : parts[0], value: entry.sampleJSON)
            if parts.count == 2, let index = groups.lastIndex(where: { $0.name == parts[0] }) {
                groups[index].members.append(member)
            } else {
                groups.append((parts.count == 2 ? parts[0] : "", [member]))
            }
        }
        let lines = groups.map { group in
            if group.name.isEmpty {
                return "  \(JSONValue.string(group.members[0].key).jsonText): \(group.members[0].value.jsonText)"
            }
            let inner = group.members.map { "    \(JSONValue.string($0.key).jsonText): \($0.value.jsonText)" }
            return "  \(JSONValue.string(group.name).jsonText): {\n" + inner.joined(separator: ",\n") + "\n  }"
        }
        return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
    }

    /// The settings flags for `--help` and the man page: one paragraph each, with its values and
    /// default (a key whose default is null has its fallbacks in the text instead).
    public static var flagsHelp: String {
        SettingsTable.entries.compactMap { entry in
            guard let flag = entry.flag else { return nil }
            let values = entry.typeSummary.replacing("`", with: "").replacing(" or null", with: "")
            let notes = [
                values, flag.extraHelp, entry.defaultJSON == .null ? nil : "default \(entry.defaultJSON.jsonText)",
            ]
            return "\(flag.name) <\(flag.valueName)>: \(entry.doc) (\(notes.compactMap { $0 }.joined(separator: "; ")))"
        }.joined(separator: "\n\n")
    }
}
