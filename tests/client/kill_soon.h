/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads' "die" phase: a process that ends inside a call, which
 * never returns (a tracer must not wait for its return).  kill_soon()
 * kills the process with SIGKILL 100 ms later, from a thread of its own,
 * while the caller goes into a call scripted to take longer.  Define
 * CLIENT_NAME, the program's name for its messages, before including this.
 */
#ifndef CLIENT_KILL_SOON_H
#define CLIENT_KILL_SOON_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef CLIENT_NAME
#error "define CLIENT_NAME, the program's name for its messages"
#endif

static void *killer(void *arg)
{
	usleep(100000);
	kill(getpid(), SIGKILL);
	return arg;
}

static void kill_soon(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, killer, NULL)) {
		fprintf(stderr, CLIENT_NAME ": pthread_create failed\n");
		exit(1);
	}
}

#endif /* CLIENT_KILL_SOON_H */
