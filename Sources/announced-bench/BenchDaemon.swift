// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// The daemon under test: a separate process on a private socket.
final class BenchDaemon {
    /// The daemon's process; it gets SIGTERM when the benchmark's main thread ends, so a killed
    /// benchmark leaves no daemon behind.
    let process: SpawnedProcess
    let socketPath: String
    let directory: String
    /// Nanoseconds from `exec` to `READY=1` on NOTIFY_SOCKET.
    private(set) var startNanoseconds: UInt64 = 0

    init(
        executable: String, audio: String = "null", extra: [String] = [],
        environment extraEnvironment: [String: String] = [:]
    ) throws {
        directory = "/tmp/announced-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o700)
        socketPath = directory + "/announced.sock"
        let notifyPath = directory + "/notify"
        let readiness = try ReadinessSocket(path: notifyPath)
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = notifyPath
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        for (key, value) in extraEnvironment { environment[key] = value }
        let started = now()
        process = try SpawnedProcess(
            executable: executable,
            arguments: ["--socket", socketPath, "--audio", audio, "--log-level", "error"] + extra,
            environment: environment, parentDeathSignal: SIGTERM
        )
        guard readiness.waitForReady(timeout: 30) else {
            throw BenchError("the daemon did not send READY=1 within 30 s")
        }
        startNanoseconds = now() - started
    }

    func stop() {
        process.signal(SIGTERM)
        process.waitForExit()
        // Everything the run left: the socket's lock file, a figure's configuration, the notify socket.
        try? FileManager.default.removeItem(atPath: directory)
    }

    var residentMiB: Double { announced_bench.residentMiB(pid: process.pid) }
    /// The resident set of the daemon's espeak-ng helper process (its children), in MiB.
    var helperResidentMiB: Double {
        childProcesses(of: process.pid).map { announced_bench.residentMiB(pid: $0) }.reduce(0, +)
    }

    func connect() throws -> BenchClient {
        guard let client = BenchClient(path: socketPath) else { throw BenchError("cannot connect to \(socketPath)") }
        return client
    }
}

extension Figures {
    /// Runs `body` with a fresh daemon (`--audio pulse`) on a private headless PulseAudio whose
    /// null sink is recorded, once the sink has settled; stops both after it.
    func withHeardDaemon<T>(_ body: (BenchDaemon, MonitorRecorder) throws -> T) throws -> T {
        let pulse = try HeadlessPulseAudio()
        defer { pulse.kill() }
        let recorder = try pulse.record()
        let daemon = try BenchDaemon(executable: executable, audio: "pulse", environment: pulse.clientEnvironment)
        defer { daemon.stop() }
        // The null sink renders 2 s blocks until a low-latency client has settled it (the shared
        // notes on headless audio); nothing reports when it has.
        usleep(3_000_000)
        return try body(daemon, recorder)
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
