// SPDX-License-Identifier: GPL-3.0-or-later
/// One SSIP reply: zero or more `NNN-data` lines, then the final `NNN text` line, all with the
/// same three-digit code and CR LF line ends (speech-dispatcher's SSIP, see shared/ssip.md §2).
///
/// 2xx is success, 3xx a server-side failure, 4xx a client error (a value out of range), 5xx a
/// syntax error. libspeechd and python3-speechd raise or return -1 on anything but 2xx.
public struct SSIPReply: Sendable, Hashable, CustomStringConvertible {
    /// The three-digit code.
    public var code: Int
    /// The data lines (`NNN-line`), in order.
    public var data: [String]
    /// The text of the final line (`NNN text`).
    public var text: String

    /// Creates a reply.
    public init(_ code: Int, _ text: String, data: [String] = []) {
        self.code = code
        self.text = text
        self.data = data
    }

    /// True for 2xx replies.
    public var isSuccess: Bool { (200..<300).contains(code) }

    /// The reply's bytes: every line ends with CR LF; a data line's CR or LF is replaced by a space
    /// so that a value can never break the framing.
    public var bytes: [UInt8] {
        // One allocation: the code is a small string, and the array is sized before it is filled.
        let prefix = String(code).utf8
        var out: [UInt8] = []
        out.reserveCapacity(
            data.reduce(0) { $0 + prefix.count + $1.utf8.count + 3 } + prefix.count + text.utf8.count + 3)
        for line in data {
            out += prefix
            out.append(UInt8(ascii: "-"))
            for byte in line.utf8 { out.append(byte == 13 || byte == 10 ? UInt8(ascii: " ") : byte) }
            out.append(13)
            out.append(10)
        }
        out += prefix
        out.append(UInt8(ascii: " "))
        out += text.utf8
        out.append(13)
        out.append(10)
        return out
    }

    /// The reply as text, lines ending with CR LF.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

extension SSIPReply {
    // Success replies, in speech-dispatcher's words (clients read the code; people read the text).
    /// 201 OK LANGUAGE SET
    public static let languageSet = SSIPReply(201, "OK LANGUAGE SET")
    /// 202 OK PRIORITY SET
    public static let prioritySet = SSIPReply(202, "OK PRIORITY SET")
    /// 203 OK RATE SET
    public static let rateSet = SSIPReply(203, "OK RATE SET")
    /// 204 OK PITCH SET
    public static let pitchSet = SSIPReply(204, "OK PITCH SET")
    /// 205 OK PUNCTUATION SET
    public static let punctuationSet = SSIPReply(205, "OK PUNCTUATION SET")
    /// 206 OK CAP LET RECOGNITION SET
    public static let capitalLettersSet = SSIPReply(206, "OK CAP LET RECOGNITION SET")
    /// 207 OK SPELLING SET
    public static let spellingSet = SSIPReply(207, "OK SPELLING SET")
    /// 208 OK CLIENT NAME SET
    public static let clientNameSet = SSIPReply(208, "OK CLIENT NAME SET")
    /// 209 OK VOICE SET
    public static let voiceSet = SSIPReply(209, "OK VOICE SET")
    /// 210 OK STOPPED
    public static let stopped = SSIPReply(210, "OK STOPPED")
    /// 211 OK PAUSED
    public static let paused = SSIPReply(211, "OK PAUSED")
    /// 212 OK RESUMED
    public static let resumed = SSIPReply(212, "OK RESUMED")
    /// 213 OK CANCELED
    public static let canceled = SSIPReply(213, "OK CANCELED")
    /// 216 OK OUTPUT MODULE SET
    public static let outputModuleSet = SSIPReply(216, "OK OUTPUT MODULE SET")
    /// 217 OK PAUSE CONTEXT SET
    public static let pauseContextSet = SSIPReply(217, "OK PAUSE CONTEXT SET")
    /// 218 OK VOLUME SET
    public static let volumeSet = SSIPReply(218, "OK VOLUME SET")
    /// 219 OK SSML MODE SET
    public static let ssmlModeSet = SSIPReply(219, "OK SSML MODE SET")
    /// 220 OK NOTIFICATION SET
    public static let notificationSet = SSIPReply(220, "OK NOTIFICATION SET")
    /// 227 OK MESSAGE CANCELED (an empty message: nothing was queued)
    public static let messageCanceled = SSIPReply(227, "OK MESSAGE CANCELED")
    /// 230 OK RECEIVING DATA
    public static let receivingData = SSIPReply(230, "OK RECEIVING DATA")
    /// 231 HAPPY HACKING (then the server closes the connection)
    public static let bye = SSIPReply(231, "HAPPY HACKING")
    /// 260 OK INSIDE BLOCK
    public static let insideBlock = SSIPReply(260, "OK INSIDE BLOCK")
    /// 261 OK OUTSIDE BLOCK
    public static let outsideBlock = SSIPReply(261, "OK OUTSIDE BLOCK")
    /// 263 OK PITCH RANGE SET
    public static let pitchRangeSet = SSIPReply(263, "OK PITCH RANGE SET")

    /// `225-<id>` + 225 OK MESSAGE QUEUED: the reply to SPEAK's data, CHAR, KEY and SOUND_ICON.
    public static func messageQueued(_ messageID: Int) -> SSIPReply {
        SSIPReply(225, "OK MESSAGE QUEUED", data: [String(messageID)])
    }

    /// `245-<id>` + 245 OK CLIENT ID SENT.
    public static func clientID(_ clientID: Int) -> SSIPReply {
        SSIPReply(245, "OK CLIENT ID SENT", data: [String(clientID)])
    }

    /// `251-<value>` + 251 OK GET RETURNED.
    public static func got(_ value: String) -> SSIPReply {
        SSIPReply(251, "OK GET RETURNED", data: [value])
    }

    /// `262-<destination>` + 262 OK DEBUGGING SET.
    public static func debugSet(destination: String) -> SSIPReply {
        SSIPReply(262, "OK DEBUGGING SET", data: [destination])
    }

    /// `249-<name>` lines + 249 OK VOICE LIST SENT: `LIST VOICES` and `LIST SYNTHESIS_VOICES`.
    public static func voiceList(_ lines: [String]) -> SSIPReply {
        SSIPReply(249, "OK VOICE LIST SENT", data: lines)
    }

    /// `250-<module>` lines + 250 OK MODULE LIST SENT.
    public static func moduleList(_ modules: [String]) -> SSIPReply {
        SSIPReply(250, "OK MODULE LIST SENT", data: modules)
    }

    /// `248-` lines + 248 OK HELP SENT.
    public static let help = SSIPReply(
        248, "OK HELP SENT",
        data: [
            "  SPEAK           -- say text",
            "  KEY             -- say a combination of keys",
            "  CHAR            -- say a character",
            "  SOUND_ICON      -- play a sound icon",
            "  SET             -- set a parameter",
            "  GET             -- get a current parameter",
            "  LIST            -- list available arguments",
            "  HISTORY         -- HISTORY GET CLIENT_ID only",
            "  STOP, CANCEL, PAUSE, RESUME -- self, all or a client id",
            "  BLOCK           -- BEGIN or END a block of messages",
            "  QUIT            -- close the connection",
        ])

    // Failures.
    /// 300 ERR INTERNAL
    public static let internalError = SSIPReply(300, "ERR INTERNAL")
    /// 301 ERR COULDNT SET PRIORITY (PRIORITY is only for SELF)
    public static let couldNotSetPriority = SSIPReply(301, "ERR COULDNT SET PRIORITY")
    /// 380 ERR NOT YET IMPLEMENTED
    public static let notImplemented = SSIPReply(380, "ERR NOT YET IMPLEMENTED")
    /// 330 ERR ALREADY INSIDE BLOCK
    public static let alreadyInsideBlock = SSIPReply(330, "ERR ALREADY INSIDE BLOCK")
    /// 331 ERR ALREADY OUTSIDE BLOCK
    public static let alreadyOutsideBlock = SSIPReply(331, "ERR ALREADY OUTSIDE BLOCK")
    /// 332 ERR NOT ALLOWED INSIDE BLOCK
    public static let notAllowedInsideBlock = SSIPReply(332, "ERR NOT ALLOWED INSIDE BLOCK")
    /// 406 ERR ID DOESNT EXIST
    public static let idDoesNotExist = SSIPReply(406, "ERR ID DOESNT EXIST")
    /// 408 ERR UNKNOWN PRIORITY
    public static let unknownPriority = SSIPReply(408, "ERR UNKNOWN PRIORITY")
    /// 500 ERR INVALID COMMAND
    public static let invalidCommand = SSIPReply(500, "ERR INVALID COMMAND")
    /// 501 ERR INVALID ENCODING
    public static let invalidEncoding = SSIPReply(501, "ERR INVALID ENCODING")
    /// 510 ERR MISSING PARAMETER
    public static let missingParameter = SSIPReply(510, "ERR MISSING PARAMETER")
    /// 511 ERR PARAMETER NOT A NUMBER
    public static let notANumber = SSIPReply(511, "ERR PARAMETER NOT A NUMBER")
    /// 513 ERR PARAMETER NOT ON OR OFF
    public static let notOnOrOff = SSIPReply(513, "ERR PARAMETER NOT ON OR OFF")
    /// 514 ERR PARAMETER INVALID
    public static let parameterInvalid = SSIPReply(514, "ERR PARAMETER INVALID")

    /// 420: a SPEAK message longer than the daemon's `max_text_chars`. SSIP has no code for this;
    /// 420 is an unused client-error code, and the text says what to do.
    public static func messageTooLong(characters: Int, limit: Int) -> SSIPReply {
        SSIPReply(
            420, "ERR MESSAGE TOO LONG: \(characters) CHARACTERS, THE LIMIT IS \(limit); SPLIT IT INTO SEVERAL MESSAGES"
        )
    }
}

extension SSIPReply {
    /// `SET <id> …` for a client id no connection has: speech-dispatcher's 3xx for that setting
    /// (`303 ERR COULDNT SET RATE`).
    public static func couldNotSet(_ setting: SSIPSetting) -> SSIPReply {
        switch setting {
        case .language: return SSIPReply(302, "ERR COULDNT SET LANGUAGE")
        case .rate: return SSIPReply(303, "ERR COULDNT SET RATE")
        case .pitch: return SSIPReply(304, "ERR COULDNT SET PITCH")
        case .punctuation: return SSIPReply(305, "ERR COULDNT SET PUNCT MODE")
        case .capitalLetters: return SSIPReply(306, "ERR COULDNT SET CAP LET RECOG")
        case .spelling: return SSIPReply(308, "ERR COULDNT SET SPELLING")
        case .voiceType, .synthesisVoice: return SSIPReply(309, "ERR COULDNT SET VOICE")
        case .clientName: return SSIPReply(311, "ERR COULDNT SET CLIENT_NAME")
        case .outputModule: return SSIPReply(312, "ERR COULDNT SET OUTPUT MODULE")
        case .pauseContext: return SSIPReply(313, "ERR COULDNT SET PAUSE CONTEXT")
        case .volume: return SSIPReply(314, "ERR COULDNT SET VOLUME")
        case .ssmlMode: return SSIPReply(315, "ERR COULDNT SET SSML MODE")
        case .notification: return SSIPReply(316, "ERR COULDNT SET NOTIFICATION")
        case .debug, .debugDestination: return SSIPReply(317, "ERR COULDNT SET DEBUGGING")
        case .pitchRange: return SSIPReply(340, "ERR COULDNT SET PITCH RANGE")
        case .priority: return .couldNotSetPriority
        }
    }
}

/// A refusal is an error whose reply is sent to the client.
extension SSIPReply: Error {}
