// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging

/// One utterance waiting for, or being spoken by, the speech thread, with the engine that speaks
/// it. Whether it is being stopped is the thread's state (`SpeechThread`), not the job's.
final class QueuedUtterance: Sendable {
    let utterance: Utterance
    let audioPath: AudioPath
    /// The engine whose helper synthesizes it.
    let engine: any SpeechEngine

    init(utterance: Utterance, audioPath: AudioPath, engine: any SpeechEngine) {
        self.utterance = utterance
        self.audioPath = audioPath
        self.engine = engine
    }

    /// Whether this job is the utterance `seq` of `audioPath`.
    func matches(seq: UInt64, audioPath: AudioPath) -> Bool {
        utterance.seq == seq && self.audioPath === audioPath
    }
}
