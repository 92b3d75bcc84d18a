// SPDX-License-Identifier: GPL-3.0-or-later
public import Logging

/// The daemon's speech engines: the one place, besides each engine's own files, that names them.
///
/// Adding an engine is one type here (a `SpeechEngine` with its `EngineHelperKind`: its
/// executable, capabilities, silence limit, load timeout and advice; and its
/// `InstalledVoiceCatalog` if its voices are installed files), one executable (a `HelperEngine`
/// that `HelperRuntime` runs, on the engines' wire), one entry in ``registered()``, and its
/// packaging (ARCHITECTURE.md lists it). The speech thread, the backend's routing by voice, the
/// recovery rules and the questions the daemon asks of a voice (its capabilities) are the same
/// for every engine.
public enum SpeechEngines {
    /// A new instance of each engine, in order. The first speaks every voice no other engine
    /// claims, and it starts with the speech thread.
    static func registered() -> [any SpeechEngine] {
        [EspeakEngine(), PiperEngine()]
    }

    /// The voices installed as files for the engines of `thread` whose voices are files (each
    /// engine's own catalog: Piper's), looked for where `environment` says; the backend's
    /// installed voices. The engines forget their renderings in a voice whose files changed.
    public static func installedVoiceCatalog(
        environment: [String: String], logger: Logger, thread: SpeechThread
    ) -> EngineVoiceCatalogs {
        EngineVoiceCatalogs(
            thread.engines.compactMap { engine in
                engine.makeInstalledVoiceCatalog(environment: environment, logger: logger) { [weak thread] changed in
                    thread?.voiceFilesChanged(changed)
                }
            })
    }
}
