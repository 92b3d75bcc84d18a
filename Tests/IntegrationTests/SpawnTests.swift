// SPDX-License-Identifier: GPL-3.0-or-later
import AnnounceProtocol
import BlockingThreads
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

    /// Daemons started in the background by the test, by the pid it found serving.
    var daemons: [pid_t] = []

    deinit {
        // Ended by pid, as the test found it (they are not the test's children); also one a
        // failing test started without expecting to, found by the main socket it serves.
        for pid in daemons + [peerProcess(of: mainSocketPath)].compactMap({ $0 }) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `announced ARGUMENTS` (`--spawn ...`) to its end in this home; its standard output
    /// and error are read to their end, so a daemon that kept either open would hold this up.
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let command = try AnnouncectlProcess(
            arguments, environment: environment.merging(extraEnvironment) { $1 }, executable: DaemonProcess.executable
        )
        command.finishInput()
        return command.finish()
    }
}

/// The process id at the other end of a connection to the Unix socket at `path` (SO_PEERCRED),
/// or nil when nothing accepts there.
func peerProcess(of path: String) -> pid_t? {
    guard let client = try? LineClient(path: path) else { return nil }
    // struct ucred: pid, uid and gid, 32 bits each.
    var credentials = [Int32](repeating: 0, count: 3)
    var length = socklen_t(MemoryLayout<Int32>.size * 3)
    guard getsockopt(client.fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
    return credentials[0]
}

/// The target of the symbolic link at `path` (a /proc entry), or nil.
func linkTarget(_ path: String) -> String? {
    try? FileManager.default.destinationOfSymbolicLink(atPath: path)
}

/// The `NAME=value` entries of process `pid`'s environment.
func processEnvironment(_ pid: pid_t) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
}

@Suite("announced --spawn: speech-dispatcher's autospawn command, for announced", .daemonTimeLimit, .onBlockingThreads)
struct SpawnTests {
    @Test("something already accepts at --socket-path: exit 0 at once, nothing said, no daemon started")
    func alreadyServed() throws {
        let home = try SpawnHome()
        let daemon = try DaemonProcess(audio: "null")
        let result = try home.run([
            "--spawn", "--communication-method", "unix_socket", "--socket-path", daemon.socketPath,
        ])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: home.logPath), "no daemon was started, so none wrote a log")
        #expect(daemon.stop() == 0)
    }

    @Test(
        "an announced already serves the main socket without SSIP: exit 1 and one line saying how to turn ssip_socket on"
    )
    func mainSocketTaken() throws {
        let home = try SpawnHome()
        let daemon = try DaemonProcess(audio: "null", socketPath: "", environment: home.environment)
        #expect(FileManager.default.fileExists(atPath: home.mainSocketPath))
        let result = try home.run([
            "--spawn", "--communication-method", "unix_socket", "--socket-path", home.defaultSSIPPath,
        ])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "announced: announced already serves \(home.mainSocketPath) but not SSIP at \(home.defaultSSIPPath)"))
        #expect(
            result.stderr.contains(
                #""ssip_socket": "default" in \#(home.directory.path)/config/announced/announced.json"#),
            "\(result.stderr)")
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
        let result = try home.run([
            "--spawn", "--socket-path", home.defaultSSIPPath, "--audio", "null", "--voice", "no-such-voice",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix(
                "announced: the daemon it started exited with status 1 before serving \(home.defaultSSIPPath): the voice \"no-such-voice\" is not one of espeak-ng's"
            ), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("(its log: \(home.logPath))\n"))
        let log = try String(contentsOfFile: home.logPath, encoding: .utf8)
        #expect(log.contains("announced: the voice \"no-such-voice\""))
        var info = stat()
        #expect(stat(home.logPath, &info) == 0 && info.st_mode & 0o777 == 0o600)

        // A second attempt keeps the first attempt's log as spawned.log.1.
        _ = try home.run([
            "--spawn", "--socket-path", home.defaultSSIPPath, "--audio", "null", "--voice", "other-voice",
        ])
        #expect(try String(contentsOfFile: home.logPath + ".1", encoding: .utf8).contains("no-such-voice"))
        #expect(try String(contentsOfFile: home.logPath, encoding: .utf8).contains("other-voice"))
    }

    @Test(
        "speech-dispatcher's default path, as libspeechd names it in full, gets the default directory's checks: a 0755 one is refused"
    )
    func defaultPathIsChecked() throws {
        let home = try SpawnHome()
        let folder = home.runtime + "/speech-dispatcher"
        try #require(mkdir(folder, 0o755) == 0 && chmod(folder, 0o755) == 0)
        let result = try home.run([
            "--spawn", "--communication-method", "unix_socket", "--socket-path", home.defaultSSIPPath, "--audio",
            "null",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "refusing to serve \(home.defaultSSIPPath): the socket directory \(folder) has mode 755"),
            "\(result.stderr)")
        #expect(result.stderr.contains("chmod 700 \(folder)"))
        var info = stat()
        #expect(lstat(home.defaultSSIPPath, &info) != 0, "no socket made there")
    }

    @Test("a bad configuration file: exit 1 naming the file and the key, no daemon started")
    func badConfiguration() throws {
        let home = try SpawnHome()
        let file = try EditableConfigFile(#"{"rate": 20}"#)
        let result = try home.run(["--spawn", "--socket-path", home.defaultSSIPPath, "--config", file.path])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "announced: config file \(file.path), key \"rate\": must be a whole number from 80 to \(SpeechRanges.rate.upperBound), not 20; correct it, or remove the key to use the default\n"
        )
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

    @Test(
        "no server yet: a daemon starts in the background serving SSIP at the path and its main socket, detached; exit 0 once it accepts; a second spawn reuses it"
    )
    func startsAndReuses() throws {
        let home = try SpawnHome()
        let arguments = [
            "--spawn", "--communication-method", "unix_socket", "--socket-path", home.defaultSSIPPath, "--audio",
            "null",
        ]
        let first = try home.run(arguments, extraEnvironment: ["UNRELATED_SECRET": "x", "LISTEN_FDS": "1"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.isEmpty)
        #expect(
            peerProcess(of: home.defaultSSIPPath) != nil, "the SSIP socket accepts connections when the command exits")
        let pid = try #require(
            peerProcess(of: home.mainSocketPath), "the daemon serves its main socket at its usual default")
        home.daemons.append(pid)
        #expect(peerProcess(of: home.defaultSSIPPath) == pid, "one daemon serves both")

        // Detached, with nothing of the client's but what it needs.
        #expect(getsid(pid) == pid, "a session of its own")
        #expect(linkTarget("/proc/\(pid)/cwd") == "/")
        #expect(linkTarget("/proc/\(pid)/fd/0") == "/dev/null")
        #expect(linkTarget("/proc/\(pid)/fd/1") == "/dev/null")
        #expect(linkTarget("/proc/\(pid)/fd/2") == home.logPath)
        let environment = try processEnvironment(pid)
        #expect(environment.contains("XDG_RUNTIME_DIR=\(home.runtime)"))
        for left in ["UNRELATED_SECRET=", "LISTEN_FDS=", "SPEECHD_CMD="] {
            #expect(!environment.contains { $0.hasPrefix(left) }, "\(left) is not passed on")
        }
        var info = stat()
        #expect(stat(home.runtime + "/speech-dispatcher", &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(
            try String(contentsOfFile: home.logPath, encoding: .utf8).contains(
                "protocol=ssip socket=\(home.defaultSSIPPath)"))

        let second = try home.run(arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.isEmpty)
        #expect(peerProcess(of: home.defaultSSIPPath) == pid, "the same daemon still serves")
        #expect(!FileManager.default.fileExists(atPath: home.logPath + ".1"), "no second daemon was started")

        let client = try LineClient(path: home.mainSocketPath)
        kill(pid, SIGTERM)
        #expect(client.waitForEOF(), "the daemon shuts down on SIGTERM")
    }

    @Test("two clients spawning at the same moment: both exit 0, and one daemon serves both sockets")
    func concurrentSpawns() throws {
        let home = try SpawnHome()
        let arguments = [
            "--spawn", "--communication-method", "unix_socket", "--socket-path", home.defaultSSIPPath, "--audio",
            "null",
        ]
        let commands = try (0..<2).map { _ in
            try AnnouncectlProcess(arguments, environment: home.environment, executable: DaemonProcess.executable)
        }
        let results = commands.map { command in
            command.finishInput()
            return command.finish()
        }
        for result in results {
            #expect(result.status == 0, "\(result.stderr)")
        }
        let pid = try #require(
            peerProcess(of: home.mainSocketPath),
            "\((try? String(contentsOfFile: home.logPath, encoding: .utf8)) ?? "no log")")
        home.daemons.append(pid)
        #expect(peerProcess(of: home.defaultSSIPPath) == pid)
        let client = try LineClient(path: home.mainSocketPath)
        kill(pid, SIGTERM)
        #expect(client.waitForEOF())
    }

    @Test(
        "python3-speechd with SPEECHD_CMD=announced: the client autospawns announced, speaks, its connection gets BEGIN and END, and the audio is in the WAV output",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/speechd/client.py"),
            "needs python3-speechd (apt-get install python3-speechd)")
    )
    func pythonClientAutospawns() throws {
        let home = try SpawnHome()
        let wav = home.directory.appendingPathComponent("wav").path
        try FileManager.default.createDirectory(
            atPath: home.directory.appendingPathComponent("config/announced").path, withIntermediateDirectories: true)
        try Data(#"{"audio": {"output": "wav:\#(wav)"}}"#.utf8).write(
            to: home.directory.appendingPathComponent("config/announced/announced.json"))
        // The events are taken from the connection before python3-speechd routes them to a
        // speak() callback: speak() registers its callback only after the reply, so a BEGIN that
        // comes first is dropped (python3-speechd's own TODO in client.py says so), the more
        // often the busier the machine (speechd_driver.py taps the same place).
        let script = """
            import speechd, threading
            client = speechd.SSIPClient("spawn-test")
            done = threading.Event()
            events = []
            routed = client._conn._callback
            def on_wire(msg_id, client_id, kind, **kwargs):
                events.append(kind)
                if kind in (speechd.CallbackType.END, speechd.CallbackType.CANCEL):
                    done.set()
                routed(msg_id, client_id, kind, **kwargs)
            client._conn.set_callback(on_wire)
            client.speak("Started by its client")
            print("finished" if done.wait(30) else "no end", " ".join(events))
            client.close()
            """
        let python = try AnnouncectlProcess(
            ["-c", script],
            environment: home.environment.merging(["SPEECHD_CMD": DaemonProcess.executable.path]) { $1 },
            executable: URL(fileURLWithPath: "/usr/bin/python3")
        )
        python.finishInput()
        let result = python.finish()
        if let pid = peerProcess(of: home.mainSocketPath) { home.daemons.append(pid) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "finished begin end\n", "\(result.stdout)\(result.stderr)")
        let pid = try #require(home.daemons.first, "the spawned daemon serves its main socket")
        let samples = try WAVFile.samples(at: URL(fileURLWithPath: wav).appendingPathComponent("1.wav"))
        #expect(WAVFile.trimmed(samples).count > 16000, "about a second of speech, got \(samples.count) samples")
        let client = try LineClient(path: home.mainSocketPath)
        kill(pid, SIGTERM)
        #expect(client.waitForEOF())
    }

    @Test(
        "spd-say (libspeechd) with SPEECHD_CMD=announced: it autospawns announced, -w waits for the end, and the text is heard in the WAV",
        .enabled(
            if: FileManager.default.fileExists(atPath: "/usr/bin/spd-say"),
            "needs spd-say (apt-get install speech-dispatcher)")
    )
    func spdSayAutospawns() throws {
        let home = try SpawnHome()
        let wav = home.directory.appendingPathComponent("wav").path
        try FileManager.default.createDirectory(
            atPath: home.directory.appendingPathComponent("config/announced").path, withIntermediateDirectories: true)
        try Data(#"{"audio": {"output": "wav:\#(wav)"}}"#.utf8).write(
            to: home.directory.appendingPathComponent("config/announced/announced.json"))
        let say = try AnnouncectlProcess(
            ["-w", "Started by spd-say"],
            environment: home.environment.merging(["SPEECHD_CMD": DaemonProcess.executable.path]) { $1 },
            executable: URL(fileURLWithPath: "/usr/bin/spd-say")
        )
        say.finishInput()
        let result = say.finish()
        if let pid = peerProcess(of: home.mainSocketPath) { home.daemons.append(pid) }
        #expect(result.status == 0, "\(result.stderr)")
        let pid = try #require(home.daemons.first, "the spawned daemon serves its main socket")
        let samples = try WAVFile.samples(at: URL(fileURLWithPath: wav).appendingPathComponent("1.wav"))
        #expect(WAVFile.trimmed(samples).count > 16000, "about a second of speech, got \(samples.count) samples")
        let client = try LineClient(path: home.mainSocketPath)
        kill(pid, SIGTERM)
        #expect(client.waitForEOF())
    }
}
