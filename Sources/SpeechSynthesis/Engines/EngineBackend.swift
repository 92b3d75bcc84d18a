// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import Logging
import POSIXThreads

/// The speech backend: synthesizes each utterance with the engine its voice belongs to and plays
/// it through an audio output.
///
/// Each engine runs in a helper process of its own, so that a text that crashes it costs one
/// utterance (finished `.failed`) and not the process; a crashed or stuck helper is replaced, and
/// the other engines are not touched. Every backend made with the same `SpeechThread` shares its
/// queue and engines (each with its own output and event handler, e.g. in tests); they speak one
/// utterance at a time, in the order `speak` was called.
///
/// Events are delivered on the speech thread, in order: `started` when the first audio
/// reaches the output, `word` and `mark` when playback reaches them, then exactly one
/// `finished`. The one exception is an utterance aborted while still queued: its
/// `finished(.aborted(spokenChars: 0))` is delivered at once, on the thread that called `abort`.
public final class EngineBackend: SpeechBackend {
    /// The output description, e.g. `null` or `wav:/tmp/out`.
    public let outputDescription: String
    /// The synthesizer's sample rate in Hz (the first engine's; the others' helpers resample to it).
    public let sampleRate: Int
    let audioPath: AudioPath
    private let thread: SpeechThread
    /// The thread's engines; the first speaks every voice no other engine claims.
    private let engines: [any SpeechEngine]
    /// The voices the engines' helpers listed when they started.
    private let listedVoices: [VoiceDescription]
    /// Of those, the voices of the engines that speak letter and symbol names.
    private let letterVoices: [VoiceDescription]
    private let installedVoices: @Sendable () -> [VoiceDescription]
    private let whenInstalledVoicesCurrent: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// How posts are cut into language runs (`configureLanguageSwitching`); `off` until set.
    let languageSwitching = LockedValue(LanguageSwitchingSettings.off)

    /// Creates a backend on `thread` that plays through `output` and reports through
    /// `eventHandler`; it tells `activity` (if any) when each utterance begins and ends playing.
    /// `installedVoices` gives the voices installed as files (Piper voices), as last seen, each
    /// naming its engine (`VoiceDescription.engine`), which speaks it; it is asked for each post
    /// and for `voices`, so it should be quick. `whenInstalledVoicesCurrent` calls its argument
    /// once `installedVoices` reflects every change made before (``whenVoicesCurrent(_:)``,
    /// `PiperVoiceCatalog.whenCurrent`); by default at once.
    ///
    /// The backend takes over `output`: from now on it is used only on the speech thread. Waits
    /// for the engines that start with the thread (espeak-ng's helper), if they have not yet.
    /// - Throws: `SpeechSynthesisError` when such an engine's helper cannot be found or started,
    ///   or its engine cannot be initialized, e.g. because espeak-ng's data is not installed.
    public init(
        thread: SpeechThread, output: any AudioOutput, logger: Logger,
        eventHandler: @escaping @Sendable (SpeechBackendEvent) -> Void,
        activity: (any SpeechActivityObserver)? = nil,
        installedVoices: @escaping @Sendable () -> [VoiceDescription] = { [] },
        whenInstalledVoicesCurrent: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
    ) throws {
        self.thread = thread
        engines = try thread.startedEngines()
        outputDescription = output.description
        listedVoices = engines.flatMap(\.voices)
        letterVoices = engines.filter(\.speaksLettersAndSymbols).flatMap(\.voices)
        sampleRate = engines.lazy.compactMap(\.sampleRate).first ?? 0
        self.installedVoices = installedVoices
        self.whenInstalledVoicesCurrent = whenInstalledVoicesCurrent
        audioPath = AudioPath(output: output, logger: logger, eventHandler: eventHandler, activity: activity)
    }

    /// The engines' listed voices, then the installed ones.
    public var voices: [VoiceDescription] { listedVoices + installedVoices() }

    /// Calls `current` once the installed voices reflect every change made before. Any thread.
    public func whenVoicesCurrent(_ current: @escaping @Sendable () -> Void) {
        whenInstalledVoicesCurrent(current)
    }

    /// The engines installed here, by name (`espeak-ng`; `piper` when Piper's helper is where the
    /// daemon looks for it, whether or not a Piper voice is installed): SSIP's
    /// `LIST OUTPUT_MODULES`. Looks again each time (a few `access` calls), so a helper installed
    /// while the daemon runs is found. Any thread.
    public func installedEngines() -> [String] {
        engines.filter(\.isInstalled).map(\.name)
    }

    /// The voice `identifier` as an installed or listed voice; nil for one no list has (an
    /// espeak-ng variant such as `en-us+f3`).
    private func voice(_ identifier: String) -> VoiceDescription? {
        installedVoices().first { $0.identifier == identifier } ?? listedVoices.first { $0.identifier == identifier }
    }

    /// The engine that speaks the voice `identifier`: the engine its voice names, else the first
    /// engine. Routes a post by its voice, and so anything else that has a voice.
    func engine(speaking identifier: String) -> any SpeechEngine {
        guard let voice = voice(identifier) else { return engines[0] }
        return engines.first { $0.name == voice.engine } ?? engines[0]
    }

    /// The name of the engine that speaks the voice `identifier`.
    public func engineName(forVoice identifier: String) -> String? {
        engine(speaking: identifier).name
    }

    /// The name of the engine that speaks `utterance`, after ``routed(_:)``.
    public func engineName(for utterance: Utterance) -> String? {
        engine(speaking: routed(utterance).voice).name
    }

    /// Queues `utterance` for its engine, cut into language runs each with the engine of its
    /// voice (``configureLanguageSwitching(_:)``); returns at once.
    public func speak(_ utterance: Utterance) {
        let utterance = routed(utterance)
        thread.enqueue(QueuedUtterance(utterance: utterance, audioPath: audioPath, parts: parts(of: utterance)))
    }

    /// `utterance`, or, when its voice's engine has no letter or symbol names (Piper) and it asks
    /// for them, the same utterance in the voice of an engine that has them (espeak-ng) for the
    /// voice's language.
    ///
    /// Such an engine speaks plain words: it has no letter names (`spell`, `char`, and a key
    /// name's single letters, which arrive as SSML `say-as interpret-as="characters"`) and no
    /// symbol names (the `some` and `all` punctuation modes); it would read "a" as the article and
    /// say nothing for "#". Those utterances are spoken by an engine that has them in the same
    /// language, so they are heard as spelled. When no such voice speaks the language, the
    /// voice's own engine speaks them as it can.
    func routed(_ utterance: Utterance) -> Utterance {
        // The text is scanned for `say-as` last, only for a voice whose engine has no letter names.
        guard utterance.spell || utterance.punctuation != .none || utterance.ssml,
            let voice = voice(utterance.voice), !engine(speaking: voice.identifier).speaksLettersAndSymbols,
            utterance.spell || utterance.punctuation != .none || Self.saysAs(utterance.text),
            let fallback = letterVoice(speakingLanguagesOf: voice)
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

    /// The voice, of an engine with letter and symbol names, for the first of `voice`'s languages
    /// one speaks (`en-us`, then `en`): of the voices that list it, the one that lists it earliest.
    private func letterVoice(speakingLanguagesOf voice: VoiceDescription) -> VoiceDescription? {
        for language in voice.languages {
            let candidates = letterVoices.compactMap { candidate in
                candidate.languages.firstIndex(of: language).map { (candidate, $0) }
            }
            if let best = candidates.min(by: { $0.1 < $1.1 }) { return best.0 }
        }
        return nil
    }

    /// Loads the voice `identifier` now, in the background, when its engine loads voices (Piper),
    /// so that its first post does not wait; returns at once and does nothing for other engines.
    public func prepare(voice identifier: String) {
        engine(speaking: identifier).prepare(voice: identifier, logger: audioPath.logger)
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
