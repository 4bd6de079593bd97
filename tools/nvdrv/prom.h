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

/* From the calls and rm_rows maps: per escape and process name; RM calls. */
int ioctl_metrics(struct metrics *m, const struct map_snapshot *calls,
		  const struct map_snapshot *rm, double unit);

/* From the dev_rows and irq_rows maps: device nodes, interrupts. */
int device_metrics(struct metrics *m, const struct map_snapshot *devs,
		   const struct map_snapshot *irqs, double unit);

/* The Xids counted in user space (xids.h). */
void xid_metrics(struct metrics *m);

#endif /* NVDRV_PROM_H */
