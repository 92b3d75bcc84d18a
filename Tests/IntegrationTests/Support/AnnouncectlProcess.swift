// SPDX-License-Identifier: GPL-3.0-or-later
import BlockingThreads
import Foundation
import TestSupport
import Glibc
import Testing

/// The built `announcectl`, run as a separate process against a test daemon.
final class AnnouncectlProcess: @unchecked Sendable {
    static var executable: URL { DaemonProcess.binDirectory.appendingPathComponent("announcectl") }

    let process = Process()
    private let output = LineCollector()
    private let errors = LineCollector()
    private let input = Pipe()

    /// Starts `announcectl ARGUMENTS` with `environment` added to the test's own (without
    /// ANNOUNCED_SOCKET and XDG_RUNTIME_DIR, so only what the test gives counts).
    init(_ arguments: [String], environment: [String: String] = [:], executable: URL? = nil) throws {
        process.executableURL = executable ?? Self.executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["ANNOUNCED_SOCKET"] = nil
        env["XDG_RUNTIME_DIR"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = input
        process.standardOutput = output.pipe
        process.standardError = errors.pipe
        try process.run()
        output.startReading()
        errors.startReading()
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
        let exited = DispatchSemaphore(value: 0)
        Thread.detachNewThread { [self] in
            process.waitForExit()
            exited.signal()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitForExit()
        return (process.terminationStatus, output.waitForEnd(), errors.waitForEnd())
    }

    /// Waits until standard output has a line for which `predicate` holds; nil after `timeout`.
    func waitForOutputLine(timeout: Double = 30, _ predicate: @escaping (String) -> Bool) -> String? {
        output.waitForLine(timeout: timeout, predicate)
    }

    /// Runs `announcectl ARGUMENTS` to its end, with `stdin` as standard input.
    static func run(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        let tool = try AnnouncectlProcess(arguments, environment: environment)
        tool.finishInput(stdin)
        return tool.finish()
    }
}

/// Reads a pipe on its own thread and keeps what came, line by line.
final class LineCollector: @unchecked Sendable {
    let pipe = Pipe()
    private let condition = NSCondition()
    private var text = ""
    private var ended = false

    func startReading() {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                condition.lock()
                if data.isEmpty { ended = true } else { text += String(decoding: data, as: UTF8.self) }
                condition.broadcast()
                condition.unlock()
                if data.isEmpty { return }
            }
        }
    }

    /// Everything, once the writer closed the pipe.
    func waitForEnd() -> String {
        expectBlockingAllowed("Waiting for a child's output to end")
        condition.lock()
        defer { condition.unlock() }
        while !ended { condition.wait() }
        return text
    }

    /// What came so far.
    func currentText() -> String {
        condition.lock()
        defer { condition.unlock() }
        return text
    }

    /// The complete lines so far (a line still being written is left out).
    func completeLines() -> [String] {
        condition.lock()
        defer { condition.unlock() }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Waits until there are more than `count` complete lines; false at `deadline` or the end.
    func waitForMoreLines(than count: Int, until deadline: Date) -> Bool {
        expectBlockingAllowed("Waiting for a child's next output line")
        condition.lock()
        defer { condition.unlock() }
        while text.count(where: { $0 == "\n" }) <= count {
            if ended || !condition.wait(until: deadline) { return false }
        }
        return true
    }

    func waitForLine(timeout: Double, _ predicate: (String) -> Bool) -> String? {
        expectBlockingAllowed("Waiting for a child's output line")
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            // "\r\n" (a terminal's line end) is one Character in Swift, so it is split on too.
            let complete = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .dropLast(text.last == "\n" || text.last == "\r\n" ? 0 : 1)
            if let line = complete.first(where: { predicate(String($0)) }) { return String(line) }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }
}

/// Runs announcectl against `daemon`'s socket.
func announcectl(_ daemon: DaemonProcess, _ arguments: String..., stdin: String = "") throws -> (status: Int32, stdout: String, stderr: String) {
    try AnnouncectlProcess.run(["--socket", daemon.socketPath] + arguments, stdin: stdin)
}

/// A connection subscribed to `speech` events, ready once the daemon confirmed it.
func speechWatcher(_ daemon: DaemonProcess) throws -> LineClient {
    let watcher = try daemon.connect()
    watcher.send(#"{"op":"subscribe","id":1,"events":["speech"]}"#)
    try #require(watcher.waitFor("ok", id: 1) != nil)
    return watcher
}

/// An announcement long enough to be interrupted before it reaches its end.
let interruptibleText = "This is a rather long announcement that will certainly be interrupted before it reaches its end"
