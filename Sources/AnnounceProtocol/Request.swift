// SPDX-License-Identifier: Apache-2.0
/// The four kinds of speech post.
public enum PostKind: String, Sendable, Hashable, CaseIterable {
    /// `announce`: speak a text.
    case announce
    /// `focus`: move the focus cursor to an element and speak it, or speak a string.
    case focus
    /// `screen-changed`: a new screen; discards pending speech.
    case screenChanged = "screen-changed"
    /// `layout-changed`: part of the screen changed.
    case layoutChanged = "layout-changed"
}

/// A post's `priority`.
public enum Priority: String, Sendable, Hashable, CaseIterable {
    /// Never interrupted once started.
    case high
    /// Interrupts unless `queue` is true.
    case `default`
    /// Always waits its turn.
    case low
}

/// What a `focus`, `screen-changed` or `layout-changed` post is about.
public enum PostSubject: Sendable, Hashable {
    /// `null` (or absent): nothing of its own.
    case none
    /// A string: spoken as it is.
    case text(String)
    /// An element: focused and spoken.
    case element(Element)
}

/// The options every speech post may carry. Nil means "the daemon's default".
public struct SpeechOptions: Sendable, Hashable {
    /// The thread the client posted from; anything but `main` is dropped.
    public var thread: String = "main"
    /// The priority.
    public var priority: Priority = .default
    /// Wait behind what is speaking instead of interrupting.
    public var queue: Bool = false
    /// An espeak-ng voice name.
    public var voice: String?
    /// The BCP 47 language of the text.
    public var lang: String?
    /// Words per minute, within ``SpeechRanges/rate``.
    public var rate: Int?
    /// Pitch, 0...100.
    public var pitch: Int?
    /// Volume, 0...200.
    public var volume: Int?
    /// How punctuation is spoken.
    public var punctuation: Punctuation?
    /// Speak the text character by character.
    public var spell: Bool = false
    /// The text is SSML.
    public var ssml: Bool = false
    /// Send a `word` event as each word starts.
    public var words: Bool = false

    /// Options with every field at its default.
    public init() {}

    /// True when the post was made on the main thread.
    public var isMainThread: Bool { thread == "main" }
}

/// The `punctuation` option.
public enum Punctuation: String, Sendable, Hashable, CaseIterable {
    /// Not spoken.
    case none
    /// Some punctuation spoken.
    case some
    /// All punctuation spoken.
    case all
}

/// A speech post: `announce`, `focus`, `screen-changed` or `layout-changed`.
public struct SpeechPost: Sendable, Hashable {
    /// Which post.
    public var kind: PostKind
    /// For `announce`, the text; for the others, the element, string or nothing.
    public var subject: PostSubject
    /// For `screen-changed` and `layout-changed`: the screen's elements in reading order.
    public var elements: [Element]?
    /// For `screen-changed` and `layout-changed` with `elements`: the screen's custom rotors.
    public var rotors: [CustomRotor]?
    /// The common options.
    public var options: SpeechOptions

    /// Creates a speech post.
    public init(
        kind: PostKind, subject: PostSubject, elements: [Element]? = nil, rotors: [CustomRotor]? = nil,
        options: SpeechOptions = SpeechOptions()
    ) {
        self.kind = kind
        self.subject = subject
        self.elements = elements
        self.rotors = rotors
        self.options = options
    }

    /// An `announce` post.
    public static func announce(_ text: String, options: SpeechOptions = SpeechOptions()) -> SpeechPost {
        SpeechPost(kind: .announce, subject: .text(text), options: options)
    }
}

/// The subscription topics of `subscribe`.
public enum Topic: String, Sendable, Hashable, CaseIterable {
    /// `status-changed` events.
    case status
    /// `focus-changed` events.
    case focus
    /// `speech` events for every post of every client.
    case speech
    /// `history` events: each announcement the history keeps, as it is added (an addition to
    /// protocol 1).
    case history
}

/// The fields `set` may change.
public struct SettingsChange: Sendable, Hashable {
    /// Mute (true) or unmute (false) speech.
    public var muted: Bool?
    /// The default voice.
    public var voice: String?
    /// The default rate.
    public var rate: Int?
    /// The default pitch.
    public var pitch: Int?
    /// The default volume.
    public var volume: Int?
    /// The default punctuation mode (an addition to protocol 1).
    public var punctuation: Punctuation?

    /// A change of nothing.
    public init(
        muted: Bool? = nil, voice: String? = nil, rate: Int? = nil, pitch: Int? = nil, volume: Int? = nil,
        punctuation: Punctuation? = nil
    ) {
        self.muted = muted
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
    }
}

/// A request from a client.
public enum Request: Sendable, Hashable {
    /// A speech post.
    case speech(SpeechPost)
    /// `hello`: names the client; `lint` asks for `lint` lines about the elements it posts.
    case hello(client: String?, lint: Bool = false)
    /// `status`.
    case status
    /// `stop`: cancel everything.
    case stop
    /// `pause` (an addition to protocol 1): hold speech output where it is; nothing starts
    /// until `resume`, or until this connection closes unless `untilResume` (`"until":"resume"`).
    case pause(untilResume: Bool)
    /// `resume` (an addition to protocol 1): continue the paused speech from the same sample.
    case resume
    /// `cancel`: cancel one of this connection's posts.
    case cancel(target: RequestID)
    /// `set`: change defaults or mute.
    case set(SettingsChange)
    /// `subscribe` to events.
    case subscribe([Topic])
    /// `navigate`: move through the current screen, or act on its focused element.
    case navigate(NavigateRequest)
    /// `update`: change fields of one element on the owner's screen.
    case update(ElementUpdate)

    // Additions to protocol 1: the requests spd-say users expect.

    /// `cancel` with `"scope":"client"`: cancel the posts of every connection that has this
    /// connection's client name (its own earlier `announcectl` runs): the one with id `target`,
    /// or all of them without one.
    case cancelOwn(target: RequestID?)
    /// `voices`: the voices the daemon can speak with, those for `language` when it is given.
    case voices(language: String?)
    /// `char`, `key` or `sound`: a short speech post, with the usual speech options.
    case short(ShortSpeech, SpeechOptions)
    /// `history`: the last announcements, newest first; at most `limit` of them when given.
    case history(limit: Int?)

    /// The `op` name.
    public var op: String {
        switch self {
        case .speech(let post): return post.kind.rawValue
        case .hello: return "hello"
        case .status: return "status"
        case .stop: return "stop"
        case .pause: return "pause"
        case .resume: return "resume"
        case .cancel: return "cancel"
        case .set: return "set"
        case .subscribe: return "subscribe"
        case .navigate: return "navigate"
        case .update: return "update"
        case .cancelOwn: return "cancel"
        case .voices: return "voices"
        case .short(let speech, _): return speech.op
        case .history: return "history"
        }
    }
}

/// One request line: the request and its optional `id`.
public struct RequestLine: Sendable, Hashable {
    /// The client's id; nil for fire-and-forget.
    public var id: RequestID?
    /// The request.
    public var request: Request

    /// Creates a request line.
    public init(id: RequestID?, _ request: Request) {
        self.id = id
        self.request = request
    }
}

/// The limits a decoder enforces.
public struct DecodingLimits: Sendable, Hashable {
    /// The protocol's `max_text_chars` default: a whole chapter, 1,048,576 Unicode scalars.
    public static let protocolMaxTextChars = 1_048_576

    /// The most Unicode scalars a `text` (or a spoken element) may have.
    public var maxTextChars: Int

    /// Creates limits.
    public init(maxTextChars: Int = DecodingLimits.protocolMaxTextChars) {
        self.maxTextChars = maxTextChars
    }
}

/// The protocol's version number.
public let protocolVersion = 1
