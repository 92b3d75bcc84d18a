// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
import EngineWire
import Glibc

/// One synthesis for a stream (a Spiel client's pipe), not for the loudspeaker: the text, the
/// voice, and the parameters in announced's own units.
public struct StreamSynthesisRequest: Sendable {
    /// The voice, as the backend lists it (its engine speaks it).
    public var voice: VoiceDescription
    /// The text, plain or SSML.
    public var text: String
    /// Whether `text` is SSML.
    public var ssml: Bool
    /// Words per minute, within `SpeechRanges.rate`.
    public var rate: Int
    /// 0...100; 50 is the voice's own.
    public var pitch: Int
    /// 0...200; 100 is the voice's own.
    public var volume: Int
    /// Which punctuation is spoken.
    public var punctuation: PunctuationMode

    /// Creates a request.
    public init(
        voice: VoiceDescription, text: String, ssml: Bool, rate: Int, pitch: Int, volume: Int,
        punctuation: PunctuationMode
    ) {
        self.voice = voice
        self.text = text
        self.ssml = ssml
        self.rate = rate
        self.pitch = pitch
        self.volume = volume
        self.punctuation = punctuation
    }
}

/// What a stream synthesis hands its sink, in stream order: each event comes right before the
/// first sample it belongs to.
public enum StreamSynthesisEvent {
    /// 16-bit mono samples at the helper's rate.
    case samples(ArraySlice<Int16>)
    /// A word starts: its place in the text sent, in Unicode scalars from 0.
    case word(start: Int, length: Int)
    /// An SSML mark is reached.
    case mark(String)
}

/// How a stream synthesis ended.
public enum StreamSynthesisEnd: Equatable, Sendable {
    /// The engine said all of it.
    case finished
    /// The sink stopped taking it (the client closed its end).
    case cancelled
    /// The engine could not say it; the message says why and what to do.
    case failed(String)
}

/// Synthesis apart from the speech thread and its queue: each request runs on the calling
/// thread with a helper process of its own, the voice's engine's helper (`EngineHelperKind`),
/// started for it and stopped after it, so it enters the same sandbox, gets the same
/// environment (`piper_threads`) and is read with the same silence limits as the speech
/// thread's, and requests never wait for each other or for announcements.
public struct StreamSynthesizer: Sendable {
    private let kinds: [String: EngineHelperKind]
    private let piperThreads: Int?

    /// The synthesizer for the engines of `thread`, with Piper's helpers on `piperThreads`
    /// threads (`piper_threads`).
    public init(thread: SpeechThread, piperThreads: Int?) {
        var kinds: [String: EngineHelperKind] = [:]
        for engine in thread.engines { kinds[engine.name] = engine.helperKind }
        self.kinds = kinds
        self.piperThreads = piperThreads
    }

    /// Synthesizes `request` (blocking the calling thread) and hands its audio and events to
    /// `sink` as they come; a `false` from `sink` stops it. It also stops as soon as one of
    /// `cancelDescriptors` reports an error or hang-up (the other end of a pipe closed): the
    /// helper is killed at once. `started` is called with the helper's sample rate once the voice is selected.
    public func synthesize(
        _ request: StreamSynthesisRequest, cancelDescriptors: [Int32], started: (Int) -> Bool,
        sink: (StreamSynthesisEvent) -> Bool
    ) -> StreamSynthesisEnd {
        guard let kind = kinds[request.voice.engine] else {
            return .failed("no engine \(request.voice.engine) speaks the voice \(request.voice.name)")
        }
        let helper: EngineHelperProcess
        do {
            helper = try EngineHelperProcess(kind: kind)
            if kind.engine == VoiceDescription.piperEngine, let piperThreads {
                helper.extraEnvironment = ["ANNOUNCED_PIPER_THREADS=\(piperThreads)"]
            }
            try helper.start()
        } catch {
            return .failed(error.message)
        }
        defer { helper.stop() }
        guard helper.send(.synthesize(Self.wireRequest(request))) else {
            return .failed("the \(kind.engine) helper ended before it took the text; see the daemon's log")
        }
        var stream = EventOrder()
        // A voice that loads (Piper's) sends nothing until it is loaded.
        var timeout = kind.loadTimeout ?? helper.silenceLimit
        while true {
            var fds = [pollfd(fd: helper.messagesDescriptor, events: Int16(POLLIN), revents: 0)]
            fds += cancelDescriptors.map { pollfd(fd: $0, events: 0, revents: 0) }
            // A message already read into the helper's buffer does not wake poll: look for the
            // client's hang-up without waiting, then read it.
            let buffered = helper.hasMessageWaiting
            let ready = poll(&fds, nfds_t(fds.count), buffered ? 0 : timeout)
            if ready < 0, errno == EINTR { continue }
            if fds.dropFirst().contains(where: { $0.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 }) {
                kill(helper.pid, SIGKILL)
                return .cancelled
            }
            guard buffered || (ready > 0 && fds[0].revents != 0) else {
                return .failed("\(kind.engine) stopped responding (nothing for \(timeout / 1000) s)")
            }
            guard let message = helper.next(timeout: timeout) else {
                return .failed("\(kind.engine) crashed while speaking this text (its process \(helper.stop()))")
            }
            timeout = helper.silenceLimit
            switch message {
            case .voiceSelected:
                guard started(helper.sampleRate) else { return .cancelled }
            case .voiceUnknown:
                return .failed("\(kind.engine) has no voice \(request.voice.name)")
            case .voiceFailed(let why):
                return .failed("\(kind.engine) could not load the voice \(request.voice.name): \(why)")
            case .samples(let samples):
                guard stream.feed(samples, sink) else { return .cancelled }
            case .word(let sample, let position, let length):
                let event = StreamSynthesisEvent.word(start: max(Int(position) - 1, 0), length: Int(length))
                guard stream.add(event, at: Int(sample), sink) else { return .cancelled }
            case .mark(let sample, let name):
                guard stream.add(.mark(name), at: Int(sample), sink) else { return .cancelled }
            case .done(let status):
                guard stream.flush(sink) else { return .cancelled }
                return status == 0
                    ? .finished : .failed("\(kind.engine) could not synthesize the text (error \(status))")
            default:
                break
            }
        }
    }

    /// The helper's request: the speech thread's clamping and punctuation list.
    static func wireRequest(_ request: StreamSynthesisRequest) -> SynthesisRequest {
        let punctuation: SynthesisRequest.Punctuation
        switch request.punctuation {
        case .none: punctuation = .none
        case .all: punctuation = .all
        case .some: punctuation = .some
        }
        return SynthesisRequest(
            voice: request.voice.identifier,
            rate: Int32(SpeechRanges.clamp(request.rate, to: SpeechRanges.rate)),
            pitch: Int32(SpeechRanges.clamp(request.pitch, to: SpeechRanges.pitch)),
            volume: Int32(SpeechRanges.clamp(request.volume, to: SpeechRanges.volume)),
            punctuation: punctuation, punctuationList: UtteranceSpeaker.somePunctuation,
            ssml: request.ssml, text: request.text)
    }
}

/// Puts a helper's events right before the sample they are at: an event for a sample not yet
/// sent waits, and samples are cut where a waiting event falls.
private struct EventOrder {
    private var sent = 0
    private var waiting: [(sample: Int, event: StreamSynthesisEvent)] = []

    mutating func add(_ event: StreamSynthesisEvent, at sample: Int, _ sink: (StreamSynthesisEvent) -> Bool) -> Bool {
        if sample <= sent, waiting.isEmpty { return sink(event) }
        waiting.append((sample, event))
        return true
    }

    mutating func feed(_ samples: [Int16], _ sink: (StreamSynthesisEvent) -> Bool) -> Bool {
        var from = 0
        while from < samples.count {
            while let first = waiting.first, first.sample <= sent {
                waiting.removeFirst()
                guard sink(first.event) else { return false }
            }
            let room = waiting.first.map { $0.sample - sent } ?? (samples.count - from)
            let until = min(samples.count, from + max(room, 1))
            guard sink(.samples(samples[from..<until])) else { return false }
            sent += until - from
            from = until
        }
        return true
    }

    mutating func flush(_ sink: (StreamSynthesisEvent) -> Bool) -> Bool {
        defer { waiting = [] }
        return waiting.allSatisfy { sink($0.event) }
    }
}
