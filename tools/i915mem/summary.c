// SPDX-License-Identifier: GPL-2.0
/* i915mem's summary tables, each what changed since the previous summary (summary.h). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "i915mem.h"
#include "cgroup.h"
#include "histogram.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "table.h"
#include "i915mem/leaks.h"
#include "i915mem/names.h"
#include "i915mem/summary.h"

/* The counts at the previous summary. */
static struct map_snapshot prev_procs, prev_vms;
static struct driver_stats prev_drivers[NR_DRIVERS];

void procs_live(struct map_snapshot *procs)
{
	size_t i;

	for (i = 0; i < procs->n; i++) {
		struct proc_stats *p = (void *)((char *)procs->values + i * procs->value_size);

		p->live = (__s64)(p->created - p->destroyed);
		p->live_bytes = (__s64)(p->created_bytes - p->destroyed_bytes);
	}
}

static int cmp_live_bytes(const void *a, const void *b)
{
	const struct proc_stats *pa = (const void *)((const char *)a + sizeof(struct proc_key));
	const struct proc_stats *pb = (const void *)((const char *)b + sizeof(struct proc_key));
	const struct proc_key *ka = a, *kb = b;

	if (pa->live_bytes != pb->live_bytes)
		return pa->live_bytes > pb->live_bytes ? -1 : 1;
	return ka->pid < kb->pid ? -1 : ka->pid > kb->pid;
}

static const struct column memory_cols[] = {
	{ "DRIVER", "driver", -6, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "LIVE", "live", 8, 0 },
	{ "LIVE_BYTES", "live_bytes", 12, 0 },
	{ "PEAK_BYTES", "peak_bytes", 12, 0 },
	{ "CREATED", "created", 8, 0 },
	{ "CREATED_B", "created_bytes", 12, 0 },
	{ "DESTROYED", "destroyed", 9, 0 },
	{ "DESTROYED_B", "destroyed_bytes", 12, 0 },
	CGROUP_COLUMN,
};
static const struct table memory_table = TABLE("memory", memory_cols);

static void print_memory(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct proc_key *k = snapshot_key(s, i);
		const struct proc_stats *p = snapshot_value(s, i);
		const struct proc_stats *was = map_snapshot_find(&prev_procs, k);

		if (!p->live && !DELTA(p, was, created) && !DELTA(p, was, destroyed))
			continue;
		if (!header) {
			table_header(f, &memory_table);
			header = true;
		}
		table_row(f, &memory_table, (struct cell[]){
			CELL_S(driver_names[k->driver % NR_DRIVERS]), CELL_U(k->pid), CELL_S(p->comm),
			CELL_I(p->live), CELL_I(p->live_bytes), CELL_I(p->peak_bytes),
			CELL_U(DELTA(p, was, created)), CELL_U(DELTA(p, was, created_bytes)),
			CELL_U(DELTA(p, was, destroyed)), CELL_U(DELTA(p, was, destroyed_bytes)),
			cell_cgroup(p->cgroup_id) });
	}
	if (!header)
		text_printf(f, "no objects created or alive\n");
}

static const struct column activity_cols[] = {
	{ "DRIVER", "driver", -6, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "BINDS", "binds", 7, 0 },
	{ "UNBINDS", "unbinds", 7, 0 },
	{ "REBINDS", "rebinds", 7, 0 },
	{ "GTT_RD", "gtt_rd_faults", 7, 0 },
	{ "GTT_WR", "gtt_wr_faults", 7, 0 },
	{ "CPU_RD", "cpu_rd_faults", 7, 0 },
	{ "CPU_WR", "cpu_wr_faults", 7, 0 },
	{ "CPU_ANY", "cpu_any_faults", 7, 0 },
	{ "GPU_PF", "gpu_faults", 7, 0 },
	{ "PREAD_B", "pread_bytes", 12, 0 },
	{ "PWRITE_B", "pwrite_bytes", 12, 0 },
	{ "", "preads", 0, COL_JSON_ONLY },
	{ "", "pwrites", 0, COL_JSON_ONLY },
	CGROUP_COLUMN,
};
static const struct table activity_table = TABLE("activity", activity_cols);

static void print_activity(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct proc_key *k = snapshot_key(s, i);
		const struct proc_stats *p = snapshot_value(s, i);
		const struct proc_stats *was = map_snapshot_find(&prev_procs, k);
		unsigned long long faults[NR_FAULT_KINDS], any = 0;
		int j;

		for (j = 0; j < NR_FAULT_KINDS; j++)
			any |= faults[j] = DELTA(p, was, faults[j]);
		if (!DELTA(p, was, binds) && !DELTA(p, was, unbinds) && !any &&
		    !DELTA(p, was, preads) && !DELTA(p, was, pwrites))
			continue;
		table_header_once(f, &activity_table, &header);
		table_row(f, &activity_table, (struct cell[]){
			CELL_S(driver_names[k->driver % NR_DRIVERS]), CELL_U(k->pid), CELL_S(p->comm),
			CELL_U(DELTA(p, was, binds)), CELL_U(DELTA(p, was, unbinds)),
			CELL_U(DELTA(p, was, rebinds)), CELL_U(faults[FAULT_GTT]),
			CELL_U(faults[FAULT_GTT | FAULT_WRITE]), CELL_U(faults[0]),
			CELL_U(faults[FAULT_WRITE]), CELL_U(faults[FAULT_CPU_ANY]),
			CELL_U(faults[FAULT_GPU]), CELL_U(DELTA(p, was, pread_bytes)),
			CELL_U(DELTA(p, was, pwrite_bytes)), CELL_U(DELTA(p, was, preads)),
			CELL_U(DELTA(p, was, pwrites)), cell_cgroup(p->cgroup_id) });
	}
}

static int cmp_vm(const void *a, const void *b)
{
	const struct vm_stats *va = (const void *)((const char *)a + sizeof(__u64));
	const struct vm_stats *vb = (const void *)((const char *)b + sizeof(__u64));

	if (va->binds != vb->binds)
		return va->binds > vb->binds ? -1 : 1;
	return *(const __u64 *)a < *(const __u64 *)b ? -1 : *(const __u64 *)a > *(const __u64 *)b;
}

static const struct column vm_cols[] = {
	{ "DRIVER", "driver", -6, 0 },
	{ "ADDRESS_SPACE", "address_space", -18, 0 },
	PID_COLUMN,		/* its creator (or first binder) */
	{ "COMM", "comm", -16, 0 },
	{ "BINDS", "binds", 7, 0 },
	{ "UNBINDS", "unbinds", 7, 0 },
	{ "REBINDS", "rebinds", 7, 0 },
	{ "BOUND_B", "bound_bytes", 12, 0 },
	{ "EVICTS", "", 7, COL_TEXT_ONLY },	/* "N", or "N (freed)" */
	{ "", "evictions", 0, COL_JSON_ONLY },
	{ "", "freed", 0, COL_JSON_ONLY },	/* true: released while tracing */
	CGROUP_COLUMN,
};
static const struct table vm_table = TABLE("address_space", vm_cols);

static void print_vms(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		__u64 vm = *(__u64 *)snapshot_key(s, i);
		const struct vm_stats *v = snapshot_value(s, i);
		const struct vm_stats *was = map_snapshot_find(&prev_vms, &vm);
		unsigned long long evictions;
		char addr[24], evicts[40];

		/* Another address space at the same address since: all its counts are new. */
		if (was && was->generation != v->generation)
			was = NULL;
		evictions = DELTA(v, was, evictions);

		if (!DELTA(v, was, binds) && !DELTA(v, was, unbinds) && !evictions)
			continue;
		table_header_once(f, &vm_table, &header);
		snprintf(evicts, sizeof(evicts), "%7llu%s", evictions, v->freed ? " (freed)" : "");
		table_row(f, &vm_table, (struct cell[]){
			CELL_S(driver_names[v->driver % NR_DRIVERS]), cell_hex(addr, sizeof(addr), vm),
			CELL_U(v->pid), CELL_S(v->comm), CELL_U(DELTA(v, was, binds)),
			CELL_U(DELTA(v, was, unbinds)), CELL_U(DELTA(v, was, rebinds)),
			CELL_U(DELTA(v, was, bind_bytes)), CELL_S(evicts), CELL_U(evictions),
			CELL_B(v->freed), cell_cgroup(v->cgroup_id) });
	}
}


static const struct column evict_cols[] = {
	PROSE,
	FIELD("driver"),
	FIELD("evictions"),		/* i915_gem_evict; xe: bindings evicted */
	FIELD("evict_bytes"),		/* room asked for; xe: bytes of those bindings */
	FIELD("range_evictions"),	/* i915_gem_evict_node (i915 only) */
	FIELD("range_bytes"),
	FIELD("vm_evictions"),		/* i915_gem_evict_vm (i915 only) */
	FIELD("shrink_requests"),	/* i915_gem_shrink (i915 only) */
	FIELD("shrink_target_pages"),
	FIELD("shrink_target_bytes"),
};
static const struct table evict_table = TABLE("evictions", evict_cols);

static const struct column move_cols[] = {
	PROSE, FIELD("driver"), FIELD("moves"), FIELD("move_bytes"),
};
static const struct table move_table = TABLE("moves", move_cols);

static const struct column untracked_cols[] = {
	PROSE, FIELD("driver"), FIELD("objects"),
};
static const struct table untracked_table = TABLE("untracked_destroys", untracked_cols);

static const struct column driver_hist_cols[] = {
	{ "DRIVER", "driver", 0, 0 },
};
static const struct table driver_hist_table = TABLE("driver_hist", driver_hist_cols);

static void print_driver(FILE *f, const struct driver_stats *drivers, int d)
{
	const struct driver_stats *now = &drivers[d], *was = &prev_drivers[d];
	const char *name = driver_names[d];
	unsigned long long ev[NR_EVENT_TYPES], pages, bytes, untracked;
	__u32 sizes[MAX_SLOTS], lives[MAX_SLOTS];
	long page_size = sysconf(_SC_PAGESIZE);
	char line[320], title[96];
	int i;

	for (i = 0; i < NR_EVENT_TYPES; i++)
		ev[i] = now->events[i] - was->events[i];
	pages = now->shrink_pages - was->shrink_pages;
	bytes = now->evict_bytes - was->evict_bytes;
	if (d == DRV_XE && ev[EV_EVICT]) {
		snprintf(line, sizeof(line), "%s: evictions: %llu bindings evicted (%llu bytes)", name,
			 ev[EV_EVICT], bytes);
		text_printf(f, "\n");
		table_row(f, &evict_table, (struct cell[]){
			CELL_S(line), CELL_S(name), CELL_U(ev[EV_EVICT]), CELL_U(bytes), CELL_NONE,
			CELL_NONE, CELL_NONE, CELL_NONE, CELL_NONE, CELL_NONE });
	} else if (ev[EV_EVICT] || ev[EV_EVICT_NODE] || ev[EV_EVICT_VM] || ev[EV_SHRINK]) {
		unsigned long long node_bytes = now->evict_node_bytes - was->evict_node_bytes;

		snprintf(line, sizeof(line), "%s: evictions: %llu for room (%llu bytes asked), %llu of "
			 "ranges (%llu bytes), %llu of whole address spaces; shrinker: %llu requests, "
			 "target %llu pages (%llu bytes)", name, ev[EV_EVICT], bytes, ev[EV_EVICT_NODE],
			 node_bytes, ev[EV_EVICT_VM], ev[EV_SHRINK], pages, pages * page_size);
		text_printf(f, "\n");
		table_row(f, &evict_table, (struct cell[]){
			CELL_S(line), CELL_S(name), CELL_U(ev[EV_EVICT]), CELL_U(bytes),
			CELL_U(ev[EV_EVICT_NODE]), CELL_U(node_bytes), CELL_U(ev[EV_EVICT_VM]),
			CELL_U(ev[EV_SHRINK]), CELL_U(pages), CELL_U(pages * page_size) });
	}
	if (ev[EV_MOVE]) {
		bytes = now->move_bytes - was->move_bytes;
		snprintf(line, sizeof(line), "%s: %llu buffer moves between placements, %llu bytes",
			 name, ev[EV_MOVE], bytes);
		text_printf(f, "\n");
		table_row(f, &move_table, (struct cell[]){
			CELL_S(line), CELL_S(name), CELL_U(ev[EV_MOVE]), CELL_U(bytes) });
	}
	untracked = now->untracked_destroys - was->untracked_destroys;
	if (untracked) {
		snprintf(line, sizeof(line), "%s: %llu objects destroyed whose creation was not traced "
			 "(created before tracing began, imported, or userptr)", name, untracked);
		text_printf(f, "\n");
		table_row(f, &untracked_table, (struct cell[]){
			CELL_S(line), CELL_S(name), CELL_U(untracked) });
	}
	for (i = 0; i < MAX_SLOTS; i++) {
		sizes[i] = now->size_slots[i] - was->size_slots[i];
		lives[i] = now->life_slots[i] - was->life_slots[i];
	}
	if (ev[EV_CREATE]) {
		snprintf(title, sizeof(title), "%s: sizes of the objects created:", name);
		table_log2_hist(f, &driver_hist_table, (struct cell[]){ CELL_S(name) }, "size", title,
				sizes, MAX_SLOTS, "bytes");
	}
	if (ev[EV_DESTROY]) {
		snprintf(title, sizeof(title), "%s: lifetimes of the objects destroyed (create -> "
			 "destroy):", name);
		table_log2_hist(f, &driver_hist_table, (struct cell[]){ CELL_S(name) }, "lifetime",
				title, lives, MAX_SLOTS, time_unit());
	}
}

void print_tables(FILE *f, struct map_snapshot *procs, struct map_snapshot *vms,
		  const struct driver_stats *drivers)
{
	int d;

	map_snapshot_sort(procs, cmp_live_bytes);
	map_snapshot_sort(vms, cmp_vm);
	print_memory(f, procs);
	print_activity(f, procs);
	print_vms(f, vms);
	for (d = 0; d < NR_DRIVERS; d++)
		print_driver(f, drivers, d);
}

void keep_tables(struct map_snapshot *procs, struct map_snapshot *vms,
		 const struct driver_stats *drivers)
{
	free_tables();
	prev_procs = *procs;
	prev_vms = *vms;
	*procs = (struct map_snapshot){};
	*vms = (struct map_snapshot){};
	memcpy(prev_drivers, drivers, sizeof(prev_drivers));
}

void free_tables(void)
{
	map_snapshot_free(&prev_procs);
	map_snapshot_free(&prev_vms);
}
