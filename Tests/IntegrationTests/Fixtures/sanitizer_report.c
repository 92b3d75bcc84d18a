// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * sanitizer_report.c: a program whose only job is a real sanitizer report, for the test that
 * `make asan` and `make tsan` see reports from the daemon's child processes
 * (SanitizerReportTests). Built with -fsanitize=address it writes one byte past a heap block;
 * with -fsanitize=thread two threads write one variable without synchronization. The test
 * starts it as the daemon's espeak-ng helper (ANNOUNCED_ESPEAK_HELPER).
 */
#include <pthread.h>
#include <stdlib.h>

#if defined(__SANITIZE_THREAD__)
static int shared;

static void *write_shared(void *unused) {
    shared = 1;
    return unused;
}

int main(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, write_shared, NULL) != 0) return 2;
    shared = 2;
    pthread_join(thread, NULL);
    return 0;
}
#elif defined(__SANITIZE_ADDRESS__)
int main(int argc, char **argv) {
    (void)argv;
    /* argc keeps the compiler from proving the write out of bounds and rejecting it. */
    volatile char *bytes = malloc(8);
    bytes[7 + argc] = 1;
    free((void *)bytes);
    return 0;
}
#else
#error "build with -fsanitize=address or -fsanitize=thread"
#endif
