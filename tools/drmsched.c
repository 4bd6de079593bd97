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
#include "drmsched.skel.h"
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
	char dev[DEV_NAME_LEN];
} env;

/* The two generations of gpu_scheduler events. */
enum sched_abi { ABI_NONE, ABI_PRE_6_17, ABI_6_17 };

static enum sched_abi abi;
static struct drmsched_bpf *skel;
static unsigned long long start_ns;

const char *argp_program_version = "drmsched 0.1";
static const char doc[] =
"Trace DRM GPU scheduler jobs: queue wait and execution time per ring.\n"
"\n"
"USAGE: drmsched [-emT] [-p PID] [-r RING] [-d DEV] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    drmsched              # summary per ring at Ctrl-C\n"
"    drmsched 1 10         # a summary every second, 10 times\n"
"    drmsched -m           # histograms in milliseconds\n"
"    drmsched -e           # one line per job event, for grep and awk\n"
"    drmsched -e -T        # ... with wall-clock time\n"
"    drmsched -r gfx_0.0.0 # only the ring named gfx_0.0.0\n"
"    drmsched -d 0000:03:00.0  # only rings of this device\n"
"    drmsched -p 1234      # only jobs submitted by PID 1234\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per job event", 0 },
	{ "ring", 'r', "RING", 0, "Only this ring (scheduler name)", 0 },
	{ "dev", 'd', "DEV", 0, "Only rings of this device (dev_name, e.g. 0000:03:00.0)", 0 },
	{},
};

static void copy_name(struct argp_state *state, char *dst, size_t size, const char *arg,
		      const char *what)
{
	if (!*arg || strlen(arg) >= size)
		argp_failure(state, argp_err_exit_status, 0, "invalid %s '%s' (1..%zu characters)",
			     what, arg, size - 1);
	strcpy(dst, arg);
}

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	case 'r':
		copy_name(state, env.ring, sizeof(env.ring), arg, "ring name");
		break;
	case 'd':
		copy_name(state, env.dev, sizeof(env.dev), arg, "device name");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Which events this kernel has; explains what is missing when none. */
static enum sched_abi detect_abi(void)
{
	if (!tracefs_path()) {
		fprintf(stderr, "drmsched: cannot find or mount tracefs at /sys/kernel/tracing: %s\n",
			strerror(errno));
		return ABI_NONE;
	}
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

/* A loadable gpu_sched module must carry BTF: the handlers read its structs. */
static bool have_sched_btf(void)
{
	if (!module_lacks_btf("gpu_sched"))
		return true;
	fprintf(stderr, "drmsched: module gpu_sched has no BTF (/sys/kernel/btf/gpu_sched): "
		"the kernel needs CONFIG_DEBUG_INFO_BTF_MODULES=y\n");
	return false;
}

static void choose_programs(struct drmsched_bpf *obj)
{
	bool old = abi == ABI_PRE_6_17;

	bpf_program__set_autoload(obj->progs.queue_old, old);
	bpf_program__set_autoload(obj->progs.run_old, old);
	bpf_program__set_autoload(obj->progs.done_old, old);
	bpf_program__set_autoload(obj->progs.dep_old, old);
	bpf_program__set_autoload(obj->progs.queue_new, !old);
	bpf_program__set_autoload(obj->progs.run_new, !old);
	bpf_program__set_autoload(obj->progs.done_new, !old);
	bpf_program__set_autoload(obj->progs.dep_new, !old);
	bpf_program__set_autoload(obj->progs.blocked_new, !old);
}

static struct ring_info ring_lookup(__u64 sched)
{
	struct ring_info ri = { .name = "?", .dev = "?" };

	bpf_map__lookup_elem(skel->maps.rings, &sched, sizeof(sched), &ri, sizeof(ri), 0);
	if (!ri.dev[0])
		strcpy(ri.dev, "-");
	return ri;
}

/* Rows sorted by device, then ring name. */
static int cmp_ring(__u64 a, __u64 b)
{
	struct ring_info ra = ring_lookup(a), rb = ring_lookup(b);
	int c = strcmp(ra.dev, rb.dev);

	return c ? c : strcmp(ra.name, rb.name);
}

static int cmp_ring_key(const void *a, const void *b)
{
	return cmp_ring(*(const __u64 *)a, *(const __u64 *)b);
}

static void print_rings(FILE *f, struct map_snapshot *s)
{
	char blocked[24], wait[24], exec[24];
	size_t i;

	fprintf(f, "%-12s %-12s %7s %7s %7s %6s %7s %8s %8s\n", "DEV", "RING", "QUEUED",
		"RUN", "DONE", "DEPS", "BLOCKED", common_env.msecs ? "WAIT(ms)" : "WAIT(us)",
		common_env.msecs ? "EXEC(ms)" : "EXEC(us)");
	for (i = 0; i < s->n; i++) {
		struct ring_stats *st = snapshot_value(s, i);
		struct ring_info ri = ring_lookup(*(__u64 *)snapshot_key(s, i));

		if (abi == ABI_6_17)
			snprintf(blocked, sizeof(blocked), "%llu", (unsigned long long)st->blocked);
		else
			strcpy(blocked, "-");
		format_hist_avg(wait, sizeof(wait), &st->wait);
		format_hist_avg(exec, sizeof(exec), &st->exec);
		fprintf(f, "%-12s %-12s %7llu %7llu %7llu %6llu %7s %8s %8s\n", ri.dev, ri.name,
			(unsigned long long)st->queued, (unsigned long long)st->run,
			(unsigned long long)st->done, (unsigned long long)st->deps, blocked, wait,
			exec);
	}
	for (i = 0; i < s->n; i++) {
		struct ring_stats *st = snapshot_value(s, i);
		struct ring_info ri = ring_lookup(*(__u64 *)snapshot_key(s, i));

		if (st->untracked)
			fprintf(f, "%s/%s: %llu jobs were queued before tracing began (not timed)\n",
				ri.dev, ri.name, (unsigned long long)st->untracked);
	}
	for (i = 0; i < s->n; i++) {
		struct ring_stats *st = snapshot_value(s, i);
		struct ring_info ri = ring_lookup(*(__u64 *)snapshot_key(s, i));

		if (st->wait.count) {
			fprintf(f, "\n%s/%s queue wait (queued -> run):\n", ri.dev, ri.name);
			print_lat_hist(f, &st->wait, time_unit());
		}
		if (st->exec.count) {
			fprintf(f, "\n%s/%s execution (run -> done):\n", ri.dev, ri.name);
			print_lat_hist(f, &st->exec, time_unit());
		}
	}
}

static int cmp_proc(const void *a, const void *b)
{
	const struct proc_key *pa = a, *pb = b;
	int c = cmp_ring(pa->sched, pb->sched);

	if (c)
		return c;
	if (pa->pid != pb->pid)
		return pa->pid < pb->pid ? -1 : 1;
	return pa->client_id < pb->client_id ? -1 : pa->client_id > pb->client_id;
}

static void print_procs(FILE *f, struct map_snapshot *s)
{
	size_t i;

	if (!s->n)
		return;
	fprintf(f, "\n%-7s %-16s %6s %-12s %-12s %7s %7s %8s %8s\n", "PID", "COMM", "CLIENT",
		"DEV", "RING", "QUEUED", "DONE", common_env.msecs ? "WAIT(ms)" : "WAIT(us)",
		common_env.msecs ? "EXEC(ms)" : "EXEC(us)");
	for (i = 0; i < s->n; i++) {
		struct proc_key *k = snapshot_key(s, i);
		struct proc_stats *ps = snapshot_value(s, i);
		struct ring_info ri = ring_lookup(k->sched);
		char client[24], wait[24], exec[24];

		/* Kernels before 6.17 record no DRM client id. */
		if (abi == ABI_6_17)
			snprintf(client, sizeof(client), "%llu", (unsigned long long)k->client_id);
		else
			strcpy(client, "-");
		/* A job's wait is known once it ran; count those by done + in flight. */
		snprintf(wait, sizeof(wait), "-");
		snprintf(exec, sizeof(exec), "-");
		if (ps->done) {
			snprintf(exec, sizeof(exec), "%llu",
				 (unsigned long long)(ps->exec_sum / ps->done));
			snprintf(wait, sizeof(wait), "%llu",
				 (unsigned long long)(ps->wait_sum / ps->done));
		}
		fprintf(f, "%-7u %-16s %6s %-12s %-12s %7llu %7llu %8s %8s\n", k->pid, ps->comm,
			client, ri.dev, ri.name, (unsigned long long)ps->queued,
			(unsigned long long)ps->done, wait, exec);
	}
}

static int cmp_dep(const void *a, const void *b)
{
	const struct dep_key *da = a, *db = b;
	int c = cmp_ring(da->sched, db->sched);

	if (c)
		return c;
	return da->context < db->context ? -1 : da->context > db->context;
}

static void print_deps(FILE *f, struct map_snapshot *s)
{
	size_t i;

	if (!s->n)
		return;
	fprintf(f, "\n%-12s %-12s %-24s %-12s %6s %7s\n", "DEV", "RING", "WAITED_ON",
		"OWNER_RING", "DEPS", "BLOCKED");
	for (i = 0; i < s->n; i++) {
		struct dep_key *k = snapshot_key(s, i);
		struct dep_stats *ds = snapshot_value(s, i);
		struct ring_info ri = ring_lookup(k->sched), owner = { .name = "-" };
		char fence[48], blocked[24];
		__u64 owner_sched;

		if (!bpf_map__lookup_elem(skel->maps.context_ring, &k->context, sizeof(k->context),
					  &owner_sched, sizeof(owner_sched), 0))
			owner = ring_lookup(owner_sched);
		snprintf(fence, sizeof(fence), "%llu:%llu", (unsigned long long)k->context,
			 (unsigned long long)ds->last_seqno);
		if (abi == ABI_6_17)
			snprintf(blocked, sizeof(blocked), "%llu", (unsigned long long)ds->blocked);
		else
			strcpy(blocked, "-");
		fprintf(f, "%-12s %-12s %-24s %-12s %6llu %7s\n", ri.dev, ri.name, fence,
			owner.name, (unsigned long long)ds->deps, blocked);
	}
}

/* One summary: rings, histograms, processes, dependencies; then start over. */
static int print_summary(void *ctx)
{
	struct map_snapshot rings = {}, procs = {}, deps = {};
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = map_snapshot(skel->maps.ring_stats, &rings, 1);
	if (!err)
		err = map_snapshot(skel->maps.procs, &procs, 1);
	if (!err)
		err = map_snapshot(skel->maps.deps, &deps, 1);
	if (err) {
		fprintf(stderr, "drmsched: failed to read maps: %s\n", strerror(-err));
		goto out;
	}
	map_snapshot_sort(&rings, cmp_ring_key);
	map_snapshot_sort(&procs, cmp_proc);
	map_snapshot_sort(&deps, cmp_dep);

	summary_begin(f, common_env.timestamp);
	if (!rings.n)
		fprintf(f, "no jobs\n");
	else
		print_rings(f, &rings);
	print_procs(f, &procs);
	print_deps(f, &deps);
	fflush(f);
out:
	map_snapshot_free(&rings);
	map_snapshot_free(&procs);
	map_snapshot_free(&deps);
	return err;
}

static const char *const event_names[] = {
	[EV_QUEUE] = "QUEUE", [EV_RUN] = "RUN", [EV_DONE] = "DONE",
	[EV_DEP] = "DEP", [EV_BLOCKED] = "BLOCKED",
};

static void print_event_header(void)
{
	if (common_env.timestamp)
		printf("%-8s ", "TIME");
	printf("%-11s %-7s %-12s %-12s %-16s %-7s %-16s %8s %s\n", "TIME(s)", "EVENT", "DEV",
	       "RING", "JOB", "PID", "COMM", common_env.msecs ? "LAT(ms)" : "LAT(us)", "DEP");
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct drmsched_event *e = data;
	struct ring_info ri = ring_lookup(e->sched);
	char job[48], dep[48], lat[24];

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	snprintf(job, sizeof(job), "%llu:%llu", (unsigned long long)e->context,
		 (unsigned long long)e->seqno);
	if (e->type == EV_DEP || e->type == EV_BLOCKED)
		snprintf(dep, sizeof(dep), "%llu:%llu", (unsigned long long)e->dep_context,
			 (unsigned long long)e->dep_seqno);
	else
		strcpy(dep, "-");
	if (e->type == EV_RUN || e->type == EV_DONE)
		snprintf(lat, sizeof(lat), "%llu", (unsigned long long)e->latency);
	else
		strcpy(lat, "-");

	if (common_env.timestamp)
		print_wallclock(stdout);
	printf("%-11.6f %-7s %-12s %-12s %-16s %-7u %-16s %8s %s\n",
	       (e->ts_ns - start_ns) / 1e9, event_names[e->type], ri.dev, ri.name, job, e->pid,
	       e->comm, lat, dep);
	return 0;
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
	__u64 dropped;
	int err;

	err = argp_parse(&argp, argc, argv, 0, NULL, NULL);
	if (err)
		return 1;
	runtime_init(common_env.verbose);
	if (!runtime_preflight())
		return 1;
	abi = detect_abi();
	if (abi == ABI_NONE || !have_sched_btf())
		return 1;

	skel = drmsched_bpf__open();
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	skel->rodata->targ_pid = common_env.pid;
	skel->rodata->targ_ms = common_env.msecs;
	skel->rodata->emit_events = env.events;
	memcpy((char *)skel->rodata->targ_ring, env.ring, sizeof(env.ring));
	memcpy((char *)skel->rodata->targ_dev, env.dev, sizeof(env.dev));
	choose_programs(skel);
	/* Bursts of jobs come by the thousand: room for ~40000 records with -e. */
	bpf_map__set_max_entries(skel->maps.events, env.events ? 4 << 20 : 4096);

	err = drmsched_bpf__load(skel);
	if (err) {
		report_bpf_error("load BPF programs", err);
		goto cleanup;
	}
	err = drmsched_bpf__attach(skel);
	if (err) {
		report_bpf_error("attach to the gpu_scheduler tracepoints", err);
		goto cleanup;
	}
	start_ns = monotonic_ns();

	loop.lost_events = &skel->bss->lost_events;
	loop.interval = common_env.interval;
	loop.count = common_env.count;
	if (env.events) {
		loop.events = skel->maps.events;
		loop.on_event = handle_event;
		print_event_header();
	} else {
		printf("Tracing DRM GPU scheduler jobs (%s events)... Hit Ctrl-C to end.\n",
		       abi == ABI_6_17 ? "Linux >= 6.17" : "Linux <= 6.16");
		loop.on_interval = print_summary;
	}
	err = trace_loop_run(&loop);
	if (err) {
		fprintf(stderr, "drmsched: tracing failed: %s\n", strerror(-err));
		goto cleanup;
	}
	/* Ctrl-C mid-interval, or no interval at all: the summary of what we have. */
	if (!env.events && !loop.count_reached)
		err = print_summary(NULL);

	trace_loop_report_lost(&loop);
	dropped = skel->bss->dropped_jobs;
	if (dropped)
		fprintf(stderr, "drmsched: %llu jobs not timed (more than %d in flight)\n",
			(unsigned long long)dropped, MAX_JOBS);
cleanup:
	trace_loop_free(&loop);
	drmsched_bpf__destroy(skel);
	return err != 0;
}
