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
/// types. Unknown keys become warnings. The values then reach the `ConfigReader` through
/// ``ConfigFileProvider``.
struct ParsedConfigFile {
    let path: String
    /// The known keys' values (nulls left out), by dotted key (`rate`, `audio.output`).
    let values: [String: JSONValue]
    let warnings: [String]
    let provider: InMemoryProvider

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
        func unknown(_ key: String) {
            warnings.append(
                "config file \(path): unknown key \"\(key)\" is ignored; check its spelling (the keys are \(SettingsKey.fileTopLevelKeys.joined(separator: ", ")), and output and device inside audio)"
            )
        }
        func check(_ key: SettingsKey, _ value: JSONValue) throws(SettingsError) {
            if value.isNull { return }
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
                for (inner, innerValue) in audio.members {
                    guard let key = SettingsKey(rawValue: "audio." + inner) else {
                        unknown("audio." + inner)
                        continue
                    }
                    try check(key, innerValue)
                }
            } else if known.contains(name), let key = SettingsKey(rawValue: name) {
                try check(key, value)
            } else {
                unknown(name)
            }
        }
        self.values = values
        self.warnings = warnings
        provider = ConfigFileProvider.make(path: path, values: values)
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

/// The file layer: an `InMemoryProvider` over the file's checked values, read once.
///
/// Not swift-configuration's `JSONSnapshot`: that needs full Foundation (for `JSONSerialization`),
/// and linking Foundation with its ICU data adds about 9 MB to the daemon's resident memory
/// (measured: an idle Swift program is 7.4 MB with FoundationEssentials' subset not loaded, 16.6
/// MB with Foundation). The file is parsed and checked by ``JSONParser`` in any case, so only
/// the checked values are handed on.
enum ConfigFileProvider {
    /// A provider named after the file, holding `values` by their dotted keys.
    static func make(path: String, values: [String: JSONValue]) -> InMemoryProvider {
        var contents: [AbsoluteConfigKey: ConfigValue] = [:]
        for (name, value) in values {
            guard let content = content(of: value) else { continue }
            contents[AbsoluteConfigKey(ConfigKey(name))] = ConfigValue(content, isSecret: false)
        }
        return InMemoryProvider(name: path, values: contents)
    }

    /// The configuration content of a checked JSON value (nil for null and objects).
    static func content(of value: JSONValue) -> ConfigContent? {
        if let string = value.stringValue { return .string(string) }
        if let integer = value.integerValue { return .int(Int(integer)) }
        if let boolean = value.boolValue { return .bool(boolean) }
        if let array = value.arrayValue {
            let integers = array.compactMap(\.integerValue)
            return integers.count == array.count ? .intArray(integers.map { Int($0) }) : nil
        }
        return nil
    }
}
