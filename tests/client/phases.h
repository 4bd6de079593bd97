/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workloads' command line (hip/hipwork, ze/zework; cuda/workload
 * spells its phases out in main(), where gcc inlines them, as the leak
 * stacks cudatrace.sh checks were recorded):
 *
 *   NAME [--wait FILE] PHASE...
 *
 * Each PHASE runs in the order given: one of the program's phases by its
 * name, with the next word for its number where it takes one (0 when there
 * is none); "--wait FILE" (wait.h) and "sleep MS" stand anywhere.  A word
 * that is none of these ends the run with exit status 2.  Define
 * CLIENT_NAME, the program's name for its messages, before including this.
 */
#ifndef CLIENT_PHASES_H
#define CLIENT_PHASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wait.h"

#ifndef CLIENT_NAME
#error "define CLIENT_NAME, the program's name for its messages"
#endif

struct phase {
	const char *name;
	void (*run)(void);
	void (*run_n)(int n);	/* instead of run, for a phase that takes a number */
};

/* 0 once every word ran, 2 at the first that is not a phase. */
static int run_phases(const struct phase *phases, int nr_phases, int argc, char **argv)
{
	const struct phase *ph;
	int i;

	for (i = 1; i < argc; i++) {
		const char *p = argv[i], *next = i + 1 < argc ? argv[i + 1] : "0";

		if (!strcmp(p, "--wait") && i + 1 < argc) {
			wait_for(argv[++i]);
			continue;
		}
		if (!strcmp(p, "sleep")) {
			usleep(atoi(next) * 1000);
			i++;
			continue;
		}
		for (ph = phases; ph < phases + nr_phases && strcmp(p, ph->name); ph++)
			;
		if (ph == phases + nr_phases) {
			fprintf(stderr, CLIENT_NAME ": unknown phase '%s'\n", p);
			return 2;
		}
		if (ph->run_n) {
			ph->run_n(atoi(next));
			i++;
		} else {
			ph->run();
		}
	}
	return 0;
}

#endif /* CLIENT_PHASES_H */
