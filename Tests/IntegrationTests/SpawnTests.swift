import Foundation
import Glibc
import TestSupport
import Testing

/// A private home for `announced --spawn`: XDG_RUNTIME_DIR (mode 0700), XDG_STATE_HOME (where the
/// spawned daemon's log goes), XDG_CONFIG_HOME and XDG_CACHE_HOME all inside one temporary folder.
final class SpawnHome {
    let directory = DaemonProcess.makeTemporaryDirectory()
    var runtime: String { directory.appendingPathComponent("run").path }
    var state: String { directory.appendingPathComponent("state").path }
    /// speech-dispatcher's default socket for this home, where `--spawn` serves SSIP by default.
    var defaultSSIPPath: String { runtime + "/speech-dispatcher/speechd.sock" }
    /// The daemon's main socket at its usual default.
    var mainSocketPath: String { runtime + "/announced/announced.sock" }
    /// The spawned daemon's log.
    var logPath: String { state + "/announced/spawned.log" }

    /// The variables `--spawn` and daemons in this home run with.
    var environment: [String: String] {
        [
            "HOME": directory.path, "XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state,
            "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": directory.appendingPathComponent("cache").path,
            // Neither the spawn command nor its daemon may run speech-dispatcher.
            "SPEECHD_CMD": "/bin/false",
        ]
    }

    init() throws {
        guard mkdir(runtime, 0o700) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Runs `announced ARGUMENTS` (`--spawn ...`) to its end in this home; its standard output
    /// and error are read to their end, so a daemon that kept either open would hold this up.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let command = try AnnouncectlProcess(
            arguments, environment: environment.merging(extraEnvironment) { $1 }, executable: DaemonProcess.executable
        )
        command.finishInput()
        return command.finish()
    }
}

@Suite("announced --spawn: speech-dispatcher's autospawn command, for announced")
struct SpawnTests {
    @Test("something already accepts at --socket-path: exit 0 at once, nothing said, no daemon started")
    func alreadyServed() throws {
        let home = try SpawnHome()
        let daemon = try DaemonProcess(audio: "null")
        let result = try home.run(["--spawn", "--communication-method", "unix_socket", "--socket-path", daemon.socketPath])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.logPath), "no daemon was started, so none wrote a log")
        #expect(daemon.stop() == 0)
    }

    @Test("an announced already serves the main socket without SSIP: exit 1 and one line saying how to turn ssip_socket on")
    func mainSocketTaken() throws {
        let home = try SpawnHome()
        let daemon = try DaemonProcess(audio: "null", socketPath: "", environment: home.environment)
        #expect(FileManager.default.fileExists(atPath: home.mainSocketPath))
        let result = try home.run(["--spawn", "--communication-method", "unix_socket", "--socket-path", home.defaultSSIPPath])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("announced: announced already serves \(home.mainSocketPath) but not SSIP at \(home.defaultSSIPPath)"))
        #expect(result.stderr.contains(#""ssip_socket": "default" in \#(home.directory.path)/config/announced/announced.json"#), "\(result.stderr)")
        #expect(result.stderr.contains("systemctl --user enable --now announced-ssip.socket"))
        #expect(!FileManager.default.fileExists(atPath: home.logPath), "no second daemon was started")
        #expect(daemon.stop() == 0)
    }

    @Test("inet_socket: exit 1 and one line saying announced serves SSIP on a Unix socket only")
    func inetSocket() throws {
        let home = try SpawnHome()
        let result = try home.run(["--spawn", "--communication-method", "inet_socket", "--port", "6561"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("announced: announced serves SSIP on a Unix socket only, not on TCP port 6561"))
        #expect(result.stderr.contains("SPEECHD_ADDRESS"))
        #expect(!FileManager.default.fileExists(atPath: home.logPath))
    }

    @Test("a daemon that cannot start: exit 1 with its own reason and where its log is, as soon as it has ended")
    func daemonFails() throws {
        let home = try SpawnHome()
        let result = try home.run(["--spawn", "--socket-path", home.defaultSSIPPath, "--audio", "null", "--voice", "no-such-voice"])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("announced: the daemon it started exited with status 1 before serving \(home.defaultSSIPPath): the voice \"no-such-voice\" is not one of espeak-ng's"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("(its log: \(home.logPath))\n"))
        let log = try String(contentsOfFile: home.logPath, encoding: .utf8)
        #expect(log.contains("announced: the voice \"no-such-voice\""))
        var info = stat()
        #expect(stat(home.logPath, &info) == 0 && info.st_mode & 0o777 == 0o600)

        // A second attempt keeps the first attempt's log as spawned.log.1.
        _ = try home.run(["--spawn", "--socket-path", home.defaultSSIPPath, "--audio", "null", "--voice", "other-voice"])
        #expect(try String(contentsOfFile: home.logPath + ".1", encoding: .utf8).contains("no-such-voice"))
        #expect(try String(contentsOfFile: home.logPath, encoding: .utf8).contains("other-voice"))
    }

    @Test("a bad configuration file: exit 1 naming the file and the key, no daemon started")
    func badConfiguration() throws {
        let home = try SpawnHome()
        let file = try EditableConfigFile(#"{"rate": 20}"#)
        let result = try home.run(["--spawn", "--socket-path", home.defaultSSIPPath, "--config", file.path])
        #expect(result.status == 1)
        #expect(result.stderr == "announced: config file \(file.path), key \"rate\": must be a whole number from 80 to 450, not 20; correct it, or remove the key to use the default\n")
        #expect(!FileManager.default.fileExists(atPath: home.logPath))
    }

    @Test(
        "misused options are usage errors (exit 2) naming them",
        arguments: [
            (["--socket-path", "/tmp/s.sock"], "go with --spawn"),
            (["--communication-method", "unix_socket"], "go with --spawn"),
            (["--spawn", "--ssip-socket", "default"], "leave out --ssip-socket"),
            (["--spawn", "--communication-method", "pipe"], "--communication-method"),
        ])
    func usageErrors(arguments: [String], says: String) throws {
        let home = try SpawnHome()
        let result = try home.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(says), "\(result.stderr)")
    }
}
