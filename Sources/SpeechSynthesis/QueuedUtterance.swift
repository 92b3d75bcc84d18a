// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging
import Synchronization

/// One utterance waiting for, or being spoken by, the speech thread.
final class QueuedUtterance: Sendable {
    let utterance: Utterance
    let audioPath: AudioPath
    private let abortFlag = Atomic<Bool>(false)

    init(utterance: Utterance, audioPath: AudioPath) {
        self.utterance = utterance
        self.audioPath = audioPath
    }

    /// Set from any thread by `abort(seq:)`; polled by the speech thread between slices.
    var isAbortRequested: Bool { abortFlag.load(ordering: .acquiring) }

    /// Asks the speech thread to stop this utterance.
    func requestAbort() { abortFlag.store(true, ordering: .releasing) }

    /// Whether this job is the utterance `seq` of `audioPath`.
    func matches(seq: UInt64, audioPath: AudioPath) -> Bool {
        utterance.seq == seq && self.audioPath === audioPath
    }
}
