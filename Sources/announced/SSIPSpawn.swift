// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import AnnounceProtocol
import AnnounceServer
import DaemonConfiguration
import Glibc

/// `announced --spawn`: speech-dispatcher's autospawn, answered by announced.
///
/// libspeechd and python3-speechd run `$SPEECHD_CMD --spawn --communication-method unix_socket
/// --socket-path PATH` when they cannot connect, and connect again once it exits 0. This makes
/// sure a daemon serves SSIP at PATH: when something already accepts connections there, it exits
/// 0 at once; when an announced already serves the main socket without SSIP, it says how to turn
/// SSIP on there (a second daemon could not have the main socket); otherwise it starts announced
/// in the background (``DetachedDaemon``) with `--ssip-socket PATH` and the daemon flags it was
/// given, and exits 0 once PATH accepts connections.
struct SSIPSpawn {
    /// How long the daemon may take to serve PATH: far more than loading espeak-ng needs, so a
    /// loaded machine has room.
    static let readinessTimeout = Duration.seconds(30)

    /// The spawn options as given.
    let options: SpawnOptions
    /// The daemon's own flags, for the settings (the main socket) and for the daemon started.
    let commandLine: CommandLineSettings
    /// The same flags as arguments for the daemon, paths made absolute (it starts in `/`).
    let daemonArguments: [String]
    /// This process's environment.
    let environment: [String: String]

    /// Why there is no daemon serving PATH: one line, without the `announced:` prefix.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs; returns the exit status, having written the reason to stderr when it is not 0.
    func run() -> Int32 {
        do {
            try ensureServed()
            return 0
        } catch {
            printToStandardError("announced: \(error.description)")
            return 1
        }
    }

    /// Returns once PATH accepts connections.
    func ensureServed() throws(Failure) {
        if options.communicationMethod == .inetSocket {
            throw Failure(
                description: "announced serves SSIP on a Unix socket only, not on TCP port \(options.port ?? 6560); "
                    + "unset SPEECHD_ADDRESS or set it to unix_socket (or unix_socket:/path) so the client looks for a Unix socket"
            )
        }
        let target = ssipLocation()
        if SocketPreparation.isLive(target.path) { return }

        let loader = SettingsLoader(commandLine: commandLine, environment: environment)
        let loaded: LoadedSettings
        do {
            loaded = try loader.load()
        } catch {
            throw Failure(description: error.description)
        }
        let main = SocketLocation.resolve(flag: nil, config: loaded.settings.socket, environment: environment)
        if SocketPreparation.isLive(main.path) {
            throw Failure(
                description: notServingSSIP(
                    main: main.path, target: target, file: loaded.file ?? loader.candidates[0].path))
        }

        let log = try SpawnLog.open(environment: environment)
        defer { close(log.descriptor) }
        let ssipArgument = target.isDefault ? "default" : target.path
        let daemon: DetachedDaemon
        do {
            daemon = try DetachedDaemon(
                executable: Self.ownExecutable(), arguments: daemonArguments + ["--ssip-socket", ssipArgument],
                environment: environment, log: log.descriptor
            )
        } catch {
            throw Failure(description: error.description)
        }
        let deadline = ContinuousClock.now + Self.readinessTimeout
        var outcome = daemon.waitUntilReady(deadline: deadline)
        if outcome == .ready {
            // READY=1 comes once the daemon serves both sockets; PATH itself is the proof.
            outcome = daemon.waitUntil(deadline: deadline) { SocketPreparation.isLive(target.path) }
        }
        switch outcome {
        case .ready:
            return
        case .exited(let status):
            // Another spawn started at the same moment may have won the main socket: its daemon
            // serves PATH, or is about to (it binds the main socket first).
            if Self.servedByAnother(target: target.path, main: main.path, deadline: deadline) { return }
            let reason = SpawnLog.lastLine(of: log.path)
            let ending = Self.describe(status)
            throw Failure(
                description: reason.map {
                    "the daemon it started \(ending) before serving \(target.path): \($0) (its log: \(log.path))"
                }
                    ?? "the daemon it started \(ending) before serving \(target.path); its log: \(log.path)"
            )
        case .timedOut:
            throw Failure(
                description:
                    "the daemon it started (pid \(daemon.pid)) does not serve \(target.path) after \(Self.readinessTimeout); "
                    + "it is left running, and its log (\(log.path)) says what it is doing"
            )
        }
    }

    /// Whether, once the daemon this spawn started has ended, another daemon serves `target`: at
    /// once, or soon while one serves `main` (a daemon binds its main socket first, then the SSIP
    /// one). There is no event for a socket starting to listen, so this tries again each 10 ms,
    /// at most until `deadline`.
    static func servedByAnother(target: String, main: String, deadline: ContinuousClock.Instant) -> Bool {
        while true {
            if SocketPreparation.isLive(target) { return true }
            guard SocketPreparation.isLive(main), ContinuousClock.now < deadline else { return false }
            poll(nil, 0, 10)
        }
    }

    /// Where SSIP is to be served: `--socket-path`, made absolute, or speech-dispatcher's default
    /// place. The default place counts as a default location (its directory must be the user's
    /// own, mode 0700) also when it is named by its path, as libspeechd names it.
    func ssipLocation() -> SocketLocation {
        let standard = SocketLocation.speechDispatcherDefault(environment: environment)
        guard let path = options.socketPath, path != "default" else { return standard }
        let absolute = Self.absolute(path)
        return absolute == standard.path ? standard : SocketLocation(path: absolute, isDefault: false)
    }

    /// What to do when an announced serves `main` but not SSIP at `target`.
    func notServingSSIP(main: String, target: SocketLocation, file: String) -> String {
        let value = target.isDefault ? "default" : target.path
        return
            "announced already serves \(main) but not SSIP at \(target.path), and a second daemon cannot share its socket; "
            + "turn SSIP on in it (\"ssip_socket\": \"\(value)\" in \(file), or `systemctl --user enable --now announced-ssip.socket`) "
            + "and restart it (`systemctl --user restart announced`)"
    }

    /// `path` made absolute against the working directory.
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (directory == "/" ? "" : directory) + "/" + path
    }

    /// This executable's path (the daemon started is this same announced).
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A wait status in words: `exited with status 1`, `was killed by signal 9`.
    static func describe(_ status: Int32) -> String {
        let signal = status & 0x7F
        if signal == 0 { return "exited with status \((status >> 8) & 0xFF)" }
        return "was killed by signal \(signal)"
    }
}
