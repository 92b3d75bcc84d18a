// SPDX-License-Identifier: GPL-3.0-or-later
public import AnnounceCore
public import Logging
public import PiperVoices

/// The Piper voices installed for this user, as the daemon's voices: the engine seam's backend
/// adds ``voices`` to espeak-ng's and calls ``rescan()`` from its
/// ``SpeechBackend/rescanVoices()``, and the SSIP front-end asks it for `LIST SYNTHESIS_VOICES`
/// and `SET … OUTPUT_MODULE piper`.
///
/// A voice is found by looking, not by watching: ``rescan()`` reads the voice directories again
/// (a few system calls per voice; a pair is read and checked again only when its files changed),
/// and the dispatcher rescans whenever `voices` is asked and whenever a post, `set` or a reload
/// names a voice it does not know. So a voice installed while the daemon runs is there the next
/// time anyone looks for it, with no inotify watch to keep (and lose, when the directory is
/// created after the daemon starts or replaced by a user's symlink) and no thread for it.
///
/// A pair that fails its checks is logged once, as a warning naming the file and what to fix,
/// and left out until it changes.
public final class PiperVoiceCatalog: @unchecked Sendable {
    /// Guards the three variables below (unchecked Sendable: every access holds it).
    private let lock = ConditionLock()
    private var scanner: PiperVoiceScanner
    private var lastVoices: [VoiceDescription] = []
    /// The problems already logged, so each is logged once.
    private var reported: Set<PiperVoiceScanner.Problem> = []
    private let logger: Logger
    /// Told the voices (model paths) whose files a rescan found installed again or removed.
    private let filesChanged: @Sendable (Set<String>) -> Void
    /// Where voices are looked for.
    public let directories: PiperVoiceDirectories

    /// A catalog of the voices in `directories`, scanned once now. `filesChanged` is told, after
    /// each later scan, the voices whose files were installed again or removed
    /// (`SpeechThread.voiceFilesChanged`, so that no rendering of an old voice is played again).
    public init(directories: PiperVoiceDirectories, logger: Logger, filesChanged: @escaping @Sendable (Set<String>) -> Void = { _ in }) {
        scanner = PiperVoiceScanner(directories: directories)
        self.directories = directories
        self.logger = logger
        self.filesChanged = filesChanged
        _ = rescan()
    }

    /// The voices the last scan found, the user's first, each directory's by file name.
    public var voices: [VoiceDescription] {
        lock.lock()
        defer { lock.unlock() }
        return lastVoices
    }

    /// Looks in the directories again and returns the voices found.
    public func rescan() -> [VoiceDescription] {
        lock.lock()
        let scan = scanner.scan()
        let voices = scan.voices.map(VoiceDescription.init(piper:))
        let fresh = scan.problems.filter { !reported.contains($0) }
        reported = Set(scan.problems)
        lastVoices = voices
        let changed = scanner.changedModels
        lock.unlock()
        filesChanged(changed)
        for problem in fresh {
            logger.warning("\(problem.description); the voice is left out until that is fixed")
        }
        return voices
    }
}

extension VoiceDescription {
    /// A Piper voice as the daemon lists it: its name, its model's path as the identifier, its
    /// languages (`en_US` → `en-us`, `en`), dataset and quality as its title, engine `piper`.
    public init(piper voice: PiperVoice) {
        self.init(
            name: voice.name, identifier: voice.modelPath, languages: voice.config.languages, title: voice.title,
            engine: VoiceDescription.piperEngine, quality: voice.config.quality
        )
    }
}
