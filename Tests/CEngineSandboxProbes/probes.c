// SPDX-License-Identifier: GPL-3.0-or-later
// See include/CEngineSandboxProbes.h. Everything is inside ANNOUNCED_SANDBOX_PROBES, which only a
// debug build defines; a release build compiles only the declarations.
#ifndef __linux__
#error The sandbox probes are Linux's (Landlock, seccomp)
#endif

#include "CEngineSandboxProbes.h"

#ifdef ANNOUNCED_SANDBOX_PROBES

#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int CEngineSandboxProbes_get_no_new_privs(void) { return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0); }

int CEngineSandboxProbes_fork_and_exit(void) {
    pid_t child = fork();
    if (child == 0) _exit(0);
    return (int)child;
}

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

int CEngineSandboxProbes_open_on_thread(int thread, const char *path) {
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

static void ignore_violation(int signal) { (void)signal; }

int CEngineSandboxProbes_replace_violation_handler(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = ignore_violation;
    sigemptyset(&action.sa_mask);
    return sigaction(SIGSYS, &action, NULL);
}

#endif
