// SPDX-License-Identifier: GPL-3.0-or-later
import CPulseAudio

/// A failed libpulse call: the error code libpulse gave (`pa_strerror` describes it).
struct PulseAudioFailure: Error {
    let code: Int32
}

/// libpulse could not be opened: it is loaded only when an output or ducking first needs it
/// (`CPulseAudio`), so a system without it fails here, in these words.
struct PulseAudioLibraryUnavailable: Error, CustomStringConvertible {
    /// dlopen's or dlsym's words.
    let reason: String

    var description: String { "libpulse cannot be loaded (\(reason)); install Debian's libpulse0" }

    /// Loads libpulse, once per process.
    static func load() throws(PulseAudioLibraryUnavailable) {
        if let reason = CPulseAudio_load() { throw PulseAudioLibraryUnavailable(reason: String(cString: reason)) }
    }
}

/// One playback stream on a PulseAudio server, through libpulse's asynchronous API driven by a
/// threaded main loop, with blocking calls for the speech thread: connect, write (waiting for
/// room), latency, flush, cork and uncork.
///
/// libpulse-simple offers the same blocking calls on the same API, except cork: a corked stream
/// stops at once and keeps its place (the server rewinds the sink to take back what it had
/// already mixed of the stream, so nothing of it is lost), and uncorking plays on from the next
/// unplayed sample. That is what `pause` needs, so this type does what libpulse-simple does
/// (its `simple.c`: the same stream flags and waits), plus `setCorked`.
///
/// Every call takes the main loop's lock; the callbacks only wake the waiting caller. Used by one
/// thread at a time (the speech thread).
final class PulseAudioStream {
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var mainloopStarted = false

    /// Connects to `server` (nil: libpulse's default) and opens a playback stream of signed
    /// 16-bit mono at `sampleRate` on `sink` (nil: the default sink) with `attributes`.
    /// - Throws: `PulseAudioLibraryUnavailable` without libpulse, `PulseAudioFailure` when no
    ///   server answers or the stream cannot be created.
    init(server: String?, sink: String?, sampleRate: Int, attributes: pa_buffer_attr) throws {
        try PulseAudioLibraryUnavailable.load()
        guard let mainloop = pa_threaded_mainloop_new() else {
            throw PulseAudioFailure(code: Int32(PA_ERR_INTERNAL.rawValue))
        }
        self.mainloop = mainloop
        let wake = UnsafeMutableRawPointer(mainloop)
        guard let context = pa_context_new(pa_threaded_mainloop_get_api(mainloop), "announced") else {
            throw PulseAudioFailure(code: Int32(PA_ERR_INTERNAL.rawValue))
        }
        self.context = context
        pa_context_set_state_callback(
            context, { _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) }, wake)
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw PulseAudioFailure(code: Int32(PA_ERR_INTERNAL.rawValue))
        }
        mainloopStarted = true

        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard pa_context_connect(context, server, PA_CONTEXT_NOFLAGS, nil) >= 0 else {
            throw PulseAudioFailure(code: pa_context_errno(context))
        }
        try waitForState(PA_CONTEXT_READY, failed: [PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED]) {
            pa_context_get_state(context)
        }

        var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sampleRate), channels: 1)
        guard let stream = pa_stream_new(context, "announcements", &spec, nil) else {
            throw PulseAudioFailure(code: pa_context_errno(context))
        }
        self.stream = stream
        pa_stream_set_state_callback(
            stream, { _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) }, wake)
        pa_stream_set_write_callback(
            stream, { _, _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) }, wake)
        pa_stream_set_latency_update_callback(
            stream, { _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) }, wake)
        var attributes = attributes
        let flags = pa_stream_flags_t(
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
        )
        guard pa_stream_connect_playback(stream, sink, &attributes, flags, nil, nil) >= 0 else {
            throw PulseAudioFailure(code: pa_context_errno(context))
        }
        try waitForState(PA_STREAM_READY, failed: [PA_STREAM_FAILED, PA_STREAM_TERMINATED]) {
            pa_stream_get_state(stream)
        }
    }

    deinit {
        // As pa_simple_free: stop the loop, then let go of the stream and the context.
        if mainloopStarted { pa_threaded_mainloop_stop(mainloop) }
        if let stream { pa_stream_unref(stream) }
        if let context {
            pa_context_disconnect(context)
            pa_context_unref(context)
        }
        pa_threaded_mainloop_free(mainloop)
    }

    /// Whether the connection and the stream are still up (the main loop notices a server that
    /// went away at once).
    var isAlive: Bool {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return liveStream() != nil
    }

    /// Queues `bytes`, waiting while the stream's buffer is full (the server asks for more as it
    /// plays). Never call it on a corked stream with a full buffer: it would wait until uncorked.
    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        var offset = 0
        while offset < bytes.count {
            let stream = try checkedStream()
            let writable = pa_stream_writable_size(stream)
            if writable == -1 { throw failure() }
            if writable == 0 {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            let length = min(writable, bytes.count - offset)
            guard pa_stream_write(stream, base + offset, length, nil, 0, PA_SEEK_RELATIVE) >= 0 else { throw failure() }
            offset += length
        }
    }

    /// The stream's latency in microseconds: its queued audio plus the device's. Waits for the
    /// first timing information after connecting.
    func latency() throws -> UInt64 {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        while true {
            let stream = try checkedStream()
            var microseconds: pa_usec_t = 0
            var negative: Int32 = 0
            if pa_stream_get_latency(stream, &microseconds, &negative) >= 0 { return negative != 0 ? 0 : microseconds }
            guard pa_context_errno(context) == Int32(PA_ERR_NODATA.rawValue) else { throw failure() }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Drops everything queued and not yet played, including what the sink already mixed.
    func flush() throws {
        try complete { stream, wake in
            pa_stream_flush(stream, { _, _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) }, wake)
        }
    }

    /// Corks the stream (it falls silent at once and keeps its place: the server takes back what
    /// the sink had mixed of it) or uncorks it (it plays on from the next unplayed sample).
    func setCorked(_ corked: Bool) throws {
        try complete { stream, wake in
            pa_stream_cork(
                stream, corked ? 1 : 0, { _, _, mainloop in pa_threaded_mainloop_signal(OpaquePointer(mainloop), 0) },
                wake)
        }
    }

    /// Starts an operation and waits until the server has done it.
    private func complete(_ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?) throws {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        guard let operation = start(try checkedStream(), UnsafeMutableRawPointer(mainloop)) else { throw failure() }
        defer { pa_operation_unref(operation) }
        while pa_operation_get_state(operation) == PA_OPERATION_RUNNING {
            _ = try checkedStream()
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// Waits on the main loop until `state()` reads `ready` (the context's or the stream's);
    /// throws the connection's error once it reads one of `failed`. Call with the lock held.
    private func waitForState<State: Equatable>(_ ready: State, failed: [State], _ state: () -> State) throws {
        while true {
            let current = state()
            if current == ready { return }
            if failed.contains(current) { throw failure() }
            pa_threaded_mainloop_wait(mainloop)
        }
    }

    /// The stream when it and the connection are up; call with the lock held.
    private func liveStream() -> OpaquePointer? {
        guard let context, let stream, pa_context_get_state(context) == PA_CONTEXT_READY,
            pa_stream_get_state(stream) == PA_STREAM_READY
        else { return nil }
        return stream
    }

    private func checkedStream() throws -> OpaquePointer {
        guard let stream = liveStream() else { throw failure() }
        return stream
    }

    /// The connection's last error; "connection terminated" when it has none.
    private func failure() -> PulseAudioFailure {
        let code = context.map { pa_context_errno($0) } ?? 0
        return PulseAudioFailure(code: code != 0 ? code : Int32(PA_ERR_CONNECTIONTERMINATED.rawValue))
    }
}
