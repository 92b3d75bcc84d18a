// SPDX-License-Identifier: GPL-3.0-or-later
#if DEBUG
    import CEngineSandboxProbes
    import Glibc

    /// Debug builds only: what a sandboxed engine must not be able to do, tried from inside the
    /// engine's helper process, so that tests see each restriction hold in the real process. A
    /// helper answers a text that starts with ``prefix`` by running the probe it names instead of
    /// speaking it. A refused system call ends the helper (SIGSYS) before it can answer.
    public enum SandboxProbe: String, CaseIterable, Sendable {
        /// Opens the file given as the argument for reading, and reads a byte.
        case readFile = "read-file"
        /// Creates the file given as the argument.
        case createFile = "create-file"
        /// Opens a Unix stream socket.
        case openSocket = "open-socket"
        /// Replaces the process with /bin/true.
        case execute = "execute"
        /// Reads the no_new_privs flag.
        case noNewPrivileges = "no-new-privs"
        /// Forks a child that exits at once (a sandbox that allows threads must still refuse it).
        case fork = "fork"
        /// Makes the thread whose id is the first word of the argument open the file named by the rest
        /// for reading: Landlock restricts each thread by itself, so a thread started before the
        /// process restricted itself would read what the others cannot (`no thread <id>` when it is
        /// not one of the helper's).
        case readFileOnThread = "read-file-on-thread"
        /// Replaces the SIGSYS handler (the sandbox's violation report) with one that returns, then
        /// opens a Unix stream socket: a hijacked engine's way to survive a refused call.
        /// `still running` when the process went on after the socket call.
        case replaceViolationHandler = "replace-violation-handler"

        /// What a probe text starts with: `<prefix><probe> <argument>`.
        public static let prefix = "\u{1B}sandbox-probe "

        /// The text that runs this probe with `argument`.
        public func text(_ argument: String = "") -> String { Self.prefix + rawValue + " " + argument }

        /// Runs the probe `text` names and says what happened (`allowed`, `refused: <reason>`,
        /// `no_new_privs=<0 or 1>`); nil when `text` is not a probe.
        public static func answer(to text: String) -> String? {
            guard text.hasPrefix(prefix) else { return nil }
            let words = text.dropFirst(prefix.count).split(separator: " ", maxSplits: 1).map(String.init)
            guard let first = words.first, let probe = SandboxProbe(rawValue: first) else { return "unknown probe" }
            return probe.run(argument: words.count > 1 ? words[1] : "")
        }

        private func run(argument: String) -> String {
            switch self {
            case .readFile:
                let fd = open(argument, O_RDONLY)
                guard fd >= 0 else { return Self.refused() }
                defer { close(fd) }
                var byte: UInt8 = 0
                return read(fd, &byte, 1) >= 0 ? "allowed" : Self.refused()
            case .createFile:
                let fd = open(argument, O_WRONLY | O_CREAT | O_EXCL, 0o600)
                guard fd >= 0 else { return Self.refused() }
                close(fd)
                return "allowed"
            case .openSocket:
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                guard fd >= 0 else { return Self.refused() }
                close(fd)
                return "allowed"
            case .execute:
                let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("true"), nil]
                let environment: [UnsafeMutablePointer<CChar>?] = [nil]
                execve("/bin/true", arguments, environment)
                return Self.refused()
            case .noNewPrivileges:
                return "no_new_privs=\(CEngineSandboxProbes_get_no_new_privs())"
            case .readFileOnThread:
                let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
                guard words.count == 2, let thread = Int32(words[0]) else { return "usage: <thread id> <path>" }
                let result = CEngineSandboxProbes_open_on_thread(thread, words[1])
                if result == 0 { return "allowed" }
                if result == -ESRCH { return "no thread \(thread)" }
                if result < 0 { return "thread \(thread) not reached: \(String(cString: strerror(-result)))" }
                return "refused: \(String(cString: strerror(result)))"
            case .fork:
                let child = CEngineSandboxProbes_fork_and_exit()
                guard child > 0 else { return Self.refused() }
                var status: Int32 = 0
                waitpid(child, &status, 0)
                return "allowed"
            case .replaceViolationHandler:
                guard CEngineSandboxProbes_replace_violation_handler() == 0 else { return Self.refused() }
                let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
                if fd >= 0 { close(fd) }
                return "still running"
            }
        }

        private static func refused() -> String { "refused: \(String(cString: strerror(errno)))" }
    }
#endif
