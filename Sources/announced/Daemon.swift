// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceProtocol
import AnnounceSSIP
import AnnounceServer
import DaemonConfiguration
import Glibc
import Logging
import ServiceLifecycle
import SpeechProvider
import SpeechSynthesis
import UnixSignals

/// Why the daemon could not start: one line that says what to do.
struct StartupError: Error, CustomStringConvertible {
    var description: String
}

/// Wires the daemon together: speech engine, dispatcher, server, signals, and runs them as one
/// `ServiceGroup` (``services``), which starts them and shuts them down in its order.
struct Daemon {
    let options: Announced
    /// The speech thread, started by `main`; every engine's helper belongs to it.
    let speech: SpeechThread
    let loader: SettingsLoader
    let loaded: LoadedSettings
    let environment: [String: String]
    let logger: Logger

    func run() async throws {
        let settings = loaded.settings
        // The one place the doors' values come from: derived once here, published again by each
        // reload; the dispatcher follows it, the Spiel provider reads it at each request.
        let flow = SettingsFlow(LiveSettings(settings))
        let live = flow.current
        let dispatcherConfiguration = DispatcherConfiguration(live, version: Announced.version)

        // The protocol's order: --socket, the file's `socket` (both in settings.socket), ANNOUNCED_SOCKET, XDG_RUNTIME_DIR, /tmp.
        let location = SocketLocation.resolve(flag: nil, config: settings.socket, environment: environment)
        let socketPath = location.path
        let activation = Systemd.activationSockets(environment: environment)
        var serverConfiguration = ServerConfiguration(location: location, activationSocket: activation?.main)
        // SSIP: a socket passed by announced-ssip.socket is served whatever ssip_socket says
        // (enabling that unit is how a user turns SSIP on); otherwise the setting decides.
        serverConfiguration.ssipActivationSocket = activation?.ssip
        serverConfiguration.ssipLocation = settings.ssipSocket.location(environment: environment)
        for (descriptor, name) in activation?.unrecognized ?? [] {
            logger.warning(
                "socket activation passed a socket announced does not know; it is not served (name it announced or ssip with FileDescriptorName= in its socket unit)",
                metadata: ["descriptor": "\(descriptor)", "name": "\(name ?? "none")"]
            )
        }
        serverConfiguration.maxLineBytes = settings.maxLineBytes
        serverConfiguration.maxOutboundBytes = settings.maxOutboundBytes
        serverConfiguration.allowUIDs = settings.allowUIDs
        serverConfiguration.limits = DecodingLimits(maxTextChars: live.maxTextChars)

        let output = try AudioOutputFactory(logger: logger).makeOutput(
            settings.audioOutput, device: settings.audioDevice)
        let dispatcher = await MainActor.run {
            Dispatcher(configuration: dispatcherConfiguration, logger: Logger(label: "announced.dispatcher"))
        }
        // The engine waits for the espeak-ng helper to load espeak-ng; meanwhile the event loop
        // threads start.
        AnnounceServer.prepareEventLoops()
        let ducker = DuckingStart(logger: Logger(label: "announced.duck")).makeDucker(
            settings.duck, output: output, socketPath: socketPath)
        // The speech service turns other applications back up on shutdown; this covers a start
        // that fails (a crash leaves it to the next start).
        defer { ducker?.restoreBeforeExit() }
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
        // Language runs follow the default voice and `voice_for_language` through reloads too.
        let configureRuns = { @Sendable [engine] (live: LiveSettings) in
            engine.configureLanguageSwitching(
                settings.languageSwitching, languages: settings.languages, defaultVoice: live.voice,
                voicePreferences: live.voicePreferences)
        }
        configureRuns(live)
        flow.observe(configureRuns)
        let trimmer = MemoryTrimmer(logger: logger)
        // The first turn: the backend attached, the trimmer told of every turn, the voice checked,
        // and the reloader that SIGHUP runs in later turns.
        let environment = self.environment
        let startingReloader = await dispatcher.inTurn { dispatcher -> Result<Reloader, StartupError> in
            dispatcher.attach(engine)
            dispatcher.follow(flow)
            trimmer.watch(dispatcher)
            if let unknown = dispatcher.unknownVoice(in: live) { return .failure(StartupError(description: unknown)) }
            dispatcher.warnAboutMissingPreferredVoices(settings.voiceForLanguage, logger: logger)
            return .success(
                Reloader(
                    loader: loader, current: loaded, flow: flow, dispatcher: dispatcher, environment: environment,
                    logger: logger))
        }
        let reloader = try startingReloader.get()
        // SIGHUP's handler is installed here, before READY=1, so a reload right after it is
        // handled: its default action (ending the process) is ignored, and the signal source is
        // registered before the sequence is returned.
        signal(SIGHUP, SIG_IGN)
        let hangups = await UnixSignalsSequence(trapping: .sighup)

        // SSIP's lists and OUTPUT_MODULE read a catalog of the voices and of Piper's helper
        // (`piper` is a module once it is installed, voices or not), made again on the voice
        // catalog's thread whenever a Piper voice is installed or removed. The watch starts before
        // READY=1, so a voice installed right after it is seen.
        let ssip = SSIPFrontEnd(
            lookForVoices: { [engine] in engine.voices }, lookForEngines: { [engine] in engine.installedEngines() },
            maxLineBytes: settings.maxLineBytes, maxTextChars: live.maxTextChars
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
            configuration: serverConfiguration, dispatcher: dispatcher, logger: logger, ssip: ssip)
        let toolkit = ToolkitAnnouncementService(
            mode: settings.toolkitAnnouncements, ignored: Set(settings.toolkitAnnouncementsIgnore), session: desktop,
            clients: ToolkitAnnouncementClients(
                dispatcher: dispatcher, limits: DecodingLimits(maxTextChars: live.maxTextChars),
                newClientID: { [server] in server.reserveClientID() }),
            logger: logger)
        let frontEnds = server.frontEndServices {
            [logger, audio = "\(output)", voice = dispatcherConfiguration.voice] in
            logger.info("ready", metadata: ["audio": "\(audio)", "voice": "\(voice)"])
            Systemd.notify("READY=1", environment: environment)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: Self.services(
                    speech: SpeechService(thread: speech, ducker: ducker, logger: logger),
                    voices: VoiceCatalogService(catalog: installedVoices), spiel: spiel, trimmer: trimmer,
                    reload: ReloadService(signals: hangups, reloader: reloader, dispatcher: dispatcher),
                    screenReader: ScreenReaderWatchService(
                        desktop: desktop, dispatcher: dispatcher, logger: Logger(label: "announced.screen-reader")),
                    frontEnds: frontEnds, toolkit: toolkit,
                    dispatcher: DispatcherService(dispatcher: dispatcher, logger: logger)
                ),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        do {
            try await group.run()
        } catch let error as SocketSetupError {
            throw StartupError(description: error.description)
        } catch {
            throw StartupError(description: "cannot serve \(socketPath): \(error)")
        }
    }
}

extension Daemon {
    /// The daemon's services in the group's order. They start together; on SIGTERM or SIGINT
    /// the group shuts them down one at a time in the reverse order, each after the one before
    /// it has returned: the dispatcher (every post ends `shutdown` and its lines go to the
    /// connections), the toolkit announcements' bus front end, the socket front ends (sockets
    /// closed, each connection closed after its last line), the Spiel provider (its streams
    /// ended, its object withdrawn; with `speech_provider` on), the screen reader watch (the
    /// session bus closed: the last of the three services that use it), reload, the memory
    /// trimmer, the voice catalog's watch, and last speech (the speech thread and the engines'
    /// helpers stopped). A service that ends on its own ends the group the same way; one that
    /// fails cancels the others, which then stop as they would.
    static func services(
        speech: SpeechService, voices: VoiceCatalogService, spiel: SpeechProviderService?, trimmer: MemoryTrimmer,
        reload: ReloadService, screenReader: ScreenReaderWatchService, frontEnds: [FrontEndService],
        toolkit: ToolkitAnnouncementService, dispatcher: DispatcherService
    ) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        let inOrder: [(service: any Service, name: String)] =
            [
                (speech, "speech"), (voices, "voice catalog"), (trimmer, "memory trimmer"), (reload, "reload"),
                (screenReader, "screen reader watch"),
            ]
            + (spiel.map { [($0, "spiel provider")] } ?? [])
            + frontEnds.map { ($0, "front end \($0.protocolName)") }
            + [(toolkit, "front end atspi"), (dispatcher, "dispatcher")]
        return inOrder.map {
            .init(service: $0.service, successTerminationBehavior: .gracefullyShutdownGroup, serviceName: $0.name)
        }
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
