// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging

/// The audio path of one backend: the output its utterances play through, and where their events
/// and log lines go. Every backend of the process shares the one speech thread; each brings its
/// own audio path.
///
/// `output` is touched only on the speech thread; that is what makes this `Sendable`.
// Unchecked: `output`, which is not Sendable, is touched only on the speech thread.
final class AudioPath: @unchecked Sendable {
    let output: any AudioOutput
    let logger: Logger
    let eventHandler: @Sendable (SpeechBackendEvent) -> Void
    /// Told when each utterance begins and ends playing.
    let activity: (any SpeechActivityObserver)?

    init(
        output: any AudioOutput, logger: Logger, eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void,
        activity: (any SpeechActivityObserver)? = nil
    ) {
        self.output = output
        self.logger = logger
        self.eventHandler = eventHandler
        self.activity = activity
    }
}
