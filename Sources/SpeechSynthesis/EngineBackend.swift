// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import Logging

/// The speech backend: synthesizes utterances with their engine (espeak-ng, or Piper for a
/// Piper voice) and plays them through an audio output.
///
/// Each engine runs in a helper process of its own (`announced-espeak`, `announced-piper`), so
/// that a text that crashes it costs one utterance (finished `.failed`) and not the process; a
/// crashed or stuck helper is replaced, and the other engine is not touched. Every backend made
/// with the same `SpeechThread` shares its queue and helpers (each with its own output and event
/// handler, e.g. in tests); they speak one utterance at a time, in the order `speak` was called.
///
/// Events are delivered on the speech thread, in order: `started` when the first audio
/// reaches the output, `word` and `mark` when playback reaches them, then exactly one
/// `finished`. The one exception is an utterance aborted while still queued: its
/// `finished(.aborted(spokenChars: 0))` is delivered at once, on the thread that called `abort`.
public final class EngineBackend: SpeechBackend {
    /// The output description, e.g. `null` or `wav:/tmp/out`.
    public let outputDescription: String
    /// espeak-ng's voices, by the names `Utterance.voice` accepts.
    public let espeakVoices: [VoiceDescription]
    /// The synthesizer's sample rate in Hz (espeak-ng's; the Piper helper resamples to it).
    public let sampleRate: Int
    private let audioPath: AudioPath
    private let thread: SpeechThread
    private let espeak: EspeakEngine
    private let piperVoices: @Sendable () -> [VoiceDescription]
    private let rescanPiperVoices: @Sendable () -> [VoiceDescription]

    /// Creates a backend on `thread` that plays through `output` and reports through
    /// `eventHandler`; it tells `activity` (if any) when each utterance begins and ends playing.
    /// `piperVoices` gives the Piper voices installed as last seen (an utterance whose voice is
    /// one of their identifiers, the path of its `.onnx`, is spoken by Piper); it is asked for
    /// each post and for `voices`, so it should be quick. `rescanPiperVoices` looks for them again
    /// (`rescanVoices`); by default it is `piperVoices`.
    ///
    /// The backend takes over `output`: from now on it is used only on the speech thread. Waits
    /// for espeak-ng's helper to start, if it has not yet.
    /// - Throws: `SpeechSynthesisError` when espeak-ng's helper cannot be found or started, or
    ///   espeak-ng cannot be initialized, e.g. because its data (espeak-ng-data) is not installed.
    public init(
        thread: SpeechThread, output: any AudioOutput, logger: Logger,
        eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void,
        activity: (any SpeechActivityObserver)? = nil,
        piperVoices: @escaping @Sendable () -> [VoiceDescription] = { [] },
        rescanPiperVoices: (@Sendable () -> [VoiceDescription])? = nil
    ) throws {
        self.thread = thread
        espeak = try thread.espeak()
        outputDescription = output.description
        espeakVoices = espeak.voices
        sampleRate = espeak.sampleRate
        self.piperVoices = piperVoices
        self.rescanPiperVoices = rescanPiperVoices ?? piperVoices
        audioPath = AudioPath(output: output, logger: logger, eventHandler: eventHandler, activity: activity)
    }

    /// espeak-ng's voices, then the Piper voices.
    public var voices: [VoiceDescription] { espeakVoices + piperVoices() }

    /// espeak-ng's voices, then the Piper voices looked for again. Any thread.
    public func rescanVoices() -> [VoiceDescription] { espeakVoices + rescanPiperVoices() }

    /// The engines installed here, by name: `espeak-ng`, and `piper` when Piper's helper
    /// (`announced-piper`) is where the daemon looks for it, whether or not a Piper voice is
    /// installed (SSIP's `LIST OUTPUT_MODULES`). Looks again each time (a few `access` calls), so
    /// a helper installed while the daemon runs is found. Any thread.
    public func installedEngines() -> [String] {
        thread.piper.helperKind.installedPath == nil ? [espeak.name] : [espeak.name, thread.piper.name]
    }

    /// The engine that speaks the voice `identifier`.
    private func engine(speaking identifier: String) -> any SpeechEngine {
        piperVoices().contains { $0.identifier == identifier } ? thread.piper : espeak
    }

    /// `espeak-ng` or `piper`: the engine that speaks the voice `identifier`.
    public func engineName(forVoice identifier: String) -> String? {
        engine(speaking: identifier).name
    }

    /// `espeak-ng` or `piper`: the engine that speaks `utterance`, after ``routed(_:)``.
    public func engineName(for utterance: Utterance) -> String? {
        engine(speaking: routed(utterance).voice).name
    }

    /// Queues `utterance` for its engine; returns at once.
    public func speak(_ utterance: Utterance) {
        let utterance = routed(utterance)
        thread.enqueue(QueuedUtterance(utterance: utterance, audioPath: audioPath, engine: engine(speaking: utterance.voice)))
    }

    /// `utterance`, or, when its voice is a Piper voice and it asks for what Piper cannot do, the
    /// same utterance in espeak-ng's voice for the Piper voice's language.
    ///
    /// Piper speaks plain words: it has no letter names (`spell`, `char`, and a key name's single
    /// letters, which arrive as SSML `say-as interpret-as="characters"`) and no symbol names (the
    /// `some` and `all` punctuation modes); it would read "a" as the article and say nothing for
    /// "#". Those utterances are spoken by espeak-ng in the same language, so they are heard as
    /// spelled. When espeak-ng has no voice for the language, Piper speaks them as it can.
    func routed(_ utterance: Utterance) -> Utterance {
        guard let piper = piperVoices().first(where: { $0.identifier == utterance.voice }),
            utterance.spell || utterance.punctuation != .none || (utterance.ssml && Self.saysAs(utterance.text)),
            let fallback = espeakVoice(speakingLanguagesOf: piper)
        else { return utterance }
        var routed = utterance
        routed.voice = fallback.identifier
        return routed
    }

    /// Whether the SSML `text` has a `say-as` element: one pass over its bytes (a chapter of
    /// SSML is 1 MiB, read before its first sample).
    static func saysAs(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            let tag = Array("<say-as".utf8)
            guard bytes.count >= tag.count else { return false }
            for start in 0...(bytes.count - tag.count) where bytes[start] == tag[0] {
                if UnsafeBufferPointer(rebasing: bytes[start..<(start + tag.count)]).elementsEqual(tag) { return true }
            }
            return false
        }
    }

    /// espeak-ng's voice for the first of `voice`'s languages it speaks (`en-us`, then `en`):
    /// of the voices that list it, the one that lists it earliest.
    private func espeakVoice(speakingLanguagesOf voice: VoiceDescription) -> VoiceDescription? {
        for language in voice.languages {
            let candidates = espeakVoices.compactMap { candidate in candidate.languages.firstIndex(of: language).map { (candidate, $0) } }
            if let best = candidates.min(by: { $0.1 < $1.1 }) { return best.0 }
        }
        return nil
    }

    /// Loads the voice `identifier` now, in the background, when its engine loads voices (Piper),
    /// so that its first post does not wait; returns at once and does nothing for espeak-ng's.
    public func prepare(voice identifier: String) {
        guard engine(speaking: identifier) === thread.piper else { return }
        thread.piper.prepare(voice: identifier, logger: audioPath.logger)
    }

    /// Stops the utterance `seq`: at once when it is playing (unplayed audio is dropped) or its
    /// engine is loading, or by removing it from the queue. Returns at once; does nothing if
    /// `seq` already finished.
    public func abort(seq: UInt64) {
        thread.abort(seq: seq, audioPath: audioPath)
    }

    /// Holds the output within one slice (about 5 ms, plus the few milliseconds a PulseAudio
    /// server takes to silence a corked stream); the utterance keeps its place. For every
    /// backend of the same speech thread.
    public func pause() {
        thread.pause()
    }

    /// Continues the paused utterance from its next unplayed sample.
    public func resume() {
        thread.resume()
    }
}
