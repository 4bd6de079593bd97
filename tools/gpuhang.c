// SPDX-License-Identifier: GPL-2.0
/*
 * gpuhang - GPU job timeouts, faults and recoveries: the job blamed, its
 * submitter, the device's last jobs before it.
 *
 * On the DRM GPU scheduler's own timeout handling (amdgpu, xe, nouveau,
 * panfrost, panthor, v3d, etnaviv, lima, msm...): one line per incident as
 * it happens, with the device's flight recorder under it (its last jobs,
 * kept in the kernel from the gpu_scheduler tracepoints), one line when
 * the ring is running again, and a summary per ring at the end. A DRM
 * device's wedged event (6.14+) is a line too, with the task it names, an
 * amdgpu GPU reset, with its time and cause, xe's reports of a queue's
 * engine reset or bad memory access, with its process, i915's engine
 * resets, with the request they blame, device coredumps, by the name
 * the kernel keeps them under, and NVIDIA's Xids, with the process the
 * driver's report names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/btf.h>

#include "gpuhang.h"
#include "tp_field.h"
#include "gpuhang.skel.h"
#include "gpuhang/prom.h"
#include "btf_targets.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"

static struct env {
	long recorded;		/* -n: the recorder's jobs printed with an incident */
} env = { .recorded = RECORDER_DEFAULT };

/* The generation of gpu_scheduler events that feed the recorder. */
enum sched_abi { ABI_NONE, ABI_PRE_6_17, ABI_6_17 };

static enum sched_abi abi;
/* Why abi is ABI_NONE: said if nothing else is traced, or if gpu_sched is loaded. */
static char no_sched[400];
static bool sched_loaded;
static struct gpuhang_bpf *skel;
/* NVIDIA's Xid hooks: kprobes and a tracepoint attached by name (nvidia.ko has no BTF). */
static struct bpf_link *xid_links[2];
/* The previous summary's rows: a summary prints what changed since. */
static struct map_snapshot prev[2];

const char *argp_program_version = "gpuhang 0.1";
static const char doc[] =
"Trace GPU job timeouts, faults and recoveries: the job blamed, its submitter.\n"
"\n"
"USAGE: gpuhang [-ejmCTv] [-n JOBS] [-p PID] [-c COMM] [--cgroup PATH]\n"
"               [--container ID] [--pod UID] [--timeline FILE]\n"
"               [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    gpuhang               # one line per incident, a summary at Ctrl-C\n"
"    gpuhang -n 4          # with the device's last 4 jobs before each\n"
"    gpuhang -e            # and each step of the recovery\n"
"    gpuhang -j            # JSON lines: one object per incident and job\n"
"    gpuhang -C            # the submitters' cgroups\n"
"    gpuhang -p 1234       # only incidents blaming PID 1234's jobs\n"
"    gpuhang --prometheus gpuhang.prom  # incident counters\n"
"    gpuhang --timeline hangs.json  # the incidents, for ui.perfetto.dev\n";

static const struct argp_option opts[] = {
	{ "jobs", 'n', "JOBS", 0, "The device's last JOBS jobs printed with an incident "
	  "(default 16, at most 64; 0: none)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'n':
		env.recorded = parse_long_arg(state, arg, "number of jobs", 0, RECORDER_SLOTS);
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
	.events = "Print each step of a recovery too (stop, karma, resubmit)",
	.timeline = "Write the incidents and recoveries to FILE as a timeline (Trace Event "
		    "Format: ui.perfetto.dev opens it)",
	.needs = TOOL_TRACEFS,
};

/*
 * The DRM scheduler's events and its functions' BTF: ABI_NONE, and
 * no_sched saying why, without them.
 */
static enum sched_abi detect_abi(void)
{
	sched_loaded = module_loaded("gpu_sched");
	if (module_lacks_btf("gpu_sched")) {
		snprintf(no_sched, sizeof(no_sched), "gpuhang: module gpu_sched has no BTF (a kernel "
			 "without CONFIG_DEBUG_INFO_BTF_MODULES): its timeout handling cannot be traced");
		return ABI_NONE;
	}
	if (tracepoint_exists("gpu_scheduler", "drm_sched_job_queue"))
		return ABI_6_17;
	if (tracepoint_exists("gpu_scheduler", "drm_sched_job"))
		return ABI_PRE_6_17;
	snprintf(no_sched, sizeof(no_sched), "gpuhang: no gpu_scheduler tracepoints: module gpu-sched "
		 "is not loaded; it comes with the drivers that use the DRM GPU scheduler (amdgpu, xe, "
		 "nouveau, panfrost, panthor, v3d, etnaviv, lima, msm), and no i915 or nvidia to trace "
		 "instead: load yours, e.g. 'modprobe amdgpu'");
	return ABI_NONE;
}

/*
 * drm_dev_wedged_event(dev, method[, info]) where drm has it (6.14+; the
 * task from 6.17), in module drm or built in; one line on stderr if a
 * loaded drm lacks it.
 */
static void choose_wedged(void)
{
	int params = btf_func_params("drm", "drm_dev_wedged_event");

	if (params < 0)
		params = btf_func_params("vmlinux", "drm_dev_wedged_event");
	if (params < 0 && module_loaded("drm"))
		fprintf(stderr, "gpuhang: drm has no function drm_dev_wedged_event (Linux < 6.14): "
			"wedged devices not traced\n");
	bpf_program__set_autoload(skel->progs.wedged, params >= 0);
	skel->rodata->wedged_traced = params >= 0;
	skel->rodata->wedged_has_task = params >= 3;
}

/* Does a loaded module's BTF have function `func` with `params` parameters? */
static bool have_function(const char *func, int params)
{
	char module[64];
	__u32 id;

	return !btf_target_find(func, BTF_KIND_FUNC, module, sizeof(module), &id) &&
	       btf_func_params(module, func) == params;
}

/*
 * amdgpu's whole GPU reset, amdgpu_device_gpu_recover(adev, job, context)
 * (6.1+), and its VM faults, amdgpu_vm_update_fault_cache() with the
 * process amdgpu_vm_get_task_info_pasid() names (6.12+), in whichever
 * module's BTF has them; one line on stderr for each a loaded amdgpu lacks.
 */
static void choose_amdgpu(void)
{
	bool amdgpu = module_loaded("amdgpu"), found = have_function("amdgpu_device_gpu_recover", 3);

	if (!found && amdgpu)
		fprintf(stderr, "gpuhang: module amdgpu has no function amdgpu_device_gpu_recover(adev, "
			"job, context) in its BTF: its GPU resets not traced\n");
	bpf_program__set_autoload(skel->progs.gpu_recover, found);
	bpf_program__set_autoload(skel->progs.gpu_recover_exit, found);
	found = have_function("amdgpu_vm_update_fault_cache", 5) &&
		have_function("amdgpu_vm_get_task_info_pasid", 2);
	if (!found && amdgpu)
		fprintf(stderr, "gpuhang: module amdgpu has no function amdgpu_vm_update_fault_cache(adev, "
			"pasid, addr, status, vmhub) in its BTF (Linux < 6.12): its VM faults not traced\n");
	bpf_program__set_autoload(skel->progs.task_info, found);
	bpf_program__set_autoload(skel->progs.vm_fault, found);
}

/*
 * i915's engine and GT resets and the request each blames (6.1+: i915 has
 * no DRM scheduler), and the GT wedged when its reset fails; one line on
 * stderr if a loaded i915 lacks them.
 */
static bool choose_i915(void)
{
	bool gt, found = have_function("__i915_request_reset", 2) &&
		     have_function("__intel_engine_reset_bh", 2);

	if (!found && module_loaded("i915"))
		fprintf(stderr, "gpuhang: module i915 has no functions __i915_request_reset(rq, "
			"guilty) and __intel_engine_reset_bh(engine, msg) in its BTF: its engine "
			"resets not traced\n");
	bpf_program__set_autoload(skel->progs.i915_request_reset, found);
	bpf_program__set_autoload(skel->progs.i915_engine_reset, found);
	bpf_program__set_autoload(skel->progs.i915_engine_reset_exit, found);
	gt = found && have_function("intel_gt_reset", 3) && have_function("intel_gt_set_wedged", 1);
	if (found && !gt && module_loaded("i915"))
		fprintf(stderr, "gpuhang: module i915 has no functions intel_gt_reset(gt, mask, reason) "
			"and intel_gt_set_wedged(gt) in its BTF: its GT resets not traced\n");
	bpf_program__set_autoload(skel->progs.i915_gt_reset, gt);
	bpf_program__set_autoload(skel->progs.i915_gt_reset_exit, gt);
	bpf_program__set_autoload(skel->progs.i915_gt_wedged, gt);
	return found;
}

/*
 * NVIDIA's Xids, where nvidia.ko is loaded: each from its tracepoint
 * nvidia:nvidia_dev_xid (575 and later), else from nv_printf and
 * nv_log_error (kprobes), the process from nv_printf's report
 * (nv_xid.bpf.h); one line on stderr if the tracepoint cannot be read.
 */
static bool choose_nvidia(void)
{
	struct gpuhang_bpf__rodata *ro = skel->rodata;
	bool nvidia = module_loaded("nvidia"), tp = false;
	char why[400];

	if (nvidia) {
		tp = nv_xid_tracepoint(&ro->f_xid_dev, &ro->f_xid_code, &ro->f_xid_msg, why,
				       sizeof(why));
		if (!tp && why[0])
			fprintf(stderr, "gpuhang: Xids from nv_printf and nv_log_error (kprobes), not "
				"from the tracepoint nvidia:nvidia_dev_xid: %s\n", why);
		ro->nv_xid_from_tracepoint = tp;
	}
	bpf_program__set_autoload(skel->progs.xid_printf, nvidia);
	bpf_program__set_autoload(skel->progs.xid_log_error, nvidia && !tp);
	bpf_program__set_autoload(skel->progs.xid_tracepoint, tp);
	return nvidia;
}

/* The Xid hooks chosen, attached by name; one line on stderr for one that fails. */
static void attach_nvidia(void)
{
	struct bpf_program *tp = skel->progs.xid_tracepoint, *log = skel->progs.xid_log_error;
	struct bpf_link *link;

	if (!bpf_program__autoload(skel->progs.xid_printf))
		return;
	link = bpf_program__attach_kprobe(skel->progs.xid_printf, false, "nv_printf");
	if (!link)
		fprintf(stderr, "gpuhang: cannot attach to nvidia's nv_printf (%s): the processes "
			"of Xids not known\n", strerror(errno));
	xid_links[0] = link;
	link = bpf_program__autoload(tp) ? bpf_program__attach_tracepoint(tp, "nvidia", "nvidia_dev_xid") :
	       bpf_program__attach_kprobe(log, false, "nv_log_error");
	if (!link)
		fprintf(stderr, "gpuhang: cannot attach to nvidia's %s (%s): Xids %s\n",
			bpf_program__autoload(tp) ? "tracepoint nvidia_dev_xid" : "nv_log_error",
			strerror(errno), bpf_program__autoload(tp) ? "not traced" : "only from nv_printf");
	xid_links[1] = link;
}

/*
 * xe's job timeouts and exec queue incidents (6.8+), where xe's BTF has
 * them; one line on stderr for each a loaded xe lacks.
 */
static void choose_xe(void)
{
	const struct { struct bpf_program *prog; const char *event; } evs[] = {
		{ skel->progs.xe_job_timedout, "xe_sched_job_timedout" },
		{ skel->progs.xe_queue_reset, "xe_exec_queue_reset" },
		{ skel->progs.xe_queue_cat_error, "xe_exec_queue_memory_cat_error" },
	};
	char module[64];
	size_t i;

	for (i = 0; i < sizeof(evs) / sizeof(evs[0]); i++) {
		bool found = tracepoint_btf_module(evs[i].event, module, sizeof(module));

		if (!found && module_loaded("xe"))
			fprintf(stderr, "gpuhang: xe has no event %s in its BTF: not traced\n",
				evs[i].event);
		bpf_program__set_autoload(evs[i].prog, found);
		/* The timeouts xe finds real: its rings' scheduler timers are not incidents then. */
		if (!i)
			skel->rodata->xe_timeouts_traced = found;
	}
}

/*
 * Device coredumps, where the kernel keeps them (CONFIG_DEV_COREDUMP:
 * struct devcd_entry in its BTF); one line on stderr if not.
 */
static void choose_coredump(void)
{
	bool found = btf_member_offset("vmlinux", "devcd_entry", "failing_dev") >= 0;

	if (!found)
		fprintf(stderr, "gpuhang: the kernel has no device coredumps (CONFIG_DEV_COREDUMP): "
			"not traced\n");
	bpf_program__set_autoload(skel->progs.coredump, found);
}

/*
 * The scheduler's recovery functions, each traced where gpu_sched's BTF has
 * it: one line on stderr for each it lacks (a driver's recovery may call
 * it under another name), none for the timeout handler, without which
 * there is nothing to trace (false); none of them without the scheduler.
 */
static bool choose_functions(void)
{
	const struct { struct bpf_program *prog; const char *func; } fns[] = {
		{ skel->progs.timedout, "drm_sched_job_timedout" },
		{ skel->progs.fault, "drm_sched_fault" },
		{ skel->progs.stop, "drm_sched_stop" },
		{ skel->progs.karma, "drm_sched_increase_karma" },
		{ skel->progs.resubmit, "drm_sched_resubmit_jobs" },
		{ skel->progs.start, "drm_sched_start" },
	};
	size_t i;

	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		/* No scheduler: none of them (i915 and NVIDIA are traced alone). */
		if (abi == ABI_NONE) {
			bpf_program__set_autoload(fns[i].prog, false);
			continue;
		}
		if (btf_func_params("gpu_sched", fns[i].func) >= 0)
			continue;
		if (!i) {
			fprintf(stderr, "gpuhang: module gpu_sched has no function %s: its "
				"timeouts cannot be traced\n", fns[i].func);
			return false;
		}
		fprintf(stderr, "gpuhang: module gpu_sched has no function %s: not traced\n",
			fns[i].func);
		bpf_program__set_autoload(fns[i].prog, false);
	}
	return true;
}

/* The scheduler's programs of the loaded gpu_sched (none without it). */
static void choose_programs(void)
{
	bool old = abi == ABI_PRE_6_17, sched = abi != ABI_NONE,
	     wqueue = sched && btf_func_params("gpu_sched", "drm_sched_wqueue_start") >= 0;

	bpf_program__set_autoload(skel->progs.queue_old, sched && old);
	bpf_program__set_autoload(skel->progs.run_old, sched && old);
	bpf_program__set_autoload(skel->progs.done_old, sched && old);
	bpf_program__set_autoload(skel->progs.queue_new, sched && !old);
	bpf_program__set_autoload(skel->progs.run_new, sched && !old);
	bpf_program__set_autoload(skel->progs.done_new, sched && !old);
	/* A ring reset's, from 6.8: before, drm_sched_stop() and _start() are the only ones. */
	bpf_program__set_autoload(skel->progs.wqueue_stop, wqueue);
	bpf_program__set_autoload(skel->progs.wqueue_start, wqueue);
}

static const char *const kind_names[NR_HANG_KINDS] = {
	[HANG_TIMEOUT] = "TIMEOUT", [HANG_FAULT] = "FAULT", [HANG_WEDGED] = "WEDGED",
	[HANG_RESET] = "RESET", [HANG_PAGEFAULT] = "PAGEFAULT", [HANG_COREDUMP] = "COREDUMP",
	[HANG_XID] = "XID",
	[HANG_STOP] = "STOP", [HANG_KARMA] = "KARMA", [HANG_RESUBMIT] = "RESUBMIT",
	[HANG_RECOVERED] = "RECOVERED",
};

static const char *kind_name(__u32 kind)
{
	return kind < NR_HANG_KINDS ? kind_names[kind] : "?";
}

/* Ring `idx` as the kernel side named it (a zeroed state if unknown). */
static struct ring_state ring_at(__u32 idx)
{
	struct ring_row row = {};

	bpf_map__lookup_elem(skel->maps.rings, &idx, sizeof(idx), &row, sizeof(row), 0);
	return row.s;
}

static struct cell cell_name(const char *s)
{
	return s[0] ? CELL_S(s) : CELL_NONE;
}

static struct cell cell_job(char *buf, size_t size, const struct job_info *j)
{
	if (!j->context)
		return CELL_NONE;
	snprintf(buf, size, "%llu:%llu", (unsigned long long)j->context,
		 (unsigned long long)j->seqno);
	return CELL_S(buf);
}

/*
 * A wedged event's recovery methods as drm names them to user space
 * ("WEDGED=rebind,bus-reset"; no method: "unknown").
 */
static struct cell cell_recovery(char *buf, size_t size, __u32 method)
{
	static const char *const names[] = { "none", "rebind", "bus-reset", "vendor" };
	size_t len = 0, i;

	buf[0] = 0;
	for (i = 0; i < 32; i++)
		if (method & (1u << i))
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? "," : "",
					i < sizeof(names) / sizeof(names[0]) ? names[i] : "?");
	return CELL_S(buf[0] ? buf : "unknown");
}

/*
 * A reset as RECOVERY says it: "gpu-reset", its cause where the kernel
 * gives one ("gpu-reset(ras)"), its error if it failed ("...:EIO"); an
 * engine's, "engine-reset".
 */
static struct cell cell_reset(char *buf, size_t size, __u32 scope, __u32 cause, __s32 result)
{
	static const char *const causes[] = { "unknown", "job", "ras", "mes", "hws", "user", "userq" };
	char name[32], err[32];

	if (!cause)
		name[0] = 0;
	else if (cause - 1 < sizeof(causes) / sizeof(causes[0]))
		snprintf(name, sizeof(name), "(%s)", causes[cause - 1]);
	else
		snprintf(name, sizeof(name), "(%u)", cause - 1);
	if (result)
		snprintf(err, sizeof(err), ":%s", errno_name(-result, buf, size));
	else
		err[0] = 0;
	snprintf(buf, size, "%s-reset%s%s", scope == RESET_ENGINE ? "engine" : "gpu", name, err);
	return CELL_S(buf);
}

/* An Xid as DETAIL says it: "xid=79 (GPU has fallen off the bus) msg=...". */
static struct cell cell_xid(char *buf, size_t size, const struct xid_report *x,
			    const char *meaning)
{
	snprintf(buf, size, "xid=%u (%s) msg=%s", x->xid, meaning ? meaning : "?",
		 x->msg ? x->msg : "-");
	return CELL_S(buf);
}

/* A time in the -m unit since `from` (none if either is unknown). */
static struct cell cell_since(__u64 from, __u64 to)
{
	return from && to >= from ? CELL_U((__u64)ns_in_time_unit(to - from)) : CELL_NONE;
}

static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -9, 0 },
	{ "#", "incident", 3, 0 },
	{ "DEV", "dev", -12, 0 },
	{ "DRIVER", "driver", -10, 0 },
	{ "RING", "ring", -10, 0 },
	{ "JOB", "job", -10, 0 },
	{ "", "context", 0, COL_JSON_ONLY },
	{ "", "seqno", 0, COL_JSON_ONLY },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "RAN", "ran", 9, COL_TIME },
	{ "OUT", "out", 9, COL_TIME },
	{ "RESUB", "resubmitted", 5, 0 },
	{ "LOST", "lost", 4, 0 },
	{ "OTHERS", "others", 0, 0 },
	{ "RECOVERY", "recovery", 0, COL_SPARSE },
	{ "DETAIL", "", 0, COL_TEXT_ONLY },
	{ "", "dump", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "dump_bytes", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "address", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "vmhub", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "status", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "meaning", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "message", 0, COL_JSON_ONLY | COL_SPARSE },
	CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("incident", event_cols);

/* An incident's flight recorder: the device's last jobs, oldest first. */
static const struct column recorded_cols[] = {
	{ "QUEUED(s)", "queued_s", -11, 0 },
	{ "#", "incident", 3, COL_JSON_ONLY },
	{ "RING", "ring", -10, 0 },
	{ "JOB", "job", -10, 0 },
	{ "", "context", 0, COL_JSON_ONLY },
	{ "", "seqno", 0, COL_JSON_ONLY },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "WAIT", "wait", 9, COL_TIME },
	{ "RAN", "ran", 9, COL_TIME },
	{ "STATE", "state", 0, 0 },
	CGROUP_COLUMN,
};
static const struct table recorded_table = EVENT_TABLE("recorded", recorded_cols);

/* A recorded job's state at the incident's time `at`: done (with its error), running, queued. */
static const char *job_state(const struct job_info *j, __u64 at, char *buf, size_t size)
{
	if (j->done_ns && j->done_ns <= at) {
		if (!j->error)
			return "done";
		snprintf(buf, size, "error:%s", errno_name(-j->error, buf + size / 2, size / 2));
		return buf;
	}
	return j->run_ns && j->run_ns <= at ? "running" : "queued";
}

/* The recorder's entries of incident `e` to print, oldest first: [*first, head). */
static __u64 recorded_first(const struct gpuhang_event *e)
{
	__u64 n = e->head < (__u64)env.recorded ? e->head : (__u64)env.recorded;

	return e->head - n;
}

/*
 * The other processes with jobs not yet done on the incident's ring when it
 * happened, as far as the recorder shows: "PID:COMM,...", "" if none.
 */
static void others_of(const struct gpuhang_event *e, char *out, size_t size)
{
	__u32 seen[RECORDER_SLOTS];
	size_t len = 0, nr_seen = 0, k;
	__u64 i, first = e->head > RECORDER_SLOTS ? e->head - RECORDER_SLOTS : 0;

	out[0] = 0;
	for (i = first; i < e->head; i++) {
		const struct job_info *j = &e->recorded[i % RECORDER_SLOTS];

		if (j->ring != e->ring || j->pid == e->job.pid || j->queued_ns > e->ts_ns ||
		    (j->done_ns && j->done_ns <= e->ts_ns))
			continue;
		for (k = 0; k < nr_seen && seen[k] != j->pid; k++)
			;
		if (k < nr_seen)
			continue;
		seen[nr_seen++] = j->pid;
		len += snprintf(out + len, len < size ? size - len : 0, "%s%u:%.*s", len ? "," : "",
				j->pid, COMM_LEN, j->comm);
	}
}

static void print_recorded(const struct gpuhang_event *e)
{
	struct ring_state incident_ring;
	char job[48], state[64];
	__u64 i;

	if (recorded_first(e) == e->head)
		return;
	if (!json_output()) {
		incident_ring = ring_at(e->ring);
		text_printf(stdout, "  the last %llu jobs on %s:\n",
			    (unsigned long long)(e->head - recorded_first(e)),
			    incident_ring.dev_name[0] ? incident_ring.dev_name : "the device");
		table_header(stdout, &recorded_table);
	}
	for (i = recorded_first(e); i < e->head; i++) {
		const struct job_info *j = &e->recorded[i % RECORDER_SLOTS];
		struct ring_state r = ring_at(j->ring);

		table_event(stdout, &recorded_table, (struct cell[]){
			CELL_F(trace_seconds(j->queued_ns), 6), CELL_U(e->incident), cell_name(r.name),
			cell_job(job, sizeof(job), j), CELL_U(j->context), CELL_U(j->seqno),
			CELL_U(j->pid), CELL_S(j->comm), cell_since(j->queued_ns, j->run_ns),
			cell_since(j->run_ns, j->done_ns && j->done_ns <= e->ts_ns ? j->done_ns : e->ts_ns),
			CELL_S(job_state(j, e->ts_ns, state, sizeof(state))), cell_cgroup(j->cgroup_id) },
			j->queued_ns);
	}
}

/* --timeline: an incident as an instant on its ring's track, a recovery as the slice it took. */
static void timeline_event(const struct gpuhang_event *e, const struct ring_state *r)
{
	static const char *const keys[] = { "incident", "job", "pid", "comm" };
	static const char *const rkeys[] = { "incident", "resubmitted", "lost" };
	__u32 gpu = timeline_gpu(r->dev_name[0] ? r->dev_name : "?");
	char job[48];

	/* A device's own events (WEDGED) on a track of its own. */
	timeline_track(gpu, e->ring + 1, r->name[0] ? r->name : "device", e->ring);
	if (e->kind == HANG_RECOVERED || (e->kind == HANG_RESET && e->out_ns))
		timeline_slice(gpu, e->ring + 1, e->kind == HANG_RECOVERED ? "recovery" :
			       e->scope == RESET_ENGINE ? "engine-reset" : "gpu-reset",
			       "recovery", e->ts_ns - e->out_ns,
			       e->out_ns, TIMELINE_ARGS(rkeys, CELL_U(e->incident),
			       CELL_U(e->resubmitted), CELL_U(e->lost)));
	else
		timeline_instant(gpu, e->ring + 1, kind_name(e->kind), "incident", e->ts_ns,
				 TIMELINE_ARGS(keys, CELL_U(e->incident), cell_job(job, sizeof(job), &e->job),
				 CELL_U_IF(e->job.pid, e->job.pid), cell_name(e->job.comm)));
}

static bool headed;

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct gpuhang_event *e = data;
	bool incident = e->kind < HANG_STOP;
	/* (xe's engine resets come done, with no time) */
	bool out = e->kind == HANG_RECOVERED || (e->kind == HANG_RESET && e->out_ns);
	bool fault = e->kind == HANG_PAGEFAULT && e->vmhub, xid = e->kind == HANG_XID;
	struct xid_report x = {};
	const char *meaning = NULL;
	struct ring_state r;
	char job[48], others[512] = "", recovery[64], address[24], status[16], detail[256];

	/* Other kinds that belong to an incident before them come without a recorder. */
	if (size < GPUHANG_STEP_SIZE || (xid && size < GPUHANG_XID_SIZE) ||
	    ((e->kind == HANG_TIMEOUT || e->kind == HANG_FAULT) && size < sizeof(*e)))
		return 0;
	r = ring_at(e->ring);
	if (timeline_on() && (incident || out))
		timeline_event(e, &r);
	/* The steps of a recovery are sent for --timeline too, but printed only with -e. */
	if (!incident && e->kind != HANG_RECOVERED && !common_env.events)
		return 0;
	if (incident && size >= sizeof(*e))
		others_of(e, others, sizeof(others));
	if (xid) {
		nv_xid_report(&e->xid, &x);
		meaning = nv_xid_meaning(x.xid);
	}
	if (!common_env.events)
		table_header_once(stdout, &event_table, &headed);
	table_event(stdout, &event_table, (struct cell[]){
		CELL_F(trace_seconds(e->ts_ns), 6), CELL_S(kind_name(e->kind)), CELL_U(e->incident),
		cell_name(r.dev_name), cell_name(r.driver), cell_name(r.name),
		cell_job(job, sizeof(job), &e->job), CELL_U_IF(e->job.context, e->job.context),
		CELL_U_IF(e->job.context, e->job.seqno), CELL_U_IF(e->job.pid, e->job.pid),
		cell_name(e->job.comm), incident ? cell_since(e->job.run_ns, e->ts_ns) : CELL_NONE,
		CELL_U_IF(out, (__u64)ns_in_time_unit(e->out_ns)),
		CELL_U_IF(e->kind == HANG_RECOVERED, e->resubmitted),
		CELL_U_IF(e->kind == HANG_RECOVERED, e->lost),
		incident ? CELL_S_OR_NONE(others) : CELL_NONE,
		e->kind == HANG_WEDGED ? cell_recovery(recovery, sizeof(recovery), e->recovery) :
		e->kind == HANG_RESET ? cell_reset(recovery, sizeof(recovery), e->scope, e->recovery,
						   e->result) :
		CELL_NONE,
		e->kind == HANG_COREDUMP ? cell_name(e->dump) :
		fault ? cell_hex(address, sizeof(address), e->address) :
		xid ? cell_xid(detail, sizeof(detail), &x, meaning) : CELL_NONE,
		e->kind == HANG_COREDUMP ? cell_name(e->dump) : CELL_NONE,
		CELL_U_IF(e->kind == HANG_COREDUMP, e->dump_bytes),
		fault ? cell_hex(address, sizeof(address), e->address) : CELL_NONE,
		CELL_U_IF(fault, e->vmhub - 1),
		fault ? cell_hex(status, sizeof(status), e->status) : CELL_NONE,
		CELL_U_IF(xid, x.xid),
		meaning ? CELL_S(meaning) : CELL_NONE,
		xid && x.msg ? CELL_S(x.msg) : CELL_NONE,
		e->job.pid && e->kind != HANG_WEDGED && !xid ? cell_cgroup(e->job.cgroup_id) : CELL_NONE },
		e->ts_ns);
	if (incident && size >= sizeof(*e))
		print_recorded(e);
	return 0;
}

static const struct column ring_cols[] = {
	{ "DEV", "dev", -12, 0 },
	{ "DRIVER", "driver", -10, 0 },
	{ "RING", "ring", -10, 0 },
	{ "TIMEOUTS", "timeouts", 8, 0 },
	{ "FAULTS", "faults", 6, 0 },
	{ "RECOVERED", "recovered", 9, 0 },
	{ "RESUB", "resubmitted", 5, 0 },
	{ "LOST", "lost", 5, 0 },
	{ "OUT_AVG", "out_avg", 9, COL_TIME },
	{ "OUT_MAX", "out_max", 9, COL_TIME },
};
static const struct table ring_table = TABLE("ring", ring_cols);

static const struct column culprit_cols[] = {
	{ "DEV", "dev", -12, 0 },
	{ "RING", "ring", -10, 0 },
	{ "KIND", "kind", -9, 0 },
	{ "COMM", "comm", -16, 0 },
	{ "INCIDENTS", "incidents", 9, 0 },
};
static const struct table culprit_table = TABLE("culprit", culprit_cols);

static int cmp_ring(const void *a, const void *b)
{
	const struct ring_state *x = (const void *)((const char *)a + sizeof(__u64));
	const struct ring_state *y = (const void *)((const char *)b + sizeof(__u64));
	int c = strcmp(x->dev_name, y->dev_name);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_culprit(const void *a, const void *b)
{
	const struct culprit_key *x = a, *y = b;
	struct ring_state rx = ring_at(x->ring), ry = ring_at(y->ring);
	int c = strcmp(rx.dev_name, ry.dev_name);

	if (!c)
		c = strcmp(rx.name, ry.name);
	if (!c)
		c = (int)x->kind - (int)y->kind;
	return c ? c : strncmp(x->comm, y->comm, COMM_LEN);
}

static void print_rings(FILE *f, const struct map_snapshot *now)
{
	bool headed_rings = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct ring_state *s = snapshot_value(now, i);
		const struct ring_state *was = map_snapshot_find(&prev[0], snapshot_key(now, i));
		__u64 recovered = DELTA(s, was, recoveries), incidents;

		incidents = DELTA(s, was, timeouts) + DELTA(s, was, faults);
		if (!incidents && !recovered)
			continue;
		table_header_once(f, &ring_table, &headed_rings);
		table_row(f, &ring_table, (struct cell[]){
			cell_name(s->dev_name), cell_name(s->driver), cell_name(s->name),
			CELL_U(DELTA(s, was, timeouts)), CELL_U(DELTA(s, was, faults)),
			CELL_U(recovered), CELL_U(DELTA(s, was, resubmitted)), CELL_U(DELTA(s, was, lost)),
			CELL_U_IF(recovered, (__u64)ns_in_time_unit(DELTA(s, was, out_ns) /
								    (recovered ? recovered : 1))),
			CELL_U_IF(recovered, (__u64)ns_in_time_unit(s->out_max_ns)) });
	}
}

static void print_culprits(FILE *f, const struct map_snapshot *now)
{
	bool headed_culprits = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct culprit_key *k = snapshot_key(now, i);
		const struct culprit_stats *s = snapshot_value(now, i);
		const struct culprit_stats *was = map_snapshot_find(&prev[1], k);
		struct ring_state r = ring_at(k->ring);

		if (!DELTA(s, was, incidents))
			continue;
		table_header_once(f, &culprit_table, &headed_culprits);
		table_row(f, &culprit_table, (struct cell[]){
			cell_name(r.dev_name), cell_name(r.name), CELL_S(kind_name(k->kind)),
			cell_name(k->comm), CELL_U(DELTA(s, was, incidents)) });
	}
}

static int print_summary(void *ctx)
{
	struct bpf_map *maps[] = { skel->maps.rings, skel->maps.culprits };
	struct map_snapshot now[2];
	FILE *f = summary_stream();
	int err;

	err = tool_snapshot(maps, now, 2);
	if (err)
		return err;
	map_snapshot_sort(&now[0], cmp_ring);
	map_snapshot_sort(&now[1], cmp_culprit);
	summary_begin(f);
	print_rings(f, &now[0]);
	print_culprits(f, &now[1]);
	fflush(f);
	map_snapshot_keep(prev, now, 2);
	return 0;
}

/* --prometheus: the trace loop's metrics_fn, reading the skeleton for prom.c. */
static int write_metrics(struct metrics *m, void *ctx)
{
	struct bpf_map *maps[] = { skel->maps.rings, skel->maps.culprits };
	struct map_snapshot now[2];
	int err = tool_snapshot(maps, now, 2);

	if (err)
		return err;
	err = gpuhang_metrics(m, &(struct gpuhang_metrics_in){
		.rings = &now[0], .culprits = &now[1], .ring_at = ring_at,
		.dropped_jobs = skel->bss->dropped_jobs, .dropped_rings = skel->bss->dropped_rings });
	map_snapshot_free_all(now, 2);
	return err;
}

static void report_dropped(void)
{
	const struct gpuhang_bpf__bss *bss = skel->bss;

	report_lost("jobs", bss->dropped_jobs, MAX_JOBS, "%llu jobs not recorded (more than %d "
		    "in flight): an incident of one names its job but not its submitter",
		    (unsigned long long)bss->dropped_jobs, MAX_JOBS);
	report_lost("rings", bss->dropped_rings, MAX_RINGS, "%llu events of rings beyond the "
		    "first %d not traced", (unsigned long long)bss->dropped_rings, MAX_RINGS);
	report_lost("devices", bss->dropped_devs, MAX_DEVS, "%llu jobs of devices beyond the "
		    "first %d not in a flight recorder", (unsigned long long)bss->dropped_devs,
		    MAX_DEVS);
	report_lost("culprits", bss->dropped_culprits, MAX_CULPRITS, "%llu incidents not "
		    "counted per process name (more than %d)",
		    (unsigned long long)bss->dropped_culprits, MAX_CULPRITS);
}

int main(int argc, char **argv)
{
	struct trace_loop loop;
	bool i915, nvidia;
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	abi = detect_abi();
	if (abi == ABI_NONE && !module_loaded("i915") && !module_loaded("nvidia")) {
		fprintf(stderr, "%s\n", no_sched);
		return 1;
	}

	skel = gpuhang_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	choose_programs();
	choose_wedged();
	choose_amdgpu();
	choose_xe();
	i915 = choose_i915();
	nvidia = choose_nvidia();
	choose_coredump();
	/* Without the scheduler, i915's and NVIDIA's incidents are still there to trace. */
	if (abi == ABI_NONE && (sched_loaded || (!i915 && !nvidia)))
		fprintf(stderr, "%s\n", no_sched);
	if ((abi == ABI_NONE && !i915 && !nvidia) || !choose_functions()) {
		err = -ENOENT;
		goto cleanup;
	}
	err = tool_start(skel->skeleton, skel->maps.cgroup_map,
			 "the DRM scheduler's tracepoints and recovery functions");
	if (err)
		goto cleanup;
	attach_nvidia();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	/* Incidents print as they happen, with or without -e: the summary too. */
	loop.summary_with_events = true;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing GPU job timeouts and recoveries (%s)",
			 abi == ABI_6_17 ? "Linux >= 6.17 events" : abi == ABI_PRE_6_17 ?
			 "Linux <= 6.16 events" : "no DRM scheduler");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	bpf_link__destroy(xid_links[0]);
	bpf_link__destroy(xid_links[1]);
	map_snapshot_free_all(prev, 2);
	gpuhang_bpf__destroy(skel);
	return err != 0;
}
