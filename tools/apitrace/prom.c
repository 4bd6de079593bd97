// SPDX-License-Identifier: GPL-2.0
/* The API tracers' metrics (prom.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apitrace/funcs.h"
#include "apitrace/prom.h"
#include "maps.h"
#include "opts.h"

/*
 * The label of a function's API ("driver", "runtime"; the family's category
 * for a family of one): the same name can't be in both, but a query can
 * pick one.
 */
static const char *api_label(__u32 func)
{
	const char *kind = family->libs[func_info(func)->api].kind;

	return kind ? kind : family->category;
}

#define FUNC_LABELS(f) LABELS({ "function", func_name(f) }, { "api", api_label(f) })

struct func_entry {
	__u32 func;
	const struct func_stats *st;
};

static int cmp_func_entry(const void *a, const void *b)
{
	return strcmp(func_name(((const struct func_entry *)a)->func),
		      func_name(((const struct func_entry *)b)->func));
}

static bool moves_memory(__u32 func)
{
	__u8 cls = func_class(func);

	return cls == CL_ALLOC || cls == CL_FREE || cls == CL_COPY;
}

/* Per function, by name: calls, bytes (memory functions), latency. */
static void write_funcs(struct metrics *m, const struct map_snapshot *s)
{
	struct func_entry *fe = calloc(s->n + 1, sizeof(*fe));
	size_t i, n = 0;

	if (!fe)
		return;
	for (i = 0; i < s->n; i++) {
		fe[n].func = *(const __u32 *)snapshot_key(s, i);
		fe[n].st = snapshot_value(s, i);
		n += fe[n].func < (__u32)nr_funcs();
	}
	qsort(fe, n, sizeof(*fe), cmp_func_entry);

	metrics_family(m, "calls_total", METRIC_COUNTER, "Calls returned, per function");
	for (i = 0; i < n; i++)
		metrics_u64(m, FUNC_LABELS(fe[i].func), fe[i].st->calls);
	metrics_family(m, "bytes_total", METRIC_COUNTER,
		       "Bytes allocated, freed or copied by the successful calls of a memory function");
	for (i = 0; i < n; i++)
		if (moves_memory(fe[i].func))
			metrics_u64(m, FUNC_LABELS(fe[i].func), fe[i].st->bytes);
	metrics_family(m, "call_seconds", METRIC_HISTOGRAM, "Call latency, entry to return");
	for (i = 0; i < n; i++)
		metrics_lat_hist(m, FUNC_LABELS(fe[i].func), &fe[i].st->lat, metrics_time_unit());
	free(fe);
}

struct err_entry {
	__u32 func;
	char error[48];
	__u64 count;
};

static int cmp_err_entry(const void *a, const void *b)
{
	const struct err_entry *x = a, *y = b;
	int c = strcmp(func_name(x->func), func_name(y->func));

	return c ? c : strcmp(x->error, y->error);
}

/* Per function and result name: only the results seen, so the labels stay few. */
static void write_errors(struct metrics *m, const struct map_snapshot *s)
{
	struct err_entry *ee = calloc(s->n + 1, sizeof(*ee));
	char res[32], help[128];
	size_t i, n = 0;

	if (!ee)
		return;
	for (i = 0; i < s->n; i++) {
		const struct err_key *k = snapshot_key(s, i);

		if (k->func >= (__u32)nr_funcs())
			continue;
		ee[n].func = k->func;
		/* (The table's name, or "CUresult(999)" made in buf.) */
		snprintf(ee[n].error, sizeof(ee[n].error), "%s",
			 func_result_name(k->func, k->result, res, sizeof(res)));
		ee[n++].count = *(const __u64 *)snapshot_value(s, i);
	}
	qsort(ee, n, sizeof(*ee), cmp_err_entry);
	snprintf(help, sizeof(help), "Calls that returned an error, per function and error (%s%s%s name)",
		 family->libs[API_PRIMARY].result_type, family->nr_libs > 1 ? " or " : "",
		 family->nr_libs > 1 ? family->libs[API_SECONDARY].result_type : "");
	metrics_family(m, "errors_total", METRIC_COUNTER, help);
	for (i = 0; i < n; i++)
		metrics_u64(m, LABELS({ "function", func_name(ee[i].func) },
				      { "api", api_label(ee[i].func) },
				      { "error", ee[i].error }), ee[i].count);
	free(ee);
}

/*
 * The allocations not freed yet, summed per command name (and -C cgroup):
 * a gauge, as a process's allocations go with it when it exits.
 */
static int write_outstanding(struct metrics *m, const struct procs *procs,
			     const struct map_snapshot *s)
{
	struct metrics_rows rows = { .label_names = { "comm", "cgroup" } };
	char comm[COMM_LEN];
	size_t i;
	int err = 0;

	for (i = 0; i < s->n && !err; i++) {
		const struct alloc_key *k = snapshot_key(s, i);
		const struct alloc_info *a = snapshot_value(s, i);
		const char *cg = proc_cgroup(procs, k->pid);
		const char *labels[] = { proc_comm(procs, k->pid, comm), cg ? cg : "" };
		const unsigned long long v[] = { 1, a->size };

		err = metrics_rows_add(&rows, labels, v, 2);
	}
	metrics_rows_family(m, &rows, 0, 1, "outstanding_allocations", METRIC_GAUGE,
			    "Allocations not freed yet, per process name");
	metrics_rows_family(m, &rows, 1, 1, "outstanding_bytes", METRIC_GAUGE,
			    "Bytes of the allocations not freed yet, per process name");
	metrics_rows_free(&rows);
	return err;
}

int apitrace_metrics(struct metrics *m, const struct apitrace_metrics_in *in)
{
	int err;

	write_funcs(m, in->funcs);
	write_errors(m, in->errors);
	err = write_outstanding(m, in->procs, in->allocs);

	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "What a full table had no room for, by table: calls not counted "
		       "(statistics), allocations not tracked, calls not traced (inflight), "
		       "process notices lost");
	metrics_u64(m, LABELS({ "table", "statistics" }), in->dropped_rows);
	metrics_u64(m, LABELS({ "table", "allocations" }), in->dropped_allocs);
	metrics_u64(m, LABELS({ "table", "inflight" }), in->dropped_calls);
	metrics_u64(m, LABELS({ "table", "notices" }), in->lost_notices);
	return err;
}
