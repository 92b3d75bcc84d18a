// SPDX-License-Identifier: GPL-3.0-or-later
import CEngineSandbox
import Glibc

/// The sandbox a speech engine's helper process enters once its engine is loaded, before it reads
/// the first text: the engines parse untrusted text, so a text that takes one over must find
/// nothing to reach.
///
/// Three layers, each enough on its own for what it covers:
/// - `no_new_privs`: nothing the process runs can gain privileges (setuid, file capabilities);
/// - a seccomp allowlist (``SystemCallAllowlist``): the system calls that reading pipes,
///   reading data files, allocating memory and ending the process take, files opened for reading
///   only, no executable mappings; anything else ends the process with SIGSYS, after
///   ``ViolationReport`` told the daemon which call it was;
/// - Landlock (``LandlockRules``), when the kernel has it: files and directories are readable
///   only beneath ``readablePaths``, nothing is writable or executable, and (with the ABIs that
///   have them) no TCP, no abstract Unix sockets, no signals to processes outside the sandbox.
///   A kernel without Landlock leaves reads unconfined; ``Report/warning`` says so.
///
/// The helper keeps the pipes and standard error it already has open, and writes only to them.
public struct EngineSandbox: Sendable {
    /// Files and directories the engine reads after entering (its data, voice files).
    public var readablePaths: [String]
    /// What the process writes on a violation, and where.
    public var violationReport: ViolationReport
    /// What this engine may do beyond the common allowlist.
    public var allowances: Set<Allowance>

    /// What an engine may need beyond what announced-espeak does; each widens the allowlist as
    /// little as it can.
    public enum Allowance: Sendable, Hashable {
        /// Threads (ONNX Runtime's pool): `clone` with the flags of a thread and no namespace
        /// flags (a fork or a new namespace still traps), `clone3` refused with ENOSYS so glibc
        /// falls back to `clone`, whose flags seccomp can read, and what a new thread registers
        /// (`set_robust_list`, `rseq`), names (`prctl(PR_SET_NAME)`) and asks (`sched_getaffinity`).
        case threads
        /// Anonymous memory files (`memfd_create`), which the process can write: no file system
        /// path reaches them.
        case memoryFiles
        /// What ONNX Runtime asks of the system as it loads a model: `sysinfo` (the memory size),
        /// the old `stat`, and `fcntl`'s F_GETFL and F_SETFL (file status flags; F_SETFL cannot
        /// make a file writable).
        case runtimeQueries
    }

    /// A sandbox that lets the engine read `readablePaths`, do what `allowances` add, and
    /// reports violations as `violationReport` says.
    public init(readablePaths: [String], violationReport: ViolationReport, allowances: Set<Allowance> = []) {
        self.readablePaths = readablePaths
        self.violationReport = violationReport
        self.allowances = allowances
    }

    /// What entering the sandbox achieved.
    public struct Report: Sendable, Equatable {
        /// The Landlock ABI the rules were made for; nil when the kernel has no Landlock.
        public var landlockABI: Int?
        /// Why Landlock is not in force, in words for the log; nil when it is.
        public var warning: String?
    }

    /// The Landlock ABI version the running kernel offers; nil when it has no Landlock.
    public static var kernelLandlockABI: Int? {
        let abi = CEngineSandbox_landlock_abi_version()
        return abi >= 1 ? Int(abi) : nil
    }

    /// Enters the sandbox, for the rest of the process's life. Call it on the process's only thread.
    /// - Returns: whether Landlock is in force; without it the process still runs, sandboxed by
    ///   seccomp and `no_new_privs` alone, and the report's `warning` says what that leaves open.
    /// - Throws: `EngineSandboxError` when `no_new_privs` or the seccomp filter cannot be set: the
    ///   caller must not go on to read untrusted input.
    public func enter() throws(EngineSandboxError) -> Report {
        try enter(around: {})
    }

    /// Enters the sandbox in two steps around `initialize`, the engine's initialization, which may
    /// start threads the allowlist does not allow. Call it on the process's only thread.
    ///
    /// `no_new_privs` and Landlock come first: Landlock binds only the thread that applies it and
    /// the threads that thread starts afterwards, so every thread `initialize` starts is born
    /// restricted. The seccomp filter comes after `initialize`, on every thread of the process at
    /// once (TSYNC), so `initialize` may start threads without the allowlist allowing `clone`.
    /// `initialize` must not read untrusted input: only seccomp's half of the sandbox is not yet on.
    /// - Returns: and throws as ``enter()``.
    public func enter(around initialize: () -> Void) throws(EngineSandboxError) -> Report {
        try violationReport.install()
        guard CEngineSandbox_set_no_new_privs() == 0 else { throw .failed("no_new_privs cannot be set", errno) }
        var report = Report()
        switch LandlockRules(readablePaths: readablePaths).restrictSelf() {
        case .enforced(let abi):
            report.landlockABI = abi
        case .unavailable(let reason):
            report.warning =
                "Landlock is not available (\(reason)), so the speech engine can read every file the user can; it still "
                + "cannot write files, open sockets or run programs. Linux 5.13 and later have Landlock (it must be "
                + "among the kernel's lsm= modules)."
        }
        initialize()
        // Last: the filter also refuses the calls made above.
        try SystemCallAllowlist(processID: getpid(), allowances: allowances).load()
        return report
    }
}
