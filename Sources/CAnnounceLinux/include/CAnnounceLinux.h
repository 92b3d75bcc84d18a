// SPDX-License-Identifier: Apache-2.0
// The glibc calls, constants and structures the daemon and its clients need that Swift's Glibc module leaves
// out: malloc.h is not in it, and the rest needs _GNU_SOURCE, which this target's shim.c
// defines (as swift-nio's CNIOLinux does). One small C file instead of Swift-side
// symbol declarations, magic numbers and hand-matched struct layouts in Swift.
#ifndef C_ANNOUNCE_LINUX_H
#define C_ANNOUNCE_LINUX_H

#include <stddef.h>
#include <sys/types.h>
#include <pthread.h>
#include <spawn.h>

/// The process at the other end of a Unix socket, as `SO_PEERCRED` reports it: glibc's
/// `struct ucred` (shim.c checks at compile time that the layouts are the same).
typedef struct CAnnounceLinux_ucred {
    pid_t pid;
    uid_t uid;
    gid_t gid;
} CAnnounceLinux_ucred;

/// `malloc_trim(pad)`: gives free heap memory back to the kernel; 1 if any was released.
int CAnnounceLinux_malloc_trim(size_t pad);

/// `mallopt(M_ARENA_MAX, count)`: at most `count` malloc arenas; 1 on success.
int CAnnounceLinux_set_malloc_arena_max(int count);

/// `mallopt(M_MMAP_THRESHOLD, bytes)`: allocations of at least `bytes` get their own mapping,
/// returned to the kernel when freed; 1 on success.
int CAnnounceLinux_set_malloc_mmap_threshold(int bytes);

/// `pthread_setname_np(thread, name)`: the name `top -H` and `/proc/.../comm` show (at most 15
/// bytes); 0 or an error number.
int CAnnounceLinux_pthread_setname_np(pthread_t thread, const char *name);

/// `fcntl(fd, F_SETPIPE_SZ, bytes)`: the pipe's capacity, at least `bytes`; the new capacity,
/// or -1 and errno.
int CAnnounceLinux_set_pipe_size(int fd, int bytes);

/// True on the process's main thread (its thread id is the process id).
int CAnnounceLinux_is_main_thread(void);

/// `posix_spawn_file_actions_addclosefrom_np(actions, lowest)` (glibc 2.34+): the spawned child
/// closes every descriptor from `lowest` up. 0, or an errno value.
int CAnnounceLinux_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/// `POSIX_SPAWN_SETSID` (glibc 2.26+): the spawned child starts a new session, without a
/// controlling terminal, as a daemon should.
short CAnnounceLinux_spawn_setsid_flag(void);

/// `posix_spawn_file_actions_addchdir_np(actions, path)` (glibc 2.29+): the spawned child starts
/// in `path`. 0, or an errno value.
int CAnnounceLinux_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);

/// Initializes `attributes` so that the spawned child starts as a new process would: every signal
/// at its default disposition and none blocked, whatever the spawning thread had
/// (`POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK`, with `extra_flags` added). Returns 0 or an
/// error number; on an error `attributes` is destroyed again.
int CAnnounceLinux_spawnattr_init_new_process(posix_spawnattr_t *attributes, short extra_flags);

/// `pidfd_open(pid, 0)` (Linux 5.3+, glibc 2.36+): a descriptor that polls readable once the
/// process `pid` has ended; -1 and errno when it cannot be had.
int CAnnounceLinux_pidfd_open(pid_t pid);

/// `pipe2(ends, O_CLOEXEC)`: a pipe whose ends are close-on-exec from the start, so a child that
/// another thread spawns meanwhile inherits neither; -1 and errno when it cannot be had.
int CAnnounceLinux_pipe_cloexec(int ends[2]);

/// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`: a counter a thread polls to be woken by another;
/// -1 and errno when it cannot be had.
int CAnnounceLinux_eventfd(void);

/// Starts `path` with `argv` and `envp` in a child that gets `signal` when the thread that started
/// it ends (`PR_SET_PDEATHSIG`, set in the child between fork and exec, which posix_spawn cannot
/// do), so a killed parent leaves no child behind. The child keeps standard input, output and
/// error, closes every other descriptor on exec, and starts with every signal at its default
/// disposition and none blocked. Returns the child's pid, or -1 with errno (also when exec
/// failed: the child's errno).
pid_t CAnnounceLinux_spawn_dying_with_parent(const char *path, char *const argv[], char *const envp[], int signal);

#endif
