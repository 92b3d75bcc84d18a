// SPDX-License-Identifier: GPL-3.0-or-later
/// The `null` output: a virtual real-time sound device that plays into nothing.
///
/// Audio "plays" at the utterance's sample rate from the first write, with a 20 ms device
/// buffer, so a two-second utterance takes two seconds and interruptions and pauses behave as on
/// a real device. If the writer falls behind, playback resumes when it writes again.
public final class NullAudioOutput: AudioOutput {
    private var clock: VirtualPlaybackClock

    /// Creates a null output.
    public init() {
        clock = VirtualPlaybackClock()
    }

    /// A null output that plays by `time` (tests: a time that moves only while it sleeps).
    init(time: PlaybackTime) {
        clock = VirtualPlaybackClock(time: time)
    }

    /// `null`.
    public var description: String { "null" }

    /// Starts an utterance.
    public func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        clock.reset(sampleRate: sampleRate, abortSignal: abortSignal)
    }

    /// Plays `samples` into nothing, in real time.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        clock.recordWrite(samples.count)
        clock.waitForBufferSpace()
    }

    /// The frames of the current utterance played so far.
    public var playedFrames: Int { clock.playedFrames }

    /// Waits until everything written has played or `timeout` passed.
    public func waitForPlayout(timeout: Duration) throws -> Bool {
        clock.waitForPlayout(timeout: timeout)
    }

    /// Drops the unplayed audio.
    public func discard() {
        clock.discard()
    }

    /// Holds playback where it is.
    public func pause() {
        clock.pause()
    }

    /// Plays on from where `pause` held it.
    public func resume() {
        clock.resume()
    }

    /// Ends the utterance.
    public func end() throws {}
}
