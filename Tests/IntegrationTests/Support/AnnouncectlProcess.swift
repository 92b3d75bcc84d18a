// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import Glibc
import TestSupport
import Testing

/// The built `announcectl`, or another client program (`executable`), run as a separate process
/// against a test daemon: its standard input a pipe the test writes, its standard output and
/// standard error each read to the end on a thread of its own.
final class AnnouncectlProcess: @unchecked Sendable {
    static var executable: URL { DaemonProcess.binDirectory.appendingPathComponent("announcectl") }

    let process = Process()
    /// Standard output, line by line.
    let output: LineCollector
    /// Standard error, line by line.
    let errors: LineCollector
    private let input = Pipe()

    /// Starts `announcectl ARGUMENTS` (or `executable ARGUMENTS`) with `environment` added to the
    /// test's own, without ANNOUNCED_SOCKET, XDG_RUNTIME_DIR, the desktop's buses
    /// (``DaemonProcess/desktopBusVariables``: a daemon it starts never reaches the developer's
    /// session bus) and the variables in `unsetting`, so only what the test gives counts.
    init(_ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [], executable: URL? = nil)
        throws
    {
        process.executableURL = executable ?? Self.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for key in ["ANNOUNCED_SOCKET", "XDG_RUNTIME_DIR"] + DaemonProcess.desktopBusVariables + unsetting {
            env[key] = nil
        }
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        output = LineCollector(reading: outputPipe.fileHandleForReading)
        errors = LineCollector(reading: errorPipe.fileHandleForReading)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitForExit()
        }
    }

    /// Writes `text` to standard input and keeps it open.
    func write(_ text: String) {
        input.fileHandleForWriting.write(Data(text.utf8))
    }

    /// Writes `text` to standard input and closes it.
    func finishInput(_ text: String = "") {
        input.fileHandleForWriting.write(Data(text.utf8))
        try? input.fileHandleForWriting.close()
    }

    /// Waits for the process to exit (killing it after `timeout` seconds, a failure guard).
    func finish(timeout: Double = 60) -> (status: Int32, stdout: String, stderr: String) {
        expectBlockingAllowed("Waiting for \(process.executableURL?.lastPathComponent ?? "a client") to exit")
        if !processesEnd([process.processIdentifier], within: timeout) {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitForExit()
        return (process.terminationStatus, output.waitForEnd(), errors.waitForEnd())
    }

    /// Waits until standard output has a line for which `predicate` holds; nil after `timeout`.
    func waitForOutputLine(timeout: Double = 30, _ predicate: @escaping (String) -> Bool) -> String? {
        output.waitForLine(timeout: timeout, predicate)
    }

    /// Runs `announcectl ARGUMENTS` (or `executable ARGUMENTS`) to its end, with `stdin` as
    /// standard input and `environment` as in ``init(_:environment:unsetting:executable:)``.
    static func run(
        _ arguments: [String], stdin: String = "", environment: [String: String] = [:], executable: URL? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try AnnouncectlProcess(arguments, environment: environment, executable: executable)
        tool.finishInput(stdin)
        return tool.finish()
    }
}

/// Runs announcectl against `daemon`'s socket.
func announcectl(_ daemon: DaemonProcess, _ arguments: String..., stdin: String = "") throws -> (
    status: Int32, stdout: String, stderr: String
) {
    try AnnouncectlProcess.run(["--socket", daemon.socketPath] + arguments, stdin: stdin)
}

/// What a peer of user 65534 reads from the socket at `path` after sending `text` (socat
/// under setpriv: the test must run as root, and the socket be open to that user).
func readAsAnotherUser(from path: String, sending text: String) throws -> String {
    let arguments = [
        "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/socat", "-t", "5", "-", "UNIX-CONNECT:\(path)",
    ]
    return try AnnouncectlProcess.run(arguments, stdin: text, executable: URL(fileURLWithPath: "/usr/bin/setpriv"))
        .stdout
}

/// A connection subscribed to `speech` events, ready once the daemon confirmed it.
func speechWatcher(_ daemon: DaemonProcess) throws -> LineClient {
    let watcher = try daemon.connect()
    watcher.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
    try #require(watcher.waitFor("ok", id: 1) != nil)
    return watcher
}

/// An announcement long enough to be interrupted before it reaches its end.
let interruptibleText =
    "This is a rather long announcement that will certainly be interrupted before it reaches its end"
