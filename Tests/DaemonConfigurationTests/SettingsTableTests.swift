// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import DaemonConfiguration
import Foundation
import Testing

/// The repository's Config folder.
private let configFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Config")

/// The lines of Config/README.md between these two hold the table of keys.
private let tableStart =
    "<!-- The table of keys is made from Sources/DaemonConfiguration/SettingsTable.swift (see above to remake it). -->"
private let tableEnd = "<!-- End of the table of keys. -->"

@Suite("Settings: the table is the one definition of each key")
struct SettingsTableTests {
    /// With `ANNOUNCED_REMAKE_SETTINGS_DOCS=1`, the documentation tests write what the table makes
    /// into Config/ (after adding or changing a key) instead of only comparing.
    static let remake = ProcessInfo.processInfo.environment["ANNOUNCED_REMAKE_SETTINGS_DOCS"] == "1"

    @Test(
        "Config/README.md's table of keys is the one the table makes (remake it with ANNOUNCED_REMAKE_SETTINGS_DOCS=1)")
    func readmeTable() throws {
        let path = configFolder.appendingPathComponent("README.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(text.range(of: tableStart + "\n"), "Config/README.md lacks the line \(tableStart)")
        let end = try #require(
            text.range(of: tableEnd, range: start.upperBound..<text.endIndex),
            "Config/README.md lacks the line \(tableEnd)")
        let expected = SettingsDocumentation.readmeTable
        if Self.remake {
            try (text[..<start.upperBound] + expected + text[end.lowerBound...]).write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(
            String(text[start.upperBound..<end.lowerBound]) == expected,
            "Config/README.md's table should be:\n\(expected)")
    }

    @Test(
        "Config/announced.json is the sample the table makes, every key at its sample value (remake: ANNOUNCED_REMAKE_SETTINGS_DOCS=1)"
    )
    func sampleConfiguration() throws {
        let path = configFolder.appendingPathComponent("announced.json").path
        let expected = SettingsDocumentation.sampleConfiguration
        if Self.remake { try expected.write(toFile: path, atomically: true, encoding: .utf8) }
        #expect(
            try String(contentsOfFile: path, encoding: .utf8) == expected,
            "Config/announced.json should be:\n\(expected)")
    }

    @Test("keys, flags and variables are unique, and each default and sample is a value its own key reads back")
    func entriesAreConsistent() throws {
        let entries = SettingsTable.entries
        #expect(
            entries.count == Mirror(reflecting: SettingsTable.shared).children.count,
            "every stored property of the table is an entry")
        #expect(Set(entries.map(\.key)).count == entries.count)
        let flags = entries.compactMap(\.flag?.name)
        #expect(Set(flags).count == flags.count)
        let variables = entries.compactMap(\.environmentVariable)
        #expect(Set(variables).count == variables.count)
        for entry in entries {
            #expect(
                entry.parse(json: entry.defaultJSON) == entry.boxedDefault || entry.defaultJSON == .null, "\(entry.key)"
            )
            #expect(entry.sampleJSON == .null || entry.parse(json: entry.sampleJSON) != nil, "\(entry.key)")
            #expect(!entry.doc.isEmpty && !entry.doc.contains("\n"), "\(entry.key): one line of documentation")
        }
    }

    @Test("each flag sets its key, in --flag value and --flag=value form, and the settings read it")
    func everyFlag() throws {
        let fixture = ConfigFixture()
        let values = [
            "--socket": "/tmp/s.sock", "--ssip-socket": "default", "--audio": "null", "--voice": "de", "--rate": "300",
            "--pitch": "7",
            "--volume": "9", "--punctuation": "some", "--duck": "-6", "--log-level": "debug",
        ]
        let names = values.keys.sorted()
        var expected = DaemonSettings()
        expected.socket = "/tmp/s.sock"
        expected.ssipSocket = .default
        expected.audioOutput = .null
        expected.voice = "de"
        expected.rate = 300
        expected.pitch = 7
        expected.volume = 9
        expected.punctuation = .some
        expected.duck = .level(decibels: -6)
        expected.logLevel = .debug
        let spaced = try CommandLineSettings(arguments: names.flatMap { [$0, values[$0]!] })
        #expect(try fixture.loader(spaced).load().settings == expected)
        let joined = try CommandLineSettings(arguments: names.map { "\($0)=\(values[$0]!)" })
        #expect(try fixture.loader(joined).load().settings == expected)
    }

    @Test("every flag takes its key's default written as text, and the settings read back the default")
    func everyFlagTakesItsDefault() throws {
        for entry in SettingsTable.entries {
            guard let flag = entry.flag else { continue }
            let text: String
            switch entry.defaultJSON {
            case .string(let string): text = string
            case .integer(let number): text = "\(number)"
            case .bool(let flag): text = "\(flag)"
            default: continue
            }
            let commandLine = try CommandLineSettings(arguments: [flag.name, text])
            #expect(commandLine.given.map(\.name) == [flag.name])
            let loaded = try ConfigFixture().loader(commandLine).load().settings
            #expect(loaded.keysDiffering(from: DaemonSettings()).isEmpty, "\(flag.name) \(text)")
        }
    }

    @Test("--audio alsa:DEVICE is the alsa output on that device, over the file's device")
    func alsaDevice() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"audio": {"output": "pulse", "device": "sink0"}}"#, to: fixture.xdgFile)
        let settings = try fixture.loader(CommandLineSettings(arguments: ["--audio", "alsa:hw:1,0"])).load().settings
        #expect(settings.audioOutput == .alsa)
        #expect(settings.audioDevice == "hw:1,0")
    }

    @Test(
        "an argument that is no settings flag, or a flag without its value, is refused naming it and what to do",
        arguments: [
            (["--rat", "200"], "--rat: is not an option announced knows; `announced --help` lists them"),
            (["200"], "200: is not an option announced knows; `announced --help` lists them"),
            (
                ["--rate"],
                "--rate: needs a value (wpm): must be a whole number from 80 to \(SpeechRanges.rate.upperBound)"
            ),
            (
                ["--rate", "fast"],
                "--rate: must be a whole number from 80 to \(SpeechRanges.rate.upperBound), not \"fast\""
            ),
        ])
    func badArguments(arguments: [String], message: String) {
        #expect(throws: SettingsError.self) { try CommandLineSettings(arguments: arguments) }
        do {
            _ = try CommandLineSettings(arguments: arguments)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("the flags given again for the daemon --spawn starts: paths made absolute, the last of a repeated flag")
    func argumentsForAnotherDaemon() throws {
        let commandLine = try CommandLineSettings(
            config: "my.json",
            arguments: ["--rate", "100", "--socket", "a.sock", "--audio", "wav:out", "--rate=200", "--duck", "-12"])
        let arguments = commandLine.arguments(makingPathsAbsolute: { "/home/me/" + $0 })
        #expect(
            arguments == [
                "--config", "/home/me/my.json", "--socket", "/home/me/a.sock", "--audio", "wav:/home/me/out",
                "--rate", "200", "--duck", "-12",
            ])
    }

    @Test("a reload's notice names exactly the changed keys that wait for a restart")
    func restartNotice() {
        let old = DaemonSettings()
        var new = old
        new.rate = 300
        new.voiceForLanguage = [LanguageVoice(language: "en", voice: "en-gb")]
        #expect(new.restartNotice(since: old) == nil, "rate and voice_for_language are reloaded")
        new.logLevel = .debug
        let restart = "when announced restarts (systemctl --user restart announced)"
        #expect(new.restartNotice(since: old) == "the change to log_level takes effect \(restart)")
        new.duck = .level(decibels: -6)
        new.allowUIDs = [1001]
        #expect(new.restartNotice(since: old) == "the changes to duck, allow_uids and log_level take effect \(restart)")
        #expect(
            SettingsTable.reloadedKeys == [
                "ssip_max_rate", "voice", "voice_for_language", "rate", "pitch", "volume", "punctuation", "clients",
                "earcons", "history_size", "history_ssip",
            ])
    }

    @Test("the flags' help names each flag, its values and its default")
    func flagsHelp() {
        let help = SettingsDocumentation.flagsHelp
        #expect(
            help.contains(
                "--rate <wpm>: The default rate, words per minute. (integer 80-\(SpeechRanges.rate.upperBound); default 175)"
            ),
            "\(help)")
        #expect(help.contains("--audio <output>:"), "\(help)")
        #expect(help.contains("alsa:DEVICE"), "\(help)")
        #expect(help.split(separator: "\n").count == SettingsTable.entries.compactMap(\.flag).count)
    }
}

/// The kinds of value the coming keys need (`language_switching`, `languages`, `speech_cache`,
/// `toolkit_announcements`), defined here as a table entry would define them.
@Suite("Settings: the value types a new key can have")
struct SettingTypeTests {
    enum Switching: String, CaseIterable { case off, script, detect }

    @Test("one of some words: off|script|detect")
    func words() {
        let setting = Setting<Switching>(
            "language_switching", .word(Switching.self), default: .off, reload: .applied, doc: "How.")
        #expect(setting.parse(text: "detect") == setting.parse(json: .string("detect")))
        #expect(setting.parse(text: "detect") != nil)
        #expect(setting.parse(text: "Detect") == nil)
        #expect(setting.parse(json: .integer(1)) == nil)
        #expect(setting.requirement == "must be one of off, script, detect")
        #expect(setting.environmentVariable == "ANNOUNCED_LANGUAGE_SWITCHING")
    }

    @Test("a list of strings: an array in the file, commas in a variable")
    func listOfStrings() {
        let setting = Setting<[String]>(
            "languages",
            .list(
                of: .text("must not be empty"), requirement: "must be a list of language tags such as [\"en\", \"de\"]"),
            default: [], reload: .applied, doc: "Which.")
        #expect(setting.parse(text: "en, de") == setting.parse(json: .array([.string("en"), .string("de")])))
        #expect(setting.parse(text: "en, de") != nil)
        #expect(setting.parse(text: "en,,de") == nil)
        #expect(setting.parse(json: .array([.string("en"), .integer(1)])) == nil)
        #expect(setting.defaultJSON == .array([]))
    }

    @Test("a whole number in a range that includes 0 (0 = off)")
    func integerFromZero() {
        let setting = Setting<Int>("speech_cache", .integer(0...4096), default: 0, reload: .needsRestart, doc: "MiB.")
        #expect(setting.parse(text: "0") != nil)
        #expect(setting.parse(json: .integer(4096)) != nil)
        #expect(setting.parse(text: "-1") == nil)
        #expect(setting.parse(json: .integer(4097)) == nil)
        #expect(setting.requirement == "must be a whole number from 0 to 4096")
    }
}
