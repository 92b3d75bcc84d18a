// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation
import Glibc

/// A private PulseAudio server with a null sink (Benchmarks/README.md, "Headless audio"): user
/// mode (also as root), no default.pa, everything under a private 0700 directory, and a client
/// configuration that never autospawns another server.
public final class HeadlessPulseAudio {
    /// `pulseaudio`, if installed.
    public static let executable = findExecutable("pulseaudio")
    /// `pactl`, if installed.
    public static let pactl = findExecutable("pactl")
    /// Whether a server can be started and asked whether it answers.
    public static var isInstalled: Bool { executable != nil && pactl != nil }

    /// The server's private directory (runtime, state, config and its log).
    public let directory: URL
    /// The server's address, for `PULSE_SERVER`.
    public var address: String { "unix:" + directory.appendingPathComponent("native").path }
    private var process: SpawnedProcess?

    /// What a client of this server needs: the address, and no autospawn of another server.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": address, "PULSE_CLIENTCONFIG": directory.appendingPathComponent("client.conf").path]
    }

    /// The environment the server and its tools (`pactl`, `parec`) run with.
    public var serverEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["XDG_RUNTIME_DIR", "PULSE_RUNTIME_PATH", "PULSE_STATE_PATH", "HOME"] {
            environment[key] = directory.path
        }
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        for (key, value) in clientEnvironment { environment[key] = value }
        return environment
    }

    /// An environment pointing at a server that does not exist.
    public static func deadServerEnvironment(_ address: String) -> [String: String] {
        let config = URL(fileURLWithPath: "/tmp/announced-test-client-\(getpid()).conf")
        try? Data("autospawn = no\n".utf8).write(to: config)
        return ["PULSE_SERVER": address, "PULSE_CLIENTCONFIG": config.path]
    }

    /// Creates the private directory and starts the server.
    public init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "announced-pulse-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("config"), withIntermediateDirectories: true
        )
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        try Data("autospawn = no\n".utf8).write(to: directory.appendingPathComponent("client.conf"))
        try start()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts the server and returns once `pactl info` answers. pulseaudio closes every
    /// descriptor it inherits, so it is spawned directly (see ``SpawnedProcess``).
    public func start() throws {
        guard let executable = Self.executable, let pactl = Self.pactl else {
            throw SpawnError("pulseaudio and pactl are not installed (apt-get install pulseaudio pulseaudio-utils)")
        }
        let log = directory.appendingPathComponent("pulseaudio.log")
        let process = try SpawnedProcess(
            executable: executable,
            arguments: [
                "-n", "--system=false", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
                "--log-target=stderr", "-L", "module-null-sink sink_name=null rate=22050 channels=1 format=s16le",
                "-L",
                "module-native-protocol-unix auth-anonymous=1 socket=\(directory.appendingPathComponent("native").path)",
            ],
            environment: serverEnvironment,
            output: .file(log.path)
        )
        self.process = process
        // The server gives no readiness signal: ask until it answers.
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, process.isRunning {
            let probe = try SpawnedProcess(
                executable: pactl, arguments: ["info"], environment: serverEnvironment, output: .discarded)
            if probe.waitForExit() == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        kill()
        throw SpawnError("the test PulseAudio server did not answer `pactl info`; its log:\n\(text)")
    }

    /// Kills the server at once (as a crash would) and waits for it to exit.
    public func kill() {
        guard let process else { return }
        process.signal(SIGKILL)
        process.waitForExit()
        self.process = nil
    }

    /// The path of `name` on PATH (or in /usr/bin), if it is there.
    public static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
