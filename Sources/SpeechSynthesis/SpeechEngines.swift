// SPDX-License-Identifier: GPL-3.0-or-later
public import Logging
import PiperVoices

/// The daemon's speech engines: the one place, besides each engine's own files, that names them.
///
/// Adding an engine is one type here (a `SpeechEngine` with its `EngineHelperKind`: its
/// executable, silence limit, load timeout and advice), one executable (a `HelperEngine` that
/// `HelperRuntime` runs, on the engines' wire) and one entry in ``registered()``. The speech
/// thread, the backend's routing by voice and the recovery rules are the same for every engine.
public enum SpeechEngines {
    /// A new instance of each engine, in order. The first speaks every voice no other engine
    /// claims, and it starts with the speech thread.
    static func registered() -> [any SpeechEngine] {
        [EspeakEngine(), PiperEngine()]
    }

    /// The voices installed as files for the engines whose voices are files (Piper's), looked
    /// for in the directories `environment` names; the backend's installed voices. The engines
    /// of `thread`, if given, forget their renderings in a voice whose files changed.
    public static func installedVoiceCatalog(
        environment: [String: String], logger: Logger, thread: SpeechThread? = nil
    ) -> PiperVoiceCatalog {
        PiperVoiceCatalog(directories: PiperVoiceDirectories(environment: environment), logger: logger) {
            [weak thread] changed in
            thread?.voiceFilesChanged(changed)
        }
    }
}
