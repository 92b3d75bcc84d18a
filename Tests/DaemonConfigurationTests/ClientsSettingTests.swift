// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import DaemonConfiguration
import Testing

/// The settings a file with `json` (one object) loads, or its error.
private func load(_ json: String) throws -> DaemonSettings {
    let fixture = ConfigFixture()
    fixture.write(json, to: fixture.xdgFile)
    return try fixture.loader().load().settings
}

/// A JSON value of `entry`'s that is not its default, for keys whose type gives none by itself.
private let changedValues: [String: JSONValue] = [
    "socket": .string("/tmp/announced-other.sock"),
    "ssip_socket": .string("default"),
    "audio.output": .string("null"),
    "audio.device": .string("hw:1"),
    "voice": .string("de"),
    "voice_for_language": .object(["de": .string("de")]),
    "languages": .array([.string("en"), .string("uk")]),
    "clients": .array([.object(["match": .string("*:Orca:*"), "rate": .integer(300)])]),
    "toolkit_announcements_ignore": .array([.string("firefox")]),
    "allow_uids": .array([.integer(1001)]),
    "duck": .integer(-12),
]

/// A value of `entry` other than its default: from ``changedValues``, its sample, or a neighbour
/// of its default (a number one more or less, the other boolean, another word).
private func changedValue(of entry: any AnySetting) -> JSONValue? {
    var candidates: [JSONValue] = changedValues[entry.key].map { [$0] } ?? []
    candidates.append(entry.sampleJSON)
    switch entry.defaultJSON {
    case .integer(let value): candidates += [.integer(value + 1), .integer(value - 1)]
    case .bool(let value): candidates.append(.bool(!value))
    default: break
    }
    candidates += ["off", "on", "auto", "all", "some", "detect", "error", "debug"].map { .string($0) }
    return candidates.first { $0 != entry.defaultJSON && entry.parse(json: $0) != nil }
}

@Suite("Settings: the clients entries, and what a reload applies")
struct ClientsSettingTests {
    @Test(
        "every key a reload applies is carried by LiveSettings, and a key that needs a restart is not changed by a reload"
    )
    func reloadAppliesExactlyTheCarriedKeys() throws {
        let start = LiveSettings(DaemonSettings())
        for entry in SettingsTable.entries {
            let value = try #require(
                changedValue(of: entry), "no value other than the default for \(entry.key): add one to changedValues")
            var object = JSONObject()
            if entry.key.hasPrefix("audio.") {
                object.append("audio", .object([String(entry.key.dropFirst(6)): value]))
            } else {
                object.append(entry.key, value)
            }
            let changed = try load(JSONValue.object(object).jsonText)
            #expect(changed != DaemonSettings(), "\(entry.key): \(value.jsonText) is its default")
            let reloaded = start.reloaded(changed)
            switch entry.reload {
            case .applied:
                #expect(reloaded != start, "\(entry.key) is marked applied, but LiveSettings does not carry it")
            case .needsRestart:
                #expect(reloaded == start, "\(entry.key) needs a restart, but a reload changed LiveSettings")
            }
        }
    }

    @Test("an entry's fields are read, and its pattern matches whole names without regard to case")
    func entriesAndMatching() throws {
        let settings = try load(
            #"{"clients": [{"match": "*:Orca:*", "voice": "de", "rate": 300, "pitch": 20, "volume": 60, "punctuation": "all", "language": "de", "mute": false}, {"match": "atspi:evolution", "mute": true}]}"#
        )
        let live = LiveSettings(settings)
        #expect(
            settings.clients.first
                == ClientSettingsEntry(
                    match: "*:Orca:*", voice: "de", rate: 300, pitch: 20, volume: 60, punctuation: .all, language: "de",
                    mute: false))
        // Orca's own forms of CLIENT_NAME, with and without USER.
        #expect(live.entry(forClientNamed: "unknown:Orca:default")?.match == "*:Orca:*")
        #expect(live.entry(forClientNamed: "alice:orca:speech")?.match == "*:Orca:*")
        #expect(live.entry(forClientNamed: "Orca") == nil)
        #expect(live.entry(forClientNamed: "ATSPI:Evolution")?.mute == true)
        #expect(live.entry(forClientNamed: "atspi:evolution-alarm") == nil)
        let orca = live.speechDefaults(forClientNamed: "unknown:Orca:default")
        #expect(orca.rate == 300 && orca.volume == 60 && orca.pitch == 20 && orca.voice == "de")
        #expect(orca.punctuation == .all && !orca.muted)
        #expect(live.speechDefaults(forClientNamed: "pid:12").rate == 175)
    }

    @Test(
        "a bad entry is an error naming the file, the key, the entry and the field, and saying what it must be",
        arguments: [
            (#"{"clients": {"match": "*"}}"#, #"key "clients": must be a list of objects"#),
            (#"{"clients": ["*:Orca:*"]}"#, #"entry 1: must be an object such as"#),
            (#"{"clients": [{"rate": 300}]}"#, #"entry 1: needs "match", a pattern over the client's name"#),
            (#"{"clients": [{"match": ""}]}"#, #"entry 1: needs "match""#),
            (
                #"{"clients": [{"match": "a"}, {"match": "b", "rate": 9900}]}"#,
                #"entry 2: "rate" must be a whole number from 80 to 9800, not 9900"#
            ),
            (#"{"clients": [{"match": "a", "pitch": "high"}]}"#, #""pitch" must be a whole number from 0 to 100"#),
            (#"{"clients": [{"match": "a", "volume": 201}]}"#, #""volume" must be a whole number from 0 to 200"#),
            (
                #"{"clients": [{"match": "a", "punctuation": "most"}]}"#,
                #""punctuation" must be one of none, some, all"#
            ),
            (#"{"clients": [{"match": "a", "language": "english!"}]}"#, #""language" must be a language tag"#),
            (#"{"clients": [{"match": "a", "mute": "yes"}]}"#, #""mute" must be true or false"#),
            (#"{"clients": [{"match": "a", "voice": ""}]}"#, #""voice" must be a voice name"#),
            (
                #"{"clients": [{"match": "a", "speed": 2}]}"#,
                #""speed" is not a field of an entry (they are match, voice"#
            ),
        ])
    func badEntries(file: String, message: String) throws {
        let fixture = ConfigFixture()
        fixture.write(file, to: fixture.xdgFile)
        let error = try #require(loadError(fixture.loader()))
        #expect(error.description.contains(message), "\(error.description)")
        #expect(error.description.contains(fixture.xdgFile))
        #expect(error.description.hasSuffix("correct it, or remove the key to use the default"))
    }
}
