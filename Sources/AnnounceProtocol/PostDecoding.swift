// SPDX-License-Identifier: Apache-2.0
extension RequestLine {
    static func decodePost(kind: PostKind, object: JSONObject, limits: DecodingLimits) throws(RequestError)
        -> SpeechPost
    {
        let post = try decodePostFields(kind: kind, object: object, limits: limits)
        if case .text(let text) = post.subject {
            try limits.checkLength(text, field: kind == .announce ? "text" : "element")
        }
        return post
    }

    static func decodePostFields(kind: PostKind, object: JSONObject, limits: DecodingLimits) throws(RequestError)
        -> SpeechPost
    {
        do throws(FieldError) {
            let options = try decodeOptions(object)
            switch kind {
            case .announce:
                guard let textValue = object["text"] else {
                    throw FieldError(field: "text", problem: "is required for announce")
                }
                guard let text = textValue.stringValue else {
                    throw FieldError(field: "text", problem: "must be a string, not \(textValue.typeName)")
                }
                try checkSpeakable(text, field: "text", limits: limits)
                return SpeechPost(kind: kind, subject: .text(text), options: options)
            case .focus, .screenChanged, .layoutChanged:
                let subject = try decodeSubject(object["element"], limits: limits)
                var elements: [Element]?
                if kind != .focus, let raw = object["elements"], !raw.isNull {
                    guard let array = raw.arrayValue else {
                        throw FieldError(field: "elements", problem: "must be an array of element objects")
                    }
                    var decoded: [Element] = []
                    decoded.reserveCapacity(array.count)
                    for (index, item) in array.enumerated() {
                        decoded.append(try Element(json: item, field: "elements[\(index)]"))
                    }
                    try checkUniqueIDs(decoded)
                    elements = decoded
                }
                let rotors = kind == .focus ? nil : try decodeRotors(object["rotors"], elements: elements)
                return SpeechPost(kind: kind, subject: subject, elements: elements, rotors: rotors, options: options)
            }
        } catch {
            throw RequestError(.invalid, error.description)
        }
    }

    static func decodeSubject(_ value: JSONValue?, limits: DecodingLimits) throws(FieldError) -> PostSubject {
        guard let value, !value.isNull else { return .none }
        if let text = value.stringValue {
            try checkSpeakable(text, field: "element", limits: limits)
            return .text(text)
        }
        guard value.objectValue != nil else {
            throw FieldError(
                field: "element", problem: "must be an element object, a string or null, not \(value.typeName)")
        }
        return .element(try Element(json: value, field: "element"))
    }

    /// Checks a text is non-empty after trimming. Length is checked by the caller that knows the
    /// final spoken text (`text-too-long`), see ``checkLength(_:field:limits:)``.
    static func checkSpeakable(_ text: String, field: String, limits: DecodingLimits) throws(FieldError) {
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            throw FieldError(field: field, problem: "must not be empty or only white space")
        }
    }

    static func decodeOptions(_ object: JSONObject) throws(FieldError) -> SpeechOptions {
        var options = SpeechOptions()
        if let thread = try object.optionalString("thread") { options.thread = thread }
        if let priority = try object.optionalEnum("priority", Priority.self) { options.priority = priority }
        if let queue = try object.optionalBool("queue") { options.queue = queue }
        options.voice = try object.optionalString("voice")
        if options.voice?.isEmpty == true { throw FieldError(field: "voice", problem: "must not be empty") }
        options.lang = try object.optionalString("lang")
        if let lang = options.lang, !isPlausibleLanguageTag(lang) {
            throw FieldError(
                field: "lang", problem: "must be a BCP 47 language tag such as \"en\", \"de-DE\" or \"cmn\"")
        }
        options.rate = try object.optionalInt("rate", range: SpeechRanges.rate)
        options.pitch = try object.optionalInt("pitch", range: SpeechRanges.pitch)
        options.volume = try object.optionalInt("volume", range: SpeechRanges.volume)
        options.punctuation = try object.optionalEnum("punctuation", Punctuation.self)
        if let spell = try object.optionalBool("spell") { options.spell = spell }
        if let ssml = try object.optionalBool("ssml") { options.ssml = ssml }
        if let words = try object.optionalBool("words") { options.words = words }
        return options
    }

    /// Letters, digits and hyphens, starting with 2 to 8 letters: the shape of a BCP 47 tag.
    public static func isPlausibleLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }.joined()
        let subtags = Array(parts)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else {
            return false
        }
        return subtags.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}

extension DecodingLimits {
    /// Throws `text-too-long` when `text` has more Unicode scalars than allowed.
    public func checkLength(_ text: String, field: String = "text") throws(RequestError) {
        // A text has no more scalars than UTF-8 bytes: most need no counting.
        guard text.utf8.count > maxTextChars else { return }
        let count = text.unicodeScalarCount
        if count > maxTextChars {
            throw RequestError(
                .textTooLong,
                "`\(field)` has \(count) characters; the limit is \(maxTextChars) (`max_text_chars`): "
                    + "send the text as several posts with `queue: true`, or raise `max_text_chars` in the daemon's configuration"
            )
        }
    }
}
