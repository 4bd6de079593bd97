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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amdgpucs.h"
#include "amdgpucs.skel.h"
#include "events.h"
#include "hist.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"

static struct env {
	bool events;
	char ring[RING_NAME_LEN];
	char comm[COMM_LEN];
} env;

static struct amdgpucs_bpf *skel;
static unsigned long long start_ns, last_summary_ns;

/* The previous summary's counters: each summary prints what changed. */
static struct map_snapshot prev_rows, prev_bos, prev_ivs, prev_vms;
static struct move_stats prev_moves[NR_PLACEMENTS][NR_PLACEMENTS];
static __u64 prev_flushes[MAX_RINGS];

const char *argp_program_version = "amdgpucs 0.1";
static const char doc[] =
"AMD GPU command submissions, buffers, migrations and interrupts per process.\n"
"\n"
"USAGE: amdgpucs [-emT] [-r RING] [-p PID] [-c COMM] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    amdgpucs              # summary at Ctrl-C\n"
"    amdgpucs 1            # a summary every second\n"
"    amdgpucs -r gfx_0.0.0 # only the submissions to one ring\n"
"    amdgpucs -p 1234      # only what process 1234 submits and creates\n"
"    amdgpucs -e           # one line per event\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per event", 0 },
	{ "ring", 'r', "RING", 0, "Only this ring (e.g. gfx_0.0.0, sdma0)", 0 },
	{ "comm", 'c', "COMM", 0, "Only processes with this command name", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	case 'r':
		parse_name_arg(state, arg, "RING", env.ring, sizeof(env.ring));
		break;
	case 'c':
		parse_name_arg(state, arg, "COMM", env.comm, sizeof(env.comm));
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- names -------------------------------------------------------------- */

/* AMDGPU_GEM_DOMAIN_* bits, as "VRAM|GTT". */
static const char *domain_str(__u32 d, char *buf, size_t size)
{
	static const char *const names[] = { "CPU", "GTT", "VRAM", "GDS", "GWS", "OA", "DOORBELL" };
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (d & (1u << i))
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? "|" : "",
					names[i]);
	if (!len)
		snprintf(buf, size, "0x%x", d);
	return buf;
}

/* amdgpu's TTM placements (TTM_PL_* and AMDGPU_PL_*). */
static const char *placement_str(__u32 p)
{
	static const char *const names[NR_PLACEMENTS] = {
		"SYSTEM", "GTT", "VRAM", "GDS", "GWS", "OA", "PREEMPT", "DOORBELL",
	};

	return p < NR_PLACEMENTS ? names[p] : "?";
}

static bool is_eviction(__u32 from, __u32 to)
{
	return from == 2 && (to == 0 || to == 1);	/* VRAM -> system or GTT */
}

static const char *ring_name(__u32 ring)
{
	return ring < MAX_RINGS && skel->bss->ring_infos[ring].name[0] ?
		skel->bss->ring_infos[ring].name : "?";
}

/* ---- summaries ---------------------------------------------------------- */

#define DELTA(now, was, field) ((now)->field - ((was) ? (was)->field : 0))

static int cmp_row(const void *a, const void *b)
{
	const struct row_key *x = a, *y = b;
	int c = strcmp(ring_name(x->ring), ring_name(y->ring));

	return c ? c : (x->pid < y->pid ? -1 : x->pid > y->pid);
}

static void print_submissions(FILE *f, const struct map_snapshot *s)
{
	struct lat_hist run[MAX_RINGS], done[MAX_RINGS];
	bool header = false, seen[MAX_RINGS] = {};
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
		char a[24], b[24];

		if (!DELTA(now, was, submits) && !DELTA(now, was, runs) && !DELTA(now, was, dones))
			continue;
		lat_hist_delta(&sr, &now->submit_run, was ? &was->submit_run : NULL);
		lat_hist_delta(&rd, &now->run_done, was ? &was->run_done : NULL);
		if (!header) {
			fprintf(f, "%-16s %-7s %-16s %8s %8s %8s %8s %13s %13s\n", "RING", "PID", "COMM",
				"SUBMITS", "IBS", "RUN", "DONE",
				common_env.msecs ? "SUB->RUN(ms)" : "SUB->RUN(us)",
				common_env.msecs ? "RUN->DONE(ms)" : "RUN->DONE(us)");
			header = true;
		}
		format_hist_avg(a, sizeof(a), &sr);
		format_hist_avg(b, sizeof(b), &rd);
		fprintf(f, "%-16s %-7u %-16s %8llu %8llu %8llu %8llu %13s %13s\n", ring_name(k->ring),
			k->pid, now->comm, (unsigned long long)DELTA(now, was, submits),
			(unsigned long long)DELTA(now, was, ibs),
			(unsigned long long)DELTA(now, was, runs),
			(unsigned long long)DELTA(now, was, dones), a, b);
		if (k->ring < MAX_RINGS) {
			lat_hist_merge(&run[k->ring], &sr);
			lat_hist_merge(&done[k->ring], &rd);
			seen[k->ring] = true;
		}
	}
	if (!header)
		fprintf(f, "no submissions\n");
	for (r = 0; r < MAX_RINGS; r++) {
		if (!seen[r])
			continue;
		if (run[r].count) {
			fprintf(f, "\n%s submit -> run:\n", ring_name(r));
			print_lat_hist(f, &run[r], time_unit());
		}
		if (done[r].count) {
			fprintf(f, "\n%s run -> done:\n", ring_name(r));
			print_lat_hist(f, &done[r], time_unit());
		}
	}
}

static void print_flushes(FILE *f)
{
	bool header = false;
	__u32 r;

	for (r = 0; r < MAX_RINGS && r < skel->bss->nr_rings; r++) {
		__u64 n = skel->bss->ring_infos[r].flushes - prev_flushes[r];

		if (!n)
			continue;
		if (!header) {
			fprintf(f, "\n%-16s %10s\n", "RING", "VM_FLUSHES");
			header = true;
		}
		fprintf(f, "%-16s %10llu\n", ring_name(r), (unsigned long long)n);
	}
}

static int cmp_bo(const void *a, const void *b)
{
	const struct bo_key *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->domain < y->domain ? -1 : x->domain > y->domain;
}

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
		if (!header) {
			fprintf(f, "\n%-7s %-16s %-10s %-16s %8s %12s %8s %12s\n", "PID", "COMM",
				"DOMAIN", "ALLOWED", "CREATED", "BYTES", "EVICTED", "EVICTED_B");
			header = true;
		}
		fprintf(f, "%-7u %-16s %-10s %-16s %8llu %12llu %8llu %12llu\n", k->pid, now->comm,
			domain_str(k->domain, dom, sizeof(dom)),
			domain_str(now->allowed, allowed, sizeof(allowed)),
			(unsigned long long)DELTA(now, was, count),
			(unsigned long long)DELTA(now, was, bytes),
			(unsigned long long)DELTA(now, was, evictions),
			(unsigned long long)DELTA(now, was, evicted_bytes));
	}
}

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
			if (!header) {
				fprintf(f, "\n%-10s %-10s %8s %12s %9s\n", "FROM", "TO", "MOVES", "BYTES",
					"RATE/s");
				header = true;
			}
			fprintf(f, "%-10s %-10s %8llu %12llu %9.1f%s\n", placement_str(from),
				placement_str(to), n, (unsigned long long)(now->bytes - was->bytes),
				secs > 0 ? n / secs : 0.0, is_eviction(from, to) ? "  eviction" : "");
		}
	}
}

static int cmp_pid(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

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
		if (!header) {
			fprintf(f, "\n%-7s %-16s %6s %12s %6s %12s %10s %8s %9s %12s\n", "PID",
				"COMM", "MAPS", "MAPPED_B", "UNMAPS", "UNMAPPED_B", "PT_UPDATES",
				"BO_LISTS", "LISTED_BO", "LISTED_B");
			header = true;
		}
		fprintf(f, "%-7u %-16s %6llu %12llu %6llu %12llu %10llu %8llu %9llu %12llu\n", pid,
			now->comm, (unsigned long long)DELTA(now, was, maps),
			(unsigned long long)DELTA(now, was, mapped_bytes),
			(unsigned long long)DELTA(now, was, unmaps),
			(unsigned long long)DELTA(now, was, unmapped_bytes),
			(unsigned long long)DELTA(now, was, updates),
			(unsigned long long)DELTA(now, was, lists),
			(unsigned long long)DELTA(now, was, list_entries),
			(unsigned long long)DELTA(now, was, list_bytes));
	}
}

static int cmp_iv(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct iv_key));
}

/* The process that submitted with `pasid` (from the CS ioctls seen). */
static void pasid_owner(__u32 pasid, char *buf, size_t size)
{
	char path[64], comm[COMM_LEN + 1] = "";
	__u32 pid;
	FILE *f;

	snprintf(buf, size, "-");
	if (!pasid || bpf_map__lookup_elem(skel->maps.pasid_pids, &pasid, sizeof(pasid), &pid,
					   sizeof(pid), 0))
		return;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	snprintf(buf, size, "%u %s", pid, comm[0] ? comm : "(exited)");
}

static void print_interrupts(FILE *f, const struct map_snapshot *s, double secs)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct iv_key *k = snapshot_key(s, i);
		const __u64 *now = snapshot_value(s, i), *was = map_snapshot_find(&prev_ivs, k);
		unsigned long long n = *now - (was ? *was : 0);
		char owner[48];

		if (!n)
			continue;
		if (!header) {
			fprintf(f, "\n%-6s %-6s %-6s %-5s %-6s %8s %9s  %s\n", "CLIENT", "SRC", "RING",
				"VMID", "PASID", "COUNT", "RATE/s", "PROCESS");
			header = true;
		}
		pasid_owner(k->pasid, owner, sizeof(owner));
		fprintf(f, "%-6u %-6u %-6u %-5u %-6u %8llu %9.1f  %s\n", k->client_id, k->src_id,
			k->ring_id, k->vmid, k->pasid, n, secs > 0 ? n / secs : 0.0, owner);
	}
}

static int print_summary(void *ctx)
{
	struct map_snapshot rows = {}, bos = {}, ivs = {}, vms = {};
	unsigned long long now = monotonic_ns();
	double secs = (now - last_summary_ns) / 1e9;
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = map_snapshot(skel->maps.rows, &rows, 0);
	if (!err)
		err = map_snapshot(skel->maps.bo_rows, &bos, 0);
	if (!err)
		err = map_snapshot(skel->maps.ivs, &ivs, 0);
	if (!err)
		err = map_snapshot(skel->maps.vm_rows, &vms, 0);
	if (err) {
		fprintf(stderr, "amdgpucs: failed to read maps: %s\n", strerror(-err));
		map_snapshot_free(&rows);
		map_snapshot_free(&bos);
		map_snapshot_free(&ivs);
		return err;
	}
	map_snapshot_sort(&rows, cmp_row);
	map_snapshot_sort(&bos, cmp_bo);
	map_snapshot_sort(&ivs, cmp_iv);
	map_snapshot_sort(&vms, cmp_pid);

	summary_begin(f, common_env.timestamp);
	print_submissions(f, &rows);
	print_flushes(f);
	print_buffers(f, &bos);
	print_vm(f, &vms);
	print_moves(f, secs);
	print_interrupts(f, &ivs, secs);
	fflush(f);

	map_snapshot_free(&prev_rows);
	map_snapshot_free(&prev_bos);
	map_snapshot_free(&prev_ivs);
	map_snapshot_free(&prev_vms);
	prev_rows = rows;
	prev_bos = bos;
	prev_ivs = ivs;
	prev_vms = vms;
	memcpy(prev_moves, skel->bss->moves, sizeof(prev_moves));
	for (err = 0; err < MAX_RINGS; err++)
		prev_flushes[err] = skel->bss->ring_infos[err].flushes;
	last_summary_ns = now;
	return 0;
}

/* ---- -e ----------------------------------------------------------------- */

static const char *const event_names[NR_EVENT_TYPES] = {
	[EV_SUBMIT] = "SUBMIT", [EV_RUN] = "RUN", [EV_DONE] = "DONE",
	[EV_BO_CREATE] = "BO_CREATE", [EV_BO_MOVE] = "BO_MOVE", [EV_VM_FLUSH] = "VM_FLUSH",
	[EV_IV] = "IV", [EV_VM_MAP] = "VM_MAP", [EV_VM_UNMAP] = "VM_UNMAP",
};

static void print_event_header(void)
{
	if (common_env.timestamp)
		printf("%-8s ", "TIME");
	printf("%-11s %-9s %-16s %-7s %-16s %s\n", "TIME(s)", "EVENT", "RING", "PID", "COMM",
	       "DETAIL");
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct amdgpucs_event *e = data;
	char detail[160], d1[64], d2[64], pid[16] = "-";

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	switch (e->type) {
	case EV_SUBMIT:
		snprintf(detail, sizeof(detail), "fence=%llu:%llu ibs=%u",
			 (unsigned long long)e->context, (unsigned long long)e->seqno, e->a);
		break;
	case EV_RUN:
	case EV_DONE:
		snprintf(detail, sizeof(detail), "fence=%llu:%llu %s=%llu%s",
			 (unsigned long long)e->context, (unsigned long long)e->seqno,
			 e->type == EV_RUN ? "wait" : "exec", (unsigned long long)e->value, time_unit());
		break;
	case EV_BO_CREATE:
		snprintf(detail, sizeof(detail), "bo=0x%llx bytes=%llu domain=%s allowed=%s",
			 (unsigned long long)e->context, (unsigned long long)e->value,
			 domain_str(e->a, d1, sizeof(d1)), domain_str(e->b, d2, sizeof(d2)));
		break;
	case EV_BO_MOVE:
		snprintf(detail, sizeof(detail), "bo=0x%llx bytes=%llu from=%s to=%s%s",
			 (unsigned long long)e->context, (unsigned long long)e->value,
			 placement_str(e->a), placement_str(e->b),
			 is_eviction(e->a, e->b) ? " eviction" : "");
		break;
	case EV_VM_MAP:
	case EV_VM_UNMAP:
		snprintf(detail, sizeof(detail), "va=0x%llx bytes=%llu", (unsigned long long)e->context,
			 (unsigned long long)e->value);
		break;
	case EV_VM_FLUSH:
		snprintf(detail, sizeof(detail), "vmid=%u pd_addr=0x%llx", e->a,
			 (unsigned long long)e->value);
		break;
	default:
		snprintf(detail, sizeof(detail), "client=%u src=%u ring=%u vmid=%u pasid=%u", e->a,
			 e->b, e->c, e->d, e->e);
	}
	if (e->pid)
		snprintf(pid, sizeof(pid), "%u", e->pid);
	if (common_env.timestamp)
		print_wallclock(stdout);
	printf("%-11.6f %-9s %-16s %-7s %-16s %s\n", (e->ts_ns - start_ns) / 1e9,
	       event_names[e->type], e->ring < MAX_RINGS ? ring_name(e->ring) : "-", pid,
	       e->pid && e->type != EV_BO_MOVE ? e->comm : "-", detail);
	return 0;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct amdgpucs_bpf__bss *bss = skel->bss;

	if (bss->dropped_jobs)
		fprintf(stderr, "amdgpucs: %llu submissions not timed (more than %d in flight)\n",
			(unsigned long long)bss->dropped_jobs, MAX_JOBS);
	if (bss->dropped_rows)
		fprintf(stderr, "amdgpucs: %llu events beyond the tables' rows not counted\n",
			(unsigned long long)bss->dropped_rows);
	if (bss->dropped_rings)
		fprintf(stderr, "amdgpucs: %llu events of rings beyond the first %d not counted\n",
			(unsigned long long)bss->dropped_rings, MAX_RINGS);
	if (bss->untracked_runs)
		fprintf(stderr, "amdgpucs: %llu jobs ran that were submitted before tracing began\n",
			(unsigned long long)bss->untracked_runs);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "[interval [count]]",
		.doc = doc,
		.children = common_argp_child,
	};
	struct trace_loop loop = {};
	bool new_done;
	int err;

	if (!tracer_init(&argp, argc, argv))
		return 1;
	if (!tracepoint_exists("amdgpu", "amdgpu_cs_ioctl")) {
		fprintf(stderr, "amdgpucs: no amdgpu tracepoints: module amdgpu is not loaded: "
			"'modprobe amdgpu'\n");
		return 1;
	}
	if (module_lacks_btf("amdgpu") || module_lacks_btf("gpu_sched")) {
		fprintf(stderr, "amdgpucs: module amdgpu or gpu_sched has no BTF (/sys/kernel/btf/): "
			"the kernel needs CONFIG_DEBUG_INFO_BTF_MODULES=y\n");
		return 1;
	}
	/* The scheduler's done event: renamed in 6.17. */
	new_done = tracepoint_exists("gpu_scheduler", "drm_sched_job_done");
	if (!new_done && !tracepoint_exists("gpu_scheduler", "drm_sched_process_job")) {
		fprintf(stderr, "amdgpucs: no gpu_scheduler done event (module gpu-sched)\n");
		return 1;
	}

	skel = amdgpucs_bpf__open();
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	skel->rodata->targ_pid = common_env.pid;
	memcpy((char *)skel->rodata->targ_comm, env.comm, sizeof(env.comm));
	memcpy((char *)skel->rodata->targ_ring, env.ring, sizeof(env.ring));
	skel->rodata->targ_ms = common_env.msecs;
	skel->rodata->emit_events = env.events;
	bpf_program__set_autoload(skel->progs.done_new, new_done);
	bpf_program__set_autoload(skel->progs.done_old, !new_done);
	bpf_map__set_max_entries(skel->maps.events, env.events ? 4 << 20 : 4096);

	err = amdgpucs_bpf__load(skel);
	if (err) {
		report_bpf_error("load BPF programs", err);
		goto cleanup;
	}
	err = amdgpucs_bpf__attach(skel);
	if (err) {
		report_bpf_error("attach to the amdgpu tracepoints", err);
		goto cleanup;
	}
	start_ns = last_summary_ns = monotonic_ns();

	loop.lost_events = &skel->bss->lost_events;
	loop.interval = common_env.interval;
	loop.count = common_env.count;
	if (env.events) {
		loop.events = skel->maps.events;
		loop.on_event = handle_event;
		print_event_header();
	} else {
		printf("Tracing amdgpu command submission... Hit Ctrl-C to end.\n");
		loop.on_interval = print_summary;
	}
	err = trace_loop_finish(&loop, trace_loop_run(&loop), env.events ? NULL : print_summary);
	report_dropped();
cleanup:
	trace_loop_free(&loop);
	map_snapshot_free(&prev_rows);
	map_snapshot_free(&prev_bos);
	map_snapshot_free(&prev_ivs);
	map_snapshot_free(&prev_vms);
	amdgpucs_bpf__destroy(skel);
	return err != 0;
}
