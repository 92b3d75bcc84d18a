// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import CAnnounceLinux
public import Foundation
import Glibc

/// A child started with `posix_spawn` and reaped with `waitpid` on its own pid.
///
/// For programs that close every inherited descriptor at start (pulseaudio,
/// systemd-socket-activate before it execs): Foundation's `Process` learns of a child's exit from
/// a socket the child inherits, so when the child closes it early Foundation's process-manager
/// thread blocks in `waitpid` on a live child and every other `Process` in the test run stops
/// being reaped.
// Unchecked: `status` is written unlocked when the child is reaped; one thread at a time uses a process.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where the child's standard output and standard error go.
    public enum Output {
        /// Appended to the file at this path (created if missing).
        case file(String)
        /// `/dev/null`.
        case discarded
        /// A pipe whose read end is ``SpawnedProcess/output``.
        case pipe
    }

    /// The child's process id.
    public let pid: Glibc.pid_t
    /// The read end of the output pipe, with `.pipe`.
    public let output: FileHandle?
    private var status: Int32?

    /// Starts `executable ARGUMENTS` with exactly `environment`, standard input `/dev/null`, and
    /// no other descriptor of this process.
    public init(executable: String, arguments: [String], environment: [String: String], output mode: Output) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var pipeEnds: [Int32] = [-1, -1]
        switch mode {
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipe:
            guard pipe(&pipeEnds) == 0 else { throw SpawnError("pipe: errno \(errno)") }
            // Neither end leaks into other children; dup2 clears the flag on the child's copy.
            _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        }
        // Nothing else the test process has open: a Foundation `Pipe`'s ends are inherited
        // otherwise, and a long-lived child holding another test's pipe keeps it from ever ending.
        let closing = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, STDERR_FILENO + 1)
        guard closing == 0 else {
            pipeEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw SpawnError("posix_spawn_file_actions_addclosefrom_np: \(String(cString: strerror(closing)))")
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Every signal at its default and none blocked: a child started from a thread that blocks
        // SIGTERM (libdispatch's workers do) would otherwise never end on `signal(SIGTERM)`.
        var attributes = posix_spawnattr_t()
        let attributesStatus = CAnnounceLinux_spawnattr_init_new_process(&attributes, 0)
        guard attributesStatus == 0 else {
            pipeEnds.filter { $0 >= 0 }.forEach { close($0) }
            throw SpawnError("posix_spawnattr: \(String(cString: strerror(attributesStatus)))")
        }
        defer { posix_spawnattr_destroy(&attributes) }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard result == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw SpawnError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        pid = child
        output = pipeEnds[0] >= 0 ? FileHandle(fileDescriptor: pipeEnds[0], closeOnDealloc: true) : nil
    }

    /// Starts `executable ARGUMENTS` with exactly `environment`, sharing this process's standard
    /// input, output and error and no other descriptor, in a child that gets `signal` when the
    /// thread that started it ends (`PR_SET_PDEATHSIG`): a benchmark's daemon dies with a killed
    /// benchmark. Start it from a thread that lives as long as the child should, such as the main
    /// thread.
    public init(executable: String, arguments: [String], environment: [String: String], parentDeathSignal signal: Int32)
        throws
    {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        let child = CAnnounceLinux_spawn_dying_with_parent(executable, argv, envp, signal)
        guard child > 0 else { throw SpawnError("cannot start \(executable): \(String(cString: strerror(errno)))") }
        pid = child
        output = nil
    }

    deinit {
        if isRunning {
            kill(pid, SIGKILL)
            _ = waitForExit()
        }
    }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        guard waitpid(pid, &raw, WNOHANG) == pid else { return true }
        status = Self.exitStatus(raw)
        return false
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        if status == nil { kill(pid, signal) }
    }

    /// Waits for the child to exit; its exit status, or 128 + the signal that ended it.
    @discardableResult
    public func waitForExit() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        _ = retryingOnInterrupt { waitpid(pid, &raw, 0) }
        let result = Self.exitStatus(raw)
        status = result
        return result
    }

    private static func exitStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}

/// A child that could not be started.
public struct SpawnError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
