// SPDX-License-Identifier: GPL-3.0-or-later
// The floor of an SSIP round trip on this machine: a server that does nothing but the system
// calls any server needs, timed by the same client (Benchmarks/ssip-round-trips.c) as announced
// and speech-dispatcher. It listens on a Unix socket, serves one connection at a time, and
// answers each CR LF line at once with a fixed reply (chosen by the line's first bytes, so the
// client's set-up commands get the codes it checks; the replies are announced's bytes). No
// parsing, no settings, no allocation: what is left is the kernel's socket work and the two
// wake-ups of a round trip.
//
// Usage: ssip-floor-server SOCKET epoll|blocking
//   epoll:    a level-triggered epoll loop, as an event-loop server has (SwiftNIO's, GLib's):
//             epoll_wait, read, write per round trip; the socket is non-blocking
//   blocking: a thread that blocks in read (as speech-dispatcher's per-connection threads do):
//             read, write per round trip
// Prints `listening` once it accepts connections. Benchmarks/compare-speechd compiles it with gcc
// into .build and stops it with SIGTERM.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct answer {
    const char *prefix;
    const char *reply;
};

// The replies the round-trip client checks, by the first bytes of its lines; anything else
// gets 300 (the client then fails, so a change to the client cannot go unnoticed).
static const struct answer answers[] = {
    {"GET RATE", "251-0\r\n251 OK GET RETURNED\r\n"},
    {"SET self RATE", "203 OK RATE SET\r\n"},
    {"SET SELF CLIENT_NAME", "208 OK CLIENT NAME SET\r\n"},
    {"SET SELF OUTPUT_MODULE", "216 OK OUTPUT MODULE SET\r\n"},
    {"SET SELF LANGUAGE", "201 OK LANGUAGE SET\r\n"},
    {"SET SELF PRIORITY", "202 OK PRIORITY SET\r\n"},
    {"CANCEL", "213 OK CANCELED\r\n"},
};

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static const char *reply_to(const char *line, size_t length) {
    for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
        size_t n = strlen(answers[i].prefix);
        if (length >= n && memcmp(line, answers[i].prefix, n) == 0) return answers[i].reply;
    }
    return "300 ERR THE FLOOR SERVER ANSWERS ONLY THE ROUND-TRIP CLIENT\r\n";
}

// One connection's unfinished line and the replies to what it completed.
struct connection {
    char in[4096];
    size_t filled;
    char out[8192];
    size_t pending;
};

// Answers every line `c->in` holds complete, into `c->out`; keeps an unfinished line.
static void answer_lines(struct connection *c) {
    size_t start = 0;
    for (;;) {
        char *end = memmem(c->in + start, c->filled - start, "\r\n", 2);
        if (!end) break;
        size_t length = (size_t)(end - (c->in + start));
        const char *reply = reply_to(c->in + start, length);
        size_t n = strlen(reply);
        if (c->pending + n > sizeof c->out) {
            fprintf(stderr, "ssip-floor-server: the client sent more lines than one write answers\n");
            exit(1);
        }
        memcpy(c->out + c->pending, reply, n);
        c->pending += n;
        start += length + 2;
    }
    memmove(c->in, c->in + start, c->filled - start);
    c->filled -= start;
    if (c->filled == sizeof c->in) {
        fprintf(stderr, "ssip-floor-server: a line longer than %zu bytes\n", sizeof c->in);
        exit(1);
    }
}

// Writes everything pending. A reply of a few dozen bytes fits the socket buffer of a client that
// waits for it, so a blocking write never waits here; the epoll variant's socket is non-blocking
// and a short write would be an error of this benchmark, not something to handle.
static int flush(int fd, struct connection *c) {
    size_t done = 0;
    while (done < c->pending) {
        ssize_t n = write(fd, c->out + done, c->pending - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    c->pending = 0;
    return 0;
}

// Reads once into the connection; returns 0 when the client closed (or the read failed), -1 when
// there is nothing to read yet (non-blocking), else the bytes read.
static ssize_t read_some(int fd, struct connection *c) {
    for (;;) {
        ssize_t n = read(fd, c->in + c->filled, sizeof c->in - c->filled);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno == EAGAIN) return -1;
        if (n <= 0) return 0;
        c->filled += (size_t)n;
        return n;
    }
}

static void serve_blocking(int listener) {
    for (;;) {
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) fail("accept4");
        struct connection c = {0};
        while (read_some(fd, &c) > 0) {
            answer_lines(&c);
            if (flush(fd, &c) != 0) break;
        }
        close(fd);
    }
}

static void serve_epoll(int listener) {
    int poller = epoll_create1(EPOLL_CLOEXEC);
    if (poller < 0) fail("epoll_create1");
    struct epoll_event event = {.events = EPOLLIN, .data.fd = listener};
    if (epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event) != 0) fail("epoll_ctl");
    static struct connection c;
    int client = -1;
    for (;;) {
        struct epoll_event ready[4];
        int count = epoll_wait(poller, ready, 4, -1);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) fail("epoll_wait");
        for (int i = 0; i < count; i++) {
            if (ready[i].data.fd == listener) {
                int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
                if (fd < 0) fail("accept4");
                if (client >= 0) {  // one connection at a time: the client runs one after another
                    close(fd);
                    continue;
                }
                client = fd;
                memset(&c, 0, sizeof c);
                struct epoll_event readable = {.events = EPOLLIN, .data.fd = fd};
                if (epoll_ctl(poller, EPOLL_CTL_ADD, fd, &readable) != 0) fail("epoll_ctl");
                continue;
            }
            if (ready[i].data.fd != client) continue;  // closed earlier in this batch
            // Level-triggered: one read per wake-up; what is left wakes the next epoll_wait.
            ssize_t n = read_some(client, &c);
            if (n < 0) continue;
            if (n > 0) {
                answer_lines(&c);
                if (flush(client, &c) == 0) continue;
            }
            close(client);  // closing removes it from the epoll set
            client = -1;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: ssip-floor-server SOCKET epoll|blocking\n");
        return 1;
    }
    int blocking = strcmp(argv[2], "blocking") == 0;
    if (!blocking && strcmp(argv[2], "epoll") != 0) {
        fprintf(stderr, "ssip-floor-server: the mode is epoll or blocking\n");
        return 1;
    }
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(argv[1]) >= sizeof address.sun_path) {
        fprintf(stderr, "ssip-floor-server: the socket path is too long\n");
        return 1;
    }
    strcpy(address.sun_path, argv[1]);
    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listener < 0) fail("socket");
    unlink(argv[1]);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0) fail("bind");
    if (listen(listener, 16) != 0) fail("listen");
    // The harness starts the client once it reads this line (the socket file exists from bind on,
    // before it accepts connections).
    printf("listening\n");
    fflush(stdout);
    if (blocking) {
        serve_blocking(listener);
    } else {
        serve_epoll(listener);
    }
    return 0;
}
