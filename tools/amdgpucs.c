// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpucs - AMD GPU command submission, buffers, migrations and
 * interrupts, per ring and process.
 *
 * Each command submission (amdgpu's CS ioctl) is followed to the moment
 * the scheduler hands it to its ring and to its fence signalling: submit ->
 * run and run -> done histograms per ring and process. Buffers created per
 * process and memory domain; moves between placements, VRAM -> GTT or
 * system being evictions, charged to the buffer's creator; VM flushes per
 * ring; interrupts per source, with the process that owns the address
 * space (pasid) where a submission named it.
 *
 * Where amdgpu or gpu_sched has no BTF (DKMS builds, Linux < 5.11), or
 * with --no-btf, the same tables come from the events' trace records
 * (records.h); the pasid's process is then unknown ('-').
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amdgpucs.h"
#include "tp_field.h"
#include "amdgpucs.skel.h"
#include "amdgpucs/prom.h"
#include "amdgpucs/names.h"
#include "cgroup.h"
#include "histogram.h"
#include "maps.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "sched_record.h"
#include "tool.h"
#include "tp_format.h"
#include "jobs_timeline.h"
#include "timeline.h"
#include "untrusted.h"

static struct env {
	char ring[RING_NAME_LEN];
} env;

static struct amdgpucs_bpf *skel;
/* The record path: classic tracepoints read through tracefs formats (no module BTF needed). */
static bool records;
/* The scheduler's done event: renamed in 6.17. */
static const char *done_event;
static unsigned long long last_summary_ns;

/* The previous summary's counters: each summary prints what changed. */
enum { S_ROWS, S_BOS, S_IVS, S_VMS, NR_SNAPS };
static struct map_snapshot prev[NR_SNAPS];
#define prev_rows prev[S_ROWS]
#define prev_bos prev[S_BOS]
#define prev_ivs prev[S_IVS]
#define prev_vms prev[S_VMS]
static struct move_stats prev_moves[NR_PLACEMENTS][NR_PLACEMENTS];
static __u64 prev_flushes[MAX_RINGS];

const char *argp_program_version = "amdgpucs 0.1";
static const char doc[] =
"AMD GPU command submissions, buffers, migrations and interrupts per process.\n"
"\n"
"USAGE: amdgpucs [-ejmCTv] [-r RING] [-p PID] [-c COMM] [--cgroup PATH]\n"
"                [--container ID] [--pod UID] [--no-btf] [--timeline FILE]\n"
"                [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    amdgpucs              # summary at Ctrl-C\n"
"    amdgpucs 1            # a summary every second\n"
"    amdgpucs -r gfx_0.0.0 # only the submissions to one ring\n"
"    amdgpucs -p 1234      # only what process 1234 submits and creates\n"
"    amdgpucs -e           # one line per event\n"
"    amdgpucs -j           # JSON lines: one object per table row\n"
"    amdgpucs --timeline jobs.json  # the jobs, for ui.perfetto.dev\n"
"    amdgpucs --cgroup /sys/fs/cgroup/gpu.slice -C  # one cgroup's work, named\n"
"    amdgpucs --no-btf     # the trace records (amdgpu-dkms: no module BTF)\n";

static const struct argp_option opts[] = {
	{ "ring", 'r', "RING", 0, "Only this ring (e.g. gfx_0.0.0, sdma0)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'r':
		parse_name_arg(state, arg, "RING", env.ring, sizeof(env.ring));
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
	.timeline = "Write the jobs to FILE as a timeline (Trace Event Format: ui.perfetto.dev opens it)",
	.records = true,
	.needs = TOOL_TRACEFS,
	/* -e: three records a job; 8 MiB holds a burst of 30000 while the reader is away. */
	.ring_bytes = 8 << 20,
	.quiet_ring_bytes = 4096,
};

/* ---- the programs, and the record path's fields ------------------------- */

/*
 * One set of programs loads: the BTF path's (with this kernel's done
 * event) or the record path's (attached by event name).
 */
static void choose_programs(struct amdgpucs_bpf *obj)
{
	struct bpf_program *btf_progs[] = {
		obj->progs.cs_ioctl, obj->progs.sched_run_job, obj->progs.bo_create,
		obj->progs.bo_move, obj->progs.vm_flush, obj->progs.iv, obj->progs.vm_bo_map,
		obj->progs.vm_bo_unmap, obj->progs.vm_bo_update, obj->progs.bo_list_set,
		obj->progs.cs_bo_status,
	};
	struct bpf_program *rec_progs[] = {
		obj->progs.tp_cs_ioctl, obj->progs.tp_run_job, obj->progs.raw_done,
		obj->progs.tp_bo_create, obj->progs.tp_bo_move, obj->progs.tp_vm_flush,
		obj->progs.tp_iv, obj->progs.tp_vm_bo_map, obj->progs.tp_vm_bo_unmap,
		obj->progs.tp_vm_bo_update, obj->progs.tp_bo_list_set, obj->progs.tp_cs_bo_status,
	};
	bool new_done = !strcmp(done_event, "drm_sched_job_done");
	size_t i;

	for (i = 0; i < sizeof(btf_progs) / sizeof(btf_progs[0]); i++)
		bpf_program__set_autoload(btf_progs[i], !records);
	bpf_program__set_autoload(obj->progs.done_new, !records && new_done);
	bpf_program__set_autoload(obj->progs.done_old, !records && !new_done);
	for (i = 0; i < sizeof(rec_progs) / sizeof(rec_progs[0]); i++)
		bpf_program__set_autoload(rec_progs[i], records);
}

#define FIELD(ev, name, want, f) RECORD_FIELD(amdgpucs, "amdgpu", ev, name, want, f, NULL)

/* The record path's events and fields, from tracefs. Non-zero: said why. */
static int set_record_fields(void)
{
	const struct record_field fields[] = {
		/* 6.1's context and seqno are unsigned int (of the u64 fence's), sid's u64 */
		FIELD("amdgpu_cs_ioctl", "ring", TP_WANT_STR, f_cs_ring),
		FIELD("amdgpu_cs_ioctl", "context", TP_WANT_INT, f_cs_ctx),
		FIELD("amdgpu_cs_ioctl", "seqno", TP_WANT_INT, f_cs_seqno),
		FIELD("amdgpu_cs_ioctl", "num_ibs", TP_WANT_INT, f_cs_ibs),
		FIELD("amdgpu_sched_run_job", "context", TP_WANT_INT, f_run_ctx),
		FIELD("amdgpu_sched_run_job", "seqno", TP_WANT_INT, f_run_seqno),
		FIELD("amdgpu_bo_create", "bo", TP_WANT_INT, f_bc_bo),
		/* the size in CPU pages (size / PAGE_SIZE: amdgpu rounds sizes up to it) */
		FIELD("amdgpu_bo_create", "pages", TP_WANT_INT, f_bc_pages),
		FIELD("amdgpu_bo_create", "prefer", TP_WANT_INT, f_bc_prefer),
		FIELD("amdgpu_bo_create", "allow", TP_WANT_INT, f_bc_allow),
		FIELD("amdgpu_bo_create", "type", TP_WANT_INT, f_bc_type),
		FIELD("amdgpu_bo_create", "visible", TP_WANT_INT, f_bc_visible),
		FIELD("amdgpu_bo_move", "bo", TP_WANT_INT, f_bm_bo),
		FIELD("amdgpu_bo_move", "bo_size", TP_WANT_INT, f_bm_size),
		FIELD("amdgpu_bo_move", "new_placement", TP_WANT_INT, f_bm_new),
		FIELD("amdgpu_bo_move", "old_placement", TP_WANT_INT, f_bm_old),
		FIELD("amdgpu_vm_flush", "ring", TP_WANT_STR, f_fl_ring),
		FIELD("amdgpu_vm_flush", "vmid", TP_WANT_INT, f_fl_vmid),
		FIELD("amdgpu_vm_flush", "pd_addr", TP_WANT_INT, f_fl_pd_addr),
		FIELD("amdgpu_iv", "client_id", TP_WANT_INT, f_iv_client),
		FIELD("amdgpu_iv", "src_id", TP_WANT_INT, f_iv_src),
		FIELD("amdgpu_iv", "ring_id", TP_WANT_INT, f_iv_ring),
		FIELD("amdgpu_iv", "vmid", TP_WANT_INT, f_iv_vmid),
		FIELD("amdgpu_iv", "pasid", TP_WANT_INT, f_iv_pasid),
		FIELD("amdgpu_vm_bo_map", "start", TP_WANT_INT, f_map_start),
		FIELD("amdgpu_vm_bo_map", "last", TP_WANT_INT, f_map_last),
		FIELD("amdgpu_vm_bo_unmap", "start", TP_WANT_INT, f_unmap_start),
		FIELD("amdgpu_vm_bo_unmap", "last", TP_WANT_INT, f_unmap_last),
		FIELD("amdgpu_bo_list_set", "bo_size", TP_WANT_INT, f_bl_size),
	};

	skel->rodata->page_size = sysconf(_SC_PAGESIZE);
	if (records_get_fields(skel->rodata, fields, sizeof(fields) / sizeof(fields[0]), 0) < 0)
		return -1;
	/* The CS ioctl's record has no pasid: interrupts are not attributed to a process. */
	records_missing("interrupts' PROCESS");
	return 0;
}

/* The record path's programs: the done event's raw tracepoint (and its spare) with the records'. */
static int attach_records(void)
{
	const char *a = "amdgpu";
	const struct record_tp tps[] = {
		{ skel->progs.raw_done, "gpu_scheduler", done_event },
		{ skel->progs.raw_done_spare, "gpu_scheduler", done_event },
		{ skel->progs.tp_cs_ioctl, a, "amdgpu_cs_ioctl" },
		{ skel->progs.tp_run_job, a, "amdgpu_sched_run_job" },
		{ skel->progs.tp_bo_create, a, "amdgpu_bo_create" },
		{ skel->progs.tp_bo_move, a, "amdgpu_bo_move" },
		{ skel->progs.tp_vm_flush, a, "amdgpu_vm_flush" },
		{ skel->progs.tp_iv, a, "amdgpu_iv" },
		{ skel->progs.tp_vm_bo_map, a, "amdgpu_vm_bo_map" },
		{ skel->progs.tp_vm_bo_unmap, a, "amdgpu_vm_bo_unmap" },
		{ skel->progs.tp_vm_bo_update, a, "amdgpu_vm_bo_update" },
		{ skel->progs.tp_bo_list_set, a, "amdgpu_bo_list_set" },
		{ skel->progs.tp_cs_bo_status, a, "amdgpu_cs_bo_status" },
	};

	return records_attach(tps, sizeof(tps) / sizeof(tps[0])) ?:
	       records_count_skipped(skel->obj);
}

/* ---- names -------------------------------------------------------------- */

static const char *ring_name(__u32 ring)
{
	return ring < MAX_RINGS && skel->bss->ring_infos[ring].name[0] ?
		skel->bss->ring_infos[ring].name : "?";
}

/* ---- -e ----------------------------------------------------------------- */

static const char *const event_names[NR_EVENT_TYPES] = {
	[EV_SUBMIT] = "SUBMIT", [EV_RUN] = "RUN", [EV_DONE] = "DONE",
	[EV_BO_CREATE] = "BO_CREATE", [EV_BO_MOVE] = "BO_MOVE", [EV_VM_FLUSH] = "VM_FLUSH",
	[EV_IV] = "IV", [EV_VM_MAP] = "VM_MAP", [EV_VM_UNMAP] = "VM_UNMAP",
};

/* The DETAIL text holds what the JSON fields after it hold, for grep. */
static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -9, 0 },
	{ "RING", "ring", -16, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "DETAIL", "", 0, COL_TEXT_ONLY },
	{ "", "context", 0, COL_JSON_ONLY | COL_SPARSE },	/* the job's fence */
	{ "", "seqno", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "ibs", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "wait", 0, COL_JSON_ONLY | COL_SPARSE | COL_TIME },	/* RUN */
	{ "", "exec", 0, COL_JSON_ONLY | COL_SPARSE | COL_TIME },	/* DONE */
	{ "", "bo", 0, COL_JSON_ONLY | COL_SPARSE },	/* the buffer's address */
	{ "", "va", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "bytes", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "domain", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "allowed", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "from", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "to", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "eviction", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "vmid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "pd_addr", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "client", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "src", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "ring_id", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "pasid", 0, COL_JSON_ONLY | COL_SPARSE },
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

enum {
	F_CONTEXT = 6, F_SEQNO, F_IBS, F_WAIT, F_EXEC, F_BO, F_VA, F_BYTES, F_DOMAIN, F_ALLOWED,
	F_FROM, F_TO, F_EVICTION, F_VMID, F_PD_ADDR, F_CLIENT, F_SRC, F_RING_ID, F_PASID, NR_F,
};

/* --timeline: a CS ioctl's job, drawn from its submit, run and done records. */
static void timeline_event(const struct amdgpucs_event *e)
{
	static const enum job_step steps[NR_EVENT_TYPES] = {
		[EV_SUBMIT] = JOB_QUEUED, [EV_RUN] = JOB_RAN, [EV_DONE] = JOB_DONE,
	};

	if (e->ring < MAX_RINGS)
		jobs_timeline_step(steps[e->type], &(struct job_event){
			.context = e->context, .seqno = e->seqno, .ts_ns = e->ts_ns, .extra = e->a,
			.pid = e->pid, .comm = e->comm,
			.ring = { e->ring, ring_name(e->ring), "amdgpu" } });
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct amdgpucs_event *e = data;
	char detail[160], d1[64], d2[64];
	struct cell c[NR_F];
	int i;

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	if (timeline_on())
		timeline_event(e);
	if (!common_env.events)
		return 0;
	for (i = 0; i < NR_F; i++)
		c[i] = CELL_NONE;
	switch (e->type) {
	case EV_SUBMIT:
		snprintf(detail, sizeof(detail), "fence=%llu:%llu ibs=%u",
			 (unsigned long long)e->context, (unsigned long long)e->seqno, e->a);
		c[F_CONTEXT] = CELL_U(e->context);
		c[F_SEQNO] = CELL_U(e->seqno);
		c[F_IBS] = CELL_U(e->a);
		break;
	case EV_RUN:
	case EV_DONE:
		snprintf(detail, sizeof(detail), "fence=%llu:%llu %s=%llu%s",
			 (unsigned long long)e->context, (unsigned long long)e->seqno,
			 e->type == EV_RUN ? "wait" : "exec", (unsigned long long)e->value, time_unit());
		c[F_CONTEXT] = CELL_U(e->context);
		c[F_SEQNO] = CELL_U(e->seqno);
		c[e->type == EV_RUN ? F_WAIT : F_EXEC] = CELL_U(e->value);
		break;
	case EV_BO_CREATE:
		snprintf(detail, sizeof(detail), "bo=0x%llx bytes=%llu domain=%s allowed=%s",
			 (unsigned long long)e->context, (unsigned long long)e->value,
			 domain_str(e->a, d1, sizeof(d1)), domain_str(e->b, d2, sizeof(d2)));
		c[F_BO] = CELL_U(e->context);
		c[F_BYTES] = CELL_U(e->value);
		c[F_DOMAIN] = CELL_S(d1);
		c[F_ALLOWED] = CELL_S(d2);
		break;
	case EV_BO_MOVE:
		snprintf(detail, sizeof(detail), "bo=0x%llx bytes=%llu from=%s to=%s%s",
			 (unsigned long long)e->context, (unsigned long long)e->value,
			 placement_str(e->a), placement_str(e->b),
			 is_eviction(e->a, e->b) ? " eviction" : "");
		c[F_BO] = CELL_U(e->context);
		c[F_BYTES] = CELL_U(e->value);
		c[F_FROM] = CELL_S(placement_str(e->a));
		c[F_TO] = CELL_S(placement_str(e->b));
		c[F_EVICTION] = CELL_B(is_eviction(e->a, e->b));
		break;
	case EV_VM_MAP:
	case EV_VM_UNMAP:
		snprintf(detail, sizeof(detail), "va=0x%llx bytes=%llu", (unsigned long long)e->context,
			 (unsigned long long)e->value);
		c[F_VA] = CELL_U(e->context);
		c[F_BYTES] = CELL_U(e->value);
		break;
	case EV_VM_FLUSH:
		snprintf(detail, sizeof(detail), "vmid=%u pd_addr=0x%llx", e->a,
			 (unsigned long long)e->value);
		c[F_VMID] = CELL_U(e->a);
		c[F_PD_ADDR] = CELL_U(e->value);
		break;
	default:
		snprintf(detail, sizeof(detail), "client=%u src=%u ring=%u vmid=%u pasid=%u", e->a,
			 e->b, e->c, e->d, e->e);
		c[F_CLIENT] = CELL_U(e->a);
		c[F_SRC] = CELL_U(e->b);
		c[F_RING_ID] = CELL_U(e->c);
		c[F_VMID] = CELL_U(e->d);
		c[F_PASID] = CELL_U(e->e);
	}
	c[0] = CELL_F(trace_seconds(e->ts_ns), 6);
	c[1] = CELL_S(event_names[e->type]);
	c[2] = e->ring < MAX_RINGS ? CELL_S(ring_name(e->ring)) : CELL_NONE;
	c[3] = CELL_U_IF(e->pid, e->pid);
	c[4] = e->pid && e->type != EV_BO_MOVE ? CELL_S(e->comm) : CELL_NONE;
	c[5] = CELL_S(detail);
	table_event(stdout, &event_table, c, e->ts_ns);
	return 0;
}

/* ---- summaries ---------------------------------------------------------- */

static int cmp_row(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	int c = strcmp(ring_name(x->ring), ring_name(y->ring));

	return c ? c : (x->pid < y->pid ? -1 : x->pid > y->pid);
}

static const struct column submission_cols[] = {
	{ "RING", "ring", -16, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "SUBMITS", "submits", 8, 0 },
	{ "IBS", "ibs", 8, 0 },
	{ "RUN", "run", 8, 0 },
	{ "DONE", "done", 8, 0 },
	{ "SUB->RUN", "submit_to_run_avg", 13, COL_TIME },
	{ "RUN->DONE", "run_to_done_avg", 13, COL_TIME },
	CGROUP_COLUMN,
};
static const struct table submission_table = TABLE("submission", submission_cols);
static const struct table ring_hist_table = { "ring_hist", submission_cols, 1, false };

static void print_submissions(FILE *f, const struct map_snapshot *s)
{
	struct lat_hist run[MAX_RINGS], done[MAX_RINGS];
	bool header = false, seen[MAX_RINGS] = {};
	char title[64];
	size_t i;
	int r;

	for (r = 0; r < MAX_RINGS; r++) {
		lat_hist_reset(&run[r]);
		lat_hist_reset(&done[r]);
	}
	for (i = 0; i < s->n; i++) {
		const struct row_key *k = snapshot_key(s, i);
		const struct row_stats *now = snapshot_value(s, i);
		const struct row_stats *was = map_snapshot_find(&prev_rows, k);
		struct lat_hist sr, rd;

		if (!DELTA(now, was, submits) && !DELTA(now, was, runs) && !DELTA(now, was, dones))
			continue;
		lat_hist_delta(&sr, &now->submit_run, was ? &was->submit_run : NULL);
		lat_hist_delta(&rd, &now->run_done, was ? &was->run_done : NULL);
		if (!header) {
			table_header(f, &submission_table);
			header = true;
		}
		table_row(f, &submission_table, (struct cell[]){
			CELL_S(ring_name(k->ring)), CELL_U(k->pid), CELL_S(now->comm),
			CELL_U(DELTA(now, was, submits)), CELL_U(DELTA(now, was, ibs)),
			CELL_U(DELTA(now, was, runs)), CELL_U(DELTA(now, was, dones)),
			cell_hist_avg(&sr), cell_hist_avg(&rd), cell_cgroup(now->cgroup_id) });
		if (k->ring < MAX_RINGS) {
			lat_hist_merge(&run[k->ring], &sr);
			lat_hist_merge(&done[k->ring], &rd);
			seen[k->ring] = true;
		}
	}
	if (!header)
		text_printf(f, "no submissions\n");
	for (r = 0; r < MAX_RINGS; r++) {
		const struct cell key[] = { CELL_S(ring_name(r)) };

		if (!seen[r])
			continue;
		if (run[r].count) {
			snprintf(title, sizeof(title), "%s submit -> run:", ring_name(r));
			table_lat_hist(f, &ring_hist_table, key, "submit_to_run", title, &run[r],
				       time_unit());
		}
		if (done[r].count) {
			snprintf(title, sizeof(title), "%s run -> done:", ring_name(r));
			table_lat_hist(f, &ring_hist_table, key, "run_to_done", title, &done[r],
				       time_unit());
		}
	}
}

static const struct column flush_cols[] = {
	{ "RING", "ring", -16, 0 },
	{ "VM_FLUSHES", "vm_flushes", 10, 0 },
};
static const struct table flush_table = TABLE("vm_flush", flush_cols);

static void print_flushes(FILE *f)
{
	bool header = false;
	__u32 r;

	for (r = 0; r < MAX_RINGS; r++) {
		__u64 n = skel->bss->ring_infos[r].flushes - prev_flushes[r];

		if (!n)
			continue;
		table_header_once(f, &flush_table, &header);
		table_row(f, &flush_table, (struct cell[]){ CELL_S(ring_name(r)), CELL_U(n) });
	}
}

static int cmp_bo(const void *a, const void *b)
{
	const struct bo_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->domain < y->domain ? -1 : x->domain > y->domain;
}

static const struct column buffer_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "DOMAIN", "domain", -10, 0 },
	{ "ALLOWED", "allowed", -16, 0 },
	{ "CREATED", "created", 8, 0 },
	{ "BYTES", "bytes", 12, 0 },
	{ "EVICTED", "evicted", 8, 0 },
	{ "EVICTED_B", "evicted_bytes", 12, 0 },
	{ "VISIBLE_B", "visible_bytes", 12, 0 },	/* CPU-visible VRAM created */
	{ "MISPLACED", "misplaced", 9, 0 },	/* created outside the preferred domain */
	CGROUP_COLUMN,
};
static const struct table buffer_table = TABLE("buffer", buffer_cols);

static void print_buffers(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct bo_key *k = snapshot_key(s, i);
		const struct bo_stats *now = snapshot_value(s, i);
		const struct bo_stats *was = map_snapshot_find(&prev_bos, k);
		char dom[64], allowed[64];

		if (!DELTA(now, was, count) && !DELTA(now, was, evictions))
			continue;
		table_header_once(f, &buffer_table, &header);
		table_row(f, &buffer_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(now->comm), CELL_S(domain_str(k->domain, dom, sizeof(dom))),
			CELL_S(domain_str(now->allowed, allowed, sizeof(allowed))),
			CELL_U(DELTA(now, was, count)), CELL_U(DELTA(now, was, bytes)),
			CELL_U(DELTA(now, was, evictions)), CELL_U(DELTA(now, was, evicted_bytes)),
			CELL_U(DELTA(now, was, visible_bytes)), CELL_U(DELTA(now, was, misplaced)),
			cell_cgroup(now->cgroup_id) });
	}
}

static const struct column move_cols[] = {
	{ "FROM", "from", -10, 0 },
	{ "TO", "to", -10, 0 },
	{ "MOVES", "moves", 8, 0 },
	{ "BYTES", "bytes", 12, 0 },
	{ "RATE/s", "rate_per_s", 9, 0 },
	{ "", "eviction", 0, 0 },	/* VRAM -> GTT or system */
};
static const struct table move_table = TABLE("move", move_cols);

static void print_moves(FILE *f, double secs)
{
	bool header = false;
	int from, to;

	for (from = 0; from < NR_PLACEMENTS; from++) {
		for (to = 0; to < NR_PLACEMENTS; to++) {
			const struct move_stats *now = &skel->bss->moves[from][to];
			const struct move_stats *was = &prev_moves[from][to];
			unsigned long long n = now->count - was->count;

			if (!n)
				continue;
			table_header_once(f, &move_table, &header);
			table_row(f, &move_table, (struct cell[]){
				CELL_S(placement_str(from)), CELL_S(placement_str(to)), CELL_U(n),
				CELL_U(now->bytes - was->bytes), CELL_F(secs > 0 ? n / secs : 0.0, 1),
				CELL_B(is_eviction(from, to)) });
		}
	}
}

static int cmp_pid(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static const struct column vm_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "MAPS", "maps", 6, 0 },
	{ "MAPPED_B", "mapped_bytes", 12, 0 },
	{ "UNMAPS", "unmaps", 6, 0 },
	{ "UNMAPPED_B", "unmapped_bytes", 12, 0 },
	{ "PT_UPDATES", "pt_updates", 10, 0 },
	{ "BO_LISTS", "bo_lists", 8, 0 },
	{ "LISTED_BO", "listed_bos", 9, 0 },
	{ "LISTED_B", "listed_bytes", 12, 0 },
	CGROUP_COLUMN,
};
static const struct table vm_table = TABLE("vm", vm_cols);

static void print_vm(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		__u32 pid = *(const __u32 *)snapshot_key(s, i);
		const struct vm_stats *now = snapshot_value(s, i);
		const struct vm_stats *was = map_snapshot_find(&prev_vms, &pid);

		if (!DELTA(now, was, maps) && !DELTA(now, was, unmaps) && !DELTA(now, was, updates) &&
		    !DELTA(now, was, list_entries) && !DELTA(now, was, lists))
			continue;
		table_header_once(f, &vm_table, &header);
		table_row(f, &vm_table, (struct cell[]){
			CELL_U(pid), CELL_S(now->comm), CELL_U(DELTA(now, was, maps)),
			CELL_U(DELTA(now, was, mapped_bytes)), CELL_U(DELTA(now, was, unmaps)),
			CELL_U(DELTA(now, was, unmapped_bytes)), CELL_U(DELTA(now, was, updates)),
			CELL_U(DELTA(now, was, lists)), CELL_U(DELTA(now, was, list_entries)),
			CELL_U(DELTA(now, was, list_bytes)), cell_cgroup(now->cgroup_id) });
	}
}

static int cmp_iv(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct iv_key));
}

/* The process that submitted with `pasid` (from the CS ioctls seen): 0 if none. */
static __u32 pasid_owner(__u32 pasid, char *comm, size_t size)
{
	__u32 pid;

	snprintf(comm, size, "(exited)");
	if (!pasid || bpf_map__lookup_elem(skel->maps.pasid_pids, &pasid, sizeof(pasid), &pid,
					   sizeof(pid), 0))
		return 0;
	if (!proc_comm_read(pid, comm, size))
		snprintf(comm, size, "(exited)");
	return pid;
}

static const struct column interrupt_cols[] = {
	{ "CLIENT", "client", -6, 0 },
	{ "SRC", "src", -6, 0 },
	{ "RING", "ring_id", -6, 0 },
	{ "VMID", "vmid", -5, 0 },
	{ "PASID", "pasid", -6, 0 },
	{ "COUNT", "count", 8, 0 },
	{ "RATE/s", "rate_per_s", 9, 0 },
	{ "PROCESS", "", 0, COL_TEXT_ONLY },	/* "PID COMM" of the pasid */
	{ "", "pid", 0, COL_JSON_ONLY },
	{ "", "comm", 0, COL_JSON_ONLY },
};
static const struct table interrupt_table = TABLE("interrupt", interrupt_cols);

static void print_interrupts(FILE *f, const struct map_snapshot *s, double secs)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct iv_key *k = snapshot_key(s, i);
		const __u64 *now = snapshot_value(s, i), *was = map_snapshot_find(&prev_ivs, k);
		unsigned long long n = *now - (was ? *was : 0);
		char comm[COMM_LEN + 1], owner[48] = "-";
		__u32 pid;

		if (!n)
			continue;
		table_header_once(f, &interrupt_table, &header);
		pid = pasid_owner(k->pasid, comm, sizeof(comm));
		if (pid)
			snprintf(owner, sizeof(owner), "%u %s", pid, comm);
		table_row(f, &interrupt_table, (struct cell[]){
			CELL_U(k->client_id), CELL_U(k->src_id), CELL_U(k->ring_id), CELL_U(k->vmid),
			CELL_U(k->pasid), CELL_U(n), CELL_F(secs > 0 ? n / secs : 0.0, 1),
			CELL_S(owner), CELL_U_IF(pid, pid), pid ? CELL_S(comm) : CELL_NONE });
	}
}

static int print_summary(void *ctx)
{
	struct bpf_map *const maps[NR_SNAPS] = {
		skel->maps.rows, skel->maps.bo_rows, skel->maps.ivs, skel->maps.vm_rows,
	};
	struct map_snapshot now[NR_SNAPS];
	unsigned long long t = monotonic_ns();
	double secs = (t - last_summary_ns) / 1e9;
	FILE *f = summary_stream();
	int err, r;

	(void)ctx;
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	map_snapshot_sort(&now[S_ROWS], cmp_row);
	map_snapshot_sort(&now[S_BOS], cmp_bo);
	map_snapshot_sort(&now[S_IVS], cmp_iv);
	map_snapshot_sort(&now[S_VMS], cmp_pid);

	summary_begin(f);
	print_submissions(f, &now[S_ROWS]);
	print_flushes(f);
	print_buffers(f, &now[S_BOS]);
	print_vm(f, &now[S_VMS]);
	print_moves(f, secs);
	print_interrupts(f, &now[S_IVS], secs);
	fflush(f);

	map_snapshot_keep(prev, now, NR_SNAPS);
	memcpy(prev_moves, skel->bss->moves, sizeof(prev_moves));
	for (r = 0; r < MAX_RINGS; r++)
		prev_flushes[r] = skel->bss->ring_infos[r].flushes;
	last_summary_ns = t;
	return 0;
}

/* ---- --prometheus (amdgpucs/prom.c) ------------------------------------ */

static int write_metrics(struct metrics *m, void *ctx)
{
	struct bpf_map *const maps[NR_SNAPS] = {
		skel->maps.rows, skel->maps.bo_rows, skel->maps.ivs, skel->maps.vm_rows,
	};
	struct map_snapshot now[NR_SNAPS];
	int err;

	(void)ctx;
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	map_snapshot_sort(&now[S_ROWS], cmp_row);
	map_snapshot_sort(&now[S_BOS], cmp_bo);
	map_snapshot_sort(&now[S_IVS], cmp_iv);
	err = amdgpucs_metrics(m, &(struct amdgpucs_metrics_in){
		.rings = skel->bss->ring_infos, .moves = skel->bss->moves, .rows = &now[S_ROWS],
		.bos = &now[S_BOS], .vms = &now[S_VMS], .ivs = &now[S_IVS] });
	map_snapshot_free_all(now, NR_SNAPS);
	return err;
}

/* What the kernel side had no room for, and what the timeline could not draw: never silent. */
static void report_dropped(void)
{
	const struct amdgpucs_bpf__bss *bss = skel->bss;

	report_lost("submissions", bss->dropped_jobs, MAX_JOBS, "%llu submissions not timed "
		    "(more than %d in flight)", (unsigned long long)bss->dropped_jobs, MAX_JOBS);
	report_lost("rows", bss->dropped_rows, 0, "%llu events beyond the tables' rows not "
		    "counted", (unsigned long long)bss->dropped_rows);
	report_lost("rings", bss->dropped_rings, MAX_RINGS, "%llu events of rings beyond the "
		    "first %d not counted", (unsigned long long)bss->dropped_rings, MAX_RINGS);
	report_lost("untracked_runs", bss->untracked_runs, 0, "%llu jobs ran that were "
		    "submitted before tracing began", (unsigned long long)bss->untracked_runs);
	report_lost("odd_done_fences", bss->odd_done_fences, 0, "%llu jobs' done not counted: "
		    "gpu_sched's struct drm_sched_fence is not laid out as expected (use its BTF)",
		    (unsigned long long)bss->odd_done_fences);
	jobs_timeline_report();
}

int main(int argc, char **argv)
{
	struct trace_loop loop = {};
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	jobs_timeline_init("ibs");
	if (!tracepoint_exists("amdgpu", "amdgpu_cs_ioctl")) {
		fprintf(stderr, "amdgpucs: no amdgpu tracepoints: module amdgpu is not loaded: "
			"'modprobe amdgpu'\n");
		return 1;
	}
	done_event = sched_done_event();
	if (!done_event) {
		fprintf(stderr, "amdgpucs: no gpu_scheduler done event (module gpu-sched)\n");
		return 1;
	}
	records = records_wanted("amdgpu gpu_sched");

	skel = amdgpucs_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	memcpy((char *)skel->rodata->targ_ring, env.ring, sizeof(env.ring));
	choose_programs(skel);
	err = records ? set_record_fields() : 0;
	if (err)
		goto cleanup;
	err = tool_start(skel->skeleton, skel->maps.cgroup_map, "the amdgpu tracepoints");
	if (!err && records)
		err = attach_records();
	if (err)
		goto cleanup;
	/* Said once attached: a test waiting for the tool's first output sees it attached. */
	records_announce();
	last_summary_ns = monotonic_ns();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing amdgpu command submission");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	records_detach();
	map_snapshot_free_all(prev, NR_SNAPS);
	amdgpucs_bpf__destroy(skel);
	return err != 0;
}
