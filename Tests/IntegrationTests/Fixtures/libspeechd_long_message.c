// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libspeechd_long_message.c: a libspeechd client that sends one long message, as
 * speech-dispatcher's own test suite does (11,435 characters in one spd_say), for announced's
 * SSIP integration test (Tests/IntegrationTests/LongTextTests.swift compiles and runs it).
 *
 * It opens a THREADED connection with every notification on, says the long text as a MESSAGE,
 * waits for its BEGIN, then for a line on standard input (the test sends it once some of the
 * message was played), stops it (spd_stop) and waits for its CANCEL, then says a short message
 * and waits for its END: the long message must neither be refused nor keep the daemon busy.
 * It prints one line per thing it did or saw:
 *
 *   LENGTH <n>                      the long text's length in characters
 *   SAID <label> <msg_id>           spd_say returned this id for the message labelled <label>
 *   EVENT <BEGIN|END|CANCEL> <id>   a callback ran
 *   FAIL <what>                     a call failed or an awaited event did not come (exit 2)
 *   CLOSED                          spd_close returned
 *
 * The connection, the callbacks and the waits are libspeechd_client.c's.
 *
 * Usage: libspeechd_long_message (SPEECHD_ADDRESS names the server; SPEECHD_CMD=/bin/false keeps
 * libspeechd from starting speech-dispatcher).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libspeechd_client.h"

/* The length of the long message in speech-dispatcher's test suite. */
#define LONG_LENGTH 11435

/* Sentences repeated up to LONG_LENGTH characters, with a line break now and then. */
static char *long_text(void)
{
	static const char *sentences[] = {
		"The quick brown fox jumps over the lazy dog. ",
		"A long message is read from its start at once, while the rest waits its turn.\n",
		"Speech synthesis goes on clause by clause, as fast as the words are played. ",
	};
	char *text = malloc(LONG_LENGTH + 1);
	if (text == NULL)
		exit(2);
	size_t length = 0;
	for (int i = 0; length < LONG_LENGTH; i++) {
		const char *sentence = sentences[i % 3];
		size_t n = strlen(sentence);
		if (n > LONG_LENGTH - length)
			n = LONG_LENGTH - length;
		memcpy(text + length, sentence, n);
		length += n;
	}
	text[LONG_LENGTH] = 0;
	return text;
}

int main(void)
{
	client_open("libspeechd-long");

	char *text = long_text();
	printf("LENGTH %zu\n", strlen(text));
	int long_id = say(SPD_MESSAGE, "long", text);
	wait_for(long_id, 0, "long");
	char line[16];
	if (fgets(line, sizeof line, stdin) == NULL)
		fail("no line on standard input");
	if (spd_stop(connection))
		fail("spd_stop");
	wait_for(long_id, 1, "long");

	int short_id = say(SPD_MESSAGE, "short", "After the long one");
	wait_for(short_id, 1, "short");

	spd_close(connection);
	free(text);
	printf("CLOSED\n");
	return 0;
}
