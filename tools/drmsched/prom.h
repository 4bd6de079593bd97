/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drmsched --prometheus: the counters since start, per ring (jobs,
 * dependencies, wait and execution histograms, queue depths) and per
 * process name on each ring (a process's rows summed by name: labels are
 * never pids), and what the tables had no room for.
 */
#ifndef DRMSCHED_PROM_H
#define DRMSCHED_PROM_H

#include <stdbool.h>
#include <stddef.h>

#include "drmsched.h"
#include "metrics.h"

/* What write_metrics() read from the kernel side's globals. */
struct drmsched_metrics_in {
	const struct ring_info *ring_infos;	/* [nr_rings] */
	const struct ring_stats *ring_stats;
	__u32 nr_rings;
	const __u32 *rings;	/* the rings shown (not left out by -r/-d), by device, then name */
	size_t nr_shown;
	const struct proc_info *proc_infos;	/* [nr_procs] */
	const __u64 *proc_queued;
	const __u64 *proc_wait_sum;
	const struct proc_done_stats *proc_done;
	__u32 nr_procs;
	bool has_blocked;	/* Linux >= 6.17: the events say when a dependency blocked */
	__u64 dropped_jobs, dropped_rings, dropped_procs, dropped_deps;
};

int drmsched_metrics(struct metrics *m, const struct drmsched_metrics_in *in);

#endif /* DRMSCHED_PROM_H */
