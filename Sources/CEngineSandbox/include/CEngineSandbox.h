// SPDX-License-Identifier: GPL-3.0-or-later
// The system calls EngineSandbox makes that Swift cannot: prctl and syscall are variadic, glibc
// has no Landlock wrappers, and Debian 12's kernel headers stop at Landlock ABI 2 (this file
// declares the later fields itself, so the ABI the running kernel has decides what is used).
// The SIGSYS handler that reports a sandbox violation is here too: it must be async-signal-safe.
#ifndef C_ENGINE_SANDBOX_H
#define C_ENGINE_SANDBOX_H

#include <stddef.h>
#include <stdint.h>

/// `prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)`: execve can never again grant privileges (setuid,
/// file capabilities). 0, or -1 and errno.
int CEngineSandbox_set_no_new_privs(void);

/// `PR_GET_NO_NEW_PRIVS`, for the seccomp rule that lets the process read the flag.
int CEngineSandbox_get_no_new_privs_option(void);

/// The open flags that write, create or truncate a file: `O_WRONLY | O_RDWR | O_CREAT | O_TRUNC |
/// O_APPEND` and O_TMPFILE's own bit, without the O_DIRECTORY bit O_TMPFILE includes (O_TMPFILE
/// needs _GNU_SOURCE, which Swift's Glibc module lacks).
uint64_t CEngineSandbox_writing_open_flags(void);

/// The clone flags glibc's pthread_create always passes and a fork never does: CLONE_VM |
/// CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM.
uint64_t CEngineSandbox_thread_clone_flags(void);

/// Every CLONE_NEW* flag (a new namespace): none may be set in a sandboxed clone.
uint64_t CEngineSandbox_namespace_clone_flags(void);

/// `PR_SET_NAME`, for the rule that lets a thread name itself.
int CEngineSandbox_set_name_option(void);

/// The Landlock ABI version the running kernel offers (1 or more), or -1 and errno (ENOSYS:
/// built without Landlock; EOPNOTSUPP: Landlock not enabled at boot).
int CEngineSandbox_landlock_abi_version(void);

/// Landlock's filesystem access rights (include/uapi/linux/landlock.h), ABI 1 unless noted.
enum {
    CEngineSandbox_access_fs_execute = 1 << 0,
    CEngineSandbox_access_fs_write_file = 1 << 1,
    CEngineSandbox_access_fs_read_file = 1 << 2,
    CEngineSandbox_access_fs_read_dir = 1 << 3,
    CEngineSandbox_access_fs_remove_dir = 1 << 4,
    CEngineSandbox_access_fs_remove_file = 1 << 5,
    CEngineSandbox_access_fs_make_char = 1 << 6,
    CEngineSandbox_access_fs_make_dir = 1 << 7,
    CEngineSandbox_access_fs_make_reg = 1 << 8,
    CEngineSandbox_access_fs_make_sock = 1 << 9,
    CEngineSandbox_access_fs_make_fifo = 1 << 10,
    CEngineSandbox_access_fs_make_block = 1 << 11,
    CEngineSandbox_access_fs_make_sym = 1 << 12,
    /// ABI 2.
    CEngineSandbox_access_fs_refer = 1 << 13,
    /// ABI 3.
    CEngineSandbox_access_fs_truncate = 1 << 14,
    /// ABI 5.
    CEngineSandbox_access_fs_ioctl_dev = 1 << 15,
};

/// Landlock's network access rights (ABI 4).
enum {
    CEngineSandbox_access_net_bind_tcp = 1 << 0,
    CEngineSandbox_access_net_connect_tcp = 1 << 1,
};

/// Landlock's scopes (ABI 6): connecting to abstract Unix sockets, and signalling processes,
/// outside the sandbox.
enum {
    CEngineSandbox_scope_abstract_unix_socket = 1 << 0,
    CEngineSandbox_scope_signal = 1 << 1,
};

/// A Landlock ruleset that handles these rights (a zero leaves that kind unhandled, which is
/// how an older ABI is served): its descriptor, or -1 and errno.
int CEngineSandbox_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped, int abi);

/// Allows `allowed_fs` beneath the file or directory `path` (opened with O_PATH here) in the
/// ruleset. 0, or -1 and errno.
int CEngineSandbox_landlock_allow_beneath(int ruleset, const char *path, uint64_t allowed_fs);

/// Restricts the calling thread (and the children it would have) to the ruleset. 0, or -1 and errno.
int CEngineSandbox_landlock_restrict_self(int ruleset);

/// Installs the SIGSYS handler for seccomp's SECCOMP_RET_TRAP: it writes `reports[n]`
/// (`lengths[n]` bytes; none when n is out of range or the length is 0) to `fd` for a refused
/// system call number n, then ends the process with SIGSYS. The arrays must live for the rest of
/// the process. 0, or -1 and errno.
int CEngineSandbox_install_violation_handler(int fd, const uint8_t *const *reports, const size_t *lengths, size_t count);

/// The SIGSYS number (Swift's Glibc module has it, but this keeps the handler's pair together).
int CEngineSandbox_violation_signal(void);

#endif
