import CPulseSimple
import Glibc

/// The `pulse` output: a playback stream on a PulseAudio server (or PipeWire's PulseAudio server)
/// through libpulse-simple.
///
/// ## Buffering
/// The stream asks for these buffer attributes (at 22050 Hz mono, 1 ms is 44.1 bytes):
/// - `tlength` 25 ms: the whole latency the server aims at, its own buffer plus the device's
///   (libpulse-simple connects with `PA_STREAM_ADJUST_LATENCY`). 25 ms keeps an interruption
///   short: what is already queued plays out within one buffer after `pa_simple_flush`. Going
///   lower buys little that anyone hears and makes underruns likelier under PipeWire, whose
///   default quantum is 1024 frames at 48 kHz (21 ms).
/// - `minreq` 5 ms: the server asks for more audio in 5 ms steps, the size of the engine's slices,
///   so `pa_simple_write` blocks at most about one slice and the engine stays within 25 ms of the
///   listener.
/// - `prebuf` 5 ms: playback starts once one slice is queued (the default, the whole `tlength`,
///   would delay the start by 25 ms). After an underrun the server waits for `prebuf` again, so
///   the end of every utterance is padded with `prebuf` of silence: a tail shorter than `prebuf`
///   would otherwise never start.
/// - `maxlength` the server's default; `write` blocks long before it matters.
///
/// ## Played frames and interruptions
/// `playedFrames` is the frames written minus `pa_simple_get_latency` (the stream's queued audio
/// plus the device's), never decreasing. `discard` notes that figure and calls
/// `pa_simple_flush`: the server drops the queue and the stream falls silent within a few
/// milliseconds. `waitForPlayout` polls the latency in steps no longer than its timeout, so the
/// engine can still abort; it never calls `pa_simple_drain`, which cannot be interrupted. What
/// was queued at the first poll has played, in real time, by the reported latency later: after
/// an underrun the server may go on reporting the sink's latency (about 7 ms here) for a stream
/// with nothing left, so that bound ends the wait.
///
/// ## Losing the server
/// When the server goes away (restarted, crashed), the current utterance's `write` or
/// `waitForPlayout` throws, so that utterance fails with a message, and the connection is marked
/// broken. The next `begin` reconnects (it also probes a connection that looks healthy), so the
/// following utterance plays as soon as a server answers again.
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

    private var connection: OpaquePointer?
    private var sampleRate = 22_050
    /// Frames written in the current utterance (not counting the trailing pad).
    private var writtenFrames = 0
    /// Silence frames written after the utterance to start a tail shorter than `prebuf`.
    private var paddingFrames = 0
    private var padded = false
    /// The highest played figure seen: latency estimates can jitter backwards.
    private var lastPlayed = 0
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

    deinit {
        if let connection { pa_simple_free(connection) }
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
        if let variable = getenv("PULSE_SERVER"), case let fromEnvironment = String(cString: variable), !fromEnvironment.isEmpty {
            return "the PulseAudio server at \(fromEnvironment) (PULSE_SERVER)"
        }
        return "the default PulseAudio server"
    }

    // MARK: - AudioOutput

    /// Starts an utterance, reconnecting first when the server went away or the rate changed.
    /// - Throws: `SpeechSynthesisError` when no server answers.
    public func begin(seq: UInt64, sampleRate: Int) throws {
        if connection == nil || self.sampleRate != sampleRate || !isConnectionAlive() {
            try connect(sampleRate: sampleRate)
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
        guard !samples.isEmpty, let base = samples.baseAddress else { return }
        let connection = try liveConnection()
        var error: Int32 = 0
        if pa_simple_write(connection, base, samples.count * MemoryLayout<Int16>.size, &error) < 0 {
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
            var error: Int32 = 0
            let latency = pa_simple_get_latency(connection, &error)
            if latency == UInt64.max || error != 0 {
                if error == Int32(PA_ERR_NODATA.rawValue) {
                    // No timing information yet: look again shortly.
                } else {
                    throw lostConnection(error, while: "waiting for the audio to play")
                }
            } else {
                let queued = frames(microseconds: latency)
                let played = min(writtenFrames, max(0, writtenFrames + paddingFrames - queued))
                lastPlayed = max(lastPlayed, played)
                if lastPlayed >= writtenFrames { return true }
                if playoutDeadline == nil {
                    playoutDeadline = clock.now + .microseconds(Int64(latency)) + .milliseconds(2)
                }
            }
            let now = clock.now
            if let playoutDeadline, now >= playoutDeadline {
                lastPlayed = writtenFrames
                return true
            }
            guard now < deadline else { return false }
            // An abort ends the wait at once; the engine then discards what is left.
            guard sleepOnePlayoutStep(unplayedFrames: writtenFrames - lastPlayed, sampleRate: sampleRate, deadline: deadline) else {
                return false
            }
        }
    }

    /// Flushes the audio the server has not played yet.
    public func discard() {
        guard stoppedFrames == nil else { return }
        let played = playedFrames
        stoppedFrames = played
        guard let connection else { return }
        var error: Int32 = 0
        if pa_simple_flush(connection, &error) < 0 {
            // The server is gone; `begin` reconnects.
            close()
        }
    }

    /// Ends the utterance. The stream stays open for the next one.
    public func end() throws {}

    // MARK: - Connection

    private func connect(sampleRate: Int) throws {
        close()
        let bytesPerFrame = MemoryLayout<Int16>.size
        func bytes(_ duration: Duration) -> UInt32 {
            UInt32(max(1, frames(in: duration, rate: sampleRate)) * bytesPerFrame)
        }
        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        var attributes = pa_buffer_attr(
            maxlength: UInt32.max,
            tlength: bytes(Self.targetLength),
            prebuf: bytes(Self.prebuffer),
            minreq: bytes(Self.minimumRequest),
            fragsize: UInt32.max
        )
        var error: Int32 = 0
        let opened = pa_simple_new(server, "announced", PA_STREAM_PLAYBACK, sink, "announcements", &spec, nil, &attributes, &error)
        guard let opened else {
            throw SpeechSynthesisError(
                "cannot play through \(serverDescription)\(sink.map { " (sink \($0))" } ?? ""): "
                    + "\(Self.errorText(error)). Check that PulseAudio or PipeWire is running (`pactl info`), "
                    + "or choose another output with --audio (alsa, null, or wav:DIR to record)."
            )
        }
        connection = opened
        self.sampleRate = sampleRate
    }

    private func close() {
        if let connection { pa_simple_free(connection) }
        connection = nil
    }

    /// Whether the server still answers: libpulse reports a dead context on any call.
    private func isConnectionAlive() -> Bool {
        guard let connection else { return false }
        var error: Int32 = 0
        let latency = pa_simple_get_latency(connection, &error)
        return !(latency == UInt64.max || error != 0) || error == Int32(PA_ERR_NODATA.rawValue)
    }

    private func liveConnection() throws -> OpaquePointer {
        guard let connection else {
            throw SpeechSynthesisError(
                "the connection to \(serverDescription) was lost; the next announcement reconnects. "
                    + "Check that the sound server is running (`pactl info`)."
            )
        }
        return connection
    }

    /// Closes the broken connection and describes the failure.
    private func lostConnection(_ error: Int32, while activity: String) -> SpeechSynthesisError {
        close()
        return SpeechSynthesisError(
            "lost the connection to \(serverDescription) while \(activity): \(Self.errorText(error)). "
                + "The next announcement reconnects; check that the sound server is running (`pactl info`)."
        )
    }

    /// Writes `prebuf` of silence after the utterance, so a tail shorter than `prebuf` that
    /// follows an underrun still starts.
    private func writePadding(_ connection: OpaquePointer) throws {
        let count = max(1, frames(in: Self.prebuffer, rate: sampleRate))
        let silence = [Int16](repeating: 0, count: count)
        var error: Int32 = 0
        let result = silence.withUnsafeBytes { pa_simple_write(connection, $0.baseAddress, $0.count, &error) }
        if result < 0 { throw lostConnection(error, while: "playing") }
        paddingFrames = count
    }

    private func latencyFrames(_ connection: OpaquePointer) -> Int? {
        var error: Int32 = 0
        let latency = pa_simple_get_latency(connection, &error)
        guard latency != UInt64.max, error == 0 else { return nil }
        return frames(microseconds: latency)
    }

    private func frames(microseconds: UInt64) -> Int {
        Int((Double(microseconds) * Double(sampleRate) / 1e6).rounded())
    }

    private func frames(in duration: Duration, rate: Int) -> Int {
        VirtualPlaybackClock.frames(in: duration, rate: rate)
    }

    static func errorText(_ error: Int32) -> String {
        guard let text = pa_strerror(error) else { return "error \(error)" }
        return String(cString: text)
    }
}
