// SPDX-License-Identifier: GPL-2.0
/* i915mem's live bytes per process on the timeline (timeline.h). */
#include <stdio.h>

#include <timeline.h>	/* the common library's: "timeline.h" here is this directory's */

#include "i915mem/timeline.h"
#include "table.h"

#define LIVE_BITS 12	/* (process, driver) pairs drawn */

static struct live {
	__u32 pid;	/* 0: free */
	__u8 driver;
	long long bytes;
} lives[1 << LIVE_BITS];
static unsigned long long not_drawn;

/* The pair's slot: an open-addressed table; NULL when full. */
static struct live *live_of(__u32 pid, __u8 driver)
{
	unsigned int h = (pid * 0x9e3779b1u + driver) & ((1 << LIVE_BITS) - 1), i;

	for (i = 0; i < 1 << LIVE_BITS; i++) {
		struct live *l = &lives[(h + i) & ((1 << LIVE_BITS) - 1)];

		if (l->pid == pid && l->driver == driver)
			return l;
		if (!l->pid) {
			l->pid = pid;
			l->driver = driver;
			return l;
		}
	}
	return NULL;
}

void i915mem_timeline_event(const struct i915mem_event *e, const char *driver)
{
	__u32 pid = e->type == EV_CREATE ? e->pid : e->creator;
	char name[32];
	struct live *l;

	if (!timeline_on() || (e->type != EV_CREATE && e->type != EV_DESTROY) || !pid ||
	    e->size == SIZE_UNKNOWN)
		return;
	l = live_of(pid, e->driver);
	if (!l) {
		not_drawn++;
		return;
	}
	if (e->type == EV_CREATE) {
		/* The creator is the process on the CPU: its track is named by it. */
		timeline_task(pid, e->comm, pid, e->comm);
		l->bytes += e->size;
	} else {
		l->bytes -= e->size;
	}
	snprintf(name, sizeof(name), "%s live bytes", driver);
	timeline_counter(pid, name, e->ts_ns, l->bytes);
}

void i915mem_timeline_report(void)
{
	report_lost("timeline_processes", not_drawn, 1 << LIVE_BITS, "--timeline: %llu object "
		    "events of processes beyond %d not drawn", not_drawn, 1 << LIVE_BITS);
}
