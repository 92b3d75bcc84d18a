// SPDX-License-Identifier: GPL-3.0-or-later
extension SSIPCommand {
    /// Parses one command line (without its line end; a trailing CR is tolerated), or gives the
    /// reply that refuses it, with speech-dispatcher 0.11's codes (shared/ssip.md §3): 500 for an
    /// unknown command or SET item, 510 for a missing argument, 511 for a number that is not one,
    /// 513 for on/off, 514 for another bad value, 408 for an unknown priority, 409-416 for a value
    /// out of range, 332 for a command not allowed inside a block, 501 for invalid UTF-8.
    /// Keywords are case-insensitive; values (names, text) keep their case.
    public static func parse(_ line: some Collection<UInt8>, insideBlock: Bool = false) -> Result<
        SSIPCommand, SSIPReply
    > {
        if let parsed = line.withContiguousStorageIfAvailable({
            parse(bytes: UnsafeRawBufferPointer($0), insideBlock: insideBlock)
        }) {
            return parsed
        }
        return Array(line).withUnsafeBytes { parse(bytes: $0, insideBlock: insideBlock) }
    }

    /// ``parse(_:insideBlock:)`` for bytes where they lie (the server's read buffer): the line is
    /// not copied, and a command of ASCII words allocates nothing but the strings it keeps.
    public static func parse(bytes line: UnsafeRawBufferPointer, insideBlock: Bool = false) -> Result<
        SSIPCommand, SSIPReply
    > {
        let bytes = line.last == 13 ? UnsafeRawBufferPointer(rebasing: line.dropLast()) : line
        // ASCII is valid UTF-8 and is decoded by String's fast path; anything else is validated.
        let isASCII = bytes.allSatisfy { $0 < 0x80 }
        let text: String
        if isASCII {
            text = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let valid = String(validating: bytes, as: UTF8.self) else { return .failure(.invalidEncoding) }
            text = valid
        }
        do throws(SSIPParseError) {
            return .success(try parse(words: SSIPWords(text, isASCII: isASCII), insideBlock: insideBlock))
        } catch {
            return .failure(error.reply)
        }
    }

    static func parse(words: SSIPWords, insideBlock: Bool) throws(SSIPParseError) -> SSIPCommand {
        guard let keyword = words.keyword(0) else { throw .reply(.invalidCommand) }
        func outsideBlock(_ command: SSIPCommand) throws(SSIPParseError) -> SSIPCommand {
            if insideBlock { throw .reply(.notAllowedInsideBlock) }
            return command
        }
        switch keyword {
        case "speak": return .speak
        case "char": return .char(try words.required(1))
        case "key": return .key(try words.required(1))
        case "sound_icon": return .soundIcon(try words.required(1))
        case "stop": return try outsideBlock(.stop(try words.actionScope()))
        case "cancel": return try outsideBlock(.cancel(try words.actionScope()))
        case "pause": return try outsideBlock(.pause(try words.actionScope()))
        case "resume": return try outsideBlock(.resume(try words.actionScope()))
        case "set": return try parseSet(words, insideBlock: insideBlock)
        case "get":
            guard let item = SSIPGetItem(rawValue: try words.requiredKeyword(1)) else {
                throw .reply(.parameterInvalid)
            }
            return try outsideBlock(.get(item))
        case "list":
            guard let item = SSIPListItem(rawValue: try words.requiredKeyword(1)) else {
                throw .reply(.parameterInvalid)
            }
            return try outsideBlock(.list(item))
        case "history":
            guard try words.requiredKeyword(1) == "get" else { throw .reply(.notImplemented) }
            guard try words.requiredKeyword(2) == "client_id" else { throw .reply(.notImplemented) }
            return try outsideBlock(.historyClientID)
        case "block":
            switch try words.requiredKeyword(1) {
            case "begin": return .blockBegin
            case "end": return .blockEnd
            default: throw .reply(.parameterInvalid)
            }
        case "help": return try outsideBlock(.help)
        case "quit", "bye": return .quit
        default: throw .reply(.invalidCommand)
        }
    }

    /// `SET scope item value`: each item is one line, its checks in ``SSIPSetRules`` and its
    /// value read by ``SSIPWords``.
    static func parseSet(_ words: SSIPWords, insideBlock: Bool) throws(SSIPParseError) -> SSIPCommand {
        let scope = try words.scope(1)
        let rules = SSIPSetRules(scope: scope, insideBlock: insideBlock)
        let setting: SSIPSetting
        switch try words.requiredKeyword(2) {
        case "client_name": setting = try rules.clientName(words)
        case "notification": setting = try rules.notification(words)
        case "priority": setting = try rules.priority(words)
        case "rate": setting = .rate(try words.number(3, tooLow: .rateTooLow, tooHigh: .rateTooHigh))
        case "pitch": setting = .pitch(try words.number(3, tooLow: .pitchTooLow, tooHigh: .pitchTooHigh))
        case "pitch_range":
            setting = .pitchRange(try words.number(3, tooLow: .pitchRangeTooLow, tooHigh: .pitchRangeTooHigh))
        case "volume": setting = .volume(try words.number(3, tooLow: .volumeTooLow, tooHigh: .volumeTooHigh))
        case "language": setting = .language(try words.required(3))
        case "voice_type": setting = .voiceType(try words.choice(3, uppercased: true))
        case "synthesis_voice": setting = .synthesisVoice(try words.rest(from: 3))
        case "output_module": setting = try rules.outputModule(words)
        case "punctuation": setting = .punctuation(try words.choice(3))
        case "cap_let_recogn": setting = .capitalLetters(try words.choice(3))
        case "spelling": setting = try rules.spelling(words)
        case "ssml_mode": setting = .ssmlMode(try words.onOff(3))
        case "pause_context":
            setting = .pauseContext(
                try words.number(3, in: Int.min...Int.max, tooLow: .notANumber, tooHigh: .notANumber))
        case "debug": setting = .debug(try words.onOff(3))
        case "debug_destination": setting = .debugDestination(try words.rest(from: 3))
        default: throw .reply(.invalidCommand)
        }
        return .set(scope, setting)
    }
}

/// What SET allows where: some items only for the connection itself (`self`), some not inside a
/// `BLOCK` (332), as speech-dispatcher decides.
struct SSIPSetRules {
    let scope: SSIPScope
    let insideBlock: Bool

    func outsideBlock() throws(SSIPParseError) {
        if insideBlock { throw .reply(.notAllowedInsideBlock) }
    }

    func selfOnly(_ refusal: SSIPReply = .parameterInvalid) throws(SSIPParseError) {
        if scope != .self { throw .reply(refusal) }
    }

    /// `CLIENT_NAME "user:app:component"`: the connection's own, outside a block.
    func clientName(_ words: SSIPWords) throws(SSIPParseError) -> SSIPSetting {
        try outsideBlock()
        try selfOnly()
        return .clientName(SSIPWords.unquoted(try words.rest(from: 3)))
    }

    /// `NOTIFICATION type|all on|off`: the connection's own.
    func notification(_ words: SSIPWords) throws(SSIPParseError) -> SSIPSetting {
        try selfOnly()
        let type = try words.requiredKeyword(3)
        let notification: SSIPNotification?
        if type == "all" {
            notification = nil
        } else if let known = SSIPNotification(rawValue: type) {
            notification = known
        } else {
            throw .reply(.parameterInvalid)
        }
        guard let on = SSIPWords.onOff(try words.requiredKeyword(4)) else { throw .reply(.parameterInvalid) }
        return .notification(notification, on)
    }

    /// `PRIORITY name`: the connection's own, outside a block.
    func priority(_ words: SSIPWords) throws(SSIPParseError) -> SSIPSetting {
        try outsideBlock()
        try selfOnly(.couldNotSetPriority)
        guard let priority = SSIPPriority(rawValue: try words.requiredKeyword(3)) else {
            throw .reply(.unknownPriority)
        }
        return .priority(priority)
    }

    /// `OUTPUT_MODULE name`, outside a block.
    func outputModule(_ words: SSIPWords) throws(SSIPParseError) -> SSIPSetting {
        try outsideBlock()
        return .outputModule(try words.required(3))
    }

    /// `SPELLING on|off`, outside a block.
    func spelling(_ words: SSIPWords) throws(SSIPParseError) -> SSIPSetting {
        try outsideBlock()
        return .spelling(try words.onOff(3))
    }
}

extension SSIPWords {
    /// Word `index` as one of `Choice`'s raw values (lowercased, or `uppercased`); 514 otherwise.
    func choice<Choice: RawRepresentable<String>>(_ index: Int, uppercased: Bool = false) throws(SSIPParseError)
        -> Choice
    {
        let word = uppercased ? try required(index).uppercased() : try requiredKeyword(index)
        guard let choice = Choice(rawValue: word) else { throw .reply(.parameterInvalid) }
        return choice
    }

    /// Word `index` as `on` or `off`; 513 otherwise.
    func onOff(_ index: Int) throws(SSIPParseError) -> Bool {
        guard let on = SSIPWords.onOff(try requiredKeyword(index)) else { throw .reply(.notOnOrOff) }
        return on
    }
}

/// SET's out-of-range replies, with speech-dispatcher's codes (shared/ssip.md §3).
extension SSIPReply {
    static let rateTooLow = SSIPReply(410, "ERR RATE TOO LOW")
    static let rateTooHigh = SSIPReply(409, "ERR RATE TOO HIGH")
    static let pitchTooLow = SSIPReply(412, "ERR PITCH TOO LOW")
    static let pitchTooHigh = SSIPReply(411, "ERR PITCH TOO HIGH")
    static let pitchRangeTooLow = SSIPReply(416, "ERR PITCH RANGE TOO LOW")
    static let pitchRangeTooHigh = SSIPReply(415, "ERR PITCH RANGE TOO HIGH")
    /// speech-dispatcher's own text for these two says "PITCH"; clients read only the code.
    static let volumeTooLow = SSIPReply(414, "ERR VOLUME TOO LOW")
    static let volumeTooHigh = SSIPReply(413, "ERR VOLUME TOO HIGH")
}

/// A refusal found while parsing: the reply to send.
enum SSIPParseError: Error {
    case reply(SSIPReply)

    var reply: SSIPReply {
        switch self {
        case .reply(let reply): return reply
        }
    }
}

/// A command line split at spaces (speech-dispatcher splits at single spaces; runs of spaces are
/// taken as one here, so a doubled space is not a missing argument).
///
/// A line of ASCII (every command a client sends, but for names and values in other scripts) is
/// split where it lies, word by word as the parser asks: a byte is a character there. Any other
/// line is split by characters, as `split(separator:)` does (a space followed by a combining mark
/// is one character, not a separator).
struct SSIPWords {
    let line: Substring
    /// The words of a line that is not all ASCII; nil for ASCII, whose words are found in place.
    private let characterWords: [Substring]?

    /// Splits `text`; `isASCII` says whether it is all ASCII (the caller has just looked).
    init(_ text: String, isASCII: Bool) {
        line = Substring(text)
        characterWords = isASCII ? nil : line.split(separator: " ")
    }

    /// Word `index`, or nil when the line has fewer words.
    func word(_ index: Int) -> Substring? {
        if let characterWords { return characterWords.indices.contains(index) ? characterWords[index] : nil }
        let utf8 = line.utf8
        var start = utf8.startIndex
        var found = 0
        while true {
            while start != utf8.endIndex, utf8[start] == UInt8(ascii: " ") { utf8.formIndex(after: &start) }
            guard start != utf8.endIndex else { return nil }
            var end = start
            while end != utf8.endIndex, utf8[end] != UInt8(ascii: " ") { utf8.formIndex(after: &end) }
            if found == index { return line[start..<end] }
            found += 1
            start = end
        }
    }

    /// Word `index` lowercased (ASCII), or nil.
    func keyword(_ index: Int) -> String? {
        word(index).map { $0.lowercasedASCII }
    }

    func requiredKeyword(_ index: Int) throws(SSIPParseError) -> String {
        guard let word = keyword(index) else { throw .reply(.missingParameter) }
        return word
    }

    func required(_ index: Int) throws(SSIPParseError) -> String {
        guard let word = word(index) else { throw .reply(.missingParameter) }
        return String(word)
    }

    /// Everything from word `index` to the end of the line, spaces inside kept.
    func rest(from index: Int) throws(SSIPParseError) -> String {
        guard let word = word(index) else { throw .reply(.missingParameter) }
        return String(line[word.startIndex...]).trimmingTrailingSpaces
    }

    /// `self`, `all` or a client id, for SET.
    func scope(_ index: Int) throws(SSIPParseError) -> SSIPScope {
        let word = try requiredKeyword(index)
        switch word {
        case "self": return .self
        case "all": return .all
        default:
            guard let id = SSIPWords.integer(word) else { throw .reply(.parameterInvalid) }
            return .client(id)
        }
    }

    /// The scope of STOP, CANCEL, PAUSE and RESUME: an id that cannot exist is 406.
    func actionScope() throws(SSIPParseError) -> SSIPScope {
        let scope = try scope(1)
        if case .client(let id) = scope, id <= 0 { throw .reply(.idDoesNotExist) }
        return scope
    }

    func number(_ index: Int, in range: ClosedRange<Int> = -100...100, tooLow: SSIPReply, tooHigh: SSIPReply)
        throws(SSIPParseError) -> Int
    {
        guard let value = SSIPWords.integer(try required(index)) else { throw .reply(.notANumber) }
        if value < range.lowerBound { throw .reply(tooLow) }
        if value > range.upperBound { throw .reply(tooHigh) }
        return value
    }

    /// An optional sign and decimal digits, as speech-dispatcher's `isanum`; nil otherwise (or on overflow).
    static func integer(_ word: some StringProtocol) -> Int? {
        var digits = Substring(word)
        var negative = false
        if let sign = digits.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        // An ASCII digit is a character of one byte: checking the bytes is checking the characters.
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (48...57).contains($0) }), let magnitude = Int(digits) else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }

    static func onOff(_ word: String) -> Bool? {
        switch word {
        case "on": return true
        case "off": return false
        default: return nil
        }
    }

    /// libspeechd sends `CLIENT_NAME "user:app:component"`: one pair of surrounding quotes is removed.
    static func unquoted(_ value: String) -> String {
        if value.count >= 2, value.first == "\"", value.last == "\"" { return String(value.dropFirst().dropLast()) }
        return value
    }
}

extension Substring {
    /// The word with ASCII letters lowercased (SSIP keywords are ASCII). A keyword of up to 15
    /// bytes stays in the string itself (Swift's small strings): no allocation.
    var lowercasedASCII: String {
        let utf8 = self.utf8
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var written = 0
            for byte in utf8 {
                buffer[written] = (65...90).contains(byte) ? byte + 32 : byte
                written += 1
            }
            return written
        }
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var result = Substring(self)
        while result.last == " " || result.last == "\t" { result = result.dropLast() }
        return String(result)
    }
}
