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
 * Usage: libspeechd_priorities [default] (SPEECHD_ADDRESS names the server; SPEECHD_CMD=/bin/false
 * keeps libspeechd from starting speech-dispatcher). With `default`, it sends two messages with
 * libspeechd's raw commands and never sets a priority (a connection's default priority is
 * `message`, so both are spoken to their end), instead of walking through the priorities.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libspeechd.h>

#define MAX_MESSAGES 256
/* A guard against a hang, not a synchronization: every wait ends on an event. */
#define WAIT_SECONDS 60

/* What arrived for one message id. */
struct seen {
	size_t id;
	int begin, end, cancel;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct seen seen[MAX_MESSAGES];
static int seen_count;

/* The record for `id`, made on first use. Called with `lock` held. */
static struct seen *record(size_t id)
{
	for (int i = 0; i < seen_count; i++)
		if (seen[i].id == id)
			return &seen[i];
	if (seen_count == MAX_MESSAGES) {
		printf("FAIL more than %d message ids\n", MAX_MESSAGES);
		exit(2);
	}
	seen[seen_count].id = id;
	return &seen[seen_count++];
}

static void on_event(size_t msg_id, SPDNotificationType type)
{
	pthread_mutex_lock(&lock);
	struct seen *entry = record(msg_id);
	const char *name = "?";
	switch (type) {
	case SPD_EVENT_BEGIN: entry->begin++; name = "BEGIN"; break;
	case SPD_EVENT_END: entry->end++; name = "END"; break;
	case SPD_EVENT_CANCEL: entry->cancel++; name = "CANCEL"; break;
	default: break;
	}
	printf("EVENT %s %zu\n", name, msg_id);
	fflush(stdout);
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
}

static void on_begin(size_t msg_id, size_t client_id, SPDNotificationType type) { (void)client_id; on_event(msg_id, type); }
static void on_end(size_t msg_id, size_t client_id, SPDNotificationType type) { (void)client_id; on_event(msg_id, type); }
static void on_cancel(size_t msg_id, size_t client_id, SPDNotificationType type) { (void)client_id; on_event(msg_id, type); }

/* Waits until message `id` began (`terminal` 0) or ended or was cancelled (`terminal` 1). */
static void wait_for(int id, int terminal, const char *label)
{
	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += WAIT_SECONDS;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct seen *entry = record((size_t)id);
		if (terminal ? entry->end + entry->cancel > 0 : entry->begin > 0)
			break;
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
	connection = spd_open("libspeechd-test", "main", NULL, SPD_MODE_THREADED);
	if (connection == NULL) {
		printf("FAIL spd_open\n");
		return 2;
	}
	connection->callback_begin = on_begin;
	connection->callback_end = on_end;
	connection->callback_cancel = on_cancel;
	if (spd_set_notification_on(connection, SPD_ALL)) {
		printf("FAIL spd_set_notification_on\n");
		return 2;
	}
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
