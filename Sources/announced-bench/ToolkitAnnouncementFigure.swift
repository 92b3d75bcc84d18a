// SPDX-License-Identifier: GPL-3.0-or-later
import DesktopBus
import Dispatch
import Foundation
import Glibc
import ProcessHarness

/// `--only toolkit`: a GTK 3 application's toolkit announcement (ATK's `announcement`, through
/// the atk-bridge on the accessibility bus) → its first audible sample at a private headless
/// PulseAudio's null sink, spoken by the daemon (`--audio pulse`, `toolkit_announcements` on).
/// The desktop is private: a session bus (at-spi-bus-launcher D-Bus activated from it), Xvfb,
/// and `Tests/DesktopBusTests/Fixtures/announcing-app.py`. The clock starts when the bench calls
/// the application's `Announce` on the session bus, so the figure includes that call's way to
/// the application before it emits.
struct ToolkitAnnouncementFigure {
    let executable: String
    var rounds = 30

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/DesktopBusTests/Fixtures/announcing-app.py").standardized.path

    func measure() async throws -> Figure {
        guard HeadlessPulseAudio.canRecord else {
            throw BenchError(
                "the heard figures need pulseaudio and pulseaudio-utils (apt-get install pulseaudio pulseaudio-utils)")
        }
        let desktop = try BenchDesktop()
        defer { desktop.stop() }
        let pulse = try HeadlessPulseAudio()
        defer { pulse.kill() }
        let recorder = try pulse.record()
        var environment = pulse.clientEnvironment
        environment["DBUS_SESSION_BUS_ADDRESS"] = desktop.busAddress
        environment["ANNOUNCED_TOOLKIT_ANNOUNCEMENTS"] = "on"
        let daemon = try BenchDaemon(executable: executable, audio: "pulse", environment: environment)
        defer { daemon.stop() }
        let session = try BusConnection.session(address: desktop.busAddress)
        defer { session.close() }
        // The null sink renders 2 s blocks until a low-latency client has settled it; the daemon
        // registers for announcements after READY=1. The first heard announcement shows both.
        var warmedUp = false
        for _ in 0..<10 where !warmedUp {
            let start = recorder.sampleCount
            try await announce(on: session)
            if let first = recorder.firstAudible(after: start, timeout: 3) {
                _ = recorder.waitForSilence(after: first)
                warmedUp = true
            }
        }
        guard warmedUp else { throw BenchError("the daemon never spoke the application's announcement") }
        var figure = Figure(name: "toolkit announcement (ATK, GTK 3 app): emit → audible (pulse)")
        for _ in 0..<rounds {
            let startSample = recorder.sampleCount
            let start = now()
            try await announce(on: session)
            guard let first = recorder.firstAudible(after: startSample),
                let heard = recorder.renderedNanoseconds(ofSample: first)
            else { throw BenchError("nothing was heard at the sink") }
            figure.add(nanoseconds: heard > start ? heard - start : 0)
            _ = recorder.waitForSilence(after: first)
        }
        return figure
    }

    /// Has the application announce "Download complete" through ATK; returns once it has.
    private func announce(on session: BusConnection) async throws {
        try await session.call(
            destination: "org.announced.TestApp", path: "/org/announced/TestApp",
            interface: "org.announced.TestApp", member: "Announce",
            arguments: [.string("Download complete"), .int32(-1)]
        ) { _ in }
    }
}

/// The private desktop of ``ToolkitAnnouncementFigure``: its own runtime directory, session bus,
/// Xvfb and the announcing GTK application. ``stop()`` ends them by pid, and then what D-Bus
/// activated for it (found in /proc by the directory in its environment).
final class BenchDesktop {
    let directory = "/tmp/announced-bench-desktop-\(getpid())"
    private(set) var busAddress = ""
    private var started: [SpawnedProcess] = []

    init() throws {
        mkdir(directory, 0o700)
        mkdir(directory + "/runtime", 0o700)
        do {
            let bus = try start(
                "/usr/bin/dbus-daemon",
                ["--session", "--nofork", "--address=unix:path=\(directory)/runtime/bus", "--print-address=1"])
            busAddress = try Self.firstLine(of: bus) { $0.hasPrefix("unix:path=") }
            let display = try start(
                "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"])
            let number = try Self.firstLine(of: display) { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
            let app = try start(
                "/usr/bin/python3", [ToolkitAnnouncementFigure.script],
                extra: ["DISPLAY": ":" + number, "GTK_MODULES": "gail:atk-bridge"])
            _ = try Self.firstLine(of: app) { $0 == "ready" }
        } catch {
            stop()
            throw error
        }
    }

    private func start(_ executable: String, _ arguments: [String], extra: [String: String] = [:]) throws
        -> SpawnedProcess
    {
        var environment = ProcessInfo.processInfo.environment
        for key in ["DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE", "GTK_MODULES"] {
            environment[key] = nil
        }
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        environment["GSETTINGS_BACKEND"] = "memory"
        if !busAddress.isEmpty { environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        for (key, value) in extra { environment[key] = value }
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment, output: .pipe)
        started.append(process)
        return process
    }

    /// Stops the application, Xvfb, what D-Bus activated, then the session bus, each by pid.
    func stop() {
        for process in started.dropFirst().reversed() {
            process.signal(SIGKILL)
            process.waitForExit()
        }
        for pid in Self.processes(naming: directory) { kill(pid, SIGKILL) }
        started.first?.signal(SIGKILL)
        started.first?.waitForExit()
        started = []
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The processes other than this one whose environment names `directory`: what D-Bus
    /// activated on a bus whose socket is in it (they are not its children).
    static func processes(naming directory: String) -> [pid_t] {
        let marker = Data(directory.utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.range(of: marker) != nil
            else { return nil }
            return pid
        }
    }

    /// The first line of the program's output for which `predicate` holds.
    static func firstLine(of process: SpawnedProcess, where predicate: (String) -> Bool) throws -> String {
        var bytes: [UInt8] = []
        while let output = process.output {
            while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: bytes[..<newline], as: UTF8.self)
                bytes.removeSubrange(...newline)
                if predicate(line) { return line }
            }
            let chunk = output.availableData
            if chunk.isEmpty { break }
            bytes += chunk
        }
        throw BenchError("a program of the bench's desktop ended before it was ready")
    }
}
