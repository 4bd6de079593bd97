/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915mem --prometheus: what the summary keeps per (driver, process),
 * summed per (driver, comm), live counts as gauges, faults by kind, and
 * each driver's event counts and untracked destroys.
 */
#ifndef I915MEM_PROM_H
#define I915MEM_PROM_H

#include "i915mem.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the skeleton. */
struct i915mem_metrics_in {
	const struct map_snapshot *procs;	/* the procs map */
	const struct driver_stats *drivers;	/* the kernel side's, NR_DRIVERS of them */
};

int i915mem_metrics(struct metrics *m, const struct i915mem_metrics_in *in);

#endif /* I915MEM_PROM_H */
