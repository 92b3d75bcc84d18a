// SPDX-License-Identifier: GPL-3.0-or-later

/// A virtual sound device: frames play in real time from the moment they are written.
///
/// The clock is anchored at the first write. Played frames are
/// `min(written, anchorFrames + elapsed × rate)`. When the writer falls behind and everything
/// written has been played, the next write re-anchors the clock at its own time, so playback
/// resumes from there instead of catching up at once. While paused the played frames stand still;
/// `resume` re-anchors the clock, so playback continues from the same frame.
///
/// Its time is ``PlaybackTime/monotonic``; tests give it a time that moves only while the device
/// sleeps, so what a write leaves unplayed does not depend on how busy the machine is.
struct VirtualPlaybackClock {
    /// How much unplayed audio the device holds before `write` blocks: 20 ms.
    static let bufferDuration: Duration = .milliseconds(20)

    private let time: PlaybackTime
    /// Ends the waits when the utterance is aborted; set by `reset`.
    private(set) var abortSignal = UtteranceAbortSignal.none
    private(set) var sampleRate = 22_050
    private(set) var writtenFrames = 0
    private var anchor: ContinuousClock.Instant?
    private var anchorFrames = 0
    private var stoppedFrames: Int?
    /// Set by `pause`: the frames played when the device was paused.
    private var pausedFrames: Int?

    init(time: PlaybackTime = .monotonic) {
        self.time = time
    }

    /// The frames the device holds before `write` blocks.
    var bufferFrames: Int { Self.frames(in: Self.bufferDuration, rate: sampleRate) }

    /// Starts an utterance: nothing written, nothing played; `abortSignal` ends its waits.
    mutating func reset(sampleRate: Int, abortSignal: UtteranceAbortSignal = .none) {
        self.sampleRate = max(1, sampleRate)
        self.abortSignal = abortSignal
        writtenFrames = 0
        anchor = nil
        anchorFrames = 0
        stoppedFrames = nil
        pausedFrames = nil
    }

    /// The frames played by now.
    var playedFrames: Int { played(at: time.now()) }

    /// Records `count` frames written now, re-anchoring after starvation.
    mutating func recordWrite(_ count: Int) {
        let now = time.now()
        if stoppedFrames != nil {
            stoppedFrames = nil
            anchor = nil
        }
        if anchor == nil || played(at: now) >= writtenFrames {
            anchor = now
            anchorFrames = writtenFrames
        }
        writtenFrames += count
    }

    /// Blocks while more than the device buffer is unplayed, or until the utterance is aborted.
    /// Returns at once while paused (a paused device never makes room).
    func waitForBufferSpace() {
        while pausedFrames == nil {
            let target = writtenFrames - bufferFrames
            guard played(at: time.now()) < target else { return }
            guard sleep(until: instant(whenPlayed: target)) else { return }
        }
    }

    /// Blocks until everything written has played, `timeout` has passed or the utterance is
    /// aborted; true if all played.
    func waitForPlayout(timeout: Duration) -> Bool {
        let deadline = time.now() + timeout
        if pausedFrames != nil, played(at: time.now()) < writtenFrames {
            // Nothing plays until `resume`.
            _ = sleep(until: deadline)
            return false
        }
        while played(at: time.now()) < writtenFrames {
            let now = time.now()
            guard now < deadline, sleep(until: min(deadline, instant(whenPlayed: writtenFrames))) else { return false }
        }
        return true
    }

    /// Holds playback: `playedFrames` stands still until `resume`.
    mutating func pause() {
        guard pausedFrames == nil, stoppedFrames == nil else { return }
        pausedFrames = playedFrames
    }

    /// Plays on from the frame where `pause` held it.
    mutating func resume() {
        guard let paused = pausedFrames else { return }
        pausedFrames = nil
        anchor = time.now()
        anchorFrames = paused
    }

    /// Drops what has not been played; `playedFrames` stays where it is.
    mutating func discard() {
        let played = playedFrames
        pausedFrames = nil
        writtenFrames = played
        stoppedFrames = played
        anchor = nil
        anchorFrames = played
    }

    private func played(at now: ContinuousClock.Instant) -> Int {
        if let stoppedFrames { return stoppedFrames }
        if let pausedFrames { return pausedFrames }
        guard let anchor else { return writtenFrames }
        let elapsed = Self.frames(in: now - anchor, rate: sampleRate)
        return min(writtenFrames, anchorFrames + elapsed)
    }

    private func instant(whenPlayed frames: Int) -> ContinuousClock.Instant {
        let anchor = anchor ?? time.now()
        let seconds = Double(frames - anchorFrames) / Double(sampleRate)
        return anchor + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
    }

    /// Sleeps until `instant`; false when the utterance was aborted (see `UtteranceAbortSignal`).
    private func sleep(until instant: ContinuousClock.Instant) -> Bool {
        time.sleep(instant, abortSignal)
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    static func frames(in duration: Duration, rate: Int) -> Int {
        Int(seconds(duration) * Double(rate))
    }
}

/// The time a ``VirtualPlaybackClock`` plays by: what time it is, and a sleep until an instant
/// that the utterance's abort signal ends early (false when it did).
struct PlaybackTime: Sendable {
    let now: @Sendable () -> ContinuousClock.Instant
    let sleep: @Sendable (_ until: ContinuousClock.Instant, _ abortSignal: UtteranceAbortSignal) -> Bool

    /// The monotonic clock, as a real device plays.
    static let monotonic = PlaybackTime(
        now: { ContinuousClock.now },
        sleep: { instant, abortSignal in
            let interval = ContinuousClock.now.duration(to: instant)
            guard interval > .zero else { return !abortSignal.isRaised }
            return abortSignal.sleep(for: interval)
        }
    )
}
