// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceProtocol

/// How a message of a front-end other than JSON lines takes its turn: speech-dispatcher's five
/// priorities (shared/ssip.md §4), in the one queue with the native posts. ARCHITECTURE.md has the
/// table of how they order against native `high`, `default` and `low`.
public enum MessagePriority: String, Sendable, Hashable, CaseIterable {
    /// Never interrupted; interrupts what speaks unless it is high or important; first come first
    /// served with native `high`.
    case important
    /// Waits its turn, first come first served with queued native `default` posts; ends speaking
    /// or waiting text, notification and progress messages.
    case message
    /// Only the newest survives: ends speaking or waiting text, notification and progress
    /// messages, and waits for everything above it.
    case text
    /// Spoken only when nothing else speaks or waits (otherwise dropped at once); a newer one
    /// replaces it; anything above it ends it.
    case notification
    /// Like notification, but one that arrives while a progress message speaks waits (the newest
    /// of them), so the last of a series is spoken.
    case progress
}

/// A message a front-end other than JSON lines queues (SSIP's `SPEAK`, `CHAR`, `KEY`,
/// `SOUND_ICON`): its text and priority, and its options worked out against the daemon's speech
/// defaults at the moment it is queued.
public struct MessagePost: Sendable {
    /// The id its lines carry (`queued`, `started`, `finished` ...), unique on its connection.
    public var id: RequestID
    /// What to say (SSML when the options say so); empty for a sound alone.
    public var text: String
    /// An earcon to play (the sound is the message), if any.
    public var sound: EarconSound?
    /// How it takes its turn.
    public var priority: MessagePriority
    /// Its speech options, given the daemon's defaults.
    public var options: @Sendable (SpeechDefaults) -> SpeechOptions
    /// The engine it must speak with (SSIP's `OUTPUT_MODULE`: `espeak-ng` or `piper`), or nil
    /// for the daemon's choice. When the options' voice is not one of that engine's, the
    /// dispatcher picks the engine's voice for the options' language: the one
    /// `voice_for_language` prefers when it is that engine's, else the first of its voices that
    /// speaks the language, else its first voice.
    public var engine: String?

    /// Creates a message.
    public init(
        id: RequestID, text: String, sound: EarconSound? = nil, priority: MessagePriority, engine: String? = nil,
        options: @escaping @Sendable (SpeechDefaults) -> SpeechOptions
    ) {
        self.id = id
        self.text = text
        self.sound = sound
        self.priority = priority
        self.engine = engine
        self.options = options
    }
}

/// Stop, cancel, pause or resume, as a front-end asks for them.
public enum SpeechControl: String, Sendable, Hashable, CaseIterable {
    /// The speaking message of the scope ends `cancelled`; waiting ones stay.
    case stop
    /// The speaking and waiting messages of the scope end `cancelled`.
    case cancel
    /// Output holds where it is (the daemon has one speech channel: whoever's message speaks).
    case pause
    /// Output continues from the next unplayed sample.
    case resume
}

/// Whose messages a control acts on.
public enum ClientScope: Sendable, Hashable {
    /// The asking connection's.
    case own
    /// Every connection's.
    case all
    /// The connection with this number's (SSIP's client id).
    case client(ClientID)
}
