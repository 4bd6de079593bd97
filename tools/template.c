// SPDX-License-Identifier: GPL-2.0
/*
 * template - ioctl(2) per process and command: calls, errors, latency.
 *
 * The smallest complete tool, the one a new tool is copied from
 * (CONTRIBUTING.md): main() is libbpf-tools-common/tool.h's sequence and
 * nothing else, and each part has the place tools/NAME.c gives it: env and
 * argp, the tool's checks, choose_programs(), handle_event(),
 * print_summary(), write_metrics(), report_dropped(), main(). Built and
 * tested (tests/host/template.sh), not installed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>

#include "template.h"
#include "tp_field.h"	/* the skeleton's record fields */
#include "template.skel.h"
#include "template/prom.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"

static struct template_bpf *skel;
/* The record path: classic tracepoints read through tracefs formats (no BTF needed). */
static bool records;
/* The previous summary's rows: a summary prints what grew since. */
static struct map_snapshot prev;

const char *argp_program_version = "template 0.1";
static const char doc[] =
"Trace ioctl(2) per process and command: calls, errors, latency.\n"
"\n"
"USAGE: template [-ejmCTv] [-p PID] [-c COMM] [--cgroup PATH] [--container ID]\n"
"                [--pod UID] [--no-btf] [--timeline FILE] [--prometheus FILE]\n"
"                [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    template              # summary at Ctrl-C\n"
"    template 1 5          # a summary every second, five times\n"
"    template -p 1234      # only process 1234\n"
"    template -e           # one line per call\n"
"    template -j           # JSON lines: one object per table row\n"
"    template --timeline calls.json  # the calls, for ui.perfetto.dev\n"
"    template --no-btf     # the trace records, as for a driver without BTF\n";

/* Its command line: the common options, -e, --timeline, --no-btf; no option of its own. */
static const struct tool_desc tool = {
	.doc = doc,
	.events = "Print one line per ioctl call",
	.timeline = "Write the calls to FILE as a timeline (Trace Event Format: ui.perfetto.dev opens it)",
	.records = true,
	.needs = TOOL_TRACEFS,
};

/* The tool's checks: which of its events this kernel has, for the path it takes. */
static bool check_events(void)
{
	if (!tracepoint_exists("raw_syscalls", "sys_enter")) {
		fprintf(stderr, "template: no system call tracepoints: this kernel is built without "
			"CONFIG_HAVE_SYSCALL_TRACEPOINTS\n");
		return false;
	}
	/* The system calls are vmlinux's: only --no-btf takes the record path. */
	records = records_wanted("vmlinux");
	if (records && !tracepoint_exists("syscalls", "sys_enter_ioctl")) {
		fprintf(stderr, "template: --no-btf: no syscalls:sys_enter_ioctl: this kernel is "
			"built without CONFIG_FTRACE_SYSCALLS\n");
		return false;
	}
	return true;
}

/* One path's programs: tp_btf on raw_syscalls, or the records of syscalls:sys_*_ioctl. */
static void choose_programs(void)
{
	bpf_program__set_autoload(skel->progs.ioctl_enter, !records);
	bpf_program__set_autoload(skel->progs.ioctl_exit, !records);
	bpf_program__set_autoload(skel->progs.tp_ioctl_enter, records);
	bpf_program__set_autoload(skel->progs.tp_ioctl_exit, records);
}

/* The record path: each field read, from the events' formats in tracefs. */
static int set_record_fields(void)
{
#define FIELD(ev, name, f) RECORD_FIELD(template, "syscalls", ev, name, TP_WANT_INT, f, NULL)
	const struct record_field fields[] = {
		FIELD("sys_enter_ioctl", "fd", f_fd),
		FIELD("sys_enter_ioctl", "cmd", f_cmd),
		FIELD("sys_exit_ioctl", "ret", f_ret),
	};
#undef FIELD

	return records_get_fields(skel->rodata, fields, sizeof(fields) / sizeof(fields[0]), 0) < 0 ?
	       -EINVAL : 0;
}

static int attach_records(void)
{
	const struct record_tp tps[] = {
		{ skel->progs.tp_ioctl_enter, "syscalls", "sys_enter_ioctl" },
		{ skel->progs.tp_ioctl_exit, "syscalls", "sys_exit_ioctl" },
	};

	return records_attach(tps, sizeof(tps) / sizeof(tps[0]));
}

static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "FD", "fd", 4, 0 },
	{ "CMD", "cmd", -10, 0 },
	{ "RET", "ret", 6, 0 },
	{ "LAT", "latency", 8, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

/* --timeline: the call as a slice of its thread, from its entry to its return. */
static void timeline_event(const struct template_event *e)
{
	static const char *const keys[] = { "fd", "ret" };
	char name[32];

	snprintf(name, sizeof(name), "ioctl 0x%x", e->cmd);
	timeline_task(e->pid, e->comm, e->tid, e->comm);
	timeline_slice(e->pid, e->tid, name, e->ret < 0 ? "ioctl,error" : "ioctl",
		       e->ts_ns - e->lat_ns, e->lat_ns,
		       TIMELINE_ARGS(keys, CELL_U(e->fd), CELL_I(e->ret)));
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct template_event *e = data;
	char cmd[16];

	if (size < sizeof(*e))
		return 0;
	if (timeline_on())
		timeline_event(e);
	if (!common_env.events)
		return 0;
	table_event(stdout, &event_table, (struct cell[]){
		CELL_F(trace_seconds(e->ts_ns), 6), CELL_U(e->pid), CELL_S(e->comm),
		CELL_U(e->fd), cell_hex(cmd, sizeof(cmd), e->cmd), CELL_I(e->ret),
		CELL_U(e->latency), cell_cgroup(e->cgroup_id) }, e->ts_ns);
	return 0;
}

static const struct column row_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CMD", "cmd", -10, 0 },
	{ "CALLS", "calls", 8, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "AVG", "avg", 9, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table row_table = TABLE("ioctl", row_cols);
/* A row's histogram is named by its first three columns. */
static const struct table hist_table = { "ioctl_hist", row_cols, 3, false };

static int cmp_key(const void *a, const void *b)
{
	const struct ioctl_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->cmd < y->cmd ? -1 : x->cmd > y->cmd;
}

/* Row i of `now` as what it gained since the previous summary; false: nothing. */
static bool row_delta(const struct map_snapshot *now, size_t i, struct ioctl_stats *d)
{
	const struct ioctl_stats *s = snapshot_value(now, i);
	const struct ioctl_stats *was = map_snapshot_find(&prev, snapshot_key(now, i));

	*d = *s;
	d->calls = DELTA(s, was, calls);
	d->errors = DELTA(s, was, errors);
	lat_hist_delta(&d->lat, &s->lat, was ? &was->lat : NULL);
	return d->calls;
}

static int print_summary(void *ctx)
{
	FILE *f = summary_stream();
	struct map_snapshot now;
	struct ioctl_stats d;
	char cmd[16], title[64];
	size_t i;
	int err;

	err = tool_snapshot(&skel->maps.stats, &now, 1);
	if (err)
		return err;
	map_snapshot_sort(&now, cmp_key);
	summary_begin(f);
	table_header(f, &row_table);
	for (i = 0; i < now.n; i++) {
		const struct ioctl_key *k = snapshot_key(&now, i);

		if (row_delta(&now, i, &d))
			table_row(f, &row_table, (struct cell[]){
				CELL_U(k->pid), CELL_S(d.comm), cell_hex(cmd, sizeof(cmd), k->cmd),
				CELL_U(d.calls), CELL_U(d.errors), cell_hist_avg(&d.lat),
				cell_cgroup(d.cgroup_id) });
	}
	/* The histograms under the table, in its order. */
	for (i = 0; i < now.n; i++) {
		const struct ioctl_key *k = snapshot_key(&now, i);

		if (!row_delta(&now, i, &d))
			continue;
		snprintf(title, sizeof(title), "%s (pid %u) ioctl 0x%x:", d.comm, k->pid, k->cmd);
		table_lat_hist(f, &hist_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(d.comm), cell_hex(cmd, sizeof(cmd), k->cmd) },
			"latency", title, &d.lat, time_unit());
	}
	fflush(f);
	map_snapshot_keep(&prev, &now, 1);
	return 0;
}

/* --prometheus: the trace loop's metrics_fn, reading the skeleton for prom.c. */
static int write_metrics(struct metrics *m, void *ctx)
{
	struct map_snapshot now;
	int err = tool_snapshot(&skel->maps.stats, &now, 1);

	if (err)
		return err;
	err = template_metrics(m, &(struct template_metrics_in){
		.rows = &now, .dropped_rows = skel->bss->dropped_rows });
	map_snapshot_free(&now);
	return err;
}

static void report_dropped(void)
{
	report_lost("rows", skel->bss->dropped_rows, MAX_ROWS, "%llu calls not counted (more "
		    "than %d processes and commands)", (unsigned long long)skel->bss->dropped_rows,
		    MAX_ROWS);
	report_lost("calls", skel->bss->dropped_calls, MAX_CALLS, "%llu calls not traced (more "
		    "than %d in flight)", (unsigned long long)skel->bss->dropped_calls, MAX_CALLS);
}

int main(int argc, char **argv)
{
	struct trace_loop loop = {};
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	if (!check_events())
		return 1;

	skel = template_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	skel->rodata->nr_ioctl = SYS_ioctl;
	choose_programs();
	err = records ? set_record_fields() : 0;
	if (err)
		goto cleanup;
	err = tool_start(skel->skeleton, skel->maps.cgroup_map, "raw_syscalls:sys_enter");
	if (!err && records)
		err = attach_records();
	if (err)
		goto cleanup;
	/* Said once attached: a test waiting for the tool's first output sees it attached. */
	records_announce();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing ioctl(2) (%s)", records ? "syscalls:sys_*_ioctl, their records" :
			 "raw_syscalls:sys_*, every system call");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	records_detach();
	map_snapshot_free(&prev);
	template_bpf__destroy(skel);
	return err != 0;
}
