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
 * Usage: libspeechd_long_message (SPEECHD_ADDRESS names the server; SPEECHD_CMD=/bin/false keeps
 * libspeechd from starting speech-dispatcher).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libspeechd.h>

/* The length of the long message in speech-dispatcher's test suite. */
#define LONG_LENGTH 11435
/* A guard against a hang, not a synchronization: every wait ends on an event. */
#define WAIT_SECONDS 60

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
/* The last event of each kind: message ids. */
static size_t last_begin, last_end, last_cancel;

static void on_event(size_t msg_id, size_t client_id, SPDNotificationType type)
{
	(void)client_id;
	pthread_mutex_lock(&lock);
	const char *name = "?";
	switch (type) {
	case SPD_EVENT_BEGIN: last_begin = msg_id; name = "BEGIN"; break;
	case SPD_EVENT_END: last_end = msg_id; name = "END"; break;
	case SPD_EVENT_CANCEL: last_cancel = msg_id; name = "CANCEL"; break;
	default: break;
	}
	printf("EVENT %s %zu\n", name, msg_id);
	fflush(stdout);
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
}

/* Waits until message `id` began (`terminal` 0) or ended or was cancelled (`terminal` 1). */
static void wait_for(int id, int terminal, const char *label)
{
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += WAIT_SECONDS;
	pthread_mutex_lock(&lock);
	while (terminal ? (last_end != (size_t)id && last_cancel != (size_t)id) : last_begin != (size_t)id) {
		if (pthread_cond_timedwait(&changed, &lock, &deadline) == ETIMEDOUT) {
			printf("FAIL no %s for %s (%d)\n", terminal ? "END or CANCEL" : "BEGIN", label, id);
			exit(2);
		}
	}
	pthread_mutex_unlock(&lock);
}

static SPDConnection *connection;

static int say(SPDPriority priority, const char *label, const char *text)
{
	int id = spd_say(connection, priority, text);
	if (id <= 0) {
		printf("FAIL spd_say %s returned %d\n", label, id);
		exit(2);
	}
	printf("SAID %s %d\n", label, id);
	fflush(stdout);
	return id;
}

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
	connection = spd_open("libspeechd-long", "main", NULL, SPD_MODE_THREADED);
	if (connection == NULL) {
		printf("FAIL spd_open\n");
		return 2;
	}
	connection->callback_begin = on_event;
	connection->callback_end = on_event;
	connection->callback_cancel = on_event;
	if (spd_set_notification_on(connection, SPD_ALL)) {
		printf("FAIL spd_set_notification_on\n");
		return 2;
	}

	char *text = long_text();
	printf("LENGTH %zu\n", strlen(text));
	int long_id = say(SPD_MESSAGE, "long", text);
	wait_for(long_id, 0, "long");
	char line[16];
	if (fgets(line, sizeof line, stdin) == NULL) {
		printf("FAIL no line on standard input\n");
		return 2;
	}
	if (spd_stop(connection)) {
		printf("FAIL spd_stop\n");
		return 2;
	}
	wait_for(long_id, 1, "long");

	int short_id = say(SPD_MESSAGE, "short", "After the long one");
	wait_for(short_id, 1, "short");

	spd_close(connection);
	free(text);
	printf("CLOSED\n");
	return 0;
}
