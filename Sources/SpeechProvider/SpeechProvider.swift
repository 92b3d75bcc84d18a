// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import AnnouncePOSIX
import AnnounceProtocol
public import DesktopBus
import Glibc
public import Logging
import POSIXThreads
public import SpeechSynthesis
public import SystemPackage

/// announced's voices for Spiel: the `Voices` list made from the backend's, and each
/// `Synthesize` call checked against the daemon's limits, mapped onto announced's units (the
/// defaults, or the first `clients` entry matching `spiel:<application>`, at Spiel's 1.0), and
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

    /// The daemon's settings, read at each request: a reload reaches the next stream.
    private let settings: SettingsFlow
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

    /// A provider that synthesizes with `synthesizer` at `sampleRate`, with the settings `settings`
    /// has at each request.
    /// - Throws: the `Errno` of the failed `pipe2` that makes the stop pipe (out of descriptors).
    public init(
        settings: SettingsFlow, synthesizer: StreamSynthesizer, sampleRate: Int, logger: Logger
    ) throws(Errno) {
        self.settings = settings
        self.synthesizer = synthesizer
        self.sampleRate = sampleRate
        self.logger = logger
        let (readEnd, writeEnd) = try FileDescriptor.closeOnExecPipe()
        stopRead = readEnd.rawValue
        stopWrite.withLock { $0 = writeEnd.rawValue }
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
        let settings = self.settings.current
        let client = Self.clientName(call)
        let defaults = settings.speechDefaults(forClientNamed: client)
        let refusal = check(call, voices: voices, settings: settings, defaults: defaults)
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
            let writer = SpielStreamWriter(fd: call.pipe, stop: stop)
            let end = defaults.muted ? mutedStream(writer) : stream(request, to: writer, sender: call.sender)
            close(call.pipe)
            state.withLock { state in
                state.open[call.sender, default: 1] -= 1
                if state.open[call.sender] == 0 { state.open[call.sender] = nil }
                state.total -= 1
            }
            logger.debug(
                "spiel stream ended",
                metadata: [
                    "client": "\(call.sender)", "name": "\(client)", "voice": "\(request.voice.name)", "end": "\(end)",
                ])
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

    /// The name a Spiel caller's `clients` entries are matched against: `spiel:` and its process's
    /// name (`spiel:orca`), else its unique bus name (`spiel::1.42`).
    static func clientName(_ call: SpeechProviderCall) -> String {
        "spiel:" + (call.application.isEmpty ? call.sender : call.application)
    }

    /// Whether no stream is open.
    public var isIdle: Bool { state.withLock { $0.total == 0 } }

    /// The stream of a caller its `clients` entry mutes: the header, then the end, with no audio.
    private func mutedStream(_ writer: SpielStreamWriter) -> StreamSynthesisEnd {
        writer.header() ? .finished : .cancelled
    }

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
    private func check(
        _ call: SpeechProviderCall, voices: [VoiceDescription], settings: LiveSettings, defaults: SpeechDefaults
    ) -> Result<StreamSynthesisRequest, SpeechProviderRefusal> {
        let invalid = { (message: String) in
            Result<StreamSynthesisRequest, SpeechProviderRefusal>.failure(
                SpeechProviderRefusal(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message))
        }
        let wanted = call.voiceID.isEmpty ? defaults.voice : call.voiceID
        let found =
            call.voiceID.isEmpty
            ? settings.voice(for: defaults, among: voices) : voices.first { $0.name == call.voiceID }
        guard let voice = found else {
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
                rate: Self.scaled(defaults.rate, by: call.rate, in: SpeechRanges.rate),
                pitch: Self.scaled(defaults.pitch, by: call.pitch, in: SpeechRanges.pitch), volume: defaults.volume,
                punctuation: defaults.punctuation))
    }

    /// Spiel's factor (1.0 normal) applied to announced's setting, rounded and clamped to its range.
    static func scaled(_ setting: Int, by factor: Double, in range: ClosedRange<Int>) -> Int {
        let value = (Double(setting) * factor).rounded()
        return value >= Double(range.upperBound) ? range.upperBound : max(range.lowerBound, Int(value))
    }
}
