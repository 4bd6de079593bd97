// SPDX-License-Identifier: GPL-2.0
/*
 * The engine's main loop (run.h): the compute-API tracers' calls,
 * latencies, errors, kernel launches and leaked allocations.
 *
 * Probes the family's libraries (libs.c) where the traced process really
 * has them mapped, every exported version of each known function
 * (api.h's table).  The kernel side decodes the arguments and results and
 * aggregates them in maps whose counters only grow: each summary prints
 * what they gained since the previous one.  Per-call lines are produced
 * only with -e / -E (calls.c); --leaks reports what was never freed
 * (leaks.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apitrace.h"
#include "apitrace.skel.h"
#include "apitrace/builds.h"
#include "apitrace/calls.h"
#include "apitrace/funcs.h"
#include "apitrace/leaks.h"
#include "apitrace/libs.h"
#include "apitrace/probes.h"
#include "apitrace/procs.h"
#include "apitrace/prom.h"
#include "apitrace/run.h"
#include "apitrace/unfinished.h"
#include "cgroup.h"
#include "histogram.h"
#include "maps.h"
#include "metrics.h"
#include "output.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"
#include "uprobe_helpers.h"

struct apitrace_env apitrace_env;

static struct api_libs libs;	/* the files probed, and their functions */
static struct apitrace_bpf *bpf;	/* the skeleton of bpf/apitrace.bpf.c */
static struct probes probes;	/* on their functions */
static struct bpf_link *exit_link;
static struct procs procs;	/* naming them, and their kernels */
static struct leak_source leak_src;
static struct ring_buffer *drain_rb;	/* call records only (-e, -E) */
static struct ring_buffer *notices_rb;	/* the tracing loop's: notices (and records) */

/*
 * The previous summary's copies of the statistics maps: the kernel side's
 * counters only grow, each summary prints the difference (lossless: a
 * lookup-then-delete would lose what lands in between).
 */
enum { S_FUNCS, S_ERRORS, S_LAUNCHES, S_BUILDS, S_KTIMES, NR_SNAPS };
/* Those whose keys start with a PID: a process's rows, forgotten after its exit. */
#define S_FIRST_PER_PROC S_LAUNCHES
static struct map_snapshot prev[NR_SNAPS];

static const struct argp_option opts[] = {
	{ "errors", 'E', NULL, 0, "Print one line per failing call only", 0 },
	{ "leaks", 'l', NULL, 0, "Report allocations not freed (at process exit, each interval, or the end)", 0 },
	{ "stack", 's', NULL, 0, "With --leaks: the user stack of each allocation", 0 },
	{ "lib", 'L', "PATH", 0, "Probe this library or executable instead of looking for one (repeatable)", 0 },
	{ "function", 'f', "PATTERN", 0,
	  "Also probe the exported functions matching PATTERN (a shell glob; repeatable): kernels "
	  "without multi-uprobe links probe only the functions whose arguments are read, by default", 0 },
	{},
};

/* A repeatable option's value: not empty, at most `max` of them. */
static void add_repeated(struct argp_state *state, const char *arg, const char **list, int *n,
			 int max, const char *what, const char *opt)
{
	if (!*arg)
		argp_failure(state, argp_err_exit_status, 0, "invalid %s ''", what);
	if (*n == max)
		argp_failure(state, argp_err_exit_status, 0, "too many %s (at most %d)", opt, max);
	list[(*n)++] = arg;
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	struct apitrace_env *env = &apitrace_env;

	switch (key) {
	case 'E':	/* -e, the failing calls only */
		env->errors = true;
		common_env.events = true;
		break;
	case 'l':
		env->leaks = true;
		break;
	case 's':
		env->stacks = true;
		break;
	case 'L': {
		struct stat st;

		/* A FIFO or a device would block or mislead the ELF reader: files only. */
		if (!stat(arg, &st) && !S_ISREG(st.st_mode))
			argp_failure(state, argp_err_exit_status, 0,
				     "-L %s: not a regular file (a library or an executable)",
				     arg_shown(arg));
		add_repeated(state, arg, env->libs, &env->nr_libs, MAX_LIBS, "library path", "--lib");
		break;
	}
	case 'f':
		add_repeated(state, arg, env->patterns, &env->nr_patterns, MAX_PATTERNS,
			     "function pattern", "-f");
		break;
	case ARGP_KEY_END:
		if (env->stacks && !env->leaks)
			argp_failure(state, argp_err_exit_status, 0, "--stack needs --leaks");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp apitrace_argp = {
	.options = opts,
	.parser = parse_arg,
};

static struct cell cgroup_cell(const char *name)
{
	return name ? CELL_S(name) : CELL_NONE;
}

/* ---- Summary -------------------------------------------------------------- */

/* A function's row: what its counters gained since the previous summary. */
struct func_row {
	__u32 func;
	struct func_stats st;
};

static int cmp_func_row(const void *a, const void *b)
{
	const struct func_row *x = a, *y = b;

	if (x->st.total_ns != y->st.total_ns)
		return x->st.total_ns > y->st.total_ns ? -1 : 1;
	return strcmp(func_name(x->func), func_name(y->func));
}

static const struct column func_cols[] = {
	{ "FUNCTION", "function", -26, 0 },
	{ "CALLS", "calls", 8, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "TOTAL", "total", 13, COL_TIME },
	{ "AVG", "avg", 11, COL_TIME },
	{ "BYTES", "bytes", 16, 0 },	/* memory functions only */
};
static const struct table func_table = TABLE("function", func_cols);
static const struct table func_hist_table = { "function_hist", func_cols, 1, false };

/*
 * The functions called since the previous summary, busiest first (by total
 * time); *n of them.  A row whose counters did not move is left out.
 */
static struct func_row *func_rows(const struct map_snapshot *s, size_t *n)
{
	struct func_row *rows = calloc(s->n + 1, sizeof(*rows));
	size_t i;

	*n = 0;
	if (!rows)
		return NULL;
	for (i = 0; i < s->n; i++) {
		const __u32 *func = snapshot_key(s, i);
		const struct func_stats *now = snapshot_value(s, i);
		const struct func_stats *was = map_snapshot_find(&prev[S_FUNCS], func);
		struct func_row *r = &rows[*n];

		r->func = *func;
		r->st.calls = DELTA(now, was, calls);
		r->st.errors = DELTA(now, was, errors);
		r->st.bytes = DELTA(now, was, bytes);
		r->st.total_ns = DELTA(now, was, total_ns);
		lat_hist_delta(&r->st.lat, &now->lat, was ? &was->lat : NULL);
		/* (All of them: a summary between the kernel's updates of one call.) */
		if (r->st.calls || r->st.errors || r->st.bytes || r->st.total_ns || r->st.lat.count)
			(*n)++;
	}
	qsort(rows, *n, sizeof(*rows), cmp_func_row);
	return rows;
}

static void print_funcs(FILE *f, const struct func_row *rows, size_t n)
{
	size_t i;

	table_header(f, &func_table);
	for (i = 0; i < n; i++) {
		const struct func_stats *st = &rows[i].st;
		__u8 cls = func_class(rows[i].func);
		bool mem = cls == CL_ALLOC || cls == CL_FREE || cls == CL_COPY;

		table_row(f, &func_table, (struct cell[]){
			CELL_S(func_name(rows[i].func)), CELL_U(st->calls), CELL_U(st->errors),
			CELL_F(ns_in_time_unit(st->total_ns), 3),
			CELL_F(st->calls ? ns_in_time_unit(st->total_ns) / st->calls : 0, 3),
			CELL_U_IF(mem, st->bytes) });
	}
}

/* The latency histograms, in the order of the table. */
static void print_hists(FILE *f, const struct func_row *rows, size_t n)
{
	char title[64];
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].func >= (__u32)nr_funcs() || !rows[i].st.lat.count)
			continue;
		snprintf(title, sizeof(title), "%s latency:", func_name(rows[i].func));
		table_lat_hist(f, &func_hist_table, (struct cell[]){ CELL_S(func_name(rows[i].func)) },
			       "latency", title, &rows[i].st.lat, time_unit());
	}
}

struct err_row {
	struct err_key k;
	__u64 count;
};

static int cmp_err_row(const void *a, const void *b)
{
	const struct err_row *x = a, *y = b;
	int c = strcmp(func_name(x->k.func), func_name(y->k.func));

	if (c)
		return c;
	return x->count != y->count ? (x->count > y->count ? -1 : 1) : (int)x->k.result - (int)y->k.result;
}

static const struct column err_cols[] = {
	{ "FUNCTION", "function", -26, 0 },
	{ "ERROR", "error", -40, 0 },	/* the result's name */
	{ "", "code", 0, COL_JSON_ONLY },	/* its value */
	{ "COUNT", "count", 8, 0 },
};
static const struct table err_table = TABLE("error", err_cols);

/* The failing calls since the previous summary, by function and result. */
static void print_errors(FILE *f, const struct map_snapshot *s)
{
	struct err_row *rows;
	char res[32];
	size_t i, n = 0;

	rows = calloc(s->n + 1, sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->n; i++) {
		const struct err_key *k = snapshot_key(s, i);
		const __u64 *now = snapshot_value(s, i), *was = map_snapshot_find(&prev[S_ERRORS], k);

		rows[n].k = *k;
		rows[n].count = *now - (was ? *was : 0);
		if (rows[n].k.func >= (__u32)nr_funcs())
			rows[n].k.func = 0;
		n += rows[n].count != 0;
	}
	if (n) {
		qsort(rows, n, sizeof(*rows), cmp_err_row);
		text_printf(f, "\n");
		table_header(f, &err_table);
	}
	for (i = 0; i < n; i++)
		table_row(f, &err_table, (struct cell[]){
			CELL_S(func_name(rows[i].k.func)),
			CELL_S(func_result_name(rows[i].k.func, rows[i].k.result, res, sizeof(res))),
			func_result_code(rows[i].k.func, rows[i].k.result), CELL_U(rows[i].count) });
	free(rows);
}

struct launch_row {
	struct launch_key k;
	struct launch_stats st;
};

static int cmp_launch_row(const void *a, const void *b)
{
	const struct launch_row *x = a, *y = b;
	__u64 nx = x->st.ok + x->st.failed, ny = y->st.ok + y->st.failed;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return memcmp(&x->k, &y->k, sizeof(x->k));
}

static const struct column launch_cols[] = {
	PID_COLUMN,
	{ "FUNCTION", "function", -26, 0 },
	{ "KERNEL", "kernel", -24, 0 },
	{ "GRID", "", -14, COL_TEXT_ONLY },	/* XxYxZ */
	{ "", "grid_x", 0, COL_JSON_ONLY },
	{ "", "grid_y", 0, COL_JSON_ONLY },
	{ "", "grid_z", 0, COL_JSON_ONLY },
	{ "BLOCK", "", -14, COL_TEXT_ONLY },
	{ "", "block_x", 0, COL_JSON_ONLY },
	{ "", "block_y", 0, COL_JSON_ONLY },
	{ "", "block_z", 0, COL_JSON_ONLY },
	{ "LAUNCHES", "launches", 8, 0 },	/* that succeeded */
	{ "FAILED", "failed", 6, 0 },
	CGROUP_COLUMN,
};
static const struct table launch_table = TABLE("launch", launch_cols);

/* The launches since the previous summary, by process, kernel and shape. */
static void print_launches(FILE *f, const struct map_snapshot *s)
{
	struct launch_row *rows;
	char name[KNAME_LEN + 32], grid[40], block[40];
	size_t i, n = 0;

	rows = calloc(s->n + 1, sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->n; i++) {
		const struct launch_key *k = snapshot_key(s, i);
		const struct launch_stats *now = snapshot_value(s, i);
		const struct launch_stats *was = map_snapshot_find(&prev[S_LAUNCHES], k);

		rows[n].k = *k;
		rows[n].st.ok = DELTA(now, was, ok);
		rows[n].st.failed = DELTA(now, was, failed);
		if (rows[n].k.func >= (__u32)nr_funcs())
			rows[n].k.func = 0;
		n += rows[n].st.ok || rows[n].st.failed;
	}
	if (n) {
		qsort(rows, n, sizeof(*rows), cmp_launch_row);
		text_printf(f, "\n");
		table_header(f, &launch_table);
	}
	for (i = 0; i < n; i++) {
		const struct launch_key *k = &rows[i].k;

		snprintf(grid, sizeof(grid), "%ux%ux%u", k->grid[0], k->grid[1], k->grid[2]);
		snprintf(block, sizeof(block), "%ux%ux%u", k->block[0], k->block[1], k->block[2]);
		table_row(f, &launch_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(func_name(k->func)),
			CELL_S(kernel_name(&procs, k->pid, k->func, k->handle, name, sizeof(name))),
			CELL_S(grid), CELL_U(k->grid[0]), CELL_U(k->grid[1]), CELL_U(k->grid[2]),
			CELL_S(block), CELL_U(k->block[0]), CELL_U(k->block[1]), CELL_U(k->block[2]),
			CELL_U(rows[i].st.ok), CELL_U(rows[i].st.failed),
			cgroup_cell(proc_cgroup(&procs, k->pid)) });
	}
	free(rows);
}

/*
 * After a summary printed their last calls: forget the processes that
 * exited, and their rows (launches, builds, kernel times) - in the maps
 * (which so hold those of live processes only) and in the copies the next
 * summary subtracts (a process with a PID used before starts from zero).
 */
static void forget_exited(void)
{
	struct bpf_map *const maps[] = { bpf->maps.launches, bpf->maps.builds,
					 bpf->maps.kernel_times };
	size_t i, n;
	int j;

	if (!procs.nr_exited)
		return;
	for (j = S_FIRST_PER_PROC; j < NR_SNAPS; j++) {
		struct map_snapshot *was = &prev[j];

		for (i = n = 0; i < was->n; i++) {
			if (proc_has_exited(&procs, *(__u32 *)snapshot_key(was, i)))
				continue;
			memmove(snapshot_key(was, n), snapshot_key(was, i), was->key_size);
			memmove(snapshot_value(was, n), snapshot_value(was, i), was->value_size);
			n++;
		}
		was->n = n;
	}
	procs_forget_exited(&procs, maps, sizeof(maps) / sizeof(maps[0]));
}

/*
 * One summary of what changed since the previous one: per function,
 * errors, launches, histograms.  The maps are read, never cleared.
 */
static int print_summary(void *ctx)
{
	struct bpf_map *const maps[NR_SNAPS] = {
		bpf->maps.func_stats, bpf->maps.errors, bpf->maps.launches, bpf->maps.builds,
		bpf->maps.kernel_times,
	};
	struct map_snapshot now[NR_SNAPS];
	FILE *f = summary_stream();
	struct func_row *rows;
	size_t n;
	int err;

	(void)ctx;
	/* Exits not read yet: -C still names the cgroups of launches of processes gone. */
	if (notices_rb)
		ring_buffer__consume(notices_rb);
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	rows = func_rows(&now[S_FUNCS], &n);
	if (!rows) {
		map_snapshot_free_all(now, NR_SNAPS);
		return -ENOMEM;
	}
	summary_begin(f);
	if (!n)
		text_printf(f, "no %s calls\n", family->family);
	else
		print_funcs(f, rows, n);
	/* (Also without function rows: a summary can fall between a call's updates.) */
	print_errors(f, &now[S_ERRORS]);
	print_launches(f, &now[S_LAUNCHES]);
	print_build_failures(f, &procs, &now[S_BUILDS], &prev[S_BUILDS]);
	print_kernel_times(f, &procs, &now[S_KTIMES], &prev[S_KTIMES]);
	print_hists(f, rows, n);
	fflush(f);
	free(rows);
	map_snapshot_keep(prev, now, NR_SNAPS);
	forget_exited();
	return 0;
}

static int on_interval(void *ctx)
{
	if (apitrace_env.leaks) {
		summary_begin(summary_stream());
		return print_leaks(&leak_src, 0, NULL, 0, monotonic_ns());
	}
	return print_summary(ctx);
}

/* ---- Per-call lines (-e, -E), process notices --------------------------------- */

/* --timeline: the call as -e's line has it (calls.c). */
static void timeline_event(const struct call_event *e, const char *kernel)
{
	apitrace_timeline_event(e, kernel);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct call_event *e = data;
	char kernel[KNAME_LEN + 32];
	const char *name = NULL;

	(void)ctx;
	if (size < sizeof(*e) || e->func >= (__u32)nr_funcs())
		return 0;
	if (func_launches(e->func))
		name = kernel_name(&procs, e->pid, e->func, e->a.addr, kernel, sizeof(kernel));
	if (common_env.events)
		print_call(stdout, e, trace_seconds(e->ts_ns), name);
	timeline_event(e, name);
	return 0;
}

static int handle_notice(void *ctx, void *data, size_t size)
{
	const struct notice *n = data;
	char comm[COMM_LEN];

	(void)ctx;
	if (size < sizeof(*n))
		return 0;
	/* The calls the process made before this: printed first. */
	if (drain_rb)
		ring_buffer__consume(drain_rb);
	if (n->type == NOTICE_NEW) {
		/* Read its maps while it lives, to name its addresses later. */
		proc_new(&procs, n->pid);
		return 0;
	}
	snprintf(comm, sizeof(comm), "%.*s", COMM_LEN - 1, n->comm);
	report_unfinished(bpf->maps.inflight, n->pid, comm, n->exit_code, n->ts_ns);
	if (apitrace_env.leaks)
		print_leaks(&leak_src, n->pid, comm, n->cgroup_id, n->ts_ns);
	forget_allocs(&leak_src, n->pid);
	proc_exited(&procs, n->pid, n->cgroup_id);
	if (common_env.events)
		forget_exited();
	if (common_env.pid && n->pid == (__u32)common_env.pid)
		exiting = 1;	/* the traced process is gone: summary, then exit */
	return 0;
}

/* ---- main ----------------------------------------------------------------- */

/*
 * One ring buffer manager polls both rings; a second one over the call
 * records alone lets handle_notice() print a process's pending calls
 * before its exit (the kernel side wakes us only for batches of records).
 */
static struct ring_buffer *open_ring_buffers(void)
{
	int events = bpf_map__fd(bpf->maps.events), notices = bpf_map__fd(bpf->maps.notices);
	struct ring_buffer *rb;

	if (!tool_per_event())
		return ring_buffer__new(notices, handle_notice, NULL, NULL);
	drain_rb = ring_buffer__new(events, handle_event, NULL, NULL);
	rb = ring_buffer__new(events, handle_event, NULL, NULL);
	if (!drain_rb || !rb || ring_buffer__add(rb, notices, handle_notice, NULL)) {
		ring_buffer__free(rb);
		return NULL;
	}
	return rb;
}

/* The exit hook first (it ends tracing when -p's process exits), then the uprobes. */
static int attach_bpf(void)
{
	int err;

	exit_link = bpf_program__attach(bpf->progs.api_proc_exit);
	if (!exit_link) {
		err = -errno;
		report_bpf_error("attach to the sched_process_exit tracepoint", err);
		return err;
	}
	if (common_env.pid && (err = proc_watch(&procs, common_env.pid))) {
		report_bpf_error("watch the traced process", err);
		return err;
	}
	return probes_attach(&probes, &libs);
}

/*
 * What did not fit anywhere, so no count is silently short (the ring
 * buffer's lost records: trace_loop_finish()).
 */
static void report_dropped(void)
{
	report_lost("notices", bpf->bss->lost_notices, 0,
		    "%llu process notices lost (ring buffer full)",
		    (unsigned long long)bpf->bss->lost_notices);
	report_lost("allocations", bpf->bss->dropped_allocs, MAX_ALLOCS,
		    "%llu allocations not tracked (more than %d outstanding)",
		    (unsigned long long)bpf->bss->dropped_allocs, MAX_ALLOCS);
	report_lost("calls", bpf->bss->dropped_rows, 0,
		    "%llu calls not counted (statistics maps full)",
		    (unsigned long long)bpf->bss->dropped_rows);
	report_lost("inflight", bpf->bss->dropped_calls, MAX_INFLIGHT,
		    "%llu calls not traced (more than %d in flight)",
		    (unsigned long long)bpf->bss->dropped_calls, MAX_INFLIGHT);
}

/* --prometheus: prom.c's families, from snapshots of the statistics and allocations. */
static int write_metrics(struct metrics *m, void *ctx)
{
	struct bpf_map *const maps[] = { bpf->maps.func_stats, bpf->maps.errors, bpf->maps.allocs };
	struct map_snapshot s[3];
	int err;

	(void)ctx;
	/* (not tool_snapshot(): metrics_write_file() says the failure) */
	err = map_snapshot_all(maps, s, 3);
	if (err)
		return err;
	err = apitrace_metrics(m, &(struct apitrace_metrics_in){
		.funcs = &s[0], .errors = &s[1], .allocs = &s[2], .procs = &procs,
		.dropped_rows = bpf->bss->dropped_rows, .dropped_allocs = bpf->bss->dropped_allocs,
		.dropped_calls = bpf->bss->dropped_calls, .lost_notices = bpf->bss->lost_notices });
	map_snapshot_free_all(s, 3);
	return err;
}

/*
 * Parse the command line (tool_init()), check -p's process, find the
 * family's libraries and their functions. false: said why; exit 1.
 */
static bool apitrace_init(const struct tool_desc *tool, int argc, char **argv,
			  const struct api_desc *desc)
{
	family = desc;
	if (!tool_init(tool, argc, argv))
		return false;
	if (common_env.pid && kill(common_env.pid, 0) && errno == ESRCH) {
		fprintf(stderr, "%s: no process with PID %d\n", family->tool, common_env.pid);
		return false;
	}
	/* Every exported function where probing them costs two links per file. */
	return !find_libs(&libs, &(struct lib_search){
		common_env.pid, apitrace_env.secondary, apitrace_env.libs, apitrace_env.nr_libs,
		kernel_has_attach_cookie() && uprobe_multi_supported(), apitrace_env.patterns,
		apitrace_env.nr_patterns });
}

/* One of the family's known functions is of class cls. */
static bool knows_class(__u8 cls)
{
	int i;

	for (i = 0; i < family->nr_funcs; i++)
		if (family->funcs[i].cls == cls)
			return true;
	return false;
}

/* Set the rest of the skeleton, load, attach, trace until the end, report. */
static int run(void)
{
	struct trace_loop loop = {};
	int err;

	bpf->rodata->errors_only = apitrace_env.errors;
	bpf->rodata->capture_stacks = apitrace_env.stacks;
	probes_init(&probes, bpf->obj, bpf->progs.api_enter, bpf->progs.api_exit, common_env.pid,
		    &libs, bpf->rodata->fallback_cookies);
	if (!apitrace_env.stacks)
		bpf_map__set_max_entries(bpf->maps.alloc_stacks, 1);
	/* Builds and profiling times: only for a family that has them (OpenCL). */
	if (!knows_class(CL_BUILD))
		bpf_map__set_max_entries(bpf->maps.builds, 1);
	if (!knows_class(CL_SET_GROUP))
		bpf_map__set_max_entries(bpf->maps.group_sizes, 1);
	if (!knows_class(CL_PROFILE)) {
		bpf_map__set_max_entries(bpf->maps.prof_events, 1);
		bpf_map__set_max_entries(bpf->maps.kernel_times, 1);
	}
	err = tool_load(bpf->skeleton, bpf->maps.cgroup_map);
	if (err)
		goto cleanup;
	err = procs_init(&procs, bpf->maps.procs, bpf->maps.knames);
	if (err)
		goto cleanup;
	leak_src = (struct leak_source){ bpf->maps.allocs,
					 apitrace_env.stacks ? bpf->maps.alloc_stacks : NULL, &procs };
	err = attach_bpf();
	if (err)
		goto cleanup;
	notices_rb = open_ring_buffers();
	if (!notices_rb) {
		err = -errno;
		report_bpf_error("open the ring buffers", err);
		goto cleanup;
	}
	print_libs(&libs, common_env.verbose);

	/* Its own ring buffers: notices and calls. */
	loop = TOOL_TRACE_LOOP(bpf, NULL);
	loop.rb = notices_rb;
	loop.write_metrics = write_metrics;
	/* --leaks with -e or -E: the leaks every interval and at the end too. */
	loop.summary_with_events = apitrace_env.leaks;
	loop.ends_with_pid = common_env.pid != 0;
	err = tool_trace(&loop, call_table(), on_interval, "Tracing %s %s", family->family,
			 apitrace_env.leaks && !common_env.events ? "allocations, counting from now" : "calls");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	ring_buffer__free(drain_rb);
	probes_detach(&probes);
	bpf_link__destroy(exit_link);
	return err;
}

int apitrace_main(const struct tool_desc *tool, int argc, char **argv, const struct api_desc *desc)
{
	int err;

	if (!apitrace_init(tool, argc, argv, desc))
		return 1;
	bpf = apitrace_bpf__open_opts(tool_open_opts());
	if (!bpf) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	/* filter.bpf.h's -p, -c and --cgroup (comm: TASK_COMM_LEN bytes, as -c takes it). */
	tool_set_rodata(bpf);
	err = run();
	apitrace_bpf__destroy(bpf);
	free_libs(&libs);
	map_snapshot_free_all(prev, NR_SNAPS);
	procs_free(&procs);
	return err != 0;
}
