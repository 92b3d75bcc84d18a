// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio
import Glibc

/// The `pulse` output: a playback stream on a PulseAudio server (or PipeWire's PulseAudio server)
/// through libpulse (`PulseAudioStream`).
///
/// ## Buffering
/// The stream asks for these buffer attributes (at 22050 Hz mono, 1 ms is 44.1 bytes):
/// - `tlength` 25 ms: the whole latency the server aims at, its own buffer plus the device's
///   (the stream connects with `PA_STREAM_ADJUST_LATENCY`). 25 ms keeps the engine close to the
///   listener, so an utterance's events keep up with what is heard (a flush or a cork is heard
///   within a few milliseconds whatever the length). Going lower buys little that anyone hears
///   and makes underruns likelier under PipeWire, whose default quantum is 1024 frames at 48 kHz
///   (21 ms).
/// - `minreq` 5 ms: the server asks for more audio in 5 ms steps, the size of the engine's slices,
///   so a write blocks at most about one slice and the engine stays within 25 ms of the listener.
/// - `prebuf` 5 ms: playback starts once one slice is queued (the default, the whole `tlength`,
///   would delay the start by 25 ms). After an underrun the server waits for `prebuf` again, so
///   the end of every utterance is padded with `prebuf` of silence: a tail shorter than `prebuf`
///   would otherwise never start.
/// - `maxlength` the server's default; `write` blocks long before it matters.
///
/// ## Played frames, pauses and interruptions
/// `playedFrames` is the frames written minus the stream's latency (its queued audio plus the
/// device's), never decreasing. `discard` notes that figure and flushes the stream: the server
/// drops the queue, takes back what the sink had already mixed of it, and the stream falls silent
/// within a few milliseconds. `pause` corks the stream, which falls silent as fast and keeps its
/// place (the server takes back what the sink had mixed and plays it after `resume`), so nothing
/// is lost and nothing heard twice. `waitForPlayout` polls the latency in steps no longer than its
/// timeout, so the engine can still abort; it never drains the stream, which cannot be
/// interrupted. What was queued at the first poll has played, in real time, by the reported
/// latency later (counted again after a pause): after an underrun the server may go on reporting
/// the sink's latency for a stream with nothing left, so that bound ends the
/// wait.
///
/// ## Losing the server
/// When the server goes away (restarted, crashed), the current utterance's `write` or
/// `waitForPlayout` throws, so that utterance fails with a message, and the connection is marked
/// broken. The next `begin` reconnects (also when libpulse has seen the connection or the stream
/// fail in the meantime), so the following utterance plays as soon as a server answers again.
public final class PulseAudioOutput: AudioOutput {
    /// The server address given, or nil for libpulse's default (`PULSE_SERVER`, then the
    /// session's server).
    public let server: String?
    /// The sink given, or nil for the server's default sink.
    public let sink: String?

    /// The buffer attributes, as durations.
    static let targetLength: Duration = .milliseconds(25)
    static let minimumRequest: Duration = .milliseconds(5)
    static let prebuffer: Duration = .milliseconds(5)

    private var connection: PulseAudioStream?
    /// Whether `pause` corked the stream.
    private var corked = false
    private var sampleRate = 22_050
    /// Frames written in the current utterance (not counting the trailing pad).
    private var writtenFrames = 0
    /// Silence frames written after the utterance to start a tail shorter than `prebuf`.
    private var paddingFrames = 0
    private var padded = false
    /// The highest played figure seen: latency estimates can jitter backwards.
    private var lastPlayed = 0
    /// The speech thread's abort for the current utterance: ends the playout polls at once.
    private var abortSignal = UtteranceAbortSignal.none
    /// Set by `discard`: the frames played when the queue was flushed.
    private var stoppedFrames: Int?
    /// When everything queued at the first latency reading of `waitForPlayout` has played in
    /// real time, at the latest. After an underrun the server can keep reporting the sink's
    /// latency for a stream that has nothing left, so the estimate alone may never reach the end.
    private var playoutDeadline: ContinuousClock.Instant?

    /// Connects to the server and opens a stream at `sampleRate`, checking that PulseAudio
    /// answers.
    /// - Parameters:
    ///   - server: a server address (`unix:/run/user/1000/pulse/native`, `tcp:host`), or nil for
    ///     libpulse's default.
    ///   - sink: a sink name, or nil for the default sink.
    ///   - sampleRate: the rate to open with; `begin` reopens when an utterance has another.
    /// - Throws: `SpeechSynthesisError` naming the server and libpulse's error when no server
    ///   answers or the stream cannot be created.
    public init(server: String? = nil, sink: String? = nil, sampleRate: Int = 22_050) throws {
        self.server = server
        self.sink = sink
        try connect(sampleRate: sampleRate)
    }

    /// `pulse`, with the server and sink when they were given.
    public var description: String {
        var text = "pulse"
        if let server { text += " server=\(server)" }
        if let sink { text += " sink=\(sink)" }
        return text
    }

    /// The server as a person would name it in a message.
    public var serverDescription: String {
        if let server { return "the PulseAudio server at \(server)" }
        if let variable = getenv("PULSE_SERVER"), case let fromEnvironment = String(cString: variable),
            !fromEnvironment.isEmpty
        {
            return "the PulseAudio server at \(fromEnvironment) (PULSE_SERVER)"
        }
        return "the default PulseAudio server"
    }

    // MARK: - AudioOutput

    /// Starts an utterance, reconnecting first when the server went away or the rate changed.
    /// - Throws: `SpeechSynthesisError` when no server answers.
    public func begin(seq: UInt64, sampleRate: Int, abortSignal: UtteranceAbortSignal) throws {
        self.abortSignal = abortSignal
        if connection?.isAlive != true || self.sampleRate != sampleRate {
            try connect(sampleRate: sampleRate)
        } else if corked {
            uncork()
        }
        writtenFrames = 0
        paddingFrames = 0
        padded = false
        lastPlayed = 0
        stoppedFrames = nil
        playoutDeadline = nil
    }

    /// Sends `samples` to the server; blocks while the stream's buffer is full.
    /// - Throws: `SpeechSynthesisError` when the connection to the server is lost.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        let connection = try liveConnection()
        do {
            try connection.write(UnsafeRawBufferPointer(samples))
        } catch {
            throw lostConnection(error, while: "playing")
        }
        writtenFrames += samples.count
    }

    /// The frames of the current utterance played so far: written minus the stream's latency.
    public var playedFrames: Int {
        if let stoppedFrames { return stoppedFrames }
        guard let connection, let latency = latencyFrames(connection) else { return lastPlayed }
        let played = min(writtenFrames, max(0, writtenFrames + paddingFrames - latency))
        lastPlayed = max(lastPlayed, played)
        return lastPlayed
    }

    /// Polls the latency until everything written has played or `timeout` passed.
    /// - Throws: `SpeechSynthesisError` when the connection to the server is lost.
    public func waitForPlayout(timeout: Duration) throws -> Bool {
        if stoppedFrames != nil || writtenFrames == 0 { return true }
        let connection = try liveConnection()
        if !padded {
            padded = true
            try writePadding(connection)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let latency: UInt64
            do {
                latency = try connection.latency()
            } catch {
                throw lostConnection(error, while: "waiting for the audio to play")
            }
            let queued = frames(microseconds: latency)
            let played = min(writtenFrames, max(0, writtenFrames + paddingFrames - queued))
            lastPlayed = max(lastPlayed, played)
            if lastPlayed >= writtenFrames { return true }
            if playoutDeadline == nil {
                playoutDeadline = clock.now + .microseconds(Int64(latency)) + .milliseconds(2)
            }
            let now = clock.now
            if let playoutDeadline, now >= playoutDeadline {
                lastPlayed = writtenFrames
                return true
            }
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
    }

    /// Flushes the audio the server has not played yet (and lets a paused stream go, so the
    /// next utterance plays).
    public func discard() {
        guard stoppedFrames == nil else { return }
        let played = playedFrames
        stoppedFrames = played
        guard let connection else { return }
        do {
            try connection.flush()
        } catch {
            // The server is gone; `begin` reconnects.
            close()
            return
        }
        if corked { uncork() }
    }

    /// Corks the stream: silent within a few milliseconds, with its place kept.
    public func pause() {
        guard !corked, stoppedFrames == nil, let connection else { return }
        do {
            try connection.setCorked(true)
            corked = true
        } catch {
            // The server is gone: the next write or wait reports it, `begin` reconnects.
            close()
        }
    }

    /// Uncorks the stream: it plays on from the next unplayed sample.
    public func resume() {
        guard corked else { return }
        uncork()
        // What was queued when playout was first polled has not played during the pause.
        playoutDeadline = nil
    }

    /// Ends the utterance. The stream stays open for the next one, until `rest`.
    public func end() throws {}

    /// Closes the connection to the server, whose main loop would otherwise keep waking to update
    /// the stream's timing while nothing plays; the next `begin` connects again.
    public func rest() {
        close()
    }

    /// Connects again after `rest`, at the last rate, while the first audio is synthesized.
    public func wake() {
        guard connection == nil else { return }
        try? connect(sampleRate: sampleRate)
    }

    // MARK: - Connection

    private func uncork() {
        corked = false
        do {
            try connection?.setCorked(false)
        } catch {
            close()
        }
    }

    private func connect(sampleRate: Int) throws {
        close()
        let bytesPerFrame = MemoryLayout<Int16>.size
        func bytes(_ duration: Duration) -> UInt32 {
            UInt32(max(1, frames(in: duration, rate: sampleRate)) * bytesPerFrame)
        }
        let attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: bytes(Self.targetLength),
            prebuf: bytes(Self.prebuffer),
            minreq: bytes(Self.minimumRequest),
            fragsize: UInt32.max
        )
        do {
            connection = try PulseAudioStream(
                server: server, sink: sink, sampleRate: sampleRate, attributes: attributes)
        } catch {
            throw SpeechSynthesisError(
                "cannot play through \(serverDescription)\(sink.map { " (sink \($0))" } ?? ""): "
                    + "\(Self.describe(error)). Check that PulseAudio or PipeWire is running (`pactl info`), "
                    + "or choose another output with --audio (alsa, null, or wav:DIR to record)."
            )
        }
        self.sampleRate = sampleRate
    }

    private func close() {
        connection = nil
        corked = false
    }

    private func liveConnection() throws -> PulseAudioStream {
        guard let connection else {
            throw SpeechSynthesisError(
                "the connection to \(serverDescription) was lost; the next announcement reconnects. "
                    + "Check that the sound server is running (`pactl info`)."
            )
        }
        return connection
    }

    /// Closes the broken connection and describes the failure.
    private func lostConnection(_ error: any Error, while activity: String) -> SpeechSynthesisError {
        close()
        return SpeechSynthesisError(
            "lost the connection to \(serverDescription) while \(activity): \(Self.describe(error)). "
                + "The next announcement reconnects; check that the sound server is running (`pactl info`)."
        )
    }

    /// Writes `prebuf` of silence after the utterance, so a tail shorter than `prebuf` that
    /// follows an underrun still starts.
    private func writePadding(_ connection: PulseAudioStream) throws {
        let count = max(1, frames(in: Self.prebuffer, rate: sampleRate))
        let silence = [Int16](repeating: 0, count: count)
        do {
            try silence.withUnsafeBytes { try connection.write($0) }
        } catch {
            throw lostConnection(error, while: "playing")
        }
        paddingFrames = count
    }

    private func latencyFrames(_ connection: PulseAudioStream) -> Int? {
        guard let latency = try? connection.latency() else { return nil }
        return frames(microseconds: latency)
    }

    private func frames(microseconds: UInt64) -> Int {
        Int((Double(microseconds) * Double(sampleRate) / 1e6).rounded())
    }

    private func frames(in duration: Duration, rate: Int) -> Int {
        VirtualPlaybackClock.frames(in: duration, rate: rate)
    }

    /// libpulse's words for a failure.
    static func describe(_ error: any Error) -> String {
        guard let failure = error as? PulseAudioFailure else { return "\(error)" }
        return errorText(failure.code)
    }

    static func errorText(_ error: Int32) -> String {
        guard let text = pa_strerror(error) else { return "error \(error)" }
        return String(cString: text)
    }
}
