// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libspeechd_priorities.c: a libspeechd client for announced's SSIP integration test
 * (Tests/IntegrationTests/LibspeechdTests.swift compiles and runs it).
 *
 * It opens a THREADED connection, turns every notification on (SPD_ALL), counts BEGIN, END and CANCEL per
 * message id in its callbacks, and walks through SSIP's five priorities, one step waiting for the
 * event the step before must cause (no sleeps). It prints one line per thing it did or saw:
 *
 *   SAID <label> <msg_id>           spd_say (or the raw SPEAK) returned this id for <label>
 *   SENT <label>                    spd_char / spd_key / spd_sound_icon / spd_cancel_all returned 0
 *   EVENT <BEGIN|END|CANCEL> <id>   a callback ran
 *   FAIL <what>                     a call failed or an awaited event did not come (exit 2)
 *   CLOSED                          spd_close returned
 *
 * The connection, the callbacks and the waits are libspeechd_client.c's.
 *
 * Usage: libspeechd_priorities [default] (SPEECHD_ADDRESS names the server; SPEECHD_CMD=/bin/false
 * keeps libspeechd from starting speech-dispatcher). With `default`, it sends two messages with
 * libspeechd's raw commands and never sets a priority (a connection's default priority is
 * `message`, so both are spoken to their end), instead of walking through the priorities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libspeechd_client.h"

static void sent(int result, const char *label)
{
	if (result != 0) {
		printf("FAIL %s returned %d\n", label, result);
		exit(2);
	}
	printf("SENT %s\n", label);
	fflush(stdout);
}

/* Long enough to be still speaking when the next step comes, however loaded the machine. */
static const char *long_text =
    "This message is long enough to be still speaking when the next one arrives, "
    "and it goes on for a good while longer, sentence after sentence, so that nothing "
    "the test sends next can find it already finished.";

/* SPEAK, the text and the end marker through libspeechd's raw commands, which send no
 * SET SELF PRIORITY (spd_say always sends one): the message id from the 225 reply. */
static int say_raw(const char *label, const char *text)
{
	if (spd_execute_command(connection, "SPEAK")) {
		printf("FAIL SPEAK for %s\n", label);
		exit(2);
	}
	free(spd_send_data(connection, text, SPD_NO_REPLY));
	char *reply = spd_send_data(connection, "\r\n.\r\n", SPD_WAIT_REPLY);
	int id = reply != NULL && strncmp(reply, "225-", 4) == 0 ? atoi(reply + 4) : 0;
	free(reply);
	if (id <= 0) {
		printf("FAIL the data of %s was not queued\n", label);
		exit(2);
	}
	printf("SAID %s %d\n", label, id);
	fflush(stdout);
	return id;
}

/* Two messages at the connection's default priority: the second waits for the first. */
static int default_priority(void)
{
	int first = say_raw("first", long_text);
	wait_for(first, 0, "first");
	int second = say_raw("second", "The second message");
	wait_for(first, 1, "first");
	wait_for(second, 1, "second");
	spd_close(connection);
	printf("CLOSED\n");
	return 0;
}

int main(int argc, char **argv)
{
	client_open("libspeechd-test");
	if (argc > 1 && strcmp(argv[1], "default") == 0)
		return default_priority();

	/* A notification while a text speaks is discarded: CANCEL, never BEGIN. */
	int text1 = say(SPD_TEXT, "text1", long_text);
	wait_for(text1, 0, "text1");
	int note = say(SPD_NOTIFICATION, "notification", "A notification nobody hears");
	wait_for(note, 1, "notification");

	/* An important message interrupts the text and is spoken to its end. */
	int important = say(SPD_IMPORTANT, "important", "Important words");
	wait_for(text1, 1, "text1");
	wait_for(important, 1, "important");

	/* Only the newest text survives. */
	int text2 = say(SPD_TEXT, "text2", long_text);
	wait_for(text2, 0, "text2");
	int text3 = say(SPD_TEXT, "text3", "A newer text");
	wait_for(text2, 1, "text2");
	wait_for(text3, 1, "text3");

	/* A message is not interrupted by a text, which waits; a progress message is dropped. */
	int message = say(SPD_MESSAGE, "message", long_text);
	wait_for(message, 0, "message");
	int text4 = say(SPD_TEXT, "text4", "A text that waits for the message");
	int progress1 = say(SPD_PROGRESS, "progress1", "Ten percent");
	wait_for(progress1, 1, "progress1");

	/* Cancel all: the speaking message and the waiting text. */
	sent(spd_cancel_all(connection), "cancel_all");
	wait_for(message, 1, "message");
	wait_for(text4, 1, "text4");

	/* A character, a key and a sound icon, then a message after them (message priority is
	 * first come, first served, so its END comes after theirs). */
	sent(spd_char(connection, SPD_MESSAGE, "a"), "char");
	sent(spd_key(connection, SPD_MESSAGE, "shift_a"), "key");
	sent(spd_sound_icon(connection, SPD_MESSAGE, "boundary"), "sound_icon");
	int last = say(SPD_MESSAGE, "last", "Last message");
	wait_for(last, 1, "last");

	/* A progress message alone is spoken. */
	int progress2 = say(SPD_PROGRESS, "progress2", "Fifty percent");
	wait_for(progress2, 1, "progress2");

	spd_close(connection);
	printf("CLOSED\n");
	return 0;
}
