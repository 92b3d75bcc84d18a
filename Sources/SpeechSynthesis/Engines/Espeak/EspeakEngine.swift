// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging
import POSIXThreads

/// espeak-ng behind the engine seam: its helper (`announced-espeak`) starts with the speech
/// thread, before the first post, and a helper that crashed or hung is replaced right after the
/// post it cost, so the next post does not wait for espeak-ng to load. It lists its voices when it
/// starts, speaks letter and symbol names, and is the first engine: it speaks every voice no other
/// engine claims (a variant such as `en-us+f3` too).
///
/// Its warm helper is shared: the speech thread and the Spiel streams take it in turn
/// (`helper(for:)`, `lease`); a request that finds it busy gets a spare helper (``SpareHelpers``),
/// started for the overlap and stopped once it has ended. `start` runs on the speech thread;
/// `voices` and `sampleRate` are read by others once the thread has said it started.
// Unchecked: `busy`, `spares` and `shuttingDown` are touched with `condition` held; the rest is set by `start` before use.
final class EspeakEngine: SpeechEngine, @unchecked Sendable {
    /// espeak-ng's helper. espeak-ng makes each 60 ms buffer far faster than it plays, so a
    /// helper silent for 5 s is stuck inside espeak-ng.
    static let helper = EngineHelperKind(
        engine: "espeak-ng", executableName: "announced-espeak",
        environmentVariable: "ANNOUNCED_ESPEAK_HELPER",
        capabilities: EngineCapabilities(voiceVariants: true, languageFallback: true),
        initializationAdvice: "its data directory (espeak-ng-data) was not found. Install the espeak-ng-data package "
            + "(apt install espeak-ng-data), or set ESPEAK_DATA_PATH to the directory that contains espeak-ng-data."
    )

    let helperKind: EngineHelperKind
    let crashAdvice = "The text may trigger a known espeak-ng bug; rephrasing it avoids that."
    /// The synthesizer's sample rate (22050 Hz for espeak-ng's own voices), once started.
    private(set) var sampleRate: Int?
    /// The voices espeak-ng offers, listed once at start.
    private(set) var voices: [VoiceDescription] = []
    private var process: EngineHelperProcess?
    /// Guards what follows: who has the warm helper, and the spares.
    private let condition = ConditionLock()
    /// The warm helper is out (the speech thread's or a stream's).
    private var busy = false
    private var spares = SpareHelpers()
    private var shuttingDown = false

    /// espeak-ng, with its helper found as `helper` says (tests name a missing one).
    init(helper: EngineHelperKind = EspeakEngine.helper) {
        helperKind = helper
    }

    /// Finds and starts the helper, and waits for espeak-ng to load.
    /// - Throws: `SpeechSynthesisError` when the helper cannot be found or started, or espeak-ng
    ///   cannot be initialized.
    func start() throws(SpeechSynthesisError) {
        let process = try EngineHelperProcess(kind: helperKind)
        try process.start()
        self.process = process
        sampleRate = process.sampleRate
        voices = process.voices
    }

    /// It runs: started with the thread, replaced after a crash.
    var isInstalled: Bool { true }

    func voiceUnknownMessage(_ voice: String) -> String {
        "espeak-ng could not load the voice \(voice) (its data may be missing or damaged); `espeak-ng --voices` lists the voices it has"
    }

    /// The warm helper, started first when the last one died and was not replaced (its restart
    /// failed); a spare when a stream has it.
    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer {
        lease(for: voice, cancelled: { false }, logger: logger)
    }

    /// The warm helper while it runs and is free, else an idle spare (nil when neither is:
    /// `helper(for:)` starts or says why).
    func readyHelper(for voice: String, logger: Logger) -> EngineHelperProcess? {
        condition.withLock {
            if !busy, let process, process.isRunning {
                busy = true
                return process
            }
            return spares.take(voice: nil)
        }
    }

    func lease(for voice: String, cancelled: () -> Bool, logger: Logger) -> EngineHelperAnswer {
        guard let process else { return .failed("espeak-ng's helper was not started") }
        // The warm helper when it is free; otherwise an idle spare, if there is one.
        let (warm, idle): (Bool, EngineHelperProcess?) = condition.withLock {
            if busy { return (false, spares.take(voice: nil)) }
            busy = true
            return (true, nil)
        }
        if warm {
            if !process.isRunning, let problem = restart(process, logger) {
                condition.withLock { busy = false }
                return .failed(problem)
            }
            return .ready(process)
        }
        if let idle { return .ready(idle) }
        do {
            let spare = try EngineHelperProcess(kind: helperKind)
            try spare.start()
            condition.withLock { spares.lend(spare) }
            logger.info("espeak-ng spare helper started", metadata: ["pid": "\(spare.pid)"])
            return .ready(spare)
        } catch {
            return .failed(error.message)
        }
    }

    /// Frees the warm helper, replacing it now when it died (if that fails, the next post tries
    /// again and reports why), and stops the idle spares: the overlap has ended. A spare is kept
    /// while the warm helper is still out, else stopped.
    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger) {
        var stopping: [EngineHelperProcess] = []
        if helper === process {
            if !helper.isRunning { _ = restart(helper, logger) }
            stopping = condition.withLock {
                busy = false
                return spares.drain()
            }
        } else {
            condition.withLock {
                if !spares.giveBack(helper, voice: "", keep: busy && !shuttingDown) { stopping = [helper] }
            }
        }
        for spare in stopping { spare.stop() }
    }

    /// Stops the helper and the idle spares (the speech thread is ending).
    func shutDown() {
        let idle = condition.withLock {
            shuttingDown = true
            return spares.drain()
        }
        for spare in idle { spare.stop() }
        _ = process?.stop()
    }

    /// Starts a new helper process; nil when it runs, else why not (also logged).
    private func restart(_ process: EngineHelperProcess, _ logger: Logger) -> String? {
        do {
            try process.start()
            logger.notice("espeak-ng helper started", metadata: ["helper": "\(process.path)"])
            return nil
        } catch {
            logger.error("espeak-ng helper cannot start", metadata: ["error": "\(error)"])
            return error.message
        }
    }
}
