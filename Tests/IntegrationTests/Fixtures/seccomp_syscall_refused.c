// SPDX-License-Identifier: GPL-3.0-or-later
// Runs PROGRAM (given with -DPROGRAM=\"path\") as under a container whose seccomp profile refuses
// the seccomp system call with ENOSYS: libseccomp then loads a filter with the older prctl, which
// cannot put it on every thread of a process (TSYNC). The filter installed here allows everything
// else, and stays on across execve as every seccomp filter does.
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PROGRAM
#error "Build with -DPROGRAM=\"path\": the program to run"
#endif

int main(int argc, char **argv) {
    (void)argc;
    struct sock_filter code[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = {.len = sizeof code / sizeof code[0], .filter = code};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) {
        perror("seccomp_syscall_refused: the filter cannot be installed");
        return 125;
    }
    execv(PROGRAM, argv);
    perror("seccomp_syscall_refused: " PROGRAM);
    return 127;
}
