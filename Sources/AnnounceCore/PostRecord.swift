// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import DequeModule

/// How a post takes its turn (protocol, "Scheduling").
enum PostClass: Hashable {
    /// `priority: "high"`: never interrupted once started.
    case high
    /// `priority: "default"`, `queue: false`.
    case interrupting
    /// `priority: "default"`, `queue: true`.
    case queuedDefault
    /// `priority: "low"`.
    case queuedLow
    /// A front-end's `message` (SSIP): queued with `queuedDefault`, first come first served.
    case message
    /// A front-end's `text`: only the newest waits.
    case text
    /// A front-end's `notification`: spoken only when nothing else speaks or waits.
    case notification
    /// A front-end's `progress`: like notification, but the newest of a series waits.
    case progress

    init(_ priority: MessagePriority) {
        switch priority {
        case .important: self = .high
        case .message: self = .message
        case .text: self = .text
        case .notification: self = .notification
        case .progress: self = .progress
        }
    }

    /// Notification and progress messages, which give way to every other post.
    var isDroppable: Bool { self == .notification || self == .progress }

    /// Posts that wait in a first come first served queue, so one set aside can wait again
    /// without replacing or being replaced by another.
    var isQueued: Bool { self == .high || self == .queuedDefault || self == .message || self == .queuedLow }

    init(_ options: SpeechOptions) {
        switch options.priority {
        case .high: self = .high
        case .default: self = options.queue ? .queuedDefault : .interrupting
        case .low: self = .queuedLow
        }
    }
}

/// A queued speech post, from `queued` until its terminal line.
final class PostRecord {
    let seq: UInt64
    let id: RequestID?
    let client: ClientID
    let clientName: String
    let postClass: PostClass
    /// The post interrupts what is speaking (unless that is high).
    let interrupts: Bool
    let utterance: Utterance
    /// The name of the voice it speaks with, as `started` reports it; nil when the post asked
    /// for neither a voice nor a language (it speaks with the default voice).
    let voiceName: String?
    let wantsWords: Bool
    /// Set for navigation speech that is a stop of a `read-all` (see ``ScreenNavigator``).
    let readAllStop: ReadAllStop?
    var started = false
    /// Why the post is being ended early, decided when the abort was requested. First reason wins.
    var endReason: FinishReason?
    /// Its audio is being stopped to set it aside while its connection is paused
    /// (``Dispatcher/updateParking()``); it is not ending.
    var parking = false
    /// Set aside, paused, waiting in ``PendingList`` until its connection resumes.
    var parked = false
    /// It was set aside at least once: when it speaks again its client hears `resumed`.
    var wasSetAside = false
    /// Its client was told `paused` for it and not yet `resumed`: only then does a `resumed` follow.
    var toldPaused = false
    /// What is left to speak after it was set aside; nil: the whole text.
    var continuation: Continuation?
    /// Where, in its whole text, the last word heard begins; nil before the first.
    var lastWordOffset: Int?
    /// How many `<mark/>`s of its whole text were reached.
    var marksReached = 0
    /// How many scalars of its whole text were heard before it was set aside.
    var heardChars = 0
    /// What the history keeps of it besides its text; nil when the history keeps nothing of it.
    var historySource: HistorySource?

    /// Creates the record; `priority` (a front-end's message) decides the class instead of
    /// `options`' priority and queue.
    init(
        seq: UInt64, id: RequestID?, client: ClientID, clientName: String, options: SpeechOptions, utterance: Utterance,
        voiceName: String? = nil, priority: MessagePriority? = nil, readAllStop: ReadAllStop? = nil
    ) {
        self.seq = seq
        self.id = id
        self.client = client
        self.clientName = clientName
        if let priority {
            self.postClass = PostClass(priority)
            self.interrupts = priority == .important
        } else {
            self.postClass = PostClass(options)
            self.interrupts = !options.queue && options.priority != .low
        }
        self.utterance = utterance
        self.voiceName = voiceName
        self.wantsWords = options.words
        self.readAllStop = readAllStop
    }

    var textLength: Int { utterance.text.unicodeScalarCount }

    /// What the backend speaks: the utterance, or the rest of it after it was set aside.
    var spokenUtterance: Utterance {
        guard let continuation else { return utterance }
        var rest = utterance
        rest.text = continuation.text
        return rest
    }

    /// The offset in the whole text of the offset `offset` the backend reported.
    func sourceOffset(of offset: Int) -> Int { continuation?.sourceOffset(of: offset) ?? offset }

    /// Sets the post aside after its audio stopped with `spokenChars` of ``spokenUtterance``
    /// heard: it will continue from the last word heard (plain text) or after the last mark
    /// reached (SSML).
    func park(spokenChars: Int) {
        heardChars = max(heardChars, min(sourceOffset(of: spokenChars), textLength))
        parking = false
        parked = true
        wasSetAside = true
        if utterance.ssml {
            continuation = Continuation.ssml(utterance.text, afterMark: marksReached)
        } else if let lastWordOffset {
            continuation = Continuation.plain(utterance.text, from: lastWordOffset)
        }
    }
}

/// The posts waiting to speak, in the order they will: high (and important) first come first
/// served; at most one interrupting post; queued `default` and `message` first come first served;
/// at most one `text`; `low` first come first served; at most one `progress`; at most one
/// `notification`.
struct PendingList {
    private(set) var high: Deque<PostRecord> = []
    private(set) var interrupting: PostRecord?
    private(set) var queuedDefault: Deque<PostRecord> = []
    private(set) var text: PostRecord?
    private(set) var queuedLow: Deque<PostRecord> = []
    private(set) var progress: PostRecord?
    private(set) var notification: PostRecord?

    var count: Int {
        high.count + queuedDefault.count + queuedLow.count
            + [interrupting, text, progress, notification].reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }
    var isEmpty: Bool { count == 0 }

    /// Every pending post, in speaking order.
    var all: [PostRecord] {
        Array(high) + (interrupting.map { [$0] } ?? []) + Array(queuedDefault) + (text.map { [$0] } ?? [])
            + Array(queuedLow) + (progress.map { [$0] } ?? []) + (notification.map { [$0] } ?? [])
    }

    /// True when a pending post matches `predicate`.
    func contains(where predicate: (PostRecord) -> Bool) -> Bool {
        high.contains(where: predicate) || queuedDefault.contains(where: predicate)
            || queuedLow.contains(where: predicate)
            || [interrupting, text, progress, notification].contains { $0.map(predicate) ?? false }
    }

    /// Adds a post; returns the waiting post of a one-post class (interrupting, text, progress,
    /// notification) it replaced, if any.
    mutating func insert(_ post: PostRecord) -> PostRecord? {
        func replace(_ slot: inout PostRecord?) -> PostRecord? {
            let replaced = slot
            slot = post
            return replaced
        }
        switch post.postClass {
        case .high: high.append(post)
        case .queuedDefault, .message: queuedDefault.append(post)
        case .queuedLow: queuedLow.append(post)
        case .interrupting: return replace(&interrupting)
        case .text: return replace(&text)
        case .progress: return replace(&progress)
        case .notification: return replace(&notification)
        }
        return nil
    }

    /// Puts a post that was set aside back in line: in its class's queue, ahead of its
    /// connection's other waiting posts there (at the end when it has none).
    mutating func insertAhead(ofOwnPosts post: PostRecord) {
        func place(in queue: inout Deque<PostRecord>) {
            let index = queue.firstIndex { $0.client == post.client } ?? queue.endIndex
            queue.insert(post, at: index)
        }
        switch post.postClass {
        case .high: place(in: &high)
        case .queuedDefault, .message: place(in: &queuedDefault)
        case .queuedLow: place(in: &queuedLow)
        case .interrupting, .text, .progress, .notification: _ = insert(post)
        }
    }

    /// Removes and returns the post that speaks next.
    mutating func popNext() -> PostRecord? {
        func take(_ slot: inout PostRecord?) -> PostRecord? {
            defer { slot = nil }
            return slot
        }
        if !high.isEmpty { return high.removeFirst() }
        if interrupting != nil { return take(&interrupting) }
        if !queuedDefault.isEmpty { return queuedDefault.removeFirst() }
        if text != nil { return take(&text) }
        if !queuedLow.isEmpty { return queuedLow.removeFirst() }
        if progress != nil { return take(&progress) }
        return take(&notification)
    }

    /// Removes and returns the first post in speaking order that matches `predicate`.
    mutating func popFirst(where predicate: (PostRecord) -> Bool) -> PostRecord? {
        guard let first = all.first(where: predicate) else { return nil }
        _ = removeAll { $0 === first }
        return first
    }

    /// Removes and returns every post matching `predicate`, in speaking order.
    mutating func removeAll(where predicate: (PostRecord) -> Bool) -> [PostRecord] {
        let removed = all.filter(predicate)
        guard !removed.isEmpty else { return [] }
        func clear(_ slot: inout PostRecord?) {
            if let post = slot, predicate(post) { slot = nil }
        }
        high.removeAll(where: predicate)
        clear(&interrupting)
        queuedDefault.removeAll(where: predicate)
        clear(&text)
        queuedLow.removeAll(where: predicate)
        clear(&progress)
        clear(&notification)
        return removed
    }
}
