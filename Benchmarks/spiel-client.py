#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The Spiel figure's client (announced-bench --only spiel): a Spiel client as libspiel is one, Gio
# on the session bus (DBUS_SESSION_BUS_ADDRESS), a pipe's write end passed in a UnixFDList to
# org.freedesktop.Speech.Provider.Synthesize, the audio/x-spiel stream read here. It keeps one bus
# connection and takes one command a line on standard input, fields separated by tabs, and answers
# each with one JSON line on standard output:
#
#   speak VOICE TEXT   one Synthesize call, its stream read to its end:
#                      {"first_audio_ns": call → the first audio byte after the header,
#                       "end_ns": call → the stream's end, "header": "0.01", "samples": N}
#   hold VOICE TEXT    one Synthesize call, read up to its first audio byte, then left open and
#                      unread (the provider blocks on the full pipe): {"holding": streams held}
#   release            closes every held stream: {"released": N}
#
# A failed call answers {"error": D-Bus error name, "message": ...}. Times are CLOCK_MONOTONIC.
import json
import os
import struct
import sys
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

NAME = "org.announced.Speech.Provider"
PATH = "/org/announced/Speech/Provider"
INTERFACE = "org.freedesktop.Speech.Provider"

bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
held = []


def synthesize(voice, text):
    """Calls Synthesize with the write end of a new pipe; returns the read end and the call's time."""
    read_end, write_end = os.pipe()
    fds = Gio.UnixFDList.new()
    index = fds.append(write_end)
    os.close(write_end)
    called = time.monotonic_ns()
    bus.call_with_unix_fd_list_sync(
        NAME, PATH, INTERFACE, "Synthesize",
        GLib.Variant("(hssddbs)", (index, text, voice, 1.0, 1.0, False, "")),
        None, Gio.DBusCallFlags.NONE, 60000, fds, None)
    return read_end, called


def read_exactly(fd, count):
    data = b""
    while len(data) < count:
        chunk = os.read(fd, count - len(data))
        if not chunk:
            raise EOFError("the stream ended inside a chunk")
        data += chunk
    return data


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


def speak(voice, text):
    fd, called = synthesize(voice, text)
    try:
        header, first, left = first_audio(fd)
        audio = 1 + len(read_exactly(fd, left))
        while True:
            kind = os.read(fd, 1)
            if not kind:
                break
            if kind == b"\x01":
                (length,) = struct.unpack("=I", read_exactly(fd, 4))
                audio += len(read_exactly(fd, length))
            elif kind == b"\x02":
                _type, _start, _end, name_length = struct.unpack("=BIII", read_exactly(fd, 13))
                read_exactly(fd, name_length)
            else:
                raise ValueError("unknown chunk type %r" % kind)
        end = time.monotonic_ns()
    finally:
        os.close(fd)
    return {"first_audio_ns": first - called, "end_ns": end - called, "header": header, "samples": audio // 2}


def hold(voice, text):
    fd, _called = synthesize(voice, text)
    first_audio(fd)
    held.append(fd)
    return {"holding": len(held)}


def release():
    count = len(held)
    for fd in held:
        os.close(fd)
    held.clear()
    return {"released": count}


def main():
    for line in sys.stdin:
        fields = line.rstrip("\n").split("\t")
        try:
            if fields[0] == "speak":
                answer = speak(fields[1], fields[2])
            elif fields[0] == "hold":
                answer = hold(fields[1], fields[2])
            elif fields[0] == "release":
                answer = release()
            else:
                answer = {"error": "unknown-command", "message": fields[0]}
        except GLib.Error as error:
            answer = {"error": Gio.DBusError.get_remote_error(error) or "GLib.Error", "message": error.message}
        except (EOFError, ValueError, OSError) as error:
            answer = {"error": type(error).__name__, "message": str(error)}
        print(json.dumps(answer), flush=True)


main()
