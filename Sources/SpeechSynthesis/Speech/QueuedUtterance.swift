// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging

/// One utterance waiting for, or being spoken by, the speech thread, in its language runs, each
/// with the engine that speaks it. Whether it is being stopped is the thread's state
/// (`SpeechThread`), not the job's.
final class QueuedUtterance: Sendable {
    /// The post's utterance, whole.
    let utterance: Utterance
    let audioPath: AudioPath
    /// Its runs, in text order: one at least (the whole utterance when nothing switches).
    let parts: [UtterancePart]

    init(utterance: Utterance, audioPath: AudioPath, parts: [UtterancePart]) {
        self.utterance = utterance
        self.audioPath = audioPath
        self.parts = parts
    }

    /// The engine of its first run.
    var engine: any SpeechEngine { parts[0].engine }

    /// Whether this job is the utterance `seq` of `audioPath`.
    func matches(seq: UInt64, audioPath: AudioPath) -> Bool {
        utterance.seq == seq && self.audioPath === audioPath
    }
}
