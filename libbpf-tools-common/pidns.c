// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pidns.h"

#define NR_SLOTS 1024		/* a direct-mapped cache: a clash costs one more read */
#define MAX_AGE_NS 1000000000ULL

static struct {
	unsigned int pid, ns_pid;
	unsigned long long at;
} cache[NR_SLOTS];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* NSpid's last number: "NSpid:\t4242\t7" is 7; 0 when it has one (the host's) or none. */
static unsigned int read_ns_pid(unsigned int pid)
{
	char path[32], line[256];
	unsigned int last = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + 6, *end;

		if (strncmp(line, "NSpid:", 6))
			continue;
		for (;;) {
			unsigned long v = strtoul(p, &end, 10);

			if (end == p)
				break;
			last = v;
			n++;
			p = end;
		}
		break;
	}
	fclose(f);
	return n > 1 && last != pid ? last : 0;
}

unsigned int ns_pid(unsigned int pid)
{
	unsigned long long now = now_ns();
	unsigned int slot = pid % NR_SLOTS;

	if (!pid)
		return 0;
	if (cache[slot].pid != pid || now - cache[slot].at > MAX_AGE_NS) {
		cache[slot].pid = pid;
		cache[slot].ns_pid = read_ns_pid(pid);
		cache[slot].at = now;
	}
	return cache[slot].ns_pid;
}
