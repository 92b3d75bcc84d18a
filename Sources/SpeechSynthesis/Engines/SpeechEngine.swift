// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging

/// The seam between the speech thread and a synthesizer: one engine, whose synthesizer runs in a
/// supervised helper process of its own (`EngineHelperProcess`, found and limited as its
/// ``helperKind`` says) that speaks the engines' wire (`EngineWire`) through `HelperRuntime`.
///
/// The speech thread holds its engines as `[any SpeechEngine]` (`SpeechEngines.registered`, the
/// one list that names them) and routes each utterance to the engine its voice belongs to
/// (`EngineBackend.engine(speaking:)`). It asks the engine for its helper before each utterance
/// (the engine starts or loads it as it needs), talks to it for the utterance (synthesize, abort,
/// read samples, words, marks and `done`), stops it when it crashed or hangs, and gives it back
/// after the utterance's terminal line. An engine may start its helper with the thread and
/// replace it right after a crash, or start and load it on first use on a thread of its own, so
/// that a load never holds up other engines' posts, and unload it when idle.
protocol SpeechEngine: AnyObject, Sendable {
    /// The engine's name in logs, messages, the monitor and voices' `engine`: `espeak-ng`, `piper`.
    var name: String { get }

    /// Its helper executable: its name, where it is looked for, its silence limit and load timeout.
    var helperKind: EngineHelperKind { get }

    /// What a crash message adds after "the speech engine was restarted and later posts speak."
    var crashAdvice: String { get }

    /// Whether it speaks letter and symbol names (spelling, `char`, a key's letters, the `some`
    /// and `all` punctuation modes). An engine that does not has those utterances spoken by one
    /// that does, in a voice for the same language (`EngineBackend.routed`).
    var speaksLettersAndSymbols: Bool { get }

    /// The voices its helper listed when it started with the thread (espeak-ng's); an engine
    /// whose voices are files installed by the user (Piper's) lists none here: the backend's
    /// installed voices name it as their `engine`.
    var voices: [VoiceDescription] { get }

    /// The sample rate its helper announced when it started with the thread; nil for an engine
    /// that starts on first use (its helper resamples to the first engine's rate).
    var sampleRate: Int? { get }

    /// Whether its helper is installed where the daemon looks (SSIP's `LIST OUTPUT_MODULES`).
    /// Looks again each time (a few `access` calls). Any thread.
    var isInstalled: Bool { get }

    /// Called once on the speech thread before its first utterance: an engine that must be
    /// ready at once starts its helper here; one that loads on first use does nothing.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be found or started.
    func start() throws(SpeechSynthesisError)

    /// Applies the daemon's engine settings (any thread); a helper that runs keeps what it was
    /// started with until it is next started.
    func configure(_ settings: EngineSettings)

    /// Gets `voice` ready in the background when the engine loads voices; returns at once.
    func prepare(voice: String, logger: Logger)

    /// The engine's catalog of the voices installed for it as files, looked for where
    /// `environment` says (Piper's `PiperVoiceCatalog`); each voice names the engine, which
    /// speaks it. `filesChanged` is told the voices whose files were installed again or removed.
    /// Nil (the default) for an engine whose helper lists its voices (``voices``).
    func makeInstalledVoiceCatalog(
        environment: [String: String], logger: Logger, filesChanged: @escaping @Sendable (Set<String>) -> Void
    ) -> (any InstalledVoiceCatalog)?

    /// Its complete renderings kept for phrases said again (`speech_cache`); nil for an engine
    /// that synthesizes as fast as it plays (espeak-ng), whose posts always go to its helper.
    var renderedAudio: RenderedAudioCache? { get }

    /// The files of the voices `identifiers` were installed again or removed (any thread): the
    /// engine forgets its renderings in them, and speaks them from the new files from now on.
    func voiceFilesChanged(_ identifiers: Set<String>)

    /// The post's failure when the helper says it has no voice `voice`.
    func voiceUnknownMessage(_ voice: String) -> String

    /// The helper, ready to synthesize with `voice`: started (or loaded) first when it needs to
    /// be, waiting for that on `thread` unless the utterance is stopped meanwhile. Called on the
    /// speech thread; the helper is the speech thread's until `giveBack`.
    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer

    /// The helper, when it can synthesize with `voice` at once, without a start or a load; else
    /// nil, and a voice that loads is asked for, so that it is loading meanwhile. The speech
    /// thread takes it to synthesize a post's next language run ahead, while the run before it
    /// plays; the helper is the speech thread's until `giveBack`.
    func readyHelper(for voice: String, logger: Logger) -> EngineHelperProcess?

    /// The helper, ready to synthesize with `voice`, for a request outside the speech thread's
    /// queue (a Spiel stream), on the caller's thread: the engine's warm helper when it is free
    /// and has the voice (loaded first when nobody uses it), else an idle spare, else a spare
    /// started (and loaded) for this request, so that the request and the speech thread's post
    /// never wait for each other. `cancelled` is asked while it waits for a load; `aborted` when
    /// it said yes. The helper is the caller's until `giveBack`.
    func lease(for voice: String, cancelled: () -> Bool, logger: Logger) -> EngineHelperAnswer

    /// The speech thread, or a lease's holder, is done with the helper (after the utterance's
    /// terminal line; after the stream's `done`): the warm helper is free again and a helper that
    /// died is replaced (now, or at its next use); a spare is kept only while its engine's warm
    /// helper is still out, else stopped.
    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger)

    /// Stops the engine's helper for good, and any thread of the engine's own: the speech thread
    /// calls it as it ends (``SpeechThread/stop(then:)``), after its last utterance.
    func shutDown()
}

extension SpeechEngine {
    var name: String { helperKind.engine }

    var speaksLettersAndSymbols: Bool { true }

    var voices: [VoiceDescription] { [] }

    var sampleRate: Int? { nil }

    var isInstalled: Bool { helperKind.installedPath != nil }

    func start() throws(SpeechSynthesisError) {}

    func configure(_ settings: EngineSettings) {}

    func prepare(voice: String, logger: Logger) {}

    func makeInstalledVoiceCatalog(
        environment: [String: String], logger: Logger, filesChanged: @escaping @Sendable (Set<String>) -> Void
    ) -> (any InstalledVoiceCatalog)? { nil }

    var renderedAudio: RenderedAudioCache? { nil }

    func voiceFilesChanged(_ identifiers: Set<String>) {
        renderedAudio?.forget(voices: identifiers)
    }

    func voiceUnknownMessage(_ voice: String) -> String {
        "\(name) could not load the voice \(voice); `announcectl voices` lists the voices installed"
    }
}

/// What the daemon's settings say to its engines.
public struct EngineSettings: Sendable, Equatable {
    /// How long an engine that loads voices keeps its helper unused before stopping it, which
    /// unloads its voices (`engine_idle_unload`).
    public var idleUnload: Duration
    /// The threads a neural engine runs one synthesis on (`piper_threads`), at most the machine's
    /// cores; nil leaves the engine's default.
    public var synthesisThreads: Int?
    /// The bytes of complete renderings an engine that keeps them may hold (`speech_cache`); 0
    /// keeps none.
    public var speechCacheBytes: Int

    /// Settings; by default an idle helper is kept 5 minutes, threads are the engine's default,
    /// and 8 MiB of renderings are kept.
    public init(idleUnload: Duration = .seconds(300), synthesisThreads: Int? = nil, speechCacheBytes: Int = 8 << 20) {
        self.idleUnload = idleUnload
        self.synthesisThreads = synthesisThreads
        self.speechCacheBytes = speechCacheBytes
    }
}

/// What `SpeechEngine.helper(for:on:logger:)` answers.
enum EngineHelperAnswer {
    /// The helper to speak with.
    case ready(EngineHelperProcess)
    /// The engine cannot speak with the voice; the message says why and what to do.
    case failed(String)
    /// The utterance was stopped while the engine loaded.
    case aborted
}
