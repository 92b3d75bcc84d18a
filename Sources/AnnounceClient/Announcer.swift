// SPDX-License-Identifier: Apache-2.0
internal import POSIXThreads

/// Speaks through `announced`: the Linux counterpart of `UIAccessibility.post(notification:argument:)`
/// and the `Access.VO` helper.
///
/// The announcer connects to the daemon's socket on first use, shares one connection for all its
/// requests, and connects again after the daemon restarts. No method blocks the calling thread on
/// I/O. Each post reports how it ended as an ``AnnouncementResult``.
///
/// ```swift
/// let announcer = Announcer()
/// let result = await announcer.announce("Download complete")
/// ```
public final class Announcer: Sendable {
    /// The process's name: the last part of its executable's path as it was started.
    static var processName: String {
        String(CommandLine.arguments.first?.split(separator: "/").last ?? "client")
    }

    /// The socket this announcer talks to.
    public var socketPath: String { location.path }
    /// Where the socket is, and whether its directory must be the user's own (a default location).
    let location: SocketLocation
    /// The name the daemon shows for this client in `speech` events (`announcectl monitor`).
    public let clientName: String
    /// True when the daemon checks every element this announcer posts against the label and hint
    /// guidelines and reports what it finds (see ``onLint(perform:)``).
    public let lint: Bool

    // The project's one lock (a pthread mutex), not Synchronization's Mutex: a contended Mutex is
    // handed over by a PI futex inside the Swift runtime, where ThreadSanitizer cannot see it.
    let state = LockedValue(AnnouncerState())

    /// Creates an announcer; it connects on first use.
    /// - Parameters:
    ///   - socketPath: The daemon's socket; nil finds it like `announced` does (see ``AnnouncedSocket``).
    ///   - clientName: The name shown to other clients; nil uses the process name.
    ///   - lint: Ask the daemon to check every element this announcer posts (in `focus`,
    ///     `screen-changed` and `layout-changed`) against the label and hint guidelines. Each
    ///     finding goes to the ``onLint(perform:)`` handler, or without one to standard error as
    ///     `announced lint: ID: RULE: MESSAGE`. For development; speech is the same either way.
    public init(socketPath: String? = nil, clientName: String? = nil, lint: Bool = false) {
        self.location = AnnouncedSocket.location(explicit: socketPath)
        self.clientName = clientName ?? Self.processName
        self.lint = lint
    }

    deinit {
        let (link, streams, subscribers) = state.withLock {
            ($0.link, $0.statusContinuations.values, $0.eventSubscribers.values)
        }
        switch link {
        case .connected(let connection, _), .connecting(let connection?, _): connection.close()
        case .idle, .connecting(nil, _): break
        }
        streams.forEach { $0.finish() }
        subscribers.forEach { $0.continuation.finish() }
    }

    // MARK: Posts with results

    /// Speaks `text` and returns how it ended. Async calls are not tied to a thread: they count
    /// as posted from the main thread unless `options.thread` says otherwise. Cancelling the
    /// calling task cancels the post.
    public func announce(_ text: String, options: SpeechOptions = SpeechOptions()) async -> AnnouncementResult {
        await post(.announce(text, options: options))
    }

    /// Sends any speech post (`announce`, `focus`, `screen-changed`, `layout-changed`) and returns
    /// how it ended. Cancelling the calling task cancels the post.
    public func post(_ post: SpeechPost) async -> AnnouncementResult {
        let id = state.withLock { $0.makeID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit(post, id: id, stopsAtQueued: false) { outcome in
                    if case .refused(let result) = outcome { continuation.resume(returning: result) }
                }
            }
        } onCancel: {
            send(.cancel(target: id), id: state.withLock { $0.makeID() }, pending: .control { _ in })
        }
    }

    /// Sends a speech post and returns once the daemon has queued it (or refused it), without
    /// waiting for it to be spoken: what `announcectl say` does without `--wait`.
    public func enqueue(_ post: SpeechPost) async -> EnqueueResult {
        let id = state.withLock { $0.makeID() }
        return await withCheckedContinuation { continuation in
            submit(post, id: id, stopsAtQueued: true) { continuation.resume(returning: $0) }
        }
    }

    /// Sends a speech post under the request id `id` and hands `observe` every line about it
    /// as it comes (`queued`, `started`, `word`, `mark`, the terminal line): for tools that show
    /// progress, like `announcectl say --words`. Returns once the post ended, or with
    /// `untilQueued`, once it is queued (or refused). Give an `id` no other pending request of
    /// this announcer uses; the announcer's own ids are integers, so a string is always safe.
    public func post(
        _ post: SpeechPost, id: RequestID? = nil, untilQueued: Bool = false,
        observe: @escaping @Sendable (Event) -> Void
    ) async -> EnqueueResult {
        await followed(
            .speech(post), characters: post.ownCharacters, id: id, untilQueued: untilQueued, observe: observe)
    }

    /// Sends `char`, `key` or `sound` (additions to protocol 1) and follows it like
    /// ``post(_:id:untilQueued:observe:)``.
    public func speak(
        _ speech: ShortSpeech, options: SpeechOptions = SpeechOptions(), id: RequestID? = nil,
        untilQueued: Bool = false,
        observe: @escaping @Sendable (Event) -> Void = { _ in }
    ) async -> EnqueueResult {
        await followed(.short(speech, options), characters: 0, id: id, untilQueued: untilQueued, observe: observe)
    }

    /// Sends a speech request and follows its lines to its end (or to `queued`).
    private func followed(
        _ request: Request, characters: Int, id: RequestID?, untilQueued: Bool,
        observe: @escaping @Sendable (Event) -> Void
    ) async -> EnqueueResult {
        let id = id ?? state.withLock { $0.makeID() }
        return await withCheckedContinuation { continuation in
            let tracker = PostTracker(
                stopsAtQueued: untilQueued, postedCharacters: characters,
                deliver: { continuation.resume(returning: $0) },
                observe: observe
            )
            send(request, id: id, pending: .post(tracker))
        }
    }

    // MARK: UIKit-style posts

    /// Speaks `text`; `completion` runs on the main queue with how it ended, at once with
    /// ``AnnouncementResult/unavailable(_:)`` when no daemon answers (as `Access.VO.announce`
    /// does when VoiceOver is off). Like UIKit, a call made off the main thread is dropped:
    /// the daemon does not speak it and the result is `.dropped(.offMain)`.
    public func announce(
        _ text: String, options: SpeechOptions = SpeechOptions(),
        completion: (@MainActor @Sendable (AnnouncementResult) -> Void)? = nil
    ) {
        postFromCallingThread(.announce(text, options: options), completion: completion)
    }

    /// Moves the focus cursor to `element` and speaks it (label, value, traits, hint). Off the
    /// main thread the post is dropped, as UIKit does.
    public func focus(
        _ element: Element, options: SpeechOptions = SpeechOptions(),
        completion: (@MainActor @Sendable (AnnouncementResult) -> Void)? = nil
    ) {
        postFromCallingThread(
            SpeechPost(kind: .focus, subject: .element(element), options: options), completion: completion)
    }

    /// A new screen: interrupts speech, discards what waits, then speaks `subject` (or, for
    /// `.none`, the first stop of `elements`). With `elements` (and custom `rotors`) it publishes
    /// the screen users navigate with `announcectl navigate`; the announcer then stays connected
    /// and publishes it again after the daemon restarts. Off the main thread the post is
    /// dropped, as UIKit does.
    public func screenChanged(
        _ subject: PostSubject = .none, elements: [Element]? = nil, rotors: [CustomRotor]? = nil,
        options: SpeechOptions = SpeechOptions(), completion: (@MainActor @Sendable (AnnouncementResult) -> Void)? = nil
    ) {
        let post = SpeechPost(
            kind: .screenChanged, subject: subject, elements: elements, rotors: rotors, options: options)
        recordPublishedScreen(of: post)
        postFromCallingThread(post, completion: completion)
    }

    /// Part of the screen changed: focuses and speaks an element, speaks a string, or with
    /// `.none` only replaces `elements` (the focus stays; when the focused element's value changed,
    /// the daemon speaks the new value alone). Off the main thread the post is dropped, as UIKit does.
    public func layoutChanged(
        _ subject: PostSubject = .none, elements: [Element]? = nil, rotors: [CustomRotor]? = nil,
        options: SpeechOptions = SpeechOptions(), completion: (@MainActor @Sendable (AnnouncementResult) -> Void)? = nil
    ) {
        let post = SpeechPost(
            kind: .layoutChanged, subject: subject, elements: elements, rotors: rotors, options: options)
        recordPublishedScreen(of: post)
        postFromCallingThread(post, completion: completion)
    }

    /// Marks the post with the calling thread, sends it, and reports its end on the main queue.
    private func postFromCallingThread(
        _ post: SpeechPost, completion: (@MainActor @Sendable (AnnouncementResult) -> Void)?
    ) {
        var post = post
        post.options.thread = MainThread.isCurrent ? "main" : "background"
        let id = state.withLock { $0.makeID() }
        submit(post, id: id, stopsAtQueued: false) { outcome in
            guard let completion, case .refused(let result) = outcome else { return }
            Self.onMain { completion(result) }
        }
    }

    /// Sends a post with `id`; `deliver` gets its outcome once.
    func submit(
        _ post: SpeechPost, id: RequestID, stopsAtQueued: Bool, deliver: @escaping @Sendable (EnqueueResult) -> Void
    ) {
        let tracker = PostTracker(stopsAtQueued: stopsAtQueued, postedCharacters: post.ownCharacters, deliver: deliver)
        send(.speech(post), id: id, pending: .post(tracker))
    }
}
