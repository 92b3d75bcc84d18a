// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceCore
import AnnounceDaemon
import AnnouncePOSIX
import AnnounceProtocol
import AnnounceServer
import ArgumentParser
import DaemonConfiguration
import Glibc
import Logging
import NIOCore
import ServiceLifecycle
import SpeechSynthesis

/// `announced`: the speech announcement daemon.
@main
struct Announced: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "announced",
        abstract: "Speaks short announcements for apps and scripts, and tells each one how it ended.",
        discussion: """
            Clients talk newline-delimited JSON on a Unix socket (see the announced-protocol(7) man page). \
            Settings come from these flags, then ANNOUNCED_* environment variables, then the \
            configuration file (--config, else $XDG_CONFIG_HOME/announced/announced.json, else \
            /etc/announced/announced.json; the sample with every key: \
            \(SampleConfiguration.whereInstalled)), then the defaults. \
            SIGHUP reloads \(SettingsTable.reloadedKeys.joined(separator: ", ")) from the file; other keys wait for a restart. \
            SIGTERM or SIGINT ends every post with `shutdown`, removes the socket and exits 0.

            The socket is --socket, else the file's socket, else ANNOUNCED_SOCKET, else \
            $XDG_RUNTIME_DIR/announced/announced.sock, else /tmp/announced-<uid>/announced.sock; \
            a socket passed by systemd socket activation is served as it is. The daemon tells \
            systemd READY=1 once it serves.

            Audio outputs (--audio): auto, the default, plays through PulseAudio or PipeWire if a \
            server answers, else ALSA's default device, else null with one warning that speech is \
            not heard. pulse is a PulseAudio/PipeWire stream with about 25 ms of latency: an \
            interruption flushes it, a pause corks it (silent within a few milliseconds, its place \
            kept); if the server restarts, the post playing ends with an error and the next one \
            reconnects. alsa or alsa:DEVICE plays through libasound on default or the named \
            device. null plays into nothing in real time (a two-second announcement takes two \
            seconds). wav:DIR is like null and also writes each post's audio, as far as it was \
            played, to DIR/<seq>.wav (under the hardened systemd unit, allow DIR with \
            ReadWritePaths=DIR in systemctl --user edit announced). A named output that cannot \
            open makes the daemon exit 1 saying what it tried.

            espeak-ng runs in a helper process, announced-espeak, looked for beside the daemon, \
            then in ../libexec/announced; ANNOUNCED_ESPEAK_HELPER names another path. Piper voices \
            are spoken by a second helper, announced-piper, found the same way \
            (ANNOUNCED_PIPER_HELPER), started when a Piper voice is first used and stopped after \
            engine-idle-unload seconds without use. A Piper voice follows rate and volume and \
            ignores pitch (its model has none to change); what it cannot say (spelling, char, a \
            key name's single letters, and the some and all punctuation modes) is spoken by \
            espeak-ng's voice for the same language.

            Language switching: a post whose text mixes languages is spoken in language runs, each \
            by the voice for its language at the post's rate, pitch and volume (language_switching: \
            off, script, the default, or detect; SSML's xml:lang makes a run in every mode but off). \
            With script, Cyrillic in an English post is spoken by espeak-ng's Russian, Greek by its \
            Greek, kana by its Japanese, Han by its Mandarin (cmn-latn-pinyin); languages lists the \
            languages you read, in order, so ["en", "uk"] reads Cyrillic as Ukrainian; detect also \
            identifies phrases of three words or more among languages (CLD2). voice_for_language \
            chooses each run's voice (English with a Piper voice and Russian with espeak-ng in one \
            post); a language no installed voice speaks is spoken by the post's voice. A post stays \
            one post: one started and one terminal line (over SSIP one BEGIN and one END or CANCEL); \
            announcectl monitor shows each run's language, voice and engine as it starts.

            The speech cache (speech_cache, in MiB; 8 by default, 0 turns it off) keeps rendered \
            Piper audio: a phrase said again with the same voice, text, rate, pitch, volume and \
            punctuation is played from it without synthesizing, with the same words, marks and \
            spoken_chars; the least recently used renderings go first, and installing a voice again \
            or removing it drops its audio. espeak-ng is not cached.

            Settings per client (clients in the file, like speech-dispatcher's BeginClient \
            sections): each entry's match is a glob over a client's whole name, matched without \
            regard to case (SSIP's CLIENT_NAME, so *:Orca:* catches Orca's unknown:Orca:default; \
            the hello name, else pid:N; atspi:<app> for toolkit announcements), with any of voice, \
            rate, pitch, volume, punctuation, language and mute. What a message asks wins, then the \
            client's own SSIP SET, then the first matching entry, then the defaults; SIGHUP matches \
            connected clients again. announcectl status shows which entry each client matched.

            Spiel (GNOME's speech API: Orca 46+ with --speech-system=spiel, WebKitGTK, the \
            proposed Speech portal for Flatpak apps) finds announced's voices on the session bus: \
            the daemon owns org.announced.Speech.Provider, object /org/announced/Speech/Provider, \
            interface org.freedesktop.Speech.Provider. Voices lists every voice of both engines \
            (Spiel's identifier is announced's voice name, e.g. en-us or en_us-joe-medium) with \
            its languages, in audio/x-spiel at the engines' rate, with word and SSML mark events; \
            it changes, with PropertiesChanged, when a Piper voice is installed or removed. \
            Synthesize writes the stream to the client's pipe and closes it; a client that closes \
            its end stops it at once. Rate and pitch 1.0 are the rate and pitch settings; volume \
            and punctuation are the settings'. Each stream is synthesized by the engines that \
            speak announcements (their sandboxed helpers, loaded voices and speech cache), never \
            in the announcement queue, within max_text_chars, at most max_pending_per_client \
            streams at once per bus client and 4 for all clients together (a stream that overlaps \
            another request gets a spare helper, with a copy of its voice, for that time). An unknown voice or a text or stream over the limit is a D-Bus error that \
            says why. Without a session bus, or with the name owned by another program, one log \
            line says so and everything else works. speech_provider off (on by default) leaves \
            the name alone. The .deb installs \
            /usr/share/dbus-1/services/org.announced.Speech.Provider.service \
            (SystemdService=announced.service), so a Spiel client starts announced on demand.

            The log goes to standard error, one line per event, e.g. `2026-11-24 03:11:00 info: \
            ready audio=pulse voice=en-us`. Under journald each line starts with its syslog \
            priority instead of the time and level, so journalctl --user -u announced highlights \
            warnings and -p warning filters them.

            The screen reader's status: the daemon follows the desktop's org.a11y.Status \
            (ScreenReaderEnabled, which GNOME sets while Orca runs) on the D-Bus session bus \
            (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus); status answers carry \
            screen_reader and status subscribers get status-changed when it flips. Without a \
            session bus or at-spi2-core it logs one line, screen_reader stays false, and \
            everything else works.

            Exit status: 0 after SIGTERM or SIGINT; 1 when it cannot start (another daemon on the \
            socket, espeak-ng data missing, an unknown voice, a bad configuration, an audio output \
            that cannot open), with one line saying why; 2 for a bad command line.

            speech-dispatcher's clients (Orca, spd-say, python3-speechd, libspeechd) are served \
            too when SSIP is on: --ssip-socket default (or "ssip_socket": "default" in the file, \
            or ANNOUNCED_SSIP_SOCKET) serves it at $XDG_RUNTIME_DIR/speech-dispatcher/speechd.sock, \
            where they look first; the announced-ssip.socket user unit passes that socket to the \
            service instead. When they cannot connect they run $SPEECHD_CMD --spawn \
            --communication-method unix_socket --socket-path PATH; with SPEECHD_CMD set to \
            announced's path (e.g. SPEECHD_CMD=/usr/bin/announced), announced answers it: it exits \
            0 at once if PATH accepts connections, otherwise starts announced in the background \
            serving SSIP at PATH (and its main socket where it usually is; its log is \
            $XDG_STATE_HOME/announced/spawned.log, ~/.local/state/announced/spawned.log by \
            default, the previous one kept as spawned.log.1) and exits 0 once PATH accepts \
            connections (it waits at most 30 s), or 1 with the reason on stderr: \
            for example when an announced already serves the main socket without SSIP (turn \
            ssip_socket on there), or for inet_socket (announced serves SSIP on a Unix socket only).

            Toolkit announcements (toolkit_announcements, auto by default): the daemon asks the \
            session bus (DBUS_SESSION_BUS_ADDRESS) for the accessibility bus (org.a11y.Bus \
            GetAddress, at-spi-bus-launcher) and registers for object:announcement, which GTK's \
            gtk_accessible_announce, Qt's announcement event and ATK's announcement signal send. \
            Each is spoken as a post of a client named atspi:<application name>: an assertive one \
            interrupts like announce, a polite one or one without a politeness waits in line, and \
            each application has a connection's limits. auto speaks them only while \
            org.a11y.Status.ScreenReaderEnabled is false and no process named orca runs; on always; \
            off never (no bus is used). toolkit_announcements_ignore lists application names not \
            to speak. Without a session bus or an accessibility bus the daemon logs one line and \
            serves its sockets as usual.

            Sandboxed apps (Flatpak): toolkit announcements need no permission, since a Flatpak \
            app reaches the accessibility bus by default. The socket needs a hole: \
            --filesystem=xdg-run/announced (flatpak run, flatpak override or finish-args) binds \
            $XDG_RUNTIME_DIR/announced into the sandbox, where the app finds \
            announced.sock as outside; SSIP clients need --filesystem=xdg-run/speech-dispatcher \
            the same way. An app may instead speak through Spiel (org.freedesktop.Speech.Provider) \
            when announced is its speech provider.
            """,
        version: version
    )

    @Option(help: ArgumentHelp("The configuration file.", valueName: "file"))
    var config: String?

    /// The settings flags (`--rate 200`), read by ``CommandLineSettings`` from the table of
    /// settings (SettingsTable), which also gives their help: one definition per setting.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp(
            "Settings flags, each over its ANNOUNCED_* variable and the file's key (the sample configuration has every key):",
            discussion: SettingsDocumentation.flagsHelp, valueName: "setting-flag value"))
    var settingsFlags: [String] = []

    @OptionGroup(title: "Autospawn by speech-dispatcher's clients (SPEECHD_CMD)")
    var spawnOptions: SpawnOptions

    /// Parses the command line and runs; usage errors exit 2, like announcectl's.
    static func main() async {
        MemoryTrimmer.configureAllocator()
        // NIO's thread pool for blocking work (`NIOThreadPool.singleton`) runs the services' rare,
        // short blocking calls (malloc_trim, /proc reads); one thread is enough, where NIO's
        // default is one per core. Set before anything uses the pool, as NIO requires.
        NIOSingletons.blockingPoolThreadCountSuggestion = 1
        // The daemon's Swift tasks run on NIO's event loops, not on libdispatch's global queues,
        // whose first worker starts a timer that wakes the process once a second for good
        // (ARCHITECTURE.md, "Idle means asleep"). Installed before any task is created.
        EventLoopExecutor.install()
        // Loading espeak-ng in its helper is the longest step of a start (Benchmarks/README.md),
        // so the speech thread, which starts it, begins before anything else; a run that fails or
        // only prints help or the version exits, and the helper ends with it (its pipe closes).
        let speech = startsEngine(CommandLine.arguments.dropFirst()) ? SpeechThread.start() : nil
        do {
            var command = try parseAsRoot()
            if let daemon = command as? Announced {
                try await daemon.run(speech: speech)
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                printToStandardError(fullMessage(for: error))
                Self.exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }

    /// Whether the command line only asks for help, the version or the description the man page
    /// is made from (`--experimental-dump-help`): then the helper is not started early (the start
    /// is only a head start, the engine starts it when needed anyway).
    static func printsOnly(_ arguments: ArraySlice<String>) -> Bool {
        arguments.contains { ["-h", "--help", "--version", "help", "--experimental-dump-help"].contains($0) }
    }

    /// Whether the command line runs the daemon here (not only printing, and not `--spawn`,
    /// which starts the daemon in another process), so the helper is worth a head start.
    static func startsEngine(_ arguments: ArraySlice<String>) -> Bool {
        !printsOnly(arguments) && !arguments.contains("--spawn")
    }

    func validate() throws {
        if spawnOptions.anyGiven, !spawnOptions.spawn {
            throw ValidationError(
                "--communication-method, --socket-path and --port go with --spawn (speech-dispatcher's autospawn)")
        }
    }

    /// The command line's settings, each flag's value parsed by its key; a bad one is a usage error.
    func commandLineSettings() throws -> CommandLineSettings {
        let commandLine: CommandLineSettings
        do {
            commandLine = try CommandLineSettings(config: config, arguments: settingsFlags)
        } catch {
            throw ValidationError(error.description)
        }
        if spawnOptions.spawn, commandLine.sets(SettingsTable.shared.ssipSocket) {
            throw ValidationError("with --spawn the SSIP socket is --socket-path; leave out --ssip-socket")
        }
        return commandLine
    }

    func run() async throws {
        try await run(speech: nil)
    }

    /// Runs the daemon (or `--spawn`), speaking on `speech` when `main` started it early, else on
    /// a speech thread started here.
    func run(speech: SpeechThread?) async throws {
        let environment = ProcessEnvironment.current
        let commandLine = try commandLineSettings()
        if spawnOptions.spawn {
            // The daemon started runs in `/`: its paths are made absolute.
            let spawn = SSIPSpawn(
                options: spawnOptions, commandLine: commandLine,
                daemonArguments: commandLine.arguments(makingPathsAbsolute: SSIPSpawn.absolute),
                environment: environment
            )
            let status = spawn.run()
            if status != 0 { throw ExitCode(status) }
            return
        }
        let loader = SettingsLoader(commandLine: commandLine, environment: environment)
        let loaded: LoadedSettings
        do {
            loaded = try loader.load()
        } catch {
            printToStandardError("announced: \(error.description)")
            throw ExitCode(1)
        }
        let level = Logger.Level(rawValue: loaded.settings.logLevel.rawValue) ?? .info
        LoggingSystem.bootstrap { label in DaemonLogHandler(label: label, level: level, environment: environment) }
        let logger = Logger(label: "announced")
        for warning in loaded.warnings { logger.warning("\(warning)") }
        if let file = loaded.file {
            logger.info("configuration read", metadata: ["file": "\(file)"])
        } else {
            logger.debug(
                "no configuration file",
                metadata: ["looked at": "\(loader.candidates.map(\.path).joined(separator: ", "))"])
        }
        do {
            let speech = speech ?? SpeechThread.start()
            try await Daemon(
                version: Self.version, speech: speech, loader: loader, loaded: loaded, environment: environment,
                logger: logger
            ).run()
        } catch let error as StartupError {
            printToStandardError("announced: \(error.description)")
            throw ExitCode(1)
        }
    }
}
