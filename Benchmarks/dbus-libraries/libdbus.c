// SPDX-License-Identifier: GPL-3.0-or-later
// GetNameOwner("org.freedesktop.DBus") round trips through libdbus on the session bus: N blocking
// calls (dbus_connection_send_with_reply_and_block), then N asynchronous calls driven by poll
// the way libdbus wants an outside loop to drive it (its DBusWatch callbacks hand over the fds
// and their flags, dbus_watch_handle, then dbus_connection_dispatch until complete). Prints
// microseconds per round trip for each. Usage: libdbus N
#include <dbus/dbus.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

#define MAX_WATCHES 8
static DBusWatch *watches[MAX_WATCHES];
static int watch_count;

static dbus_bool_t add_watch(DBusWatch *watch, void *data) {
    (void)data;
    if (watch_count == MAX_WATCHES) return FALSE;
    watches[watch_count++] = watch;
    return TRUE;
}

static void remove_watch(DBusWatch *watch, void *data) {
    (void)data;
    for (int i = 0; i < watch_count; i++)
        if (watches[i] == watch) { watches[i] = watches[--watch_count]; return; }
}

static DBusMessage *get_name_owner(void) {
    DBusMessage *call = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                     "org.freedesktop.DBus", "GetNameOwner");
    const char *name = "org.freedesktop.DBus";
    dbus_message_append_args(call, DBUS_TYPE_STRING, &name, DBUS_TYPE_INVALID);
    return call;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *bus = dbus_bus_get_private(DBUS_BUS_SESSION, &error);
    if (!bus) { fprintf(stderr, "no session bus: %s\n", error.message); return 1; }
    dbus_connection_set_exit_on_disconnect(bus, FALSE);
    double start = now();
    for (int i = 0; i < n; i++) {
        DBusMessage *call = get_name_owner();
        DBusMessage *reply = dbus_connection_send_with_reply_and_block(bus, call, -1, &error);
        dbus_message_unref(call);
        if (!reply) { fprintf(stderr, "call: %s\n", error.message); return 1; }
        const char *owner;
        if (!dbus_message_get_args(reply, &error, DBUS_TYPE_STRING, &owner, DBUS_TYPE_INVALID)) return 1;
        dbus_message_unref(reply);
    }
    double blocking = (now() - start) / n * 1e6;
    dbus_connection_set_watch_functions(bus, add_watch, remove_watch, NULL, NULL, NULL);
    start = now();
    for (int i = 0; i < n; i++) {
        DBusMessage *call = get_name_owner();
        DBusPendingCall *pending;
        if (!dbus_connection_send_with_reply(bus, call, &pending, -1) || !pending) return 1;
        dbus_message_unref(call);
        while (!dbus_pending_call_get_completed(pending)) {
            while (dbus_connection_dispatch(bus) == DBUS_DISPATCH_DATA_REMAINS) {}
            if (dbus_pending_call_get_completed(pending)) break;
            struct pollfd p[MAX_WATCHES];
            int count = 0;
            DBusWatch *polled[MAX_WATCHES];
            for (int w = 0; w < watch_count; w++) {
                if (!dbus_watch_get_enabled(watches[w])) continue;
                unsigned flags = dbus_watch_get_flags(watches[w]);
                p[count] = (struct pollfd){.fd = dbus_watch_get_unix_fd(watches[w]),
                                           .events = (short)((flags & DBUS_WATCH_READABLE ? POLLIN : 0) |
                                                             (flags & DBUS_WATCH_WRITABLE ? POLLOUT : 0))};
                polled[count++] = watches[w];
            }
            if (poll(p, count, -1) < 0) return 1;
            for (int w = 0; w < count; w++) {
                unsigned flags = (p[w].revents & POLLIN ? DBUS_WATCH_READABLE : 0) |
                                 (p[w].revents & POLLOUT ? DBUS_WATCH_WRITABLE : 0) |
                                 (p[w].revents & POLLHUP ? DBUS_WATCH_HANGUP : 0) |
                                 (p[w].revents & POLLERR ? DBUS_WATCH_ERROR : 0);
                if (flags) dbus_watch_handle(polled[w], flags);
            }
            while (dbus_connection_dispatch(bus) == DBUS_DISPATCH_DATA_REMAINS) {}
        }
        DBusMessage *reply = dbus_pending_call_steal_reply(pending);
        dbus_pending_call_unref(pending);
        const char *owner;
        if (!reply || !dbus_message_get_args(reply, &error, DBUS_TYPE_STRING, &owner, DBUS_TYPE_INVALID)) return 1;
        dbus_message_unref(reply);
    }
    double polled = (now() - start) / n * 1e6;
    printf("libdbus blocking %.1f us polled %.1f us\n", blocking, polled);
    dbus_connection_close(bus);
    dbus_connection_unref(bus);
    return 0;
}
