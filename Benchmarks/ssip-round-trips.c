// SPDX-License-Identifier: GPL-3.0-or-later
// SSIP round trips per second on one connection, as libspeechd sends them: a raw Unix socket,
// CRLF lines, one request at a time, each reply read whole before the next request is written.
// Benchmarks/compare-speechd compiles it with gcc at run time (into .build) and runs the same
// binary against announced and speech-dispatcher, so the servers are timed and not the client
// (the Python client topped out near 24,000 round trips per second).
//
// Usage: ssip-round-trips SOCKET speak|get|set SECONDS
//   speak: SPEAK, 230, the text and the end marker, 225 (priority text, events off)
//   get:   GET RATE, 251
//   set:   SET self RATE 10, 203
// Prints the round trips per second and how many there were on standard output.
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int fd;
static char buffer[65536];
static size_t filled, start;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "ssip-round-trips: %s\n", what);
    exit(1);
}

static void send_all(const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t n = write(fd, bytes, length);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("the server closed the connection while the client wrote");
        bytes += n;
        length -= (size_t)n;
    }
}

// The next line, without its CR LF, in `line` (NUL-terminated).
static void read_line(char *line, size_t capacity) {
    for (;;) {
        char *end = memmem(buffer + start, filled - start, "\r\n", 2);
        if (end) {
            size_t length = (size_t)(end - (buffer + start));
            if (length >= capacity) fail("a reply line too long for the client");
            memcpy(line, buffer + start, length);
            line[length] = 0;
            start += length + 2;
            return;
        }
        if (start > 0) {
            memmove(buffer, buffer + start, filled - start);
            filled -= start;
            start = 0;
        }
        if (filled == sizeof buffer) fail("a reply line too long for the client");
        ssize_t n = read(fd, buffer + filled, sizeof buffer - filled);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("the server closed the connection");
        filled += (size_t)n;
    }
}

// Reads one whole reply (lines up to the one whose fourth character is a space); fails unless
// its code is `code`.
static void expect_reply(const char *code) {
    char line[4096];
    for (;;) {
        read_line(line, sizeof line);
        if (strlen(line) < 4) fail("a reply line shorter than its code");
        if (line[3] == ' ') break;
    }
    if (strncmp(line, code, 3) != 0) {
        fprintf(stderr, "ssip-round-trips: expected %s, the server answered: %s\n", code, line);
        exit(1);
    }
}

static void command(const char *text, const char *code) {
    send_all(text, strlen(text));
    expect_reply(code);
}

int main(int argc, char **argv) {
    if (argc != 4) fail("usage: ssip-round-trips SOCKET speak|get|set SECONDS");
    const char *mode = argv[2];
    double seconds = atof(argv[3]);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) fail("the socket path is too long");
    strcpy(address.sun_path, argv[1]);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail("cannot connect to the socket");

    command("SET SELF CLIENT_NAME user:bench:round-trips\r\n", "208");
    command("SET SELF OUTPUT_MODULE espeak-ng\r\n", "216");
    command("SET SELF LANGUAGE en-US\r\n", "201");
    // A connection's default is message, which would queue every message; text supersedes.
    command("SET SELF PRIORITY text\r\n", "202");

    long count = 0;
    double began = now(), elapsed;
    do {
        if (strcmp(mode, "speak") == 0) {
            command("SPEAK\r\n", "230");
            command("Hello\r\n.\r\n", "225");
        } else if (strcmp(mode, "get") == 0) {
            command("GET RATE\r\n", "251");
        } else if (strcmp(mode, "set") == 0) {
            command("SET self RATE 10\r\n", "203");
        } else {
            fail("the mode is speak, get or set");
        }
        count++;
        elapsed = now() - began;
    } while (elapsed < seconds);

    command("CANCEL self\r\n", "213");
    close(fd);
    printf("%.0f %ld\n", count / elapsed, count);
    return 0;
}
