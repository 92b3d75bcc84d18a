import AnnounceProtocol
import Configuration
import Glibc

/// Reads a configuration file's bytes.
enum ConfigFileReader {
    /// The file's bytes, or nil when there is no file at `path`.
    static func read(_ path: String) throws(SettingsError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw SettingsError(source: .file(path), key: nil, problem: "cannot be read (\(String(cString: strerror(code)))); check its permissions")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw SettingsError(source: .file(path), key: nil, problem: "cannot be read (\(String(cString: strerror(errno)))); it must be a JSON file")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > 1 << 20 {
                throw SettingsError(source: .file(path), key: nil, problem: "is larger than 1 MiB; it must be a small JSON object like Config/announced.json")
            }
        }
    }
}

/// A configuration file, parsed and checked: valid JSON, an object, known keys of the right JSON
/// types. Unknown keys become warnings. The values then reach the `ConfigReader` through a
/// `JSONSnapshot`, as a ``JSONFileProvider``.
struct ParsedConfigFile {
    let path: String
    /// The known keys' values (nulls left out), by dotted key (`rate`, `audio.output`).
    let values: [String: JSONValue]
    let warnings: [String]
    let provider: JSONFileProvider

    init(path: String, bytes: [UInt8]) throws(SettingsError) {
        self.path = path
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            let (line, column) = Self.position(of: error.offset, in: bytes)
            throw SettingsError(
                source: .file(path), key: nil,
                problem: "is not valid JSON: \(error.reason) at line \(line), column \(column); fix the syntax (`python3 -m json.tool \(path)` shows where)"
            )
        }
        guard let object = root.objectValue else {
            throw SettingsError(source: .file(path), key: nil, problem: "must hold one JSON object such as {\"rate\": 175}, not a \(root.typeName)")
        }
        let known = SettingsKey.allCases.map(\.rawValue)
        var values: [String: JSONValue] = [:]
        var warnings: [String] = []
        var kept = JSONObject()
        func unknown(_ key: String) {
            warnings.append(
                "config file \(path): unknown key \"\(key)\" is ignored; check its spelling (the keys are \(SettingsKey.fileTopLevelKeys.joined(separator: ", ")), and output and device inside audio)"
            )
        }
        func check(_ key: SettingsKey, _ value: JSONValue) throws(SettingsError) -> Bool {
            if value.isNull { return false }
            let ok: Bool
            let expected: String
            switch key.kind {
            case .string:
                ok = value.stringValue != nil
                expected = "a string"
            case .integer:
                ok = value.integerValue != nil
                expected = "a whole number"
            case .boolean:
                ok = value.boolValue != nil
                expected = "true or false"
            case .integerArray:
                ok = value.arrayValue?.allSatisfy { $0.integerValue != nil } ?? false
                expected = "a list of user ids such as [1001, 1002]"
            }
            guard ok else {
                throw SettingsError(
                    source: .file(path), key: key.rawValue,
                    problem: "must be \(expected), not \(value.jsonText); correct it, or remove the key to use the default"
                )
            }
            values[key.rawValue] = value
            return true
        }
        for (name, value) in object.members {
            if name == "audio" {
                if value.isNull { continue }
                guard let audio = value.objectValue else {
                    throw SettingsError(
                        source: .file(path), key: "audio",
                        problem: "must be an object such as {\"output\": \"auto\", \"device\": null}, not \(value.jsonText)"
                    )
                }
                var keptAudio = JSONObject()
                for (inner, innerValue) in audio.members {
                    guard let key = SettingsKey(rawValue: "audio." + inner) else {
                        unknown("audio." + inner)
                        continue
                    }
                    if try check(key, innerValue) { keptAudio.append(inner, innerValue) }
                }
                kept.append("audio", .object(keptAudio))
            } else if known.contains(name), let key = SettingsKey(rawValue: name) {
                if try check(key, value) { kept.append(name, value) }
            } else {
                unknown(name)
            }
        }
        self.values = values
        self.warnings = warnings
        do {
            provider = try JSONFileProvider(path: path, json: JSONValue.object(kept).jsonLine)
        } catch {
            throw SettingsError(source: .file(path), key: nil, problem: "cannot be read as configuration: \(error)")
        }
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

/// The file layer: swift-configuration's `JSONSnapshot` of the file's known keys, read once.
struct JSONFileProvider: ConfigProvider {
    let path: String
    let fileSnapshot: JSONSnapshot

    init(path: String, json: [UInt8]) throws {
        self.path = path
        fileSnapshot = try JSONSnapshot(data: json.span.bytes, providerName: path, parsingOptions: .default)
    }

    var providerName: String { path }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try fileSnapshot.value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try value(forKey: key, type: type)
    }

    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey,
        type: ConfigType,
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchValueFromValue(forKey: key, type: type, updatesHandler: updatesHandler)
    }

    func snapshot() -> any ConfigSnapshot { fileSnapshot }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler: nonisolated(nonsending) (_ updates: ConfigUpdatesAsyncSequence<any ConfigSnapshot, Never>) async throws -> Return
    ) async throws -> Return {
        try await watchSnapshotFromSnapshot(updatesHandler: updatesHandler)
    }
}
