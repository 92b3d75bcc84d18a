// SPDX-License-Identifier: Apache-2.0
internal import Dispatch

/// What the daemon says: answers to requests, subscription events, focus of own elements.
extension Announcer {
    func receive(_ event: Event) {
        if let id = event.requestID {
            receive(event, about: id)
            return
        }
        switch event {
        case .statusChanged(let report):
            state.withLock { state in
                state.update(.available(report))
                state.yield(event)
            }
        case .focusChanged, .speech, .history:
            state.withLock { $0.yield(event) }
        case .focused(let element):
            if let handler = state.withLock({ $0.focusHandlers[element]?.onFocus }) { Self.onMain(handler) }
        case .unfocused(let element):
            if let handler = state.withLock({ $0.focusHandlers[element]?.onLoseFocus }) { Self.onMain(handler) }
        case .lint(let element, let rule, let message):
            report(LintReport(element: element, rule: rule, message: message))
        case .action(let element, let action, let name):
            receiveAction(element: element, action: action, name: name)
        case .error(_, _, let message):
            state.withLock { $0.lastConnectionError = message }
        default:
            break
        }
    }

    private func receive(_ event: Event, about id: RequestID) {
        enum Delivery {
            case post(PostTracker, EnqueueResult)
            case control(@Sendable (Result<JSONObject, AnnouncerError>) -> Void, Result<JSONObject, AnnouncerError>)
        }
        var observer: (@Sendable (Event) -> Void)?
        let delivery: Delivery? = state.withLock { state in
            switch state.pending[id] {
            case .post(var tracker):
                observer = tracker.observe
                let (done, outcome) = tracker.receive(event)
                state.pending[id] = done ? nil : .post(tracker)
                return outcome.map { .post(tracker, $0) }
            case .control(let answer):
                switch event {
                case .ok(_, let fields):
                    state.pending[id] = nil
                    return .control(answer, .success(fields))
                case .error(_, let code, let message):
                    state.pending[id] = nil
                    return .control(answer, .failure(.refused(code: code, message: message)))
                default:
                    return nil
                }
            case nil:
                return nil
            }
        }
        observer?(event)
        switch delivery {
        case .post(let tracker, let outcome): tracker.deliver(outcome)
        case .control(let answer, let result): answer(result)
        case nil: break
        }
    }

    /// Runs `body` on the main queue (the main actor).
    static func onMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }
}

extension AnnouncerState {
    /// Hands a subscription event to the streams that asked for its topic.
    func yield(_ event: Event) {
        for subscriber in eventSubscribers.values where subscriber.wants(event) {
            subscriber.continuation.yield(event)
        }
    }
}
