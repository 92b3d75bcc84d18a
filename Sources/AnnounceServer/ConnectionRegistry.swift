import AnnounceCore
import NIOConcurrencyHelpers

/// The open connections, so shutdown can close them once their last lines are written.
final class ConnectionRegistry: Sendable {
    private struct State {
        var sinks: [ClientID: ConnectionSink] = [:]
        var nextID: ClientID = 1
        var closing = false
    }

    // NIO's pthread lock, not Synchronization's Mutex: a contended Mutex is handed over by a PI
    // futex inside the Swift runtime, where ThreadSanitizer cannot see it (false race reports).
    private let state = NIOLockedValueBox(State())

    /// Registers a connection; nil when the server is closing (the caller closes it).
    func add(_ makeSink: (ClientID) -> ConnectionSink) -> ConnectionSink? {
        state.withLockedValue { state in
            guard !state.closing else { return nil }
            let id = state.nextID
            state.nextID += 1
            let sink = makeSink(id)
            state.sinks[id] = sink
            return sink
        }
    }

    func remove(_ id: ClientID) {
        _ = state.withLockedValue { $0.sinks.removeValue(forKey: id) }
    }

    /// Closes every connection after its pending lines; later connections are refused.
    func closeAllAfterFlush() {
        let sinks = state.withLockedValue { state in
            state.closing = true
            return Array(state.sinks.values)
        }
        for sink in sinks { sink.closeAfterFlush() }
    }

    var count: Int { state.withLockedValue { $0.sinks.count } }
}
