// SPDX-License-Identifier: GPL-3.0-or-later
/// Where synthesized speech goes: a sound device, a file or nothing.
///
/// The speech engine calls an output only from its own speech thread, one utterance at a time:
/// `begin`, any number of `write` calls, possibly `discard`, `waitForPlayout` until everything
/// written has been played, then `end`. Between writes (or playout waits) the engine may `pause`
/// the output and later `resume` it, or `discard` while paused; it writes nothing while paused. Samples are signed 16-bit mono at the rate given to
/// `begin`.
///
/// `write` paces the caller in real time: it returns once no more than about one device buffer
/// (≈20 ms) of audio is still unplayed, so the engine holds only a few milliseconds of audio ahead
/// of the listener and can stop at once. A PulseAudio output maps this onto `pa_stream_write`,
/// `pa_stream_get_latency`, `pa_stream_flush` and `pa_stream_cork`; an ALSA output onto
/// `snd_pcm_writei`, `snd_pcm_delay`, `snd_pcm_drop` and `snd_pcm_pause`.
public protocol AudioOutput: AnyObject, CustomStringConvertible {
    /// A short description for logs and the `status` request, e.g. `null`, `wav:/tmp/out`.
    var description: String { get }

    /// Starts the audio of the utterance `seq`, whose samples come at `sampleRate` frames per
    /// second. Resets `playedFrames` to 0. Until the next `begin`, the output's waits (for room,
    /// for playout) end at once when `abortSignal` is raised: the speech thread stops the utterance.
    func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws

    /// Queues `samples` for playback and blocks while more than the device buffer is unplayed.
    func write(_ samples: UnsafeBufferPointer<Int16>) throws

    /// The frames of the current utterance that have actually been played so far.
    var playedFrames: Int { get }

    /// Waits until every frame written has been played, or until `timeout` has passed,
    /// whichever comes first. Returns true when everything has been played.
    ///
    /// The engine calls this in short steps so that it can notice an abort in between.
    func waitForPlayout(timeout: Duration) throws -> Bool

    /// Drops the audio not yet played, at once: the utterance was interrupted.
    /// Afterwards `playedFrames` no longer grows.
    func discard()

    /// Stops playing at once, keeping what has not been played yet: `playedFrames` stands still
    /// until `resume`. Failures show at the next `write` or `waitForPlayout`.
    func pause()

    /// Plays on from the first frame not played before `pause`: nothing is lost or heard twice.
    func resume()

    /// Ends the current utterance: everything written was played or discarded.
    func end() throws

    /// Lets go, between utterances, of what keeps the process awake while nothing plays (a sound
    /// server's stream, whose main loop keeps polling the server's timing while it is open). The
    /// next `begin` takes it back. The speech thread calls it once it has had nothing to speak for
    /// a while (`SpeechThread.defaultOutputRestDelay`).
    func rest()

    /// Takes back what `rest` let go of, ahead of the next `begin`: the speech thread calls it
    /// while an utterance's first audio is being synthesized, so that reconnecting to a sound
    /// server overlaps the synthesis. Failures are left for `begin` to report.
    func wake()
}

extension AudioOutput {
    /// Nothing to let go of: the output wakes nobody between utterances.
    public func rest() {}

    /// Nothing to take back.
    public func wake() {}

    /// Starts an utterance whose waits nothing ends early (an output used on its own, as tests do).
    public func begin(seq: UInt64, sampleRate: Int) throws {
        try begin(seq: seq, sampleRate: sampleRate, abortSignal: .none)
    }
}
