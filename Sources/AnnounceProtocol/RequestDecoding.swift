// SPDX-License-Identifier: Apache-2.0
extension RequestLine {
    /// Decodes one line (without its `\n`; a trailing `\r` is tolerated) into a request, or the
    /// error the daemon answers with. The error carries the line's `id` when it had a valid one.
    /// Bytes in contiguous storage are read where they lie; others are copied once.
    public static func decode(line bytes: some Collection<UInt8>, limits: DecodingLimits = DecodingLimits()) -> Result<
        RequestLine, RequestError
    > {
        bytes.withContiguousStorageIfAvailable { decode(line: UnsafeRawBufferPointer($0), limits: limits) }
            ?? Array(bytes).withUnsafeBytes { decode(line: $0, limits: limits) }
    }

    /// Decodes one line (without its `\n`; a trailing `\r` is tolerated) from the bytes of
    /// `bytes`, without copying them.
    public static func decode(line bytes: UnsafeRawBufferPointer, limits: DecodingLimits = DecodingLimits()) -> Result<
        RequestLine, RequestError
    > {
        let trimmed = bytes.last == UInt8(ascii: "\r") ? UnsafeRawBufferPointer(rebasing: bytes.dropLast()) : bytes
        let json: JSONValue
        do {
            json = try JSONParser.parse(trimmed)
        } catch {
            return .failure(RequestError(.badJSON, "the line is not valid JSON: \(error)"))
        }
        return decode(json: json, limits: limits)
    }

    /// Decodes a parsed JSON line into a request, or the error the daemon answers with.
    public static func decode(json: JSONValue, limits: DecodingLimits = DecodingLimits()) -> Result<
        RequestLine, RequestError
    > {
        guard let object = json.objectValue else {
            return .failure(RequestError(.notObject, "each line must be a JSON object, not \(json.typeName)"))
        }
        var id: RequestID?
        if let rawID = object["id"], !rawID.isNull {
            guard let valid = RequestID(json: rawID) else {
                return .failure(RequestError(.invalid, "`id` must be a string or an integer, not \(rawID.typeName)"))
            }
            id = valid
        }
        guard let opValue = object["op"] else {
            return .failure(RequestError(.missingOp, "the request has no `op`; use one of \(knownOps)", id: id))
        }
        guard let op = opValue.stringValue else {
            return .failure(RequestError(.invalid, "`op` must be a string, not \(opValue.typeName)", id: id))
        }
        do throws(RequestError) {
            let request = try decodeRequest(op: op, object: object, limits: limits)
            return .success(RequestLine(id: id, request))
        } catch {
            var withID = error
            withID.id = id
            return .failure(withID)
        }
    }

    static let knownOps =
        (PostKind.allCases.map(\.rawValue) + [
            "hello", "status", "stop", "pause", "resume", "cancel", "set", "subscribe", "navigate", "update", "voices",
            "char", "key", "sound", "history",
        ])
        .joined(separator: ", ")

    static func decodeRequest(op: String, object: JSONObject, limits: DecodingLimits) throws(RequestError) -> Request {
        if let kind = PostKind(rawValue: op) {
            return .speech(try decodePost(kind: kind, object: object, limits: limits))
        }
        do throws(FieldError) {
            switch op {
            case "hello":
                return .hello(
                    client: try object.optionalString("client"), lint: try object.optionalBool("lint") ?? false)
            case "status":
                return .status
            case "stop":
                return .stop
            case "pause":
                switch try object.optionalString("until") {
                case nil, "close"?: return .pause(untilResume: false)
                case "resume"?: return .pause(untilResume: true)
                case let other?:
                    throw FieldError(field: "until", problem: "must be \"resume\" or \"close\", not \"\(other)\"")
                }
            case "resume":
                return .resume
            case "cancel":
                switch try object.optionalString("scope") {
                case nil, "connection"?: break
                case "client"?:
                    guard let target = object["target"], !target.isNull else { return .cancelOwn(target: nil) }
                    guard let id = RequestID(json: target) else {
                        throw FieldError(field: "target", problem: "must be a string or an integer")
                    }
                    return .cancelOwn(target: id)
                case let other?:
                    throw FieldError(field: "scope", problem: "must be \"connection\" or \"client\", not \"\(other)\"")
                }
                guard let target = object["target"], !target.isNull else {
                    throw FieldError(field: "target", problem: "is required: the id of the post to cancel")
                }
                guard let id = RequestID(json: target) else {
                    throw FieldError(field: "target", problem: "must be a string or an integer")
                }
                return .cancel(target: id)
            case "set":
                return .set(try decodeSettings(object))
            case "subscribe":
                return .subscribe(try decodeTopics(object))
            case "navigate":
                return .navigate(try decodeNavigate(object))
            case "update":
                return .update(try decodeUpdate(object))
            case "char", "key", "sound":
                guard let speech = try ShortSpeech.decode(op: op, object: object) else { break }
                return .short(speech, try decodeOptions(object))
            case "voices":
                let language = try object.optionalString("lang")
                if let language, !isPlausibleLanguageTag(language) {
                    throw FieldError(
                        field: "lang", problem: "must be a BCP 47 language tag such as \"en\", \"de-DE\" or \"cmn\"")
                }
                return .voices(language: language)
            case "history":
                return .history(limit: try object.optionalInt("limit", range: 1...Int(Int32.max)))
            default:
                break
            }
        } catch {
            throw RequestError(.invalid, error.description)
        }
        throw RequestError(.unknownOp, "unknown op \"\(op)\"; use one of \(knownOps)")
    }

    static func decodeSettings(_ object: JSONObject) throws(FieldError) -> SettingsChange {
        let change = SettingsChange(
            muted: try object.optionalBool("muted"),
            voice: try object.optionalString("voice"),
            rate: try object.optionalInt("rate", range: SpeechRanges.rate),
            pitch: try object.optionalInt("pitch", range: SpeechRanges.pitch),
            volume: try object.optionalInt("volume", range: SpeechRanges.volume),
            punctuation: try object.optionalEnum("punctuation", Punctuation.self)
        )
        if let voice = change.voice, voice.isEmpty { throw FieldError(field: "voice", problem: "must not be empty") }
        return change
    }

    static let topicNames = Topic.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    static func decodeTopics(_ object: JSONObject) throws(FieldError) -> [Topic] {
        guard let events = object["events"], let array = events.arrayValue else {
            throw FieldError(field: "events", problem: "must be an array of \(topicNames)")
        }
        return try array.map { (item: JSONValue) throws(FieldError) -> Topic in
            guard let name = item.stringValue, let topic = Topic(rawValue: name) else {
                throw FieldError(field: "events", problem: "may hold only \(topicNames)")
            }
            return topic
        }
    }
}

/// The valid ranges of the numeric speech options: every door (the protocol, SSIP, Spiel,
/// announcectl, the settings) and every engine takes its range from here.
public enum SpeechRanges {
    /// `rate`, words per minute: from espeak-ng's slowest up to the highest rate it still renders
    /// faster (its sonic speed-up; Benchmarks/README.md, "Rates", has the durations). A Piper voice maps
    /// the same range onto its length scale.
    public static let rate = 80...9800
    /// espeak-ng's normal rate, words per minute: a Piper voice's own speed.
    public static let normalRate = 175
    /// What SSIP's `RATE 100` stands for unless `ssip_max_rate` says otherwise: the top of
    /// speech-dispatcher's own scale.
    public static let ssipMaxRate = 450
    /// `pitch`.
    public static let pitch = 0...100
    /// `volume`.
    public static let volume = 0...200

    /// `value` within `range`: the nearest end of it when outside.
    public static func clamp(_ value: Int, to range: ClosedRange<Int>) -> Int {
        min(max(value, range.lowerBound), range.upperBound)
    }
}
