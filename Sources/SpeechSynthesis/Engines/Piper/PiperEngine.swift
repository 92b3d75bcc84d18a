// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Glibc
import Logging
import POSIXThreads
import PiperVoices

/// Piper behind the engine seam: its helper (`announced-piper`: sherpa-onnx with a Piper voice)
/// starts, and loads a voice, only when a Piper voice is first used or prepared, and stops (its
/// model unloaded) after `idleUnload` without use.
///
/// A voice takes seconds to load, so loads run on the engine's loader thread (`piper-loader`),
/// never on the speech thread: espeak-ng's posts speak meanwhile, and a Piper post waits for its
/// voice on the speech thread's one wait, which its abort ends. One thread at a time has the
/// helper: the loader while it starts, loads or stops it; the speech thread from `helper(for:)`,
/// or a Spiel stream from `lease`, to `giveBack`. A request that finds the helper out with another
/// one gets a spare helper with its voice (``SpareHelpers``: loaded by the loader for the speech
/// thread, on the stream's own thread for a stream), kept only while the overlap lasts. A helper
/// that crashed is replaced in the background right after the post it cost, with the voice it had.
///
/// Its voices are files the user installs (`PiperVoiceCatalog`): the backend's installed voices
/// name it as their engine. It has no letter or symbol names, so spelling and punctuation modes in
/// a Piper voice are spoken by an engine that has them.
// Unchecked: its mutable state is touched only with `condition` held; the helper only by its holder.
final class PiperEngine: SpeechEngine, @unchecked Sendable {
    /// Piper's helper (sherpa-onnx with a Piper voice). It synthesizes a sentence at a time, in
    /// a fraction of the sentence's length on an idle machine; 15 s leaves room for a long
    /// sentence on a busy one. A voice may take up to 60 s to load before the helper counts as stuck.
    static let helper = EngineHelperKind(
        engine: "piper", executableName: "announced-piper",
        environmentVariable: "ANNOUNCED_PIPER_HELPER",
        silenceLimit: 15_000, loadTimeout: 60_000,
        installAdvice: "Piper's helper and engine come with the announced-piper package, or `make install-piper`"
    )

    let crashAdvice = "If it happens again with this voice, its file may be damaged: install the voice again."
    let speaksLettersAndSymbols = false

    /// Guards everything below and wakes the loader. The helper process itself is not guarded:
    /// only its holder (the loader while ``loader`` is not `.idle`, the speech thread or a stream
    /// while `inUse`) touches it.
    private let condition = ConditionLock()
    /// The speech thread waiting for a load, woken when it ends.
    private weak var waitingThread: SpeechThread?
    /// The helper; nil until first use.
    private var process: EngineHelperProcess?
    /// The voice the running helper has loaded (it holds one model at a time); nil when none is,
    /// or no helper runs.
    private var loadedVoice: String?
    /// The running helper's process id, 0 when none runs (for the log and tests).
    private var helperPID: Int32 = 0
    /// Voices to load, in the order they were asked for.
    private var wanted: [String] = []
    /// Why a voice's load failed, until the speech thread that waits for it reads it.
    private var failures: [String: String] = [:]
    /// What the loader is doing with the engine's own helper.
    private var loader = PiperLoaderState.idle
    /// Run by the loader just before it stops an idle helper, for tests (``onIdleStop(_:)``).
    private var beforeIdleStop: (@Sendable () -> Void)?
    /// The running helper holds a model whose files were replaced: the loader stops it (the
    /// helper keeps a voice it has loaded when asked for the same path again).
    private var helperHoldsReplacedVoice = false
    /// The speech thread or a stream has the helper.
    private var inUse = false
    /// The spare helpers, started while the helper was out.
    private var spares = SpareHelpers()
    /// Voices the speech thread waits for a spare of (the loader loads them).
    private var sparesWanted: [String] = []
    private var lastUse = ContinuousClock.now
    private var idleUnload: Duration
    /// ONNX Runtime's threads in the helpers started from now on (`ANNOUNCED_PIPER_THREADS`);
    /// nil leaves the helper's own default (or the daemon's environment) in place.
    private var threads: Int?
    private var loaderStarted = false
    /// Set by `shutDown`: the loader stops the helper and ends, and then sets `loaderEnded`.
    private var shuttingDown = false
    private var loaderEnded = false
    /// Where the loader logs (the first backend's speech logger).
    private var logger = Logger(label: "announced.speech")

    /// How the helper is found.
    let helperKind: EngineHelperKind

    /// Piper, with its helper found as `helper` says (tests name a missing one), stopped after
    /// `idleUnload` without use.
    init(idleUnload: Duration = EngineSettings().idleUnload, helper: EngineHelperKind = PiperEngine.helper) {
        self.idleUnload = idleUnload
        helperKind = helper
    }

    /// How long a voice may take to load before the helper counts as stuck, in milliseconds.
    private var loadTimeout: Int32 { helperKind.loadTimeout ?? helperKind.silenceLimit }

    /// Its renderings kept for phrases said again: a Piper voice synthesizes a whole sentence
    /// before its first sample, so a repeated phrase is played from here instead.
    let renderedAudio: RenderedAudioCache? = RenderedAudioCache(limit: EngineSettings().speechCacheBytes)

    /// Piper's voices are files the user installs: its catalog watches their directories.
    func makeInstalledVoiceCatalog(
        environment: [String: String], logger: Logger, filesChanged: @escaping @Sendable (Set<String>) -> Void
    ) -> (any InstalledVoiceCatalog)? {
        PiperVoiceCatalog(
            directories: PiperVoiceDirectories(environment: environment), logger: logger, filesChanged: filesChanged)
    }

    func configure(_ settings: EngineSettings) {
        renderedAudio?.setLimit(settings.speechCacheBytes)
        setIdleUnload(settings.idleUnload)
        if let threads = settings.synthesisThreads { setThreads(threads) }
    }

    /// Changes the idle time after which the helper is stopped.
    func setIdleUnload(_ duration: Duration) {
        condition.withLock {
            idleUnload = duration
            condition.broadcast()
        }
    }

    /// Sets ONNX Runtime's threads for one synthesis, at most the machine's online cores; a
    /// helper that runs keeps its count until it is next started (after its idle time, or a crash).
    func setThreads(_ count: Int) {
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        condition.withLock { threads = min(max(count, 1), cores) }
    }

    /// Loads `voice` (the path of its `.onnx`) in the background, starting the helper if needed;
    /// returns at once.
    func prepare(voice: String, logger: Logger) {
        condition.withLock {
            self.logger = logger
            want(voice)
        }
    }

    /// The helper's process id (0 when none runs), the voice it has loaded and the one it is
    /// loading, for tests.
    var loadState: (pid: Int32, voice: String?, loading: String?) {
        condition.withLock { (helperPID, loadedVoice, loader.voice) }
    }

    /// The voices asked of the loader and not yet being loaded, for tests.
    var wantedVoices: [String] {
        condition.withLock { wanted }
    }

    /// Has the loader run `hook` (without the lock) each time it is about to stop an idle helper,
    /// for tests that need a request to land while the unload is under way.
    func onIdleStop(_ hook: @escaping @Sendable () -> Void) {
        condition.withLock { beforeIdleStop = hook }
    }

    /// Stops the helper and the loader thread for good, waiting for a load under way to end
    /// first. Loads asked for afterwards never happen.
    func shutDown() {
        condition.withLock {
            shuttingDown = true
            wanted = []
            condition.broadcast()
            condition.wait(until: { !loaderStarted || loaderEnded })
        }
    }

    /// Forgets the renderings in the voices `identifiers`, and has the helper that holds one of
    /// them stopped once it is free, so that the voice is loaded again from its new files when
    /// next used.
    func voiceFilesChanged(_ identifiers: Set<String>) {
        renderedAudio?.forget(voices: identifiers)
        let stale = condition.withLock {
            if let loadedVoice, identifiers.contains(loadedVoice) {
                self.loadedVoice = nil
                helperHoldsReplacedVoice = true
                condition.broadcast()
            }
            if case .loading(let voice, _) = loader, identifiers.contains(voice) {
                loader = .loading(voice, filesReplaced: true)
            }
            return spares.forget(voices: identifiers)
        }
        for spare in stale { spare.stop() }
    }

    /// Asks the loader for a spare helper with `voice`, for the speech thread while a stream has
    /// the helper. Call with the lock held.
    private func wantSpare(_ voice: String) {
        if shuttingDown || sparesWanted.contains(voice) { return }
        failures[voice] = nil
        sparesWanted.append(voice)
        condition.broadcast()
    }

    /// Asks the loader for `voice` unless it is loaded or on its way. Call with the lock held.
    private func want(_ voice: String) {
        if shuttingDown || loadedVoice == voice { return }
        guard !wanted.contains(voice), loader.voice != voice else { return }
        failures[voice] = nil
        wanted.append(voice)
        if !loaderStarted {
            loaderStarted = true
            DedicatedThread.start(name: "piper-loader", stackSize: 512 << 10) { [self] in runLoader() }
        }
        condition.broadcast()
    }

    func helper(for voice: String, on thread: SpeechThread, logger: Logger) -> EngineHelperAnswer {
        condition.withLock {
            self.logger = logger
            waitingThread = thread
            want(voice)
        }
        var answer: EngineHelperAnswer?
        let settled = thread.waitUnlessAborted {
            condition.withLock { () -> Bool in
                if let failure = failures.removeValue(forKey: voice) {
                    answer = .failed(failure)
                } else if loader == .idle, !inUse, let process, loadedVoice == voice {
                    inUse = true
                    answer = .ready(process)
                } else if let spare = spares.take(voice: voice) {
                    answer = .ready(spare)
                } else if inUse {
                    // A stream has the helper: this post does not wait for it, but for a spare.
                    wantSpare(voice)
                } else {
                    // Asked again in case a voice prepared meanwhile took its place in the helper.
                    want(voice)
                }
                return answer != nil
            }
        }
        guard settled, let answer else { return .aborted }
        return answer
    }

    /// The helper when it has `voice` loaded and nobody else has it; otherwise nil, and `voice`
    /// is asked for (unless its load failed: `helper(for:)` reports that when its run comes).
    func readyHelper(for voice: String, logger: Logger) -> EngineHelperProcess? {
        condition.withLock {
            self.logger = logger
            if !inUse, loader == .idle, let process, loadedVoice == voice, process.isRunning {
                inUse = true
                return process
            }
            if let spare = spares.take(voice: voice) { return spare }
            if failures[voice] == nil { inUse ? wantSpare(voice) : want(voice) }
            return nil
        }
    }

    func lease(for voice: String, cancelled: () -> Bool, logger: Logger) -> EngineHelperAnswer {
        condition.withLock {
            self.logger = logger
            while true {
                if shuttingDown { return .failed("announced is stopping") }
                if let failure = failures.removeValue(forKey: voice) { return .failed(failure) }
                if !inUse, loader == .idle, let process, loadedVoice == voice, process.isRunning {
                    inUse = true
                    return .ready(process)
                }
                if let spare = spares.take(voice: voice) { return .ready(spare) }
                if inUse || (loader.voice != nil && loader.voice != voice) {
                    // The helper is out with another request, or loads another voice: a spare of
                    // this request's own, loaded here, on the stream's thread. (`.unloading` is
                    // the helper being stopped, idle or with replaced files: over in moments, so
                    // the request waits for it and for the one load it asks for.)
                    let threads = self.threads
                    let result = condition.withoutLock {
                        load(voice, helper: nil, threads: threads, spare: true, logger: logger)
                    }
                    guard let spare = result.helper, result.failure == nil else {
                        condition.withoutLock { _ = result.helper?.stop() }
                        return .failed(result.failure ?? "the piper helper could not start")
                    }
                    spares.lend(spare)
                    return .ready(spare)
                }
                want(voice)
                if cancelled() { return .aborted }
                // The loader broadcasts when a load ends; the deadline only looks at `cancelled` again.
                _ = condition.wait(until: monotonicTime(after: .milliseconds(20)))
            }
        }
    }

    func giveBack(_ helper: EngineHelperProcess, voice: String, logger: Logger) {
        // Whether a spare was kept (nil when `helper` is the engine's own), and the idle spares to stop.
        let (spareKept, idleSpares): (Bool?, [EngineHelperProcess]) = condition.withLock {
            guard helper === process else {
                return (spares.giveBack(helper, voice: voice, keep: inUse && !shuttingDown), [])
            }
            // The overlap has ended: the idle spares go.
            let idleSpares = spares.drain()
            inUse = false
            lastUse = .now
            if !helper.isRunning {
                // It crashed or hung and was stopped: load the voice again now, so the next post
                // finds it ready.
                loadedVoice = nil
                helperPID = 0
                want(voice)
            }
            condition.broadcast()
            return (nil, idleSpares)
        }
        if spareKept == false { logger.info("piper spare helper stopped", metadata: ["how": "\(helper.stop())"]) }
        for spare in idleSpares { logger.info("piper spare helper stopped", metadata: ["how": "\(spare.stop())"]) }
    }

    // MARK: - The loader thread

    /// Loads what is wanted, and stops the helper once it has been idle for `idleUnload`.
    private func runLoader() {
        condition.withLock {
            while true {
                if shuttingDown, loader == .idle { return endLoader() }
                if helperHoldsReplacedVoice, !inUse, loader == .idle {
                    helperHoldsReplacedVoice = false
                    if let helper = process, helperPID != 0 {
                        stopHelper(helper, saying: "piper helper stopped: the files of its voice were replaced")
                    }
                } else if let voice = sparesWanted.first {
                    loadSpare(voice)
                } else if !inUse, loader == .idle, let voice = wanted.first {
                    loadWanted(voice)
                } else if !inUse, loader == .idle, wanted.isEmpty, let helper = process, helperPID != 0 {
                    let idle = ContinuousClock.now - lastUse
                    if idle >= idleUnload {
                        stopHelper(
                            helper, saying: "piper helper stopped after its idle time; its voices are unloaded",
                            first: beforeIdleStop)
                    } else {
                        _ = condition.wait(until: monotonicTime(after: idleUnload - idle))
                    }
                } else {
                    condition.wait()
                }
            }
        }
    }

    /// Shutdown: stops the helper and the idle spares, and tells `shutDown` the loader has ended.
    /// Called with the lock held.
    private func endLoader() {
        let helper = process
        process = nil
        loadedVoice = nil
        helperPID = 0
        let idleSpares = spares.drain()
        condition.withoutLock {
            _ = helper?.stop()
            for spare in idleSpares { spare.stop() }
        }
        loaderEnded = true
        condition.broadcast()
    }

    /// Stops the engine's own helper, unloading its voice, and logs `message` with how it ended;
    /// `first` runs just before, without the lock (``onIdleStop(_:)``). The loader is
    /// `.unloading` meanwhile, which `lease` waits for. Called with the lock held.
    private func stopHelper(_ helper: EngineHelperProcess, saying message: String, first: (@Sendable () -> Void)? = nil)
    {
        loader = .unloading
        loadedVoice = nil
        let logger = self.logger
        condition.withoutLock {
            first?()
            let ending = helper.stop()
            logger.info("\(message)", metadata: ["how": "\(ending)"])
        }
        loader = .idle
        helperPID = 0
    }

    /// Loads a spare helper with `voice` for a post that came while a stream had the helper.
    /// Called with the lock held.
    private func loadSpare(_ voice: String) {
        let threads = self.threads
        let logger = self.logger
        let result = condition.withoutLock {
            load(voice, helper: nil, threads: threads, spare: true, logger: logger)
        }
        sparesWanted.removeFirst()
        if let spare = result.helper, result.failure == nil {
            spares.add(spare, voice: voice)
        } else {
            _ = result.helper?.stop()
            failures[voice] = result.failure ?? "the piper helper could not start"
        }
        wakeWaiters()
    }

    /// Loads `voice`, the first wanted, into the engine's own helper (started if none runs).
    /// Called with the lock held.
    private func loadWanted(_ voice: String) {
        wanted.removeFirst()
        loader = .loading(voice, filesReplaced: false)
        let helper = process
        let logger = self.logger
        let threads = self.threads
        let result = condition.withoutLock {
            load(voice, helper: helper, threads: threads, spare: false, logger: logger)
        }
        let filesReplaced = loader == .loading(voice, filesReplaced: true)
        loader = .idle
        process = result.helper
        helperPID = result.pid
        loadedVoice = result.failure == nil && !filesReplaced ? voice : nil
        if filesReplaced, result.failure == nil {
            helperHoldsReplacedVoice = true
            want(voice)
        }
        if let failure = result.failure { failures[voice] = failure }
        lastUse = .now
        wakeWaiters()
    }

    /// A load ended: wakes the speech thread and the streams waiting in `lease` to look again.
    /// Called and returns with the lock held; the speech thread is woken outside it.
    private func wakeWaiters() {
        condition.broadcast()
        let waiting = waitingThread
        condition.withoutLock { waiting?.wake() }
    }

    /// What a load did: the helper (nil when its executable was not found), its process id (0
    /// when it does not run), and why the voice did not load.
    private struct LoadResult {
        var helper: EngineHelperProcess?
        var pid: Int32 = 0
        var failure: String?
    }

    /// Starts the helper if it does not run, then loads `voice` into it: the engine's helper on the
    /// loader thread, or a `spare` (a new helper) on the loader or a stream's thread.
    private func load(
        _ voice: String, helper existing: EngineHelperProcess?, threads: Int?, spare: Bool, logger: Logger
    ) -> LoadResult {
        let clock = ContinuousClock()
        let began = clock.now
        var result = LoadResult(helper: existing)
        let helper: EngineHelperProcess
        do throws(SpeechSynthesisError) {
            if let existing { helper = existing } else { helper = try EngineHelperProcess(kind: helperKind) }
            result.helper = helper
            if !helper.isRunning {
                helper.extraEnvironment = threads.map { ["ANNOUNCED_PIPER_THREADS=\($0)"] } ?? []
                try helper.start()
                if !spare {
                    condition.withLock { helperPID = helper.pid }
                }
                logger.notice(
                    spare ? "piper spare helper started" : "piper helper started",
                    metadata: ["helper": "\(helper.path)", "threads": "\(threads.map(String.init) ?? "default")"])
            }
        } catch {
            logger.error("piper helper cannot start", metadata: ["error": "\(error)"])
            result.failure = error.message
            return result
        }
        let problem = loadVoice(voice, into: helper, logger: logger)
        result.pid = helper.pid
        if let problem {
            result.failure = problem
            return result
        }
        logger.info(
            "piper voice loaded",
            metadata: [
                "voice": "\(voice)", "ms": "\(milliseconds(clock.now - began))",
                "helper": "\(spare ? "spare" : "warm")",
            ]
        )
        return result
    }

    /// Has the running helper load `voice`; nil when it did, else why not (the helper is stopped
    /// when it died, hung or broke its sandbox meanwhile).
    private func loadVoice(_ voice: String, into helper: EngineHelperProcess, logger: Logger) -> String? {
        guard helper.send(.prepare(voice: voice)) else {
            let ending = helper.stop()
            return "the piper helper \(ending) before it could load the voice \(voice); see the daemon's log"
        }
        switch helper.next(timeout: loadTimeout) {
        case .voicePrepared(0, _)?:
            return nil
        case .voicePrepared(_, let message)?:
            logger.warning("piper could not load a voice", metadata: ["voice": "\(voice)", "why": "\(message)"])
            return
                "piper could not load the voice \(voice): \(message). `announcectl voices` lists the voices installed"
        default:
            let stuck = helper.isStuck
            let ending = helper.stop()
            logger.error(
                "piper helper ended while loading a voice", metadata: ["voice": "\(voice)", "how": "\(ending)"])
            if let breach = helper.sandboxBreach {
                return
                    "the piper helper was stopped for breaking its sandbox (\(breach)) while loading the voice \(voice); please report this to announced's developers"
            }
            return stuck
                ? "piper did not load the voice \(voice) within \(loadTimeout / 1000) s (its process \(ending))"
                : "the piper helper \(ending) while loading the voice \(voice); its file may be damaged: install it again"
        }
    }
}

/// `duration` in whole milliseconds, for the log.
func milliseconds(_ duration: Duration) -> Int64 {
    let parts = duration.components
    return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
}
