// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import AnnounceSSIP
import AnnounceServer
public import DaemonConfiguration
import Glibc
public import Logging
import ServiceLifecycle
import SpeechProvider
public import SpeechSynthesis
import UnixSignals

/// Why the daemon could not start: one line that says what to do.
public struct StartupError: Error, CustomStringConvertible {
    /// The line: what failed, and what to do next.
    public var description: String
}

/// Wires the daemon together: speech engine, dispatcher, server, signals, and runs them as one
/// `ServiceGroup` (``services``), which starts them and shuts them down in its order.
public struct Daemon {
    /// The daemon's version, for `hello`'s answer.
    let version: String
    /// The speech thread, started by `main`; every engine's helper belongs to it.
    let speech: SpeechThread
    let loader: SettingsLoader
    let loaded: LoadedSettings
    let environment: [String: String]
    let logger: Logger

    /// A daemon of `version` that speaks on `speech` with the settings `loaded` (re-read by
    /// `loader` on SIGHUP), in `environment`.
    public init(
        version: String, speech: SpeechThread, loader: SettingsLoader, loaded: LoadedSettings,
        environment: [String: String], logger: Logger
    ) {
        self.version = version
        self.speech = speech
        self.loader = loader
        self.loaded = loaded
        self.environment = environment
        self.logger = logger
    }

    /// Serves until SIGTERM or SIGINT, then shuts every service down in order.
    /// - Throws: ``StartupError`` when the daemon cannot start (its line says what to do).
    public func run() async throws {
        // The one place the doors' values come from: derived once here, published again by each
        // reload; the dispatcher follows it, the Spiel provider reads it at each request.
        let flow = SettingsFlow(LiveSettings(loaded.settings))
        let location = SocketLocation.resolve(flag: nil, config: loaded.settings.socket, environment: environment)
        let output = try AudioOutputFactory(logger: logger).makeOutput(
            loaded.settings.audioOutput, device: loaded.settings.audioDevice)
        let dispatcherConfiguration = DispatcherConfiguration(flow.current, version: version)
        let dispatcher = await MainActor.run {
            Dispatcher(configuration: dispatcherConfiguration, logger: Logger(label: "announced.dispatcher"))
        }
        // The engine waits for the espeak-ng helper to load espeak-ng; meanwhile the event loop
        // threads start.
        AnnounceServer.prepareEventLoops()
        let ducker = DuckingStart(logger: Logger(label: "announced.duck")).makeDucker(
            loaded.settings.duck, output: output, socketPath: location.path)
        // The speech service turns other applications back up on shutdown; this covers a start
        // that fails (a crash leaves it to the next start).
        defer { ducker?.restoreBeforeExit() }
        let speaking = try makeEngine(output: output, dispatcher: dispatcher, ducker: ducker, flow: flow)
        let trimmer = MemoryTrimmer(logger: logger)
        let reloader = try await firstTurn(dispatcher, engine: speaking.engine, flow: flow, trimmer: trimmer)
        // SIGHUP's handler is installed here, before READY=1, so a reload right after it is
        // handled: its default action (ending the process) is ignored, and the signal source is
        // registered before the sequence is returned.
        signal(SIGHUP, SIG_IGN)
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let doors = try frontDoors(
            location: location, dispatcher: dispatcher, speaking: speaking, flow: flow,
            ready: { [logger, environment, audio = "\(output)", voice = dispatcherConfiguration.voice] in
                logger.info("ready", metadata: ["audio": "\(audio)", "voice": "\(voice)"])
                Systemd.notify("READY=1", environment: environment)
            })
        let graph = DaemonServiceGraph(
            speech: SpeechService(thread: speech, ducker: ducker, logger: logger),
            voices: VoiceCatalogService(catalog: speaking.installedVoices), trimmer: trimmer,
            reload: ReloadService(signals: hangups, reloader: reloader, dispatcher: dispatcher),
            screenReader: ScreenReaderWatchService(
                desktop: doors.desktop, dispatcher: dispatcher, logger: Logger(label: "announced.screen-reader")),
            spiel: doors.spiel, frontEnds: doors.frontEnds.map { ($0, "front end \($0.protocolName)") },
            toolkit: doors.toolkit, dispatcher: DispatcherService(dispatcher: dispatcher, logger: logger))
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: graph.inOrder, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch let error as SocketSetupError {
            throw StartupError(description: error.description)
        } catch {
            throw StartupError(description: "cannot serve \(location.path): \(error)")
        }
    }
}

/// The engine layer every door speaks through, and the catalog of the installed voices it reads.
struct SpeakingParts {
    let engine: EngineBackend
    let installedVoices: EngineVoiceCatalogs
}

/// The daemon's doors, made before the group runs: the socket server's front ends (JSON lines,
/// SSIP), the toolkit announcements' bus front end, the Spiel provider (with `speech_provider`
/// on) and the session bus they share.
struct FrontDoors {
    let frontEnds: [FrontEndService]
    let toolkit: ToolkitAnnouncementService
    let spiel: SpeechProviderService?
    let desktop: DesktopSession
}

extension Daemon {
    /// The engine layer on the speech thread, its warm helpers and cache sized by the settings,
    /// with the installed voices' catalog; language runs follow the default voice and
    /// `voice_for_language` through reloads too.
    func makeEngine(
        output: any AudioOutput, dispatcher: Dispatcher, ducker: PulseAudioDucker?, flow: SettingsFlow
    ) throws -> SpeakingParts {
        let settings = loaded.settings
        speech.configureEngines(
            EngineSettings(
                idleUnload: .seconds(settings.engineIdleUnload), synthesisThreads: settings.piperThreads,
                speechCacheBytes: settings.speechCache << 20
            ))
        let installedVoices = SpeechEngines.installedVoiceCatalog(
            environment: environment, logger: Logger(label: "announced.voices"), thread: speech
        )
        let engine: EngineBackend
        do {
            engine = try EngineBackend(
                thread: speech, output: output, logger: Logger(label: "announced.speech"),
                eventHandler: dispatcher.backendEventHandler, activity: ducker,
                installedVoices: { installedVoices.voices },
                whenInstalledVoicesCurrent: { installedVoices.whenCurrent($0) }
            )
        } catch {
            throw StartupError(description: "\(error)")
        }
        let configureRuns = { @Sendable [engine] (live: LiveSettings) in
            engine.configureLanguageSwitching(
                settings.languageSwitching, languages: settings.languages, defaultVoice: live.voice,
                voicePreferences: live.voicePreferences)
        }
        configureRuns(flow.current)
        flow.observe(configureRuns)
        return SpeakingParts(engine: engine, installedVoices: installedVoices)
    }

    /// The dispatcher's first turn: the engine attached, the settings followed, the trimmer told
    /// of every turn, the voices checked; returns the reloader that SIGHUP runs in later turns.
    /// - Throws: ``StartupError`` when a voice the settings name is not installed.
    func firstTurn(
        _ dispatcher: Dispatcher, engine: EngineBackend, flow: SettingsFlow, trimmer: MemoryTrimmer
    ) async throws -> Reloader {
        let (loader, loaded, environment, logger) = (self.loader, self.loaded, self.environment, self.logger)
        let starting = await dispatcher.inTurn { dispatcher -> Result<Reloader, StartupError> in
            dispatcher.attach(engine)
            dispatcher.follow(flow)
            trimmer.watch(dispatcher)
            if let unknown = dispatcher.unknownVoice(in: flow.current) {
                return .failure(StartupError(description: unknown))
            }
            dispatcher.warnAboutMissingPreferredVoices(loaded.settings.voiceForLanguage, logger: logger)
            return .success(
                Reloader(
                    loader: loader, current: loaded, flow: flow, dispatcher: dispatcher, environment: environment,
                    logger: logger))
        }
        return try starting.get()
    }

    /// The doors: the socket server (JSON lines at `location`, SSIP as the settings or socket
    /// activation say), the session bus, the Spiel provider and the toolkit announcements. The
    /// voice watch starts here, before READY=1, so a voice installed right after it is seen.
    func frontDoors(
        location: SocketLocation, dispatcher: Dispatcher, speaking: SpeakingParts, flow: SettingsFlow,
        ready: @escaping @Sendable () -> Void
    ) throws -> FrontDoors {
        let settings = loaded.settings
        let (engine, installedVoices) = (speaking.engine, speaking.installedVoices)
        let maxTextChars = flow.current.maxTextChars
        // SSIP's lists and OUTPUT_MODULE read a catalog of the voices and of Piper's helper
        // (`piper` is a module once it is installed, voices or not), made again on the voice
        // catalog's thread whenever a Piper voice is installed or removed.
        let ssip = SSIPFrontEnd(
            lookForVoices: { [engine] in engine.voices }, lookForEngines: { [engine] in engine.installedEngines() },
            maxLineBytes: settings.maxLineBytes, maxTextChars: maxTextChars
        )
        installedVoices.onChange { _ in ssip.voicesChanged() }
        let desktop = DesktopSession(
            environment: environment, alsoOff: Self.offWithoutSessionBus(settings), logger: logger)
        let spiel =
            settings.speechProvider == .on
            ? try spielProvider(engine: engine, flow: flow, session: desktop) : nil
        if let spiel { installedVoices.onChange { _ in spiel.voicesChanged() } }
        installedVoices.startWatching()
        let server = AnnounceServer(
            configuration: serverConfiguration(location: location, maxTextChars: maxTextChars),
            dispatcher: dispatcher, logger: logger, ssip: ssip)
        let toolkit = ToolkitAnnouncementService(
            mode: settings.toolkitAnnouncements, ignored: Set(settings.toolkitAnnouncementsIgnore), session: desktop,
            clients: ToolkitAnnouncementClients(
                dispatcher: dispatcher, limits: DecodingLimits(maxTextChars: maxTextChars),
                newClientID: { [server] in server.reserveClientID() }),
            logger: logger)
        return FrontDoors(
            frontEnds: server.frontEndServices(onReady: ready), toolkit: toolkit, spiel: spiel, desktop: desktop)
    }

    /// The socket server's configuration: the protocol's order for the socket (--socket, the
    /// file's `socket`, ANNOUNCED_SOCKET, XDG_RUNTIME_DIR, /tmp: all in `location`), sockets
    /// passed by systemd, SSIP's socket, the line and outbox limits and the allowed users.
    func serverConfiguration(location: SocketLocation, maxTextChars: Int) -> ServerConfiguration {
        let settings = loaded.settings
        let activation = Systemd.activationSockets(environment: environment)
        var configuration = ServerConfiguration(location: location, activationSocket: activation?.main)
        // SSIP: a socket passed by announced-ssip.socket is served whatever ssip_socket says
        // (enabling that unit is how a user turns SSIP on); otherwise the setting decides.
        configuration.ssipActivationSocket = activation?.ssip
        configuration.ssipLocation = settings.ssipSocket.location(environment: environment)
        for (descriptor, name) in activation?.unrecognized ?? [] {
            logger.warning(
                "socket activation passed a socket announced does not know; it is not served (name it announced or ssip with FileDescriptorName= in its socket unit)",
                metadata: ["descriptor": "\(descriptor)", "name": "\(name ?? "none")"]
            )
        }
        configuration.maxLineBytes = settings.maxLineBytes
        configuration.maxOutboundBytes = settings.maxOutboundBytes
        configuration.allowUIDs = settings.allowUIDs
        configuration.limits = DecodingLimits(maxTextChars: maxTextChars)
        return configuration
    }

    /// announced's voices for Spiel's clients on the daemon's session bus: streams synthesized by the
    /// engines of `speech` (their warm helpers and speech cache), at the voice, rate, pitch, volume
    /// and punctuation `flow` has at each request (a `clients` entry's, matched against
    /// `spiel:<application>`), within the limits every client has.
    /// - Throws: the `Errno` of the provider's stop pipe (out of descriptors).
    func spielProvider(
        engine: EngineBackend, flow: SettingsFlow, session: DesktopSession
    ) throws -> SpeechProviderService {
        let provider = try SpeechProvider(
            settings: flow,
            synthesizer: StreamSynthesizer(thread: speech, logger: Logger(label: "announced.spiel")),
            sampleRate: engine.sampleRate, logger: Logger(label: "announced.spiel"))
        return SpeechProviderService(
            provider: provider, voices: { [engine] in engine.voices },
            connection: session.connection, logger: logger)
    }

    /// What the settings turn on that is off without a session bus, besides the screen reader's
    /// status: named in ``DesktopSession``'s one log line.
    static func offWithoutSessionBus(_ settings: DaemonSettings) -> [String] {
        var off: [String] = []
        if settings.toolkitAnnouncements != .off { off.append("toolkit announcements are not spoken") }
        if settings.speechProvider == .on { off.append("announced is not a Spiel speech provider") }
        return off
    }

    /// Why the voice setting `name` is refused, and what to give instead.
    static func unknownVoice(_ name: String) -> String {
        "the voice \"\(name)\" is not one of espeak-ng's; give a language or file name that `espeak-ng --voices` lists "
            + "(e.g. en-us, en-gb, gmw/en, fr-fr, de, cmn) or an installed Piper voice's name (`announcectl voices` lists them) "
            + "with --voice, ANNOUNCED_VOICE or the file's \"voice\""
    }
}

extension Dispatcher {
    /// Why `settings` cannot be used: the default voice, or a `clients` entry's, is not one an
    /// engine has (the message says what to give instead); nil when every voice is known.
    func unknownVoice(in settings: LiveSettings) -> String? {
        if !knowsVoice(settings.voice) { return Daemon.unknownVoice(settings.voice) }
        for (index, entry) in settings.clients.enumerated() {
            if let voice = entry.voice, !knowsVoice(voice) {
                return
                    "the voice \"\(voice)\" of clients entry \(index + 1) (\"\(entry.match)\") is not installed; give "
                    + "an espeak-ng voice (`espeak-ng --voices`) or an installed Piper voice's name (`announcectl voices` "
                    + "lists them), or remove the entry's voice"
            }
        }
        return nil
    }

    /// Logs a warning for each voice `voice_for_language` names that is not installed (its
    /// language keeps its usual voice until it is).
    func warnAboutMissingPreferredVoices(_ entries: [LanguageVoice], logger: Logger) {
        for entry in entries where !knowsVoice(entry.voice) {
            logger.warning(
                "voice_for_language names the voice \"\(entry.voice)\" for \(entry.language), which is not installed; \(entry.language) speaks with its usual voice until it is (`announcectl voices` lists the voices, `announcectl voices install` installs a Piper voice)"
            )
        }
    }
}

/// Re-reads the settings on SIGHUP and publishes what a reload applies (``LiveSettings``:
/// voice, `voice_for_language`, rate, pitch, volume, punctuation, earcons, `ssip_max_rate`, the history's size and SSIP switch, and
/// `clients`) on the
/// daemon's ``SettingsFlow``, which every door reads, while connections stay open. A bad file, or a
/// voice no engine has, is logged and changes nothing.
///
/// Each reload is bracketed for systemd by `RELOADING=1` and `READY=1` on `NOTIFY_SOCKET`, sent
/// when the reload has been applied (or refused), which also tells tests when it is done.
@MainActor
final class Reloader {
    let loader: SettingsLoader
    var current: LoadedSettings
    let flow: SettingsFlow
    let dispatcher: Dispatcher
    let environment: [String: String]
    let logger: Logger

    init(
        loader: SettingsLoader, current: LoadedSettings, flow: SettingsFlow, dispatcher: Dispatcher,
        environment: [String: String], logger: Logger
    ) {
        self.loader = loader
        self.current = current
        self.flow = flow
        self.dispatcher = dispatcher
        self.environment = environment
        self.logger = logger
    }

    /// Reloads now, in a turn of the dispatcher (``ReloadService``).
    func reload() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        Systemd.notify(
            "RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + Int(now.tv_nsec) / 1000)",
            environment: environment)
        let outcome = apply()
        Systemd.notify("READY=1\nSTATUS=\(outcome)", environment: environment)
    }

    /// Loads and publishes the settings; returns a status line for systemd.
    func apply() -> String {
        let loaded: LoadedSettings
        do {
            loaded = try loader.load()
        } catch {
            logger.error("SIGHUP: not reloaded, the previous settings stay: \(error.description)")
            return "reload failed, previous settings kept: \(error.description)"
        }
        for warning in loaded.warnings { logger.warning("\(warning)") }
        let new = loaded.settings
        let next = flow.current.reloaded(new)
        if let unknown = dispatcher.unknownVoice(in: next) {
            logger.error("SIGHUP: not reloaded, the previous settings stay: \(unknown)")
            return "reload failed, previous settings kept: \(unknown)"
        }
        dispatcher.warnAboutMissingPreferredVoices(new.voiceForLanguage, logger: logger)
        flow.publish(next)
        if let notice = new.restartNotice(since: current.settings) {
            logger.notice("SIGHUP: \(notice)")
        }
        current = loaded
        logger.info(
            "SIGHUP: settings reloaded",
            metadata: [
                "file": "\(loaded.file ?? "none")", "voice": "\(next.voice)", "rate": "\(next.rate)",
                "pitch": "\(next.pitch)", "volume": "\(next.volume)", "punctuation": "\(next.punctuation.rawValue)",
                "earcons": "\(next.earcons)", "ssip_max_rate": "\(next.ssipMaxRate)",
                "clients": "\(next.clients.count)",
            ]
        )
        return "settings reloaded"
    }
}
