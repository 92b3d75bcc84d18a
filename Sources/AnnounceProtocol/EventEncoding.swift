// SPDX-License-Identifier: Apache-2.0
extension Event {
    /// The line as a JSON object, fields in the protocol's order.
    public var json: JSONValue {
        var object = JSONObject()
        switch self {
        case .queued(let id, let seq, let warning):
            object.append("event", "queued")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
            if let warning { object.append("warning", .string(warning)) }
        case .started(let id, let seq, let text, let voice):
            object.append("event", "started")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
            object.append("text", .string(text))
            if let voice { object.append("voice", .string(voice)) }
        case .word(let id, let seq, let offset, let length):
            object.append("event", "word")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
            object.append("offset", .integer(Int64(offset)))
            object.append("length", .integer(Int64(length)))
        case .mark(let id, let seq, let name):
            object.append("event", "mark")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
            object.append("name", .string(name))
        case .paused(let id, let seq):
            object.append("event", "paused")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
        case .resumed(let id, let seq):
            object.append("event", "resumed")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
        case .finished(let id, let seq, let termination):
            object.append("event", "finished")
            object.append("id", id.json)
            object.append("seq", .integer(Int64(seq)))
            termination.append(to: &object)
        case .dropped(let id, let reason):
            object.append("event", "dropped")
            object.append("id", id.json)
            object.append("reason", .string(reason.rawValue))
        case .error(let id, let code, let message):
            object.append("event", "error")
            if let id { object.append("id", id.json) }
            object.append("code", .string(code.rawValue))
            object.append("message", .string(message))
        case .ok(let id, let fields):
            object.append("event", "ok")
            object.append("id", id.json)
            for member in fields.members { object.append(member.key, member.value) }
        case .statusChanged(let status):
            object.append("event", "status-changed")
            for member in status.jsonObject.members { object.append(member.key, member.value) }
        case .focusChanged(let from, let to, let owner):
            object.append("event", "focus-changed")
            object.append("from", from.map(JSONValue.string) ?? .null)
            object.append("to", to.map(JSONValue.string) ?? .null)
            object.append("owner", .bool(owner))
        case .speech(let activity):
            object.append("event", "speech")
            activity.append(to: &object)
        case .focused(let element):
            object.append("event", "focused")
            object.append("element", .string(element))
        case .unfocused(let element):
            object.append("event", "unfocused")
            object.append("element", .string(element))
        case .action(let element, let action, let name):
            object.append("event", "action")
            object.append("element", element.map(JSONValue.string) ?? .null)
            object.append("action", .string(action.rawValue))
            if let name { object.append("name", .string(name)) }
        case .lint(let element, let rule, let message):
            object.append("event", "lint")
            object.append("element", .string(element))
            object.append("rule", .string(rule))
            object.append("message", .string(message))
        case .history(let entry):
            object.append("event", "history")
            object.append("entry", .object(entry.jsonObject))
        }
        return .object(object)
    }

    /// The line's bytes, ending with `\n`.
    public var line: [UInt8] { json.jsonLine }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string value from a literal.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension Termination {
    func append(to object: inout JSONObject) {
        switch self {
        case .success:
            object.append("success", true)
        case .failure(let reason, let spokenChars, let message):
            object.append("success", false)
            object.append("reason", .string(reason.rawValue))
            object.append("spoken_chars", .integer(Int64(spokenChars)))
            if let message { object.append("message", .string(message)) }
        }
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean value from a literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension SpeechActivity {
    func append(to object: inout JSONObject) {
        switch self {
        case .started(let seq, let client, let text, let engine):
            object.append("state", "started")
            object.append("seq", .integer(Int64(seq)))
            object.append("client", .string(client))
            object.append("text", .string(text))
            if let engine { object.append("engine", .string(engine)) }
        case .finished(let seq, let client, let termination):
            object.append("state", "finished")
            object.append("seq", .integer(Int64(seq)))
            object.append("client", .string(client))
            termination.append(to: &object)
        case .dropped(let client, let reason):
            object.append("state", "dropped")
            object.append("client", .string(client))
            object.append("reason", .string(reason.rawValue))
        case .run(let seq, let run):
            object.append("state", "run")
            object.append("seq", .integer(Int64(seq)))
            object.append("lang", .string(run.language))
            object.append("voice", .string(run.voice))
            object.append("engine", .string(run.engine))
            object.append("start", .integer(Int64(run.range.lowerBound)))
            object.append("end", .integer(Int64(run.range.upperBound)))
            if run.fallback { object.append("fallback", .bool(true)) }
        }
    }
}

extension StatusReport {
    /// The status fields as a JSON object, in the protocol's order.
    public var jsonObject: JSONObject {
        var object = JSONObject()
        object.append("running", .bool(running))
        object.append("muted", .bool(muted))
        object.append("speaking", .bool(speaking))
        object.append("pending", .integer(Int64(pending)))
        object.append("voice", .string(voice))
        object.append("rate", .integer(Int64(rate)))
        object.append("pitch", .integer(Int64(pitch)))
        object.append("volume", .integer(Int64(volume)))
        object.append("audio", .string(audio))
        object.append("clients", .integer(Int64(clients)))
        object.append("focus", focus.map(JSONValue.string) ?? .null)
        object.append("uptime_s", .integer(Int64(uptimeSeconds)))
        object.append("version", .string(version))
        object.append("screen", screen.map(JSONValue.string) ?? .null)
        object.append("stops", .integer(Int64(stops)))
        // Additions to protocol 1.
        object.append("punctuation", .string(punctuation.rawValue))
        object.append("speaking_text", speakingText.map(JSONValue.string) ?? .null)
        object.append("speaking_client", speakingClient.map(JSONValue.string) ?? .null)
        object.append("paused", .bool(paused))
        object.append("ssip_clients", .integer(Int64(ssipClients)))
        object.append("screen_reader", .bool(screenReader))
        object.append(
            "client_settings",
            .array(
                clientSettings.map { client in
                    var entry = JSONObject()
                    entry.append("name", .string(client.name))
                    entry.append("matched", client.matched.map(JSONValue.string) ?? .null)
                    return .object(entry)
                }))
        return object
    }
}
