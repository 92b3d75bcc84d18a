// SPDX-License-Identifier: Apache-2.0
/// Why a speech post ended without being spoken to the end.
public enum FinishReason: String, Sendable, Hashable, CaseIterable {
    /// Preempted by another post, or discarded by `screen-changed`.
    case interrupted
    /// Ended by `stop` or `cancel` (or by muting while it spoke).
    case cancelled
    /// Speech is off: ended at once, never started.
    case muted
    /// The daemon is shutting down.
    case shutdown
    /// Synthesis or audio failed; the line has a `message`.
    case error
}

/// Why a post was never queued.
public enum DropReason: String, Sendable, Hashable, CaseIterable {
    /// Posted from a thread other than the main thread.
    case offMain = "off-main"
    /// The connection already had `max_pending_per_client` posts pending.
    case queueFull = "queue-full"
}

/// How a speech post that was queued ended.
public enum Termination: Sendable, Hashable {
    /// Spoken to the end.
    case success
    /// Ended early: why, how many characters of its text were spoken, and for `error` a message.
    case failure(reason: FinishReason, spokenChars: Int, message: String? = nil)

    /// True when spoken to the end.
    public var success: Bool {
        if case .success = self { return true }
        return false
    }
}

/// What a `speech` subscription event reports.
public enum SpeechActivity: Sendable, Hashable {
    /// A post's audio began; `engine` is the speech engine speaking it (`espeak-ng`, `piper`),
    /// when the daemon says.
    case started(seq: UInt64, client: String, text: String, engine: String? = nil)
    /// A post ended.
    case finished(seq: UInt64, client: String, termination: Termination)
    /// A post was dropped before it was queued.
    case dropped(client: String, reason: DropReason)
    /// A language run of the post `seq` began playing (state `run`; a post has one run or more).
    case run(seq: UInt64, SpeechRun)
}

/// One language run of a post as it starts playing: its language, the voice and engine speaking
/// it, and where it is in the post's text.
public struct SpeechRun: Sendable, Hashable {
    /// The run's language (`lang`), e.g. `ru`.
    public var language: String
    /// The name of the voice speaking it (`voice`), e.g. `ru`, `en-us`, a Piper voice's name.
    public var voice: String
    /// The engine speaking it (`engine`): `espeak-ng` or `piper`.
    public var engine: String
    /// Where the run is in the post's text (`start`, `end`), in Unicode scalars.
    public var range: Range<Int>
    /// No installed voice speaks `language`, so the post's own voice speaks the run (`fallback`,
    /// sent only when true).
    public var fallback: Bool

    /// A run in `language` at `range` of the post's text, spoken by `voice` of `engine`.
    public init(language: String, voice: String, engine: String, range: Range<Int>, fallback: Bool = false) {
        self.language = language
        self.voice = voice
        self.engine = engine
        self.range = range
        self.fallback = fallback
    }
}

/// A connected client and the `clients` entry of the daemon's configuration it matched, as
/// `status` reports them.
public struct ClientSettingsMatch: Sendable, Hashable {
    /// The client's name: SSIP's `CLIENT_NAME`, the `hello` name (else `pid:N`), `atspi:<app>`.
    public var name: String
    /// The pattern (`match`) of the first entry its name matched; nil when none did.
    public var matched: String?

    /// Creates a match.
    public init(name: String, matched: String?) {
        self.name = name
        self.matched = matched
    }
}

/// The daemon's state, as `status` answers and `status-changed` reports it.
public struct StatusReport: Sendable, Hashable {
    /// Speech is on (not muted).
    public var running: Bool
    /// Speech is muted.
    public var muted: Bool
    /// A post is speaking now.
    public var speaking: Bool
    /// Posts waiting.
    public var pending: Int
    /// The default voice.
    public var voice: String
    /// The default rate.
    public var rate: Int
    /// The default pitch.
    public var pitch: Int
    /// The default volume.
    public var volume: Int
    /// The audio output in use.
    public var audio: String
    /// Connected clients.
    public var clients: Int
    /// The focused element's id, if any.
    public var focus: String?
    /// The current screen's owner (its client name), or nil when there is no screen.
    public var screen: String?
    /// The number of focus stops on the current screen.
    public var stops: Int
    /// Seconds since the daemon started.
    public var uptimeSeconds: Int
    /// The daemon's version.
    public var version: String

    // Additions to protocol 1: what is speaking, and the punctuation default.

    /// The default punctuation mode.
    public var punctuation: Punctuation = .none
    /// Speech output is held by `pause` until `resume`.
    public var paused = false
    /// The start of the text speaking now (at most ``speakingTextLimit`` characters), if any.
    public var speakingText: String?
    /// The client whose post is speaking now (its `hello` name, else `pid:N`), if any.
    public var speakingClient: String?
    /// How many of `clients` are connected through the SSIP socket (speech-dispatcher's protocol).
    public var ssipClients = 0
    /// A screen reader runs (the desktop's `org.a11y.Status.ScreenReaderEnabled`; false without
    /// a session bus or at-spi2-core).
    public var screenReader = false
    /// Each connected client, in the order they connected, with the `clients` entry it matched
    /// (`client_settings`).
    public var clientSettings: [ClientSettingsMatch] = []
    /// How many characters of the speaking text `status` shows.
    public static let speakingTextLimit = 100

    /// Creates a status report.
    public init(
        running: Bool, muted: Bool, speaking: Bool, pending: Int, voice: String, rate: Int, pitch: Int,
        volume: Int, audio: String, clients: Int, focus: String?, uptimeSeconds: Int, version: String,
        screen: String? = nil, stops: Int = 0
    ) {
        self.running = running
        self.muted = muted
        self.speaking = speaking
        self.pending = pending
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.audio = audio
        self.clients = clients
        self.focus = focus
        self.screen = screen
        self.stops = stops
        self.uptimeSeconds = uptimeSeconds
        self.version = version
    }
}

/// A line from the daemon to a client.
public enum Event: Sendable, Hashable {
    /// The dispatcher accepted a post; `warning` (an addition to protocol 1) says what it will
    /// do differently from what was asked, e.g. speak with the default voice because no voice
    /// speaks the post's `lang`.
    case queued(id: RequestID, seq: UInt64, warning: String? = nil)
    /// The post's first audio reached the output; `text` is what the synthesizer was given and
    /// `voice` (an addition to protocol 1) the name of the voice that speaks it, given when the
    /// post asked for a `voice` or a `lang`.
    case started(id: RequestID, seq: UInt64, text: String, voice: String? = nil)
    /// A word began (offset and length in Unicode scalars of `text`).
    case word(id: RequestID, seq: UInt64, offset: Int, length: Int)
    /// An SSML mark was reached.
    case mark(id: RequestID, seq: UInt64, name: String)
    /// `pause` held the speaking post `seq` (an addition to protocol 1); it stays speaking.
    case paused(id: RequestID, seq: UInt64)
    /// `resume` continued the paused post `seq` from where it stopped.
    case resumed(id: RequestID, seq: UInt64)
    /// The post ended.
    case finished(id: RequestID, seq: UInt64, termination: Termination)
    /// The post was never queued.
    case dropped(id: RequestID, reason: DropReason)
    /// The request was invalid (or the connection is about to close, for `line-too-long` and `forbidden`).
    case error(id: RequestID?, code: ErrorCode, message: String)
    /// A control request succeeded; `fields` holds what it answers (`hello`, `status`).
    case ok(id: RequestID, fields: JSONObject)
    /// Subscription: speech was muted or unmuted, or defaults changed.
    case statusChanged(StatusReport)
    /// Subscription: the focus cursor moved; `owner` tells whether `to` is the receiver's element.
    case focusChanged(from: String?, to: String?, owner: Bool)
    /// Subscription: a post of any client started, finished or was dropped.
    case speech(SpeechActivity)
    /// One of this connection's elements got the focus.
    case focused(element: String)
    /// One of this connection's elements lost the focus.
    case unfocused(element: String)
    /// The screen's owner is asked to act on one of its elements (nil for `escape`/`magic-tap`
    /// without a focus); `name` is the custom action's name for `custom`.
    case action(element: String?, action: ElementActionKind, name: String?)
    /// A guideline finding about an element this connection posted (when it said `lint` in `hello`).
    case lint(element: String, rule: String, message: String)
    /// Subscription: the history kept an announcement, at its terminal line (an addition to
    /// protocol 1).
    case history(HistoryEntry)

    /// The request id this line answers, if any.
    public var requestID: RequestID? {
        switch self {
        case .queued(let id, _, _), .started(let id, _, _, _), .word(let id, _, _, _), .mark(let id, _, _),
            .paused(let id, _), .resumed(let id, _), .finished(let id, _, _), .dropped(let id, _), .ok(let id, _):
            return id
        case .error(let id, _, _): return id
        case .statusChanged, .focusChanged, .speech, .focused, .unfocused, .action, .lint, .history: return nil
        }
    }

    /// True for the lines that end a speech post: `finished`, `dropped` and `error`.
    public var isTerminal: Bool {
        switch self {
        case .finished, .dropped, .error: return true
        default: return false
        }
    }
}
