// SPDX-License-Identifier: GPL-2.0
/*
 * nvdrv - NVIDIA's kernel driver (nvidia.ko) per process and GPU: opens of
 * its device nodes, every ioctl by escape with its latency, errno and the
 * resource manager's status, mmaps with their real sizes, interrupts and
 * their bottom halves, p2p calls, and Xid errors decoded.
 *
 * The driver has no tracepoints: kprobes on its interface layer, each role
 * on the first of its functions by name the generation loaded has (535 has
 * a frontend, nvidia_frontend_*; 550 does not), and one line saying what
 * the others would have shown.
 *
 * Its own parts, in tools/nvdrv/: NVIDIA's names for its numbers
 * (nvidia_names.c), the hooks by driver generation (hooks.c), Xid reports
 * (xids.c) and the -e lines (event_lines.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "nvdrv.h"
#include "tp_field.h"
#include "nvdrv.skel.h"
#include "nvdrv/esc_hists.h"
#include "nvdrv/event_lines.h"
#include "nvdrv/hooks.h"
#include "nvdrv/nvidia_names.h"
#include "nvdrv/mappings.h"
#include "nvdrv/power.h"
#include "nvdrv/prom.h"
#include "nvdrv/rm_memory.h"
#include "nvdrv/xids.h"
#include "cgroup.h"
#include "trace_loop.h"
#include "histogram.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "records.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"
#include "tp_format.h"

static struct env {
	bool live;		/* -l: each memory object alive at each summary */
} env;

static struct nvdrv_bpf *skel;
static unsigned long long last_summary_ns;

/* The maps a summary reads, and the previous summary's: each prints what changed. */
enum { S_CALLS, S_RM, S_ERRS, S_DEVS, S_IRQS, S_P2P, S_POWER, NR_SNAPS };
static struct map_snapshot prev[NR_SNAPS];
#define prev_calls prev[S_CALLS]
#define prev_rm prev[S_RM]
#define prev_errs prev[S_ERRS]
#define prev_devs prev[S_DEVS]
#define prev_irqs prev[S_IRQS]
#define prev_p2p prev[S_P2P]

const char *argp_program_version = "nvdrv 0.1";
static const char doc[] =
"NVIDIA kernel driver (nvidia.ko) calls, per process and GPU.\n"
"\n"
"USAGE: nvdrv [-ejlmCTv] [-p PID] [-c COMM] [--cgroup PATH] [--container ID]\n"
"             [--pod UID] [--timeline FILE] [--prometheus FILE]\n"
"             [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    nvdrv                 # summary at Ctrl-C\n"
"    nvdrv 1               # a summary every second\n"
"    nvdrv -p 1234         # only process 1234\n"
"    nvdrv -c nvidia-smi   # only processes named nvidia-smi\n"
"    nvdrv -e              # one line per event (ioctl, mmap, interrupt, Xid)\n"
"    nvdrv -l              # and each RM memory allocation still held\n"
"    nvdrv -j              # JSON lines: one object per table row\n"
"    nvdrv --timeline nv.json  # the calls and interrupts for ui.perfetto.dev\n"
"    nvdrv --cgroup /sys/fs/cgroup/gpu.slice -C  # one cgroup's calls, named\n";

static const struct argp_option opts[] = {
	{ "leaks", 'l', NULL, 0, "List each RM memory allocation still held at each summary", 0 },
	{ "live", 'l', NULL, OPTION_ALIAS | OPTION_HIDDEN, NULL, 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'l':
		env.live = true;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct tool_desc tool = {
	.doc = doc,
	.options = opts,
	.parser = parse_arg,
	.events = "Print one line per event",
	.timeline = "Write the events to FILE as a timeline (Trace Event Format: ui.perfetto.dev opens it)",
	.needs = TOOL_TRACEFS,
	/* Without -e only Xids and the RM's objects (allocations, frees) come through it. */
	.ring_bytes = 4 << 20,
	.quiet_ring_bytes = 1 << 20,
};

/* ---- summaries ------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b)
{
	const __u32 *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int cmp_u32_pair(const void *a, const void *b)
{
	const __u32 *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

static int cmp_u32_quad(const void *a, const void *b)
{
	const __u32 *x = a, *y = b;
	int i;

	for (i = 0; i < 4; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static const struct column device_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "DEVICE", "device", -16, 0 },
	{ "OPENS", "opens", 6, 0 },
	{ "OPEN_ERR", "open_errors", 8, 0 },
	{ "CLOSES", "closes", 6, 0 },
	{ "MMAPS", "mmaps", 6, 0 },
	{ "MMAP_BYTES", "mmap_bytes", 11, 0 },
	{ "MMAP_ERR", "mmap_errors", 8, 0 },
	{ "FAULTS", "faults", 7, 0 },
	{ "POLLS", "polls", 8, 0 },
	{ "READY", "polls_ready", 6, 0 },
	{ "", "dev", 0, COL_JSON_ONLY },	/* major:minor */
	CGROUP_COLUMN,
};
static const struct table device_table = TABLE("device", device_cols);

static void print_devices(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char name[64], num[32];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct dev_key *k = snapshot_key(s, i);
		const struct dev_stats *now = snapshot_value(s, i);
		const struct dev_stats *was = map_snapshot_find(&prev_devs, k);

		if (!DELTA(now, was, opens) && !DELTA(now, was, closes) && !DELTA(now, was, mmaps) &&
		    !DELTA(now, was, faults) && !DELTA(now, was, polls))
			continue;
		if (!header) {
			table_header(f, &device_table);
			header = true;
		}
		snprintf(num, sizeof(num), "%u:%u", MAJOR(k->dev), MINOR(k->dev));
		table_row(f, &device_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(dev_name(k->dev, name, sizeof(name))),
			CELL_U(DELTA(now, was, opens)), CELL_U(DELTA(now, was, open_errors)),
			CELL_U(DELTA(now, was, closes)), CELL_U(DELTA(now, was, mmaps)),
			CELL_U(DELTA(now, was, mmap_bytes)), CELL_U(DELTA(now, was, mmap_errors)),
			CELL_U(DELTA(now, was, faults)), CELL_U(DELTA(now, was, polls)),
			CELL_U(DELTA(now, was, polls_ready)), CELL_S(num), cell_cgroup(now->cgroup_id) });
	}
}

static const struct column ioctl_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "NR", "esc", -5, 0 },
	{ "CALLS", "calls", 7, 0 },
	{ "XFER", "xfer", 5, 0 },
	{ "ERRORS", "errors", 6, 0 },
	{ "AVG", "lat_avg", 9, COL_TIME },
	{ "MAX", "lat_max", 9, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table ioctl_table = TABLE("ioctl", ioctl_cols);
/* The histogram rows: named by escape. */
static const struct column ioctl_hist_cols[] = {
	{ "ESCAPE", "escape", 0, 0 },
	{ "NR", "esc", 0, 0 },
};
static const struct table ioctl_hist_table = TABLE("ioctl_hist", ioctl_hist_cols);

struct call_row {
	const struct call_key *k;
	const struct call_stats *now;
	unsigned long long calls;
	struct lat_hist lat;
};

/* Per process, the busiest escape first. */
static int cmp_call_row(const void *a, const void *b)
{
	const struct call_row *x = a, *y = b;

	if (x->k->pid != y->k->pid)
		return x->k->pid < y->k->pid ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return x->k->esc < y->k->esc ? -1 : x->k->esc > y->k->esc;
}

static void print_ioctls(FILE *f, const struct map_snapshot *s)
{
	static struct esc_hists per_esc;
	struct call_row *rows;
	char buf[32], nr[16], title[80];
	size_t i, n = 0;
	int e;

	rows = calloc(s->n ? s->n : 1, sizeof(*rows));
	if (!rows)
		return;
	esc_hists_reset(&per_esc);
	for (i = 0; i < s->n; i++) {
		const struct call_key *k = snapshot_key(s, i);
		const struct call_stats *now = snapshot_value(s, i);
		const struct call_stats *was = map_snapshot_find(&prev_calls, k);

		if (!DELTA(now, was, lat.count))
			continue;
		rows[n].k = k;
		rows[n].now = now;
		rows[n].calls = DELTA(now, was, lat.count);
		lat_hist_delta(&rows[n].lat, &now->lat, was ? &was->lat : NULL);
		esc_hists_add(&per_esc, k->esc, &rows[n].lat);
		n++;
	}
	qsort(rows, n, sizeof(*rows), cmp_call_row);
	if (!n)
		text_printf(f, "no ioctls\n");
	else
		table_header(f, &ioctl_table);
	for (i = 0; i < n; i++) {
		const struct call_row *r = &rows[i];
		const struct call_stats *was = map_snapshot_find(&prev_calls, r->k);

		snprintf(nr, sizeof(nr), "0x%x", nv_escape_nr(r->k->esc));
		table_row(f, &ioctl_table, (struct cell[]){
			CELL_U(r->k->pid), CELL_S(r->now->comm),
			CELL_S(nv_escape_str(r->k->esc, buf, sizeof(buf))),
			json_output() ? CELL_U(nv_escape_nr(r->k->esc)) : CELL_S(nr), CELL_U(r->calls),
			CELL_U(DELTA(r->now, was, xfer)), CELL_U(DELTA(r->now, was, errors)),
			cell_hist_avg(&r->lat), CELL_U_IF(r->lat.count, r->lat.max),
			cell_cgroup(r->now->cgroup_id) });
	}
	free(rows);
	for (e = 0; e < NR_ESC_SLOTS; e++) {
		const char *name;

		if (!per_esc.seen[e] || !per_esc.hist[e].count)
			continue;
		name = nv_escape_str(per_esc.esc[e], buf, sizeof(buf));
		snprintf(nr, sizeof(nr), "0x%x", nv_escape_nr(per_esc.esc[e]));
		snprintf(title, sizeof(title), "%s (%s) latency:", name, nr);
		table_lat_hist(f, &ioctl_hist_table,
			       (struct cell[]){ CELL_S(name),
						json_output() ? CELL_U(nv_escape_nr(per_esc.esc[e])) : CELL_S(nr) },
			       "latency", title, &per_esc.hist[e], time_unit());
	}
}

static const struct column error_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "", "esc", 0, COL_JSON_ONLY },
	{ "ERROR", "error", -10, 0 },
	{ "", "errno", 0, COL_JSON_ONLY },
	{ "COUNT", "count", 7, 0 },
	CGROUP_COLUMN,
};
static const struct table error_table = TABLE("ioctl_error", error_cols);

static void print_errors(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char buf[32], ebuf[16];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct err_key *k = snapshot_key(s, i);
		const struct err_stats *now = snapshot_value(s, i);
		const struct err_stats *was = map_snapshot_find(&prev_errs, k);

		if (!DELTA(now, was, count))
			continue;
		table_header_once(f, &error_table, &header);
		table_row(f, &error_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(nv_escape_str(k->esc, buf, sizeof(buf))),
			CELL_U(nv_escape_nr(k->esc)), CELL_S(errno_name(k->err, ebuf, sizeof(ebuf))), CELL_U(k->err),
			CELL_U(DELTA(now, was, count)), cell_cgroup(now->cgroup_id) });
	}
}

static const struct column rm_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "ESCAPE", "escape", -22, 0 },
	{ "", "esc", 0, COL_JSON_ONLY },
	{ "OBJECT", "object", -8, 0 },
	{ "STATUS", "status", -8, 0 },
	{ "COUNT", "count", 7, 0 },
	{ "STATUS_NAME", "status_name", -30, 0 },
	{ "OBJECT_NAME", "object_name", 0, 0 },
	CGROUP_COLUMN,
};
static const struct table rm_table = TABLE("rm", rm_cols);

static void print_rm(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char buf[32], obj[16], st[16];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct rm_key *k = snapshot_key(s, i);
		const struct rm_stats *now = snapshot_value(s, i);
		const struct rm_stats *was = map_snapshot_find(&prev_rm, k);
		const char *sname = nv_status_name(k->status), *oname = nv_object_name(k->esc, k->obj);

		if (!DELTA(now, was, count))
			continue;
		table_header_once(f, &rm_table, &header);
		snprintf(obj, sizeof(obj), "0x%x", k->obj);
		snprintf(st, sizeof(st), "0x%x", k->status);
		table_row(f, &rm_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(nv_escape_str(k->esc, buf, sizeof(buf))),
			CELL_U(nv_escape_nr(k->esc)),
			nv_escape_has_object(k->esc) ? (json_output() ? CELL_U(k->obj) : CELL_S(obj)) : CELL_NONE,
			json_output() ? CELL_U(k->status) : CELL_S(st), CELL_U(DELTA(now, was, count)),
			sname ? CELL_S(sname) : CELL_NONE, oname ? CELL_S(oname) : CELL_NONE,
			cell_cgroup(now->cgroup_id) });
	}
}

static const struct column irq_cols[] = {
	{ "GPU", "gpu", -12, 0 },
	{ "KIND", "kind", -5, 0 },
	{ "TOP", "top", 9, 0 },
	{ "RATE/s", "rate_per_s", 10, 0 },
	{ "BOTTOM", "bottom", 9, 0 },
	{ "T->B AVG", "top_to_bottom_avg", 13, COL_TIME },
	{ "T->B MAX", "top_to_bottom_max", 13, COL_TIME },
};
static const struct table irq_table = TABLE("interrupt", irq_cols);
static const struct table irq_hist_table = { "interrupt_hist", irq_cols, 2, false };

static void print_irqs(FILE *f, const struct map_snapshot *s, double secs)
{
	bool header = false;
	char gpu[32], title[80];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct irq_key *k = snapshot_key(s, i);
		const struct irq_stats *now = snapshot_value(s, i);
		const struct irq_stats *was = map_snapshot_find(&prev_irqs, k);
		unsigned long long top = DELTA(now, was, top);
		struct lat_hist tb;

		if (!top && !DELTA(now, was, bottom))
			continue;
		table_header_once(f, &irq_table, &header);
		lat_hist_delta(&tb, &now->top_bottom, was ? &was->top_bottom : NULL);
		nv_gpu_name(k->gpu, gpu, sizeof(gpu));
		table_row(f, &irq_table, (struct cell[]){
			CELL_S(gpu), CELL_S(irq_kind_name(k->kind)), CELL_U(top),
			CELL_F(secs > 0 ? top / secs : 0.0, 1), CELL_U(DELTA(now, was, bottom)),
			cell_hist_avg(&tb), CELL_U_IF(tb.count, tb.max) });
		if (tb.count) {
			snprintf(title, sizeof(title), "%s %s top half -> bottom half:", gpu,
				 irq_kind_name(k->kind));
			table_lat_hist(f, &irq_hist_table, (struct cell[]){
				CELL_S(gpu), CELL_S(irq_kind_name(k->kind)) },
				"top_to_bottom", title, &tb, time_unit());
		}
	}
}

static const struct column p2p_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "FUNCTION", "function", -31, 0 },	/* nvidia_p2p_get_pages_persistent */
	{ "CALLS", "calls", 7, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "BYTES", "bytes", 14, 0 },
	CGROUP_COLUMN,
};
static const struct table p2p_table = TABLE("p2p", p2p_cols);

static void print_p2p(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	char fn[48];
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct p2p_key *k = snapshot_key(s, i);
		const struct p2p_stats *now = snapshot_value(s, i);
		const struct p2p_stats *was = map_snapshot_find(&prev_p2p, k);

		if (!DELTA(now, was, calls))
			continue;
		table_header_once(f, &p2p_table, &header);
		snprintf(fn, sizeof(fn), "nvidia_p2p_%s", p2p_fn_name(k->fn));
		table_row(f, &p2p_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(fn), CELL_U(DELTA(now, was, calls)),
			CELL_U(DELTA(now, was, errors)), CELL_U(DELTA(now, was, bytes)),
			cell_cgroup(now->cgroup_id) });
	}
}

static const struct column xid_cols[] = {
	{ "GPU", "gpu", -12, 0 },
	{ "XID", "xid", 4, 0 },
	{ "COUNT", "count", 6, 0 },
	{ "PID", "pid", -9, 0 },	/* the RM's string: "1234" or "'<unknown>'" */
	{ "NAME", "name", -16, 0 },
	{ "MEANING", "meaning", 0, 0 },
	{ "", "message", 0, COL_JSON_ONLY },
};
static const struct table xid_table = TABLE("xid", xid_cols);

static void print_xids(FILE *f)
{
	bool header = false;
	char gpu[32];
	int i;

	for (i = 0; i < nr_xid_rows; i++) {
		struct xid_row *x = &xid_rows[i];
		const char *meaning = nv_xid_meaning(x->xid);

		if (x->count == x->prev)
			continue;
		table_header_once(f, &xid_table, &header);
		table_row(f, &xid_table, (struct cell[]){
			CELL_S(nv_gpu_name(x->gpu, gpu, sizeof(gpu))), CELL_U(x->xid),
			CELL_U(x->count - x->prev), CELL_S_OR_NONE(x->pid), CELL_S_OR_NONE(x->name),
			meaning ? CELL_S(meaning) : CELL_NONE, CELL_S_OR_NONE(x->msg) });
		x->prev = x->count;
	}
}

/* The maps a summary reads: 0, or the error said (nothing kept). */
static int read_maps(struct map_snapshot *now)
{
	struct bpf_map *const maps[NR_SNAPS] = {
		skel->maps.calls, skel->maps.rm_rows, skel->maps.err_rows, skel->maps.dev_rows,
		skel->maps.irq_rows, skel->maps.p2p_rows, skel->maps.power_rows,
	};

	return tool_snapshot(maps, now, NR_SNAPS);
}

static int print_summary(void *ctx)
{
	struct map_snapshot now[NR_SNAPS];
	unsigned long long t = monotonic_ns();
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = read_maps(now);
	if (err)
		return err;
	map_snapshot_sort(&now[S_RM], cmp_u32_quad);
	map_snapshot_sort(&now[S_ERRS], cmp_u32_quad);
	map_snapshot_sort(&now[S_DEVS], cmp_u32_pair);
	map_snapshot_sort(&now[S_IRQS], cmp_u32_pair);
	map_snapshot_sort(&now[S_P2P], cmp_u32_pair);
	map_snapshot_sort(&now[S_POWER], cmp_u32);

	summary_begin(f);
	print_ioctls(f, &now[S_CALLS]);
	print_errors(f, &now[S_ERRS]);
	print_rm(f, &now[S_RM]);
	if (now[S_DEVS].n)
		text_printf(f, "\n");
	print_devices(f, &now[S_DEVS]);
	print_irqs(f, &now[S_IRQS], (t - last_summary_ns) / 1e9);
	print_p2p(f, &now[S_P2P]);
	print_mappings(f, &now[S_DEVS], &prev_devs);
	print_power(f, &now[S_POWER], &prev[S_POWER]);
	print_rm_memory(f, env.live);
	print_xids(f);
	fflush(f);

	map_snapshot_keep(prev, now, NR_SNAPS);
	last_summary_ns = t;
	return 0;
}

/* ---- --prometheus -------------------------------------------------------- */

static int write_metrics(struct metrics *m, void *ctx)
{
	struct map_snapshot now[NR_SNAPS];
	int err;

	(void)ctx;
	err = read_maps(now);
	if (err)
		return err;
	map_snapshot_sort(&now[S_RM], cmp_u32_quad);
	map_snapshot_sort(&now[S_DEVS], cmp_u32_pair);
	map_snapshot_sort(&now[S_IRQS], cmp_u32_pair);
	map_snapshot_sort(&now[S_POWER], cmp_u32);
	err = nvdrv_metrics(m, &(struct nvdrv_metrics_in){
		.calls = &now[S_CALLS], .rm = &now[S_RM], .devs = &now[S_DEVS],
		.irqs = &now[S_IRQS], .power = &now[S_POWER] });
	map_snapshot_free_all(now, NR_SNAPS);
	return err;
}

/* ---- -e, and Xids in every mode ------------------------------------------------- */

/* --timeline: the event as -e's line has it (nvdrv/event_lines.c). */
static void timeline_event(const struct nvdrv_event *e, const struct xid_report *xr)
{
	nvdrv_timeline_event(e, xr);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct nvdrv_event *e = data;
	struct xid_report xr = {};

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	/* The RM's objects: GPU memory per process, in every mode; no -e lines. */
	if (is_rm_event(e->type)) {
		rm_event(e);
		return 0;
	}
	/* Xids are counted in every mode. */
	if (e->type == EV_XID)
		xid_event(e, &xr);
	if (common_env.events)
		print_event(e, &xr);
	timeline_event(e, &xr);
	return 0;
}

/* The programs of the hooks' roles (nvdrv/hooks.c chooses the functions). */
static struct bpf_program *const *hook_programs(void)
{
	static struct bpf_program *progs[NR_PROGS];

	progs[P_OPEN] = skel->progs.open_entry;
	progs[P_OPEN_RET] = skel->progs.open_return;
	progs[P_CLOSE] = skel->progs.close_entry;
	progs[P_IOCTL] = skel->progs.ioctl_entry;
	progs[P_IOCTL_RET] = skel->progs.ioctl_return;
	progs[P_MMAP] = skel->progs.mmap_entry;
	progs[P_MMAP_RET] = skel->progs.mmap_return;
	progs[P_FAULT] = skel->progs.fault_entry;
	progs[P_ISR] = skel->progs.isr_entry;
	progs[P_ISR_MSIX] = skel->progs.isr_msix_entry;
	progs[P_ISR_MSIX_RET] = skel->progs.isr_msix_return;
	progs[P_BH] = skel->progs.bh_entry;
	progs[P_BH_UNLOCKED] = skel->progs.bh_unlocked_entry;
	progs[P_P2P] = skel->progs.p2p_entry;
	progs[P_P2P_RET] = skel->progs.p2p_return;
	progs[P_PRINTF] = skel->progs.printf_entry;
	progs[P_LOG_ERROR] = skel->progs.log_error_entry;
	progs[P_POLL] = skel->progs.poll_entry;
	progs[P_POLL_RET] = skel->progs.poll_return;
	progs[P_POWER] = skel->progs.power_entry;
	progs[P_POWER_RET] = skel->progs.power_return;
	progs[P_VMA_OPEN] = skel->progs.vma_open_entry;
	progs[P_VMA_RELEASE] = skel->progs.vma_release_entry;
	progs[P_UVM_IOCTL] = skel->progs.uvm_ioctl_entry;
	progs[P_BH_KTHREAD] = skel->progs.bh_kthread_entry;
	progs[P_BH_MSIX_KTHREAD] = skel->progs.bh_msix_kthread_entry;
	progs[P_P2P_GET_PAGES] = skel->progs.p2p_get_pages_entry;
	progs[P_P2P_GET_PAGES_PERSISTENT] = skel->progs.p2p_get_pages_persistent_entry;
	progs[P_P2P_PUT_PAGES] = skel->progs.p2p_put_pages_entry;
	progs[P_P2P_DMA_MAP_PAGES] = skel->progs.p2p_dma_map_pages_entry;
	progs[P_P2P_DMA_UNMAP_PAGES] = skel->progs.p2p_dma_unmap_pages_entry;
	progs[P_P2P_PUT_PAGES_PERSISTENT] = skel->progs.p2p_put_pages_persistent_entry;
	return progs;
}

/* "535.261.03" from /sys/module/nvidia/version. */
static const char *driver_version(void)
{
	static char v[64] = "";
	FILE *f = fopen("/sys/module/nvidia/version", "r");

	if (f) {
		if (fgets(v, sizeof(v), f))
			v[strcspn(v, "\n")] = '\0';
		fclose(f);
	}
	return v;
}

/*
 * Where each UVM command's parameters hold the RM's status, for the loaded
 * driver (nvidia-uvm.ko is built from the same package as nvidia.ko).
 */
static int fill_uvm_status(void)
{
	unsigned int major = (unsigned int)strtoul(driver_version(), NULL, 10);
	int fd = bpf_map__fd(skel->maps.uvm_status);
	size_t i;

	for (i = 0; i < nv_uvm_ioctl_count(); i++) {
		__u32 cmd = nv_uvm_ioctl_cmd(i);
		__s32 off = nv_uvm_status_offset(cmd, major);

		if (off >= 0 && bpf_map_update_elem(fd, &cmd, &off, BPF_ANY))
			return -errno;
	}
	return 0;
}

/* The line that says where Xids come from: said once attached (start_tool waits for stderr). */
static char xid_source[600];

/*
 * Where Xids come from, said in one line: the driver's own tracepoint,
 * nvidia:nvidia_dev_xid (575 and later), read through its format, the
 * stable source, with the kprobe on nv_printf for the pid and name of the
 * RM's report of each (the tracepoint's message has neither); else the
 * kprobes on nv_printf and nv_log_error, whose arguments nvdrv decodes
 * (535, 550). Before loading: the tracepoint's
 * fields into rodata, and the programs of the source not taken dropped.
 */
static bool choose_xid_source(void)
{
	struct nvdrv_bpf__rodata *ro = skel->rodata;
	char why[400];

	if (nv_xid_tracepoint(&ro->f_xid_dev, &ro->f_xid_code, &ro->f_xid_msg, why, sizeof(why))) {
		snprintf(xid_source, sizeof(xid_source),
			 "nvdrv: Xids from the driver's tracepoint nvidia:nvidia_dev_xid, "
			 "their pid and name from nv_printf");
		/* nv_printf's report, just before, names the process the tracepoint does not. */
		drop_hooks(P_LOG_ERROR);
		ro->nv_xid_from_tracepoint = true;
		return true;
	}
	if (!why[0])
		snprintf(xid_source, sizeof(xid_source), "nvdrv: Xids from nv_printf and nv_log_error "
			 "(kprobes): nvidia.ko has no tracepoint nvidia:nvidia_dev_xid (575 and later "
			 "have it)");
	else
		snprintf(xid_source, sizeof(xid_source), "nvdrv: Xids from nv_printf and nv_log_error "
			 "(kprobes), not from the tracepoint: %s", why);
	bpf_program__set_autoload(skel->progs.dev_xid, false);
	bpf_program__set_autoload(skel->progs.records_fired, false);
	return false;
}

/* The Xid tracepoint, and a counter of its firings for what the kernel skipped. */
static int attach_xid_tracepoint(void)
{
	const struct record_tp tp = { skel->progs.dev_xid, "nvidia", "nvidia_dev_xid" };

	return records_attach(&tp, 1) ?: records_count_skipped(skel->obj);
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct nvdrv_bpf__bss *bss = skel->bss;

	report_lost("rows", bss->dropped_rows, 0, "%llu calls beyond the tables' rows not "
		    "counted", (unsigned long long)bss->dropped_rows);
	report_lost("inflight", bss->dropped_inflight, MAX_INFLIGHT, "%llu calls not followed "
		    "to their return (more than %d in flight)",
		    (unsigned long long)bss->dropped_inflight, MAX_INFLIGHT);
	report_lost("xids", dropped_xids, MAX_XIDS, "%llu Xids beyond %d (GPU, Xid) rows not "
		    "counted", dropped_xids, MAX_XIDS);
	report_lost("rm_objects", dropped_rm_objects, MAX_RM_OBJECTS, "%llu RM objects beyond %d "
		    "alive not followed (their memory not counted)", dropped_rm_objects,
		    MAX_RM_OBJECTS);
	report_lost("memory_rows", dropped_mem_rows, MAX_MEM_ROWS, "%llu RM memory allocations "
		    "beyond %d (process, class) rows not counted", dropped_mem_rows, MAX_MEM_ROWS);
}

int main(int argc, char **argv)
{
	struct trace_loop loop = {};
	struct bpf_link *fork_link = NULL;
	bool xid_tracepoint;
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	if (!module_loaded("nvidia")) {
		fprintf(stderr, "nvdrv: module nvidia is not loaded (no /sys/module/nvidia): "
			"'modprobe nvidia'\n");
		return 1;
	}

	skel = nvdrv_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	xid_tracepoint = choose_xid_source();
	choose_hook_programs(hook_programs(), module_loaded("nvidia_uvm"));
	open_hooks();
	/* A fork's copies of the mappings become the child's when it has its pid. */
	bpf_program__set_autoload(skel->progs.fork_mappings,
				  bpf_program__autoload(skel->progs.vma_open_entry));

	err = tool_load(skel->skeleton, skel->maps.cgroup_map);
	if (err)
		goto cleanup;
	if (uvm_hooked()) {
		err = fill_uvm_status();
		if (err) {
			report_bpf_error("fill the UVM status map", err);
			goto cleanup;
		}
	}
	/* Before attaching: an event that comes while the others attach is not before it. */
	last_summary_ns = monotonic_ns();
	err = attach_hooks();
	if (!err && xid_tracepoint)
		err = attach_xid_tracepoint();
	if (err)
		goto cleanup;
	if (bpf_program__autoload(skel->progs.fork_mappings)) {
		fork_link = bpf_program__attach_raw_tracepoint(skel->progs.fork_mappings,
								 "sched_process_fork");
		if (!fork_link)
			fprintf(stderr, "nvdrv: cannot attach to sched_process_fork (%s): "
				"mappings copied by a fork are not counted\n", strerror(errno));
	}
	/* All attached: the first lines on stderr (a test's start_tool waits for one). */
	fprintf(stderr, "%s\n", xid_source);
	say_missing_hooks();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing nvidia.ko %s, counting from now", driver_version());
	report_dropped();
	report_missed_returns();
	err = tool_close(&loop, err);
cleanup:
	detach_hooks();
	records_detach();
	bpf_link__destroy(fork_link);
	map_snapshot_free_all(prev, NR_SNAPS);
	nvdrv_bpf__destroy(skel);
	return err != 0;
}
