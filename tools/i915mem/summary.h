/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915mem's summary: per process the memory it holds and what it did with
 * it, per address space its bindings, per driver its evictions, moves and
 * the sizes and lifetimes of its objects. Each table shows what changed
 * since the counts keep_tables() kept at the previous summary.
 */
#ifndef I915MEM_SUMMARY_H
#define I915MEM_SUMMARY_H

#include <stdio.h>

#include "i915mem.h"
#include "maps.h"

/* The kernel side counts what was created and destroyed; what is alive is the difference. */
void procs_live(struct map_snapshot *procs);

/*
 * The tables of PROCS (the procs map's rows; sorted here, by live bytes),
 * VMS (the vms map's rows; sorted here, by binds) and DRIVERS (NR_DRIVERS
 * of them, their CPUs' counts summed).
 */
void print_tables(FILE *f, struct map_snapshot *procs, struct map_snapshot *vms,
		  const struct driver_stats *drivers);

/* What the next summary's tables count from: PROCS and VMS taken over, left empty. */
void keep_tables(struct map_snapshot *procs, struct map_snapshot *vms,
		 const struct driver_stats *drivers);

void free_tables(void);

#endif /* I915MEM_SUMMARY_H */
