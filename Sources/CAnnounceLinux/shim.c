// SPDX-License-Identifier: Apache-2.0
// See include/CAnnounceLinux.h. _GNU_SOURCE makes glibc declare what the header wraps.
#define _GNU_SOURCE
#include "CAnnounceLinux.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

_Static_assert(sizeof(CAnnounceLinux_ucred) == sizeof(struct ucred), "struct ucred changed size");
_Static_assert(offsetof(CAnnounceLinux_ucred, pid) == offsetof(struct ucred, pid), "struct ucred: pid moved");
_Static_assert(offsetof(CAnnounceLinux_ucred, uid) == offsetof(struct ucred, uid), "struct ucred: uid moved");
_Static_assert(offsetof(CAnnounceLinux_ucred, gid) == offsetof(struct ucred, gid), "struct ucred: gid moved");

int CAnnounceLinux_malloc_trim(size_t pad) { return malloc_trim(pad); }

int CAnnounceLinux_set_malloc_arena_max(int count) { return mallopt(M_ARENA_MAX, count); }

int CAnnounceLinux_set_malloc_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes); }

int CAnnounceLinux_pthread_setname_np(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}

int CAnnounceLinux_set_pipe_size(int fd, int bytes) { return fcntl(fd, F_SETPIPE_SZ, bytes); }

int CAnnounceLinux_is_main_thread(void) { return gettid() == getpid(); }

int CAnnounceLinux_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

short CAnnounceLinux_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

int CAnnounceLinux_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int CAnnounceLinux_spawnattr_init_new_process(posix_spawnattr_t *attributes, short extra_flags) {
    int status = posix_spawnattr_init(attributes);
    if (status != 0) return status;
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    if ((status = posix_spawnattr_setsigdefault(attributes, &all)) != 0
        || (status = posix_spawnattr_setsigmask(attributes, &none)) != 0
        || (status = posix_spawnattr_setflags(attributes, (short)(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | extra_flags))) != 0) {
        posix_spawnattr_destroy(attributes);
        return status;
    }
    return 0;
}

int CAnnounceLinux_pidfd_open(pid_t pid) { return pidfd_open(pid, 0); }

int CAnnounceLinux_pipe_cloexec(int ends[2]) { return pipe2(ends, O_CLOEXEC); }

int CAnnounceLinux_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

pid_t CAnnounceLinux_spawn_dying_with_parent(const char *path, char *const argv[], char *const envp[], int signal) {
    // The child writes its errno here when it cannot exec; a successful exec closes it unwritten.
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -1;
    pid_t parent = getpid();
    pid_t child = fork();
    if (child == 0) {
        // Only async-signal-safe calls until exec: the parent has other threads.
        sigset_t none;
        sigemptyset(&none);
        struct sigaction fallback = {.sa_handler = SIG_DFL};
        for (int number = 1; number < NSIG; number++) sigaction(number, &fallback, NULL);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int failure = 0;
        // The parent may have ended before prctl: then nobody would send the signal.
        if (prctl(PR_SET_PDEATHSIG, signal) != 0) failure = errno;
        else if (getppid() != parent) failure = ESRCH;
        else if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0) failure = errno;
        else {
            execve(path, argv, envp);
            failure = errno;
        }
        ssize_t written = write(report[1], &failure, sizeof failure);
        (void)written;
        _exit(127);
    }
    int saved = errno;
    close(report[1]);
    if (child < 0) {
        close(report[0]);
        errno = saved;
        return -1;
    }
    int failure = 0;
    ssize_t got;
    do got = read(report[0], &failure, sizeof failure);
    while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == sizeof failure) {
        waitpid(child, NULL, 0);
        errno = failure;
        return -1;
    }
    return child;
}
