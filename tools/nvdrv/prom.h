/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvdrv --prometheus: ioctls, errors and latency per escape; RM calls by
 * object and status; device nodes' opens, mmaps, faults, polls and
 * mappings; interrupts per GPU and kind; Xids per GPU. Totals since the
 * tool started, from snapshots of the kernel side's maps (sorted).
 */
#ifndef NVDRV_PROM_H
#define NVDRV_PROM_H

#include "nvdrv.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the skeleton: snapshots of its maps, sorted. */
struct nvdrv_metrics_in {
	const struct map_snapshot *calls;	/* per (pid, escape) */
	const struct map_snapshot *rm;		/* rm_rows: RM calls by object and status */
	const struct map_snapshot *devs;	/* dev_rows */
	const struct map_snapshot *irqs;	/* irq_rows */
	const struct map_snapshot *power;	/* power_rows */
};

/* Every family, those of the maps and those counted in user space (Xids, RM memory). */
int nvdrv_metrics(struct metrics *m, const struct nvdrv_metrics_in *in);

#endif /* NVDRV_PROM_H */
