import AnnounceCore
import Logging
import Synchronization

/// What one engine brings to the shared synthesis thread: its output, logger and event handler.
///
/// `output` is touched only on the synthesis thread; that is what makes this `Sendable`.
final class EngineSession: @unchecked Sendable {
    let output: any AudioOutput
    let logger: Logger
    let eventHandler: @Sendable (SpeechBackendEvent) -> Void

    init(output: any AudioOutput, logger: Logger, eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void) {
        self.output = output
        self.logger = logger
        self.eventHandler = eventHandler
    }
}

/// One utterance waiting for, or being spoken by, the synthesis thread.
final class SpeechJob: Sendable {
    let utterance: Utterance
    let session: EngineSession
    private let abortFlag = Atomic<Bool>(false)

    init(utterance: Utterance, session: EngineSession) {
        self.utterance = utterance
        self.session = session
    }

    /// Set from any thread by `abort(seq:)`; polled by the synthesis thread between slices.
    var isAbortRequested: Bool { abortFlag.load(ordering: .acquiring) }

    /// Asks the synthesis thread to stop this utterance.
    func requestAbort() { abortFlag.store(true, ordering: .releasing) }

    /// Whether this job is the utterance `seq` of `session`.
    func matches(seq: UInt64, session: EngineSession) -> Bool {
        utterance.seq == seq && self.session === session
    }
}
