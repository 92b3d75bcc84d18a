// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import POSIXThreads

@testable import SpeechSynthesis

/// A time for the virtual device that stands still except while the device sleeps, and then
/// moves exactly to the instant it sleeps until: what a write has played when it returns, or a
/// paused device after a wait, is the same on an idle and on a loaded machine. An abort signal
/// raised before the sleep ends it at once, without moving time, as on the monotonic clock.
final class SteppedTime: @unchecked Sendable {
    private let lock = ConditionLock()
    private var current = ContinuousClock.now

    /// The time to give a `VirtualPlaybackClock`, a `NullAudioOutput` or a `WAVAudioOutput`.
    var playbackTime: PlaybackTime {
        PlaybackTime(
            now: { [self] in lock.withLock { current } },
            sleep: { [self] instant, abortSignal in
                guard !abortSignal.isRaised else { return false }
                lock.withLock { current = max(current, instant) }
                return true
            }
        )
    }
}
