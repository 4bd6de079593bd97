// SPDX-License-Identifier: GPL-2.0
/* i915mem -l: the objects created while tracing and still alive, per creating process (leaks.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i915mem.h"
#include "maps.h"
#include "output.h"
#include "runtime.h"
#include "table.h"
#include "i915mem/leaks.h"
#include "i915mem/names.h"
#include "untrusted.h"

#define MAX_LEAKS_LISTED 50	/* objects listed per process; the rest counted */

/* Is `pid` still the process that was called `comm`? */
static bool process_alive(__u32 pid, const char *comm)
{
	char now[COMM_LEN + 1];

	if (!proc_comm_read(pid, now, sizeof(now)))
		return false;
	return !strncmp(now, comm, COMM_LEN - 1);
}

struct leak {
	__u64 obj;
	struct gem_obj o;
};

static int cmp_leak(const void *a, const void *b)
{
	const struct leak *x = a, *y = b;

	if (x->o.driver != y->o.driver)
		return x->o.driver < y->o.driver ? -1 : 1;
	if (x->o.pid != y->o.pid)
		return x->o.pid < y->o.pid ? -1 : 1;
	if (x->o.created_ns != y->o.created_ns)
		return x->o.created_ns < y->o.created_ns ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* The creator's row in `procs` (its comm and cgroup), NULL if it had none. */
static const struct proc_stats *proc_of(const struct map_snapshot *procs, __u32 pid, __u32 driver)
{
	struct proc_key k = { .pid = pid, .driver = driver };
	size_t i;

	for (i = 0; i < procs->n; i++)
		if (!memcmp(snapshot_key(procs, i), &k, sizeof(k)))
			return snapshot_value(procs, i);
	return NULL;
}

static const struct column leaks_cols[] = {
	PROSE, FIELD("objects"), FIELD("bytes"),
};
static const struct table leaks_table = TABLE("leaks", leaks_cols);

static const struct column leak_proc_cols[] = {
	PROSE,				/* "i915 PID 139 (glxgears) exited: 4 objects, 262144 bytes" */
	FIELD("driver"),
	FIELD("pid"),
	FIELD("comm"),
	FIELD("exited"),		/* true: no process of that PID and name now */
	FIELD("objects"),
	FIELD("bytes"),
	{ "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },	/* text: in the sentence */
};
static const struct table leak_proc_table = TABLE("leak_process", leak_proc_cols);

/* "    0x%-16llx %12llu bytes  age %.3f s": columns, the words between them text-only. */
static const struct column leak_cols[] = {
	{ "", "", 3, COL_TEXT_ONLY },	/* the indent: 3 spaces and the separator */
	{ "OBJECT", "object", -18, 0 },
	{ "BYTES", "bytes", 12, 0 },
	{ "", "", -6, COL_TEXT_ONLY },	/* "bytes", padded: the two spaces before "age" */
	{ "", "", 0, COL_TEXT_ONLY },	/* "age" */
	{ "AGE", "age_s", 0, 0 },
	{ "", "", 0, COL_TEXT_ONLY },	/* "s" */
	FIELD("driver"),		/* its creator's */
	FIELD("pid"),
	FIELD("comm"),
	{ "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },
};
static const struct table leak_table = TABLE("leak", leak_cols);

void print_leaks(FILE *f, const struct map_snapshot *procs, struct bpf_map *objects)
{
	struct map_snapshot objs = {};
	unsigned long long now = monotonic_ns(), bytes, total = 0;
	char line[256], cg[160] = "", addr[24];
	struct leak *leaks;
	size_t i, j, n = 0, first;
	int err;

	err = map_snapshot(objects, &objs);
	if (err) {
		fprintf(stderr, "i915mem: failed to read the objects: %s\n", strerror(-err));
		return;
	}
	leaks = calloc(objs.n + 1, sizeof(*leaks));
	for (i = 0; leaks && i < objs.n; i++) {
		const struct gem_obj *o = snapshot_value(&objs, i);

		if (o->preexisting)
			continue;
		leaks[n].obj = *(__u64 *)snapshot_key(&objs, i);
		leaks[n++].o = *o;
		total += o->size;
	}
	qsort(leaks, n, sizeof(*leaks), cmp_leak);
	snprintf(line, sizeof(line), "Objects alive (created while tracing, not destroyed): %zu", n);
	text_printf(f, "\n");
	table_row(f, &leaks_table, (struct cell[]){ CELL_S(line), CELL_U(n), CELL_U(total) });
	for (first = 0; first < n; first = j) {
		const struct gem_obj *o = &leaks[first].o;
		const struct proc_stats *p = proc_of(procs, o->pid, o->driver);
		const char *comm = p ? p->comm : "?", *drv = driver_names[o->driver % NR_DRIVERS];
		struct cell cgroup = p ? cell_cgroup(p->cgroup_id) : CELL_NONE;
		bool exited = !process_alive(o->pid, comm);

		bytes = 0;
		for (j = first; j < n && leaks[j].o.pid == o->pid && leaks[j].o.driver == o->driver; j++)
			bytes += leaks[j].o.size;
		if (cgroup.kind == CELL_STR)
			snprintf(cg, sizeof(cg), ", cgroup %s", cgroup.s);
		snprintf(line, sizeof(line), "%s PID %u (%s)%s: %zu objects, %llu bytes%s", drv, o->pid,
			 comm, exited ? " exited" : "", j - first, bytes, cg);
		table_row(f, &leak_proc_table, (struct cell[]){
			CELL_S(line), CELL_S(drv), CELL_U(o->pid), CELL_S(comm), CELL_B(exited),
			CELL_U(j - first), CELL_U(bytes), cgroup });
		for (i = first; i < j && i < first + MAX_LEAKS_LISTED; i++)
			table_row(f, &leak_table, (struct cell[]){
				CELL_S(""), cell_hex(addr, sizeof(addr), leaks[i].obj),
				CELL_U(leaks[i].o.size), CELL_S("bytes"), CELL_S("age"),
				CELL_F(seconds_since(leaks[i].o.created_ns, now), 3), CELL_S("s"), CELL_S(drv),
				CELL_U(o->pid), CELL_S(comm), cgroup });
		if (j - first > MAX_LEAKS_LISTED) {
			text_printf(f, "    (%zu more)\n", j - first - MAX_LEAKS_LISTED);
			json_lost("leaks_listed", j - first - MAX_LEAKS_LISTED, MAX_LEAKS_LISTED);
		}
	}
	free(leaks);
	map_snapshot_free(&objs);
}
