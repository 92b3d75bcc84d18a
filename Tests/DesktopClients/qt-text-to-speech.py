#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Speaks each argument with Qt 6's QTextToSpeech (the speechd engine, through
qt6-speech-speechd-plugin), one after another, for announced's desktop-client tests.

Prints, flushed at once, "engines E1,E2", "initial STATE", then "state STATE" on every
stateChanged and "say N" before it says the N-th text (from 1) once the engine is Ready again;
exits 0 after the last text when the engine is Ready, 1 with "error ..." if the engine reports
an error. The server is never spawned: the test sets SPEECHD_ADDRESS and SPEECHD_CMD=/bin/false.
"""

import sys

from PyQt6.QtCore import QCoreApplication
from PyQt6.QtTextToSpeech import QTextToSpeech

app = QCoreApplication(sys.argv)
texts = sys.argv[1:]
said = 0
print("engines", ",".join(QTextToSpeech.availableEngines()), flush=True)
speech = QTextToSpeech("speechd")


def say_next():
    global said
    if said == len(texts):
        app.quit()
        return
    said += 1
    print("say", said, flush=True)
    speech.say(texts[said - 1])


def changed(state):
    print("state", state.name, flush=True)
    if state == QTextToSpeech.State.Ready:
        say_next()
    elif state == QTextToSpeech.State.Error:
        print("error", speech.errorString(), flush=True)
        app.exit(1)


speech.stateChanged.connect(changed)
print("initial", speech.state().name, flush=True)
if speech.state() == QTextToSpeech.State.Ready:
    say_next()
sys.exit(app.exec())
