// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import Logging
import ServiceLifecycle
import SpeechSynthesis
import UnixSignals

/// The speech thread as a service of the daemon's group, the last to shut down: it idles until
/// graceful shutdown, by which time the dispatcher has ended every post, then stops the speech
/// thread, which stops the engines' helpers (and Piper's loader thread) before it ends, and turns
/// back up what ducking lowered.
struct SpeechService: Service {
    let thread: SpeechThread
    let ducker: PulseAudioDucker?
    let logger: Logger

    func run() async {
        // Cancellation (the group's, when another service failed) stops it the same way.
        try? await gracefulShutdown()
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            thread.stop { stopped.resume() }
        }
        ducker?.restoreBeforeExit()
        logger.info("speech stopped: the speech thread and the engines' helpers have ended")
    }
}

/// The dispatcher as a service of the daemon's group, the first to shut down: on graceful
/// shutdown every post ends `shutdown` and its lines are handed to the connections, before the
/// front ends close their sockets and let each connection close after its last line.
struct DispatcherService: Service {
    let dispatcher: Dispatcher
    let logger: Logger

    func run() async {
        try? await gracefulShutdown()
        logger.info("shutting down: ending every post")
        await dispatcher.shutdown()
    }
}

/// SIGHUP as a service of the daemon's group: each one reloads the settings in a turn of the
/// dispatcher (``Reloader``). The signal's handler is installed before the group runs
/// (`signals` is made then), so a SIGHUP right after `READY=1` is not missed.
struct ReloadService: Service {
    let signals: UnixSignalsSequence
    let reloader: Reloader
    let dispatcher: Dispatcher

    func run() async {
        for await _ in signals.cancelOnGracefulShutdown() {
            let reloader = self.reloader
            await dispatcher.inTurn { _ in reloader.reload() }
        }
    }
}

/// The voice catalog's watch as a service of the daemon's group: the watch thread starts before
/// the group runs (before `READY=1`, so a voice installed right after it is seen); on graceful
/// shutdown it is stopped.
struct VoiceCatalogService: Service {
    let catalog: EngineVoiceCatalogs

    func run() async {
        try? await gracefulShutdown()
        await withCheckedContinuation { (stopped: CheckedContinuation<Void, Never>) in
            catalog.stopWatching { stopped.resume() }
        }
    }
}

/// The daemon's services, each in its place in the group's order (``inOrder``). The slots take any
/// service, so a test can fill them with services of its own and check the order the group starts
/// and stops them in.
struct DaemonServiceGraph {
    var speech: any Service
    var voices: any Service
    var trimmer: any Service
    var reload: any Service
    var screenReader: any Service
    var spiel: (any Service)?
    var frontEnds: [(service: any Service, name: String)]
    var toolkit: any Service
    var dispatcher: any Service

    /// The services in the group's order. They start together; on SIGTERM or SIGINT the group
    /// shuts them down one at a time in the reverse order, each after the one before it has
    /// returned: the dispatcher (every post ends `shutdown` and its lines go to the connections),
    /// the toolkit announcements' bus front end, the socket front ends (sockets closed, each
    /// connection closed after its last line), the Spiel provider (its streams ended, its object
    /// withdrawn; with `speech_provider` on), the screen reader watch (the session bus closed: the
    /// last of the three services that use it), reload, the memory trimmer, the voice catalog's
    /// watch, and last speech (the speech thread and the engines' helpers stopped). A service that
    /// ends on its own ends the group the same way; one that fails cancels the others, which then
    /// stop as they would.
    var inOrder: [ServiceGroupConfiguration.ServiceConfiguration] {
        let named: [(service: any Service, name: String)] =
            [
                (speech, "speech"), (voices, "voice catalog"), (trimmer, "memory trimmer"), (reload, "reload"),
                (screenReader, "screen reader watch"),
            ]
            + (spiel.map { [($0, "spiel provider")] } ?? [])
            + frontEnds
            + [(toolkit, "front end atspi"), (dispatcher, "dispatcher")]
        return named.map {
            .init(service: $0.service, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: $0.name)
        }
    }
}
