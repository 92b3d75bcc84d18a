#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Drives Debian's python3-speechd (speechd.SSIPClient) for announced's integration tests.

Reads one JSON command per line on standard input and prints one JSON object per line on standard
output, flushed at once, so that a test can act on an event the moment it happens:

  {"op":"connect","client":"a"}               -> {"reply":"connect","client":"a","client_id":N}
  {"op":"speak","client":"a","text":T,"tag":X} -> {"reply":"speak","client":"a","tag":X,"msg_id":N}
  {"op":"call","client":"a","method":M,"args":[...]}
                                              -> {"reply":"call","client":"a","method":M,"result":R}
  {"op":"command","client":"a","words":["GET","VOICE_TYPE"]}
                                              -> {"reply":"command","client":"a","code":C,"data":[...]}
  {"op":"close","client":"a"}                 -> {"reply":"close","client":"a"}

A failed command answers {"reply":..., "error":TEXT, "code":C} instead (C: the SSIP code when the
server refused it).

Events, from the client's reader thread:
  {"callback":TYPE,"client":"a","tag":X,"msg_id":N[,"mark":NAME]}: the callback given to speak()
      ran (what an application sees);
  {"wire":TYPE,"client":"a","msg_id":N[,"mark":NAME]}: the event arrived on the socket, before
      python3-speechd routes it (so a test can see an event the client dropped because it came
      before the message's callback was registered).

End of input closes every client and exits. The server is never spawned: the test sets
SPEECHD_ADDRESS and SPEECHD_CMD=/bin/false.
"""

import json
import sys
import threading

import speechd
from speechd.client import SSIPResponseError

output_lock = threading.Lock()


def emit(obj):
    with output_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


def plain(value):
    """A JSON-friendly copy of what a python3-speechd method returned."""
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


clients = {}


def connect(name, application=None, component="default", user="unknown"):
    # CLIENT_NAME is user:application:component, as SSIPClient sends it.
    client = speechd.SSIPClient(application or "pytest-" + name, component, user, autospawn=False)
    routed = client._conn._callback

    def on_wire(msg_id, client_id, type, **kwargs):
        event = {"wire": type, "client": name, "msg_id": msg_id}
        if "index_mark" in kwargs:
            event["mark"] = kwargs["index_mark"]
        emit(event)
        routed(msg_id, client_id, type, **kwargs)

    client._conn.set_callback(on_wire)
    clients[name] = client
    return client


def speak(name, text, tag):
    client = clients[name]
    holder = {}

    def on_event(type, index_mark=None):
        event = {"callback": type, "client": name, "tag": tag, "msg_id": holder.get("msg_id")}
        if index_mark is not None:
            event["mark"] = index_mark
        emit(event)

    code, msg, data = client.speak(text, callback=on_event)
    holder["msg_id"] = int(data[0])
    return int(data[0])


def handle(request):
    op = request["op"]
    name = request.get("client", "a")
    answer = {"reply": op, "client": name}
    try:
        if op == "connect":
            answer["client_id"] = connect(
                name, request.get("application"), request.get("component", "default"), request.get("user", "unknown")
            )._client_id
        elif op == "speak":
            answer["tag"] = request.get("tag")
            answer["msg_id"] = speak(name, request["text"], request.get("tag"))
        elif op == "call":
            answer["method"] = request["method"]
            method = getattr(clients[name], request["method"])
            answer["result"] = plain(method(*request.get("args", [])))
        elif op == "command":
            code, msg, data = clients[name]._conn.send_command(*request["words"])
            answer["code"] = code
            answer["data"] = list(data)
        elif op == "close":
            clients.pop(name).close()
        else:
            answer["error"] = "unknown op " + op
    except SSIPResponseError as error:
        answer["error"] = str(error)
        answer["code"] = error.code()
    except Exception as error:  # noqa: BLE001 - every failure goes back to the test
        answer["error"] = "%s: %s" % (type(error).__name__, error)
    emit(answer)


def main():
    for line in sys.stdin:
        if line.strip():
            handle(json.loads(line))
    for client in list(clients.values()):
        client.close()


if __name__ == "__main__":
    main()
