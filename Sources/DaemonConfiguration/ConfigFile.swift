import AnnouncePOSIX
// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import SystemPackage

/// Reads a configuration file's bytes.
enum ConfigFileReader {
    /// The file's bytes, or nil when there is no file at `path`.
    static func read(_ path: String) throws(SettingsError) -> [UInt8]? {
        let limit = 1 << 20
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
        } catch Errno.noSuchFileOrDirectory, Errno.notDirectory {
            return nil
        } catch {
            throw SettingsError(
                source: .file(path), key: nil, problem: "cannot be read (\(error)); check its permissions")
        }
        defer { try? descriptor.close() }
        let bytes: [UInt8]
        do {
            bytes = try descriptor.readToEnd(limit: limit)
        } catch {
            throw SettingsError(
                source: .file(path), key: nil, problem: "cannot be read (\(error.description)); it must be a JSON file")
        }
        if bytes.count > limit {
            throw SettingsError(
                source: .file(path), key: nil,
                problem:
                    "is larger than 1 MiB; it must be a small JSON object like the sample (\(SampleConfiguration.whereInstalled))"
            )
        }
        return bytes
    }
}

/// A configuration file, parsed by the protocol's own ``JSONParser`` (Foundation's JSON would
/// add megabytes to the daemon's resident memory).
///
/// The file must be one JSON object; `audio` must be an object. Unknown keys become warnings.
/// A value is checked when it is read: ``SettingsLayer`` turns a value its key does not accept
/// into a ``SettingsError`` naming the file and the key.
struct SettingsFileSnapshot: Sendable {
    /// The file's path.
    let providerName: String
    /// The known keys' values (nulls left out), by dotted key (`rate`, `audio.output`).
    let values: [String: JSONValue]
    /// One message for each unknown key.
    let warnings: [String]

    /// Parses the file at `path`, whose contents are `bytes`.
    init(path: String, bytes: [UInt8]) throws(SettingsError) {
        providerName = path
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            let (line, column) = Self.position(of: error.offset, in: bytes)
            throw SettingsError(
                source: .file(path), key: nil,
                problem:
                    "is not valid JSON: \(error.reason) at line \(line), column \(column); fix the syntax (`python3 -m json.tool \(path)` shows where)"
            )
        }
        guard let object = root.objectValue else {
            throw SettingsError(
                source: .file(path), key: nil,
                problem: "must hold one JSON object such as {\"rate\": 175}, not a \(root.typeName)")
        }
        var members = object.members.filter { $0.key != "audio" }
        if let audio = object["audio"], !audio.isNull {
            guard let inner = audio.objectValue else {
                throw SettingsError(
                    source: .file(path), key: "audio",
                    problem: "must be an object such as {\"output\": \"auto\", \"device\": null}, not \(audio.jsonText)"
                )
            }
            members += inner.members.map { ("audio." + $0.key, $0.value) }
        }
        var values: [String: JSONValue] = [:]
        var warnings: [String] = []
        for (name, value) in members {
            guard SettingsTable.entry(name) != nil else {
                warnings.append(
                    "config file \(path): unknown key \"\(name)\" is ignored; check its spelling (the keys are \(SettingsTable.fileTopLevelKeys.joined(separator: ", ")), and output and device inside audio)"
                )
                continue
            }
            if !value.isNull { values[name] = value }
        }
        self.values = values
        self.warnings = warnings
    }

    /// The 1-based line and column of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
