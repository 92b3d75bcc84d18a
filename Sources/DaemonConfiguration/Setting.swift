// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// One configuration key and everything about it, in one place: its name in the file, its type
/// (parsers, range, words), default, environment variable, command-line flag, whether a `SIGHUP`
/// reload applies it, and its documentation. ``SettingsTable`` holds one for each key; the file
/// reader, the variables, the flags, the errors, the restart notice, the sample configuration and
/// Config/README.md's table are all made from them.
public struct Setting<Value: Sendable & Hashable>: Sendable {
    /// The key as the file spells it; `audio.output` is `"audio": {"output": ...}`.
    public let key: String
    /// How values are read and written.
    public let type: SettingType<Value>
    /// The value when nothing sets the key.
    public let defaultValue: Value
    /// The value the sample configuration shows, when it is not the default.
    public let sampleValue: Value?
    /// The `ANNOUNCED_*` variable that sets the key, if the environment layer reads one.
    public let environmentVariable: String?
    /// The command-line flag that sets the key, if there is one.
    public let flag: SettingFlag?
    /// Whether a `SIGHUP` reload applies a change, or it waits for a restart.
    public let reload: SettingReload
    /// One line: what the key does (the flag's help, the README's meaning).
    public let doc: String
    /// What the README says after ``doc``, if anything.
    public let details: String?

    /// Defines a key; the variable is `ANNOUNCED_` and the key in upper case unless `environment` says otherwise.
    public init(
        _ key: String, _ type: SettingType<Value>, default defaultValue: Value, sample sampleValue: Value? = nil,
        environment: SettingEnvironment = .standard, flag: SettingFlag? = nil, reload: SettingReload, doc: String,
        details: String? = nil
    ) {
        self.key = key
        self.type = type
        self.defaultValue = defaultValue
        self.sampleValue = sampleValue
        switch environment {
        case .standard: environmentVariable = "ANNOUNCED_" + key.uppercased().replacing(".", with: "_")
        case .named(let name): environmentVariable = name
        case .notRead: environmentVariable = nil
        }
        self.flag = flag
        self.reload = reload
        self.doc = doc
        self.details = details
    }
}

/// Which `ANNOUNCED_*` variable sets a key.
public enum SettingEnvironment: Sendable {
    /// `ANNOUNCED_` and the key in upper case, dots as underscores.
    case standard
    /// Another name.
    case named(String)
    /// None: the key has another way to the environment (`socket`: the protocol's own fallbacks).
    case notRead
}

/// When a changed value takes effect.
public enum SettingReload: Sendable, Hashable {
    /// At the next `SIGHUP`, without dropping connections.
    case applied
    /// When the daemon next starts.
    case needsRestart
}

/// A key's command-line flag.
public struct SettingFlag: Sendable {
    /// Where a path sits in a flag's value, to be made absolute for the daemon `--spawn` starts
    /// (it runs in `/`).
    public enum PathInValue: Sendable, Hashable {
        /// No path.
        case none
        /// The whole value.
        case whole
        /// What follows this prefix (`wav:DIR`).
        case after(String)
    }

    /// The flag, e.g. `--rate`.
    public let name: String
    /// The value's name in the help, e.g. `wpm`.
    public let valueName: String
    /// Where a path sits in the value.
    public let path: PathInValue
    /// Words for the help beyond the key's own values (`alsa:DEVICE`).
    public let extraHelp: String?
    /// A form of the value only the flag takes, as the values of other keys: `--audio alsa:DEVICE`
    /// is `audio.output` `alsa` and `audio.device` `DEVICE`. Nil for the key's own values.
    let shorthand: (@Sendable (String) -> [(key: String, text: String)]?)?

    /// A flag named `name` whose value the help calls `valueName`.
    public init(
        _ name: String, value valueName: String, path: PathInValue = .none, extraHelp: String? = nil,
        shorthand: (@Sendable (String) -> [(key: String, text: String)]?)? = nil
    ) {
        self.name = name
        self.valueName = valueName
        self.path = path
        self.extraHelp = extraHelp
        self.shorthand = shorthand
    }

    /// `value` with its path made absolute by `absolute`.
    func absolutePaths(_ value: String, _ absolute: (String) -> String) -> String {
        switch path {
        case .none: return value
        case .whole: return absolute(value)
        case .after(let prefix):
            guard value.hasPrefix(prefix) else { return value }
            return prefix + absolute(String(value.dropFirst(prefix.count)))
        }
    }
}

/// A ``Setting`` of any value type, as the layers, the loader and the documentation use it.
public protocol AnySetting: Sendable {
    /// The key as the file spells it.
    var key: String { get }
    /// The `ANNOUNCED_*` variable, if any.
    var environmentVariable: String? { get }
    /// The flag, if any.
    var flag: SettingFlag? { get }
    /// Whether a reload applies it.
    var reload: SettingReload { get }
    /// One line of documentation.
    var doc: String { get }
    /// More for the README.
    var details: String? { get }
    /// The type's summary.
    var typeSummary: String { get }
    /// What a value must be.
    var requirement: String { get }
    /// The default, boxed.
    var boxedDefault: SettingBox { get }
    /// The default as the file writes it.
    var defaultJSON: JSONValue { get }
    /// The value the sample shows, as JSON.
    var sampleJSON: JSONValue { get }
    /// The text's value, or nil when it is not one of this key's.
    func parse(text: String) -> SettingBox?
    /// The JSON's value, or nil when it is not one of this key's.
    func parse(json: JSONValue) -> SettingBox?
    /// What is wrong with a JSON value ``parse(json:)`` refuses, as an error says it.
    func problem(json: JSONValue) -> String
}

extension Setting: AnySetting {
    /// The type's summary.
    public var typeSummary: String { type.summary }
    /// What a value must be.
    public var requirement: String { type.requirement }
    /// The default, boxed.
    public var boxedDefault: SettingBox { SettingBox(defaultValue) }
    /// The default as the file writes it.
    public var defaultJSON: JSONValue { type.toJSON(defaultValue) }
    /// The value the sample shows, as JSON.
    public var sampleJSON: JSONValue { type.toJSON(sampleValue ?? defaultValue) }
    /// The text's value, or nil when it is not one of this key's.
    public func parse(text: String) -> SettingBox? { type.fromText(text).map(SettingBox.init) }
    /// The JSON's value, or nil when it is not one of this key's.
    public func parse(json: JSONValue) -> SettingBox? { type.fromJSON(json).map(SettingBox.init) }
    /// What is wrong with a JSON value ``parse(json:)`` refuses: the type's own words, else
    /// the requirement and the value.
    public func problem(json: JSONValue) -> String {
        type.explain?(json) ?? "\(type.requirement), not \(json.jsonText)"
    }
}

/// A parsed value of some key, compared and hashed as its own type.
public struct SettingBox: Sendable, Hashable {
    /// The value.
    let value: any Sendable & Hashable

    init(_ value: any Sendable & Hashable) {
        self.value = value
    }

    /// Whether both hold equal values of the same type.
    public static func == (lhs: SettingBox, rhs: SettingBox) -> Bool {
        AnyHashable(lhs.value) == AnyHashable(rhs.value)
    }

    /// Hashes the value.
    public func hash(into hasher: inout Hasher) {
        AnyHashable(value).hash(into: &hasher)
    }
}
