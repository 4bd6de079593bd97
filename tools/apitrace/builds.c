// SPDX-License-Identifier: GPL-2.0
/* Build failures and kernels' device times, as the processes read them (builds.h). */
#include <stdlib.h>
#include <string.h>

#include "apitrace/builds.h"
#include "apitrace/funcs.h"
#include "opts.h"
#include "output.h"
#include "table.h"

static struct cell cgroup_cell(const char *name)
{
	return name ? CELL_S(name) : CELL_NONE;
}

const char *build_log_line(const char *log, size_t len, char *buf, size_t size)
{
	size_t i = 0, n = 0;

	while (i < len && (log[i] == '\n' || log[i] == '\r' || log[i] == ' ' || log[i] == '\t'))
		i++;
	while (i < len && log[i] && log[i] != '\n' && log[i] != '\r' && n + 1 < size)
		buf[n++] = log[i++];
	buf[n] = '\0';
	return buf;
}

static const struct column build_cols[] = {
	PID_COLUMN,
	{ "PROGRAM", "program", -18, 0 },
	{ "FAILED", "failures", 6, 0 },
	{ "RESULT", "result", -26, 0 },
	{ "", "code", 0, COL_JSON_ONLY },
	{ "LOG", "log", 0, 0 },		/* its first line, if the process read it */
	CGROUP_COLUMN,
};
static const struct table build_table = TABLE("build_failure", build_cols);

void print_build_failures(FILE *f, const struct procs *p, const struct map_snapshot *now,
			  const struct map_snapshot *was)
{
	char prog[24], res[32], line[LOG_LEN];
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct kname_key *k = snapshot_key(now, i);
		const struct build_info *b = snapshot_value(now, i);
		const struct build_info *w = map_snapshot_find(was, k);
		/* New failures, or a log read since. */
		if (!DELTA(b, w, failures) && !DELTA(b, w, logs))
			continue;
		if (!header) {
			text_printf(f, "\nPrograms that failed to build:\n");
			table_header(f, &build_table);
			header = true;
		}
		table_row(f, &build_table, (struct cell[]){
			CELL_U(k->pid), cell_hex(prog, sizeof(prog), k->handle),
			CELL_U(DELTA(b, w, failures)),
			CELL_S(func_result_name(b->func, (__u32)b->result, res, sizeof(res))),
			func_result_code(b->func, (__u32)b->result),
			b->logs ? CELL_S(build_log_line(b->log, LOG_LEN, line, sizeof(line))) : CELL_S("-"),
			cgroup_cell(proc_cgroup(p, k->pid)) });
	}
}

static const struct column ktime_cols[] = {
	PID_COLUMN,
	{ "KERNEL", "kernel", -24, 0 },
	{ "RUNS", "runs", 8, 0 },
	{ "AVG", "avg", 11, COL_TIME },		/* start -> end, on the device */
	{ "TOTAL", "total", 13, COL_TIME },
	{ "QUEUED", "queued_avg", 11, COL_TIME },	/* queued -> start, where read */
	CGROUP_COLUMN,
};
static const struct table ktime_table = TABLE("kernel_time", ktime_cols);

void print_kernel_times(FILE *f, const struct procs *p, const struct map_snapshot *now,
			const struct map_snapshot *was)
{
	char name[KNAME_LEN + 32];
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct kname_key *k = snapshot_key(now, i);
		const struct kernel_time *t = snapshot_value(now, i);
		const struct kernel_time *w = map_snapshot_find(was, k);
		__u64 runs = DELTA(t, w, runs), run_ns = DELTA(t, w, run_ns);
		__u64 waits = DELTA(t, w, waits), wait_ns = DELTA(t, w, wait_ns);

		if (!runs)
			continue;
		if (!header) {
			text_printf(f, "\nKernels' device times, as the processes read them:\n");
			table_header(f, &ktime_table);
			header = true;
		}
		table_row(f, &ktime_table, (struct cell[]){
			CELL_U(k->pid),
			/* (Named by its maker: no launching function.) */
			CELL_S(kernel_name(p, k->pid, ~0U, k->handle, name, sizeof(name))),
			CELL_U(runs), CELL_F(ns_in_time_unit(run_ns) / runs, 3),
			CELL_F(ns_in_time_unit(run_ns), 3),
			waits ? CELL_F(ns_in_time_unit(wait_ns) / waits, 3) : CELL_S("-"),
			cgroup_cell(proc_cgroup(p, k->pid)) });
	}
}
