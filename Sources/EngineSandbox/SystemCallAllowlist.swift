// SPDX-License-Identifier: GPL-3.0-or-later
import CEngineSandbox
import CSeccomp
import Glibc

/// The system calls a sandboxed engine may make: those that reading its pipes, reading data
/// files, allocating memory, writing to standard error and ending the process (normally, or by
/// an abort) take, found by tracing the helpers on ordinary, SSML, long and many-voice texts. Any
/// other call (or one of these with arguments outside its rule) traps: the SIGSYS handler
/// reports it and the process ends.
///
/// What is left out is the point: no socket, connect or bind; no execve, fork, clone or vfork;
/// no file opened for writing, created, renamed or removed; no executable memory; no ptrace,
/// no mount, no namespaces; no signals to other processes.
struct SystemCallAllowlist {
    /// The sandboxed process: the only one it may signal (an abort signals itself).
    let processID: pid_t
    /// What this engine may do beyond the common rules.
    var allowances: Set<EngineSandbox.Allowance> = []

    /// One allowed call, with the conditions its arguments must meet (all of them).
    struct Rule {
        let name: String
        var conditions: [scmp_arg_cmp] = []
    }

    /// `(argument & mask) == value`.
    static func masked(_ argument: UInt32, _ mask: UInt64, equals value: UInt64) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: value)
    }

    /// `argument == value`.
    static func equal(_ argument: UInt32, _ value: UInt64) -> scmp_arg_cmp {
        scmp_arg_cmp(arg: argument, op: SCMP_CMP_EQ, datum_a: value, datum_b: 0)
    }

    /// Open flags that write, create or truncate: none may be set.
    static let writingOpenFlags = CEngineSandbox_writing_open_flags()

    /// Calls refused with EPERM rather than trapped: a library makes them on a path it handles
    /// failing, and the text still speaks. espeak-ng makes pipes to run the mbrola program for
    /// an MBROLA voice (an SSML `<voice>` may name one); without them the voice is not loaded.
    static let failing = ["pipe", "pipe2"]

    var rules: [Rule] {
        var rules = commonRules
        if allowances.contains(.threads) {
            let thread = CEngineSandbox_thread_clone_flags()
            rules += [
                // arg 0 is the flags: a thread's, and no namespace.
                Rule(
                    name: "clone",
                    conditions: [Self.masked(0, thread | CEngineSandbox_namespace_clone_flags(), equals: thread)]),
                Rule(name: "set_robust_list"), Rule(name: "rseq"), Rule(name: "sched_getaffinity"),
                Rule(name: "prctl", conditions: [Self.equal(0, UInt64(CEngineSandbox_set_name_option()))]),
            ]
        }
        if allowances.contains(.memoryFiles) {
            rules.append(Rule(name: "memfd_create"))
        }
        if allowances.contains(.runtimeQueries) {
            rules += [
                Rule(name: "sysinfo"), Rule(name: "stat"),
                Rule(name: "fcntl", conditions: [Self.equal(1, UInt64(F_GETFL))]),
                Rule(name: "fcntl", conditions: [Self.equal(1, UInt64(F_SETFL))]),
            ]
        }
        return rules
    }

    /// Calls refused with ENOSYS: glibc then uses an older call whose arguments seccomp can check.
    var unimplemented: [String] { allowances.contains(.threads) ? ["clone3"] : [] }

    private var commonRules: [Rule] {
        let noExecute = Self.masked(2, UInt64(PROT_EXEC), equals: 0)
        return [
            // The pipes to the daemon, and standard error (glibc's fatal messages use writev).
            Rule(name: "read"), Rule(name: "readv"), Rule(name: "write"), Rule(name: "writev"),
            Rule(name: "poll"), Rule(name: "ppoll"), Rule(name: "close"),
            // Data files and voices: opened for reading only (Landlock says which ones).
            Rule(name: "openat", conditions: [Self.masked(2, Self.writingOpenFlags, equals: 0)]),
            Rule(name: "newfstatat"), Rule(name: "fstat"), Rule(name: "statx"), Rule(name: "lseek"),
            Rule(name: "pread64"), Rule(name: "getdents64"),
            // isatty, when glibc first writes to a stream.
            Rule(name: "ioctl", conditions: [Self.equal(1, UInt64(TCGETS))]),
            // Memory, never executable.
            Rule(name: "brk"), Rule(name: "mmap", conditions: [noExecute]),
            Rule(name: "mprotect", conditions: [noExecute]),
            Rule(name: "munmap"), Rule(name: "mremap"), Rule(name: "madvise"),
            Rule(name: "futex"), Rule(name: "getrandom"), Rule(name: "sched_yield"),
            Rule(name: "clock_gettime"), Rule(name: "gettimeofday"), Rule(name: "clock_nanosleep"),
            Rule(name: "nanosleep"),
            // Signals to itself, and ending: exit, or an abort (raise: getpid, gettid, tgkill).
            Rule(name: "rt_sigreturn"), Rule(name: "rt_sigprocmask"), Rule(name: "restart_syscall"),
        ] + Self.signalActionRules + [
            Rule(name: "getpid"), Rule(name: "gettid"),
            Rule(name: "tgkill", conditions: [Self.equal(0, UInt64(processID))]),
            Rule(name: "exit"), Rule(name: "exit_group"),
            // Only to read whether no_new_privs is set (the debug sandbox probe reads it).
            Rule(name: "prctl", conditions: [Self.equal(0, UInt64(CEngineSandbox_get_no_new_privs_option()))]),
        ]
    }

    /// `rt_sigaction` for every signal but SIGSYS, whose handler is the violation report: a
    /// process that could replace it would survive its refused calls (the handler returns, the call
    /// is skipped). The signal number is compared whole (64 bits), so a number with high bits set,
    /// which the kernel would cut to SIGSYS, is refused too. SIGSYS is 31, the last signal 64
    /// (CEngineSandbox checks both): signals 0 to 30, 32 to 63, and 64.
    static var signalActionRules: [Rule] {
        let violation = UInt64(CEngineSandbox_violation_signal())
        return [
            Rule(
                name: "rt_sigaction",
                conditions: [scmp_arg_cmp(arg: 0, op: SCMP_CMP_LT, datum_a: violation, datum_b: 0)]),
            Rule(name: "rt_sigaction", conditions: [masked(0, ~UInt64(0x1F), equals: violation + 1)]),
            Rule(name: "rt_sigaction", conditions: [equal(0, 64)]),
        ]
    }

    /// Loads the filter into the process (all its threads). Calls this architecture lacks are skipped.
    /// - Throws: when the filter cannot be made or loaded, or cannot be put on every thread at once.
    func load() throws(EngineSandboxError) {
        guard let filter = seccomp_init(UInt32(SCMP_ACT_TRAP)) else {
            throw .failed("libseccomp cannot make a filter", ENOMEM)
        }
        defer { seccomp_release(filter) }
        // Every thread at once (TSYNC), or not at all: a thread started before the filter (espeak-ng
        // starts one in its initialization) would otherwise run without it.
        let synchronized = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1)
        guard synchronized == 0 else { throw .threadsNotSynchronized(-synchronized) }
        // Calls of another architecture (x32, i386 on x86-64) are refused outright.
        let badArchitecture = seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, UInt32(SCMP_ACT_KILL_PROCESS))
        guard badArchitecture == 0 else {
            throw .failed("calls of another architecture cannot be refused", -badArchitecture)
        }
        // The kernel's error numbers rather than libseccomp's ECANCELED, so the message says why.
        let rawErrors = seccomp_attr_set(filter, SCMP_FLTATR_API_SYSRAWRC, 1)
        guard rawErrors == 0 else { throw .failed("libseccomp cannot report the kernel's errors", -rawErrors) }
        for rule in rules {
            let number = seccomp_syscall_resolve_name(rule.name)
            guard number != __NR_SCMP_ERROR else { continue }
            let result = rule.conditions.withUnsafeBufferPointer { conditions in
                seccomp_rule_add_array(
                    filter, UInt32(SCMP_ACT_ALLOW), number, UInt32(conditions.count), conditions.baseAddress)
            }
            guard result == 0 else { throw .failed("the rule for \(rule.name) cannot be added", -result) }
        }
        for name in Self.failing {
            let number = seccomp_syscall_resolve_name(name)
            guard number != __NR_SCMP_ERROR else { continue }
            let result = seccomp_rule_add_array(filter, CSeccomp_act_errno(EPERM), number, 0, nil)
            guard result == 0 else { throw .failed("the rule for \(name) cannot be added", -result) }
        }
        for name in unimplemented {
            let number = seccomp_syscall_resolve_name(name)
            guard number != __NR_SCMP_ERROR else { continue }
            let result = seccomp_rule_add_array(filter, CSeccomp_act_errno(ENOSYS), number, 0, nil)
            guard result == 0 else { throw .failed("the rule for \(name) cannot be added", -result) }
        }
        let loaded = seccomp_load(filter)
        // ESRCH: a thread has a seccomp filter of its own, which the kernel will not replace.
        guard loaded != -ESRCH else { throw .threadsNotSynchronized(ESRCH) }
        guard loaded == 0 else { throw .failed("the seccomp filter cannot be loaded", -loaded) }
    }
}
