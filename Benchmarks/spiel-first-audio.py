#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
# The Spiel provider's first audio byte: from a client's Synthesize call (python3-gi's Gio, a real
# pipe in a UnixFDList) to the first audio chunk read from its pipe, for a short text, with
# espeak-ng (en-us) and, when the Piper engine and voice are fetched, Piper (en_us-joe-medium).
# Also: a client closing its end mid-stream, to the stream's helper process gone (its pidfd).
# Starts its own session bus and daemon (--audio null) and stops both by pid.
#
#   Benchmarks/spiel-first-audio.py [BUILD_DIR] [RUNS]     (default .build/release, 20)
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio, GLib  # noqa: E402

build = sys.argv[1] if len(sys.argv) > 1 else ".build/release"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
text = "Download complete."
folder = tempfile.mkdtemp(prefix="announced-spiel-bench-")
os.makedirs(folder + "/runtime", mode=0o700)
cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")) + "/announced/voices"
engine = os.path.abspath(".build/piper-engine/lib")
piper = os.path.exists(cache + "/en_US-joe-medium.onnx") and os.path.exists(engine + "/libsherpa-onnx-c-api.so")
if piper:
    os.makedirs(folder + "/data/announced/voices")
    for name in ["en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"]:
        os.link(cache + "/" + name, folder + "/data/announced/voices/" + name)

bus = subprocess.Popen(
    ["dbus-daemon", "--session", "--nofork", "--address=unix:path=%s/runtime/bus" % folder, "--print-address=1"],
    stdout=subprocess.PIPE, text=True)
address = bus.stdout.readline().strip()
environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, XDG_RUNTIME_DIR=folder + "/runtime",
                   XDG_DATA_HOME=folder + "/data", XDG_CONFIG_HOME=folder + "/config", ANNOUNCED_SYSTEM_VOICES="",
                   ANNOUNCED_PIPER_LIBRARY_DIR=engine, SPEECHD_CMD="/bin/false")
log = open(folder + "/daemon.log", "w+")
daemon = subprocess.Popen([build + "/announced", "--audio", "null", "--socket", folder + "/runtime/a.sock"],
                          env=environment, stderr=log)
try:
    connection = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION,
        None, None)
    for _ in range(600):
        log.seek(0)
        if "Spiel speech provider on the session bus" in log.read():
            break
        time.sleep(0.05)

    def exactly(fd, count):
        data = b""
        while len(data) < count:
            chunk = os.read(fd, count - len(data))
            if not chunk:
                raise EOFError("the stream ended early; the daemon's log is " + folder + "/daemon.log")
            data += chunk
        return data

    def first_audio(voice):
        read_end, write_end = os.pipe()
        fds = Gio.UnixFDList.new()
        index = fds.append(write_end)
        os.close(write_end)
        start = time.monotonic()
        connection.call_with_unix_fd_list_sync(
            "org.announced.Speech.Provider", "/org/announced/Speech/Provider", "org.freedesktop.Speech.Provider",
            "Synthesize", GLib.Variant("(hssddbs)", (index, text, voice, 1.0, 1.0, False, "")),
            None, Gio.DBusCallFlags.NONE, 60000, fds, None)
        # The list holds a copy of the write end: the stream's end of file waits for it.
        del fds
        assert exactly(read_end, 4) == b"0.01"
        while True:
            kind = exactly(read_end, 1)
            if kind == b"\x01":
                break
            body = exactly(read_end, 13)
            exactly(read_end, int.from_bytes(body[9:13], sys.byteorder))
        elapsed = time.monotonic() - start
        while os.read(read_end, 65536):
            pass
        os.close(read_end)
        return elapsed * 1000

    def children():
        found = set()
        for task in os.listdir("/proc/%d/task" % daemon.pid):
            with open("/proc/%d/task/%s/children" % (daemon.pid, task)) as listing:
                found.update(int(pid) for pid in listing.read().split())
        return found

    def cancel_latency(voice):
        before = children()
        read_end, write_end = os.pipe()
        fds = Gio.UnixFDList.new()
        index = fds.append(write_end)
        os.close(write_end)
        connection.call_with_unix_fd_list_sync(
            "org.announced.Speech.Provider", "/org/announced/Speech/Provider", "org.freedesktop.Speech.Provider",
            "Synthesize", GLib.Variant("(hssddbs)", (index, "This goes on and on. " * 400, voice, 1.0, 1.0, False, "")),
            None, Gio.DBusCallFlags.NONE, 60000, fds, None)
        del fds
        exactly(read_end, 64)
        helper = (children() - before).pop()
        pidfd = os.pidfd_open(helper)
        start = time.monotonic()
        os.close(read_end)
        select.select([pidfd], [], [])
        elapsed = time.monotonic() - start
        os.close(pidfd)
        return elapsed * 1000

    for voice, engine_name in [("en-us", "espeak-ng")] + ([("en_us-joe-medium", "piper")] if piper else []):
        times = [first_audio(voice) for _ in range(runs)]
        print("%s (%s): first audio byte median %.1f ms, min %.1f, max %.1f over %d requests (the first: %.1f ms)"
              % (engine_name, voice, statistics.median(times), min(times), max(times), runs, times[0]))
        cancels = [cancel_latency(voice) for _ in range(max(3, runs // 4))]
        print("%s (%s): client closes its end -> the stream's helper gone, median %.1f ms, max %.1f over %d"
              % (engine_name, voice, statistics.median(cancels), max(cancels), len(cancels)))
    if not piper:
        print("piper: not measured (run scripts/fetch-piper-engine.sh)")
except Exception:
    log.seek(0)
    sys.stderr.write(log.read()[-3000:])
    raise
finally:
    daemon.terminate()
    daemon.wait()
    bus.terminate()
    bus.wait()
    shutil.rmtree(folder)
