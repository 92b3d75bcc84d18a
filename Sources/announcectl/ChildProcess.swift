// SPDX-License-Identifier: GPL-3.0-or-later
import AnnouncePOSIX
import CAnnounceLinux
import Glibc
import SystemPackage

/// A program announcectl runs to its end (curl, for `voices install URL`), started with
/// posix_spawn as the daemon starts its helpers: default signal dispositions and mask, standard
/// input and output inherited, standard error captured, no other descriptor.
struct ChildProcess {
    /// How the program ended.
    struct Termination {
        /// The exit status, or the number of the signal that ended it.
        var status: Int32
        /// What it wrote to standard error.
        var standardError: [UInt8]
    }

    /// Why the program could not be started: `strerror` of posix_spawn's error.
    struct StartFailure: Error, CustomStringConvertible {
        /// The reason, e.g. "No such file or directory".
        var description: String
    }

    /// Runs `executable` with `arguments` (without the program name) and waits for its end.
    static func run(_ executable: String, _ arguments: [String]) throws(StartFailure) -> Termination {
        let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do {
            pipe = try FileDescriptor.pipe()
        } catch {
            throw StartFailure(description: "\(error)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var status = posix_spawn_file_actions_adddup2(&actions, pipe.writeEnd.rawValue, STDERR_FILENO)
        if status == 0 { status = CAnnounceLinux_spawn_file_actions_addclosefrom(&actions, STDERR_FILENO + 1) }
        var attributes = posix_spawnattr_t()
        let attributesStatus = CAnnounceLinux_spawnattr_init_new_process(&attributes, 0)
        defer { if attributesStatus == 0 { posix_spawnattr_destroy(&attributes) } }
        if status == 0 { status = attributesStatus }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        if status == 0 { status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ) }
        try? pipe.writeEnd.close()
        defer { try? pipe.readEnd.close() }
        guard status == 0 else { throw StartFailure(description: String(cString: strerror(status))) }
        let standardError = (try? pipe.readEnd.readToEnd(limit: .max)) ?? []
        var waitStatus: Int32 = 0
        _ = retryingOnInterrupt { waitpid(pid, &waitStatus, 0) }
        // WIFEXITED: the low seven bits are 0, and the exit status is the next byte; otherwise they
        // are the signal's number.
        let signal = waitStatus & 0x7F
        return Termination(status: signal == 0 ? (waitStatus >> 8) & 0xFF : signal, standardError: standardError)
    }
}
