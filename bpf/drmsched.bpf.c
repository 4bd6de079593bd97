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
#include "tp_record.bpf.h"
#include "sched_record.bpf.h"
#include "spare.bpf.h"

const volatile char targ_ring[RING_NAME_LEN] = {};
const volatile char targ_dev[DEV_NAME_LEN] = {};

/* The tables the frontend reads through the skeleton's mapping of .bss. */
struct ring_info ring_infos[MAX_RINGS];
struct ring_stats ring_stats[MAX_RINGS];
struct proc_info proc_infos[MAX_PROCS];
__u64 proc_queued[MAX_PROCS];
__u64 proc_wait_sum[MAX_PROCS];
struct proc_done_stats proc_done[MAX_PROCS];
__u32 nr_rings = 0;		/* rows of ring_infos[] in use: [0, nr_rings) */
__u32 nr_procs = 0;

/* What did not fit, reported by the frontend. */
__u64 dropped_jobs = 0;		/* no room for a job's row: not timed */
__u64 dropped_rings = 0;	/* events of rings beyond MAX_RINGS */
__u64 dropped_procs = 0;	/* jobs of processes beyond MAX_PROCS, not counted per process */
__u64 dropped_deps = 0;		/* dependencies beyond MAX_DEPS rows */

/* What a job in flight keeps, from its queueing to its done: a row keyed by its fence. */
struct job {
	__u64 queued_ns;
	__u64 run_ns;
	__u32 pid;
	__u16 proc;	/* < MAX_PROCS, or MAX_PROCS: none */
	__u16 ring;	/* < MAX_RINGS */
};

JOB_ROWS(struct job);

/*
 * The rows of ring_infos[] and proc_infos[] handed out before 5.12
 * (rows.bpf.h's row_next()); rows are named once per session.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u32);
	__type(value, __u8);
} ring_claims SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, __u32);
	__type(value, __u8);
} proc_claims SEC(".maps");

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

ROWS(deps, struct dep_key, struct dep_stats, DEP_ROW_BITS);

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

/* A new ring's slot, its histograms' min started high (they keep the smaller); MAX_RINGS if full. */
static __always_inline __u32 ring_slot_new(void)
{
	__u32 idx = row_next(&nr_rings, &ring_claims, MAX_RINGS);

	if (idx >= MAX_RINGS) {
		__sync_fetch_and_add(&dropped_rings, 1);
		return MAX_RINGS;
	}
	ring_stats[idx].wait.min = ~0ULL;
	ring_stats[idx].exec.min = ~0ULL;
	ring_stats[idx].waiting.min = ~0ULL;
	ring_stats[idx].on_hw.min = ~0ULL;
	return idx;
}

/* -r and -d: a newly named ring they leave out is excluded. */
static __always_inline void ring_judge(struct ring_info *ri)
{
	if (targ_ring[0] && !str_eq(targ_ring, ri->name, RING_NAME_LEN))
		ri->excluded = 1;
	if (targ_dev[0] && !str_eq(targ_dev, ri->dev, DEV_NAME_LEN))
		ri->excluded = 1;
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
	idx = ring_slot_new();
	if (idx >= MAX_RINGS)
		return MAX_RINGS;
	ri = &ring_infos[idx];
	ri->sched = key;
	bpf_probe_read_kernel_str(ri->name, sizeof(ri->name), BPF_CORE_READ(sched, name));
	if (bpf_core_field_exists(sched->dev))
		dev = BPF_CORE_READ(sched, dev);
	if (dev)
		bpf_probe_read_kernel_str(ri->dev, sizeof(ri->dev), core_dev_name(dev));
	ring_judge(ri);
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
	idx = row_next(&nr_procs, &proc_claims, MAX_PROCS);
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

static __always_inline void emit_job(__u8 type, struct jobs_row *job, __u64 context, __u64 seqno,
				     __u64 dep_context, __u64 dep_seqno, __u64 latency, __u64 now)
{
	struct drmsched_event *e;

	if (!emit_events)
		return;
	e = event_reserve(sizeof(*e));
	if (!e)
		return;
	e->ts_ns = now;
	e->type = type;
	e->ring = job->s.ring;
	e->proc = job->s.proc;
	e->pid = job->s.pid;
	e->context = context;
	e->seqno = seqno;
	e->dep_context = dep_context;
	e->dep_seqno = dep_seqno;
	e->latency = latency;
	event_submit(e);
}

/*
 * A process index the verifier sees bounded where it is used: without the
 * barrier clang drops the mask after a `proc < MAX_PROCS` test and computes
 * the address above the test.
 */
static __always_inline __u32 proc_slot(__u32 proc)
{
	barrier_var(proc);
	return proc & (MAX_PROCS - 1);
}

/* A run or done of a job queued before tracing began, on `ring` (MAX_RINGS: none). */
static __always_inline void count_untracked(__u32 ring)
{
	if (ring < MAX_RINGS && !ring_infos[ring].excluded)
		__sync_fetch_and_add(&ring_stats[ring].untracked, 1);
}

/* A job's run: the queue depth the event records with it (struct ring_stats). */
static __always_inline void count_depth(struct ring_stats *st, __u32 waiting, __s32 on_hw)
{
	lat_hist_add(&st->waiting, waiting);
	lat_hist_add(&st->on_hw, on_hw > 0 ? on_hw : 0);
}

/*
 * Each event's bookkeeping, once: the BTF path and the record path below
 * only read a job's fence (context:seqno) and the rest differently, each
 * from what its hook gives, and call these.
 */

/* A job queued by `pid` on `ring`, as process row `proc`: its row, the counts, its -e record. */
static __always_inline void job_queue(__u32 pid, __u32 ring, __u32 proc, __u64 context,
				      __u64 seqno)
{
	struct job_fence f = { .context = context, .seqno = seqno };
	__u64 now = bpf_ktime_get_ns();
	struct jobs_row *job;
	bool made;
	__u32 idx;

	job = ROWS_GET_AT(jobs, f, job_start(context, seqno, JOB_ROW_BITS), &idx, &made,
			  &dropped_jobs);
	if (!job)
		return;
	job->s.queued_ns = now;
	job->s.run_ns = 0;
	job->s.pid = pid;
	job->s.ring = ring;
	job->s.proc = proc;

	__sync_fetch_and_add(&ring_stats[ring & (MAX_RINGS - 1)].queued, 1);
	if (proc < MAX_PROCS)
		__sync_fetch_and_add(&proc_queued[proc_slot(proc)], 1);
	else
		__sync_fetch_and_add(&dropped_procs, 1);
	emit_job(EV_QUEUE, job, context, seqno, 0, 0, 0, now);
}

/*
 * The row of the job a BTF run event is for, NULL when there is nothing to
 * count: a run the spare program (spare.bpf.h) leaves to its primary, or no
 * such job (*untracked: the primary's, queued before tracing began, for the
 * caller to count on the ring its hook names). Found before the event's
 * queue depth is read: most spare runs stop here.
 */
static __always_inline struct jobs_row *run_slot(__u64 context, __u64 seqno, bool spare,
						 bool *untracked)
{
	struct jobs_row *job;
	__u32 idx;

	*untracked = false;
	if (!spare_first(SPARE_RUN, context, seqno, spare))
		return NULL;
	job = job_find(context, seqno, &idx);
	if (!job) {
		*untracked = !spare;
		return NULL;
	}
	if (spare && !spare_takes(!job->s.run_ns))
		return NULL;
	return job;
}

/* A job handed to the hardware, with the queue depth its event records (`waiting` < 0: none). */
static __always_inline void job_run(struct jobs_row *job, __u64 context, __u64 seqno,
				    __s64 waiting, __s32 on_hw)
{
	struct ring_stats *st;
	__u64 now, wait;

	now = bpf_ktime_get_ns();
	job->s.run_ns = now;
	wait = to_units(now - job->s.queued_ns);
	st = &ring_stats[job->s.ring & (MAX_RINGS - 1)];
	__sync_fetch_and_add(&st->run, 1);
	lat_hist_add(&st->wait, wait);
	if (waiting >= 0)
		count_depth(st, waiting, on_hw);
	if (job->s.proc < MAX_PROCS)
		__sync_fetch_and_add(&proc_wait_sum[proc_slot(job->s.proc)], wait);
	emit_job(EV_RUN, job, context, seqno, 0, 0, wait, now);
}

/*
 * A job's finished fence signalled. `spare`: the spare program; a job
 * still in its row is one whose done the primary missed. True: the
 * primary found no such job, for the caller to count as run_slot() says.
 */
static __always_inline bool job_finished(__u64 context, __u64 seqno, bool spare)
{
	struct proc_done_stats *pd;
	struct ring_stats *st;
	struct jobs_row *job;
	__u64 now, exec;
	__u32 idx;

	if (!spare_first(SPARE_DONE, context, seqno, spare))
		return false;
	job = job_find(context, seqno, &idx);
	if (!job)
		return !spare;
	if (spare)
		spare_takes(true);
	now = bpf_ktime_get_ns();
	/* A job that never ran (killed with its entity) signals no done event. */
	exec = job->s.run_ns ? to_units(now - job->s.run_ns) : 0;
	st = &ring_stats[job->s.ring & (MAX_RINGS - 1)];
	__sync_fetch_and_add(&st->done, 1);
	lat_hist_add(&st->exec, exec);
	if (job->s.proc < MAX_PROCS) {
		pd = &proc_done[proc_slot(job->s.proc)];
		__sync_fetch_and_add(&pd->done, 1);
		__sync_fetch_and_add(&pd->exec_sum, exec);
	}
	emit_job(EV_DONE, job, context, seqno, 0, 0, exec, now);
	ROWS_FREE(jobs, job, idx);
	return false;
}

/* A job's dependency on fence dep_context:dep_seqno; `blocked`: found unsignalled (>= 6.17). */
static __always_inline void job_dep(__u64 context, __u64 seqno, __u64 dep_context,
				    __u64 dep_seqno, bool blocked)
{
	struct dep_key dk = {};
	struct jobs_row *job;
	struct ring_stats *st;
	struct deps_row *ds;
	bool made;
	__u32 idx;

	job = job_find(context, seqno, &idx);
	if (!job)
		return;
	dk.ring = job->s.ring & (MAX_RINGS - 1);
	dk.context = dep_context;
	st = &ring_stats[dk.ring];
	__sync_fetch_and_add(blocked ? &st->blocked : &st->deps, 1);

	ds = ROWS_GET(deps, dk, &idx, &made, &dropped_deps);
	if (ds) {
		__sync_fetch_and_add(blocked ? &ds->s.blocked : &ds->s.deps, 1);
		ds->s.last_seqno = dep_seqno;
	}
	emit_job(blocked ? EV_BLOCKED : EV_DEP, job, context, seqno, dep_context, dep_seqno, 0,
		 bpf_ktime_get_ns());
}

/*
 * The BTF path: the job's fence, its ring and the queue depth read from
 * the scheduler's structs.
 */

/* The ring of a job the BTF path does not track (only an unfiltered session can tell). */
static __always_inline void count_untracked_sched(struct drm_gpu_scheduler *sched)
{
	if (!process_filtered() && sched)
		count_untracked(ring_index(sched));
}

static __always_inline int on_queue(struct drm_sched_job *sched_job)
{
	struct drm_sched_fence *s_fence;
	struct submitter *s;
	__u64 client_id = 0, context;
	__u32 pid;

	/* Kernels >= 6.12 type tracepoint arguments as maybe-NULL: test first. */
	if (!sched_job)
		return 0;
	pid = bpf_get_current_pid_tgid() >> 32;
	if (!current_wanted(pid))
		return 0;
	s_fence = sched_job->s_fence;
	if (!s_fence)
		return 0;
	if (bpf_core_field_exists(s_fence->drm_client_id))
		client_id = s_fence->drm_client_id;
	context = s_fence->finished.context;
	s = submitter_of(sched_job->sched, pid, client_id, context);
	if (!s || s->excluded)
		return 0;
	job_queue(pid, s->ring, s->proc, context, s_fence->finished.seqno);
	return 0;
}

/* The same values the tracepoint records: its TP_fast_assign reads these fields. */
static __always_inline __s32 sched_on_hw(struct drm_gpu_scheduler *sched)
{
	if (bpf_core_field_exists(sched->credit_count))
		return BPF_CORE_READ(sched, credit_count.counter);
	return BPF_CORE_READ(sched, hw_rq_count.counter);
}

static __always_inline int on_run(struct drm_sched_job *sched_job, struct drm_sched_entity *entity,
				  bool spare)
{
	struct drm_sched_fence *s_fence;
	struct jobs_row *job;
	__s64 waiting = -1;
	__s32 on_hw = 0;
	bool untracked;

	if (!sched_job)
		return 0;
	s_fence = sched_job->s_fence;
	job = run_slot(s_fence->finished.context, s_fence->finished.seqno, spare, &untracked);
	if (!job) {
		if (untracked)
			count_untracked_sched(sched_job->sched);
		return 0;
	}
	/* (newer verifiers know the entity argument may be NULL) */
	if (entity) {
		waiting = BPF_CORE_READ(entity, job_queue.job_count.counter);
		on_hw = sched_on_hw(sched_job->sched);
	}
	job_run(job, s_fence->finished.context, s_fence->finished.seqno, waiting, on_hw);
	return 0;
}

static __always_inline int on_done(struct drm_sched_fence *s_fence, bool spare)
{
	if (s_fence && job_finished(s_fence->finished.context, s_fence->finished.seqno, spare))
		count_untracked_sched(s_fence->sched);
	return 0;
}

static __always_inline int on_dependency(struct drm_sched_job *sched_job, struct dma_fence *fence,
					 bool blocked)
{
	struct drm_sched_fence *s_fence;

	if (!sched_job || !fence)
		return 0;
	s_fence = sched_job->s_fence;
	job_dep(s_fence->finished.context, s_fence->finished.seqno, fence->context, fence->seqno,
		blocked);
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
	return on_run(sched_job, entity, false);
}

SEC("tp_btf/drm_run_job")
int BPF_PROG(run_old_spare, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_run(sched_job, entity, true);
}

SEC("tp_btf/drm_sched_process_job")
int BPF_PROG(done_old, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence, false);
}

SEC("tp_btf/drm_sched_process_job")
int BPF_PROG(done_old_spare, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence, true);
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
	return on_run(sched_job, entity, false);
}

SEC("tp_btf/drm_sched_job_run")
int BPF_PROG(run_new_spare, struct drm_sched_job *sched_job, struct drm_sched_entity *entity)
{
	return on_run(sched_job, entity, true);
}

SEC("tp_btf/drm_sched_job_done")
int BPF_PROG(done_new, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence, false);
}

SEC("tp_btf/drm_sched_job_done")
int BPF_PROG(done_new_spare, struct drm_sched_fence *s_fence)
{
	return on_done(s_fence, true);
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

/*
 * The record path: classic tracepoints (SEC("tracepoint"), attached by
 * name at run time, so one program serves the event's old and new names)
 * reading the trace record through field descriptors the frontend fills
 * from tracefs (tp_format.h), for a gpu_sched module without BTF (DKMS
 * builds, kernels < 5.11): no struct drm_sched_* is read.  A job is the
 * record's `fence` (<= 6.16: &s_fence->finished, a struct dma_fence, a
 * vmlinux type CO-RE still reads) or its fence_context:fence_seqno
 * (>= 6.17).  Rings are keyed by name (and dev where the record has it).
 * The done event alone is a raw tracepoint (raw_done, below).
 */
#define JOB_FIELDS(p)		\
	TP_FIELD(p##_name);	\
	TP_FIELD(p##_dev);	\
	TP_FIELD(p##_fence);	\
	TP_FIELD(p##_ctx);	\
	TP_FIELD(p##_seqno);	\
	TP_FIELD(p##_client);	\
	TP_FIELD(p##_id)

JOB_FIELDS(f_queue);
JOB_FIELDS(f_run);
TP_FIELD(f_run_waiting);	/* job_count */
TP_FIELD(f_run_on_hw);		/* hw_job_count */
JOB_FIELDS(f_dep);
JOB_FIELDS(f_blocked);
/* The fence waited on: <= 6.16 wait_dep's ctx/seqno; >= 6.17 add_dep's, unschedulable's */
TP_FIELD(f_dep_dctx);
TP_FIELD(f_dep_dseqno);
TP_FIELD(f_blocked_dctx);
TP_FIELD(f_blocked_dseqno);

struct ring_key {
	char name[RING_NAME_LEN];
	char dev[DEV_NAME_LEN];
};

/* (name, dev) -> ring_infos[] index, on the record path. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, struct ring_key);
	__type(value, __u32);
} ring_names SEC(".maps");

/* <= 6.16: wait_dep names the job only by its id (per scheduler): (ring, id) -> fence. */
struct job_id_key {
	__u64 id;
	__u32 ring;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_JOBS);
	__type(key, struct job_id_key);
	__type(value, struct job_fence);
} job_ids SEC(".maps");

/* The ring named in the record, named and judged against -r/-d on first sight; MAX_RINGS if full. */
static __always_inline __u32 ring_index_rec(void *ctx, const volatile struct tp_field *f_name,
					    const volatile struct tp_field *f_dev)
{
	struct ring_key key = {};
	struct ring_info *ri;
	__u32 *found, idx;

	tp_read_str(ctx, f_name, key.name, sizeof(key.name));
	tp_read_str(ctx, f_dev, key.dev, sizeof(key.dev));
	found = bpf_map_lookup_elem(&ring_names, &key);
	if (found)
		return *found;
	idx = ring_slot_new();
	if (idx >= MAX_RINGS)
		return MAX_RINGS;
	ri = &ring_infos[idx];
	ri->sched = 0;
	__builtin_memcpy(ri->name, key.name, sizeof(ri->name));
	__builtin_memcpy(ri->dev, key.dev, sizeof(ri->dev));
	ring_judge(ri);
	if (bpf_map_update_elem(&ring_names, &key, &idx, BPF_NOEXIST)) {
		found = bpf_map_lookup_elem(&ring_names, &key);
		return found ? *found : MAX_RINGS;
	}
	return idx;
}

/* The job's finished fence, context:seqno, from the record: false if it has none. */
static __always_inline bool rec_job(void *ctx, const volatile struct tp_field *f_fence,
				    const volatile struct tp_field *f_ctx,
				    const volatile struct tp_field *f_seqno, struct job_fence *jf)
{
	if (tp_has(f_fence)) {
		struct dma_fence *fence = (void *)tp_read_u64(ctx, f_fence);

		if (!fence)
			return false;
		jf->context = BPF_CORE_READ(fence, context);
		jf->seqno = BPF_CORE_READ(fence, seqno);
	} else {
		jf->context = tp_read_u64(ctx, f_ctx);
		jf->seqno = tp_read_u64(ctx, f_seqno);
	}
	return jf->context != 0;
}

/* What the kernel skips of the classic events (records.h). */
TP_RECORD_COUNTERS();

SEC("tracepoint")
int tp_queue(void *ctx)
{
	TP_RECORD_RAN();
	struct job_fence jf = {};
	__u32 pid, ring, proc;
	__u64 client_id;

	pid = bpf_get_current_pid_tgid() >> 32;
	if (!current_wanted(pid))
		return 0;
	if (!rec_job(ctx, &f_queue_fence, &f_queue_ctx, &f_queue_seqno, &jf))
		return 0;
	ring = ring_index_rec(ctx, &f_queue_name, &f_queue_dev);
	if (ring >= MAX_RINGS || ring_infos[ring].excluded)
		return 0;
	client_id = tp_read_u64(ctx, &f_queue_client);
	proc = proc_index(pid, ring, client_id);
	bpf_map_update_elem(&context_ring, &jf.context, &ring, BPF_ANY);
	if (tp_has(&f_queue_id)) {
		struct job_id_key k = { .id = tp_read_u64(ctx, &f_queue_id), .ring = ring };

		bpf_map_update_elem(&job_ids, &k, &jf, BPF_ANY);
	}
	job_queue(pid, ring, proc, jf.context, jf.seqno);
	return 0;
}

SEC("tracepoint")
int tp_run(void *ctx)
{
	TP_RECORD_RAN();
	struct job_fence jf = {};
	struct jobs_row *job;
	__u32 idx;

	if (!rec_job(ctx, &f_run_fence, &f_run_ctx, &f_run_seqno, &jf))
		return 0;
	/* No spare on a classic tracepoint: no spare_first() to note the run for. */
	job = job_find(jf.context, jf.seqno, &idx);
	if (!job) {
		if (!process_filtered())
			count_untracked(ring_index_rec(ctx, &f_run_name, &f_run_dev));
		return 0;
	}
	job_run(job, jf.context, jf.seqno,
		tp_has(&f_run_waiting) ? (__s64)tp_read_u64(ctx, &f_run_waiting) : -1,
		tp_read_s64(ctx, &f_run_on_hw));
	return 0;
}

/*
 * Jobs finish in interrupts (their hardware fence's), where a classic
 * tracepoint's program is skipped if another BPF program was running on
 * that CPU (the kernel's bpf_prog_active: a burst under qemu lost a fifth
 * of its done events so): done is a raw tracepoint, its argument the
 * struct drm_sched_fence (sched_record.bpf.h). Its record names no ring: a
 * job queued before tracing began is not counted there.
 */
static __always_inline void job_done(__u64 context, __u64 seqno, bool spare)
{
	job_finished(context, seqno, spare);
}

SCHED_RAW_DONE_PROGRAMS(job_done)

static __always_inline int rec_dependency(void *ctx, const volatile struct tp_field *f_name,
					  const volatile struct tp_field *f_dev,
					  const volatile struct tp_field *f_id,
					  const volatile struct tp_field *f_fence,
					  const volatile struct tp_field *f_ctx,
					  const volatile struct tp_field *f_seqno,
					  const volatile struct tp_field *f_dctx,
					  const volatile struct tp_field *f_dseqno, bool blocked)
{
	struct job_fence jf = {}, *found;

	if (tp_has(f_id)) {
		/* <= 6.16: the job by (ring name, id), as its queue record gave them */
		struct job_id_key k = { .id = tp_read_u64(ctx, f_id) };

		k.ring = ring_index_rec(ctx, f_name, f_dev);
		found = bpf_map_lookup_elem(&job_ids, &k);
		if (!found)
			return 0;
		jf = *found;
	} else if (!rec_job(ctx, f_fence, f_ctx, f_seqno, &jf)) {
		return 0;
	}
	job_dep(jf.context, jf.seqno, tp_read_u64(ctx, f_dctx), tp_read_u64(ctx, f_dseqno),
		blocked);
	return 0;
}

SEC("tracepoint")
int tp_dep(void *ctx)
{
	TP_RECORD_RAN();
	return rec_dependency(ctx, &f_dep_name, &f_dep_dev, &f_dep_id, &f_dep_fence, &f_dep_ctx,
			      &f_dep_seqno, &f_dep_dctx, &f_dep_dseqno, false);
}

SEC("tracepoint")
int tp_blocked(void *ctx)
{
	TP_RECORD_RAN();
	return rec_dependency(ctx, &f_blocked_name, &f_blocked_dev, &f_blocked_id,
			      &f_blocked_fence, &f_blocked_ctx, &f_blocked_seqno, &f_blocked_dctx,
			      &f_blocked_dseqno, true);
}

char LICENSE[] SEC("license") = "GPL";
