// SPDX-License-Identifier: GPL-2.0
/*
 * amdkfd - AMD GPU compute (ROCm) seen from the kernel: amdgpu's KFD
 * (/dev/kfd), per process: every ioctl by name with its errors and latency,
 * GPU memory allocated and freed (live bytes, leaks, failures), compute
 * queues, evictions and how long until restore, SVM migrations and GPU page
 * faults, VM faults and GPU resets.
 *
 * ROCm's runtimes (HIP, OpenCL on ROCm) do not go through the DRM
 * scheduler or amdgpu's CS ioctl: they allocate through /dev/kfd and submit
 * through user-mode queues. The KFD has no tracepoints: kprobes on the
 * amdgpu module's functions by name, each role attached where its function
 * exists, and one line saying what the others would have shown.
 *
 * Its own parts, in tools/amdkfd/: the KFD's names for its numbers, from
 * the uapi header (kfd_names.c, generated), the hooks (hooks.c), the -e
 * details (decode.c), -l's leaks (leaks.c) and --prometheus (prom.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ioctl.h>

#include "amdkfd.h"
#include "amdkfd.skel.h"
#include "amdkfd/decode.h"
#include "amdkfd/exits.h"
#include "amdkfd/hooks.h"
#include "amdkfd/kfd_names.h"
#include "amdkfd/leaks.h"
#include "amdkfd/prom.h"
#include "amdkfd/timeline.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"
#include "untrusted.h"

static struct env {
	bool leaks;
} env;

static struct amdkfd_bpf *skel;
static struct trace_loop loop;
static struct bpf_link *exit_link;

/* The maps a summary reads, and the previous summary's: each prints what changed. */
enum { S_CALLS, S_ERRS, S_MEM, S_QUEUES, S_PROCS, NR_SNAPS };
static struct map_snapshot prev[NR_SNAPS];

const char *argp_program_version = "amdkfd 0.1";
static const char doc[] =
"Trace AMD GPU compute through amdgpu's KFD (/dev/kfd): ioctls, memory, queues,\n"
"evictions, SVM migrations and GPU page faults, per process.\n"
"\n"
"USAGE: amdkfd [-ejlmCTv] [-p PID] [-c COMM] [--cgroup PATH] [--container ID]\n"
"              [--pod UID] [--timeline FILE] [--prometheus FILE]\n"
"              [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    amdkfd                # summary at Ctrl-C\n"
"    amdkfd 5              # a summary every 5 seconds\n"
"    amdkfd -e             # one line per call and per event\n"
"    amdkfd -l             # and the allocations never freed\n"
"    amdkfd -c python3     # only processes named python3\n"
"    amdkfd -j | jq .      # JSON lines\n"
"    amdkfd --timeline kfd.json  # calls, queues, evictions for ui.perfetto.dev\n";

static const struct argp_option opts[] = {
	{ "leaks", 'l', NULL, 0, "End each summary with the allocations not freed", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'l':
		env.leaks = true;
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
	.events = "Print one line per call and per event",
	.timeline = "Write the calls, queues and evictions to FILE as a timeline (ui.perfetto.dev opens it)",
	/* Records of ~220 bytes: room for a burst of ~19000 calls while the reader sleeps. */
	.ring_bytes = 4 << 20,
	.quiet_ring_bytes = 256 << 10,
};

/* ---- exits ---------------------------------------------------------------- */

/*
 * What the maps keep to follow the processes that exited: their
 * allocations (-l lists them in the summaries), queues and pending events.
 */
static void forget_exited(bool summary)
{
	if (summary || !env.leaks)
		exits_forget(skel->maps.bos, offsetof(struct bo_key, started));
	exits_forget(skel->maps.queues, offsetof(struct queue_id_key, started));
	exits_forget(skel->maps.pending, offsetof(struct pending_key, started));
}

/*
 * A process gone. What no summary shows is forgotten at once, but at most
 * once a second (each time a read of three maps), the rest at a later exit
 * or summary: without an interval there may be no summary before the end.
 */
static int process_exited(const struct amdkfd_event *e)
{
	static unsigned long long last;
	unsigned long long now = monotonic_ns();
	int err = exits_add(e->pid, e->v[0]);

	if (!err && now - last >= 1000000000ULL) {
		forget_exited(false);
		last = now;
	}
	return err;
}

/* ---- -e ------------------------------------------------------------------- */

static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "EVENT", "event", -26, 0 },
	{ "RET", "ret", 5, COL_SPARSE },
	{ "ERRNO", "errno", -7, COL_SPARSE },
	{ "LAT", "latency", 8, COL_TIME | COL_SPARSE },
	{ "DETAIL", "detail", 0, 0 },
	CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

static const char *const event_names[] = {
	[EV_EVICT] = "evict", [EV_RESTORE] = "restore", [EV_MIGRATE] = "migrate",
	[EV_FAULT] = "page_fault", [EV_VMFAULT] = "vm_fault", [EV_RESET] = "gpu_reset",
};

/* What the KFD did to a process: its DETAIL. */
static void smi_detail(char *buf, size_t size, const struct amdkfd_event *e)
{
	char t[32];

	switch (e->type) {
	case EV_EVICT:
		snprintf(buf, size, "trigger=%s",
			 kfd_name_or_number(kfd_eviction_trigger_name(e->v[0]), e->v[0], t, sizeof(t)));
		break;
	case EV_MIGRATE: {
		/* v[3]: the trigger, and above it the error of a migration that failed. */
		__u32 trigger = e->v[3];
		int error = e->v[3] >> 32;
		char ebuf[16];
		int n;

		n = snprintf(buf, size, "pages=0x%llx-0x%llx from=%u to=%u trigger=%s",
			     (unsigned long long)e->v[0], (unsigned long long)e->v[1],
			     (unsigned int)(e->v[2] >> 32), (unsigned int)e->v[2],
			     kfd_name_or_number(kfd_migrate_trigger_name(trigger), trigger, t,
						sizeof(t)));
		if (error && n > 0 && (size_t)n < size)
			snprintf(buf + n, size - n, " error=%s",
				 errno_name(error < 0 ? -error : error, ebuf, sizeof(ebuf)));
		break;
	}
	case EV_FAULT:
		snprintf(buf, size, "address=0x%llx migrated=%s", (unsigned long long)e->v[0],
			 e->v[1] ? "yes" : "no");
		break;
	case EV_VMFAULT:
		snprintf(buf, size, "pasid=%llu", (unsigned long long)e->v[0]);
		break;
	case EV_RESET:
		snprintf(buf, size, "%s", e->v[0] ? "done" : "begins");
		break;
	default:
		buf[0] = 0;
	}
}

/* `comm`, or, when the kernel gave a pid only, /proc's name of it ("?": gone). */
static const char *proc_comm(__u32 pid, const char *comm, char *buf, size_t size)
{
	if (comm[0])
		return comm;
	return proc_comm_read(pid, buf, size) && buf[0] ? buf : "?";
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct amdkfd_event *e = data;
	char name[32], detail[256], ebuf[16], comm[COMM_LEN + 1];
	struct cell ret = CELL_NONE, err = CELL_NONE, lat = CELL_NONE;
	const char *event, *who;

	if (size < sizeof(*e))
		return 0;
	if (e->type == EV_EXIT)
		return process_exited(e);
	if (e->type <= EV_CLOSE) {
		bool raw = _IOC_TYPE(e->cmd) != KFD_IOCTL_TYPE;

		event = kfd_call_name(name, sizeof(name), e->type == EV_IOCTL ? OP_IOCTL :
				      e->type == EV_OPEN ? OP_OPEN : OP_CLOSE,
				      raw ? e->cmd : _IOC_NR(e->cmd), raw);
		if (e->type == EV_IOCTL)
			kfd_call_detail(detail, sizeof(detail), e->cmd, e->args, e->args_len, e->ret);
		else
			detail[0] = 0;
		if (e->type != EV_CLOSE) {
			ret = CELL_I(e->ret);
			lat = CELL_U(e->latency);
			if (e->ret < 0)
				err = CELL_S(errno_name(-e->ret, ebuf, sizeof(ebuf)));
		}
	} else {
		event = e->type < sizeof(event_names) / sizeof(event_names[0]) &&
			event_names[e->type] ? event_names[e->type] : "?";
		smi_detail(detail, sizeof(detail), e);
		/* A restore, a migration or a fault whose start was seen: how long it took. */
		if (e->type == EV_RESTORE || e->type == EV_MIGRATE || e->type == EV_FAULT)
			lat = e->ret < 0 ? CELL_NONE : CELL_U(e->latency);
	}
	who = e->pid ? proc_comm(e->pid, e->comm, comm, sizeof(comm)) : "-";
	if (common_env.events)
		table_event(stdout, &event_table, (struct cell[]){
			CELL_F(trace_seconds(e->ts_ns), 6), CELL_U_IF(e->pid, e->pid),
			CELL_S(who), CELL_S(event), ret, err, lat, CELL_S(detail),
			cell_cgroup(e->cgroup_id) }, e->ts_ns);
	if (timeline_on())
		amdkfd_timeline_event(e, who, event, detail);
	return 0;
}

/* ---- the summary ---------------------------------------------------------- */

/* By the __u32s of a key, in order: the pid first, its start last. */
static int cmp_u32s(const __u32 *x, const __u32 *y, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static int cmp_call(const void *a, const void *b)
{
	const struct call_key *x = a, *y = b;

	return cmp_u32s((const __u32[]){ x->pid, x->op, x->cmd, x->raw, x->started },
			(const __u32[]){ y->pid, y->op, y->cmd, y->raw, y->started }, 5);
}

static int cmp_err(const void *a, const void *b)
{
	const struct err_key *x = a, *y = b;

	return cmp_call(a, b) ?: cmp_u32s(&x->err, &y->err, 1);
}

static int cmp_mem(const void *a, const void *b)
{
	return cmp_u32s(a, b, sizeof(struct mem_key) / 4);
}

static int cmp_queue(const void *a, const void *b)
{
	return cmp_u32s(a, b, sizeof(struct queue_key) / 4);
}

static int cmp_proc(const void *a, const void *b)
{
	return cmp_u32s(a, b, sizeof(struct proc_key) / 4);
}

static const struct column call_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CALL", "call", -26, 0 },
	{ "CALLS", "calls", 8, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "AVG", "avg", 9, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table call_table = TABLE("call", call_cols);
/* A row's histogram is named by its first three columns. */
static const struct table call_hist_table = { "call_hist", call_cols, 3, false };

static const struct column err_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CALL", "call", -26, 0 },
	{ "ERRNO", "errno", -8, 0 },
	{ "COUNT", "count", 8, 0 },
	CGROUP_COLUMN,
};
static const struct table err_table = TABLE("error", err_cols);

static const struct column mem_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "GPU", "gpu", -6, 0 },
	{ "KIND", "kind", -10, 0 },
	{ "ALLOCS", "allocs", 7, 0 },
	{ "BYTES", "bytes", 12, 0 },
	{ "FREES", "frees", 6, 0 },
	{ "FREED", "freed_bytes", 12, 0 },
	{ "FAILED", "failed", 6, 0 },
	{ "LIVE", "live", 5, 0 },
	{ "LIVE_BYTES", "live_bytes", 12, 0 },
	{ "PEAK_BYTES", "peak_bytes", 12, 0 },
	CGROUP_COLUMN,
};
static const struct table mem_table = TABLE("memory", mem_cols);

static const struct column queue_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "GPU", "gpu", -6, 0 },
	{ "TYPE", "queue_type", -12, 0 },	/* "type" names the JSON object */
	{ "CREATED", "created", 8, 0 },
	{ "DESTROYED", "destroyed", 9, 0 },
	{ "FAILED", "failed", 6, 0 },
	{ "ALIVE", "alive", 5, 0 },
	CGROUP_COLUMN,
};
static const struct table queue_table = TABLE("queues", queue_cols);

static const struct column proc_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "EVICTIONS", "evictions", 9, 0 },
	{ "RESTORES", "restores", 8, 0 },
	{ "RESTORE_AVG", "restore_avg", 11, COL_TIME },
	{ "MIGRATIONS", "migrations", 10, 0 },
	{ "PAGES", "migrated_pages", 8, 0 },
	{ "FAULTS", "faults", 7, 0 },
	{ "WRITES", "write_faults", 6, 0 },
	{ "MIGRATED", "faults_migrated", 8, 0 },
	{ "TRIGGERS", "triggers", 0, 0 },
	{ "", "migrations_failed", 0, COL_JSON_ONLY },
};
static const struct table proc_table = TABLE("process", proc_cols);
static const struct table proc_hist_table = { "process_hist", proc_cols, 2, false };

static const struct column device_cols[] = {
	{ "VM_FAULTS", "vm_faults", 9, 0 },
	{ "GPU_RESETS", "gpu_resets", 10, 0 },
};
static const struct table device_table = TABLE("device", device_cols);

/*
 * A process's name for the rows the kernel charged to it by pid only (its
 * evictions, migrations, faults: <= 6.12 gives no task): its calls' name,
 * else /proc's.
 */
static const char *comm_of(const struct proc_key *k, const char *comm,
			   const struct map_snapshot *calls, char *buf, size_t size)
{
	size_t i;

	if (comm[0])
		return comm;
	for (i = 0; i < calls->n; i++) {
		const struct call_key *c = snapshot_key(calls, i);

		if (c->pid == k->pid && c->started == k->started)
			return ((const struct call_stats *)snapshot_value(calls, i))->comm;
	}
	return proc_comm(k->pid, comm, buf, size);
}

static void print_calls(FILE *f, const struct map_snapshot *now)
{
	const struct map_snapshot *was = &prev[S_CALLS];
	char name[32], title[96];
	struct call_stats d;
	size_t i;
	int pass;

	table_header(f, &call_table);
	/* The rows, then their histograms under the table, in its order. */
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			text_printf(f, "\n");
		for (i = 0; i < now->n; i++) {
			const struct call_key *k = snapshot_key(now, i);
			const struct call_stats *s = snapshot_value(now, i), *p;
			const char *call = kfd_call_name(name, sizeof(name), k->op, k->cmd, k->raw);

			p = map_snapshot_find(was, k);
			d = *s;
			d.calls = DELTA(s, p, calls);
			d.errors = DELTA(s, p, errors);
			lat_hist_delta(&d.lat, &s->lat, p ? &p->lat : NULL);
			if (!d.calls)
				continue;
			if (!pass) {
				table_row(f, &call_table, (struct cell[]){
					CELL_U(k->pid), CELL_S(d.comm), CELL_S(call), CELL_U(d.calls),
					CELL_U(d.errors),
					k->op == OP_CLOSE ? CELL_NONE : cell_hist_avg(&d.lat),
					cell_cgroup(d.cgroup_id) });
				continue;
			}
			if (k->op == OP_CLOSE)
				continue;
			snprintf(title, sizeof(title), "%s (pid %u) %s:", d.comm, k->pid, call);
			table_lat_hist(f, &call_hist_table, (struct cell[]){
				CELL_U(k->pid), CELL_S(d.comm), CELL_S(call) },
				"latency", title, &d.lat, time_unit());
		}
	}
}

static void print_errors(FILE *f, const struct map_snapshot *now)
{
	char name[32], ebuf[16];
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct err_key *k = snapshot_key(now, i);
		const struct err_stats *s = snapshot_value(now, i);
		const struct err_stats *p = map_snapshot_find(&prev[S_ERRS], k);
		__u64 count = DELTA(s, p, count);

		if (!count)
			continue;
		table_header_once(f, &err_table, &header);
		table_row(f, &err_table, (struct cell[]){
			CELL_U(k->call.pid), CELL_S(s->comm),
			CELL_S(kfd_call_name(name, sizeof(name), k->call.op, k->call.cmd, k->call.raw)),
			CELL_S(errno_name(k->err, ebuf, sizeof(ebuf))), CELL_U(count),
			cell_cgroup(s->cgroup_id) });
	}
}

static void print_memory(FILE *f, const struct map_snapshot *now)
{
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct mem_key *k = snapshot_key(now, i);
		const struct mem_stats *s = snapshot_value(now, i);
		const struct mem_stats *p = map_snapshot_find(&prev[S_MEM], k);
		__u64 allocs = DELTA(s, p, allocs), frees = DELTA(s, p, frees);
		__u64 failed = DELTA(s, p, failed);

		if (!allocs && !frees && !failed)
			continue;
		table_header_once(f, &mem_table, &header);
		table_row(f, &mem_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(s->comm), CELL_U(k->gpu_id),
			CELL_S(kfd_mem_kind_name(k->kind)), CELL_U(allocs),
			CELL_U(DELTA(s, p, alloc_bytes)), CELL_U(frees), CELL_U(DELTA(s, p, freed_bytes)),
			CELL_U(failed), CELL_I(s->live), CELL_I(s->live_bytes), CELL_U(s->peak_bytes),
			cell_cgroup(s->cgroup_id) });
	}
}

static void print_queues(FILE *f, const struct map_snapshot *now)
{
	bool header = false;
	char t[16];
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct queue_key *k = snapshot_key(now, i);
		const struct queue_stats *s = snapshot_value(now, i);
		const struct queue_stats *p = map_snapshot_find(&prev[S_QUEUES], k);
		__u64 created = DELTA(s, p, created), destroyed = DELTA(s, p, destroyed);
		__u64 failed = DELTA(s, p, failed);

		if (!created && !destroyed && !failed)
			continue;
		table_header_once(f, &queue_table, &header);
		table_row(f, &queue_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(s->comm), CELL_U(k->gpu_id),
			CELL_S(kfd_name_or_number(kfd_queue_type_name(k->type), k->type, t, sizeof(t))),
			CELL_U(created), CELL_U(destroyed), CELL_U(failed), CELL_I(s->alive),
			cell_cgroup(s->cgroup_id) });
	}
}

/* "TTM:2,USERPTR:1": evictions by their trigger. */
static const char *triggers(char *buf, size_t size, const __u64 *now, const __u64 *was)
{
	size_t len = 0;
	char t[16];
	int i;

	buf[0] = 0;
	for (i = 0; i < NR_TRIGGERS; i++) {
		__u64 n = now[i] - (was ? was[i] : 0);
		const char *name = i < NR_TRIGGERS - 1 ? kfd_eviction_trigger_name(i) : "OTHER";

		if (n)
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s:%llu",
					len ? "," : "", kfd_name_or_number(name, i, t, sizeof(t)),
					(unsigned long long)n);
	}
	return buf;
}

static void print_procs(FILE *f, const struct map_snapshot *now, const struct map_snapshot *calls)
{
	bool header = false;
	char comm[COMM_LEN + 1], trig[160], title[96];
	struct proc_stats d;
	size_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < now->n; i++) {
			const struct proc_key *k = snapshot_key(now, i);
			const struct proc_stats *s = snapshot_value(now, i);
			const struct proc_stats *p = map_snapshot_find(&prev[S_PROCS], k);
			const char *name = comm_of(k, s->comm, calls, comm, sizeof(comm));

			d = *s;
			d.evictions = DELTA(s, p, evictions);
			d.restores = DELTA(s, p, restores);
			d.migrations = DELTA(s, p, migrations);
			d.migrated_pages = DELTA(s, p, migrated_pages);
			d.migrations_failed = DELTA(s, p, migrations_failed);
			d.faults = DELTA(s, p, faults);
			d.write_faults = DELTA(s, p, write_faults);
			d.faults_migrated = DELTA(s, p, faults_migrated);
			lat_hist_delta(&d.restore_lat, &s->restore_lat, p ? &p->restore_lat : NULL);
			if (!d.evictions && !d.restores && !d.migrations && !d.migrations_failed &&
			    !d.faults)
				continue;
			if (pass) {
				if (!d.restore_lat.count)
					continue;
				snprintf(title, sizeof(title), "%s (pid %u) evict -> restore:", name,
					 k->pid);
				table_lat_hist(f, &proc_hist_table, (struct cell[]){
					CELL_U(k->pid), CELL_S(name) },
					"restore", title, &d.restore_lat, time_unit());
				continue;
			}
			table_header_once(f, &proc_table, &header);
			table_row(f, &proc_table, (struct cell[]){
				CELL_U(k->pid), CELL_S(name), CELL_U(d.evictions), CELL_U(d.restores),
				d.restore_lat.count ? cell_hist_avg(&d.restore_lat) : CELL_NONE,
				CELL_U(d.migrations), CELL_U(d.migrated_pages), CELL_U(d.faults),
				CELL_U(d.write_faults), CELL_U(d.faults_migrated),
				CELL_S(triggers(trig, sizeof(trig), s->evictions_by,
						p ? p->evictions_by : NULL)),
				CELL_U(d.migrations_failed) });
		}
		if (header && !pass)
			text_printf(f, "\n");
	}
}

static int print_summary(void *ctx)
{
	static __u64 last_vm_faults, last_resets;
	struct bpf_map *maps[NR_SNAPS] = {
		skel->maps.calls, skel->maps.errs, skel->maps.mem, skel->maps.queue_rows,
		skel->maps.procs,
	};
	struct map_snapshot now[NR_SNAPS];
	FILE *f = summary_stream();
	__u64 vm_faults = skel->bss->vm_faults, resets = skel->bss->gpu_resets;
	int err;

	/* The exits not read yet: the summary says who is gone. */
	if (loop.rb)
		ring_buffer__consume(loop.rb);
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	map_snapshot_sort(&now[S_CALLS], cmp_call);
	map_snapshot_sort(&now[S_ERRS], cmp_err);
	map_snapshot_sort(&now[S_MEM], cmp_mem);
	map_snapshot_sort(&now[S_QUEUES], cmp_queue);
	map_snapshot_sort(&now[S_PROCS], cmp_proc);

	summary_begin(f);
	print_calls(f, &now[S_CALLS]);
	print_errors(f, &now[S_ERRS]);
	print_memory(f, &now[S_MEM]);
	print_queues(f, &now[S_QUEUES]);
	print_procs(f, &now[S_PROCS], &now[S_CALLS]);
	if (vm_faults != last_vm_faults || resets != last_resets) {
		text_printf(f, "\n");
		table_header(f, &device_table);
		table_row(f, &device_table, (struct cell[]){
			CELL_U(vm_faults - last_vm_faults), CELL_U(resets - last_resets) });
	}
	last_vm_faults = vm_faults;
	last_resets = resets;
	if (env.leaks)
		print_leaks(f, skel->maps.bos, &now[S_CALLS]);
	fflush(f);
	map_snapshot_keep(prev, now, NR_SNAPS);
	forget_exited(true);
	return 0;
}

/* --prometheus: the trace loop's metrics_fn, reading the skeleton for prom.c. */
static int write_metrics(struct metrics *m, void *ctx)
{
	struct bpf_map *maps[] = { skel->maps.calls, skel->maps.errs, skel->maps.mem,
				   skel->maps.queue_rows, skel->maps.procs };
	struct map_snapshot now[NR_SNAPS];
	int err = tool_snapshot(maps, now, NR_SNAPS);

	if (err)
		return err;
	err = amdkfd_metrics(m, &(struct amdkfd_metrics_in){
		.calls = &now[S_CALLS], .errs = &now[S_ERRS], .mem = &now[S_MEM],
		.queues = &now[S_QUEUES], .procs = &now[S_PROCS],
		.vm_faults = skel->bss->vm_faults, .gpu_resets = skel->bss->gpu_resets,
		.dropped = skel->bss->dropped_rows + skel->bss->dropped_bos +
			   skel->bss->dropped_queues });
	map_snapshot_free_all(now, NR_SNAPS);
	forget_exited(false);
	return err;
}

static void report_dropped(void)
{
	report_lost("rows", skel->bss->dropped_rows, MAX_ROWS, "%llu events not counted (a table "
		    "of processes was full)", (unsigned long long)skel->bss->dropped_rows);
	report_lost("calls", skel->bss->dropped_calls, MAX_CALLS, "%llu calls not traced (more "
		    "than %d in flight)", (unsigned long long)skel->bss->dropped_calls, MAX_CALLS);
	report_lost("allocations", skel->bss->dropped_bos, MAX_BOS, "%llu allocations not "
		    "followed (more than %d alive)", (unsigned long long)skel->bss->dropped_bos,
		    MAX_BOS);
	report_lost("queues", skel->bss->dropped_queues, MAX_QUEUES, "%llu queues not followed "
		    "(more than %d alive)", (unsigned long long)skel->bss->dropped_queues,
		    MAX_QUEUES);
	report_lost("pending", skel->bss->dropped_pending, MAX_PENDING, "%llu evictions, "
		    "migrations or faults not timed (more than %d at once)",
		    (unsigned long long)skel->bss->dropped_pending, MAX_PENDING);
}

int main(int argc, char **argv)
{
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	if (!module_loaded("amdgpu")) {
		fprintf(stderr, "amdkfd: module amdgpu is not loaded (no /sys/module/amdgpu): "
			"'modprobe amdgpu'\n");
		return 1;
	}

	skel = amdkfd_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	skel->rodata->migrate_end_error = migration_end_has_error();
	skel->rodata->has_current_task_btf = kernel_has_current_task_btf();
	skel->rodata->task_info_comm = task_info_comm_offset();
	open_hooks(skel->obj);
	err = tool_load(skel->skeleton, skel->maps.cgroup_map);
	if (err)
		goto cleanup;
	/* Before attaching: an event that comes while the others attach is not before it. */
	err = attach_hooks();
	if (err)
		goto cleanup;
	skel->bss->task_info_returned = task_info_returned();
	exit_link = bpf_program__attach(skel->progs.proc_exit);
	if (!exit_link) {
		err = -errno;
		report_bpf_error("attach to the sched_process_exit tracepoint", err);
		goto cleanup;
	}
	/* All attached: the first line on stderr (a test's start_tool waits for one). */
	say_missing_hooks();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing amdgpu's KFD, counting from now");
	amdkfd_timeline_end(monotonic_ns());
	report_dropped();
	report_missed_returns();
	err = tool_close(&loop, err);
cleanup:
	bpf_link__destroy(exit_link);
	detach_hooks();
	exits_free();
	map_snapshot_free_all(prev, NR_SNAPS);
	amdkfd_bpf__destroy(skel);
	return err != 0;
}
