// SPDX-License-Identifier: Apache-2.0
/// Control requests: status, stop, pause and resume, mute and the speech defaults.
extension Announcer {
    /// The daemon's current state.
    public func status() async throws(AnnouncerError) -> StatusReport {
        let fields = try await control(.status)
        do {
            return try StatusReport(fields)
        } catch {
            throw .refused(code: .internal, message: "the daemon's status answer could not be read: \(error)")
        }
    }

    /// Stops speech and empties the queue; every post ends `cancelled`.
    public func stop() async throws(AnnouncerError) {
        _ = try await control(.stop)
    }

    /// Holds speech where it is (the speaking post keeps its place, nothing new starts) until
    /// ``resume()``, or until this announcer's connection closes; with `untilResume`, until a
    /// ``resume()`` from anyone even after the connection closed (`announcectl pause`).
    public func pause(untilResume: Bool = false) async throws(AnnouncerError) {
        _ = try await control(.pause(untilResume: untilResume))
    }

    /// Continues paused speech from where it stopped; does nothing when speech is not paused.
    public func resume() async throws(AnnouncerError) {
        _ = try await control(.resume)
    }

    /// Mutes (ending what speaks as `cancelled`) or unmutes speech for every client.
    public func setMuted(_ muted: Bool) async throws(AnnouncerError) {
        try await change(SettingsChange(muted: muted))
    }

    /// Changes the daemon's defaults (voice, rate, pitch, volume, muted) until it restarts.
    public func change(_ settings: SettingsChange) async throws(AnnouncerError) {
        _ = try await control(.set(settings))
    }

    /// Sends a control request and returns the fields of its `ok` answer.
    func control(_ request: Request) async throws(AnnouncerError) -> JSONObject {
        let id = state.withLock { $0.makeID() }
        let result = await withCheckedContinuation { continuation in
            send(request, id: id, pending: .control { continuation.resume(returning: $0) })
        }
        return try result.get()
    }
}

// Additions to protocol 1.
extension Announcer {
    /// Cancels the posts of every connection with this announcer's client name (`announcectl`
    /// runs cancelling what earlier runs said): the one posted under `target`, or all of them.
    /// Returns how many were cancelled; throws `not-found` when none was pending or speaking.
    @discardableResult
    public func cancelOwnPosts(target: RequestID? = nil) async throws(AnnouncerError) -> Int {
        let fields = try await control(.cancelOwn(target: target))
        return Int(fields["cancelled"]?.integerValue ?? 0)
    }

    /// The voices the daemon can speak with; with `language`, those that speak it.
    public func voices(language: String? = nil) async throws(AnnouncerError) -> [VoiceInfo] {
        try await list(.voices(language: language), field: "voices", VoiceInfo.init)
    }

    /// The last announcements the daemon kept, newest first: all it keeps (`history_size`), or
    /// the newest `limit`. Empty when the history is off or nothing was announced yet; a client
    /// of another user (`allow_uids`) gets only its own user's. ``events(_:)`` with `.history`
    /// follows the entries as they are added.
    public func history(limit: Int? = nil) async throws(AnnouncerError) -> [HistoryEntry] {
        try await list(.history(limit: limit), field: "history", HistoryEntry.init)
    }

    /// Sends `request` and reads the array `field` of its `ok` answer, each item an object read
    /// with `read`.
    private func list<Item>(
        _ request: Request, field: String, _ read: (JSONObject) throws(FieldError) -> Item
    ) async throws(AnnouncerError) -> [Item] {
        let fields = try await control(request)
        guard let list = fields[field]?.arrayValue else {
            throw .refused(
                code: .internal, message: "the daemon's \(field) answer has no list; is it older than this client?")
        }
        do {
            return try list.map { (item: JSONValue) throws(FieldError) -> Item in
                guard let object = item.objectValue else {
                    throw FieldError(field: field, problem: "must hold objects")
                }
                return try read(object)
            }
        } catch {
            throw .refused(code: .internal, message: "the daemon's \(field) answer could not be read: \(error)")
        }
    }
}
