// SPDX-License-Identifier: Apache-2.0
/// How a speech post ended, in the terms of UIAccessibility's announcement-finished notification.
public enum AnnouncementResult: Sendable, Hashable, CustomStringConvertible {
    /// Spoken to the end.
    case spoken
    /// Ended early by another post or a screen change, after `spokenCharacters` of
    /// `totalCharacters` characters (Unicode scalars) of its text.
    case interrupted(spokenCharacters: Int, totalCharacters: Int)
    /// Ended by `stop`, `cancel`, or muting while it spoke.
    case cancelled
    /// Speech is muted: ended at once, never spoken.
    case muted
    /// The post had nothing to say (a `layout-changed` or `screen-changed` without text or
    /// element, or an element with nothing to speak): the daemon finished it without audio.
    case nothingToSpeak
    /// Never queued: posted off the main thread, or too many posts were waiting.
    case dropped(DropReason)
    /// The daemon refused the post, failed to speak it, or shut down first; the message says why.
    case failed(String)
    /// No daemon answers; the message says where the library looked and how to start it.
    case unavailable(String)

    /// True only when the post was spoken to the end (Access.VO's `success`).
    public var isSpoken: Bool { self == .spoken }

    /// How the post ended in words: "spoken", "interrupted after 12 of 40 characters",
    /// "dropped: posted off the main thread", ...
    public var description: String {
        switch self {
        case .spoken: return "spoken"
        case .interrupted(let spoken, let total): return "interrupted after \(spoken) of \(total) characters"
        case .cancelled: return "cancelled"
        case .muted: return "muted"
        case .nothingToSpeak: return "nothing to speak"
        case .dropped(.offMain): return "dropped: posted off the main thread"
        case .dropped(.queueFull): return "dropped: too many posts waiting"
        case .failed(let message): return "failed: \(message)"
        case .unavailable(let message): return "unavailable: \(message)"
        }
    }
}

extension AnnouncementResult {
    /// The result a `finished` line's termination stands for; `totalCharacters` is the length of
    /// the post's text, for ``interrupted(spokenCharacters:totalCharacters:)``.
    public init(_ termination: Termination, totalCharacters: Int) {
        switch termination {
        case .success:
            self = .spoken
        case .failure(.interrupted, let spoken, _):
            self = .interrupted(spokenCharacters: spoken, totalCharacters: max(totalCharacters, spoken))
        case .failure(.cancelled, _, _):
            self = .cancelled
        case .failure(.muted, _, _):
            self = .muted
        case .failure(.shutdown, _, _):
            self = .failed("the daemon shut down before the post ended")
        case .failure(.error, _, let message):
            self = .failed(message ?? "the daemon could not speak the post")
        }
    }
}

/// What ``Announcer/enqueue(_:)`` learned: the daemon queued the post, or it never will.
public enum EnqueueResult: Sendable, Hashable {
    /// Accepted, with the daemon-wide sequence number the `speech` events carry.
    case queued(seq: UInt64)
    /// Not queued: dropped, refused as invalid, or no daemon answers.
    case refused(AnnouncementResult)
}

/// Whether speech is available: the Linux counterpart of `UIAccessibility.isVoiceOverRunning`.
public enum SpeechStatus: Sendable, Hashable {
    /// No daemon answers on the socket.
    case unavailable
    /// The daemon answers; the report says whether speech is on.
    case available(StatusReport)

    /// True when a daemon answers and speech is not muted.
    public var isSpeechRunning: Bool {
        if case .available(let report) = self { return report.running }
        return false
    }
}
