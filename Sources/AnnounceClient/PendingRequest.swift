// SPDX-License-Identifier: Apache-2.0
/// A request that waits for its answer from the daemon, keyed by its `id`.
enum PendingRequest: Sendable {
    /// A speech post, followed to its terminal line (or only to `queued`).
    case post(PostTracker)
    /// A control request, answered by `ok` or `error`.
    case control(@Sendable (Result<JSONObject, AnnouncerError>) -> Void)
}

extension PendingRequest {
    /// The same request, keeping `owner` alive until it is answered: an announcer made for one
    /// post (`Announcer().announce("Saved") { ... }`) lives until the post ends.
    func retaining(_ owner: some AnyObject & Sendable) -> PendingRequest {
        switch self {
        case .post(var tracker):
            let deliver = tracker.deliver
            tracker.deliver = { outcome in withExtendedLifetime(owner) { deliver(outcome) } }
            return .post(tracker)
        case .control(let answer):
            return .control { result in withExtendedLifetime(owner) { answer(result) } }
        }
    }
}

/// Follows one speech post's lines and turns its end into an ``AnnouncementResult``.
struct PostTracker: Sendable {
    /// Deliver as soon as the post is queued instead of when it ends.
    var stopsAtQueued: Bool
    /// The characters of the post's own text, used when it ends before it started.
    var postedCharacters: Int
    /// The characters of the text the synthesizer was given, once it started.
    var startedCharacters: Int?
    /// Called once with how the post ended (or that it was queued, for `stopsAtQueued`).
    var deliver: @Sendable (EnqueueResult) -> Void
    /// Called with every line about the post, as it comes, before `deliver`.
    var observe: (@Sendable (Event) -> Void)?

    /// Reads one line about the post; returns true when it was the last the tracker needs.
    mutating func receive(_ event: Event) -> (done: Bool, outcome: EnqueueResult?) {
        switch event {
        case .queued(_, let seq, _):
            return stopsAtQueued ? (true, .queued(seq: seq)) : (false, nil)
        case .started(_, _, let text, _):
            startedCharacters = text.unicodeScalars.count
            return (false, nil)
        case .finished(_, _, let termination):
            return (true, .refused(result(of: termination)))
        case .dropped(_, let reason):
            return (true, .refused(.dropped(reason)))
        case .error(_, _, let message):
            return (true, .refused(.failed(message)))
        default:
            return (false, nil)
        }
    }

    func result(of termination: Termination) -> AnnouncementResult {
        // The daemon finishes a post with nothing to say successfully, without `started`.
        if termination.success && startedCharacters == nil { return .nothingToSpeak }
        return AnnouncementResult(termination, totalCharacters: startedCharacters ?? postedCharacters)
    }
}

extension SpeechPost {
    /// The characters of the post's own text, when it has one.
    var ownCharacters: Int {
        if case .text(let text) = subject { return text.unicodeScalars.count }
        return 0
    }
}
