// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A real `announced` process on a private socket, started for one test.
final class DaemonProcess {
    let directory: URL
    let socketPath: String
    let wavDirectory: String
    let process = Process()
    private let stderrPipe = Pipe()

    /// The folder holding the built executables (the test bundle's own folder).
    static var binDirectory: URL {
        URL(
            fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
        )
        .deletingLastPathComponent()
    }

    static var executable: URL { binDirectory.appendingPathComponent("announced") }

    /// A fresh temporary folder.
    static func makeTemporaryDirectory() -> URL {
        let url = URL(fileURLWithPath: "/tmp").appendingPathComponent("announced-test-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The user's Piper voice directory of this daemon (`$XDG_DATA_HOME/announced/voices`, in the
    /// test's folder; it does not exist until a test makes it).
    var voicesDirectory: String { directory.appendingPathComponent("data/announced/voices").path }

    /// The variables that lead a process to the desktop's buses. A test's daemon has them only
    /// when the test passes them (the desktop tests pass their private buses'): otherwise it would
    /// own the Spiel provider's name on the developer's session bus, or speak their desktop's
    /// toolkit announcements.
    static let desktopBusVariables = ["DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"]

    /// `inherited` without ``desktopBusVariables``, and with a session bus address in `directory`
    /// where nothing listens, so that sd-bus does not fall back to `$XDG_RUNTIME_DIR/bus` either.
    static func withoutDesktopBuses(_ inherited: [String: String], directory: URL) -> [String: String] {
        var environment = inherited
        for key in desktopBusVariables { environment[key] = nil }
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.appendingPathComponent("no-session-bus").path
        return environment
    }

    /// Starts the daemon and returns once it has told NOTIFY_SOCKET `READY=1`.
    init(
        arguments extra: [String] = [], audio: String? = nil, socketPath: String? = nil,
        environment: [String: String] = [:], waitForReady: Bool = true
    ) throws {
        directory = Self.makeTemporaryDirectory()
        self.socketPath = socketPath ?? directory.appendingPathComponent("run/announced.sock").path
        wavDirectory = directory.appendingPathComponent("wav").path
        let notify = try NotifyListener(path: directory.appendingPathComponent("notify").path)
        process.executableURL = Self.executable
        // An empty socketPath leaves --socket out, so the daemon finds the socket itself.
        let socketArguments = self.socketPath.isEmpty ? [] : ["--socket", self.socketPath]
        process.arguments =
            socketArguments + ["--audio", audio ?? "wav:\(wavDirectory)", "--log-level", "debug"] + extra
        var env = Self.withoutDesktopBuses(ProcessInfo.processInfo.environment, directory: directory)
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        // Piper voices: only those a test puts in its own folder (``voicesDirectory``), never the
        // user's or the system's.
        env["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        env["ANNOUNCED_SYSTEM_VOICES"] = ""
        env["NOTIFY_SOCKET"] = notify.path
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardError = stderrPipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if waitForReady {
            guard notify.waitForReady(timeout: 30) else {
                exitExpected = true
                process.terminate()
                throw DaemonError.notReady(stderr: stderrText())
            }
        }
    }

    /// Starts the daemon like ``init(arguments:audio:socketPath:environment:waitForReady:)``, for
    /// an async test: the wait for `READY=1` blocks one of the ``BlockingThreads``, not a thread of
    /// the cooperative pool the test's own continuations need.
    nonisolated static func start(
        arguments: [String] = [], audio: String? = nil, socketPath: String? = nil, environment: [String: String] = [:]
    ) async throws -> sending DaemonProcess {
        try await onBlockingThread {
            try DaemonProcess(arguments: arguments, audio: audio, socketPath: socketPath, environment: environment)
        }
    }

    /// Set when the test itself ends the daemon or waits for its exit.
    private var exitExpected = false

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
        } else if !exitExpected {
            // A daemon that crashed mid-test shows up to the test only as a closed connection;
            // say what happened, with the daemon's own report (a crash prints a backtrace).
            Issue.record(
                "the daemon exited during the test without being asked (status \(process.terminationStatus)); its stderr:\n\(stderrText())"
            )
        }
        // In a sanitizer build the daemon and its helper are instrumented too. `make tsan` and
        // `make asan` collect every process's reports in a folder of their own (log_path); run
        // by hand, without log_path, the reports land here, where nobody else would see them.
        if let report = SanitizerReport.first(in: stderrSoFar()) {
            Issue.record("the daemon or its espeak-ng helper reported:\n\(report)")
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Connects a new client.
    func connect() throws -> LineClient { try LineClient(path: socketPath) }

    /// Sends `signal` and waits for the process to exit; returns its status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        expectBlockingAllowed("Waiting for the daemon to exit")
        exitExpected = true
        kill(process.processIdentifier, signal)
        process.waitForExit()
        return process.terminationStatus
    }

    /// Waits for the process to exit by itself; returns its status.
    func waitForExit() -> Int32 {
        expectBlockingAllowed("Waiting for the daemon to exit")
        exitExpected = true
        process.waitForExit()
        return process.terminationStatus
    }

    /// What was read of the daemon's stderr so far.
    private var stderrRead = Data()

    /// Everything the daemon wrote to stderr (after it exited).
    func stderrText() -> String {
        expectBlockingAllowed("Reading the daemon's stderr to its end")
        stderrRead.append(stderrPipe.fileHandleForReading.readDataToEndOfFile())
        return String(decoding: stderrRead, as: UTF8.self)
    }

    /// Waits until the daemon's stderr holds `text` at least `count` times (its log lines are the
    /// events), or `timeout` seconds pass. Whether it did.
    func waitForStderr(containing text: String, count: Int = 1, timeout: Double) -> Bool {
        expectBlockingAllowed("Waiting for the daemon's log")
        let fd = stderrPipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if stderrSoFar().components(separatedBy: text).count - 1 >= count { return true }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(max(1, left * 1000))) > 0, pfd.revents & Int16(POLLIN) != 0 else {
                if pfd.revents & Int16(POLLHUP) != 0 {
                    return stderrSoFar().components(separatedBy: text).count - 1 >= count
                }
                continue
            }
        }
    }

    /// What the daemon (and its helper) have written to stderr by now, without waiting for the
    /// end: the helper may outlive a killed daemon for a moment and hold the pipe open.
    func stderrSoFar() -> String {
        let fd = stderrPipe.fileHandleForReading.fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        // Blocking again afterwards: stderrText() reads to the end.
        defer { _ = fcntl(fd, F_SETFL, flags) }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            stderrRead.append(contentsOf: chunk[..<count])
        }
        return String(decoding: stderrRead, as: UTF8.self)
    }

    /// The samples of `DIR/<seq>.wav`.
    func wavSamples(seq: Int) throws -> [Int16] {
        try WAVFile.samples(at: URL(fileURLWithPath: wavDirectory).appendingPathComponent("\(seq).wav"))
    }
}

enum DaemonError: Error, CustomStringConvertible {
    case notReady(stderr: String)
    var description: String {
        switch self {
        case .notReady(let stderr): return "the daemon did not become ready; its stderr:\n\(stderr)"
        }
    }
}

/// The daemon's readiness socket (``ReadinessSocket``), whose wait a test may only do on a
/// blocking thread.
final class NotifyListener {
    private let socket: ReadinessSocket
    /// Where the socket is bound, for `NOTIFY_SOCKET`.
    var path: String { socket.path }

    init(path: String) throws { socket = try ReadinessSocket(path: path) }

    /// Waits for a datagram containing `READY=1`.
    func waitForReady(timeout: Double) -> Bool {
        expectBlockingAllowed("Waiting for the daemon's READY=1")
        return socket.waitForReady(timeout: timeout)
    }
}

/// The WAV reader of every suite (TestSupport's), under its name here for the files that do not
/// import TestSupport.
typealias WAVFile = TestSupport.WAVFile

/// `espeak-ng -v VOICE -s RATE --stdout TEXT`, as samples (``WAVFile/espeakReference(text:voice:rate:ssml:)``).
func espeakReference(text: String, voice: String, rate: Int, ssml: Bool = false) throws -> [Int16] {
    try WAVFile.espeakReference(text: text, voice: voice, rate: rate, ssml: ssml)
}
