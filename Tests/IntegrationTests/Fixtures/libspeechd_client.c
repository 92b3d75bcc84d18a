// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * libspeechd_client.c: the part the libspeechd fixtures share; libspeechd_client.h says what it
 * does. LibspeechdProgram.build (LibspeechdTests.swift) compiles it with each fixture.
 */
#include "libspeechd_client.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_MESSAGES 256
/* A guard against a hang, not a synchronization: every wait ends on an event. */
#define WAIT_SECONDS 60

SPDConnection *connection;

/* What arrived for one message id. */
struct seen {
	size_t id;
	int begin, end, cancel;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct seen seen[MAX_MESSAGES];
static int seen_count;

void fail(const char *what)
{
	printf("FAIL %s\n", what);
	exit(2);
}

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

static void on_event(size_t msg_id, size_t client_id, SPDNotificationType type)
{
	(void)client_id;
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

void client_open(const char *name)
{
	connection = spd_open(name, "main", NULL, SPD_MODE_THREADED);
	if (connection == NULL)
		fail("spd_open");
	connection->callback_begin = on_event;
	connection->callback_end = on_event;
	connection->callback_cancel = on_event;
	if (spd_set_notification_on(connection, SPD_ALL))
		fail("spd_set_notification_on");
}

void wait_for(int id, int terminal, const char *label)
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

int say(SPDPriority priority, const char *label, const char *text)
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
