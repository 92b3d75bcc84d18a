// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol

extension ClientSettingsEntry {
    /// The fields an entry may have besides `match`, in the order the documentation lists them.
    static let fieldNames = ["voice", "rate", "pitch", "volume", "punctuation", "language", "mute"]

    /// `clients`' type: a JSON array of objects in the file (no variable or flag sets it).
    static let settingType = SettingType<[ClientSettingsEntry]>(
        summary: "array of objects",
        requirement:
            "must be a list of objects such as [{\"match\": \"*:Orca:*\", \"rate\": 300}], each with \"match\" (a pattern "
            + "over the client's name) and any of \(fieldNames.joined(separator: ", "))",
        fromText: { _ in nil },
        fromJSON: { try? entries(from: $0).get() },
        toJSON: { .array($0.map { .object($0.jsonObject) }) },
        explain: { json in
            guard case .failure(let problem) = entries(from: json) else { return nil }
            return problem.text
        })

    /// Why an entry or the list is refused: one sentence, without the file and key.
    struct Problem: Error {
        let text: String
    }

    /// The entries `json` lists, or what is wrong with the first one that is wrong.
    static func entries(from json: JSONValue) -> Result<[ClientSettingsEntry], Problem> {
        guard let array = json.arrayValue else {
            return .failure(
                Problem(
                    text:
                        "must be a list of objects such as [{\"match\": \"*:Orca:*\", \"rate\": 300}], not \(json.jsonText)"
                ))
        }
        var entries: [ClientSettingsEntry] = []
        for (index, element) in array.enumerated() {
            switch entry(from: element) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem):
                return .failure(Problem(text: "entry \(index + 1): \(problem.text)"))
            }
        }
        return .success(entries)
    }

    /// One entry, or what is wrong with it.
    static func entry(from json: JSONValue) -> Result<ClientSettingsEntry, Problem> {
        guard let object = json.objectValue else {
            return .failure(
                Problem(
                    text: "must be an object such as {\"match\": \"*:Orca:*\", \"rate\": 300}, not \(json.jsonText)"))
        }
        for member in object.members where member.key != "match" && !fieldNames.contains(member.key) {
            return .failure(
                Problem(
                    text:
                        "\"\(member.key)\" is not a field of an entry (they are match, \(fieldNames.joined(separator: ", ")))"
                ))
        }
        guard let match = object["match"]?.stringValue, !match.isEmpty else {
            return .failure(
                Problem(
                    text:
                        "needs \"match\", a pattern over the client's name such as \"*:Orca:*\", \"atspi:*\" or \"pid:*\", "
                        + "not \(object["match"]?.jsonText ?? "nothing")"))
        }
        var entry = ClientSettingsEntry(match: match)
        func field<Value>(_ name: String, _ type: SettingType<Value>) -> Result<Value?, Problem> {
            guard let value = object[name], !value.isNull else { return .success(nil) }
            guard let parsed = type.fromJSON(value) else {
                return .failure(Problem(text: "\"\(name)\" \(type.requirement), not \(value.jsonText)"))
            }
            return .success(parsed)
        }
        do {
            entry.voice = try field("voice", .text("must be a voice name such as en-us or en_us-joe-medium")).get()
            entry.rate = try field("rate", .integer(SpeechRanges.rate)).get()
            entry.pitch = try field("pitch", .integer(SpeechRanges.pitch)).get()
            entry.volume = try field("volume", .integer(SpeechRanges.volume)).get()
            entry.punctuation = try field("punctuation", .word(Punctuation.self)).get()
            entry.language = try field("language", SettingType<String>.languageTag).get()
            entry.mute = try field("mute", .boolean).get()
        } catch {
            return .failure(error)
        }
        return .success(entry)
    }

    /// The entry as the file writes it.
    var jsonObject: JSONObject {
        var object = JSONObject()
        object.append("match", .string(match))
        if let voice { object.append("voice", .string(voice)) }
        if let rate { object.append("rate", .integer(Int64(rate))) }
        if let pitch { object.append("pitch", .integer(Int64(pitch))) }
        if let volume { object.append("volume", .integer(Int64(volume))) }
        if let punctuation { object.append("punctuation", .string(punctuation.rawValue)) }
        if let language { object.append("language", .string(language)) }
        if let mute { object.append("mute", .bool(mute)) }
        return object
    }
}

extension SettingType where Value == String {
    /// A BCP 47 language tag such as `en`, `de` or `pt-BR`.
    static let languageTag = SettingType(
        summary: "string", requirement: "must be a language tag such as en, de or pt-BR",
        fromText: { RequestLine.isPlausibleLanguageTag($0) ? $0 : nil },
        fromJSON: { $0.stringValue.flatMap { RequestLine.isPlausibleLanguageTag($0) ? $0 : nil } },
        toJSON: { .string($0) })
}
