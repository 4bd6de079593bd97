/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdgpucs --prometheus: submissions, IBs, runs and dones per ring and
 * process name, the rings' latency histograms and VM flushes; buffers
 * created, evicted, CPU-visible and misplaced per process name and domain;
 * VM mappings; moves between placements; interrupts per IH client and
 * source. Totals since the tool started.
 */
#ifndef AMDGPUCS_PROM_H
#define AMDGPUCS_PROM_H

#include "amdgpucs.h"
#include "maps.h"
#include "metrics.h"

/*
 * What write_metrics() reads from the skeleton: the kernel side's globals
 * (the rings, the moves) and snapshots of the rows, bo_rows, vm_rows and
 * ivs maps (rows, bo_rows and ivs sorted).
 */
struct amdgpucs_metrics_in {
	const struct ring_info *rings;	/* MAX_RINGS */
	const struct move_stats (*moves)[NR_PLACEMENTS];
	const struct map_snapshot *rows, *bos, *vms, *ivs;
};

/* The families. 0 (an error would be a negative errno). */
int amdgpucs_metrics(struct metrics *m, const struct amdgpucs_metrics_in *in);

#endif /* AMDGPUCS_PROM_H */
