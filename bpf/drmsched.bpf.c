// SPDX-License-Identifier: GPL-2.0
/*
 * drmsched: DRM GPU scheduler jobs, queued -> run -> done.
 *
 * Attaches to the gpu_scheduler tracepoints as BTF-typed raw tracepoints
 * (tp_btf): their prototypes are the same on every kernel from 5.x to 7.x,
 * only the event names changed in 6.17, so one set of handlers serves both
 * ABIs and reads what it needs from the job itself with CO-RE.  A job is
 * keyed by its struct drm_sched_fence, the one object every event of a job
 * leads to (the done event gets nothing else).
 */
#include "drm_types.bpf.h"
#include "hist.bpf.h"
#include "events.bpf.h"
#include "drmsched.h"

const volatile int targ_pid = 0;
const volatile bool targ_ms = false;
const volatile bool emit_events = false;
const volatile char targ_ring[RING_NAME_LEN] = {};
const volatile char targ_dev[DEV_NAME_LEN] = {};

/* Jobs the jobs map had no room for: their latencies are not measured. */
__u64 dropped_jobs = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_JOBS);
	__type(key, __u64);
	__type(value, struct job_info);
} jobs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u64);
	__type(value, struct ring_info);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u64);
	__type(value, struct ring_stats);
} ring_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, struct proc_key);
	__type(value, struct proc_stats);
} procs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_DEPS);
	__type(key, struct dep_key);
	__type(value, struct dep_stats);
} deps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_CONTEXTS);
	__type(key, __u64);
	__type(value, __u64);
} context_ring SEC(".maps");

/* Scratch for building a ring_info / ring_stats larger than the BPF stack allows. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ring_stats);
} stats_init SEC(".maps");

static __always_inline bool str_eq(const volatile char *want, const char *have, int len)
{
	int i;

	for (i = 0; i < len; i++) {
		if (want[i] != have[i])
			return false;
		if (!want[i])
			return true;
	}
	return true;
}

/* The ring of `sched`, named and judged against the filters on first sight. */
static __always_inline struct ring_info *ring_of(struct drm_gpu_scheduler *sched)
{
	__u64 key = (__u64)sched;
	struct ring_info *ri, init = {};
	struct device *dev = NULL;

	ri = bpf_map_lookup_elem(&rings, &key);
	if (ri)
		return ri;

	bpf_probe_read_kernel_str(init.name, sizeof(init.name), BPF_CORE_READ(sched, name));
	if (bpf_core_field_exists(sched->dev))
		dev = BPF_CORE_READ(sched, dev);
	if (dev)
		bpf_probe_read_kernel_str(init.dev, sizeof(init.dev), core_dev_name(dev));
	if (targ_ring[0] && !str_eq(targ_ring, init.name, RING_NAME_LEN))
		init.excluded = 1;
	if (targ_dev[0] && !str_eq(targ_dev, init.dev, DEV_NAME_LEN))
		init.excluded = 1;
	bpf_map_update_elem(&rings, &key, &init, BPF_NOEXIST);
	return bpf_map_lookup_elem(&rings, &key);
}

static __always_inline struct ring_stats *stats_of(__u64 sched)
{
	struct ring_stats *st;
	__u32 zero = 0;

	st = bpf_map_lookup_elem(&ring_stats, &sched);
	if (st)
		return st;
	st = bpf_map_lookup_elem(&stats_init, &zero);
	if (!st)
		return NULL;
	__builtin_memset(st, 0, sizeof(*st));
	st->wait.min = ~0ULL;
	st->exec.min = ~0ULL;
	bpf_map_update_elem(&ring_stats, &sched, st, BPF_NOEXIST);
	return bpf_map_lookup_elem(&ring_stats, &sched);
}

static __always_inline __u64 to_units(__u64 ns)
{
	return targ_ms ? ns / 1000000 : ns / 1000;
}

static __always_inline void emit(__u32 type, struct job_info *job, struct drm_sched_fence *s_fence,
				 struct dma_fence *dep, __u64 latency, __u64 now)
{
	struct drmsched_event *e;

	if (!emit_events)
		return;
	e = event_reserve(sizeof(*e));
	if (!e)
		return;
	e->ts_ns = now;
	e->type = type;
	e->sched = job->sched;
	e->context = BPF_CORE_READ(s_fence, finished.context);
	e->seqno = BPF_CORE_READ(s_fence, finished.seqno);
	e->dep_context = dep ? BPF_CORE_READ(dep, context) : 0;
	e->dep_seqno = dep ? BPF_CORE_READ(dep, seqno) : 0;
	e->latency = latency;
	e->client_id = job->client_id;
	e->pid = job->pid;
	__builtin_memcpy(e->comm, job->comm, sizeof(e->comm));
	event_submit(e);
}

static __always_inline int on_queue(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched;
	struct drm_sched_fence *s_fence;
	struct job_info job = {};
	struct proc_key pk = {};
	struct proc_stats *ps, ps_init = {};
	struct ring_stats *st;
	struct ring_info *ri;
	__u64 key, context;

	/* Kernels >= 6.12 type tracepoint arguments as maybe-NULL: test first. */
	if (!sched_job)
		return 0;
	sched = BPF_CORE_READ(sched_job, sched);
	s_fence = BPF_CORE_READ(sched_job, s_fence);
	key = (__u64)s_fence;
	job.sched = (__u64)sched;
	job.queued_ns = bpf_ktime_get_ns();
	job.pid = bpf_get_current_pid_tgid() >> 32;
	if (targ_pid && job.pid != targ_pid)
		return 0;
	ri = ring_of(sched);
	if (!ri || ri->excluded)
		return 0;
	if (bpf_core_field_exists(s_fence->drm_client_id))
		job.client_id = BPF_CORE_READ(s_fence, drm_client_id);
	bpf_get_current_comm(job.comm, sizeof(job.comm));
	if (bpf_map_update_elem(&jobs, &key, &job, BPF_ANY))
		__sync_fetch_and_add(&dropped_jobs, 1);

	st = stats_of(job.sched);
	if (st)
		__sync_fetch_and_add(&st->queued, 1);

	pk.sched = job.sched;
	pk.client_id = job.client_id;
	pk.pid = job.pid;
	ps = bpf_map_lookup_elem(&procs, &pk);
	if (!ps) {
		__builtin_memcpy(ps_init.comm, job.comm, sizeof(ps_init.comm));
		bpf_map_update_elem(&procs, &pk, &ps_init, BPF_NOEXIST);
		ps = bpf_map_lookup_elem(&procs, &pk);
	}
	if (ps)
		__sync_fetch_and_add(&ps->queued, 1);

	/* Remember whose fences this context numbers, to name what others wait on. */
	context = BPF_CORE_READ(s_fence, finished.context);
	bpf_map_update_elem(&context_ring, &context, &job.sched, BPF_ANY);

	emit(EV_QUEUE, &job, s_fence, NULL, 0, job.queued_ns);
	return 0;
}

/* A job we saw queued; counts the ones we did not (started before us). */
static __always_inline struct job_info *tracked_job(struct drm_sched_fence *s_fence,
						    struct drm_gpu_scheduler *sched)
{
	__u64 key = (__u64)s_fence;
	struct job_info *job;
	struct ring_info *ri;
	struct ring_stats *st;

	job = bpf_map_lookup_elem(&jobs, &key);
	if (job || targ_pid || !sched)
		return job;
	/* Only an unfiltered session can tell "untracked" from "not ours". */
	ri = ring_of(sched);
	if (ri && !ri->excluded) {
		st = stats_of((__u64)sched);
		if (st)
			__sync_fetch_and_add(&st->untracked, 1);
	}
	return NULL;
}

static __always_inline int on_run(struct drm_sched_job *sched_job)
{
	struct drm_sched_fence *s_fence;
	struct proc_stats *ps;
	struct job_info *job;
	struct ring_stats *st;
	struct proc_key pk;
	__u64 now, wait;

	if (!sched_job)
		return 0;
	s_fence = BPF_CORE_READ(sched_job, s_fence);
	job = tracked_job(s_fence, BPF_CORE_READ(sched_job, sched));
	if (!job)
		return 0;
	now = bpf_ktime_get_ns();
	job->run_ns = now;
	wait = to_units(now - job->queued_ns);
	st = stats_of(job->sched);
	if (st) {
		__sync_fetch_and_add(&st->run, 1);
		lat_hist_add(&st->wait, wait);
	}
	pk.sched = job->sched;
	pk.client_id = job->client_id;
	pk.pid = job->pid;
	pk.pad = 0;
	ps = bpf_map_lookup_elem(&procs, &pk);
	if (ps)
		__sync_fetch_and_add(&ps->wait_sum, wait);
	emit(EV_RUN, job, s_fence, NULL, wait, now);
	return 0;
}

static __always_inline int on_done(struct drm_sched_fence *s_fence)
{
	__u64 key = (__u64)s_fence, now, exec;
	struct job_info *job;
	struct ring_stats *st;
	struct proc_key pk;
	struct proc_stats *ps;

	if (!s_fence)
		return 0;
	job = bpf_map_lookup_elem(&jobs, &key);
	if (!job) {
		if (!targ_pid)
			tracked_job(s_fence, BPF_CORE_READ(s_fence, sched));
		return 0;
	}
	now = bpf_ktime_get_ns();
	/* A job that never ran (killed with its entity) signals no done event. */
	exec = job->run_ns ? to_units(now - job->run_ns) : 0;
	st = stats_of(job->sched);
	if (st) {
		__sync_fetch_and_add(&st->done, 1);
		lat_hist_add(&st->exec, exec);
	}
	pk.sched = job->sched;
	pk.client_id = job->client_id;
	pk.pid = job->pid;
	pk.pad = 0;
	ps = bpf_map_lookup_elem(&procs, &pk);
	if (ps) {
		__sync_fetch_and_add(&ps->done, 1);
		__sync_fetch_and_add(&ps->exec_sum, exec);
	}
	emit(EV_DONE, job, s_fence, NULL, exec, now);
	bpf_map_delete_elem(&jobs, &key);
	return 0;
}

static __always_inline int on_dependency(struct drm_sched_job *sched_job, struct dma_fence *fence,
					 bool blocked)
{
	struct dep_stats *ds, ds_init = {};
	struct drm_sched_fence *s_fence;
	struct dep_key dk = {};
	struct job_info *job;
	struct ring_stats *st;
	__u64 key;

	if (!sched_job || !fence)
		return 0;
	s_fence = BPF_CORE_READ(sched_job, s_fence);
	key = (__u64)s_fence;
	job = bpf_map_lookup_elem(&jobs, &key);
	if (!job)
		return 0;
	st = stats_of(job->sched);
	if (st)
		__sync_fetch_and_add(blocked ? &st->blocked : &st->deps, 1);

	dk.sched = job->sched;
	dk.context = BPF_CORE_READ(fence, context);
	ds = bpf_map_lookup_elem(&deps, &dk);
	if (!ds) {
		bpf_map_update_elem(&deps, &dk, &ds_init, BPF_NOEXIST);
		ds = bpf_map_lookup_elem(&deps, &dk);
	}
	if (ds) {
		__sync_fetch_and_add(blocked ? &ds->blocked : &ds->deps, 1);
		ds->last_seqno = BPF_CORE_READ(fence, seqno);
	}
	emit(blocked ? EV_BLOCKED : EV_DEP, job, s_fence, fence, 0, bpf_ktime_get_ns());
	return 0;
}

/* Linux <= 6.16 */
SEC("tp_btf/drm_sched_job")
int BPF_PROG(queue_old, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_queue(sched_job);
}

SEC("tp_btf/drm_run_job")
int BPF_PROG(run_old, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_run(sched_job);
}

SEC("tp_btf/drm_sched_process_job")
int BPF_PROG(done_old, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence);
}

SEC("tp_btf/drm_sched_job_wait_dep")
int BPF_PROG(dep_old, struct drm_sched_job *sched_job, struct dma_fence *fence)
{
	return on_dependency(sched_job, fence, false);
}

/* Linux >= 6.17 */
SEC("tp_btf/drm_sched_job_queue")
int BPF_PROG(queue_new, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_queue(sched_job);
}

SEC("tp_btf/drm_sched_job_run")
int BPF_PROG(run_new, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_run(sched_job);
}

SEC("tp_btf/drm_sched_job_done")
int BPF_PROG(done_new, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence);
}

SEC("tp_btf/drm_sched_job_add_dep")
int BPF_PROG(dep_new, struct drm_sched_job *sched_job, struct dma_fence *fence)
{
	return on_dependency(sched_job, fence, false);
}

SEC("tp_btf/drm_sched_job_unschedulable")
int BPF_PROG(blocked_new, struct drm_sched_job *sched_job, struct dma_fence *fence)
{
	return on_dependency(sched_job, fence, true);
}

char LICENSE[] SEC("license") = "GPL";
