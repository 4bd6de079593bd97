/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake libraries' scripted results: a queue of (function, result,
 * delay) a test pushes (through each fake's exported fake_X_script()); the
 * next call of the function at the head sleeps that long and returns that
 * result, logged as "FUNC scripted result=N delay_us=D". Results are the
 * APIs' status enums (CUresult, hipError_t, ze_result_t), held as int.
 * Include after fake_log.h.
 */
#ifndef FAKE_SCRIPT_H
#define FAKE_SCRIPT_H

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define MAX_SCRIPT 32

static struct {
	char func[64];
	int result;
	unsigned int delay_us;
} script[MAX_SCRIPT];
static int script_head, script_len;
static pthread_mutex_t script_lock = PTHREAD_MUTEX_INITIALIZER;

static void script_push(const char *func, int result, unsigned int delay_us)
{
	pthread_mutex_lock(&script_lock);
	if (script_len < MAX_SCRIPT) {
		int i = (script_head + script_len++) % MAX_SCRIPT;

		snprintf(script[i].func, sizeof(script[i].func), "%s", func);
		script[i].result = result;
		script[i].delay_us = delay_us;
	}
	pthread_mutex_unlock(&script_lock);
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts))
		;
}

/* Is the next scripted call this one?  Then sleep and take its result. */
static int scripted(const char *func, int *result)
{
	unsigned int delay = 0;
	int hit = 0;

	pthread_mutex_lock(&script_lock);
	if (script_len && !strcmp(script[script_head].func, func)) {
		*result = script[script_head].result;
		delay = script[script_head].delay_us;
		script_head = (script_head + 1) % MAX_SCRIPT;
		script_len--;
		hit = 1;
	}
	pthread_mutex_unlock(&script_lock);
	if (hit) {
		sleep_us(delay);
		fake_log(func, "scripted result=%d delay_us=%u", *result, delay);
	}
	return hit;
}

#endif /* FAKE_SCRIPT_H */
