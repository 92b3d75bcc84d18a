// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// A private place for one desktop client of the tests (Orca, a browser, a Qt program, Emacs):
/// its own home, runtime directory (0700), configuration, data and cache folders, and on demand
/// a private D-Bus session bus and a private Xvfb display, so that it can meet neither the
/// user's session nor another test's (see shared/notes/desktop-clients.md).
///
/// Every program of the session runs with ``environment``, which names ``directory``: when the
/// session ends, the programs it started are stopped by their pids, and so is every process
/// whose environment still names ``directory`` (what D-Bus activated for it, at-spi-bus-launcher,
/// the accessibility bus and at-spi2-registryd, and a browser's child processes), found in
/// /proc by its environment, never by name.
final class DesktopSession {
    /// The session's folder (home, runtime directory, logs).
    let directory: URL
    /// The home folder (`HOME`).
    var home: URL { directory.appendingPathComponent("home") }
    /// The private runtime directory (`XDG_RUNTIME_DIR`, mode 0700).
    var runtime: URL { directory.appendingPathComponent("runtime") }
    /// The X display (`:N`) once ``startDisplay()`` has started Xvfb.
    private(set) var display: String?
    /// The session bus address once ``startSessionBus()`` has started it.
    private(set) var busAddress: String?
    /// The programs started for the session, the first started first.
    private var started: [(name: String, process: SpawnedProcess)] = []

    init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "announced-desktop-\(UUID().uuidString.prefix(8))")
        for folder in ["home/.config", "home/.local/share", "home/.cache", "runtime", "logs"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment the session's programs run with: the test's own, without anything that
    /// leads to another session or another speech server, with the session's folders, bus and
    /// display, C.UTF-8 (the clients speak English), and `extra` added.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in [
            "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE",
            "GTK_MODULES",
            "SPEECHD_ADDRESS", "SPEECHD_SOCK", "SPEECHD_HOST", "SPEECHD_PORT", "LANGUAGE", "LC_ALL", "PYTHONPATH",
            "PYTHONHOME",
            "SESSION_MANAGER", "XAUTHORITY", "PULSE_SERVER",
        ] { environment[key] = nil }
        environment["HOME"] = home.path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["XDG_CACHE_HOME"] = home.appendingPathComponent(".cache").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent(".local/state").path
        environment["LANG"] = "C.UTF-8"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["SPEECHD_CMD"] = "/bin/false"
        if let display { environment["DISPLAY"] = display }
        if let busAddress { environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// The path of a log file in the session's folder.
    func logPath(_ name: String) -> String { directory.appendingPathComponent("logs/\(name).log").path }

    /// A log the session's programs wrote, for a failure message.
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: logPath(name), encoding: .utf8)) ?? ""
    }

    /// Starts a private session bus (`dbus-daemon --session`) in the runtime directory and waits
    /// until it printed its address (it listens by then).
    func startSessionBus() throws {
        let path = runtime.appendingPathComponent("bus").path
        let bus = try start(
            "dbus-daemon", "/usr/bin/dbus-daemon",
            ["--session", "--nofork", "--address=unix:path=\(path)", "--print-address=1"], output: .pipe)
        guard let line = Self.firstLine(of: bus, timeout: 30, where: { $0.hasPrefix("unix:path=") }) else {
            throw SSIPClientError("dbus-daemon printed no address")
        }
        busAddress = line
    }

    /// Starts Xvfb on a free display (`-displayfd`: it picks the number and prints it once it
    /// accepts clients), without TCP.
    func startDisplay() throws {
        let server = try start(
            "Xvfb", try #require(installedTool("Xvfb")),
            ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1024x768x24"], output: .pipe)
        guard let number = Self.firstLine(of: server, timeout: 60, where: { !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        else {
            throw SSIPClientError("Xvfb printed no display number")
        }
        display = ":" + number
    }

    /// Starts `executable ARGUMENTS` in the session (``environment(_:)`` with `extra`), its
    /// output appended to the log `name` unless `output` says otherwise; stopped with the session.
    @discardableResult
    func start(
        _ name: String, _ executable: String, _ arguments: [String], extra: [String: String] = [:],
        output: SpawnedProcess.Output? = nil
    ) throws -> SpawnedProcess {
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment(extra),
            output: output ?? .file(logPath(name)))
        started.append((name, process))
        return process
    }

    /// Runs `executable ARGUMENTS` in the session to its end (killed after `timeout` seconds);
    /// its exit status and output.
    func run(_ executable: String, _ arguments: [String], extra: [String: String] = [:], timeout: Double = 30) throws
        -> (status: Int32, output: String)
    {
        let tool = try AnnouncectlProcess(
            arguments, environment: environment(extra), executable: URL(fileURLWithPath: executable))
        tool.finishInput()
        let result = tool.finish(timeout: timeout)
        return (result.status, result.stdout + result.stderr)
    }

    /// Stops the session: its programs by pid, the last started first, then every process whose
    /// environment names the session's folder, and waits until they are gone.
    func stop() {
        for (name, process) in started.reversed() {
            // dbus-daemon started from the test runner ignores SIGTERM (HeadlessPipeWire); Xvfb
            // removes its lock file and socket only on SIGTERM.
            process.signal(name == "dbus-daemon" ? SIGKILL : SIGTERM)
            if !processesEnd([process.pid], within: 5) { process.signal(SIGKILL) }
            process.waitForExit()
        }
        started = []
        for _ in 0..<2 {
            let left = processesInSession()
            if left.isEmpty { return }
            for pid in left { kill(pid, SIGTERM) }
            if processesEnd(left, within: 5) { continue }
            for pid in processesInSession() { kill(pid, SIGKILL) }
            _ = processesEnd(left, within: 5)
        }
    }

    /// The processes (other than this one) whose environment names the session's folder.
    func processesInSession() -> [pid_t] {
        let marker = Array(directory.path.utf8)
        let own = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != own,
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ")
            else { return nil }
            return Self.contains(Array(environ), marker) ? pid : nil
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// Reads `process`'s output pipe until a line for which `predicate` holds (the rest of the
    /// output is read on, so the program never blocks on a full pipe).
    static func firstLine(
        of process: SpawnedProcess, timeout: Double, where predicate: @escaping (String) -> Bool
    ) -> String? {
        guard let output = process.output else { return nil }
        return LineCollector(reading: output).waitForLine(timeout: timeout, predicate)
    }
}
