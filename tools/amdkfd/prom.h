/* SPDX-License-Identifier: GPL-2.0 */
/* amdkfd --prometheus: calls, errors, memory, queues and evictions per comm. */
#ifndef AMDKFD_PROM_H
#define AMDKFD_PROM_H

#include "amdkfd.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the skeleton. */
struct amdkfd_metrics_in {
	const struct map_snapshot *calls;	/* call_key -> call_stats */
	const struct map_snapshot *errs;	/* err_key -> err_stats */
	const struct map_snapshot *mem;		/* mem_key -> mem_stats */
	const struct map_snapshot *queues;	/* queue_key -> queue_stats */
	const struct map_snapshot *procs;	/* proc_key -> proc_stats */
	unsigned long long vm_faults, gpu_resets, dropped;
};

/* The families. 0 or a negative errno. */
int amdkfd_metrics(struct metrics *m, const struct amdkfd_metrics_in *in);

#endif /* AMDKFD_PROM_H */
