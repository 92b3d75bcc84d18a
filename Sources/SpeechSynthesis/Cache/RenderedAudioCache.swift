// SPDX-License-Identifier: GPL-3.0-or-later
import EngineWire
import POSIXThreads

/// An engine's complete renderings, kept so that a phrase apps repeat ("Download complete.",
/// "Saved") is played again without synthesizing it: the helper's samples, words and marks as
/// they came, keyed by the whole synthesis request (voice, text, SSML or not, rate, pitch, volume,
/// punctuation mode and list: everything the helper's audio depends on).
///
/// Bounded by bytes (`speech_cache`, 0 keeps nothing); the least recently used renderings go
/// first. A rendering larger than a quarter of the limit is not kept (a long text is rarely
/// repeated, and would push out many short phrases). Only a rendering the helper ended with
/// `done` 0, read to its end, is stored: an aborted one never is. The voice catalog's rescans
/// drop a voice's renderings when its files are installed again or removed
/// (`SpeechThread.voiceFilesChanged`).
///
/// Used by the speech thread (look up, store) and by the threads that rescan voices and apply
/// settings, so it holds its state behind one mutex.
final class RenderedAudioCache: Sendable {
    /// What identifies a rendering: every field of the request the helper synthesizes.
    struct Key: Hashable, Sendable {
        var voice: String
        var text: String
        var ssml: Bool
        var rate: Int32
        var pitch: Int32
        var volume: Int32
        var punctuation: UInt8
        var punctuationList: String

        /// The key of `request`.
        init(_ request: SynthesisRequest) {
            voice = request.voice
            text = request.text
            ssml = request.ssml
            rate = request.rate
            pitch = request.pitch
            volume = request.volume
            punctuation = request.punctuation.rawValue
            punctuationList = request.punctuationList
        }
    }

    /// The size of the cache: the bytes it holds and the renderings, for the log and tests.
    struct Usage: Equatable, Sendable {
        var bytes: Int
        var entries: Int
        var limit: Int
    }

    private struct State {
        var limit: Int
        var entries: [Key: (audio: RenderedAudio, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        /// Counts the calls to `forget`, so a rendering begun before one is not stored after it.
        var forgets: UInt64 = 0
    }

    private let state: LockedValue<State>

    /// An empty cache holding at most `limit` bytes.
    init(limit: Int) {
        state = LockedValue(State(limit: max(0, limit)))
    }

    /// The largest rendering kept: a quarter of the limit.
    var largestRendering: Int { state.withLock { $0.limit / 4 } }

    /// What it holds now.
    var usage: Usage { state.withLock { Usage(bytes: $0.bytes, entries: $0.entries.count, limit: $0.limit) } }

    /// Sets the limit, dropping the least recently used renderings beyond it.
    func setLimit(_ bytes: Int) {
        state.withLock { state in
            state.limit = max(0, bytes)
            Self.evict(&state, toFit: 0)
        }
    }

    /// The rendering of `key`, marked as just used; nil when it is not kept.
    func audio(for key: Key) -> RenderedAudio? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key] = (found.audio, state.clock)
            return found.audio
        }
    }

    /// Whether it holds the rendering of `key` (its use is not marked).
    func contains(_ key: Key) -> Bool { state.withLock { $0.entries[key] != nil } }

    /// What ``forget(voices:)`` has done so far: read before a rendering begins, passed to
    /// ``store(_:for:renderedSince:)``.
    var forgetCount: UInt64 { state.withLock { $0.forgets } }

    /// Keeps `audio` as the rendering of `key`, dropping the least recently used ones to make
    /// room; does nothing when it is larger than ``largestRendering``, or when voices were
    /// forgotten since `forgetCount` was read (it may be in the voice's old files).
    func store(_ audio: RenderedAudio, for key: Key, renderedSince forgetCount: UInt64) {
        let size = audio.bytes + key.text.utf8.count + key.voice.utf8.count + key.punctuationList.utf8.count
        state.withLock { state in
            guard size <= state.limit / 4, state.forgets == forgetCount else { return }
            if let old = state.entries.removeValue(forKey: key) { state.bytes -= old.audio.bytes + Self.keyBytes(key) }
            Self.evict(&state, toFit: size)
            state.clock += 1
            state.entries[key] = (audio, state.clock)
            state.bytes += size
        }
    }

    /// Drops the renderings in the voices `voices` (their identifiers: a Piper voice's model path).
    func forget(voices: Set<String>) {
        state.withLock { state in
            state.forgets += 1
            for key in state.entries.keys where voices.contains(key.voice) {
                if let old = state.entries.removeValue(forKey: key) {
                    state.bytes -= old.audio.bytes + Self.keyBytes(key)
                }
            }
        }
    }

    private static func keyBytes(_ key: Key) -> Int {
        key.text.utf8.count + key.voice.utf8.count + key.punctuationList.utf8.count
    }

    /// Drops the least recently used renderings until `size` more bytes fit in the limit.
    private static func evict(_ state: inout State, toFit size: Int) {
        while state.bytes + size > state.limit,
            let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            state.entries[oldest.key] = nil
            state.bytes -= oldest.value.audio.bytes + keyBytes(oldest.key)
        }
    }
}

/// One complete rendering as the helper sent it: its samples, and its words and marks between
/// them in the order they came, so that playing it again feeds the utterance the same way.
struct RenderedAudio: Sendable {
    /// What the helper sent, in order.
    enum Event: Sendable {
        /// Samples, up to this index of ``samples``.
        case samples(end: Int)
        case word(sample: UInt32, textPosition: Int32, length: Int32)
        case mark(sample: UInt32, name: String)
    }

    /// The helper's sample rate.
    let sampleRate: Int
    let samples: [Int16]
    let events: [Event]

    /// The memory it holds, counted as its samples, its events and its marks' names.
    var bytes: Int {
        samples.count * MemoryLayout<Int16>.stride + events.count * MemoryLayout<Event>.stride
            + events.reduce(0) { total, event in
                if case .mark(_, let name) = event { return total + name.utf8.count }
                return total
            }
    }

    /// Plays it into `run` as the helper's messages would: samples in the same slices, each word
    /// and mark where it came. Stops where the run stops; queues the skipped marks at the end when
    /// it played to its end.
    func replay(into run: UtteranceRun) {
        if replay(run.take) { run.collectSkippedMarksAtEnd() }
    }

    /// Hands it to `handle` as the helper's messages, in the order and slices they came, until
    /// `handle` returns false; whether all of it was taken.
    func replay(_ handle: (EngineMessage) -> Bool) -> Bool {
        var played = 0
        for event in events {
            let message: EngineMessage
            switch event {
            case .samples(let end):
                message = .samples(Array(samples[played..<end]))
                played = end
            case .word(let sample, let textPosition, let length):
                message = .word(sample: sample, textPosition: textPosition, length: length)
            case .mark(let sample, let name):
                message = .mark(sample: sample, name: name)
            }
            guard handle(message) else { return false }
        }
        return true
    }
}

/// Collects a rendering while it is played for the first time; gives up once it is larger than
/// the cache keeps.
struct RenderedAudioRecorder {
    private var samples: [Int16] = []
    private var events: [RenderedAudio.Event] = []
    private let largest: Int
    /// Whether it gave up (too large).
    private(set) var abandoned = false

    /// A recorder of renderings up to `largest` bytes.
    init(largest: Int) {
        self.largest = largest
        abandoned = largest <= 0
    }

    /// Records one of the helper's messages.
    mutating func record(_ message: EngineMessage) {
        guard !abandoned else { return }
        switch message {
        case .samples(let chunk):
            samples += chunk
            events.append(.samples(end: samples.count))
        case .word(let sample, let textPosition, let length):
            events.append(.word(sample: sample, textPosition: textPosition, length: length))
        case .mark(let sample, let name):
            events.append(.mark(sample: sample, name: name))
        default:
            return
        }
        if samples.count * MemoryLayout<Int16>.stride + events.count * MemoryLayout<RenderedAudio.Event>.stride
            > largest
        {
            abandoned = true
            samples = []
            events = []
        }
    }

    /// The rendering recorded, at `sampleRate`; nil when it gave up.
    func rendering(sampleRate: Int) -> RenderedAudio? {
        abandoned ? nil : RenderedAudio(sampleRate: sampleRate, samples: samples, events: events)
    }
}

extension UtteranceRun {
    /// Takes one of a helper's messages, live or replayed from the speech cache: samples are fed
    /// (false when the run stopped taking them), words and marks collected.
    func take(_ message: EngineMessage) -> Bool {
        switch message {
        case .samples(let samples):
            return samples.withUnsafeBufferPointer { feed($0) }
        case .word(let sample, let textPosition, let length):
            collectWord(sample: Int(sample), textPosition: Int(textPosition), length: Int(length))
        case .mark(let sample, let name):
            collectMark(sample: Int(sample), name: name)
        default:
            break
        }
        return true
    }
}
