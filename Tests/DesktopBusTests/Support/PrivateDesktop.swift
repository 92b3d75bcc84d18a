// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import CAnnounceLinux
import DesktopBus
import Foundation
import Glibc
import ProcessHarness
import TestSupport
import Testing

/// A private desktop for one test: its own 0700 runtime directory, a session bus
/// (`dbus-daemon --session`, whose activation starts at-spi-bus-launcher on the first
/// `org.a11y.Bus` call, which starts the accessibility bus and, on it, at-spi2-registryd), and
/// on demand an Xvfb display and programs. ``stop()`` ends what the test started by pid, then
/// every process whose environment names the directory (what D-Bus activated), by pid.
///
/// Starting and stopping it block (they read a program's pipe, wait for exits): async tests use
/// ``withDesktop(activation:_:)``, which does both on the ``BlockingThreads``, and wrap its other
/// blocking calls in `onBlockingThread`. The suites do not carry `.onBlockingThreads`: that runs
/// every step of an async test on the threads shared with the suites of tests that block for
/// seconds, so each `await` of a bus reply (and a deadline's timer) queues behind whole tests.
final class PrivateDesktop {
    /// The test's folder (home and runtime directory).
    let directory: String
    /// The session bus's address.
    private(set) var busAddress = ""
    /// The X display (`:N`) once ``startDisplay()`` ran.
    private(set) var display: String?
    private var started: [SpawnedProcess] = []

    /// Starts the session bus; with `activation` false, one that starts no service (a desktop
    /// without at-spi2-core).
    init(activation: Bool = true) throws {
        expectBlockingAllowed("Starting a private desktop")
        directory = "/tmp/announced-desktop-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory + "/runtime", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory + "/runtime")
        do {
            var configuration = ["--session"]
            if !activation {
                let path = directory + "/session.conf"
                try Data(Self.busWithoutServices.utf8).write(to: URL(fileURLWithPath: path))
                configuration = ["--config-file=\(path)"]
            }
            let bus = try start(
                "/usr/bin/dbus-daemon",
                configuration + [
                    "--nofork", "--nosyslog", "--address=unix:path=\(directory)/runtime/bus", "--print-address=1",
                ],
                output: .pipe
            )
            guard let line = Self.firstLine(of: bus, where: { $0.hasPrefix("unix:path=") }) else {
                throw SpawnError("dbus-daemon printed no address")
            }
            busAddress = line
        } catch {
            stop()
            throw error
        }
    }

    /// Runs `body` with a new desktop (see ``init(activation:)``), started and then stopped on a
    /// blocking thread, whether `body` returns or throws.
    static func withDesktop<T>(activation: Bool = true, _ body: (PrivateDesktop) async throws -> T) async throws -> T {
        if BlockingThreads.forTests.runsCurrentThread {
            Issue.record(
                "A suite of async bus tests must not carry .onBlockingThreads: each reply would wait behind whole blocking tests"
            )
        }
        let desktop = try await onBlockingThread { try PrivateDesktop(activation: activation) }
        do {
            let result = try await body(desktop)
            await onBlockingThread { desktop.stop() }
            return result
        } catch {
            await onBlockingThread { desktop.stop() }
            throw error
        }
    }

    /// A session bus configuration without service directories: nothing is D-Bus activated.
    private static let busWithoutServices = """
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    deinit {
        end()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The environment of the desktop's programs: nothing that leads to the user's session.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in [
            "DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS", "NO_AT_BRIDGE", "GTK_MODULES", "PYTHONPATH",
            "PYTHONHOME",
        ] {
            environment[key] = nil
        }
        environment["HOME"] = directory
        environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["LANG"] = "C.UTF-8"
        if !busAddress.isEmpty { environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
        if let display { environment["DISPLAY"] = display }
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Starts Xvfb on a free display, without TCP, and waits until it accepts clients.
    func startDisplay() throws {
        expectBlockingAllowed("Starting Xvfb")
        let server = try start(
            "/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"], output: .pipe)
        guard let number = Self.firstLine(of: server, where: { !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            throw SpawnError("Xvfb printed no display number")
        }
        display = ":" + number
    }

    /// Starts a program of the desktop, its output in the log `directory/NAME.log`.
    @discardableResult
    func start(
        _ executable: String, _ arguments: [String], extra: [String: String] = [:], output: SpawnedProcess.Output? = nil
    ) throws
        -> SpawnedProcess
    {
        let name = (executable as NSString).lastPathComponent
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment(extra),
            output: output ?? .file("\(directory)/\(name).log")
        )
        started.append(process)
        return process
    }

    /// What a program wrote to its log, for a failure message.
    func log(_ name: String) -> String {
        (try? String(contentsOfFile: "\(directory)/\(name).log", encoding: .utf8)) ?? ""
    }

    /// Kills the session bus, as a desktop's bus goes away when the session ends.
    func killSessionBus() {
        expectBlockingAllowed("Killing the session bus")
        started.first?.signal(SIGKILL)
        started.first?.waitForExit()
    }

    /// Stops the desktop, every process by pid: the programs the test started (SIGKILL:
    /// dbus-daemon started from the test runner ignores SIGTERM) except the session bus; then
    /// what D-Bus activated (at-spi-bus-launcher, the accessibility bus, at-spi2-registryd, which
    /// detach from their parents), found in /proc by the directory in their environment, waiting
    /// on a pidfd until each is gone; then the session bus.
    func stop() {
        expectBlockingAllowed("Stopping a private desktop")
        end()
    }

    private func end() {
        for process in started.dropFirst().reversed() {
            process.signal(SIGKILL)
            process.waitForExit()
        }
        let activated = processesOfDesktop().map { pid in (pid, CAnnounceLinux_pidfd_open(pid)) }
        for (pid, _) in activated { kill(pid, SIGKILL) }
        for (_, fd) in activated where fd >= 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&pfd, 1, 5000)
            close(fd)
        }
        started.first?.signal(SIGKILL)
        started.first?.waitForExit()
        started = []
    }

    /// The processes other than this one whose environment names ``directory``.
    func processesOfDesktop() -> [pid_t] {
        let marker = Data(directory.utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
            guard let pid = pid_t(entry), pid != getpid(),
                let environ = FileManager.default.contents(atPath: "/proc/\(entry)/environ"),
                environ.range(of: marker) != nil
            else { return nil }
            return pid
        }
    }

    /// The first line for which `predicate` holds that a program writes to its output pipe
    /// (standard error too: Xvfb warns there first), or nil when the program ends first. The
    /// program writes little after it, so the pipe, left unread, never fills.
    private static func firstLine(of process: SpawnedProcess, where predicate: (String) -> Bool) -> String? {
        guard let output = process.output else { return nil }
        var bytes: [UInt8] = []
        while true {
            while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: bytes[..<newline], as: UTF8.self)
                bytes.removeSubrange(...newline)
                if predicate(line) { return line }
            }
            let chunk = output.availableData
            if chunk.isEmpty { return nil }
            bytes += chunk
        }
    }
}

extension PrivateDesktop {
    /// Starts `python3 SCRIPT` (a file of Fixtures/) with `extra` in its environment, and waits,
    /// through the bus's own `NameOwnerChanged` on `session`, until `name` has an owner.
    func startPythonOwner(
        of name: String, script: String, extra: [String: String] = [:], session: BusConnection,
        within seconds: Double = 60
    ) async throws {
        let (owners, ownerInput) = AsyncStream.makeStream(of: String.self)
        let match = try await session.addMatch(
            "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'",
            handler: { signal in
                _ = try? signal.readString()
                _ = try? signal.readString()
                if let owner = try? signal.readString(), !owner.isEmpty { ownerInput.yield(owner) }
            },
            finished: { ownerInput.finish() }
        )
        defer { session.remove(match) }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/\(script)").path
        try await onBlockingThread { _ = try start("/usr/bin/python3", [path], extra: extra) }
        guard try await owners.next(within: seconds, "\(name)'s owner") != nil else {
            throw TimedOut(what: "\(name)'s owner (python3's log: \(log("python3")))")
        }
    }
}

/// The programs a test needs, and the Debian packages that install them, for a skip note.
enum DesktopParts {
    static let busDaemon = ("/usr/bin/dbus-daemon", "dbus")
    static let busLauncher = ("/usr/libexec/at-spi-bus-launcher", "at-spi2-core")
    static let display = ("/usr/bin/Xvfb", "xvfb")
    static let python = ("/usr/bin/python3", "python3")
    static let gtkTypelib = ("/usr/lib/x86_64-linux-gnu/girepository-1.0/Gtk-3.0.typelib", "gir1.2-gtk-3.0")
    static let pythonGI = ("/usr/lib/python3/dist-packages/gi/__init__.py", "python3-gi")

    /// What a GTK 3 application announcing on a private desktop needs.
    static let announcingDesktop = [busDaemon, busLauncher, display, python, pythonGI, gtkTypelib]

    /// The packages of `parts` whose file is missing.
    static func missing(_ parts: [(String, String)]) -> [String] {
        parts.filter { !FileManager.default.fileExists(atPath: $0.0) }.map(\.1)
    }

    /// Whether all of `parts` are installed.
    static func installed(_ parts: [(String, String)]) -> Bool { missing(parts).isEmpty }

    /// A skip note naming the missing packages.
    static func note(_ parts: [(String, String)]) -> Comment {
        "needs \(missing(parts).joined(separator: " ")) (apt-get install it; CI installs the Makefile's DESKTOP_PACKAGES)"
    }
}
