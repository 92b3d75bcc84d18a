// SPDX-License-Identifier: Apache-2.0
extension Event {
    /// Reads one line from the daemon (without its `\n`; a trailing `\r` is tolerated): the
    /// inverse of ``line``. Throws when the line is not JSON or not an event this version knows.
    public init(line bytes: some Collection<UInt8>) throws(FieldError) {
        var slice = Array(bytes)
        if slice.last == UInt8(ascii: "\r") { slice.removeLast() }
        let json: JSONValue
        do {
            json = try JSONParser.parse(slice)
        } catch {
            throw FieldError(field: "line", problem: "is not valid JSON: \(error)")
        }
        try self.init(json: json)
    }

    /// Reads an event object: the inverse of ``json``. Unknown fields are ignored.
    public init(json: JSONValue) throws(FieldError) {
        guard let object = json.objectValue else {
            throw FieldError(field: "line", problem: "must be a JSON object, not \(json.typeName)")
        }
        guard let name = object["event"]?.stringValue else {
            throw FieldError(field: "event", problem: "is required and must be a string")
        }
        switch name {
        case "queued":
            self = .queued(
                id: try object.requestID(), seq: try object.sequence(), warning: try object.optionalString("warning"))
        case "started":
            self = .started(
                id: try object.requestID(), seq: try object.sequence(), text: try object.requiredString("text"),
                voice: try object.optionalString("voice"))
        case "word":
            self = .word(
                id: try object.requestID(), seq: try object.sequence(),
                offset: try object.requiredInt("offset"), length: try object.requiredInt("length"))
        case "mark":
            self = .mark(
                id: try object.requestID(), seq: try object.sequence(), name: try object.requiredString("name"))
        case "paused":
            self = .paused(id: try object.requestID(), seq: try object.sequence())
        case "resumed":
            self = .resumed(id: try object.requestID(), seq: try object.sequence())
        case "finished":
            self = .finished(
                id: try object.requestID(), seq: try object.sequence(), termination: try Termination(object))
        case "dropped":
            self = .dropped(id: try object.requestID(), reason: try object.dropReason())
        case "error":
            let id = object["id"].flatMap(RequestID.init(json:))
            let codeName = try object.requiredString("code")
            guard let code = ErrorCode(rawValue: codeName) else {
                throw FieldError(field: "code", problem: "has unknown value \"\(codeName)\"")
            }
            self = .error(id: id, code: code, message: try object.requiredString("message"))
        case "ok":
            let fields = JSONObject(object.members.filter { $0.key != "event" && $0.key != "id" })
            self = .ok(id: try object.requestID(), fields: fields)
        case "status-changed":
            self = .statusChanged(try StatusReport(object))
        case "focus-changed":
            self = .focusChanged(
                from: try object.optionalString("from"), to: try object.optionalString("to"),
                owner: try object.optionalBool("owner") ?? false)
        case "speech":
            self = .speech(try SpeechActivity(object))
        case "focused":
            self = .focused(element: try object.requiredString("element"))
        case "unfocused":
            self = .unfocused(element: try object.requiredString("element"))
        case "action":
            guard let action = try object.optionalEnum("action", ElementActionKind.self) else {
                throw FieldError(field: "action", problem: "is required")
            }
            self = .action(
                element: try object.optionalString("element"), action: action, name: try object.optionalString("name"))
        case "lint":
            self = .lint(
                element: try object.requiredString("element"), rule: try object.requiredString("rule"),
                message: try object.requiredString("message"))
        case "history":
            guard let entry = object["entry"]?.objectValue else {
                throw FieldError(field: "entry", problem: "is required and must be an object")
            }
            self = .history(try HistoryEntry(entry))
        default:
            throw FieldError(field: "event", problem: "has unknown value \"\(name)\"")
        }
    }
}

extension Termination {
    /// Reads `success`, `reason`, `spoken_chars` and `message` of a `finished` line.
    init(_ object: JSONObject) throws(FieldError) {
        guard let success = try object.optionalBool("success") else {
            throw FieldError(field: "success", problem: "is required")
        }
        if success {
            self = .success
            return
        }
        let reasonName = try object.requiredString("reason")
        guard let reason = FinishReason(rawValue: reasonName) else {
            throw FieldError(field: "reason", problem: "has unknown value \"\(reasonName)\"")
        }
        self = .failure(
            reason: reason, spokenChars: try object.optionalInt("spoken_chars", range: 0...Int.max) ?? 0,
            message: try object.optionalString("message"))
    }
}

extension SpeechActivity {
    /// Reads the `state` and its fields of a `speech` subscription line.
    init(_ object: JSONObject) throws(FieldError) {
        switch try object.requiredString("state") {
        case "started":
            self = .started(
                seq: try object.sequence(), client: try object.requiredString("client"),
                text: try object.requiredString("text"), engine: try object.optionalString("engine")
            )
        case "finished":
            self = .finished(
                seq: try object.sequence(), client: try object.requiredString("client"),
                termination: try Termination(object))
        case "dropped":
            self = .dropped(client: try object.requiredString("client"), reason: try object.dropReason())
        case "run":
            let start = try object.requiredInt("start")
            let end = try object.requiredInt("end")
            guard start >= 0, end >= start else {
                throw FieldError(field: "end", problem: "must not be before start, and start not negative")
            }
            self = .run(
                seq: try object.sequence(),
                SpeechRun(
                    language: try object.requiredString("lang"), voice: try object.requiredString("voice"),
                    engine: try object.requiredString("engine"), range: start..<end,
                    fallback: try object.optionalBool("fallback") ?? false))
        case let other:
            throw FieldError(field: "state", problem: "has unknown value \"\(other)\"")
        }
    }
}

extension StatusReport {
    /// Reads the status fields of a `status` answer or a `status-changed` line.
    public init(_ object: JSONObject) throws(FieldError) {
        self.init(
            running: try object.requiredBool("running"), muted: try object.requiredBool("muted"),
            speaking: try object.requiredBool("speaking"), pending: try object.requiredInt("pending"),
            voice: try object.requiredString("voice"), rate: try object.requiredInt("rate"),
            pitch: try object.requiredInt("pitch"), volume: try object.requiredInt("volume"),
            audio: try object.requiredString("audio"), clients: try object.requiredInt("clients"),
            focus: try object.optionalString("focus"), uptimeSeconds: try object.requiredInt("uptime_s"),
            version: try object.requiredString("version"), screen: try object.optionalString("screen"),
            stops: try object.optionalInt("stops", range: 0...Int.max) ?? 0)
        // Additions to protocol 1, absent from older daemons.
        punctuation = try object.optionalEnum("punctuation", Punctuation.self) ?? .none
        speakingText = try object.optionalString("speaking_text")
        speakingClient = try object.optionalString("speaking_client")
        paused = try object.optionalBool("paused") ?? false
        ssipClients = try object.optionalInt("ssip_clients", range: 0...Int.max) ?? 0
        screenReader = try object.optionalBool("screen_reader") ?? false
        if let list = object["client_settings"], !list.isNull {
            guard let clients = list.arrayValue else {
                throw FieldError(field: "client_settings", problem: "must be an array")
            }
            clientSettings = try clients.map { (client: JSONValue) throws(FieldError) -> ClientSettingsMatch in
                guard let entry = client.objectValue else {
                    throw FieldError(field: "client_settings", problem: "must hold objects")
                }
                return ClientSettingsMatch(
                    name: try entry.requiredString("name"), matched: try entry.optionalString("matched"))
            }
        }
    }
}

extension JSONObject {
    func requiredString(_ key: String) throws(FieldError) -> String {
        guard let value = try optionalString(key) else { throw FieldError(field: key, problem: "is required") }
        return value
    }

    func requiredBool(_ key: String) throws(FieldError) -> Bool {
        guard let value = try optionalBool(key) else { throw FieldError(field: key, problem: "is required") }
        return value
    }

    func requiredInt(_ key: String) throws(FieldError) -> Int {
        guard let value = try optionalInt(key, range: Int.min...Int.max) else {
            throw FieldError(field: key, problem: "is required")
        }
        return value
    }

    func requestID() throws(FieldError) -> RequestID {
        guard let raw = self["id"], let id = RequestID(json: raw) else {
            throw FieldError(field: "id", problem: "is required and must be a string or an integer")
        }
        return id
    }

    func sequence() throws(FieldError) -> UInt64 {
        guard let raw = self["seq"]?.integerValue, let seq = UInt64(exactly: raw) else {
            throw FieldError(field: "seq", problem: "is required and must be a non-negative integer")
        }
        return seq
    }

    func dropReason() throws(FieldError) -> DropReason {
        let name = try requiredString("reason")
        guard let reason = DropReason(rawValue: name) else {
            throw FieldError(field: "reason", problem: "has unknown value \"\(name)\"")
        }
        return reason
    }
}
