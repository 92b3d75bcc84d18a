// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Glibc
import ProcessHarness

/// A private session bus for the Spiel figure: `dbus-daemon --session` on a socket in a
/// directory of its own, stopped by its pid.
final class PrivateSessionBus {
    static let executable = "/usr/bin/dbus-daemon"
    let directory = "/tmp/announced-bench-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    private let process: SpawnedProcess
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    let address: String

    init() throws {
        mkdir(directory, 0o700)
        process = try SpawnedProcess(
            executable: Self.executable,
            arguments: ["--session", "--nofork", "--address=unix:path=\(directory)/bus", "--print-address=1"],
            environment: ProcessInfo.processInfo.environment, output: .pipe)
        do {
            address = try BenchDesktop.firstLine(of: process) { $0.hasPrefix("unix:path=") }
        } catch {
            process.signal(SIGKILL)
            _ = process.waitForExit()
            throw BenchError("dbus-daemon --session did not print its address")
        }
    }

    /// Stops what D-Bus activated on the bus (at-spi-bus-launcher, when the daemon asked it for
    /// the accessibility bus), then the bus, each by pid.
    func stop() {
        for pid in BenchDesktop.processes(naming: directory) { kill(pid, SIGKILL) }
        process.signal(SIGTERM)
        _ = process.waitForExit()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The integration tests' Spiel client (Tests/IntegrationTests/Fixtures/spiel-client.py) running
/// its `serve` command: one Gio connection to the session bus, one command a line on its standard
/// input, one JSON answer a line on its standard output.
final class SpielBenchClient {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Tests/IntegrationTests/Fixtures/spiel-client.py").standardized.path

    /// Whether the client can run: dbus-daemon and python3-gi are installed.
    static var missing: String? {
        if !FileManager.default.isExecutableFile(atPath: PrivateSessionBus.executable) {
            return "dbus-daemon is not installed (apt-get install dbus-daemon)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/gi/__init__.py") {
            return "python3-gi is not installed (apt-get install python3-gi)"
        }
        return nil
    }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffered: [UInt8] = []

    /// What one `speak` answered, nanoseconds from the call.
    struct Stream {
        var firstAudio: UInt64
        var end: UInt64
        var samples: Int
    }

    init(busAddress: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script, "serve"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    /// Sends one command and returns its answer; throws the client's error when the call failed.
    func command(_ fields: [String]) throws -> [String: Any] {
        let line = Array((fields.joined(separator: "\t") + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let written = line[offset...].withUnsafeBytes {
                write(input.fileHandleForWriting.fileDescriptor, $0.baseAddress, $0.count)
            }
            guard written > 0 else { throw BenchError("spiel-client.py is not reading its commands") }
            offset += written
        }
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = Data(buffered[..<newline])
                buffered.removeSubrange(...newline)
                guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                    throw BenchError("spiel-client.py answered something other than a JSON object")
                }
                if let error = object["error"] as? String {
                    throw SpielCallError(name: error, message: object["message"] as? String ?? "")
                }
                return object
            }
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchError("spiel-client.py ended") }
            buffered += chunk
        }
    }

    /// One Synthesize call in `voice`, its stream read to its end.
    func speak(voice: String, text: String) throws -> Stream {
        let answer = try command(["speak", voice, text])
        guard let first = answer["first_audio_ns"] as? Int, let end = answer["end_ns"] as? Int,
            let samples = answer["samples"] as? Int, answer["header"] as? String == "0.01"
        else { throw BenchError("spiel-client.py's answer lacks a field: \(answer)") }
        return Stream(firstAudio: UInt64(max(0, first)), end: UInt64(max(0, end)), samples: samples)
    }

    /// The first call, once the provider owns its name on the bus (the daemon takes it after
    /// READY=1): retried every 100 ms for up to 20 s while the name has no owner.
    func speakOnceServed(voice: String, text: String) throws -> Stream {
        let deadline = now() + 20_000_000_000
        while true {
            do {
                return try speak(voice: voice, text: text)
            } catch let error as SpielCallError
                where (error.name.hasSuffix("ServiceUnknown") || error.name.hasSuffix("NameHasNoOwner"))
                && now() < deadline
            {
                usleep(100_000)
            }
        }
    }

    /// Ends the client (its standard input closed, then SIGKILL by pid if it is still running).
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A Synthesize call that failed, as the client saw it.
struct SpielCallError: Error, CustomStringConvertible {
    var name: String
    var message: String
    var description: String { "Synthesize failed: \(name): \(message)" }
}
