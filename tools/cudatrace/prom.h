/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --prometheus: cudatrace's counters since tracing began, from the kernel
 * side's maps (whose counters only grow): calls, errors by result name,
 * bytes and the latency histogram per function, and the allocations
 * outstanding per command name.
 */
#ifndef CUDATRACE_PROM_H
#define CUDATRACE_PROM_H

#include <bpf/libbpf.h>
#include <linux/types.h>

#include "cudatrace/procs.h"
#include "metrics.h"

struct cuda_metrics {
	struct bpf_map *func_stats;	/* __u32 func -> struct func_stats */
	struct bpf_map *errors;		/* struct err_key -> __u64 */
	struct bpf_map *allocs;		/* struct alloc_key -> struct alloc_info */
	struct procs *procs;		/* names an allocation's process */
	/* What a full table or ring had no room for (the kernel side's .bss). */
	const __u64 *dropped_rows, *dropped_allocs, *lost_notices;
};

/* A metrics_fn: ctx is a struct cuda_metrics. */
int write_cuda_metrics(struct metrics *m, void *ctx);

#endif /* CUDATRACE_PROM_H */
