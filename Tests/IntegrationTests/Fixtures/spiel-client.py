#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# A Spiel client for the tests, as libspiel is one: Gio on the session bus, a real pipe passed in
# a UnixFDList to org.freedesktop.Speech.Provider.Synthesize, its audio/x-spiel stream read and
# taken apart here (libspiel is not in Debian 12). Prints one JSON object on standard output.
#
#   spiel-client.py voices
#   spiel-client.py watch-voices SECONDS        (prints the Voices sent by the first PropertiesChanged)
#   spiel-client.py stream VOICE TEXT PITCH RATE SSML SAMPLES_PATH
#   spiel-client.py overlap VOICE TEXT1 TEXT2 SAMPLES_PATH1 SAMPLES_PATH2
#   spiel-client.py cancel VOICE TEXT           (closes its end after the first audio chunk)
#   spiel-client.py hold VOICE TEXT CONNECTION...
#                                               (one request per CONNECTION, a number naming one
#                                               of its own bus connections, each stream left open
#                                               and unread; prints what each request got)
#   spiel-client.py watch-name                  (every owner the provider's name had, until SIGTERM)
#   spiel-client.py hold-open VOICE TEXT        (reads the header and the first audio chunk, prints
#                                               that it holds the stream, leaves it unread until
#                                               SIGTERM, then closes its end)
#   spiel-client.py serve                       (the Spiel figure's client, announced-bench --only
#                                               spiel: one bus connection, commands below)
#
# `serve` takes one command a line on standard input, fields separated by tabs, and answers each
# with one JSON line on standard output:
#
#   speak VOICE TEXT   one Synthesize call, its stream read to its end:
#                      {"first_audio_ns": call → the first audio byte after the header,
#                       "end_ns": call → the stream's end, "header": "0.01", "samples": N}
#   hold VOICE TEXT    one Synthesize call, read up to its first audio byte, then left open and
#                      unread (the provider blocks on the full pipe): {"holding": streams held}
#   release            closes every held stream: {"released": N}
#
# A failed call answers {"error": D-Bus error name, "message": ...}. Times are CLOCK_MONOTONIC.
#
# The bus is DBUS_SESSION_BUS_ADDRESS.
import json
import os
import signal
import struct
import sys
import threading
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "org.announced.Speech.Provider"
PATH = "/org/announced/Speech/Provider"
INTERFACE = "org.freedesktop.Speech.Provider"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)


def synthesize(voice, text, pitch=1.0, rate=1.0, ssml=False, connection=None):
    """Calls Synthesize with the write end of a new pipe; returns the read end."""
    return timed_synthesize(voice, text, pitch, rate, ssml, connection)[0]


def timed_synthesize(voice, text, pitch=1.0, rate=1.0, ssml=False, connection=None, timeout_ms=30000):
    """Calls Synthesize with the write end of a new pipe; returns the read end and the call's time."""
    read_end, write_end = os.pipe()
    fds = Gio.UnixFDList.new()
    index = fds.append(write_end)
    os.close(write_end)
    called = time.monotonic_ns()
    (connection or bus).call_with_unix_fd_list_sync(
        NAME, PATH, INTERFACE, "Synthesize",
        GLib.Variant("(hssddbs)", (index, text, voice, pitch, rate, ssml, "")),
        None, Gio.DBusCallFlags.NONE, timeout_ms, fds, None)
    return read_end, called


def read_exactly(fd, count):
    data = b""
    while len(data) < count:
        chunk = os.read(fd, count - len(data))
        if not chunk:
            raise EOFError("the stream ended inside a chunk")
        data += chunk
    return data


def read_chunk(fd):
    """The stream's next chunk: ("audio", bytes) or ("event", (type, start, end, name)); None at
    its end."""
    kind = os.read(fd, 1)
    if not kind:
        return None
    if kind == b"\x01":
        (length,) = struct.unpack("=I", read_exactly(fd, 4))
        return "audio", read_exactly(fd, length)
    if kind == b"\x02":
        event_type, start, end, name_length = struct.unpack("=BIII", read_exactly(fd, 13))
        return "event", (event_type, start, end, read_exactly(fd, name_length).decode("utf-8"))
    raise ValueError("unknown chunk type %r" % kind)


def read_stream(fd, samples_path):
    """Reads an audio/x-spiel stream to its end: its header, events and audio."""
    header = read_exactly(fd, 4).decode("ascii")
    audio = b""
    events = []
    chunks = 0
    while (chunk := read_chunk(fd)) is not None:
        kind, payload = chunk
        if kind == "audio":
            audio += payload
            chunks += 1
        else:
            event_type, start, end, name = payload
            events.append({"type": event_type, "start": start, "end": end, "name": name, "at": len(audio) // 2})
    os.close(fd)
    with open(samples_path, "wb") as out:
        out.write(audio)
    return {"header": header, "audio_chunks": chunks, "samples": len(audio) // 2, "events": events}


def voices():
    reply = bus.call_sync(
        NAME, PATH, "org.freedesktop.DBus.Properties", "Get", GLib.Variant("(ss)", (INTERFACE, "Voices")),
        None, Gio.DBusCallFlags.NONE, 30000, None)
    return [list(v) for v in reply.unpack()[0]]


# The streams `serve`'s hold left open.
serve_held = []


def first_audio(fd):
    """Reads the header and any events up to the first audio byte; returns the header, the time
    that byte arrived and the audio chunk's bytes left to read."""
    header = read_exactly(fd, 4).decode("ascii")
    while True:
        kind = read_exactly(fd, 1)
        if kind == b"\x01":
            (length,) = struct.unpack("=I", read_exactly(fd, 4))
            if length == 0:
                continue
            read_exactly(fd, 1)
            return header, time.monotonic_ns(), length - 1
        if kind == b"\x02":
            _type, _start, _end, name_length = struct.unpack("=BIII", read_exactly(fd, 13))
            read_exactly(fd, name_length)
        else:
            raise ValueError("unknown chunk type %r" % kind)


def serve_speak(voice, text):
    fd, called = timed_synthesize(voice, text, timeout_ms=60000)
    try:
        header, first, left = first_audio(fd)
        audio = 1 + len(read_exactly(fd, left))
        while (chunk := read_chunk(fd)) is not None:
            if chunk[0] == "audio":
                audio += len(chunk[1])
        end = time.monotonic_ns()
    finally:
        os.close(fd)
    return {"first_audio_ns": first - called, "end_ns": end - called, "header": header, "samples": audio // 2}


def serve_hold(voice, text):
    fd, _called = timed_synthesize(voice, text, timeout_ms=60000)
    first_audio(fd)
    serve_held.append(fd)
    return {"holding": len(serve_held)}


def serve_release():
    count = len(serve_held)
    for fd in serve_held:
        os.close(fd)
    serve_held.clear()
    return {"released": count}


def serve():
    """The `serve` command: one command a line on standard input, one JSON answer a line."""
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        try:
            if fields[0] == "speak":
                answer = serve_speak(fields[1], fields[2])
            elif fields[0] == "hold":
                answer = serve_hold(fields[1], fields[2])
            elif fields[0] == "release":
                answer = serve_release()
            else:
                answer = {"error": "unknown-command", "message": fields[0]}
        except GLib.Error as error:
            answer = {"error": Gio.DBusError.get_remote_error(error) or "GLib.Error", "message": error.message}
        except (EOFError, ValueError, OSError) as error:
            answer = {"error": type(error).__name__, "message": str(error)}
        print(json.dumps(answer), flush=True)


def main():
    command = sys.argv[1]
    if command == "serve":
        serve()
    elif command == "voices":
        print(json.dumps({"voices": voices()}))
    elif command == "watch-voices":
        loop = GLib.MainLoop()
        seen = {}

        def changed(_bus, _sender, _path, _interface, _signal, parameters):
            interface, properties, invalidated = parameters.unpack()
            if interface == INTERFACE and ("Voices" in properties or "Voices" in invalidated):
                seen["voices"] = voices()
                loop.quit()

        bus.signal_subscribe(
            NAME, "org.freedesktop.DBus.Properties", "PropertiesChanged", PATH, None,
            Gio.DBusSignalFlags.NONE, changed)
        print(json.dumps({"watching": True}), flush=True)
        GLib.timeout_add_seconds(int(sys.argv[2]), loop.quit)
        loop.run()
        print(json.dumps(seen))
    elif command == "stream":
        voice, text, pitch, rate, ssml, path = sys.argv[2:8]
        try:
            fd = synthesize(voice, text, float(pitch), float(rate), ssml == "ssml")
        except GLib.Error as error:
            print(json.dumps({"error": Gio.DBusError.get_remote_error(error), "message": error.message}))
            return
        print(json.dumps(read_stream(fd, path)))
    elif command == "overlap":
        voice, first, second, first_path, second_path = sys.argv[2:7]
        fds = [synthesize(voice, first), synthesize(voice, second)]
        results = [None, None]

        def reader(index, path):
            results[index] = read_stream(fds[index], path)

        threads = [threading.Thread(target=reader, args=(i, p)) for i, p in enumerate([first_path, second_path])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(json.dumps({"streams": results}))
    elif command == "hold":
        voice, text = sys.argv[2:4]
        address = Gio.dbus_address_get_for_bus_sync(Gio.BusType.SESSION, None)
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connections = {}
        held = []
        results = []
        for name in sys.argv[4:]:
            if name not in connections:
                connections[name] = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
            try:
                held.append(synthesize(voice, text, connection=connections[name]))
                results.append({"connection": name, "stream": True})
            except GLib.Error as error:
                results.append({"connection": name, "error": Gio.DBusError.get_remote_error(error),
                                "message": error.message})
        for fd in held:
            os.close(fd)
        print(json.dumps({"requests": results}))
    elif command == "watch-name":
        # The test runner's threads block SIGTERM, and its children inherit the mask.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        loop = GLib.MainLoop()
        owners = []

        def owner_changed(_bus, _sender, _path, _interface, _signal, parameters):
            name, _old, new = parameters.unpack()
            if name == NAME:
                owners.append(new)

        bus.signal_subscribe(
            "org.freedesktop.DBus", "org.freedesktop.DBus", "NameOwnerChanged", "/org/freedesktop/DBus", NAME,
            Gio.DBusSignalFlags.NONE, owner_changed)
        # A round trip: the bus has the match rule once it answers.
        bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", None,
                      None, Gio.DBusCallFlags.NONE, 30000, None)
        print(json.dumps({"watching": True}), flush=True)

        def stop():
            # Every NameOwnerChanged the bus sent before this answer is dispatched first.
            bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", None,
                          None, Gio.DBusCallFlags.NONE, 30000, None)
            context = GLib.MainContext.default()
            while context.pending():
                context.iteration(False)
            loop.quit()
            return False

        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, stop)
        loop.run()
        print(json.dumps({"owners": owners}), flush=True)
    elif command == "hold-open":
        # The test runner's threads block SIGTERM, and its children inherit the mask.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        voice, text = sys.argv[2:4]
        fd = synthesize(voice, text)
        read_exactly(fd, 4)
        while os.read(fd, 1) != b"\x01":
            pass
        loop = GLib.MainLoop()
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
        print(json.dumps({"holding": True}), flush=True)
        loop.run()
        os.close(fd)
        print(json.dumps({"closed": True}), flush=True)
    elif command == "cancel":
        voice, text = sys.argv[2:4]
        fd = synthesize(voice, text)
        header = read_exactly(fd, 4).decode("ascii")
        while os.read(fd, 1) != b"\x01":
            pass
        os.close(fd)
        print(json.dumps({"header": header, "closed": True}))


main()
