// SPDX-License-Identifier: GPL-3.0-or-later
// The C half of the sandbox probes a debug helper runs when a test asks (EngineSandbox's
// SandboxProbe): what a hijacked engine would try, from inside the sandboxed process. Compiled in
// debug builds only (ANNOUNCED_SANDBOX_PROBES, Package.swift): a release helper has none of these
// functions, and .ci/check-release-symbols checks that with nm. Call them only under `#if DEBUG`.
#ifndef C_ENGINE_SANDBOX_PROBES_H
#define C_ENGINE_SANDBOX_PROBES_H

/// `prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)`: 1 when set, 0 when not, -1 and errno.
int CEngineSandboxProbes_get_no_new_privs(void);

/// fork(), the child exiting at once with _exit(0). The child's pid, or -1 and errno.
int CEngineSandboxProbes_fork_and_exit(void);

/// Makes thread `thread` of this process open `path` for reading (and close it), from a SIGUSR1
/// handler run on that thread, since Landlock restricts each thread by itself. Returns the open's
/// error number (0 when it opened), or a negative error number when the thread cannot be reached
/// (-ESRCH: not a thread of this process; -ETIMEDOUT: it did not run the handler within 5 s, e.g.
/// it blocks SIGUSR1). Not reentrant; it replaces SIGUSR1's action while it runs.
int CEngineSandboxProbes_open_on_thread(int thread, const char *path);

/// Replaces SIGSYS's handler (the sandbox's violation report) with one that returns at once, as
/// a hijacked engine would to survive its refused system calls. 0, or -1 and errno.
int CEngineSandboxProbes_replace_violation_handler(void);

#endif
