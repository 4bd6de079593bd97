/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test programs' --wait FILE: a tracer attaches to a process by its
 * PID, so the program says it ("waiting PID") before the calls to trace,
 * and makes them once the test has created FILE (the tracer is ready), or
 * after a minute without it.
 */
#ifndef CLIENT_WAIT_H
#define CLIENT_WAIT_H

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void wait_for(const char *path)
{
	struct timespec ts = { 0, 10 * 1000000L };
	int i;

	printf("waiting %d\n", (int)getpid());
	for (i = 0; i < 6000 && access(path, F_OK); i++)
		nanosleep(&ts, NULL);
}

#endif /* CLIENT_WAIT_H */
