// SPDX-License-Identifier: GPL-3.0-or-later
/// Collects the text of one `SPEAK` message in data mode: the lines after `230 OK RECEIVING DATA`
/// up to a line holding only `.` and ended by CR LF.
///
/// Clients double a dot at the start of a text line (`..x` stands for `.x`); that is undone here.
/// Lines may end with CR LF or a bare LF (upstream's run_test sends bare LF inside data); the
/// framer hands each line without its LF, and a trailing CR is dropped here. A lone dot ended by
/// a bare LF is text, not the end: libspeechd doubles only a dot between CR LFs (`\r\n.\r\n`),
/// and speech-dispatcher ends data only at `.` CR LF, so `spd-say "a\n.\nb"` is one message. The text is bounded
/// by `maxCharacters` Unicode scalars: past it, further lines are counted but not kept, so a client
/// cannot grow the daemon's memory, and the message is refused with a reply that says so.
public struct SSIPMessageReader: Sendable {
    /// What one data line did.
    public enum Outcome: Sendable, Hashable {
        /// More data is expected.
        case needMore
        /// The end marker: the message's text (lines joined with `\n`).
        case message(String)
        /// The end marker of a message that cannot be queued: the reply to send instead of 225.
        case refused(SSIPReply)
    }

    /// The most Unicode scalars a message may have.
    public let maxCharacters: Int
    private var text: [UInt8] = []
    private var characters = 0
    private var lines = 0
    private var invalidEncoding = false

    /// Creates a reader for one message.
    public init(maxCharacters: Int) {
        self.maxCharacters = maxCharacters
    }

    /// The bytes of text kept so far: never more than the UTF-8 of ``maxCharacters`` scalars.
    public var heldBytes: Int { text.count }

    /// Takes the next data line (without its LF).
    public mutating func take(_ line: some Collection<UInt8>) -> Outcome {
        var bytes = Array(line)
        let endsWithCR = bytes.last == 13
        if endsWithCR { bytes.removeLast() }
        if endsWithCR, bytes == [UInt8(ascii: ".")] { return finish() }
        if bytes.starts(with: [UInt8(ascii: "."), UInt8(ascii: ".")]) { bytes.removeFirst() }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            invalidEncoding = true
            return .needMore
        }
        let added = string.unicodeScalars.count + (lines > 0 ? 1 : 0)
        characters += added
        if characters <= maxCharacters {
            if lines > 0 { text.append(UInt8(ascii: "\n")) }
            text += bytes
        }
        lines += 1
        return .needMore
    }

    private func finish() -> Outcome {
        if invalidEncoding { return .refused(.invalidEncoding) }
        if characters > maxCharacters { return .refused(.messageTooLong(characters: characters, limit: maxCharacters)) }
        let message = String(decoding: text, as: UTF8.self)
        if message.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { return .refused(.messageCanceled) }
        return .message(message)
    }
}
