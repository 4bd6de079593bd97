// SPDX-License-Identifier: GPL-2.0
/* The report of allocations not freed (leaks.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "apitrace/funcs.h"
#include "apitrace/leaks.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "table.h"
#include "untrusted.h"

struct leak {
	struct alloc_key k;
	struct alloc_info v;
};

static int cmp_leak(const void *a, const void *b)
{
	const struct leak *x = a, *y = b;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	return x->v.ts < y->v.ts ? -1 : x->v.ts > y->v.ts;
}

/*
 * --stack: the allocating stack of k, innermost first, one frame a line
 * in `text` (as printed under the allocation) and ';'-separated in
 * `joined` (the JSON field). false: no stack was recorded.
 */
static bool format_stack(const struct leak_source *src, const struct alloc_key *k, char *text,
			 size_t tsize, char *joined, size_t jsize)
{
	struct alloc_stack st;
	unsigned long delta;
	const char *sym, *file;
	size_t tn = 0, jn = 0;
	char frame[PATH_MAX + 160];
	int i;

	text[0] = joined[0] = '\0';
	if (bpf_map__lookup_elem(src->stacks, k, sizeof(*k), &st, sizeof(st), 0)) {
		snprintf(text, tsize, "      [stack not recorded]\n");
		return false;
	}
	for (i = 0; i < STACK_DEPTH && st.ips[i]; i++) {
		file = NULL;
		sym = syms_cache_resolve(src->procs->syms, k->pid, st.ips[i], &delta, &file);
		if (sym)
			snprintf(frame, sizeof(frame), "%s+0x%lx (%s)", sym, delta, file);
		else
			snprintf(frame, sizeof(frame), "0x%llx (%s)", (unsigned long long)st.ips[i],
				 file ? file : "unknown");
		if (tn < tsize)
			tn += snprintf(text + tn, tsize - tn, "      %s\n", text_safe(frame));
		if (jn < jsize)
			jn += snprintf(joined + jn, jsize - jn, "%s%s", i ? ";" : "", frame);
	}
	return true;
}

/* A process's allocations: one heading in the text, an object in JSON. */
enum { LP_PID, LP_COMM, LP_STATE, LP_ALLOCS, LP_BYTES, LP_CGROUP, NR_LP_COLS };

static const struct column leak_proc_cols[NR_LP_COLS] = {
	[LP_PID] = { "", "pid", 0, COL_JSON_ONLY },
	[LP_COMM] = { "", "comm", 0, COL_JSON_ONLY },
	[LP_STATE] = { "", "state", 0, COL_JSON_ONLY },	/* "exited" or "running" */
	[LP_ALLOCS] = { "", "allocations", 0, COL_JSON_ONLY },
	[LP_BYTES] = { "", "bytes", 0, COL_JSON_ONLY },
	[LP_CGROUP] = { "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },
};
static const struct table leak_proc_table = TABLE("leak_process", leak_proc_cols);

/* Its allocations, indented under the heading; with --stack each one's stack. */
enum {
	LK_PID, LK_COMM, LK_STATE, LK_INDENT, LK_ADDR, LK_BYTES, LK_AGE, LK_FUNC, LK_OBJECT,
	LK_CGROUP, LK_STACK, NR_LK_COLS
};

static const struct column leak_cols[NR_LK_COLS] = {
	[LK_PID] = { "", "pid", 0, COL_JSON_ONLY },
	[LK_COMM] = { "", "comm", 0, COL_JSON_ONLY },
	[LK_STATE] = { "", "state", 0, COL_JSON_ONLY },
	[LK_INDENT] = { "", "", 1, COL_TEXT_ONLY },	/* and the separator: two spaces */
	[LK_ADDR] = { "ADDRESS", "address", -18, 0 },
	[LK_BYTES] = { "BYTES", "bytes", 14, 0 },
	[LK_AGE] = { "AGE(s)", "age_s", 10, 0 },
	[LK_FUNC] = { "FUNCTION", "function", 0, 0 },
	[LK_OBJECT] = { "", "object", 0, COL_JSON_ONLY },	/* the object's type, if one */
	[LK_CGROUP] = { "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },
	[LK_STACK] = { "", "stack", 0, COL_JSON_ONLY },	/* --stack only */
};
static const struct table leak_table = TABLE("leak", leak_cols);
/* Without --stack: no "stack" field. */
static const struct table leak_table_nostack = { "leak", leak_cols, NR_LK_COLS - 1, false };

static struct cell cgroup_cell(const char *name)
{
	return name ? CELL_S(name) : CELL_NONE;
}

/*
 * ", by type: 2 buffer, 1 kernel" of a process's leaks v[0..n) that are
 * objects (api.h's api_func.object), in buf; "" if none are.
 */
static const char *object_counts(const struct leak *v, size_t n, char *buf, size_t size)
{
	const char *types[16];
	size_t counts[16] = { 0 }, nr = 0, i, t, len = 0;

	for (i = 0; i < n; i++) {
		const struct api_func *fi = func_info(v[i].v.func);

		if (!fi || !fi->object)
			continue;
		for (t = 0; t < nr && strcmp(types[t], fi->object); t++)
			;
		if (t == nr && nr < 16)
			types[nr++] = fi->object;
		if (t < nr)
			counts[t]++;
	}
	buf[0] = '\0';
	for (t = 0; t < nr && len < size; t++)
		len += snprintf(buf + len, size - len, "%s%zu %s", t ? ", " : ", by type: ",
				counts[t], types[t]);
	return buf;
}

static void print_leak_proc(FILE *f, __u32 pid, const char *comm, const char *state,
			    size_t allocs, unsigned long long bytes, const char *types,
			    const char *cgroup)
{
	char cg[PATH_MAX + 16] = "";

	if (json_output()) {
		table_row(f, &leak_proc_table, (struct cell[]){
			CELL_U(pid), CELL_S(comm), CELL_S(state), CELL_U(allocs), CELL_U(bytes),
			cgroup_cell(cgroup) });
		return;
	}
	if (cgroup)
		snprintf(cg, sizeof(cg), " (cgroup %s)", cgroup);
	if (!strcmp(state, "exited") && !allocs)
		fprintf(f, "PID %u (%s) exited: no allocations left%s\n", pid, text_safe(comm),
			text_safe(cg));
	else if (!strcmp(state, "exited"))
		fprintf(f, "PID %u (%s) exited: %zu allocations, %llu bytes never freed%s%s\n", pid,
			text_safe(comm), allocs, bytes, types, text_safe(cg));
	else
		fprintf(f, "PID %u (%s): %zu allocations, %llu bytes outstanding%s%s\n", pid,
			text_safe(comm), allocs, bytes, types, text_safe(cg));
}

int print_leaks(const struct leak_source *src, __u32 pid, const char *exit_comm,
		__u64 exit_cgroup, __u64 now)
{
	static char stack_text[STACK_DEPTH * 256], stack_joined[STACK_DEPTH * 256];
	const struct table *lt = src->stacks ? &leak_table : &leak_table_nostack;
	const char *state = exit_comm ? "exited" : "running";
	FILE *f = summary_stream();
	struct map_snapshot s;
	struct leak *v;
	size_t i, j, n = 0;
	char comm[COMM_LEN], addr[24], types[256];
	const char *cgroup = NULL, *name;
	int err;

	err = map_snapshot(src->allocs, &s);
	if (err)
		return err;
	v = calloc(s.n + 1, sizeof(*v));
	if (!v) {
		map_snapshot_free(&s);
		return -ENOMEM;
	}
	for (i = 0; i < s.n; i++) {
		memcpy(&v[n].k, snapshot_key(&s, i), sizeof(v[n].k));
		memcpy(&v[n].v, snapshot_value(&s, i), sizeof(v[n].v));
		if (!pid || v[n].k.pid == pid)
			n++;
	}
	map_snapshot_free(&s);
	qsort(v, n, sizeof(*v), cmp_leak);

	if (exit_comm && common_env.show_cgroup && exit_cgroup && cgroup_v2_mounted())
		cgroup = cgroup_name(exit_cgroup);
	if (exit_comm)
		summary_begin(f);
	if (exit_comm && !n)
		print_leak_proc(f, pid, exit_comm, state, 0, 0, "", cgroup);
	else if (!pid && !n)
		text_printf(f, "no outstanding allocations\n");
	for (i = 0; i < n; i = j) {
		unsigned long long bytes = 0;

		for (j = i; j < n && v[j].k.pid == v[i].k.pid; j++)
			bytes += v[j].v.size;
		name = exit_comm ? exit_comm : proc_comm(src->procs, v[i].k.pid, comm);
		if (!exit_comm)
			cgroup = proc_cgroup(src->procs, v[i].k.pid);
		print_leak_proc(f, v[i].k.pid, name, state, j - i, bytes,
				object_counts(&v[i], j - i, types, sizeof(types)), cgroup);
		table_header(f, lt);
		for (; i < j; i++) {
			bool have_stack = false;

			if (src->stacks)
				have_stack = format_stack(src, &v[i].k, stack_text, sizeof(stack_text),
							  stack_joined, sizeof(stack_joined));
			snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)v[i].k.addr);
			table_row(f, lt, (struct cell[]){
				CELL_U(v[i].k.pid), CELL_S(name), CELL_S(state), CELL_S(""),
				CELL_S(addr), CELL_U(v[i].v.size),
				CELL_F(seconds_since(v[i].v.ts, now), 3),
				CELL_S(func_name(v[i].v.func)),
				func_info(v[i].v.func) && func_info(v[i].v.func)->object ?
					CELL_S(func_info(v[i].v.func)->object) : CELL_NONE,
				cgroup_cell(cgroup), have_stack ? CELL_S(stack_joined) : CELL_NONE });
			if (src->stacks)
				text_printf(f, "%s", stack_text);
		}
	}
	fflush(f);
	free(v);
	return 0;
}

void forget_allocs(const struct leak_source *src, __u32 pid)
{
	struct map_snapshot s;
	size_t i;

	if (map_snapshot(src->allocs, &s))
		return;
	for (i = 0; i < s.n; i++) {
		struct alloc_key *k = snapshot_key(&s, i);

		if (k->pid != pid)
			continue;
		bpf_map__delete_elem(src->allocs, k, sizeof(*k), 0);
		if (src->stacks)
			bpf_map__delete_elem(src->stacks, k, sizeof(*k), 0);
	}
	map_snapshot_free(&s);
}
