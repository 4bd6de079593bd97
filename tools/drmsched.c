// SPDX-License-Identifier: GPL-2.0
/*
 * drmsched - DRM GPU scheduler jobs: queue wait and execution time per ring.
 *
 * Follows every job of drivers built on the kernel's DRM GPU scheduler
 * (amdgpu, xe, nouveau, panfrost, panthor, v3d, etnaviv, lima, msm, ...)
 * from queued (pushed by the submitting process) to run (handed to the
 * hardware) to done (its fence signalled), on the gpu_scheduler
 * tracepoints of Linux <= 6.16 and their renamed successors of >= 6.17.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drmsched.h"
#include "drmsched/prom.h"
#include "tp_field.h"
#include "drmsched.skel.h"
#include "cgroup.h"
#include "histogram.h"
#include "maps.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "tool.h"
#include "jobs_timeline.h"
#include "timeline.h"
#include "tp_format.h"
#include "untrusted.h"

static struct env {
	char ring[RING_NAME_LEN];
	char dev[DEV_NAME_LEN];
} env;

/* The two generations of gpu_scheduler events. */
enum sched_abi { ABI_NONE, ABI_PRE_6_17, ABI_6_17 };

static enum sched_abi abi;
/* The record path: classic tracepoints read through tracefs formats (no module BTF needed). */
static bool records;
static struct drmsched_bpf *skel;

const char *argp_program_version = "drmsched 0.1";
static const char doc[] =
"Trace DRM GPU scheduler jobs: queue wait and execution time per ring.\n"
"\n"
"USAGE: drmsched [-ejmCTv] [-p PID] [-c COMM] [--cgroup PATH] [--container ID]\n"
"                [--pod UID] [-r RING] [-d DEV] [--no-btf] [--timeline FILE]\n"
"                [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    drmsched              # summary per ring at Ctrl-C\n"
"    drmsched 1 10         # a summary every second, 10 times\n"
"    drmsched -m           # histograms in milliseconds\n"
"    drmsched -e           # one line per job event, for grep and awk\n"
"    drmsched -e -T        # ... with wall-clock time\n"
"    drmsched -r gfx_0.0.0 # only the ring named gfx_0.0.0\n"
"    drmsched -d 0000:03:00.0  # only rings of this device\n"
"    drmsched -p 1234      # only jobs submitted by PID 1234\n"
"    drmsched -j | jq .    # JSON lines: one object per table row\n"
"    drmsched --cgroup /sys/fs/cgroup/gpu.slice -C  # one cgroup's jobs, named\n"
"    drmsched --no-btf     # read the trace records (gpu_sched without BTF)\n"
"    drmsched --timeline jobs.json  # the jobs, for ui.perfetto.dev\n";

static const struct argp_option opts[] = {
	{ "ring", 'r', "RING", 0, "Only this ring (scheduler name)", 0 },
	{ "dev", 'd', "DEV", 0, "Only rings of this device (dev_name, e.g. 0000:03:00.0)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'r':
		parse_name_arg(state, arg, "ring name", env.ring, sizeof(env.ring));
		break;
	case 'd':
		parse_name_arg(state, arg, "device name", env.dev, sizeof(env.dev));
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
	.events = "Print one line per job event",
	.timeline = "Write the jobs to FILE as a timeline (Trace Event Format: ui.perfetto.dev opens it)",
	.records = true,
	.needs = TOOL_TRACEFS,
	/*
	 * Bursts of jobs come by the thousand, faster than lines can be
	 * printed: room for 131072 records (a burst of 20000 jobs with a
	 * dependency each is 80000). Without -e nothing is sent.
	 */
	.ring_bytes = 8 << 20,
	.quiet_ring_bytes = 4096,
};

/* Which events this kernel has; explains what is missing when none. */
static enum sched_abi detect_abi(void)
{
	if (tracepoint_exists("gpu_scheduler", "drm_sched_job_queue"))
		return ABI_6_17;
	if (tracepoint_exists("gpu_scheduler", "drm_sched_job"))
		return ABI_PRE_6_17;
	if (module_loaded("gpu_sched"))
		fprintf(stderr, "drmsched: module gpu_sched is loaded but has no gpu_scheduler "
			"tracepoints (kernel built without CONFIG_TRACEPOINTS?)\n");
	else
		fprintf(stderr, "drmsched: no gpu_scheduler tracepoints: module gpu-sched is not "
			"loaded; it comes with the drivers that use the DRM GPU scheduler (amdgpu, xe, "
			"nouveau, panfrost, panthor, v3d, etnaviv, lima, msm): load yours, e.g. "
			"'modprobe amdgpu'\n");
	return ABI_NONE;
}

/*
 * One set of programs loads: the BTF path's for this kernel's generation of
 * events, or the record path's (attached by event name, either generation).
 */
static void choose_programs(struct drmsched_bpf *obj)
{
	bool btf_old = !records && abi == ABI_PRE_6_17, btf_new = !records && abi == ABI_6_17;

	bpf_program__set_autoload(obj->progs.queue_old, btf_old);
	bpf_program__set_autoload(obj->progs.run_old, btf_old);
	bpf_program__set_autoload(obj->progs.done_old, btf_old);
	bpf_program__set_autoload(obj->progs.dep_old, btf_old);
	bpf_program__set_autoload(obj->progs.queue_new, btf_new);
	bpf_program__set_autoload(obj->progs.run_new, btf_new);
	bpf_program__set_autoload(obj->progs.done_new, btf_new);
	bpf_program__set_autoload(obj->progs.dep_new, btf_new);
	bpf_program__set_autoload(obj->progs.blocked_new, btf_new);
	bpf_program__set_autoload(obj->progs.tp_queue, records);
	bpf_program__set_autoload(obj->progs.tp_run, records);
	bpf_program__set_autoload(obj->progs.raw_done, records);
	bpf_program__set_autoload(obj->progs.tp_dep, records);
	bpf_program__set_autoload(obj->progs.tp_blocked, records && abi == ABI_6_17);
}

#define FIELD(event, names, want, field, missing) \
	RECORD_FIELD(drmsched, "gpu_scheduler", event, names, want, field, missing)

/*
 * The record path's fields, from tracefs. A job is its record's `fence`
 * (<= 6.16; wait_dep names it by its id, as the queue record gave it) or
 * fence_context:fence_seqno (>= 6.17). Non-zero: said why.
 */
static int set_record_fields(void)
{
	bool old = abi == ABI_PRE_6_17;
	const char *queue = old ? "drm_sched_job" : "drm_sched_job_queue";
	const char *run = old ? "drm_run_job" : "drm_sched_job_run";
	const char *dep = old ? "drm_sched_job_wait_dep" : "drm_sched_job_add_dep";
	const char *blocked = old ? NULL : "drm_sched_job_unschedulable";
	/* kernels before 6.17 record no DRM client: nothing to say */
	const char *client = old ? "" : "CLIENT";
	const struct record_field fields[] = {
		FIELD(queue, "name", TP_WANT_STR, f_queue_name, NULL),
		FIELD(queue, "dev", TP_WANT_STR, f_queue_dev, "DEV"),
		FIELD(queue, "client_id", TP_WANT_INT, f_queue_client, client),
		FIELD(old ? queue : NULL, "fence", TP_WANT_INT, f_queue_fence, NULL),
		FIELD(old ? queue : NULL, "id", TP_WANT_INT, f_queue_id, ""),
		FIELD(old ? NULL : queue, "fence_context", TP_WANT_INT, f_queue_ctx, NULL),
		FIELD(old ? NULL : queue, "fence_seqno", TP_WANT_INT, f_queue_seqno, NULL),
		FIELD(run, "name", TP_WANT_STR, f_run_name, NULL),
		FIELD(run, "dev", TP_WANT_STR, f_run_dev, "DEV"),
		FIELD(run, "client_id", TP_WANT_INT, f_run_client, client),
		FIELD(old ? run : NULL, "fence", TP_WANT_INT, f_run_fence, NULL),
		FIELD(old ? NULL : run, "fence_context", TP_WANT_INT, f_run_ctx, NULL),
		FIELD(old ? NULL : run, "fence_seqno", TP_WANT_INT, f_run_seqno, NULL),
		/* Every kernel from 5.10 to 7.x records them; without them, no depth table. */
		FIELD(run, "job_count", TP_WANT_INT, f_run_waiting, "DEPTH"),
		FIELD(run, "hw_job_count", TP_WANT_INT, f_run_on_hw, "DEPTH"),
		FIELD(old ? dep : NULL, "name", TP_WANT_STR, f_dep_name, NULL),
		FIELD(old ? dep : NULL, "dev", TP_WANT_STR, f_dep_dev, "DEV"),
		FIELD(old ? dep : NULL, "client_id", TP_WANT_INT, f_dep_client, client),
		FIELD(old ? dep : NULL, "id", TP_WANT_INT, f_dep_id, NULL),
		FIELD(old ? NULL : dep, "fence_context", TP_WANT_INT, f_dep_ctx, NULL),
		FIELD(old ? NULL : dep, "fence_seqno", TP_WANT_INT, f_dep_seqno, NULL),
		FIELD(dep, "ctx", TP_WANT_INT, f_dep_dctx, NULL),
		FIELD(dep, "seqno", TP_WANT_INT, f_dep_dseqno, NULL),
		FIELD(blocked, "fence_context", TP_WANT_INT, f_blocked_ctx, NULL),
		FIELD(blocked, "fence_seqno", TP_WANT_INT, f_blocked_seqno, NULL),
		FIELD(blocked, "ctx", TP_WANT_INT, f_blocked_dctx, NULL),
		FIELD(blocked, "seqno", TP_WANT_INT, f_blocked_dseqno, NULL),
	};

	if (!records)
		return 0;
	if (records_get_fields(skel->rodata, fields, sizeof(fields) / sizeof(fields[0]), 0) < 0)
		return -1;
	/* <= 6.16's records name no device: -d would match nothing, silently. */
	if (env.dev[0] && !(skel->rodata->f_queue_dev.flags & TP_FIELD_PRESENT)) {
		fprintf(stderr, "drmsched: -d: the gpu_scheduler records of this kernel name "
			"no device (kernels before 6.17, read without gpu_sched's BTF)\n");
		return -1;
	}
	return 0;
}

static int attach_records(void)
{
	bool old = abi == ABI_PRE_6_17;
	const char *sys = "gpu_scheduler";
	const struct record_tp tps[] = {
		{ skel->progs.tp_queue, sys, old ? "drm_sched_job" : "drm_sched_job_queue" },
		{ skel->progs.tp_run, sys, old ? "drm_run_job" : "drm_sched_job_run" },
		{ skel->progs.raw_done, sys, old ? "drm_sched_process_job" : "drm_sched_job_done" },
		{ skel->progs.raw_done_spare, sys, old ? "drm_sched_process_job" : "drm_sched_job_done" },
		{ skel->progs.tp_dep, sys, old ? "drm_sched_job_wait_dep" : "drm_sched_job_add_dep" },
		{ skel->progs.tp_blocked, sys, old ? NULL : "drm_sched_job_unschedulable" },
	};

	return records_attach(tps, sizeof(tps) / sizeof(tps[0])) ?:
	       records_count_skipped(skel->obj);
}

/*
 * What one summary covers: what the kernel's counters, which only grow,
 * gained since the summary before (`was`, their values then). Printed sorted.
 */
static struct summary {
	struct ring_stats rings[MAX_RINGS];
	struct proc_stats procs[MAX_PROCS];
	struct dep_row {
		struct dep_key key;
		struct dep_stats st;
	} deps[MAX_DEPS];
	size_t nr_deps;
} sum;

static struct {
	struct ring_stats rings[MAX_RINGS];
	struct proc_stats procs[MAX_PROCS];
	struct map_snapshot deps;
} was;

static __u32 nr_rings(void)
{
	__u32 n = skel->bss->nr_rings;

	return n < MAX_RINGS ? n : MAX_RINGS;
}

static __u32 nr_procs(void)
{
	__u32 n = skel->bss->nr_procs;

	return n < MAX_PROCS ? n : MAX_PROCS;
}

static const struct ring_info *ring_info(__u32 ring)
{
	static const struct ring_info unknown = { .name = "?", .dev = "?" };

	return ring < nr_rings() ? &skel->bss->ring_infos[ring] : &unknown;
}

static const char *ring_dev(__u32 ring)
{
	const char *dev = ring_info(ring)->dev;

	return dev[0] ? dev : "-";
}

static const char *proc_comm(__u32 proc)
{
	return proc < nr_procs() ? skel->bss->proc_infos[proc].comm : "?";
}

static struct cell proc_cgroup(__u32 proc)
{
	return proc < nr_procs() ? cell_cgroup(skel->bss->proc_infos[proc].cgroup_id) : CELL_NONE;
}

/* `out` = `now` - `then`, for a ring's counters. */
static void ring_stats_delta(struct ring_stats *out, const struct ring_stats *now,
			     const struct ring_stats *then)
{
	out->queued = now->queued - then->queued;
	out->run = now->run - then->run;
	out->done = now->done - then->done;
	out->deps = now->deps - then->deps;
	out->blocked = now->blocked - then->blocked;
	out->untracked = now->untracked - then->untracked;
	lat_hist_delta(&out->wait, &now->wait, then->wait.count ? &then->wait : NULL);
	lat_hist_delta(&out->exec, &now->exec, then->exec.count ? &then->exec : NULL);
	lat_hist_delta(&out->waiting, &now->waiting, then->waiting.count ? &then->waiting : NULL);
	lat_hist_delta(&out->on_hw, &now->on_hw, then->on_hw.count ? &then->on_hw : NULL);
}

/*
 * Fill `sum` with what the counters gained since the last summary. The
 * programs keep counting meanwhile: a count read here, or one that lands
 * just after, is in this summary or the next, in exactly one of them.
 */
static int gather(void)
{
	struct map_snapshot deps;
	__u32 i;
	size_t d;
	int err;

	for (i = 0; i < nr_rings(); i++) {
		struct ring_stats now = skel->bss->ring_stats[i];

		ring_stats_delta(&sum.rings[i], &now, &was.rings[i]);
		was.rings[i] = now;
	}
	for (i = 0; i < nr_procs(); i++) {
		struct proc_stats now = {
			.queued = skel->bss->proc_queued[i],
			.wait_sum = skel->bss->proc_wait_sum[i],
			.done = skel->bss->proc_done[i].done,
			.exec_sum = skel->bss->proc_done[i].exec_sum,
		};

		sum.procs[i].queued = now.queued - was.procs[i].queued;
		sum.procs[i].wait_sum = now.wait_sum - was.procs[i].wait_sum;
		sum.procs[i].done = now.done - was.procs[i].done;
		sum.procs[i].exec_sum = now.exec_sum - was.procs[i].exec_sum;
		was.procs[i] = now;
	}
	err = map_snapshot(skel->maps.deps, &deps);
	if (err)
		return err;
	sum.nr_deps = 0;
	for (d = 0; d < deps.n && sum.nr_deps < MAX_DEPS; d++) {
		const struct dep_key *k = snapshot_key(&deps, d);
		const struct dep_stats *st = snapshot_value(&deps, d);
		const struct dep_stats *then = map_snapshot_find(&was.deps, k);
		struct dep_row *row = &sum.deps[sum.nr_deps];

		row->key = *k;
		row->st = *st;
		if (then) {
			row->st.deps -= then->deps;
			row->st.blocked -= then->blocked;
		}
		sum.nr_deps += row->st.deps || row->st.blocked;
	}
	map_snapshot_free(&was.deps);
	was.deps = deps;
	return 0;
}

static bool ring_active(const struct ring_stats *st)
{
	return st->queued || st->run || st->done || st->deps || st->blocked || st->untracked;
}

/* Rings sorted by device, then name. */
static int cmp_ring(__u32 a, __u32 b)
{
	int c = strcmp(ring_dev(a), ring_dev(b));

	return c ? c : strcmp(ring_info(a)->name, ring_info(b)->name);
}

static int cmp_ring_idx(const void *a, const void *b)
{
	return cmp_ring(*(const __u32 *)a, *(const __u32 *)b);
}

static const struct column ring_cols[] = {
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -12, 0 },
	{ "QUEUED", "queued", 7, 0 },
	{ "RUN", "run", 7, 0 },
	{ "DONE", "done", 7, 0 },
	{ "DEPS", "deps", 6, 0 },
	{ "BLOCKED", "blocked", 7, 0 },	/* >= 6.17 only */
	{ "WAIT", "wait_avg", 8, COL_TIME },
	{ "EXEC", "exec_avg", 8, COL_TIME },
	{ "", "untracked", 0, COL_JSON_ONLY },
};
static const struct table ring_table = TABLE("ring", ring_cols);
static const struct table ring_hist_table = { "ring_hist", ring_cols, 2, false };

static void print_rings(FILE *f, const __u32 *rows, size_t n)
{
	char title[128];
	size_t i;

	table_header(f, &ring_table);
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		table_row(f, &ring_table, (struct cell[]){
			CELL_S(ring_dev(rows[i])), CELL_S(ring_info(rows[i])->name),
			CELL_U(st->queued), CELL_U(st->run), CELL_U(st->done), CELL_U(st->deps),
			CELL_U_IF(abi == ABI_6_17, st->blocked), cell_hist_avg(&st->wait),
			cell_hist_avg(&st->exec), CELL_U(st->untracked) });
	}
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		if (st->untracked)
			text_printf(f, "%s/%s: %llu jobs were queued before tracing began (not timed)\n",
				    text_safe(ring_dev(rows[i])), text_safe(ring_info(rows[i])->name),
				    (unsigned long long)st->untracked);
	}
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];
		const struct cell key[] = { CELL_S(ring_dev(rows[i])), CELL_S(ring_info(rows[i])->name) };

		if (st->wait.count) {
			snprintf(title, sizeof(title), "%s/%s queue wait (queued -> run):",
				 ring_dev(rows[i]), ring_info(rows[i])->name);
			table_lat_hist(f, &ring_hist_table, key, "wait", title, &st->wait, time_unit());
		}
		if (st->exec.count) {
			snprintf(title, sizeof(title), "%s/%s execution (run -> done):",
				 ring_dev(rows[i]), ring_info(rows[i])->name);
			table_lat_hist(f, &ring_hist_table, key, "exec", title, &st->exec, time_unit());
		}
	}
}

/*
 * Queue depth as jobs ran: how many were queued behind each in its entity,
 * how many were on the hardware (credits from 6.7), itself included.
 */
static const struct column depth_cols[] = {
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -12, 0 },
	{ "RUN", "run", 7, 0 },
	{ "BEHIND", "behind_avg", 7, 0 },
	{ "MAX", "behind_max", 5, 0 },
	{ "ON_HW", "on_hw_avg", 7, 0 },
	{ "MAX", "on_hw_max", 5, 0 },
};
static const struct table depth_table = TABLE("depth", depth_cols);

static struct cell depth_avg(const struct lat_hist *h)
{
	return h->count ? CELL_F((double)h->sum / h->count, 2) : CELL_NONE;
}

static void print_depths(FILE *f, const __u32 *rows, size_t n)
{
	char title[128];
	bool header = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		if (!st->waiting.count)
			continue;
		if (!header) {
			text_printf(f, "\nQueue depth as jobs ran:\n");
			table_header(f, &depth_table);
			header = true;
		}
		table_row(f, &depth_table, (struct cell[]){
			CELL_S(ring_dev(rows[i])), CELL_S(ring_info(rows[i])->name),
			CELL_U(st->waiting.count), depth_avg(&st->waiting), CELL_U(st->waiting.max),
			depth_avg(&st->on_hw), CELL_U(st->on_hw.max) });
	}
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];
		const struct cell key[] = { CELL_S(ring_dev(rows[i])), CELL_S(ring_info(rows[i])->name) };

		if (!st->waiting.count)
			continue;
		snprintf(title, sizeof(title), "%s/%s jobs queued behind a job as it ran:",
			 ring_dev(rows[i]), ring_info(rows[i])->name);
		table_lat_hist(f, &ring_hist_table, key, "behind", title, &st->waiting, "jobs");
		snprintf(title, sizeof(title), "%s/%s jobs on the hardware as one ran:",
			 ring_dev(rows[i]), ring_info(rows[i])->name);
		table_lat_hist(f, &ring_hist_table, key, "on_hw", title, &st->on_hw, "jobs");
	}
}

/* Processes sorted by ring, pid, DRM client. */
static int cmp_proc(const void *a, const void *b)
{
	const struct proc_info *pa = &skel->bss->proc_infos[*(const __u32 *)a];
	const struct proc_info *pb = &skel->bss->proc_infos[*(const __u32 *)b];
	int c = cmp_ring(pa->ring, pb->ring);

	if (c)
		return c;
	if (pa->pid != pb->pid)
		return pa->pid < pb->pid ? -1 : 1;
	return pa->client_id < pb->client_id ? -1 : pa->client_id > pb->client_id;
}

static const struct column proc_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CLIENT", "client", 6, 0 },	/* >= 6.17 only */
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -12, 0 },
	{ "QUEUED", "queued", 7, 0 },
	{ "DONE", "done", 7, 0 },
	{ "WAIT", "wait_avg", 8, COL_TIME },
	{ "EXEC", "exec_avg", 8, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table proc_table = TABLE("process", proc_cols);

static void print_procs(FILE *f, const __u32 *rows, size_t n)
{
	size_t i;

	if (!n)
		return;
	text_printf(f, "\n");
	table_header(f, &proc_table);
	for (i = 0; i < n; i++) {
		const struct proc_info *pi = &skel->bss->proc_infos[rows[i]];
		const struct proc_stats *ps = &sum.procs[rows[i]];

		/* Averages over the jobs that finished; kernels before 6.17 record no client. */
		table_row(f, &proc_table, (struct cell[]){
			CELL_U(pi->pid), CELL_S(pi->comm), CELL_U_IF(abi == ABI_6_17, pi->client_id),
			CELL_S(ring_dev(pi->ring)), CELL_S(ring_info(pi->ring)->name),
			CELL_U(ps->queued), CELL_U(ps->done),
			CELL_U_IF(ps->done, ps->done ? ps->wait_sum / ps->done : 0),
			CELL_U_IF(ps->done, ps->done ? ps->exec_sum / ps->done : 0),
			cell_cgroup(pi->cgroup_id) });
	}
}

static int cmp_dep(const void *a, const void *b)
{
	const struct dep_row *da = a, *db = b;
	int c = cmp_ring(da->key.ring, db->key.ring);

	if (c)
		return c;
	return da->key.context < db->key.context ? -1 : da->key.context > db->key.context;
}

static const struct column dep_cols[] = {
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -12, 0 },
	{ "WAITED_ON", "", -24, COL_TEXT_ONLY },	/* context:last seqno */
	{ "", "context", 0, COL_JSON_ONLY },
	{ "", "last_seqno", 0, COL_JSON_ONLY },
	{ "OWNER_RING", "owner_ring", -12, 0 },
	{ "DEPS", "deps", 6, 0 },
	{ "BLOCKED", "blocked", 7, 0 },
};
static const struct table dep_table = TABLE("dep", dep_cols);

static void print_deps(FILE *f)
{
	size_t i;

	if (!sum.nr_deps)
		return;
	qsort(sum.deps, sum.nr_deps, sizeof(sum.deps[0]), cmp_dep);
	text_printf(f, "\n");
	table_header(f, &dep_table);
	for (i = 0; i < sum.nr_deps; i++) {
		const struct dep_row *d = &sum.deps[i];
		struct cell owner = CELL_NONE;
		char fence[48];
		__u32 owner_ring;

		if (!bpf_map__lookup_elem(skel->maps.context_ring, &d->key.context,
					  sizeof(d->key.context), &owner_ring, sizeof(owner_ring), 0))
			owner = CELL_S(ring_info(owner_ring)->name);
		snprintf(fence, sizeof(fence), "%llu:%llu", (unsigned long long)d->key.context,
			 (unsigned long long)d->st.last_seqno);
		table_row(f, &dep_table, (struct cell[]){
			CELL_S(ring_dev(d->key.ring)), CELL_S(ring_info(d->key.ring)->name),
			CELL_S(fence), CELL_U(d->key.context), CELL_U(d->st.last_seqno), owner,
			CELL_U(d->st.deps), CELL_U_IF(abi == ABI_6_17, d->st.blocked) });
	}
}

/* One summary: rings, histograms, processes, dependencies; then start over. */
static int print_summary(void *ctx)
{
	__u32 rings[MAX_RINGS], procs[MAX_PROCS], i;
	size_t nr = 0, np = 0;
	FILE *f = summary_stream();

	(void)ctx;
	if (gather())
		return -EIO;
	for (i = 0; i < nr_rings(); i++)
		if (ring_active(&sum.rings[i]))
			rings[nr++] = i;
	for (i = 0; i < nr_procs(); i++)
		if (sum.procs[i].queued || sum.procs[i].done)
			procs[np++] = i;
	qsort(rings, nr, sizeof(rings[0]), cmp_ring_idx);
	qsort(procs, np, sizeof(procs[0]), cmp_proc);

	summary_begin(f);
	if (!nr)
		text_printf(f, "no jobs\n");
	else
		print_rings(f, rings, nr);
	print_depths(f, rings, nr);
	print_procs(f, procs, np);
	print_deps(f);
	fflush(f);
	return 0;
}

/* --prometheus (drmsched/prom.c): the counters since start, of the rings -r/-d let in. */
static int write_metrics(struct metrics *m, void *ctx)
{
	const struct drmsched_bpf__bss *bss = skel->bss;
	__u32 rings[MAX_RINGS], i;
	size_t n = 0;

	(void)ctx;
	for (i = 0; i < nr_rings(); i++)
		if (!ring_info(i)->excluded)
			rings[n++] = i;
	qsort(rings, n, sizeof(rings[0]), cmp_ring_idx);
	return drmsched_metrics(m, &(struct drmsched_metrics_in){
		.ring_infos = bss->ring_infos, .ring_stats = bss->ring_stats, .nr_rings = nr_rings(),
		.rings = rings, .nr_shown = n,
		.proc_infos = bss->proc_infos, .proc_queued = bss->proc_queued,
		.proc_wait_sum = bss->proc_wait_sum, .proc_done = bss->proc_done,
		.nr_procs = nr_procs(), .has_blocked = abi == ABI_6_17,
		.dropped_jobs = bss->dropped_jobs, .dropped_rings = bss->dropped_rings,
		.dropped_procs = bss->dropped_procs, .dropped_deps = bss->dropped_deps });
}

static const char *const event_names[] = {
	[EV_QUEUE] = "QUEUE", [EV_RUN] = "RUN", [EV_DONE] = "DONE",
	[EV_DEP] = "DEP", [EV_BLOCKED] = "BLOCKED",
};

static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -7, 0 },
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -12, 0 },
	{ "JOB", "", -16, COL_TEXT_ONLY },	/* context:seqno */
	{ "", "context", 0, COL_JSON_ONLY },
	{ "", "seqno", 0, COL_JSON_ONLY },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "LAT", "lat", 8, COL_TIME },		/* queued -> run, run -> done */
	{ "DEP", "", 0, COL_TEXT_ONLY },	/* the fence waited on */
	{ "", "dep_context", 0, COL_JSON_ONLY },
	{ "", "dep_seqno", 0, COL_JSON_ONLY },
	CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

/* --timeline: the job's slice is drawn from its queue, run and done records. */
static void timeline_event(const struct drmsched_event *e)
{
	static const enum job_step steps[] = {
		[EV_QUEUE] = JOB_QUEUED, [EV_DEP] = JOB_DEP, [EV_RUN] = JOB_RAN, [EV_DONE] = JOB_DONE,
	};

	if (e->type < sizeof(steps) / sizeof(steps[0]))
		jobs_timeline_step(steps[e->type], &(struct job_event){
			.context = e->context, .seqno = e->seqno, .ts_ns = e->ts_ns,
			.dep_context = e->dep_context, .dep_seqno = e->dep_seqno, .pid = e->pid,
			.comm = proc_comm(e->proc),
			.ring = { e->ring, ring_info(e->ring)->name, ring_dev(e->ring) } });
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct drmsched_event *e = data;
	char job[48], dep[48] = "-";
	bool has_dep, has_lat;

	(void)ctx;
	if (size < sizeof(*e) || e->type > EV_BLOCKED)
		return 0;
	if (timeline_on())
		timeline_event(e);
	if (!common_env.events)
		return 0;
	has_dep = e->type == EV_DEP || e->type == EV_BLOCKED;
	has_lat = e->type == EV_RUN || e->type == EV_DONE;
	snprintf(job, sizeof(job), "%llu:%llu", (unsigned long long)e->context,
		 (unsigned long long)e->seqno);
	if (has_dep)
		snprintf(dep, sizeof(dep), "%llu:%llu", (unsigned long long)e->dep_context,
			 (unsigned long long)e->dep_seqno);
	table_event(stdout, &event_table, (struct cell[]){
		CELL_F(trace_seconds(e->ts_ns), 6), CELL_S(event_names[e->type]),
		CELL_S(ring_dev(e->ring)), CELL_S(ring_info(e->ring)->name), CELL_S(job),
		CELL_U(e->context), CELL_U(e->seqno), CELL_U(e->pid), CELL_S(proc_comm(e->proc)),
		CELL_U_IF(has_lat, e->latency), CELL_S(dep), CELL_U_IF(has_dep, e->dep_context),
		CELL_U_IF(has_dep, e->dep_seqno), proc_cgroup(e->proc) }, e->ts_ns);
	return 0;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct drmsched_bpf__bss *bss = skel->bss;

	report_lost("jobs", bss->dropped_jobs, MAX_JOBS, "%llu jobs not timed (more than "
		    "%d in flight, or slots collided)",
		    (unsigned long long)bss->dropped_jobs, MAX_JOBS);
	report_lost("rings", bss->dropped_rings, MAX_RINGS, "%llu events of rings beyond "
		    "the first %d not counted", (unsigned long long)bss->dropped_rings,
		    MAX_RINGS);
	report_lost("processes", bss->dropped_procs, MAX_PROCS, "%llu jobs of processes "
		    "beyond the first %d not counted per process",
		    (unsigned long long)bss->dropped_procs, MAX_PROCS);
	report_lost("deps", bss->dropped_deps, MAX_DEPS, "%llu dependencies beyond %d rows "
		    "not counted per fence context", (unsigned long long)bss->dropped_deps,
		    MAX_DEPS);
	report_lost("odd_done_fences", bss->odd_done_fences, 0, "%llu jobs' done not counted: "
		    "gpu_sched's struct drm_sched_fence is not laid out as expected (use its BTF)",
		    (unsigned long long)bss->odd_done_fences);
	jobs_timeline_report();
}

int main(int argc, char **argv)
{
	struct trace_loop loop;
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	jobs_timeline_init(NULL);
	abi = detect_abi();
	if (abi == ABI_NONE)
		return 1;
	records = records_wanted("gpu_sched");

	skel = drmsched_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	memcpy((char *)skel->rodata->targ_ring, env.ring, sizeof(env.ring));
	memcpy((char *)skel->rodata->targ_dev, env.dev, sizeof(env.dev));
	choose_programs(skel);
	err = set_record_fields();
	if (err)
		goto cleanup;
	/*
	 * Only the record path of kernels before 6.17 names a job by its id
	 * (job_ids); elsewhere its 65536 entries, made at load, would be
	 * about 5 MB of kernel memory for nothing.
	 */
	if (!records || abi != ABI_PRE_6_17)
		bpf_map__set_max_entries(skel->maps.job_ids, 1);
	err = tool_start(skel->skeleton, skel->maps.cgroup_map, "the gpu_scheduler tracepoints");
	if (!err && records)
		err = attach_records();
	if (err)
		goto cleanup;
	/* Said once attached: a test waiting for the tool's first output sees it attached. */
	records_announce();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing DRM GPU scheduler jobs (%s events)",
			 abi == ABI_6_17 ? "Linux >= 6.17" : "Linux <= 6.16");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	records_detach();
	map_snapshot_free(&was.deps);
	drmsched_bpf__destroy(skel);
	return err != 0;
}
