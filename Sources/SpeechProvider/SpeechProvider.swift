// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
public import DesktopBus
import Glibc
public import Logging
import POSIXThreads
public import SpeechSynthesis

/// What the provider takes from the daemon's settings: the voice, rate, pitch, volume and
/// punctuation Spiel's 1.0 stands for, and the limits every client of the daemon has.
public struct SpeechProviderSettings: Sendable {
    /// The voice an empty `voice_id` speaks with (`voice`).
    public var voice: String
    /// Words per minute at Spiel's rate 1.0 (`rate`).
    public var rate: Int
    /// announced's pitch at Spiel's pitch 1.0 (`pitch`).
    public var pitch: Int
    /// `volume`.
    public var volume: Int
    /// `punctuation`.
    public var punctuation: PunctuationMode
    /// The longest text, in Unicode scalars (`max_text_chars`).
    public var maxTextChars: Int
    /// How many streams one bus client may have at once (`max_pending_per_client`).
    public var maxPendingPerClient: Int

    /// Creates the settings.
    public init(
        voice: String, rate: Int, pitch: Int, volume: Int, punctuation: PunctuationMode, maxTextChars: Int,
        maxPendingPerClient: Int
    ) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
        self.maxTextChars = maxTextChars
        self.maxPendingPerClient = maxPendingPerClient
    }
}

/// announced's voices for Spiel: the `Voices` list made from the backend's, and each
/// `Synthesize` call checked against the daemon's limits, mapped onto announced's units, and
/// synthesized on a thread of its own (`spiel`) by a ``StreamSynthesizer`` with the speech
/// thread's engines (their warm helpers and speech cache), never through the announcement queue.
public final class SpeechProvider: Sendable {
    /// The bus name: announced's own name under `.Speech.Provider` (see the man page).
    public static let busName = "org.announced.Speech.Provider"
    /// The provider's name in Spiel's voice choosers.
    public static let displayName = "announced"
    /// The most streams open at once, all clients together (besides each client's
    /// `max_pending_per_client`): a stream borrows its engine's warm helper, or a spare one while
    /// it overlaps another request, so the streams add at most this many copies of a voice's model
    /// to the speech thread's one. Spiel's clients speak one utterance at a time and cancel the
    /// one before, so a few let several apps overlap.
    public static let maxStreams = 4

    /// The settings as they are now (the daemon's ``SettingsFlow``), read at each request: a
    /// reload reaches the next stream.
    private let settings: @Sendable () -> SpeechProviderSettings
    private let synthesizer: StreamSynthesizer
    private let sampleRate: Int
    private let logger: Logger
    /// The streams open per bus client, and the read end of the pipe whose write end
    /// ``stopStreams()`` closes, which ends every stream.
    private let state = LockedValue(StreamState())
    private let stopRead: Int32
    private let stopWrite = LockedValue<Int32>(-1)

    private struct StreamState {
        var open: [String: Int] = [:]
        var total = 0
    }

    /// A provider that synthesizes with the engines of `thread` at `sampleRate`, with the
    /// settings `settings` gives at each request.
    public init(
        settings: @escaping @Sendable () -> SpeechProviderSettings, synthesizer: StreamSynthesizer, sampleRate: Int,
        logger: Logger
    ) {
        self.settings = settings
        self.synthesizer = synthesizer
        self.sampleRate = sampleRate
        self.logger = logger
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        stopRead = ends[0]
        stopWrite.withLock { $0 = ends[1] }
    }

    /// The voices as Spiel lists them: the Spiel identifier is announced's voice name.
    public func providerVoices(_ voices: [VoiceDescription]) -> [SpeechProviderVoice] {
        voices.map { voice in
            SpeechProviderVoice(
                name: voice.title ?? voice.name, identifier: voice.name,
                outputFormat: "audio/x-spiel,format=S16LE,channels=1,rate=\(sampleRate)",
                features: SpeechProviderVoice.wordEvents | SpeechProviderVoice.markEvents,
                languages: voice.languages)
        }
    }

    /// Starts the stream `call` asks for, with `voices` the backend's voices now; nil, or the
    /// refusal the client gets. Returns at once. The call's pipe is the provider's from here.
    public func synthesize(_ call: SpeechProviderCall, voices: [VoiceDescription]) -> SpeechProviderRefusal? {
        let settings = self.settings()
        let refusal = check(call, voices: voices, settings: settings)
        guard case .success(let request) = refusal else {
            close(call.pipe)
            if case .failure(let why) = refusal {
                logger.notice("spiel request refused", metadata: ["client": "\(call.sender)", "why": "\(why.message)"])
                return why
            }
            return nil
        }
        let limit = settings.maxPendingPerClient
        let overLimit = state.withLock { state -> String? in
            guard state.open[call.sender, default: 0] < limit else {
                return "this client already has \(limit) streams open (max_pending_per_client); read or close one first"
            }
            guard state.total < Self.maxStreams else {
                return "announced already has \(Self.maxStreams) Spiel streams open, the most it synthesizes at once "
                    + "(each may need a helper and a copy of its voice); read or close one of yours, or ask again when one has ended"
            }
            state.open[call.sender, default: 0] += 1
            state.total += 1
            return nil
        }
        if let overLimit {
            close(call.pipe)
            logger.notice("spiel request refused", metadata: ["client": "\(call.sender)", "why": "\(overLimit)"])
            return SpeechProviderRefusal(name: "org.freedesktop.DBus.Error.LimitsExceeded", message: overLimit)
        }
        let stop = stopRead
        DedicatedThread.start(name: "spiel", stackSize: 1 << 20) { [self] in
            let end = stream(request, to: SpielStreamWriter(fd: call.pipe, stop: stop), sender: call.sender)
            close(call.pipe)
            state.withLock { state in
                state.open[call.sender, default: 1] -= 1
                if state.open[call.sender] == 0 { state.open[call.sender] = nil }
                state.total -= 1
            }
            logger.debug(
                "spiel stream ended",
                metadata: ["client": "\(call.sender)", "voice": "\(request.voice.name)", "end": "\(end)"])
        }
        return nil
    }

    /// Ends every open stream (the daemon is stopping): their helpers are told to stop and their pipes closed.
    public func stopStreams() {
        stopWrite.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// Whether no stream is open.
    public var isIdle: Bool { state.withLock { $0.total == 0 } }

    private func stream(_ request: StreamSynthesisRequest, to writer: SpielStreamWriter, sender: String)
        -> StreamSynthesisEnd
    {
        guard writer.header() else { return .cancelled }
        let end = synthesizer.synthesize(
            request, cancelDescriptors: [writer.fd, writer.stop],
            started: { _ in true },
            sink: { event in
                switch event {
                case .samples(let samples): writer.audio(samples)
                case .word(let start, let length): writer.event(.word, start: start, end: start + length)
                case .mark(let name): writer.event(.mark, start: 0, end: 0, name: name)
                }
            })
        if case .failed(let why) = end {
            logger.warning("spiel stream failed", metadata: ["client": "\(sender)", "why": "\(why)"])
        }
        return end
    }

    /// The request `call` makes, or why it is refused.
    private func check(_ call: SpeechProviderCall, voices: [VoiceDescription], settings: SpeechProviderSettings)
        -> Result<
            StreamSynthesisRequest, SpeechProviderRefusal
        >
    {
        let invalid = { (message: String) in
            Result<StreamSynthesisRequest, SpeechProviderRefusal>.failure(
                SpeechProviderRefusal(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message))
        }
        let wanted = call.voiceID.isEmpty ? settings.voice : call.voiceID
        guard let voice = voices.first(where: { $0.name == wanted }) else {
            return invalid(
                "announced has no voice \"\(wanted)\"; use the identifier of one of the provider's Voices "
                    + "(`announcectl voices` lists them)")
        }
        guard call.rate.isFinite, call.rate > 0, call.pitch.isFinite, call.pitch >= 0 else {
            return invalid(
                "rate must be above 0 and pitch 0 or above (1.0 is the voice's normal); got rate \(call.rate), pitch \(call.pitch)"
            )
        }
        let length = call.text.unicodeScalars.count
        guard length <= settings.maxTextChars else {
            return .failure(
                SpeechProviderRefusal(
                    name: "org.freedesktop.DBus.Error.LimitsExceeded",
                    message:
                        "the text has \(length) characters, more than announced takes (max_text_chars, \(settings.maxTextChars)); split it"
                ))
        }
        return .success(
            StreamSynthesisRequest(
                voice: voice, text: call.text, ssml: call.isSSML,
                rate: Self.scaled(settings.rate, by: call.rate, in: SpeechRanges.rate),
                pitch: Self.scaled(settings.pitch, by: call.pitch, in: SpeechRanges.pitch), volume: settings.volume,
                punctuation: settings.punctuation))
    }

    /// Spiel's factor (1.0 normal) applied to announced's setting, rounded and clamped to its range.
    static func scaled(_ setting: Int, by factor: Double, in range: ClosedRange<Int>) -> Int {
        let value = (Double(setting) * factor).rounded()
        return value >= Double(range.upperBound) ? range.upperBound : max(range.lowerBound, Int(value))
    }
}
