// SPDX-License-Identifier: GPL-3.0-or-later
// GetNameOwner("org.freedesktop.DBus") round trips through sd-bus on the session bus
// (DBUS_SESSION_BUS_ADDRESS): N blocking calls (sd_bus_call), then N asynchronous calls driven
// the way the daemon drives its connection (sd_bus_call_async, then poll on sd_bus_get_fd with
// sd_bus_get_events and sd_bus_get_timeout, sd_bus_process until idle). Prints microseconds per
// round trip for each. Usage: sdbus N
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <systemd/sd-bus.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int pending;

static int on_reply(sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)userdata; (void)error;
    const char *owner;
    if (sd_bus_message_read(reply, "s", &owner) < 0) { fprintf(stderr, "bad reply\n"); exit(1); }
    pending--;
    return 0;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    sd_bus *bus;
    if (sd_bus_open_user(&bus) < 0) { fprintf(stderr, "no session bus\n"); return 1; }
    double start = now();
    for (int i = 0; i < n; i++) {
        sd_bus_message *reply = NULL;
        sd_bus_error error = SD_BUS_ERROR_NULL;
        if (sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                               "GetNameOwner", &error, &reply, "s", "org.freedesktop.DBus") < 0) {
            fprintf(stderr, "call: %s\n", error.message); return 1;
        }
        sd_bus_message_unref(reply);
    }
    double blocking = (now() - start) / n * 1e6;
    start = now();
    for (int i = 0; i < n; i++) {
        pending = 1;
        if (sd_bus_call_method_async(bus, NULL, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                     "GetNameOwner", on_reply, NULL, "s", "org.freedesktop.DBus") < 0) return 1;
        while (pending) {
            int r;
            while ((r = sd_bus_process(bus, NULL)) > 0) {}
            if (r < 0) return 1;
            if (!pending) break;
            struct pollfd p = {.fd = sd_bus_get_fd(bus), .events = (short)sd_bus_get_events(bus)};
            if (poll(&p, 1, -1) < 0) return 1;
        }
    }
    double polled = (now() - start) / n * 1e6;
    printf("sd-bus blocking %.1f us polled %.1f us\n", blocking, polled);
    sd_bus_unref(bus);
    return 0;
}
