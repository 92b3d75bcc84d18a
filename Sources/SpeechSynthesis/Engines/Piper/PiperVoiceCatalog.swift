// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
import Glibc
public import Logging
import POSIXThreads
public import PiperVoices

/// The Piper voices installed for this user, as the daemon's voices, kept up to date off the
/// event loops and the main queue: the engine seam's backend adds ``voices`` to espeak-ng's, and
/// the SSIP front-end's catalog is rebuilt from it whenever it changes (``onChange(_:)``).
///
/// Reading ``voices`` only copies the last scan. Scans run at start (in `init`) and on the
/// catalog's own thread (`voice-watch`, ``startWatching()``), which watches the voice directories
/// with inotify and scans again once a change has settled: a voice installed while the daemon
/// runs is listed within a moment, and nobody who asks waits for a directory to be read. A
/// directory that does not exist yet is watched for through its nearest existing parent, so one
/// created after the start is watched from then on.
///
/// A pair that fails its checks is logged once, as a warning naming the file and what to fix,
/// and left out until it changes. Each change to the list is logged (`piper voices changed`).
// Unchecked: its state is touched with `lock` held, or (`scanner`, `reported`) by `init`, then the watch thread.
public final class PiperVoiceCatalog: InstalledVoiceCatalog, @unchecked Sendable {
    /// Guards `lastVoices`, `observers` and `watch` (unchecked Sendable: every access holds it).
    /// Nothing else is locked inside it.
    private let lock = ConditionLock()
    private var lastVoices: [VoiceDescription] = []
    private var observers: [@Sendable ([VoiceDescription]) -> Void] = []
    private var watch: VoiceDirectoryWatch?
    /// Used by `init`, then only by the watch thread.
    private var scanner: PiperVoiceScanner
    /// The problems already logged, so each is logged once (same owners as `scanner`).
    private var reported: Set<PiperVoiceScanner.Problem> = []
    private let logger: Logger
    /// Told the voices (model paths) whose files a rescan found installed again or removed.
    private let filesChanged: @Sendable (Set<String>) -> Void
    /// Where voices are looked for.
    public let directories: PiperVoiceDirectories

    /// A catalog of the voices in `directories`, scanned once now. `filesChanged` is told, after
    /// each later scan, the voices whose files were installed again or removed
    /// (`SpeechThread.voiceFilesChanged`, so that no rendering of an old voice is played again).
    public init(
        directories: PiperVoiceDirectories, logger: Logger,
        filesChanged: @escaping @Sendable (Set<String>) -> Void = { _ in }
    ) {
        scanner = PiperVoiceScanner(directories: directories)
        self.directories = directories
        self.logger = logger
        self.filesChanged = filesChanged
        _ = scan()
    }

    /// The voices the last scan found, the user's first, each directory's by file name.
    public var voices: [VoiceDescription] {
        lock.withLock { lastVoices }
    }

    /// Calls `observer` with the new list after each change, on the catalog's thread. Register
    /// before ``startWatching()``.
    public func onChange(_ observer: @escaping @Sendable ([VoiceDescription]) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    /// Starts the catalog's thread, which watches the directories and scans again after each
    /// change, until ``stopWatching(then:)``. Without inotify (out of instances) the list stays
    /// as the start found it, with a warning that says so.
    public func startWatching() {
        guard let watch = VoiceDirectoryWatch(directories: directories.searchOrder) else {
            let why = String(cString: strerror(errno))
            logger.warning(
                "cannot watch the Piper voice directories (inotify: \(why)); voices installed or removed are seen when announced restarts"
            )
            return
        }
        lock.withLock { self.watch = watch }
        DedicatedThread.start(name: "voice-watch", stackSize: 512 << 10) { [self] in
            watching: while true {
                switch watch.waitForChange() {
                case .changed(let waiters):
                    _ = scan()
                    for settled in waiters { settled() }
                case .unchanged(let waiters):
                    for settled in waiters { settled() }
                case .stopped:
                    break watching
                }
            }
            watch.close()
        }
    }

    /// Calls `current` once ``voices`` reflects every change made to the voice directories before
    /// this call: at once (on the caller's thread) when the catalog does not watch, else on the
    /// catalog's thread, after the scan of a change still settling (a voice just installed), or
    /// as soon as the thread has seen that nothing changed. A request that lists or names voices
    /// waits for this rather than scanning itself, so no scan runs on an event loop or the main
    /// queue, and a voice installed just before is never missed.
    public func whenCurrent(_ current: @escaping @Sendable () -> Void) {
        guard let watch = lock.withLock({ self.watch }) else { return current() }
        watch.whenSettled(current)
    }

    /// Stops the catalog's thread; `stopped` is called once it has ended (at once when it never
    /// started).
    public func stopWatching(then stopped: @escaping @Sendable () -> Void) {
        guard let watch = lock.withLock({ self.watch }) else {
            stopped()
            return
        }
        watch.stop(then: stopped)
    }

    /// Looks in the directories again; publishes, reports and logs what changed. Returns the voices.
    private func scan() -> [VoiceDescription] {
        let scan = scanner.scan()
        let voices = scan.voices.map(VoiceDescription.init(piper:))
        let fresh = scan.problems.filter { !reported.contains($0) }
        reported = Set(scan.problems)
        let (changed, observers) = lock.withLock {
            let changed = lastVoices != voices
            lastVoices = voices
            return (changed, self.observers)
        }
        let changedFiles = scanner.changedModels
        if !changedFiles.isEmpty {
            filesChanged(changedFiles)
        }
        for problem in fresh {
            logger.warning("\(problem.description); the voice is left out until that is fixed")
        }
        if changed, watchStarted {
            for observer in observers { observer(voices) }
            logger.info("piper voices changed", metadata: ["voices": "\(voices.map(\.name).joined(separator: ","))"])
        }
        if !changedFiles.isEmpty, watchStarted {
            logger.info(
                "piper voice files changed", metadata: ["models": "\(changedFiles.sorted().joined(separator: ","))"])
        }
        return voices
    }

    /// Whether the watch thread runs (the first scan, in `init`, is no change to tell).
    private var watchStarted: Bool { lock.withLock { watch != nil } }
}

extension VoiceDescription {
    /// A Piper voice as the daemon lists it: its name, its model's path as the identifier, its
    /// languages (`en_US` → `en-us`, `en`), dataset and quality as its title, engine `piper`.
    public init(piper voice: PiperVoice) {
        self.init(
            name: voice.name, identifier: voice.modelPath, languages: voice.config.languages, title: voice.title,
            engine: PiperEngine.helper.engine, quality: voice.config.quality,
            capabilities: PiperEngine.helper.capabilities
        )
    }
}
