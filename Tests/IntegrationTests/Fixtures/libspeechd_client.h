// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libspeechd_client.h: what the libspeechd fixtures share (libspeechd_client.c), for announced's
 * SSIP integration tests: one THREADED connection with every notification on, callbacks that
 * count BEGIN, END and CANCEL per message id and print each, waits that end on those events, and
 * spd_say with its id printed. Every failure prints one FAIL line and exits 2.
 *
 * Lines printed (LibspeechdTranscript in LibspeechdTests.swift reads them):
 *
 *   SAID <label> <msg_id>           spd_say (or a raw SPEAK) returned this id for <label>
 *   EVENT <BEGIN|END|CANCEL> <id>   a callback ran
 *   FAIL <what>                     a call failed or an awaited event did not come (exit 2)
 */
#ifndef LIBSPEECHD_CLIENT_H
#define LIBSPEECHD_CLIENT_H

#include <libspeechd.h>

/* The connection client_open made. */
extern SPDConnection *connection;

/* Opens `connection` as client `name` in THREADED mode, installs the callbacks and turns every
 * notification on; exits 2 when any of it fails. */
void client_open(const char *name);

/* Waits until message `id` began (`terminal` 0) or ended or was cancelled (`terminal` 1); prints
 * FAIL and exits 2 after WAIT_SECONDS. */
void wait_for(int id, int terminal, const char *label);

/* spd_say at `priority`: the message id, after printing SAID; exits 2 when it fails. */
int say(SPDPriority priority, const char *label, const char *text);

/* Prints `FAIL <what>` and exits 2. */
void fail(const char *what);

#endif
