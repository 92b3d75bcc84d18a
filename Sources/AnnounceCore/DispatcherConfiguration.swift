public import AnnounceProtocol

/// The defaults and limits the dispatcher starts with.
public struct DispatcherConfiguration: Sendable, Hashable {
    /// The default espeak-ng voice.
    public var voice: String = "en-us"
    /// The default rate, words per minute.
    public var rate: Int = 175
    /// The default pitch.
    public var pitch: Int = 50
    /// The default volume.
    public var volume: Int = 100
    /// The default punctuation mode.
    public var punctuation: Punctuation = .none
    /// Play the earcon before `screen-changed` speech.
    public var earcons: Bool = true
    /// The most posts one connection may have pending or speaking.
    public var maxPendingPerClient: Int = 256
    /// The most Unicode scalars of text one post may speak.
    public var maxTextChars: Int = 8192
    /// The daemon's version, reported by `hello` and `status`.
    public var version: String = "0.1.0"

    /// The defaults of the protocol.
    public init() {}
}

/// The speech defaults `set` may change, and whether speech is muted.
struct SpeechDefaults: Hashable {
    var voice: String
    var rate: Int
    var pitch: Int
    var volume: Int
    var punctuation: Punctuation
    var muted = false
}
