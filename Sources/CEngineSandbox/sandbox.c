// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CEngineSandbox.h.
#ifndef __linux__
#error The engine sandbox is Linux's (seccomp, Landlock, prctl)
#endif
#ifndef _GNU_SOURCE
#error You must define _GNU_SOURCE (Package.swift does): glibc declares gettid, O_TMPFILE and siginfo's si_syscall with it
#endif

#include "CEngineSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1
#endif

// The kernel's structures (include/uapi/linux/landlock.h), with the fields later ABIs added.
// The kernel takes the size it is given, so an older kernel gets only the fields it knows.
struct engine_sandbox_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;  // ABI 4
    uint64_t scoped;              // ABI 6
};

struct engine_sandbox_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

enum { landlock_create_ruleset_version = 1, landlock_rule_path_beneath = 1 };

// The structures above against the kernel headers this is built with, which may stop at an older
// ABI: the fields they have must be where the kernel reads them.
_Static_assert(offsetof(struct engine_sandbox_ruleset_attr, handled_access_fs) ==
                   offsetof(struct landlock_ruleset_attr, handled_access_fs),
               "handled_access_fs is where the kernel reads it");
_Static_assert(sizeof(struct landlock_ruleset_attr) <= sizeof(struct engine_sandbox_ruleset_attr),
               "the kernel headers' landlock_ruleset_attr has fields engine_sandbox_ruleset_attr lacks");
_Static_assert(sizeof(struct engine_sandbox_ruleset_attr) == 3 * sizeof(uint64_t), "ruleset_attr has no padding");
_Static_assert(sizeof(struct engine_sandbox_path_beneath_attr) == sizeof(struct landlock_path_beneath_attr),
               "sizes of engine_sandbox_path_beneath_attr and landlock_path_beneath_attr differ");
_Static_assert(offsetof(struct engine_sandbox_path_beneath_attr, parent_fd) ==
                   offsetof(struct landlock_path_beneath_attr, parent_fd),
               "parent_fd is where the kernel reads it");
_Static_assert(landlock_rule_path_beneath == LANDLOCK_RULE_PATH_BENEATH, "LANDLOCK_RULE_PATH_BENEATH");
_Static_assert(landlock_create_ruleset_version == LANDLOCK_CREATE_RULESET_VERSION, "LANDLOCK_CREATE_RULESET_VERSION");

// The header's access rights against the kernel headers' (those they have).
_Static_assert(CEngineSandbox_access_fs_execute == LANDLOCK_ACCESS_FS_EXECUTE, "LANDLOCK_ACCESS_FS_EXECUTE");
_Static_assert(CEngineSandbox_access_fs_write_file == LANDLOCK_ACCESS_FS_WRITE_FILE, "LANDLOCK_ACCESS_FS_WRITE_FILE");
_Static_assert(CEngineSandbox_access_fs_read_file == LANDLOCK_ACCESS_FS_READ_FILE, "LANDLOCK_ACCESS_FS_READ_FILE");
_Static_assert(CEngineSandbox_access_fs_read_dir == LANDLOCK_ACCESS_FS_READ_DIR, "LANDLOCK_ACCESS_FS_READ_DIR");
_Static_assert(CEngineSandbox_access_fs_remove_dir == LANDLOCK_ACCESS_FS_REMOVE_DIR, "LANDLOCK_ACCESS_FS_REMOVE_DIR");
_Static_assert(CEngineSandbox_access_fs_remove_file == LANDLOCK_ACCESS_FS_REMOVE_FILE, "LANDLOCK_ACCESS_FS_REMOVE_FILE");
_Static_assert(CEngineSandbox_access_fs_make_char == LANDLOCK_ACCESS_FS_MAKE_CHAR, "LANDLOCK_ACCESS_FS_MAKE_CHAR");
_Static_assert(CEngineSandbox_access_fs_make_dir == LANDLOCK_ACCESS_FS_MAKE_DIR, "LANDLOCK_ACCESS_FS_MAKE_DIR");
_Static_assert(CEngineSandbox_access_fs_make_reg == LANDLOCK_ACCESS_FS_MAKE_REG, "LANDLOCK_ACCESS_FS_MAKE_REG");
_Static_assert(CEngineSandbox_access_fs_make_sock == LANDLOCK_ACCESS_FS_MAKE_SOCK, "LANDLOCK_ACCESS_FS_MAKE_SOCK");
_Static_assert(CEngineSandbox_access_fs_make_fifo == LANDLOCK_ACCESS_FS_MAKE_FIFO, "LANDLOCK_ACCESS_FS_MAKE_FIFO");
_Static_assert(CEngineSandbox_access_fs_make_block == LANDLOCK_ACCESS_FS_MAKE_BLOCK, "LANDLOCK_ACCESS_FS_MAKE_BLOCK");
_Static_assert(CEngineSandbox_access_fs_make_sym == LANDLOCK_ACCESS_FS_MAKE_SYM, "LANDLOCK_ACCESS_FS_MAKE_SYM");
#ifdef LANDLOCK_ACCESS_FS_REFER
_Static_assert(CEngineSandbox_access_fs_refer == LANDLOCK_ACCESS_FS_REFER, "LANDLOCK_ACCESS_FS_REFER");
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
_Static_assert(CEngineSandbox_access_fs_truncate == LANDLOCK_ACCESS_FS_TRUNCATE, "LANDLOCK_ACCESS_FS_TRUNCATE");
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
_Static_assert(CEngineSandbox_access_fs_ioctl_dev == LANDLOCK_ACCESS_FS_IOCTL_DEV, "LANDLOCK_ACCESS_FS_IOCTL_DEV");
#endif
#ifdef LANDLOCK_ACCESS_NET_BIND_TCP
_Static_assert(CEngineSandbox_access_net_bind_tcp == LANDLOCK_ACCESS_NET_BIND_TCP, "LANDLOCK_ACCESS_NET_BIND_TCP");
_Static_assert(CEngineSandbox_access_net_connect_tcp == LANDLOCK_ACCESS_NET_CONNECT_TCP, "LANDLOCK_ACCESS_NET_CONNECT_TCP");
#endif
#ifdef LANDLOCK_SCOPE_SIGNAL
_Static_assert(CEngineSandbox_scope_abstract_unix_socket == LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET, "LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET");
_Static_assert(CEngineSandbox_scope_signal == LANDLOCK_SCOPE_SIGNAL, "LANDLOCK_SCOPE_SIGNAL");
#endif

// SystemCallAllowlist's rt_sigaction rules are written for Linux's numbering: SIGSYS is 31, and
// the signals after it are the real-time ones, up to 64.
_Static_assert(SIGSYS == 31, "SIGSYS is 31");
_Static_assert(_NSIG == 65, "signals run to 64");

int CEngineSandbox_set_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

int CEngineSandbox_get_no_new_privs_option(void) { return PR_GET_NO_NEW_PRIVS; }

uint64_t CEngineSandbox_writing_open_flags(void) {
    // O_TMPFILE is __O_TMPFILE | O_DIRECTORY, and the kernel needs both: the __O_TMPFILE bit
    // alone is enough to refuse it, while O_DIRECTORY (opening a directory to list it) stays allowed.
    return (uint64_t)(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY));
}

uint64_t CEngineSandbox_thread_clone_flags(void) {
    return (uint64_t)(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM);
}

uint64_t CEngineSandbox_namespace_clone_flags(void) {
    return (uint64_t)(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |
                      CLONE_NEWNET);
}

int CEngineSandbox_set_name_option(void) { return PR_SET_NAME; }

int CEngineSandbox_landlock_abi_version(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, landlock_create_ruleset_version);
}

int CEngineSandbox_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped, int abi) {
    struct engine_sandbox_ruleset_attr attribute = {
        .handled_access_fs = handled_fs, .handled_access_net = handled_net, .scoped = scoped};
    size_t size = abi >= 6   ? sizeof attribute
                  : abi >= 4 ? offsetof(struct engine_sandbox_ruleset_attr, scoped)
                             : offsetof(struct engine_sandbox_ruleset_attr, handled_access_net);
    return (int)syscall(SYS_landlock_create_ruleset, &attribute, size, 0);
}

int CEngineSandbox_landlock_allow_beneath(int ruleset, const char *path, uint64_t allowed_fs) {
    int parent = open(path, O_PATH | O_CLOEXEC);
    if (parent < 0) return -1;
    struct engine_sandbox_path_beneath_attr rule = {.allowed_access = allowed_fs, .parent_fd = parent};
    int result = (int)syscall(SYS_landlock_add_rule, ruleset, landlock_rule_path_beneath, &rule, 0);
    int saved = errno;
    close(parent);
    errno = saved;
    return result;
}

int CEngineSandbox_landlock_restrict_self(int ruleset) { return (int)syscall(SYS_landlock_restrict_self, ruleset, 0); }

static int violation_fd = -1;
static const uint8_t *const *violation_reports;
static const size_t *violation_lengths;
static size_t violation_count;

static void on_violation(int signal, siginfo_t *info, void *context) {
    (void)context;
    if (info->si_code == SYS_SECCOMP && info->si_syscall >= 0 && (size_t)info->si_syscall < violation_count) {
        const uint8_t *report = violation_reports[info->si_syscall];
        size_t length = violation_lengths[info->si_syscall];
        while (length > 0) {
            ssize_t written = write(violation_fd, report, length);
            if (written < 0 && errno == EINTR) continue;
            if (written <= 0) break;
            report += written;
            length -= (size_t)written;
        }
    }
    // SA_RESETHAND put back the default action (end the process, with a core dump when
    // allowed) and SA_NODEFER left the signal unblocked: this kills the process at once.
    syscall(SYS_tgkill, getpid(), gettid(), signal);
    _exit(128 + signal);
}

int CEngineSandbox_install_violation_handler(int fd, const uint8_t *const *reports, const size_t *lengths, size_t count) {
    violation_fd = fd;
    violation_reports = reports;
    violation_lengths = lengths;
    violation_count = count;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_violation;
    action.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSYS, &action, NULL);
}

int CEngineSandbox_violation_signal(void) { return SIGSYS; }
