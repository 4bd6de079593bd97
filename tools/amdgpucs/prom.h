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

/* What the kernel side keeps in its globals: the rings and the moves. */
struct amdgpucs_state {
	const struct ring_info *rings;	/* MAX_RINGS */
	const struct move_stats (*moves)[NR_PLACEMENTS];
};

/* The families, from snapshots of the rows, bo_rows, vm_rows and ivs maps (sorted). */
void amdgpucs_metrics(struct metrics *m, const struct amdgpucs_state *st,
		      const struct map_snapshot *rows, const struct map_snapshot *bos,
		      const struct map_snapshot *vms, const struct map_snapshot *ivs);

#endif /* AMDGPUCS_PROM_H */
