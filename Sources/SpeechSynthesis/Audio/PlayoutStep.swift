// SPDX-License-Identifier: GPL-3.0-or-later

/// Sleeps one step of a playout poll: about as long as the `unplayedFrames` still take to play
/// at `sampleRate`, at least 1 ms and at most 5 ms, never past `deadline`. Ends at once when the
/// utterance is aborted (`abortSignal`); false then.
@discardableResult
func sleepOnePlayoutStep(
    unplayedFrames: Int, sampleRate: Int, deadline: ContinuousClock.Instant, abortSignal: UtteranceAbortSignal
) -> Bool {
    let unplayed = Duration.microseconds(Int64(Double(unplayedFrames) / Double(max(1, sampleRate)) * 1e6))
    let remaining = ContinuousClock.now.duration(to: deadline)
    return abortSignal.sleep(for: min(remaining, max(.milliseconds(1), min(unplayed, .milliseconds(5)))))
}
