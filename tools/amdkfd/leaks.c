// SPDX-License-Identifier: GPL-2.0
/* amdkfd -l: the allocations made while tracing and not freed (leaks.h). */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "amdkfd.h"
#include "exits.h"
#include "kfd_names.h"
#include "leaks.h"
#include "output.h"
#include "table.h"

static const struct column process_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "EXITED", "exited", -6, 0 },
	{ "ALLOCS", "allocs", 7, 0 },
	{ "BYTES", "bytes", 12, 0 },
};
static const struct table process_table = TABLE("leak_process", process_cols);

static const struct column leak_cols[] = {
	PID_COLUMN,
	{ "HANDLE", "handle", -14, 0 },
	{ "GPU", "gpu", -6, 0 },
	{ "FLAGS", "flags", -28, 0 },
	{ "BYTES", "bytes", 12, 0 },
	{ "AGE(s)", "age_s", 9, 0 },
};
static const struct table leak_table = TABLE("leak", leak_cols);

static int cmp_bo(const void *a, const void *b)
{
	const struct bo_key *x = a, *y = b;
	const struct bo *bx = (const void *)(x + 1), *by = (const void *)(y + 1);

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->started != y->started)
		return x->started < y->started ? -1 : 1;
	if (bx->ts_ns != by->ts_ns)
		return bx->ts_ns < by->ts_ns ? -1 : 1;
	return x->handle < y->handle ? -1 : x->handle > y->handle;
}

static const char *name_of(const struct bo_key *k, const struct map_snapshot *calls)
{
	size_t i;

	for (i = 0; i < calls->n; i++) {
		const struct call_key *c = snapshot_key(calls, i);

		if (c->pid == k->pid && c->started == k->started)
			return ((const struct call_stats *)snapshot_value(calls, i))->comm;
	}
	return "?";
}

/* Its exit seen, or (a process the kernel side lost track of) its pid unused. */
static bool exited(const struct bo_key *k)
{
	return exits_has(k->pid, k->started) || (kill(k->pid, 0) && errno == ESRCH);
}

static bool same_proc(const struct bo_key *a, const struct bo_key *b)
{
	return a->pid == b->pid && a->started == b->started;
}

void print_leaks(FILE *f, struct bpf_map *bos, const struct map_snapshot *calls)
{
	unsigned long long now;
	struct map_snapshot snap;
	char handle[24], flags[128];
	size_t i, j;

	if (map_snapshot(bos, &snap))
		return;
	now = monotonic_ns();
	/* Sorted by process, then age: key and value are adjacent in a snapshot. */
	map_snapshot_sort(&snap, cmp_bo);
	if (snap.n) {
		text_printf(f, "\n");
		table_header(f, &process_table);
	}
	for (i = 0; i < snap.n; i = j) {
		const struct bo_key *proc = snapshot_key(&snap, i);
		unsigned long long bytes = 0;

		for (j = i; j < snap.n && same_proc(snapshot_key(&snap, j), proc); j++)
			bytes += ((const struct bo *)snapshot_value(&snap, j))->size;
		table_row(f, &process_table, (struct cell[]){
			CELL_U(proc->pid), CELL_S(name_of(proc, calls)), CELL_B(exited(proc)),
			CELL_U(j - i), CELL_U(bytes) });
	}
	if (snap.n) {
		text_printf(f, "\n");
		table_header(f, &leak_table);
	}
	for (i = 0; i < snap.n; i = j) {
		const struct bo_key *proc = snapshot_key(&snap, i);
		__u32 pid = proc->pid;

		for (j = i; j < snap.n && same_proc(snapshot_key(&snap, j), proc); j++) {
			const struct bo_key *k = snapshot_key(&snap, j);
			const struct bo *bo = snapshot_value(&snap, j);

			if (j - i >= MAX_LEAKS_LISTED)
				continue;
			snprintf(handle, sizeof(handle), "0x%llx", (unsigned long long)k->handle);
			kfd_alloc_flags_str(flags, sizeof(flags), bo->flags);
			table_row(f, &leak_table, (struct cell[]){
				CELL_U(pid), CELL_S(handle), CELL_U(bo->gpu_id), CELL_S(flags),
				CELL_U(bo->size), CELL_F(seconds_since(bo->ts_ns, now), 3) });
		}
		if (j - i > MAX_LEAKS_LISTED)
			report_lost("leaks_listed", j - i - MAX_LEAKS_LISTED, MAX_LEAKS_LISTED,
				    "pid %u: %zu more allocations not listed", pid,
				    j - i - MAX_LEAKS_LISTED);
	}
	map_snapshot_free(&snap);
}
