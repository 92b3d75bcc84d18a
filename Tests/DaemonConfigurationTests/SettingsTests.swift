// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import DaemonConfiguration
import Foundation
import Testing

/// A private folder with a home, an XDG config folder and a stand-in for /etc.
final class ConfigFixture {
    let root: URL

    init() {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "announced-config-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    var home: String { root.appendingPathComponent("home").path }
    var xdg: String { root.appendingPathComponent("xdg").path }
    var xdgFile: String { xdg + "/announced/announced.json" }
    var homeFile: String { home + "/.config/announced/announced.json" }
    var systemFile: String { root.appendingPathComponent("etc/announced/announced.json").path }
    var explicitFile: String { root.appendingPathComponent("explicit.json").path }

    @discardableResult
    func write(_ text: String, to path: String) -> String {
        let url = URL(fileURLWithPath: path)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(text.utf8).write(to: url)
        return path
    }

    /// A loader whose environment has HOME and XDG_CONFIG_HOME inside the fixture, plus `environment`.
    func loader(
        _ commandLine: CommandLineSettings = CommandLineSettings(), environment: [String: String] = [:],
        xdgSet: Bool = true
    ) -> SettingsLoader {
        var env = ["HOME": home]
        if xdgSet { env["XDG_CONFIG_HOME"] = xdg }
        env.merge(environment) { $1 }
        return SettingsLoader(commandLine: commandLine, environment: env, systemFilePath: systemFile)
    }
}

/// The error reading the settings flags `flags` gives, or else loading with them; records an
/// issue when there is none.
func settingsError(_ fixture: ConfigFixture, flags: [String], environment: [String: String] = [:]) -> SettingsError? {
    do {
        let commandLine = try CommandLineSettings(arguments: flags)
        return loadError(fixture.loader(commandLine, environment: environment))
    } catch {
        return error
    }
}

/// Runs `loader.load()` expecting a ``SettingsError``; returns it.
func loadError(_ loader: SettingsLoader) -> SettingsError? {
    do {
        let loaded = try loader.load()
        Issue.record("expected an error, loaded \(loaded.settings)")
        return nil
    } catch {
        return error
    }
}

@Suite("Settings: defaults and layering")
struct LayeringTests {
    @Test("with no file, no variables and no flags, every key has its default")
    func defaults() throws {
        let fixture = ConfigFixture()
        let loaded = try fixture.loader().load()
        #expect(loaded.settings == DaemonSettings())
        #expect(loaded.file == nil)
        #expect(loaded.warnings.isEmpty)
        let settings = loaded.settings
        #expect(settings.socket == nil)
        #expect(settings.audioOutput == .auto)
        #expect(settings.audioDevice == nil)
        #expect(settings.voice == "en-us")
        #expect(settings.rate == 175)
        #expect(settings.pitch == 50)
        #expect(settings.volume == 100)
        #expect(settings.punctuation == .none)
        #expect(settings.earcons == true)
        #expect(settings.maxLineBytes == 4_194_304)
        #expect(settings.maxTextChars == 1_048_576)
        #expect(settings.maxPendingPerClient == 256)
        #expect(settings.maxOutboundBytes == 1_048_576)
        #expect(settings.allowUIDs == [])
        #expect(settings.logLevel == .info)
    }

    @Test("a flag beats the variable, which beats the file, which beats the default")
    func flagOverEnvironmentOverFileOverDefault() throws {
        let fixture = ConfigFixture()
        #expect(try fixture.loader().load().settings.rate == 175)
        fixture.write(
            #"{"rate": 200, "voice": "de", "audio": {"output": "null"}, "log_level": "debug"}"#, to: fixture.xdgFile)
        var loaded = try fixture.loader().load()
        #expect(loaded.settings.rate == 200)
        #expect(loaded.settings.voice == "de")
        #expect(loaded.settings.audioOutput == .null)
        #expect(loaded.settings.logLevel == .debug)
        let environment = [
            "ANNOUNCED_RATE": "300", "ANNOUNCED_VOICE": "fr", "ANNOUNCED_AUDIO": "wav:/tmp/w",
            "ANNOUNCED_LOG_LEVEL": "warning",
        ]
        loaded = try fixture.loader(environment: environment).load()
        #expect(loaded.settings.rate == 300)
        #expect(loaded.settings.voice == "fr")
        #expect(loaded.settings.audioOutput == .wav(directory: "/tmp/w"))
        #expect(loaded.settings.logLevel == .warning)
        let flags = try CommandLineSettings(
            arguments: ["--audio", "alsa", "--voice", "cmn", "--rate", "400", "--log-level", "error"])
        loaded = try fixture.loader(flags, environment: environment).load()
        #expect(loaded.settings.rate == 400)
        #expect(loaded.settings.voice == "cmn")
        #expect(loaded.settings.audioOutput == .alsa)
        #expect(loaded.settings.logLevel == .error)
    }

    @Test("every key can be set by its ANNOUNCED_ variable")
    func everyVariable() throws {
        let fixture = ConfigFixture()
        let environment = [
            "ANNOUNCED_AUDIO": "pulse", "ANNOUNCED_AUDIO_DEVICE": "sink0", "ANNOUNCED_VOICE": "de",
            "ANNOUNCED_RATE": "250", "ANNOUNCED_PITCH": "10", "ANNOUNCED_VOLUME": "150",
            "ANNOUNCED_PUNCTUATION": "all", "ANNOUNCED_EARCONS": "false", "ANNOUNCED_MAX_LINE_BYTES": "1024",
            "ANNOUNCED_MAX_TEXT_CHARS": "100", "ANNOUNCED_MAX_PENDING_PER_CLIENT": "3",
            "ANNOUNCED_MAX_OUTBOUND_BYTES": "4096", "ANNOUNCED_ALLOW_UIDS": "1001, 1002",
            "ANNOUNCED_LOG_LEVEL": "trace",
            "ANNOUNCED_SSIP_SOCKET": "default", "ANNOUNCED_ENGINE_IDLE_UNLOAD": "30",
            "ANNOUNCED_PIPER_THREADS": "2",
        ]
        let settings = try fixture.loader(environment: environment).load().settings
        var expected = DaemonSettings()
        expected.audioOutput = .pulse
        expected.audioDevice = "sink0"
        expected.voice = "de"
        expected.rate = 250
        expected.pitch = 10
        expected.volume = 150
        expected.punctuation = .all
        expected.earcons = false
        expected.maxLineBytes = 1024
        expected.maxTextChars = 100
        expected.maxPendingPerClient = 3
        expected.maxOutboundBytes = 4096
        expected.allowUIDs = [1001, 1002]
        expected.logLevel = .trace
        expected.ssipSocket = .default
        expected.engineIdleUnload = 30
        expected.piperThreads = 2
        #expect(settings == expected)
        #expect(SettingsTable.shared.audioOutput.environmentVariable == "ANNOUNCED_AUDIO")
        #expect(SettingsTable.shared.maxLineBytes.environmentVariable == "ANNOUNCED_MAX_LINE_BYTES")
    }

    @Test("every key can be set in the file")
    func everyFileKey() throws {
        let fixture = ConfigFixture()
        fixture.write(
            """
            {
              "socket": "/run/user/5/a.sock", "audio": {"output": "wav:/tmp/x", "device": "hw:1"},
              "voice": "de", "rate": 90, "pitch": 0, "volume": 200, "punctuation": "some", "earcons": false,
              "max_line_bytes": 100, "max_text_chars": 50, "max_pending_per_client": 1,
              "max_outbound_bytes": 2048, "allow_uids": [0, 4294967294], "log_level": "critical",
              "ssip_socket": "/run/user/5/speechd.sock", "engine_idle_unload": 1,
              "piper_threads": 3, "speech_cache": 0
            }
            """, to: fixture.xdgFile)
        let loaded = try fixture.loader().load()
        #expect(loaded.file == fixture.xdgFile)
        #expect(loaded.warnings.isEmpty)
        var expected = DaemonSettings()
        expected.socket = "/run/user/5/a.sock"
        expected.audioOutput = .wav(directory: "/tmp/x")
        expected.audioDevice = "hw:1"
        expected.voice = "de"
        expected.rate = 90
        expected.pitch = 0
        expected.volume = 200
        expected.punctuation = .some
        expected.earcons = false
        expected.maxLineBytes = 100
        expected.maxTextChars = 50
        expected.maxPendingPerClient = 1
        expected.maxOutboundBytes = 2048
        expected.allowUIDs = [0, 4_294_967_294]
        expected.logLevel = .critical
        expected.ssipSocket = .path("/run/user/5/speechd.sock")
        expected.engineIdleUnload = 1
        expected.piperThreads = 3
        expected.speechCache = 0
        #expect(loaded.settings == expected)
    }

    @Test("null in the file means the default, or the variable below it")
    func nullMeansUnset() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": null, "audio": {"device": null}, "socket": null}"#, to: fixture.xdgFile)
        let settings = try fixture.loader().load().settings
        #expect(settings == DaemonSettings())
    }

    @Test(
        "socket follows the protocol: --socket, then the file, and ANNOUNCED_SOCKET is left to the server's fallbacks")
    func socketOrder() throws {
        let fixture = ConfigFixture()
        let environment = ["ANNOUNCED_SOCKET": "/tmp/from-env.sock"]
        #expect(try fixture.loader(environment: environment).load().settings.socket == nil)
        fixture.write(#"{"socket": "/tmp/from-file.sock"}"#, to: fixture.xdgFile)
        #expect(try fixture.loader(environment: environment).load().settings.socket == "/tmp/from-file.sock")
        let flags = try CommandLineSettings(arguments: ["--socket", "/tmp/from-flag.sock"])
        #expect(try fixture.loader(flags, environment: environment).load().settings.socket == "/tmp/from-flag.sock")
    }

    @Test("an empty variable counts as unset")
    func emptyVariable() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 200}"#, to: fixture.xdgFile)
        #expect(try fixture.loader(environment: ["ANNOUNCED_RATE": ""]).load().settings.rate == 200)
    }

    @Test("the sample Config/announced.json holds every key at its default (duck on at -12 dB), and nothing unknown")
    func sampleFile() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Config/announced.json").path
        let fixture = ConfigFixture()
        let loaded = try fixture.loader(CommandLineSettings(config: sample)).load()
        #expect(loaded.file == sample)
        #expect(loaded.warnings.isEmpty)
        var expected = DaemonSettings()
        expected.duck = .level(decibels: -12)
        #expect(loaded.settings == expected)
        let text = try String(contentsOfFile: sample, encoding: .utf8)
        for key in [
            "socket", "ssip_socket", "audio", "output", "device", "voice", "voice_for_language", "rate", "pitch",
            "volume", "punctuation", "earcons",
            "max_line_bytes", "max_text_chars", "max_pending_per_client", "max_outbound_bytes", "allow_uids",
            "log_level", "duck", "engine_idle_unload", "piper_threads",
            "speech_cache",
        ] {
            #expect(text.contains("\"\(key)\""), "the sample lacks \(key)")
        }
    }
}

@Suite("Settings: voice_for_language")
struct VoiceForLanguageTests {
    @Test("the file's object and ANNOUNCED_VOICE_FOR_LANGUAGE give language → voice pairs, the variable over the file")
    func pairs() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"voice_for_language": {"en": "en_us-joe-medium", "pt_BR": "pt-br"}}"#, to: fixture.xdgFile)
        let fromFile = try fixture.loader().load().settings.voiceForLanguage
        #expect(
            fromFile == [
                LanguageVoice(language: "en", voice: "en_us-joe-medium"),
                LanguageVoice(language: "pt_BR", voice: "pt-br"),
            ])
        let fromVariable = try fixture.loader(environment: [
            "ANNOUNCED_VOICE_FOR_LANGUAGE": "de=de_de-thorsten-low, fr=fr"
        ]).load().settings.voiceForLanguage
        #expect(
            fromVariable == [
                LanguageVoice(language: "de", voice: "de_de-thorsten-low"), LanguageVoice(language: "fr", voice: "fr"),
            ])
    }

    @Test(
        "a value that is not an object of language → voice name is refused, naming the key and the form",
        arguments: [
            #"{"voice_for_language": "en_us-joe-medium"}"#, #"{"voice_for_language": {"en": 5}}"#,
            #"{"voice_for_language": {"not a tag!": "en"}}"#, #"{"voice_for_language": {"en": ""}}"#,
        ])
    func refused(file: String) throws {
        let fixture = ConfigFixture()
        fixture.write(file, to: fixture.xdgFile)
        do {
            _ = try fixture.loader().load()
            Issue.record("accepted \(file)")
        } catch {
            #expect(error.description.contains("\"voice_for_language\""), "\(error)")
            #expect(error.description.contains("en_us-joe-medium"), "\(error)")
        }
    }
}

@Suite("Settings: where the file is looked up")
struct LookupOrderTests {
    @Test("--config wins over the XDG file and the system file")
    func explicitFirst() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 101}"#, to: fixture.explicitFile)
        fixture.write(#"{"rate": 102}"#, to: fixture.xdgFile)
        fixture.write(#"{"rate": 103}"#, to: fixture.systemFile)
        let loaded = try fixture.loader(CommandLineSettings(config: fixture.explicitFile)).load()
        #expect(loaded.settings.rate == 101)
        #expect(loaded.file == fixture.explicitFile)
    }

    @Test("$XDG_CONFIG_HOME/announced/announced.json wins over the system file, which is not merged in")
    func xdgBeforeSystem() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 102}"#, to: fixture.xdgFile)
        fixture.write(#"{"rate": 103, "pitch": 7}"#, to: fixture.systemFile)
        let loaded = try fixture.loader().load()
        #expect(loaded.file == fixture.xdgFile)
        #expect(loaded.settings.rate == 102)
        #expect(loaded.settings.pitch == 50)
    }

    @Test("without XDG_CONFIG_HOME the user file is $HOME/.config/announced/announced.json")
    func homeConfig() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 104}"#, to: fixture.homeFile)
        fixture.write(#"{"rate": 102}"#, to: fixture.xdgFile)
        let loaded = try fixture.loader(xdgSet: false).load()
        #expect(loaded.file == fixture.homeFile)
        #expect(loaded.settings.rate == 104)
        #expect(fixture.loader(xdgSet: false).candidates.map(\.path) == [fixture.homeFile, fixture.systemFile])
    }

    @Test("the system file is read when there is no user file")
    func systemLast() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 103}"#, to: fixture.systemFile)
        let loaded = try fixture.loader().load()
        #expect(loaded.file == fixture.systemFile)
        #expect(loaded.settings.rate == 103)
        #expect(
            fixture.loader().candidates == [
                ConfigFileCandidate(path: fixture.xdgFile, required: false),
                ConfigFileCandidate(path: fixture.systemFile, required: false),
            ])
    }

    @Test("a missing --config file is an error naming it; missing default files are fine")
    func missingExplicit() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 102}"#, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader(CommandLineSettings(config: fixture.explicitFile))))
        #expect(error.source == .file(fixture.explicitFile))
        #expect(error.description.contains(fixture.explicitFile))
        #expect(error.description.contains("does not exist"))
        #expect(try fixture.loader(xdgSet: false).load().file == nil)
    }
}

@Suite("Settings: errors name the file and the key")
struct SettingsErrorTests {
    @Test("malformed JSON names the file and the line")
    func malformed() throws {
        let fixture = ConfigFixture()
        fixture.write("{\n  \"rate\": 175,\n  \"pitch\": 50,,\n}\n", to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.source == .file(fixture.xdgFile))
        #expect(error.description.contains(fixture.xdgFile))
        #expect(error.description.contains("not valid JSON"))
        #expect(error.description.contains("line 3"))
        #expect(!error.description.contains("\n"))
    }

    @Test("a file that is not an object is an error", arguments: ["[1, 2]", "\"rate\"", "175", ""])
    func notAnObject(text: String) throws {
        let fixture = ConfigFixture()
        fixture.write(text, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.source == .file(fixture.xdgFile))
    }

    @Test(
        "a value of the wrong JSON type names the file and the key",
        arguments: [
            ("socket", "5"), ("voice", "true"), ("rate", "\"fast\""), ("rate", "true"), ("rate", "175.5"),
            ("pitch", "[50]"),
            ("volume", "{}"), ("punctuation", "0"), ("earcons", "\"yes\""), ("earcons", "1"),
            ("max_line_bytes", "\"64k\""),
            ("max_text_chars", "false"), ("max_pending_per_client", "\"256\""), ("max_outbound_bytes", "1.5"),
            ("allow_uids", "1000"), ("allow_uids", "[\"1000\"]"), ("log_level", "3"), ("audio", "\"pulse\""),
            ("audio.output", "1"), ("audio.device", "[0]"), ("engine_idle_unload", "\"5m\""), ("piper_threads", "1.5"),
            ("speech_cache", "\"8M\""),
        ])
    func wrongType(key: String, json: String) throws {
        let fixture = ConfigFixture()
        let parts = key.split(separator: ".")
        let text = parts.count == 2 ? "{\"\(parts[0])\": {\"\(parts[1])\": \(json)}}" : "{\"\(key)\": \(json)}"
        fixture.write(text, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.source == .file(fixture.xdgFile))
        #expect(error.key == key)
        #expect(error.description.contains(fixture.xdgFile))
        #expect(error.description.contains("\"\(key)\""))
    }

    @Test(
        "a value out of range, or not one of the allowed words, names the file and the key",
        arguments: [
            ("rate", "79"), ("rate", "\(SpeechRanges.rate.upperBound + 1)"), ("ssip_max_rate", "79"),
            ("ssip_max_rate", "\(SpeechRanges.rate.upperBound + 1)"), ("pitch", "-1"), ("pitch", "101"),
            ("volume", "-1"), ("volume", "201"),
            ("max_line_bytes", "0"), ("max_text_chars", "-5"), ("max_pending_per_client", "0"),
            ("max_outbound_bytes", "0"),
            ("allow_uids", "[-1]"), ("allow_uids", "[4294967295]"), ("punctuation", "\"most\""),
            ("log_level", "\"loud\""),
            ("voice", "\"\""), ("socket", "\"\""), ("audio.output", "\"speaker\""), ("audio.output", "\"wav:\""),
            ("audio.device", "\"\""), ("engine_idle_unload", "0"), ("piper_threads", "0"),
            ("speech_cache", "-1"), ("speech_cache", "4097"),
        ])
    func outOfRange(key: String, json: String) throws {
        let fixture = ConfigFixture()
        let parts = key.split(separator: ".")
        let text = parts.count == 2 ? "{\"\(parts[0])\": {\"\(parts[1])\": \(json)}}" : "{\"\(key)\": \(json)}"
        fixture.write(text, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.source == .file(fixture.xdgFile))
        #expect(error.key == key)
        #expect(error.description.contains(fixture.xdgFile))
        #expect(error.description.contains("\"\(key)\""))
        #expect(error.description.contains(json), "the message shows the bad value")
    }

    @Test("the message says the range and what to do")
    func messageWording() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 20}"#, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(
            error.description
                == "config file \(fixture.xdgFile), key \"rate\": must be a whole number from 80 to \(SpeechRanges.rate.upperBound), not 20; correct it, or remove the key to use the default"
        )
    }

    @Test("a bad variable names the variable, and wins over a good file value")
    func badVariable() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 200}"#, to: fixture.xdgFile)
        for (name, value) in [
            ("ANNOUNCED_RATE", "fast"), ("ANNOUNCED_RATE", "99999"), ("ANNOUNCED_EARCONS", "maybe"),
            ("ANNOUNCED_AUDIO", "speaker"), ("ANNOUNCED_ALLOW_UIDS", "1000,x"), ("ANNOUNCED_PUNCTUATION", "most"),
        ] {
            let error = try #require(loadError(fixture.loader(environment: [name: value])))
            #expect(error.source == .environment(name))
            #expect(error.description.contains(name))
            #expect(error.description.contains(value))
        }
    }

    @Test("a bad flag value names the flag")
    func badFlag() throws {
        let fixture = ConfigFixture()
        let error = try #require(settingsError(fixture, flags: ["--rate", "5"]))
        #expect(error.source == .flag("--rate"))
        #expect(
            error.description.hasPrefix("--rate: must be a whole number from 80 to \(SpeechRanges.rate.upperBound)"))
    }

    @Test("a bad value in the file is an error even where a variable or flag overrides it")
    func maskedBadValue() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 20, "audio": {"output": "speaker"}}"#, to: fixture.xdgFile)
        let error = try #require(
            settingsError(fixture, flags: ["--audio", "null", "--rate", "200"], environment: ["ANNOUNCED_RATE": "300"]))
        #expect(error.source == .file(fixture.xdgFile))
        #expect(error.key == "audio.output" || error.key == "rate")
        let variable = try #require(
            settingsError(fixture, flags: ["--rate", "200"], environment: ["ANNOUNCED_RATE": "99999"]))
        #expect(variable.source == .environment("ANNOUNCED_RATE"))
    }

    @Test("a bad value in a file that is not the one read does not matter")
    func onlyTheFirstFileIsChecked() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"rate": 200}"#, to: fixture.xdgFile)
        fixture.write(#"{"rate": "#, to: fixture.systemFile)
        #expect(try fixture.loader().load().settings.rate == 200)
    }
}

@Suite("Settings: unknown keys")
struct UnknownKeyTests {
    @Test("an unknown key is a warning naming it, and the rest still loads")
    func unknownKeys() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"ratee": 300, "rate": 200, "audio": {"output": "null", "volume": 3}}"#, to: fixture.xdgFile)
        let loaded = try fixture.loader().load()
        #expect(loaded.settings.rate == 200)
        #expect(loaded.settings.audioOutput == .null)
        #expect(loaded.warnings.count == 2)
        #expect(loaded.warnings[0].contains("\"ratee\""))
        #expect(loaded.warnings[0].contains(fixture.xdgFile))
        #expect(loaded.warnings[1].contains("\"audio.volume\""))
    }

    @Test("an unknown key may hold anything, even what the file layer could not represent")
    func unknownKeyWithOddValue() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"comment": [{"a": 1}, "b"], "rate": 200}"#, to: fixture.xdgFile)
        let loaded = try fixture.loader().load()
        #expect(loaded.settings.rate == 200)
        #expect(loaded.warnings.count == 1)
    }
}

@Suite("Settings: the --pitch, --volume and --punctuation flags")
struct SpeechFlagTests {
    @Test("each flag beats its variable and the file")
    func flagsWin() throws {
        let fixture = ConfigFixture()
        fixture.write(#"{"pitch": 10, "volume": 20, "punctuation": "some"}"#, to: fixture.xdgFile)
        let environment = ["ANNOUNCED_PITCH": "30", "ANNOUNCED_VOLUME": "40", "ANNOUNCED_PUNCTUATION": "none"]
        var settings = try fixture.loader(environment: environment).load().settings
        #expect(settings.pitch == 30)
        #expect(settings.volume == 40)
        #expect(settings.punctuation == Punctuation.none)
        let flags = try CommandLineSettings(arguments: ["--pitch", "0", "--volume", "200", "--punctuation", "all"])
        settings = try fixture.loader(flags, environment: environment).load().settings
        #expect(settings.pitch == 0)
        #expect(settings.volume == 200)
        #expect(settings.punctuation == .all)
    }

    @Test(
        "a bad value names the flag, the range or the words, and the value",
        arguments: [
            (["--pitch", "101"], "--pitch: must be a whole number from 0 to 100, not 101"),
            (["--pitch", "-1"], "--pitch: must be a whole number from 0 to 100, not -1"),
            (["--volume", "201"], "--volume: must be a whole number from 0 to 200, not 201"),
            (["--punctuation", "most"], "--punctuation: must be one of none, some, all, not \"most\""),
        ])
    func badFlag(flags: [String], message: String) throws {
        let error = try #require(settingsError(ConfigFixture(), flags: flags))
        #expect(error.description == message)
        #expect(error.source == .flag(String(message.prefix { $0 != ":" })))
    }
}
