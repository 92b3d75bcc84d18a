// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import CPulseAudio
import Glibc
public import Logging
import Synchronization

/// Lowers other applications' playback while announced speaks ("ducking"), through PulseAudio or
/// PipeWire's pulse server: every sink input that is not announced's own is turned down by
/// ``decibels`` when an utterance begins, and turned back up ``hold`` after the last one ended
/// (so that back-to-back posts do not pump the music up and down between them).
///
/// ## The user's change wins
/// The ducker follows every sink input's changes. A lowered stream whose volume changes to
/// something other than what announced set is forgotten: it is never restored over the user's
/// choice. A stream that appears while ducking is lowered too, and restored with the others.
///
/// ## Exits and crashes
/// A daemon that exits restores everything first (``restoreBeforeExit(timeout:)``). Before
/// lowering a stream, its identity and volume are written to ``DuckedStreamsFile`` (mode 0600);
/// the file is removed once every lowered stream is restored. A daemon that starts (or
/// reconnects) and finds the file restores each stream it names whose volume is still the one
/// announced set.
///
/// ## Threads
/// Its own libpulse threaded main loop does all the work; every piece of the ducker's state below
/// the atomic counter is touched only on that loop's thread, or with the loop's lock held (in
/// `init` before the loop runs, and in `restoreBeforeExit`).
/// The speech thread's calls only count utterances and raise a ``WakeSignal`` the loop watches,
/// so speaking never waits for the ducker or the sound server.
// Unchecked: its state is touched on its main loop's thread or under the loop's lock; others use the atomic and the signal.
public final class PulseAudioDucker: SpeechActivityObserver, @unchecked Sendable {
    /// How long after the last utterance the streams stay lowered.
    public static let hold: Duration = .milliseconds(500)

    /// How far other streams are lowered, in decibels (negative).
    public let decibels: Int
    private let server: String?
    private let logger: Logger
    private let file: DuckedStreamsFile
    /// Utterances playing: raised and lowered by the speech thread.
    private let speaking = Atomic<Int>(0)
    /// Raised by the speech thread's calls; the loop's I/O watch clears it and reconciles.
    private let wakeSignal: WakeSignal
    private let mainloop: OpaquePointer
    private let ownProcessID = String(getpid())

    // The loop thread's state.
    private var context: OpaquePointer?
    private var ready = false
    private var ducking = false
    private var holdTimer: OpaquePointer?
    /// The streams lowered and still at announced's volume, by index.
    private var lowered: [UInt32: DuckedStream] = [:]
    /// For each lowered stream, the request number of the volume change: information asked for
    /// before it (the server answers in order) shows the old volume and is not the user's change.
    private var loweredAt: [UInt32: UInt64] = [:]
    /// Streams being turned back up, until the server confirms.
    private var restoring: [UInt32: DuckedStream] = [:]
    /// Streams the user changed during this ducking: not lowered again until it ends.
    private var released: Set<UInt32> = []
    /// Streams from the file still being looked at (nothing is lowered until they are done).
    private var leftoversPending = 0
    private var requestNumber: UInt64 = 0
    /// Whether the last failure to reach the server was logged (once until it answers again).
    private var failureLogged = false
    private var fileFailureLogged = false
    /// Set when the daemon exits: nothing is lowered any more.
    private var exiting = false

    /// Starts the ducker's main loop and connects to `server` (nil: libpulse's default, as the
    /// `pulse` output); restores what `stateFile` names once connected.
    /// - Parameters:
    ///   - decibels: how far to lower other streams (negative).
    ///   - stateFile: where the lowered streams are written down (in the daemon's runtime directory).
    /// - Throws: `SpeechSynthesisError` when the main loop cannot be started.
    public init(decibels: Int, server: String? = nil, stateFile: String, logger: Logger) throws(SpeechSynthesisError) {
        self.decibels = decibels
        self.server = server
        self.logger = logger
        file = DuckedStreamsFile(path: stateFile)
        do {
            wakeSignal = try WakeSignal()
        } catch {
            throw SpeechSynthesisError("ducking cannot start its PulseAudio main loop (\(error))")
        }
        do {
            try PulseAudioLibraryUnavailable.load()
        } catch {
            wakeSignal.close()
            throw SpeechSynthesisError("ducking cannot start: \(error)")
        }
        guard let mainloop = pa_threaded_mainloop_new() else {
            wakeSignal.close()
            throw SpeechSynthesisError("ducking cannot start its PulseAudio main loop")
        }
        self.mainloop = mainloop
        let api = pa_threaded_mainloop_get_api(mainloop)!
        _ = api.pointee.io_new!(
            api, wakeSignal.descriptor.rawValue, PA_IO_EVENT_INPUT,
            { _, _, _, _, ducker in PulseAudioDucker.from(ducker).woken() },
            unretained)
        connect()
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw SpeechSynthesisError("ducking cannot start its PulseAudio main loop thread")
        }
    }

    deinit {
        pa_threaded_mainloop_stop(mainloop)
        if let context {
            pa_context_disconnect(context)
            pa_context_unref(context)
        }
        pa_threaded_mainloop_free(mainloop)
        wakeSignal.close()
    }

    /// Lowers other streams (unless they already are).
    public func utteranceBegan() {
        speaking.add(1, ordering: .relaxed)
        wake()
    }

    /// Restores other streams ``hold`` from now, unless another utterance begins first.
    public func utteranceEnded() {
        speaking.subtract(1, ordering: .relaxed)
        wake()
    }

    /// Restores every lowered stream now, because the daemon is exiting, and waits (at most
    /// `timeout`) until the server has done it; nothing is lowered after this.
    public func restoreBeforeExit(timeout: Duration = .seconds(1)) {
        pa_threaded_mainloop_lock(mainloop)
        exiting = true
        cancelHold()
        if ducking || !lowered.isEmpty { restoreAll() }
        pa_threaded_mainloop_unlock(mainloop)
        // The server's confirmations arrive on the loop thread; a server that does not answer
        // must not keep the daemon from exiting (the next start restores from the file).
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            pa_threaded_mainloop_lock(mainloop)
            let done = restoring.isEmpty || context == nil
            pa_threaded_mainloop_unlock(mainloop)
            if done { return }
            usleep(5_000)
        }
        logger.warning(
            "ducking: the sound server did not confirm restoring the lowered streams; the next start restores them")
    }

    /// Tells the loop thread the count changed; never blocks.
    private func wake() {
        wakeSignal.raise()
    }

    // MARK: - The loop thread

    private var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ pointer: UnsafeMutableRawPointer?) -> PulseAudioDucker {
        Unmanaged<PulseAudioDucker>.fromOpaque(pointer!).takeUnretainedValue()
    }

    private func woken() {
        wakeSignal.clear()
        reconcile()
    }

    /// Brings the streams in line with the speech: lowered while an utterance plays, restored
    /// ``hold`` after the last one.
    private func reconcile() {
        guard let context, ready else {
            if context == nil, speaking.load(ordering: .relaxed) > 0 { connect() }
            return
        }
        guard leftoversPending == 0, !exiting else { return }
        if speaking.load(ordering: .relaxed) > 0 {
            cancelHold()
            guard !ducking else { return }
            ducking = true
            released = []
            let request = DuckerRequest(self, number: nextRequestNumber(), purpose: .lowerNew)
            release(pa_context_get_sink_input_info_list(context, sinkInputInfo, request.retained), request)
        } else if ducking, holdTimer == nil {
            let microseconds =
                UInt64(Self.hold.components.seconds) * 1_000_000
                + UInt64(Self.hold.components.attoseconds / 1_000_000_000_000)
            holdTimer = pa_context_rttime_new(
                context, pa_rtclock_now() + microseconds,
                { _, _, _, ducker in PulseAudioDucker.from(ducker).holdEnded() }, unretained
            )
        }
    }

    private func holdEnded() {
        cancelHold()
        guard ducking, speaking.load(ordering: .relaxed) == 0 else { return }
        restoreAll()
    }

    private func cancelHold() {
        guard let holdTimer else { return }
        let api = pa_threaded_mainloop_get_api(mainloop)!
        api.pointee.time_free!(holdTimer)
        self.holdTimer = nil
    }

    private func nextRequestNumber() -> UInt64 {
        requestNumber += 1
        return requestNumber
    }

    // MARK: Connection

    private func connect() {
        let api = pa_threaded_mainloop_get_api(mainloop)
        guard let context = pa_context_new(api, "announced ducking") else { return }
        pa_context_set_state_callback(
            context, { _, ducker in PulseAudioDucker.from(ducker).stateChanged() }, unretained)
        pa_context_set_subscribe_callback(
            context, { _, event, index, ducker in PulseAudioDucker.from(ducker).sinkInputChanged(event, index: index) },
            unretained
        )
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            logFailure(PulseAudioOutput.errorText(pa_context_errno(context)))
            pa_context_unref(context)
            return
        }
        self.context = context
    }

    private func stateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            ready = true
            failureLogged = false
            let mask = pa_subscription_mask_t(PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue)
            if let operation = pa_context_subscribe(context, mask, nil, nil) { pa_operation_unref(operation) }
            restoreLeftovers()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            logFailure(PulseAudioOutput.errorText(pa_context_errno(context)))
            // What was lowered stays in the file: the next connection restores it.
            cancelHold()
            pa_context_unref(context)
            self.context = nil
            ready = false
            ducking = false
            lowered = [:]
            loweredAt = [:]
            restoring = [:]
            released = []
            leftoversPending = 0
        default:
            break
        }
    }

    private func logFailure(_ reason: String) {
        guard !failureLogged else { return }
        failureLogged = true
        logger.warning(
            "ducking: cannot reach the sound server (\(reason)), so other applications are not lowered while announced speaks; it tries again at the next announcement. Check that PulseAudio or PipeWire's pulse server runs (`pactl info`)."
        )
    }

    // MARK: Streams

    private func sinkInputChanged(_ event: pa_subscription_event_type_t, index: UInt32) {
        guard let context,
            event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue == PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue
        else { return }
        switch event.rawValue & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue {
        case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue:
            released.remove(index)
            if lowered.removeValue(forKey: index) != nil {
                loweredAt[index] = nil
                persist()
            }
        // A stream that changes while ducking and is not lowered yet may be new: PipeWire's pulse
        // server announces a stream before its volume is set (it reads 0 until then).
        case PA_SUBSCRIPTION_EVENT_NEW.rawValue where ducking,
            PA_SUBSCRIPTION_EVENT_CHANGE.rawValue where ducking || lowered[index] != nil:
            let purpose: DuckerRequest.Purpose = lowered[index] == nil ? .lowerNew : .check
            let request = DuckerRequest(self, number: nextRequestNumber(), purpose: purpose)
            release(pa_context_get_sink_input_info(context, index, sinkInputInfo, request.retained), request)
        default:
            break
        }
    }

    /// One sink input's information, as a request asked for it.
    fileprivate func received(_ info: pa_sink_input_info, for request: DuckerRequest) {
        let index = info.index
        let current = ChannelVolumes.values(of: info.volume)
        if case .leftover(let stream) = request.purpose {
            guard stream.name == Self.name(of: info), stream.processID == processID(of: info),
                ChannelVolumes.matches(current, stream.lowered)
            else { return }
            request.restoring = true
            setVolume(index, stream.original, completion: DuckerRequest(self, number: 0, purpose: .leftoverRestored))
            logger.info(
                "ducking: restored the volume of a stream an earlier run lowered",
                metadata: ["stream": "\(stream.name)"])
            return
        }
        if let stream = lowered[index] {
            // Asked before announced's change reached the server: it shows the old volume.
            guard request.number > loweredAt[index] ?? 0, !ChannelVolumes.matches(current, stream.lowered) else {
                return
            }
            lowered[index] = nil
            loweredAt[index] = nil
            released.insert(index)
            persist()
            logger.info(
                "ducking: a lowered stream's volume was changed meanwhile; announced leaves it as it is now",
                metadata: ["stream": "\(stream.name)"]
            )
            return
        }
        guard case .lowerNew = request.purpose, ducking, !released.contains(index), restoring[index] == nil,
            info.has_volume != 0, info.volume_writable != 0, processID(of: info) != ownProcessID,
            current.contains(where: { $0 > PA_VOLUME_MUTED })
        else { return }
        lower(
            DuckedStream(
                index: index, processID: processID(of: info), name: Self.name(of: info), original: current,
                lowered: ChannelVolumes.lowered(current, byDecibels: decibels)
            ))
    }

    /// Writes the stream down, then lowers it; a stream that cannot be written down is left alone.
    private func lower(_ stream: DuckedStream) {
        lowered[stream.index] = stream
        guard persist() else {
            lowered[stream.index] = nil
            return
        }
        loweredAt[stream.index] = nextRequestNumber()
        setVolume(stream.index, stream.lowered, completion: nil)
        logger.debug("ducking: lowered a stream", metadata: ["stream": "\(stream.name)", "index": "\(stream.index)"])
    }

    private func restoreAll() {
        ducking = false
        released = []
        for (index, stream) in lowered {
            restoring[index] = stream
            setVolume(index, stream.original, completion: DuckerRequest(self, number: 0, purpose: .restored(index)))
            logger.debug("ducking: restoring a stream", metadata: ["stream": "\(stream.name)", "index": "\(index)"])
        }
        logger.debug("ducking: ended", metadata: ["restoring": "\(lowered.count)"])
        lowered = [:]
        loweredAt = [:]
    }

    /// The server has done a volume change `request` waited for.
    fileprivate func completed(_ request: DuckerRequest) {
        switch request.purpose {
        case .restored(let index):
            restoring[index] = nil
            persist()
        case .leftoverRestored:
            leftoverDone()
        default:
            break
        }
    }

    /// A request for sink input information has had its last answer.
    fileprivate func finished(_ request: DuckerRequest) {
        if case .leftover = request.purpose, !request.restoring { leftoverDone() }
    }

    // MARK: Leftovers

    private func restoreLeftovers() {
        guard let context else { return }
        let leftovers = file.read()
        guard !leftovers.isEmpty else {
            reconcile()
            return
        }
        leftoversPending = leftovers.count
        for stream in leftovers {
            let request = DuckerRequest(self, number: nextRequestNumber(), purpose: .leftover(stream))
            release(pa_context_get_sink_input_info(context, stream.index, sinkInputInfo, request.retained), request)
        }
    }

    private func leftoverDone() {
        leftoversPending -= 1
        guard leftoversPending == 0 else { return }
        persist()
        reconcile()
    }

    // MARK: Helpers

    private func setVolume(_ index: UInt32, _ values: [UInt32], completion: DuckerRequest?) {
        guard let context else { return }
        var volume = ChannelVolumes.cvolume(values)
        if let completion {
            let operation = pa_context_set_sink_input_volume(
                context, index, &volume, { _, _, request in DuckerRequest.take(request).complete() },
                completion.retained
            )
            release(operation, completion)
        } else if let operation = pa_context_set_sink_input_volume(context, index, &volume, nil, nil) {
            pa_operation_unref(operation)
        }
    }

    /// Lets go of `operation`; a request that could not be sent never gets its callback, so the
    /// reference libpulse was given is let go here.
    private func release(_ operation: OpaquePointer?, _ request: DuckerRequest) {
        guard let operation else {
            Unmanaged.passUnretained(request).release()
            request.giveUp()
            return
        }
        pa_operation_unref(operation)
    }

    /// Writes the lowered and restoring streams to the file (or removes it); whether it worked.
    @discardableResult
    private func persist() -> Bool {
        do {
            try file.write(Array(lowered.values) + Array(restoring.values))
            fileFailureLogged = false
            return true
        } catch {
            if !fileFailureLogged {
                fileFailureLogged = true
                logger.error("ducking: \(error.message); other applications are not lowered until it can be written")
            }
            return false
        }
    }

    private func processID(of info: pa_sink_input_info) -> String? {
        pa_proplist_gets(info.proplist, "application.process.id").map { String(cString: $0) }
    }

    private static func name(of info: pa_sink_input_info) -> String {
        info.name.map { String(cString: $0) } ?? ""
    }
}

/// libpulse's callback for sink input information: hands each entry to the ducker, and lets the
/// request go after the last.
private let sinkInputInfo: pa_sink_input_info_cb_t = { _, info, endOfList, pointer in
    guard endOfList == 0 else {
        DuckerRequest.take(pointer).end()
        return
    }
    let request = Unmanaged<DuckerRequest>.fromOpaque(pointer!).takeUnretainedValue()
    if let info { request.ducker.received(info.pointee, for: request) }
}

/// One request to the server whose answer the ducker waits for, passed to libpulse as the
/// callback's user data (retained until its last answer).
private final class DuckerRequest {
    enum Purpose {
        /// Lower the streams in the answer that are not lowered yet; judge those that are.
        case lowerNew
        /// Judge whether the user changed a lowered stream.
        case check
        /// Restore a stream an earlier run lowered, if it is still at the volume that run set.
        case leftover(DuckedStream)
        /// The volume change that restores the stream with this index.
        case restored(UInt32)
        /// The volume change that restores a leftover stream.
        case leftoverRestored
    }

    unowned let ducker: PulseAudioDucker
    /// When it was sent, among the ducker's requests.
    let number: UInt64
    let purpose: Purpose
    /// Set when a leftover's answer started restoring it.
    var restoring = false

    init(_ ducker: PulseAudioDucker, number: UInt64, purpose: Purpose) {
        self.ducker = ducker
        self.number = number
        self.purpose = purpose
    }

    /// The request, retained, as libpulse's user data.
    var retained: UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    /// Takes back the request retained for libpulse.
    static func take(_ pointer: UnsafeMutableRawPointer?) -> DuckerRequest {
        Unmanaged<DuckerRequest>.fromOpaque(pointer!).takeRetainedValue()
    }

    /// A volume change has been done.
    func complete() { ducker.completed(self) }

    /// The last answer to an information request has come.
    func end() { ducker.finished(self) }

    /// The request could not be sent.
    func giveUp() {
        switch purpose {
        case .restored, .leftoverRestored: ducker.completed(self)
        default: ducker.finished(self)
        }
    }
}
