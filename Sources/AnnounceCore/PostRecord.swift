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
    var started = false
    /// Why the post is being ended early, decided when the abort was requested. First reason wins.
    var endReason: FinishReason?

    init(seq: UInt64, id: RequestID?, client: ClientID, clientName: String, options: SpeechOptions, utterance: Utterance, voiceName: String? = nil) {
        self.seq = seq
        self.id = id
        self.client = client
        self.clientName = clientName
        self.postClass = PostClass(options)
        self.interrupts = !options.queue && options.priority != .low
        self.utterance = utterance
        self.voiceName = voiceName
        self.wantsWords = options.words
    }

    var textLength: Int { utterance.text.unicodeScalars.count }
}

/// The posts waiting to speak, in the order they will: high first come first served, then at most
/// one interrupting post, then queued `default` before `low`, each first come first served.
struct PendingList {
    private(set) var high: Deque<PostRecord> = []
    private(set) var interrupting: PostRecord?
    private(set) var queuedDefault: Deque<PostRecord> = []
    private(set) var queuedLow: Deque<PostRecord> = []

    var count: Int { high.count + (interrupting == nil ? 0 : 1) + queuedDefault.count + queuedLow.count }
    var isEmpty: Bool { count == 0 }

    /// Every pending post, in speaking order.
    var all: [PostRecord] { Array(high) + (interrupting.map { [$0] } ?? []) + Array(queuedDefault) + Array(queuedLow) }

    /// Adds a post; returns the waiting interrupting post it replaced, if any.
    mutating func insert(_ post: PostRecord) -> PostRecord? {
        switch post.postClass {
        case .high: high.append(post)
        case .queuedDefault: queuedDefault.append(post)
        case .queuedLow: queuedLow.append(post)
        case .interrupting:
            let replaced = interrupting
            interrupting = post
            return replaced
        }
        return nil
    }

    /// Removes and returns the post that speaks next.
    mutating func popNext() -> PostRecord? {
        if !high.isEmpty { return high.removeFirst() }
        if let next = interrupting {
            interrupting = nil
            return next
        }
        if !queuedDefault.isEmpty { return queuedDefault.removeFirst() }
        if !queuedLow.isEmpty { return queuedLow.removeFirst() }
        return nil
    }

    /// Removes and returns every post matching `predicate`, in speaking order.
    mutating func removeAll(where predicate: (PostRecord) -> Bool) -> [PostRecord] {
        let removed = all.filter(predicate)
        guard !removed.isEmpty else { return [] }
        high.removeAll(where: predicate)
        if let post = interrupting, predicate(post) { interrupting = nil }
        queuedDefault.removeAll(where: predicate)
        queuedLow.removeAll(where: predicate)
        return removed
    }
}
