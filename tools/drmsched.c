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

/*
 * What one summary covers, gathered from the kernel's tables (the half of
 * them the programs no longer write, see STATS_GENS) and printed sorted.
 */
static struct summary {
	struct ring_stats rings[MAX_RINGS];
	struct proc_stats procs[MAX_PROCS];
	struct dep_row {
		struct dep_key key;	/* gen unused */
		struct dep_stats st;
	} deps[MAX_DEPS * STATS_GENS];
	size_t nr_deps;
} sum;

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

/* Cleared for the kernel side's next use: min ~0 (lat_hist_add keeps the smaller). */
static void reset_ring_stats(struct ring_stats *st)
{
	memset(st, 0, sizeof(*st));
	lat_hist_reset(&st->wait);
	lat_hist_reset(&st->exec);
}

static void add_ring_stats(struct ring_stats *into, const struct ring_stats *from)
{
	into->queued += from->queued;
	into->run += from->run;
	into->done += from->done;
	into->deps += from->deps;
	into->blocked += from->blocked;
	into->untracked += from->untracked;
	lat_hist_merge(&into->wait, &from->wait);
	lat_hist_merge(&into->exec, &from->exec);
}

static void add_dep(const struct dep_key *k, const struct dep_stats *st)
{
	struct dep_row *row = NULL;
	size_t i;

	for (i = 0; i < sum.nr_deps && !row; i++)
		if (sum.deps[i].key.ring == k->ring && sum.deps[i].key.context == k->context)
			row = &sum.deps[i];
	if (!row) {
		if (sum.nr_deps == sizeof(sum.deps) / sizeof(sum.deps[0]))
			return;
		row = &sum.deps[sum.nr_deps++];
		memset(row, 0, sizeof(*row));
		row->key.ring = k->ring;
		row->key.context = k->context;
	}
	row->st.deps += st->deps;
	row->st.blocked += st->blocked;
	row->st.last_seqno = st->last_seqno;
}

/*
 * Move what the programs counted into `sum`: flip the generation they add
 * to, wait until none still runs with the old one, then take the old half
 * and clear it for reuse. Nothing counted is lost or counted twice.
 */
static int gather(void)
{
	struct bpf_map *map = skel->maps.deps;
	__u32 g = skel->bss->stats_gen & 1, i;
	struct dep_key key, next, *prev = NULL;
	struct dep_stats st;
	int err;

	__atomic_store_n(&skel->bss->stats_gen, g ^ 1, __ATOMIC_SEQ_CST);
	wait_for_running_programs();

	for (i = 0; i < nr_rings(); i++) {
		add_ring_stats(&sum.rings[i], &skel->bss->ring_stats[g][i]);
		reset_ring_stats(&skel->bss->ring_stats[g][i]);
	}
	for (i = 0; i < nr_procs(); i++) {
		struct proc_done_stats *pd = &skel->bss->proc_done[g][i];

		sum.procs[i].queued += skel->bss->proc_queued[g][i];
		sum.procs[i].wait_sum += skel->bss->proc_wait_sum[g][i];
		sum.procs[i].done += pd->done;
		sum.procs[i].exec_sum += pd->exec_sum;
		skel->bss->proc_queued[g][i] = 0;
		skel->bss->proc_wait_sum[g][i] = 0;
		memset(pd, 0, sizeof(*pd));
	}
	/* Deleting the current key would restart the walk: delete one step behind. */
	while (!bpf_map__get_next_key(map, prev, &next, sizeof(next))) {
		if (prev && prev->gen == g)
			bpf_map__delete_elem(map, prev, sizeof(*prev), 0);
		key = next;
		prev = &key;
		if (key.gen != g)
			continue;
		err = bpf_map__lookup_elem(map, &key, sizeof(key), &st, sizeof(st), 0);
		if (!err)
			add_dep(&key, &st);
	}
	if (prev && prev->gen == g)
		bpf_map__delete_elem(map, prev, sizeof(*prev), 0);
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

static void print_rings(FILE *f, const __u32 *rows, size_t n)
{
	char blocked[24], wait[24], exec[24];
	size_t i;

	fprintf(f, "%-12s %-12s %7s %7s %7s %6s %7s %8s %8s\n", "DEV", "RING", "QUEUED",
		"RUN", "DONE", "DEPS", "BLOCKED", common_env.msecs ? "WAIT(ms)" : "WAIT(us)",
		common_env.msecs ? "EXEC(ms)" : "EXEC(us)");
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		if (abi == ABI_6_17)
			snprintf(blocked, sizeof(blocked), "%llu", (unsigned long long)st->blocked);
		else
			strcpy(blocked, "-");
		format_hist_avg(wait, sizeof(wait), &st->wait);
		format_hist_avg(exec, sizeof(exec), &st->exec);
		fprintf(f, "%-12s %-12s %7llu %7llu %7llu %6llu %7s %8s %8s\n", ring_dev(rows[i]),
			ring_info(rows[i])->name, (unsigned long long)st->queued,
			(unsigned long long)st->run, (unsigned long long)st->done,
			(unsigned long long)st->deps, blocked, wait, exec);
	}
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		if (st->untracked)
			fprintf(f, "%s/%s: %llu jobs were queued before tracing began (not timed)\n",
				ring_dev(rows[i]), ring_info(rows[i])->name,
				(unsigned long long)st->untracked);
	}
	for (i = 0; i < n; i++) {
		const struct ring_stats *st = &sum.rings[rows[i]];

		if (st->wait.count) {
			fprintf(f, "\n%s/%s queue wait (queued -> run):\n", ring_dev(rows[i]),
				ring_info(rows[i])->name);
			print_lat_hist(f, &st->wait, time_unit());
		}
		if (st->exec.count) {
			fprintf(f, "\n%s/%s execution (run -> done):\n", ring_dev(rows[i]),
				ring_info(rows[i])->name);
			print_lat_hist(f, &st->exec, time_unit());
		}
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

static void print_procs(FILE *f, const __u32 *rows, size_t n)
{
	size_t i;

	if (!n)
		return;
	fprintf(f, "\n%-7s %-16s %6s %-12s %-12s %7s %7s %8s %8s\n", "PID", "COMM", "CLIENT",
		"DEV", "RING", "QUEUED", "DONE", common_env.msecs ? "WAIT(ms)" : "WAIT(us)",
		common_env.msecs ? "EXEC(ms)" : "EXEC(us)");
	for (i = 0; i < n; i++) {
		const struct proc_info *pi = &skel->bss->proc_infos[rows[i]];
		const struct proc_stats *ps = &sum.procs[rows[i]];
		char client[24], wait[24] = "-", exec[24] = "-";

		/* Kernels before 6.17 record no DRM client id. */
		if (abi == ABI_6_17)
			snprintf(client, sizeof(client), "%llu", (unsigned long long)pi->client_id);
		else
			strcpy(client, "-");
		/* Averages over the jobs that finished. */
		if (ps->done) {
			snprintf(exec, sizeof(exec), "%llu",
				 (unsigned long long)(ps->exec_sum / ps->done));
			snprintf(wait, sizeof(wait), "%llu",
				 (unsigned long long)(ps->wait_sum / ps->done));
		}
		fprintf(f, "%-7u %-16s %6s %-12s %-12s %7llu %7llu %8s %8s\n", pi->pid, pi->comm,
			client, ring_dev(pi->ring), ring_info(pi->ring)->name,
			(unsigned long long)ps->queued, (unsigned long long)ps->done, wait, exec);
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

static void print_deps(FILE *f)
{
	size_t i;

	if (!sum.nr_deps)
		return;
	qsort(sum.deps, sum.nr_deps, sizeof(sum.deps[0]), cmp_dep);
	fprintf(f, "\n%-12s %-12s %-24s %-12s %6s %7s\n", "DEV", "RING", "WAITED_ON",
		"OWNER_RING", "DEPS", "BLOCKED");
	for (i = 0; i < sum.nr_deps; i++) {
		const struct dep_row *d = &sum.deps[i];
		const char *owner = "-";
		char fence[48], blocked[24];
		__u32 owner_ring;

		if (!bpf_map__lookup_elem(skel->maps.context_ring, &d->key.context,
					  sizeof(d->key.context), &owner_ring, sizeof(owner_ring), 0))
			owner = ring_info(owner_ring)->name;
		snprintf(fence, sizeof(fence), "%llu:%llu", (unsigned long long)d->key.context,
			 (unsigned long long)d->st.last_seqno);
		if (abi == ABI_6_17)
			snprintf(blocked, sizeof(blocked), "%llu", (unsigned long long)d->st.blocked);
		else
			strcpy(blocked, "-");
		fprintf(f, "%-12s %-12s %-24s %-12s %6llu %7s\n", ring_dev(d->key.ring),
			ring_info(d->key.ring)->name, fence, owner, (unsigned long long)d->st.deps,
			blocked);
	}
}

/* One summary: rings, histograms, processes, dependencies; then start over. */
static int print_summary(void *ctx)
{
	__u32 rings[MAX_RINGS], procs[MAX_PROCS], i;
	size_t nr = 0, np = 0;
	FILE *f = summary_stream();

	(void)ctx;
	gather();
	for (i = 0; i < nr_rings(); i++)
		if (ring_active(&sum.rings[i]))
			rings[nr++] = i;
	for (i = 0; i < nr_procs(); i++)
		if (sum.procs[i].queued || sum.procs[i].done)
			procs[np++] = i;
	qsort(rings, nr, sizeof(rings[0]), cmp_ring_idx);
	qsort(procs, np, sizeof(procs[0]), cmp_proc);

	summary_begin(f, common_env.timestamp);
	if (!nr)
		fprintf(f, "no jobs\n");
	else
		print_rings(f, rings, nr);
	print_procs(f, procs, np);
	print_deps(f);
	fflush(f);
	/* Start over, touching only the rows in use (a fresh lat_hist merges from count 0). */
	memset(sum.rings, 0, nr_rings() * sizeof(sum.rings[0]));
	memset(sum.procs, 0, nr_procs() * sizeof(sum.procs[0]));
	sum.nr_deps = 0;
	return 0;
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
	char job[48], dep[48], lat[24];

	(void)ctx;
	if (size < sizeof(*e) || e->type > EV_BLOCKED)
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
	       (e->ts_ns - start_ns) / 1e9, event_names[e->type], ring_dev(e->ring),
	       ring_info(e->ring)->name, job, e->pid, proc_comm(e->proc), lat, dep);
	return 0;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct drmsched_bpf__bss *bss = skel->bss;

	if (bss->dropped_jobs)
		fprintf(stderr, "drmsched: %llu jobs not timed (more than %d in flight, or slots "
			"collided)\n", (unsigned long long)bss->dropped_jobs, MAX_JOBS);
	if (bss->dropped_rings)
		fprintf(stderr, "drmsched: %llu events of rings beyond the first %d not counted\n",
			(unsigned long long)bss->dropped_rings, MAX_RINGS);
	if (bss->dropped_procs)
		fprintf(stderr, "drmsched: %llu jobs of processes beyond the first %d not counted "
			"per process\n", (unsigned long long)bss->dropped_procs, MAX_PROCS);
	if (bss->dropped_deps)
		fprintf(stderr, "drmsched: %llu dependencies beyond %d rows not counted per fence "
			"context\n", (unsigned long long)bss->dropped_deps, MAX_DEPS);
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
	/*
	 * Bursts of jobs come by the thousand, faster than lines can be
	 * printed: room for 131072 records (a burst of 20000 jobs with a
	 * dependency each is 80000). Without -e nothing is sent.
	 */
	bpf_map__set_max_entries(skel->maps.events, env.events ? 8 << 20 : 4096);

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
	err = trace_loop_finish(&loop, trace_loop_run(&loop), env.events ? NULL : print_summary);
	report_dropped();
cleanup:
	trace_loop_free(&loop);
	drmsched_bpf__destroy(skel);
	return err != 0;
}
