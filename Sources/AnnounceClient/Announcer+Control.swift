/// Control requests: status, stop, mute and the speech defaults.
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
        let id = state.withLockedValue { $0.makeID() }
        let result = await withCheckedContinuation { continuation in
            send(request, id: id, pending: .control { continuation.resume(returning: $0) })
        }
        return try result.get()
    }
}
