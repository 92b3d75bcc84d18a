// SPDX-License-Identifier: Apache-2.0
extension RequestLine {
    /// The request as a JSON object: `op`, then `id`, then the request's fields. The inverse of
    /// ``decode(json:limits:)``; options at their defaults are left out.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("op", .string(request.op))
        if let id { object.append("id", id.json) }
        request.append(to: &object)
        return .object(object)
    }

    /// The line's bytes, ending with `\n`.
    public var line: [UInt8] { json.jsonLine }
}

extension Request {
    func append(to object: inout JSONObject) {
        switch self {
        case .speech(let post):
            post.append(to: &object)
        case .hello(let client, let lint):
            if let client { object.append("client", .string(client)) }
            if lint { object.append("lint", true) }
        case .pause(let untilResume):
            if untilResume { object.append("until", "resume") }
        case .status, .stop, .resume:
            break
        case .cancel(let target):
            object.append("target", target.json)
        case .set(let change):
            if let muted = change.muted { object.append("muted", .bool(muted)) }
            if let voice = change.voice { object.append("voice", .string(voice)) }
            if let rate = change.rate { object.append("rate", .integer(Int64(rate))) }
            if let pitch = change.pitch { object.append("pitch", .integer(Int64(pitch))) }
            if let volume = change.volume { object.append("volume", .integer(Int64(volume))) }
            if let punctuation = change.punctuation { object.append("punctuation", .string(punctuation.rawValue)) }
        case .subscribe(let topics):
            object.append("events", .array(topics.map { .string($0.rawValue) }))
        case .navigate(let navigate):
            object.append("action", .string(navigate.action.rawValue))
            if let rotor = navigate.rotor { object.append("rotor", .string(rotor)) }
            if let name = navigate.name { object.append("name", .string(name)) }
        case .update(let update):
            object.append("element", update.json)
        case .cancelOwn(let target):
            if let target { object.append("target", target.json) }
            object.append("scope", "client")
        case .voices(let language):
            if let language { object.append("lang", .string(language)) }
        case .short(let speech, let options):
            object.append(speech.field.name, .string(speech.field.value))
            options.append(to: &object)
        case .history(let limit):
            if let limit { object.append("limit", .integer(Int64(limit))) }
        }
    }
}

extension SpeechPost {
    func append(to object: inout JSONObject) {
        switch (kind, subject) {
        case (.announce, .text(let text)):
            object.append("text", .string(text))
        case (_, .text(let text)):
            object.append("element", .string(text))
        case (_, .element(let element)):
            object.append("element", element.json)
        case (_, .none):
            object.append("element", .null)
        }
        if let elements { object.append("elements", .array(elements.map(\.json))) }
        if let rotors { object.append("rotors", .array(rotors.map(\.json))) }
        options.append(to: &object)
    }
}

extension SpeechOptions {
    func append(to object: inout JSONObject) {
        if thread != "main" { object.append("thread", .string(thread)) }
        if priority != .default { object.append("priority", .string(priority.rawValue)) }
        if queue { object.append("queue", true) }
        if let voice { object.append("voice", .string(voice)) }
        if let lang { object.append("lang", .string(lang)) }
        if let rate { object.append("rate", .integer(Int64(rate))) }
        if let pitch { object.append("pitch", .integer(Int64(pitch))) }
        if let volume { object.append("volume", .integer(Int64(volume))) }
        if let punctuation { object.append("punctuation", .string(punctuation.rawValue)) }
        if spell { object.append("spell", true) }
        if ssml { object.append("ssml", true) }
        if words { object.append("words", true) }
    }
}
