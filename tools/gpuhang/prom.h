/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gpuhang --prometheus: incidents per kind, driver, device, ring and the
 * process name of the job blamed; recoveries and their jobs per ring; what
 * the tables had no room for.
 */
#ifndef GPUHANG_PROM_H
#define GPUHANG_PROM_H

#include "gpuhang.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the kernel side. */
struct gpuhang_metrics_in {
	const struct map_snapshot *rings;	/* sched -> struct ring_state */
	const struct map_snapshot *culprits;	/* struct culprit_key -> struct culprit_stats */
	struct ring_state (*ring_at)(__u32 idx);	/* a rings row by index */
	__u64 dropped_jobs, dropped_rings;
};

int gpuhang_metrics(struct metrics *m, const struct gpuhang_metrics_in *in);

#endif /* GPUHANG_PROM_H */
