// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CEngineSandbox.h. _GNU_SOURCE makes glibc declare gettid and siginfo's si_syscall.
#define _GNU_SOURCE
#include "CEngineSandbox.h"

#include <errno.h>
#include <semaphore.h>
#include <time.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
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

int CEngineSandbox_set_no_new_privs(void) { return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); }

int CEngineSandbox_get_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }

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

int CEngineSandbox_fork_and_exit(void) {
    pid_t child = fork();
    if (child == 0) _exit(0);
    return (int)child;
}

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

static const char *probe_path;
static volatile sig_atomic_t probe_error;
static sem_t probe_done;

static void on_probe(int signal) {
    (void)signal;
    int saved = errno;
    int fd = open(probe_path, O_RDONLY | O_CLOEXEC);
    probe_error = fd >= 0 ? 0 : errno;
    if (fd >= 0) close(fd);
    sem_post(&probe_done);
    errno = saved;
}

int CEngineSandbox_open_on_thread(int thread, const char *path) {
    probe_path = path;
    probe_error = 0;
    if (sem_init(&probe_done, 0, 0) != 0) return -errno;
    struct sigaction action, previous;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_probe;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, &previous) != 0) return -errno;
    int result;
    if (syscall(SYS_tgkill, getpid(), thread, SIGUSR1) != 0) {
        result = -errno;
    } else {
        struct timespec deadline;
        clock_gettime(CLOCK_REALTIME, &deadline);
        deadline.tv_sec += 5;
        int waited;
        while ((waited = sem_timedwait(&probe_done, &deadline)) != 0 && errno == EINTR) {}
        result = waited == 0 ? (int)probe_error : -ETIMEDOUT;
    }
    sigaction(SIGUSR1, &previous, NULL);
    sem_destroy(&probe_done);
    return result;
}
