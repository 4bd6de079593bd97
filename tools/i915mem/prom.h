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

/* The families, from a snapshot of the procs map and the kernel side's per-driver counters. */
int i915mem_metrics(struct metrics *m, const struct map_snapshot *snap,
		    const struct driver_stats *drivers);

#endif /* I915MEM_PROM_H */
