// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// The settings an SSIP connection gives its messages, in SSIP's own terms (rates and the like
/// are -100...100; ``SSIPVoiceMapping`` turns them into announced's).
public struct SSIPSettings: Sendable, Hashable {
    /// `CLIENT_NAME`, as given (`user:application:component`).
    public var clientName = "unknown:unknown:unknown"
    /// `PRIORITY`; `message` until the connection sets one, as speech-dispatcher 0.11.4 does with
    /// Debian's configuration (shared/ssip.md §4): two messages sent one after the other are both
    /// spoken.
    public var priority: SSIPPriority = .message
    /// `RATE`.
    public var rate = 0
    /// `PITCH`.
    public var pitch = 0
    /// `PITCH_RANGE` (accepted and reported; espeak-ng has no such setting per utterance).
    public var pitchRange = 0
    /// `VOLUME`.
    public var volume = 0
    /// `LANGUAGE`; nil means the daemon's default voice.
    public var language: String?
    /// `VOICE_TYPE`.
    public var voiceType: SSIPVoiceType = .male1
    /// `SYNTHESIS_VOICE`; nil means by language.
    public var synthesisVoice: String?
    /// `OUTPUT_MODULE` as last set: `espeak-ng`, `piper`, or a name announced does not have
    /// (kept as given, for `GET OUTPUT_MODULE`); nil until the connection sets one. With none, or
    /// one announced does not have, its messages speak with the daemon's choice of voice (its
    /// default voice, and its `voice_for_language`).
    public var outputModule: String?
    /// `PUNCTUATION`; nil until the connection sets it: its messages speak with the punctuation
    /// of its `clients` entry, else the daemon's default (speech-dispatcher's
    /// `DefaultPunctuationMode`).
    public var punctuation: SSIPPunctuation?
    /// `CAP_LET_RECOGN`.
    public var capitalLetters: SSIPCapitalLetters = .none
    /// `SPELLING`.
    public var spelling = false
    /// `SSML_MODE`.
    public var ssmlMode = false
    /// `PAUSE_CONTEXT`.
    public var pauseContext = 0

    /// The defaults of a new connection.
    public init() {}

    /// Applies a setting that concerns these settings (not CLIENT_NAME's quoting, NOTIFICATION or
    /// DEBUG, which are the session's).
    public mutating func apply(_ setting: SSIPSetting) {
        switch setting {
        case .clientName(let name): clientName = name
        case .priority(let value): priority = value
        case .rate(let value): rate = value
        case .pitch(let value): pitch = value
        case .pitchRange(let value): pitchRange = value
        case .volume(let value): volume = value
        case .language(let value): language = value
        case .voiceType(let value): voiceType = value
        case .synthesisVoice(let value): synthesisVoice = value
        case .outputModule(let value): outputModule = value
        case .punctuation(let value): punctuation = value
        case .capitalLetters(let value): capitalLetters = value
        case .spelling(let value): spelling = value
        case .ssmlMode(let value): ssmlMode = value
        case .pauseContext(let value): pauseContext = value
        case .notification, .debug, .debugDestination: break
        }
    }

    /// The reply `SET` answers when the setting was applied.
    public static func successReply(for setting: SSIPSetting) -> SSIPReply {
        switch setting {
        case .clientName: return .clientNameSet
        case .notification: return .notificationSet
        case .priority: return .prioritySet
        case .rate: return .rateSet
        case .pitch: return .pitchSet
        case .pitchRange: return .pitchRangeSet
        case .volume: return .volumeSet
        case .language: return .languageSet
        case .voiceType, .synthesisVoice: return .voiceSet
        case .outputModule: return .outputModuleSet
        case .punctuation: return .punctuationSet
        case .capitalLetters: return .capitalLettersSet
        case .spelling: return .spellingSet
        case .ssmlMode: return .ssmlModeSet
        case .pauseContext: return .pauseContextSet
        case .debug, .debugDestination: return .debugSet(destination: "stderr")
        }
    }

    /// `GET`'s value for an item; `OUTPUT_MODULE` is `defaultOutputModule` until one is set.
    public func value(of item: SSIPGetItem, defaultOutputModule: String = "") -> String {
        switch item {
        case .rate: return String(rate)
        case .pitch: return String(pitch)
        case .volume: return String(volume)
        case .language: return language ?? "en"
        case .outputModule: return outputModule ?? defaultOutputModule
        case .voiceType: return voiceType.rawValue
        case .punctuation: return (punctuation ?? .none).rawValue
        }
    }

    /// announced's speech options for a message with these settings, around the daemon's defaults;
    /// `RATE 100` is `maxRate` (`ssip_max_rate`).
    public func speechOptions(defaultRate: Int, maxRate: Int, defaultPitch: Int, defaultVolume: Int) -> SpeechOptions {
        var options = SpeechOptions()
        options.rate = SSIPVoiceMapping.rate(rate, defaultRate: defaultRate, maxRate: maxRate)
        options.pitch = SSIPVoiceMapping.pitch(pitch, defaultPitch: defaultPitch)
        options.volume = SSIPVoiceMapping.volume(volume, defaultVolume: defaultVolume)
        options.punctuation = punctuation.map(SSIPVoiceMapping.punctuation)
        options.voice = synthesisVoice
        options.lang = language
        options.spell = spelling
        options.ssml = ssmlMode
        return options
    }
}

/// What kind of message a connection queues.
public enum SSIPMessageKind: Sendable, Hashable {
    /// `SPEAK`: text (SSML in SSML mode).
    case text
    /// `CHAR`: one character (`space` for a blank).
    case char
    /// `KEY`: a key name such as `shift_a`.
    case key
    /// `SOUND_ICON`: an icon's name.
    case soundIcon
}

/// A message to queue, with the settings in force when it was sent.
public struct SSIPMessage: Sendable, Hashable {
    /// What kind of message.
    public var kind: SSIPMessageKind
    /// Its text, character, key name or icon name.
    public var text: String
    /// The connection's settings when it was sent.
    public var settings: SSIPSettings
    /// True when sent between BLOCK BEGIN and BLOCK END.
    public var inBlock: Bool

    /// Creates a message.
    public init(kind: SSIPMessageKind, text: String, settings: SSIPSettings, inBlock: Bool) {
        self.kind = kind
        self.text = text
        self.settings = settings
        self.inBlock = inBlock
    }
}

/// What the server must do with one line a connection sent.
public enum SSIPStep: Sendable, Hashable {
    /// Write this reply.
    case reply(SSIPReply)
    /// A data line was taken; write nothing.
    case none
    /// Queue this message, then write `225-<id>` (``SSIPReply/messageQueued(_:)``) before any of
    /// its events.
    case queue(SSIPMessage)
    /// STOP, CANCEL, PAUSE or RESUME for a scope; write `success` once done (or 406 for an
    /// unknown client id).
    case control(SSIPControl, SSIPScope, success: SSIPReply)
    /// SET for `all` or another connection's id: apply it there; write `success` (or the 3xx of
    /// that setting if the id is unknown).
    case setOthers(SSIPScope, SSIPSetting, success: SSIPReply)
    /// `LIST SYNTHESIS_VOICES`: write the voices of the connection's output module
    /// (``SSIPReply/synthesisVoices(_:)``).
    case listSynthesisVoices
    /// `LIST OUTPUT_MODULES`: write the engines installed (``SSIPReply/moduleList(_:)``).
    case listOutputModules
    /// `SET <scope> OUTPUT_MODULE name`: when an engine of that name is installed, apply it to the
    /// scope and write ``SSIPReply/outputModuleSet``; otherwise write
    /// ``SSIPReply/couldNotSet(_:)`` (312).
    case setOutputModule(SSIPScope, String)
    /// `QUIT`: write ``SSIPReply/bye`` and close the connection (queued messages are kept).
    case quit
}

/// STOP, CANCEL, PAUSE, RESUME.
public enum SSIPControl: String, Sendable, Hashable, CaseIterable {
    /// The current message of the scope; queued ones continue.
    case stop
    /// The current and queued messages of the scope.
    case cancel
    /// Hold output, keep the place and the queue.
    case pause
    /// Continue after PAUSE.
    case resume
}

/// One SSIP connection's state: command or data mode, block, settings and enabled events. It
/// turns each line into an ``SSIPStep``; it knows nothing of sockets or the dispatcher.
public struct SSIPSession: Sendable {
    /// The number `HISTORY GET CLIENT_ID` answers, unique among the daemon's connections.
    public let clientID: Int
    /// The connection's settings.
    public private(set) var settings = SSIPSettings()
    /// The events it enabled.
    public private(set) var notifications = SSIPNotifications()
    /// True between BLOCK BEGIN and BLOCK END.
    public private(set) var insideBlock = false
    /// The message being received in data mode, if any.
    private var reader: SSIPMessageReader?
    private let maxCharacters: Int
    /// The output module `GET OUTPUT_MODULE` answers before the connection sets one: the daemon's
    /// language-fallback engine (espeak-ng), which the front-end names; empty when it names none.
    private let defaultOutputModule: String

    /// Creates the state of a new connection, whose output module is `defaultOutputModule` until
    /// it sets one (``SSIPSettings/defaultOutputModule``).
    public init(clientID: Int, maxCharacters: Int, defaultOutputModule: String = "") {
        self.clientID = clientID
        self.maxCharacters = maxCharacters
        self.defaultOutputModule = defaultOutputModule
    }

    /// True while the connection sends a message's data.
    public var isReceivingData: Bool { reader != nil }

    /// The bytes of the message being received that are kept (0 outside data mode).
    public var heldDataBytes: Int { reader?.heldBytes ?? 0 }

    /// Takes one line (without its LF) and says what to do.
    public mutating func take(_ line: some Collection<UInt8>) -> SSIPStep {
        if let step = line.withContiguousStorageIfAvailable({ take(bytes: UnsafeRawBufferPointer($0)) }) { return step }
        return Array(line).withUnsafeBytes { take(bytes: $0) }
    }

    /// ``take(_:)`` for a line where it lies (the server's read buffer), not copied.
    public mutating func take(bytes line: UnsafeRawBufferPointer) -> SSIPStep {
        if var message = reader {
            let outcome = message.take(line)
            reader = message
            switch outcome {
            case .needMore:
                return .none
            case .message(let text):
                reader = nil
                return .queue(SSIPMessage(kind: .text, text: text, settings: settings, inBlock: insideBlock))
            case .refused(let reply):
                reader = nil
                return .reply(reply)
            }
        }
        switch SSIPCommand.parse(bytes: line, insideBlock: insideBlock) {
        case .failure(let reply):
            return .reply(reply)
        case .success(let command):
            return step(for: command)
        }
    }

    mutating func step(for command: SSIPCommand) -> SSIPStep {
        switch command {
        case .speak:
            reader = SSIPMessageReader(maxCharacters: maxCharacters)
            return .reply(.receivingData)
        case .char(let value):
            return queue(.char, value)
        case .key(let value):
            return queue(.key, value)
        case .soundIcon(let value):
            return queue(.soundIcon, value)
        case .stop(let scope): return .control(.stop, scope, success: .stopped)
        case .cancel(let scope): return .control(.cancel, scope, success: .canceled)
        case .pause(let scope): return .control(.pause, scope, success: .paused)
        case .resume(let scope): return .control(.resume, scope, success: .resumed)
        case .set(let scope, let setting):
            let success = SSIPSettings.successReply(for: setting)
            switch setting {
            case .notification(let type, let on):
                notifications.set(type, on)
                return .reply(success)
            case .debug, .debugDestination:
                // Accepted and ignored: announced logs to its own stderr (the journal).
                return .reply(success)
            case .outputModule(let name):
                // Only the front-end knows which engines have voices: it checks the name, then
                // applies it (to this connection too, for `self`).
                return .setOutputModule(scope, name)
            default:
                guard scope == .self else { return .setOthers(scope, setting, success: success) }
                settings.apply(setting)
                return .reply(success)
            }
        case .get(let item):
            return .reply(.got(settings.value(of: item, defaultOutputModule: defaultOutputModule)))
        case .list(.voices):
            return .reply(.voiceList(SSIPVoiceType.allCases.map(\.rawValue)))
        case .list(.outputModules):
            return .listOutputModules
        case .list(.synthesisVoices):
            return .listSynthesisVoices
        case .historyClientID:
            return .reply(.clientID(clientID))
        case .blockBegin:
            if insideBlock { return .reply(.alreadyInsideBlock) }
            insideBlock = true
            return .reply(.insideBlock)
        case .blockEnd:
            if !insideBlock { return .reply(.alreadyOutsideBlock) }
            insideBlock = false
            return .reply(.outsideBlock)
        case .help:
            return .reply(.help)
        case .quit:
            return .quit
        }
    }

    /// A CHAR, KEY or SOUND_ICON message, bounded like SPEAK's text.
    func queue(_ kind: SSIPMessageKind, _ text: String) -> SSIPStep {
        let characters = text.unicodeScalars.count
        if characters > maxCharacters { return .reply(.messageTooLong(characters: characters, limit: maxCharacters)) }
        return .queue(SSIPMessage(kind: kind, text: text, settings: settings, inBlock: insideBlock))
    }

    /// Applies a setting another connection made with `SET all` or `SET <this id>`.
    public mutating func apply(fromOthers setting: SSIPSetting) {
        settings.apply(setting)
    }
}

/// One engine voice as `LIST SYNTHESIS_VOICES` reports it.
public struct SSIPVoice: Sendable, Hashable {
    /// The voice's name (what `SET … SYNTHESIS_VOICE` takes).
    public var name: String
    /// Its language, BCP 47 style (`en-GB`).
    public var language: String
    /// Its variant, or `none`.
    public var variant: String

    /// Creates a voice entry.
    public init(name: String, language: String, variant: String = "none") {
        self.name = name
        self.language = language
        self.variant = variant
    }
}

extension SSIPReply {
    /// `249-name\tlanguage\tvariant` lines + 249 OK VOICE LIST SENT. Tabs inside a field become
    /// spaces, so clients that split on tabs always get three fields.
    public static func synthesisVoices(_ voices: [SSIPVoice]) -> SSIPReply {
        func field(_ text: String) -> String { String(text.map { $0 == "\t" ? " " : $0 }) }
        return voiceList(voices.map { "\(field($0.name))\t\(field($0.language))\t\(field($0.variant))" })
    }
}
