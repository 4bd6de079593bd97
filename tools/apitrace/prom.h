/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --prometheus: the tool's counters since tracing began, from the kernel
 * side's maps (whose counters only grow): calls, errors by result name,
 * bytes and the latency histogram per function, and the allocations
 * outstanding per command name.
 */
#ifndef APITRACE_PROM_H
#define APITRACE_PROM_H

#include <bpf/libbpf.h>
#include <linux/types.h>

#include "apitrace/procs.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the skeleton. */
struct apitrace_metrics_in {
	const struct map_snapshot *funcs;	/* func_stats: __u32 func -> struct func_stats */
	const struct map_snapshot *errors;	/* struct err_key -> __u64 */
	const struct map_snapshot *allocs;	/* struct alloc_key -> struct alloc_info */
	const struct procs *procs;		/* names an allocation's process */
	/* What a full table or ring had no room for (the kernel side's .bss). */
	__u64 dropped_rows, dropped_allocs, dropped_calls, lost_notices;
};

int apitrace_metrics(struct metrics *m, const struct apitrace_metrics_in *in);

#endif /* APITRACE_PROM_H */
