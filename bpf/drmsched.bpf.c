// SPDX-License-Identifier: GPL-2.0
/*
 * drmsched: DRM GPU scheduler jobs, queued -> run -> done.
 *
 * Attaches to the gpu_scheduler tracepoints as BTF-typed raw tracepoints
 * (tp_btf): their prototypes are the same on every kernel from 5.x to 7.x,
 * only the event names changed in 6.17, so one set of handlers serves both
 * ABIs and reads what it needs from the job itself with CO-RE.  A job is
 * named by its finished fence, context:seqno: every event of a job leads to
 * its struct drm_sched_fence (the done event gets nothing else).
 *
 * The handlers run in the submitting process and in the scheduler's
 * completion path, thousands of times a second, so the per-job path avoids
 * hash maps: a job's state lives in a slot of an array found by hashing its
 * fence, counters live in global arrays indexed by small ring and process
 * numbers, and the last submitter each CPU saw (ring, process, DRM client,
 * fence context) is cached, so naming a ring or a process happens once per
 * change of submitter, not once per job.  Fields are read by direct BTF
 * loads, not probe-read helpers.
 */
#include "drm_types.bpf.h"
#define EVENTS_RINGBUF_BYTES 4096	/* the frontend sizes it for -e */
#include "tool.bpf.h"
#include "drmsched.h"

const volatile char targ_ring[RING_NAME_LEN] = {};
const volatile char targ_dev[DEV_NAME_LEN] = {};

/* The tables the frontend reads through the skeleton's mapping of .bss. */
struct ring_info ring_infos[MAX_RINGS];
struct ring_stats ring_stats[MAX_RINGS];
struct proc_info proc_infos[MAX_PROCS];
__u64 proc_queued[MAX_PROCS];
__u64 proc_wait_sum[MAX_PROCS];
struct proc_done_stats proc_done[MAX_PROCS];
__u32 nr_rings = 0;		/* slots of ring_infos[] handed out (may exceed MAX_RINGS) */
__u32 nr_procs = 0;

/* What did not fit, reported by the frontend. */
__u64 dropped_jobs = 0;		/* no free job slot: not timed */
__u64 dropped_rings = 0;	/* events of rings beyond MAX_RINGS */
__u64 dropped_procs = 0;	/* jobs of processes beyond MAX_PROCS, not counted per process */
__u64 dropped_deps = 0;		/* dependencies beyond MAX_DEPS rows */

/* A job in flight, named by its finished fence, context:seqno (unique, never reused). */
struct job_slot {
	__u64 context;		/* 0: the slot is free (fence contexts start at 1) */
	__u64 seqno;
	__u64 queued_ns;
	__u64 run_ns;
	__u32 pid;
	__u32 proc;
	__u32 ring;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_JOBS);
	__type(key, __u32);
	__type(value, struct job_slot);
} jobs SEC(".maps");

/* struct drm_gpu_scheduler address -> ring_infos[] index. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u64);
	__type(value, __u32);
} ring_ids SEC(".maps");

struct proc_key {
	__u64 client_id;
	__u32 pid;
	__u32 ring;
};

/* (pid, ring, client) -> proc_infos[] index. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, struct proc_key);
	__type(value, __u32);
} proc_ids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_DEPS);
	__type(key, struct dep_key);
	__type(value, struct dep_stats);
} deps SEC(".maps");

/* Fence context -> ring index: whose fences a context numbers, to name what others wait on. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_CONTEXTS);
	__type(key, __u64);
	__type(value, __u32);
} context_ring SEC(".maps");

/* The last submitter each CPU saw: a process pushes its jobs in bursts. */
struct submitter {
	__u64 sched;
	__u64 context;		/* its entity's fence context */
	__u64 client_id;
	__u32 pid;
	__u32 ring;
	__u32 proc;
	__u8 excluded;
	__u8 valid;
	__u8 pad[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct submitter);
} last_submitter SEC(".maps");

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

/* The index of the ring of `sched`, named and judged against -r/-d on first sight; MAX_RINGS if full. */
static __always_inline __u32 ring_index(struct drm_gpu_scheduler *sched)
{
	__u64 key = (__u64)sched;
	struct ring_info *ri;
	struct device *dev = NULL;
	__u32 *found, idx;

	found = bpf_map_lookup_elem(&ring_ids, &key);
	if (found)
		return *found;
	idx = __sync_fetch_and_add(&nr_rings, 1);
	if (idx >= MAX_RINGS) {
		__sync_fetch_and_add(&dropped_rings, 1);
		return MAX_RINGS;
	}
	/* Histograms keep the smaller min: start it high. */
	ring_stats[idx].wait.min = ~0ULL;
	ring_stats[idx].exec.min = ~0ULL;
	ri = &ring_infos[idx];
	ri->sched = key;
	bpf_probe_read_kernel_str(ri->name, sizeof(ri->name), BPF_CORE_READ(sched, name));
	if (bpf_core_field_exists(sched->dev))
		dev = BPF_CORE_READ(sched, dev);
	if (dev)
		bpf_probe_read_kernel_str(ri->dev, sizeof(ri->dev), core_dev_name(dev));
	if (targ_ring[0] && !str_eq(targ_ring, ri->name, RING_NAME_LEN))
		ri->excluded = 1;
	if (targ_dev[0] && !str_eq(targ_dev, ri->dev, DEV_NAME_LEN))
		ri->excluded = 1;
	if (bpf_map_update_elem(&ring_ids, &key, &idx, BPF_NOEXIST)) {
		/* Another CPU named it first: use its slot (ours stays empty). */
		found = bpf_map_lookup_elem(&ring_ids, &key);
		return found ? *found : MAX_RINGS;
	}
	return idx;
}

/* The index of the row of (pid, ring, client); NO_PROC if the table is full. */
static __always_inline __u32 proc_index(__u32 pid, __u32 ring, __u64 client_id)
{
	struct proc_key key = { .client_id = client_id, .pid = pid, .ring = ring };
	struct proc_info *pi;
	__u32 *found, idx;

	found = bpf_map_lookup_elem(&proc_ids, &key);
	if (found)
		return *found;
	idx = __sync_fetch_and_add(&nr_procs, 1);
	if (idx >= MAX_PROCS)
		return NO_PROC;
	pi = &proc_infos[idx];
	pi->client_id = client_id;
	pi->pid = pid;
	pi->ring = ring;
	bpf_get_current_comm(pi->comm, sizeof(pi->comm));
	pi->cgroup_id = bpf_get_current_cgroup_id();
	if (bpf_map_update_elem(&proc_ids, &key, &idx, BPF_NOEXIST)) {
		found = bpf_map_lookup_elem(&proc_ids, &key);
		return found ? *found : NO_PROC;
	}
	return idx;
}

/* Who is pushing this job: from this CPU's cache, else named and cached. */
static __always_inline struct submitter *submitter_of(struct drm_gpu_scheduler *sched, __u32 pid,
						      __u64 client_id, __u64 context)
{
	struct submitter *s;
	__u32 zero = 0;

	s = bpf_map_lookup_elem(&last_submitter, &zero);
	if (!s)
		return NULL;
	if (s->valid && s->sched == (__u64)sched && s->pid == pid && s->client_id == client_id &&
	    s->context == context)
		return s;

	s->valid = 0;
	s->ring = ring_index(sched);
	if (s->ring >= MAX_RINGS)
		return NULL;
	s->excluded = ring_infos[s->ring & (MAX_RINGS - 1)].excluded;
	s->proc = s->excluded ? NO_PROC : proc_index(pid, s->ring, client_id);
	bpf_map_update_elem(&context_ring, &context, &s->ring, BPF_ANY);
	s->sched = (__u64)sched;
	s->pid = pid;
	s->client_id = client_id;
	s->context = context;
	s->valid = 1;
	return s;
}

/*
 * A context's jobs (consecutive seqnos) take consecutive slots from a point
 * its hash picks: the slots a burst touches share pages and cache lines, as
 * random slots would not (a TLB and cache miss per event). Contexts whose
 * runs of slots meet probe past each other.
 */
static __always_inline __u32 job_hash(__u64 context, __u64 seqno)
{
	return (__u32)((context * 0x9E3779B97F4A7C15ULL) >> (64 - JOB_SLOT_BITS)) + (__u32)seqno;
}

static __always_inline struct job_slot *job_lookup(struct drm_sched_fence *s_fence)
{
	__u64 context = s_fence->finished.context, seqno = s_fence->finished.seqno;
	__u32 h = job_hash(context, seqno), i, idx;
	struct job_slot *slot;

	/* Every probe is checked: freed slots leave no marker to stop at. */
	for (i = 0; i < JOB_PROBES; i++) {
		idx = (h + i) & (MAX_JOBS - 1);
		slot = bpf_map_lookup_elem(&jobs, &idx);
		if (slot && slot->context == context && slot->seqno == seqno)
			return slot;
	}
	return NULL;
}

static __always_inline struct job_slot *job_claim(__u64 context, __u64 seqno)
{
	__u32 h = job_hash(context, seqno), i, idx;
	struct job_slot *slot;

	if (!context)
		return NULL;
	for (i = 0; i < JOB_PROBES; i++) {
		idx = (h + i) & (MAX_JOBS - 1);
		slot = bpf_map_lookup_elem(&jobs, &idx);
		if (!slot)
			break;
		if (!slot->context && __sync_val_compare_and_swap(&slot->context, 0, context) == 0) {
			slot->seqno = seqno;
			return slot;
		}
	}
	return NULL;
}

/* After the job's last event: free its slot (the seqno first, so it can match nothing). */
static __always_inline void job_release(struct job_slot *slot)
{
	slot->seqno = 0;
	slot->context = 0;
}

static __always_inline void emit(__u8 type, struct job_slot *job, struct drm_sched_fence *s_fence,
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
	e->ring = job->ring;
	e->proc = job->proc;
	e->pid = job->pid;
	e->context = s_fence->finished.context;
	e->seqno = s_fence->finished.seqno;
	e->dep_context = dep ? dep->context : 0;
	e->dep_seqno = dep ? dep->seqno : 0;
	e->latency = latency;
	event_submit(e);
}

/* A run or done of a job queued before tracing began (only an unfiltered session can tell). */
static __always_inline void count_untracked(struct drm_gpu_scheduler *sched)
{
	__u32 ring;

	if (process_filtered() || !sched)
		return;
	ring = ring_index(sched);
	if (ring < MAX_RINGS && !ring_infos[ring].excluded)
		__sync_fetch_and_add(&ring_stats[ring].untracked, 1);
}

static __always_inline int on_queue(struct drm_sched_job *sched_job)
{
	struct drm_gpu_scheduler *sched;
	struct drm_sched_fence *s_fence;
	struct job_slot *job;
	struct submitter *s;
	__u64 client_id = 0, context, now;
	__u32 pid;

	/* Kernels >= 6.12 type tracepoint arguments as maybe-NULL: test first. */
	if (!sched_job)
		return 0;
	pid = bpf_get_current_pid_tgid() >> 32;
	if (!current_wanted(pid))
		return 0;
	sched = sched_job->sched;
	s_fence = sched_job->s_fence;
	if (!s_fence)
		return 0;
	if (bpf_core_field_exists(s_fence->drm_client_id))
		client_id = s_fence->drm_client_id;
	context = s_fence->finished.context;
	s = submitter_of(sched, pid, client_id, context);
	if (!s || s->excluded)
		return 0;

	now = bpf_ktime_get_ns();
	job = job_claim(context, s_fence->finished.seqno);
	if (!job) {
		__sync_fetch_and_add(&dropped_jobs, 1);
		return 0;
	}
	job->queued_ns = now;
	job->run_ns = 0;
	job->pid = pid;
	job->ring = s->ring;
	job->proc = s->proc;

	__sync_fetch_and_add(&ring_stats[s->ring & (MAX_RINGS - 1)].queued, 1);
	if (s->proc < MAX_PROCS)
		__sync_fetch_and_add(&proc_queued[s->proc], 1);
	else
		__sync_fetch_and_add(&dropped_procs, 1);
	emit(EV_QUEUE, job, s_fence, NULL, 0, now);
	return 0;
}

static __always_inline int on_run(struct drm_sched_job *sched_job)
{
	struct drm_sched_fence *s_fence;
	struct ring_stats *st;
	struct job_slot *job;
	__u64 now, wait;

	if (!sched_job)
		return 0;
	s_fence = sched_job->s_fence;
	job = job_lookup(s_fence);
	if (!job) {
		count_untracked(sched_job->sched);
		return 0;
	}
	now = bpf_ktime_get_ns();
	job->run_ns = now;
	wait = to_units(now - job->queued_ns);
	st = &ring_stats[job->ring & (MAX_RINGS - 1)];
	__sync_fetch_and_add(&st->run, 1);
	lat_hist_add(&st->wait, wait);
	if (job->proc < MAX_PROCS)
		__sync_fetch_and_add(&proc_wait_sum[job->proc], wait);
	emit(EV_RUN, job, s_fence, NULL, wait, now);
	return 0;
}

static __always_inline int on_done(struct drm_sched_fence *s_fence)
{
	struct proc_done_stats *pd;
	struct ring_stats *st;
	struct job_slot *job;
	__u64 now, exec;

	if (!s_fence)
		return 0;
	job = job_lookup(s_fence);
	if (!job) {
		count_untracked(s_fence->sched);
		return 0;
	}
	now = bpf_ktime_get_ns();
	/* A job that never ran (killed with its entity) signals no done event. */
	exec = job->run_ns ? to_units(now - job->run_ns) : 0;
	st = &ring_stats[job->ring & (MAX_RINGS - 1)];
	__sync_fetch_and_add(&st->done, 1);
	lat_hist_add(&st->exec, exec);
	if (job->proc < MAX_PROCS) {
		pd = &proc_done[job->proc];
		__sync_fetch_and_add(&pd->done, 1);
		__sync_fetch_and_add(&pd->exec_sum, exec);
	}
	emit(EV_DONE, job, s_fence, NULL, exec, now);
	job_release(job);
	return 0;
}

static __always_inline int on_dependency(struct drm_sched_job *sched_job, struct dma_fence *fence,
					 bool blocked)
{
	struct dep_stats *ds, ds_init = {};
	struct drm_sched_fence *s_fence;
	struct dep_key dk = {};
	struct job_slot *job;
	struct ring_stats *st;

	if (!sched_job || !fence)
		return 0;
	s_fence = sched_job->s_fence;
	job = job_lookup(s_fence);
	if (!job)
		return 0;
	dk.ring = job->ring & (MAX_RINGS - 1);
	dk.context = fence->context;
	st = &ring_stats[dk.ring];
	__sync_fetch_and_add(blocked ? &st->blocked : &st->deps, 1);

	ds = bpf_map_lookup_elem(&deps, &dk);
	if (!ds) {
		bpf_map_update_elem(&deps, &dk, &ds_init, BPF_NOEXIST);
		ds = bpf_map_lookup_elem(&deps, &dk);
	}
	if (ds) {
		__sync_fetch_and_add(blocked ? &ds->blocked : &ds->deps, 1);
		ds->last_seqno = fence->seqno;
	} else {
		__sync_fetch_and_add(&dropped_deps, 1);
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
