// SPDX-License-Identifier: GPL-3.0-or-later
public import Foundation
import Glibc
import ProcessHarness

/// A private headless PipeWire session with a null sink, as `../shared/notes/headless-audio.md`
/// describes: its own session D-Bus, `pipewire`, `wireplumber` and `pipewire-pulse`, everything
/// under a private 0700 runtime directory (sockets, state, configuration), so it cannot meet the
/// user's session, another test's PipeWire or a ``HeadlessPulseAudio`` (no TCP, no shared paths).
/// Clients reach it through pipewire-pulse, as libpulse clients do on a desktop.
public final class HeadlessPipeWire {
    /// The programs a session needs, by name, with their paths when installed.
    public static let programs: [(name: String, path: String?)] = [
        "dbus-daemon", "pipewire", "wireplumber", "pipewire-pulse", "pactl",
    ].map { ($0, HeadlessPulseAudio.findExecutable($0)) }
    /// The programs of ``programs`` that are not installed.
    public static var missingPrograms: [String] { programs.filter { $0.path == nil }.map(\.name) }
    /// Whether a session can be started.
    public static var isInstalled: Bool { missingPrograms.isEmpty }

    /// The session's private runtime directory (sockets, state, configuration and the logs).
    public let directory: URL
    /// The null sink every stream plays into (the default sink once the session is up).
    public let sinkName = "null"
    /// pipewire-pulse's address, for `PULSE_SERVER`.
    public var address: String { "unix:" + directory.appendingPathComponent("pulse/native").path }
    private var processes: [(name: String, process: SpawnedProcess)] = []

    /// What a PulseAudio client of this session needs: the address, and no autospawn.
    public var clientEnvironment: [String: String] {
        ["PULSE_SERVER": address, "PULSE_CLIENTCONFIG": directory.appendingPathComponent("client.conf").path]
    }

    /// The environment the session's programs and tools (`pactl`, `parec`) run with: the
    /// caller's, with every directory and bus address pointing into ``directory``.
    public var serverEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["DBUS_SYSTEM_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"] { environment[key] = nil }
        // pipewire-pulse serves XDG_RUNTIME_DIR/pulse/native (PULSE_RUNTIME_PATH would move it).
        for key in ["PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR", "PULSE_RUNTIME_PATH", "PULSE_STATE_PATH"] {
            environment[key] = nil
        }
        for key in ["XDG_RUNTIME_DIR", "HOME"] { environment[key] = directory.path }
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.appendingPathComponent("bus").path
        for (key, value) in clientEnvironment { environment[key] = value }
        return environment
    }

    /// Creates the private directory, starts the session and makes the null sink the default.
    /// - Throws: `SpawnError` with the session's logs when a part does not come up.
    public init() throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent(
            "announced-pipewire-\(UUID().uuidString.prefix(8))")
        for subdirectory in ["config", "state", "data"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(subdirectory), withIntermediateDirectories: true
            )
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        try Data("autospawn = no\n".utf8).write(to: directory.appendingPathComponent("client.conf"))
        do {
            try start()
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the session's programs, the last started first, and waits for each. SIGKILL, not
    /// SIGTERM: dbus-daemon and wireplumber started from the test runner ignored SIGTERM (they
    /// waited forever), and nothing of a private session needs to be saved.
    public func stop() {
        for (_, process) in processes.reversed() {
            process.signal(SIGKILL)
            process.waitForExit()
        }
        processes.removeAll()
    }

    private func start() throws {
        let paths = Dictionary(uniqueKeysWithValues: Self.programs.map { ($0.name, $0.path) })
        guard Self.isInstalled, let dbus = paths["dbus-daemon"]!, let pipewire = paths["pipewire"]!,
            let wireplumber = paths["wireplumber"]!, let pipewirePulse = paths["pipewire-pulse"]!,
            let pactl = paths["pactl"]!
        else {
            throw SpawnError("not installed: \(Self.missingPrograms.joined(separator: ", "))")
        }
        let environment = serverEnvironment
        // wireplumber exits at once without a session bus. dbus-daemon prints its address once it
        // listens: that line is the readiness signal.
        let bus = try SpawnedProcess(
            executable: dbus,
            arguments: [
                "--session", "--nofork", "--nopidfile", "--print-address=1",
                "--address=unix:path=\(directory.appendingPathComponent("bus").path)",
            ],
            environment: environment, output: .pipe
        )
        processes.append(("dbus-daemon", bus))
        guard let line = bus.output?.readLine(), line.hasPrefix("unix:") else {
            throw SpawnError("the test session's dbus-daemon did not start")
        }
        try launch("pipewire", pipewire, environment)
        // pipewire gives no readiness signal; its socket appears when it serves.
        try waitUntil("pipewire serves \(directory.path)/pipewire-0") {
            FileManager.default.fileExists(atPath: self.directory.appendingPathComponent("pipewire-0").path)
        }
        try launch("wireplumber", wireplumber, environment)
        try launch("pipewire-pulse", pipewirePulse, environment)
        try waitUntil("pipewire-pulse answers `pactl info`") { try self.pactl(pactl, ["info"], environment) != nil }
        guard
            try self.pactl(
                pactl,
                [
                    "load-module", "module-null-sink", "sink_name=\(sinkName)", "rate=22050", "channels=1",
                    "format=s16le",
                ],
                environment
            ) != nil
        else { throw SpawnError("pactl could not load the null sink\n\(logs())") }
        // wireplumber makes the new sink the default a little later.
        try waitUntil("the null sink is the default sink") {
            try self.pactl(pactl, ["get-default-sink"], environment) == self.sinkName
        }
    }

    private func launch(_ name: String, _ executable: String, _ environment: [String: String]) throws {
        let log = directory.appendingPathComponent("\(name).log").path
        processes.append(
            (
                name,
                try SpawnedProcess(executable: executable, arguments: [], environment: environment, output: .file(log))
            ))
    }

    /// `pactl ARGUMENTS`'s output without the final newline, or nil when it failed.
    private func pactl(_ executable: String, _ arguments: [String], _ environment: [String: String]) throws -> String? {
        let process = try SpawnedProcess(
            executable: executable, arguments: arguments, environment: environment, output: .pipe)
        let output = process.output?.readDataToEndOfFile() ?? Data()
        guard process.waitForExit() == 0 else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Asks `condition` until it holds (the session's parts give no readiness signal), failing
    /// with the logs after 15 s or when a part has exited.
    private func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let held = try pollUntil(every: 0.05, timeout: 15) {
            if try condition() { return true }
            if let dead = processes.first(where: { !$0.process.isRunning }) {
                throw SpawnError("the test session's \(dead.name) exited before \(what)\n\(logs())")
            }
            return false
        }
        guard held else { throw SpawnError("waited 15 s in vain until \(what)\n\(logs())") }
    }

    /// The session's logs, for a failure message.
    private func logs() -> String {
        ["pipewire", "wireplumber", "pipewire-pulse"].map { name in
            let text = (try? String(contentsOf: directory.appendingPathComponent("\(name).log"), encoding: .utf8)) ?? ""
            return "\(name).log:\n\(text)"
        }.joined(separator: "\n")
    }
}

extension FileHandle {
    /// One line read byte by byte (without its newline), or nil at end of file.
    fileprivate func readLine() -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
