// SPDX-License-Identifier: GPL-3.0-or-later
import CALSA
import Glibc

/// The `alsa` output: a playback PCM opened with libasound, `default` unless another device is
/// named (`hw:0,0`, `plughw:1`, `dmix`, ...).
///
/// ## Buffering
/// S16_LE mono at the synthesizer's rate (alsa-lib resamples when the device needs it), a buffer
/// of about 25 ms in periods of about 6 ms (`snd_pcm_set_params` with 25 ms of latency), for the
/// same reason as the PulseAudio output: an interruption is heard within one buffer. Playback
/// starts as soon as one period is queued rather than when the buffer is full, so the first
/// sample is not held back by a whole buffer.
///
/// ## Played frames, underruns and interruptions
/// `write` blocks in `snd_pcm_writei` while the buffer is full. An underrun (the engine fell
/// behind, or the gap between two utterances) is recovered with `snd_pcm_recover` and the write
/// is retried. `playedFrames` is the frames written minus `snd_pcm_delay`. `discard` stops the
/// device at once with `snd_pcm_drop` and prepares it again with `snd_pcm_prepare`.
/// `waitForPlayout` starts a device that is still waiting for its start threshold, then polls
/// the delay in short steps, so the engine can still abort. `pause` holds a running device with
/// `snd_pcm_pause`, which keeps its buffer, when the device can pause; one that cannot plays out
/// the buffer it holds (about 25 ms) and then waits for the writes to continue.
///
/// A device that fails beyond recovery (unplugged) makes the current utterance fail with a
/// message; the next `begin` reopens it.
public final class ALSAAudioOutput: AudioOutput {
    /// The PCM name.
    public let device: String

    /// The latency asked of `snd_pcm_set_params`: the buffer length.
    static let latency: Duration = .milliseconds(25)

    private var pcm: OpaquePointer?
    private var sampleRate = 22_050
    private var writtenFrames = 0
    private var lastPlayed = 0
    /// The speech thread's abort for the current utterance: ends the playout polls at once.
    private var abortSignal = UtteranceAbortSignal.none
    private var stoppedFrames: Int?
    /// Whether the device supports `snd_pcm_pause`.
    private var canPause = false
    /// Whether `pause` paused the device.
    private var paused = false

    /// Opens `device` for playback at `sampleRate`.
    /// - Throws: `SpeechSynthesisError` naming the device and libasound's error when the device
    ///   cannot be opened or does not take 16-bit mono audio at that rate.
    public init(device: String = "default", sampleRate: Int = 22_050) throws {
        self.device = device
        try open(sampleRate: sampleRate)
    }

    deinit {
        if let pcm { snd_pcm_close(pcm) }
    }

    /// `alsa:` followed by the device name.
    public var description: String { "alsa:\(device)" }

    // MARK: - AudioOutput

    /// Starts an utterance, reopening the device when it failed or the rate changed.
    /// - Throws: `SpeechSynthesisError` when the device cannot be opened.
    public func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        self.abortSignal = abortSignal
        if pcm == nil || self.sampleRate != sampleRate {
            try open(sampleRate: sampleRate)
        } else if let pcm, snd_pcm_state(pcm) != SND_PCM_STATE_PREPARED {
            snd_pcm_drop(pcm)
            let status = snd_pcm_prepare(pcm)
            if status < 0 { try open(sampleRate: sampleRate) }
        }
        writtenFrames = 0
        lastPlayed = 0
        stoppedFrames = nil
        paused = false
    }

    /// Writes `samples`, blocking while the buffer is full and recovering from underruns.
    /// - Throws: `SpeechSynthesisError` when the device fails beyond recovery.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard var next = samples.baseAddress, !samples.isEmpty else { return }
        guard let pcm else { throw failure("is closed", code: -EBADFD) }
        var remaining = samples.count
        while remaining > 0 {
            let written = snd_pcm_writei(pcm, next, snd_pcm_uframes_t(remaining))
            if written >= 0 {
                remaining -= written
                next += written
                continue
            }
            let recovered = snd_pcm_recover(pcm, Int32(written), 1)
            if recovered < 0 {
                close()
                throw failure("failed while playing", code: recovered)
            }
        }
        writtenFrames += samples.count
    }

    /// The frames of the current utterance played so far: written minus the device's delay.
    public var playedFrames: Int {
        if let stoppedFrames { return stoppedFrames }
        guard let pcm else { return lastPlayed }
        var delay: snd_pcm_sframes_t = 0
        let queued: Int
        if snd_pcm_delay(pcm, &delay) < 0 {
            // An underrun (or a stopped device): nothing is queued any more.
            queued = 0
        } else {
            queued = max(0, delay)
        }
        lastPlayed = max(lastPlayed, min(writtenFrames, max(0, writtenFrames - queued)))
        return lastPlayed
    }

    /// Starts the device if it still waits for its start threshold, then polls the delay until
    /// everything written has played or `timeout` passed.
    public func waitForPlayout(timeout: Duration) throws -> Bool {
        if stoppedFrames != nil || writtenFrames == 0 { return true }
        guard let pcm else { throw failure("is closed", code: -EBADFD) }
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
            let status = snd_pcm_start(pcm)
            if status < 0 {
                close()
                throw failure("could not start playback", code: status)
            }
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while playedFrames < writtenFrames {
            let now = clock.now
            guard now < deadline else { return false }
            // An abort ends the wait at once; the engine then discards what is left.
            guard
                sleepOnePlayoutStep(
                    unplayedFrames: writtenFrames - lastPlayed, sampleRate: sampleRate, deadline: deadline,
                    abortSignal: abortSignal)
            else {
                return false
            }
        }
        return true
    }

    /// Holds a running device where it is (`snd_pcm_pause`), when the device can pause.
    public func pause() {
        guard !paused, stoppedFrames == nil, canPause, let pcm, snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else {
            return
        }
        paused = snd_pcm_pause(pcm, 1) >= 0
    }

    /// Lets a paused device play on from where it stopped.
    public func resume() {
        guard paused, let pcm else { return }
        paused = false
        if snd_pcm_pause(pcm, 0) < 0 {
            // The device lost its state while paused: start over with what is written next.
            snd_pcm_drop(pcm)
            if snd_pcm_prepare(pcm) < 0 { close() }
        }
    }

    /// Stops the device at once (`snd_pcm_drop`) and prepares it for the next utterance.
    public func discard() {
        guard stoppedFrames == nil else { return }
        stoppedFrames = playedFrames
        paused = false
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        if snd_pcm_prepare(pcm) < 0 { close() }
    }

    /// Ends the utterance: stops the (drained) device so the next one starts cleanly.
    public func end() throws {
        guard let pcm else { return }
        snd_pcm_drop(pcm)
        if snd_pcm_prepare(pcm) < 0 { close() }
    }

    /// Closes the device between utterances (through ALSA's pulse plugin it is a sound server's
    /// stream, which keeps a main loop waking while open; a hardware device is free for others
    /// meanwhile); the next `begin` opens it again.
    public func rest() {
        close()
    }

    /// Opens the device again after `rest`, at the last rate, while the first audio is synthesized.
    public func wake() {
        guard pcm == nil else { return }
        try? open(sampleRate: sampleRate)
    }

    // MARK: - Device

    private func open(sampleRate: Int) throws {
        // libasound is loaded on the first open, once per process (`CALSA`).
        if let reason = CALSA_load() {
            throw SpeechSynthesisError(
                "the ALSA output cannot start: libasound cannot be loaded (\(String(cString: reason))); install "
                    + "Debian's libasound2, or choose another output with --audio (pulse, null, or wav:DIR to record)."
            )
        }
        close()
        var opened: OpaquePointer?
        var status = snd_pcm_open(&opened, device, SND_PCM_STREAM_PLAYBACK, 0)
        guard status >= 0, let opened else {
            throw failure("cannot be opened", code: status)
        }
        let latency = UInt32(VirtualPlaybackClock.seconds(Self.latency) * 1e6)
        status = snd_pcm_set_params(
            opened, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1, UInt32(sampleRate), 1, latency)
        guard status >= 0 else {
            snd_pcm_close(opened)
            throw failure("does not take 16-bit mono audio at \(sampleRate) Hz", code: status)
        }
        // Start at one period instead of a full buffer.
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        var swParams: OpaquePointer?
        if snd_pcm_get_params(opened, &bufferSize, &periodSize) >= 0, periodSize > 0,
            snd_pcm_sw_params_malloc(&swParams) >= 0, let swParams
        {
            defer { snd_pcm_sw_params_free(swParams) }
            if snd_pcm_sw_params_current(opened, swParams) >= 0,
                snd_pcm_sw_params_set_start_threshold(opened, swParams, periodSize) >= 0
            {
                _ = snd_pcm_sw_params(opened, swParams)
            }
        }
        canPause = Self.canPause(opened)
        pcm = opened
        self.sampleRate = sampleRate
    }

    private func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
        paused = false
    }

    /// Whether the opened device supports `snd_pcm_pause`.
    private static func canPause(_ pcm: OpaquePointer) -> Bool {
        var parameters: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&parameters) >= 0, let parameters else { return false }
        defer { snd_pcm_hw_params_free(parameters) }
        return snd_pcm_hw_params_current(pcm, parameters) >= 0 && snd_pcm_hw_params_can_pause(parameters) != 0
    }

    /// An error naming the device and libasound's reason. A device that failed is closed by the
    /// caller, so that the next utterance reopens it.
    private func failure(_ what: String, code: Int32) -> SpeechSynthesisError {
        let reason = snd_strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return SpeechSynthesisError(
            "the ALSA device '\(device)' \(what): \(reason). Check `aplay -L` for the devices there are "
                + "and name one with --audio alsa:DEVICE, or choose another output with --audio "
                + "(pulse, null, or wav:DIR to record)."
        )
    }
}
