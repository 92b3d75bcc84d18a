// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import AnnounceProtocol
import EngineWire
import Glibc
public import Logging

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

/// Synthesis apart from the speech thread and its queue, on the same engines: each request runs
/// on the calling thread with a helper its engine lends it (`SpeechEngine.lease`: the warm helper
/// with the voice loaded when it is free, else a spare for the overlap), driven by the one helper
/// session (`HelperSession`: the silence limit, voice errors, abort and `done`), and given back
/// after its `done`. A phrase the engine's speech cache holds (`RenderedAudioCache`, shared with
/// the speech thread's posts) is streamed from it, and a rendering read whole is kept there.
public struct StreamSynthesizer: Sendable {
    private let engines: [any SpeechEngine]
    private let logger: Logger

    /// The synthesizer for the engines of `thread`, logging to `logger`.
    public init(thread: SpeechThread, logger: Logger) {
        engines = thread.engines
        self.logger = logger
    }

    /// Synthesizes `request` (blocking the calling thread) and hands its audio and events to
    /// `sink` as they come; a `false` from `sink` stops it. It also stops as soon as one of
    /// `cancelDescriptors` reports an error or hang-up (the other end of a pipe closed): the
    /// helper is told to stop and read to its `done`, then given back. `started` is called with
    /// the sample rate once the voice is selected (or the rendering found in the speech cache).
    public func synthesize(
        _ request: StreamSynthesisRequest, cancelDescriptors: [Int32], started: (Int) -> Bool,
        sink: (StreamSynthesisEvent) -> Bool
    ) -> StreamSynthesisEnd {
        guard let engine = engines.first(where: { $0.name == request.voice.engine }) else {
            return .failed("no engine \(request.voice.engine) speaks the voice \(request.voice.name)")
        }
        let wire = UtteranceSpeaker.request(
            voice: request.voice.identifier, rate: request.rate, pitch: request.pitch, volume: request.volume,
            punctuation: request.punctuation, ssml: request.ssml, text: request.text)
        var order = EventOrder()
        func forward(_ message: EngineMessage) -> Bool {
            switch message {
            case .samples(let samples):
                return order.feed(samples, sink)
            case .word(let sample, let position, let length):
                return order.add(.word(start: max(Int(position) - 1, 0), length: Int(length)), at: Int(sample), sink)
            case .mark(let sample, let name):
                return order.add(.mark(name), at: Int(sample), sink)
            default:
                return true
            }
        }
        let cache = engine.renderedAudio
        let key = RenderedAudioCache.Key(wire)
        if let cached = cache?.audio(for: key) {
            logger.debug("streaming from the speech cache", metadata: ["samples": "\(cached.samples.count)"])
            guard started(cached.sampleRate), cached.replay(forward), order.flush(sink) else { return .cancelled }
            return .finished
        }
        let forgetCount = cache?.forgetCount ?? 0
        let helper: EngineHelperProcess
        switch engine.lease(for: wire.voice, cancelled: { Self.hungUp(cancelDescriptors) }, logger: logger) {
        case .failed(let message): return .failed(message)
        case .aborted: return .cancelled
        case .ready(let ready): helper = ready
        }
        defer { engine.giveBack(helper, voice: wire.voice, logger: logger) }
        guard helper.send(.synthesize(wire)) else {
            helper.stop()
            return .failed("the \(engine.name) helper ended before it took the text; see the daemon's log")
        }
        let session = HelperSession(helper: helper, engine: engine, cancelDescriptors: cancelDescriptors)
        switch session.voiceAnswer(voice: wire.voice) {
        case .selected:
            guard started(helper.sampleRate) else {
                session.skip()
                return .cancelled
            }
        case .failed(let message):
            return .failed(message)
        case .cancelled:
            return .cancelled
        case .ended(let ending):
            return .failed("the \(engine.name) helper \(ending) before it could speak this text; see the daemon's log")
        }
        var recorder = cache.map { RenderedAudioRecorder(largest: $0.largestRendering) }
        let end = session.read(logger: logger) { message in
            recorder?.record(message)
            return forward(message)
        }
        switch end {
        case .done(0):
            guard order.flush(sink) else { return .cancelled }
            if let cache, let rendering = recorder?.rendering(sampleRate: helper.sampleRate) {
                cache.store(rendering, for: key, renderedSince: forgetCount)
            }
            return .finished
        case .done(let status):
            return .failed("\(engine.name) could not synthesize the text (error \(status))")
        case .stopped, .cancelled:
            return .cancelled
        case .died(let failure):
            return .failed(failure)
        }
    }

    /// Whether one of `descriptors` reports an error or hang-up, without waiting.
    private static func hungUp(_ descriptors: [Int32]) -> Bool {
        var fds = descriptors.map { pollfd(fd: $0, events: 0, revents: 0) }
        guard poll(&fds, nfds_t(fds.count), 0) > 0 else { return false }
        return fds.contains { $0.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 }
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
