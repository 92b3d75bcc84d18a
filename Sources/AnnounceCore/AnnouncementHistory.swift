// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import DequeModule
import Glibc

/// What the history keeps of a post besides its text and how it ended, decided when the post is
/// accepted: set only on the posts the history holds (``Dispatcher/historySource(for:voice:)``).
struct HistorySource {
    /// The voice it speaks with.
    var voice: String
    /// The language of its text.
    var language: String
    /// The peer's uid, from SO_PEERCRED; nil for the daemon's own clients (toolkit announcements).
    var uid: UInt32?
}

/// The last announcements, newest last, in memory only (`history_size`, protocol "Additions:
/// history and settings per client"). The dispatcher owns it, on the main actor, like every
/// other piece of its state.
struct AnnouncementHistory {
    /// One kept entry and whose it is.
    private struct Kept {
        var entry: HistoryEntry
        var uid: UInt32?
    }

    /// The most entries kept; 0 keeps none.
    private(set) var size: Int
    private var kept: Deque<Kept> = []
    /// The daemon's own user, who sees every entry.
    let ownUID: UInt32

    /// A history of at most `size` entries.
    init(size: Int, ownUID: UInt32 = getuid()) {
        self.size = max(0, size)
        self.ownUID = ownUID
    }

    /// Keeps `entry` of a client of `uid`, forgetting the oldest beyond ``size``.
    mutating func add(_ entry: HistoryEntry, uid: UInt32?) {
        guard size > 0 else { return }
        kept.append(Kept(entry: entry, uid: uid))
        if kept.count > size { kept.removeFirst(kept.count - size) }
    }

    /// Keeps at most `size` entries from now on: a smaller size forgets the oldest at once, 0
    /// forgets them all.
    mutating func resize(_ size: Int) {
        self.size = max(0, size)
        if kept.count > self.size { kept.removeFirst(kept.count - self.size) }
    }

    /// True when a client of `viewer` may see an entry of a client of `owner`: the daemon's own
    /// user sees every entry, another allowed user only its own.
    func mayShow(entryOf owner: UInt32?, to viewer: UInt32?) -> Bool {
        let viewer = viewer ?? ownUID
        return viewer == ownUID || (owner ?? ownUID) == viewer
    }

    /// The entries a client of `viewer` may see, newest first, at most `limit` of them.
    func newest(_ limit: Int?, visibleTo viewer: UInt32?) -> [HistoryEntry] {
        var entries: [HistoryEntry] = []
        for kept in kept.reversed() where mayShow(entryOf: kept.uid, to: viewer) {
            if let limit, entries.count >= limit { break }
            entries.append(kept.entry)
        }
        return entries
    }

    /// The time now, UTC, as the history writes it: `2026-11-28T08:00:00Z`.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension Dispatcher {
    /// What the history keeps of a post of `client` with `voice`, or nil when it keeps nothing of
    /// it: the history is off, or the post is an SSIP message and `history_ssip` is off.
    /// Navigation speech and Spiel streams never come this way.
    func historySource(for client: ClientID, voice: ResolvedVoice) -> HistorySource? {
        guard history.size > 0, let state = clients[client] else { return nil }
        if state.registration.protocolName == "ssip" && !configuration.historySSIP { return nil }
        return HistorySource(
            voice: voice.name, language: voice.language ?? voiceIndex.language(ofVoice: voice.name),
            uid: state.registration.uid)
    }

    /// Keeps the entry of a post that ended, and tells the `history` subscribers who may see it.
    func keepInHistory(_ entry: HistoryEntry, uid: UInt32?) {
        guard history.size > 0 else { return }
        history.add(entry, uid: uid)
        for subscriber in subscribers[.history] ?? []
        where history.mayShow(entryOf: uid, to: clients[subscriber]?.registration.uid) {
            send(.history(entry), to: subscriber)
        }
    }

    /// Keeps a post that was queued and ended with `termination`, if the history holds it.
    func keepInHistory(_ post: PostRecord, _ termination: Termination) {
        guard let source = post.historySource else { return }
        keepInHistory(
            HistoryEntry(
                seq: post.seq, time: AnnouncementHistory.timestamp(), client: post.clientName,
                text: post.utterance.text, ssml: post.utterance.ssml, voice: source.voice,
                language: source.language, ending: HistoryEnding(termination, length: post.textLength)),
            uid: source.uid)
    }

    /// Keeps a post of `client` that was dropped before it was queued (`off-main`, `queue-full`),
    /// if the history holds it: `text` is what it would have said.
    func keepDropped(text: String?, ssml: Bool, voice: ResolvedVoice, client: ClientID, reason: DropReason) {
        guard let text, !text.isBlank, let source = historySource(for: client, voice: voice) else { return }
        keepInHistory(
            HistoryEntry(
                seq: nil, time: AnnouncementHistory.timestamp(), client: clients[client]?.displayName ?? "",
                text: text, ssml: ssml, voice: source.voice, language: source.language, ending: .dropped(reason)),
            uid: source.uid)
    }

    /// Keeps a speech post of `client` made off the main thread, as the post would have been
    /// spoken, if the history holds it.
    func keepDropped(offMain post: SpeechPost, client: ClientID) {
        guard history.size > 0, let voice = try? resolveVoice(post.options) else { return }
        let text = try? plan(post, client: client, language: voice.language).text
        keepDropped(text: text, ssml: post.options.ssml, voice: voice, client: client, reason: .offMain)
    }

    /// Answers `history`: the entries the connection may see, newest first.
    func answerHistory(_ id: RequestID?, limit: Int?, to client: ClientID) {
        let entries = history.newest(limit, visibleTo: clients[client]?.registration.uid)
        reply(id, to: client, ["history": .array(entries.map { .object($0.jsonObject) })])
    }

    /// Applies a reload of `history_size` and `history_ssip`: a smaller size forgets the oldest
    /// entries at once (0 forgets them all); `history_ssip` holds for SSIP messages accepted from
    /// now on.
    public func updateHistory(size: Int, ssip: Bool) {
        history.resize(size)
        configuration.historySize = size
        configuration.historySSIP = ssip
    }
}
