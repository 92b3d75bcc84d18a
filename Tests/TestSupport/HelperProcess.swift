// SPDX-License-Identifier: GPL-3.0-or-later
import CAnnounceLinux
public import EngineWire
import Foundation
import Glibc

/// A running engine helper (`announced-espeak`, `announced-piper`, or a test's own on
/// `HelperRuntime`) and its two pipes, as the daemon drives it; its standard error is kept in a
/// file the test can read.
public final class HelperProcess {
    /// The helper's process id.
    public let pid: Int32
    private let requests: FrameChannel
    private let messages: FrameChannel
    /// Where the helper's standard error goes.
    public let errorLog: String
    private var exitStatus: Int32?

    /// Starts `executable` with `environment` (the whole of it), as the daemon starts a helper:
    /// the two pipes, standard error to a file, no other descriptor, default signal dispositions.
    public init(spawning executable: String, environment: [String: String]) throws {
        errorLog = NSTemporaryDirectory() + "announced-helper-\(UUID().uuidString).log"
        var toHelper: [Int32] = [-1, -1]
        var fromHelper: [Int32] = [-1, -1]
        // No end leaks into another test's child; dup2 clears the flag on the helper's copies.
        guard CAnnounceLinux_pipe_cloexec(&toHelper) == 0, CAnnounceLinux_pipe_cloexec(&fromHelper) == 0 else {
            throw HelperProcessError("pipe2: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toHelper[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromHelper[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else: not the pipes of another test's helper, started at the same moment.
        _ = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, 3)
        let argv = [strdup(executable), nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // A new process's signal mask and dispositions, as the daemon starts it (EngineHelperProcess).
        var attributes = posix_spawnattr_t()
        let attributesStatus = CAnnounceLinux_spawnattr_init_new_process(&attributes, 0)
        guard attributesStatus == 0 else { throw HelperProcessError("posix_spawnattr: \(attributesStatus)") }
        defer { posix_spawnattr_destroy(&attributes) }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(toHelper[0])
        close(fromHelper[1])
        guard result == 0 else {
            close(toHelper[1])
            close(fromHelper[0])
            throw HelperProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        requests = FrameChannel(fd: toHelper[1])
        messages = FrameChannel(fd: fromHelper[0])
        signal(SIGPIPE, SIG_IGN)
    }

    deinit {
        _ = stop()
        close(messages.fd)
        unlink(errorLog)
    }

    /// Whether the pipe to the helper is still open (``stop()`` closes it, once).
    private var requestsOpen = true

    /// Sends a request; false when the helper is gone.
    @discardableResult
    public func send(_ request: EngineRequest) -> Bool { send(bytes: request.frame) }

    /// Sends `bytes` as they are (a frame this build does not know, for the tests of the frame loop).
    @discardableResult
    public func send(bytes: [UInt8]) -> Bool { requestsOpen && requests.write(bytes) }

    /// The next message, waiting at most `timeout` seconds; nil at the end of the stream or on timeout.
    public func next(timeout: Double = 30) -> EngineMessage? {
        guard let frame = messages.readFrame(timeout: Int32(timeout * 1000)) else { return nil }
        return try? EngineMessage(tag: frame.tag, payload: frame.payload)
    }

    /// A synthesis request for `voice`.
    public static func synthesize(
        _ text: String, voice: String, ssml: Bool = false, rate: Int32 = 175, volume: Int32 = 100
    ) -> EngineRequest {
        .synthesize(
            SynthesisRequest(
                voice: voice, rate: rate, pitch: 50, volume: volume, punctuation: .none, punctuationList: "",
                ssml: ssml, text: text)
        )
    }

    /// The executable `name` (a helper), built beside the test runner.
    public static func builtExecutable(_ name: String) -> String {
        let runner =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: runner).deletingLastPathComponent().path + "/" + name
    }

    /// Everything up to and including `done` (or the end of the stream).
    public func utterance(timeout: Double = 60) -> [EngineMessage] {
        var result: [EngineMessage] = []
        while let message = next(timeout: timeout) {
            result.append(message)
            if case .done = message { break }
        }
        return result
    }

    /// Closes the helper's input and waits for it to exit (killing it after 10 s); its exit
    /// status, or 128 + the signal that ended it.
    public func stop() -> Int32 {
        if requestsOpen {
            requestsOpen = false
            close(requests.fd)
        }
        if let exitStatus { return exitStatus }
        if !processesEnd([pid], within: 10) { kill(pid, SIGKILL) }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        return record(raw)
    }

    /// Waits for the helper to end by itself (a crash); as ``stop()``, without closing its input.
    public func waitForExit() -> Int32 {
        if let exitStatus { return exitStatus }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0, errno == EINTR {}
        return record(raw)
    }

    private func record(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        exitStatus = status
        return status
    }

    /// What the helper wrote to standard error.
    public var errors: String { (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? "" }
}

/// The helper could not be started.
public struct HelperProcessError: Error, CustomStringConvertible {
    /// What failed.
    public let description: String
    init(_ description: String) { self.description = description }
}

extension [EngineMessage] {
    /// All the samples, in order.
    public var samples: [Int16] {
        flatMap { message -> [Int16] in
            if case .samples(let samples) = message { return samples }
            return []
        }
    }

    /// The marks with the sample each was reported at, and how many samples had come before it.
    public var marks: [(name: String, sample: UInt32, samplesBefore: Int)] {
        var before = 0
        var result: [(name: String, sample: UInt32, samplesBefore: Int)] = []
        for message in self {
            switch message {
            case .samples(let samples): before += samples.count
            case .mark(let sample, let name): result.append((name, sample, before))
            default: break
            }
        }
        return result
    }

    /// The words' text positions and lengths.
    public var words: [(sample: UInt32, textPosition: Int32, length: Int32)] {
        compactMap { message in
            if case .word(let sample, let position, let length) = message { return (sample, position, length) }
            return nil
        }
    }
}
