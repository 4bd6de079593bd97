/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GPU memory per process, from the resource manager's side. Every object
 * an RM_ALLOC made (EV_RM_ALLOC) is kept in a tree by client and parent,
 * as the RM keeps them, so that freeing one (EV_RM_FREE: a memory handle,
 * a device, a whole client) or closing the file its clients came through
 * (EV_RM_CLOSE) frees here what the RM frees with it. The objects of the
 * memory classes carry their size: live bytes and peak per (process,
 * class), allocations, frees, and allocations the RM refused.
 *
 * In user space, not in BPF maps: freeing a parent frees a subtree of
 * unknown size, which a BPF program cannot walk (no loops over a map
 * before 5.13's bpf_for_each_map_elem); allocations are the RM's slow
 * path (an object each, not a call per kernel launch).
 */
#ifndef NVDRV_RM_MEMORY_H
#define NVDRV_RM_MEMORY_H

#include <stdbool.h>
#include <stdio.h>

#include "nvdrv.h"

#define MAX_RM_OBJECTS	65536	/* objects alive at once, all classes */
#define MAX_MEM_ROWS	1024	/* (process, memory class) rows */

/* One (process, memory class): what it allocated, freed, was refused, holds. */
struct mem_row {
	__u32 pid, cls;
	char comm[COMM_LEN];
	__u64 cgroup_id;
	unsigned long long allocs, frees, failed;	/* since the start */
	unsigned long long failed_bytes;		/* what the refused ones asked for */
	unsigned long long live, peak;			/* bytes */
	unsigned long long live_objects;
	unsigned long long prev_allocs, prev_frees, prev_failed, prev_failed_bytes;	/* at the last summary */
};

extern struct mem_row mem_rows[MAX_MEM_ROWS];
extern int nr_mem_rows;
extern unsigned long long dropped_rm_objects;	/* beyond MAX_RM_OBJECTS: not followed */
extern unsigned long long dropped_mem_rows;	/* beyond MAX_MEM_ROWS: not counted */

/* The events that feed the tree. */
static inline bool is_rm_event(__u32 type)
{
	return type == EV_RM_ALLOC || type == EV_RM_FREE || type == EV_RM_CLOSE;
}

/* Whether objects of class `cls` are memory (their RM_ALLOC carries a size). */
bool rm_memory_class(__u32 cls);

/* An EV_RM_ALLOC, EV_RM_FREE or EV_RM_CLOSE event. */
void rm_event(const struct nvdrv_event *e);

/* One memory object alive: for -l. */
struct rm_live {
	const struct mem_row *row;	/* its owner and class */
	__u32 client, handle;
	__u64 size;
};

/* Each memory object alive, in the order they were made. */
void rm_for_each_live(void (*fn)(const struct rm_live *, void *), void *ctx);

/*
 * The (process, class) rows that changed since the last call or hold
 * memory (table "memory"); with live_list, each memory object alive
 * ("memory_live", -l).
 */
void print_rm_memory(FILE *f, bool live_list);

struct metrics;
/* The gpubpf_nvdrv_rm_memory_* families. */
int rm_memory_metrics(struct metrics *m);

#endif /* NVDRV_RM_MEMORY_H */
