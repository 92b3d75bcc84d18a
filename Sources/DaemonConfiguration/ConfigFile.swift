// SPDX-License-Identifier: GPL-3.0-or-later
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
                throw SettingsError(source: .file(path), key: nil, problem: "is larger than 1 MiB; it must be a small JSON object like the sample (\(SampleConfiguration.whereInstalled))")
            }
        }
    }
}

/// A configuration file as swift-configuration's file snapshot, parsed by the protocol's own
/// ``JSONParser`` (not the library's `JSONSnapshot`, whose JSON trait links full Foundation and
/// adds megabytes to the daemon's resident memory).
///
/// The file must be one JSON object; `audio` must be an object. Unknown keys become warnings.
/// A value is checked when it is read: ``SettingsLayer`` turns a value of the wrong JSON type
/// into a ``SettingsError`` naming the file and the key.
struct SettingsFileSnapshot: FileConfigSnapshot {
    /// No options: the file is always JSON in UTF-8.
    struct ParsingOptions: FileParsingOptions {
        static let `default` = ParsingOptions()
    }

    /// The file's path.
    let providerName: String
    /// The known keys' values (nulls left out), by dotted key (`rate`, `audio.output`).
    let values: [String: JSONValue]
    /// One message for each unknown key.
    let warnings: [String]

    init(data: RawSpan, providerName: String, parsingOptions: ParsingOptions) throws {
        try self.init(path: providerName, bytes: data.withUnsafeBytes { Array($0) })
    }

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
                problem: "is not valid JSON: \(error.reason) at line \(line), column \(column); fix the syntax (`python3 -m json.tool \(path)` shows where)"
            )
        }
        guard let object = root.objectValue else {
            throw SettingsError(source: .file(path), key: nil, problem: "must hold one JSON object such as {\"rate\": 175}, not a \(root.typeName)")
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
            guard SettingsKey(rawValue: name) != nil else {
                warnings.append(
                    "config file \(path): unknown key \"\(name)\" is ignored; check its spelling (the keys are \(SettingsKey.fileTopLevelKeys.joined(separator: ", ")), and output and device inside audio)"
                )
                continue
            }
            if !value.isNull { values[name] = value }
        }
        self.values = values
        self.warnings = warnings
    }

    /// The value at `key` when it has the JSON type `type` asks for; throws when it has another.
    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        let name = key.components.joined(separator: ".")
        guard let value = values[name] else { return LookupResult(encodedKey: name, value: nil) }
        // `duck` is a string (`"off"`) or a number of decibels (`-12`); the key reads it as text.
        let written = name == SettingsKey.duck.rawValue ? value.integerValue.map { JSONValue.string(String($0)) } ?? value : value
        guard let content = Self.content(of: written, as: type) else { throw WrongJSONType() }
        return LookupResult(encodedKey: name, value: ConfigValue(content, isSecret: false))
    }

    /// A value whose JSON type is not the one asked for.
    struct WrongJSONType: Error {}

    /// `value` as configuration content of `type`, or nil when it is of another JSON type.
    static func content(of value: JSONValue, as type: ConfigType) -> ConfigContent? {
        switch type {
        case .string: return value.stringValue.map { .string($0) }
        case .int: return value.integerValue.flatMap { Int(exactly: $0) }.map { .int($0) }
        case .bool: return value.boolValue.map { .bool($0) }
        case .stringArray:
            // `voice_for_language`, an object of language → voice, as `lang=voice` strings (the
            // form its environment variable has too).
            guard let object = value.objectValue else { return nil }
            let pairs = object.members.compactMap { member in member.value.stringValue.map { "\(member.key)=\($0)" } }
            return pairs.count == object.members.count ? .stringArray(pairs) : nil
        case .intArray:
            guard let array = value.arrayValue else { return nil }
            let integers = array.compactMap { $0.integerValue.flatMap { Int(exactly: $0) } }
            return integers.count == array.count ? .intArray(integers) : nil
        default: return nil
        }
    }

    var description: String { providerName }
    var debugDescription: String { "\(providerName): \(values.keys.sorted().joined(separator: ", "))" }

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
