// SPDX-License-Identifier: GPL-2.0
/*
 * gpuhang: GPU job timeouts, faults and recoveries on the DRM GPU
 * scheduler, each with the job blamed, its submitter and the device's
 * last jobs (the flight recorder).
 *
 * Always on, so the quiet state is what costs: the gpu_scheduler
 * tracepoints (queue, run, done) keep each job's submitter and times in a
 * row while it is in flight and a copy in its device's recorder, the last
 * RECORDER_SLOTS jobs queued there. The scheduler's own recovery code is
 * traced by fentry, from gpu_sched's BTF:
 * - drm_sched_job_timedout(work): the timeout handler, a static work
 *   function; its job is the first on the scheduler's pending list, where
 *   the handler takes it from (a fault, drm_sched_fault(), runs the same
 *   handler at once: the incident is then a fault);
 * - drm_sched_stop(sched, bad), drm_sched_increase_karma(bad),
 *   drm_sched_resubmit_jobs(sched): the steps of a recovery shaped as
 *   amdgpu's (steps a driver skips are not seen);
 * - drm_sched_start(sched, ...): the end of a recovery; the jobs left on the
 *   pending list with a hardware fence that has no error were run again
 *   (or go on running), the others end without running again (lost);
 * - drm_sched_wqueue_stop(sched), drm_sched_wqueue_start(sched) (6.8+): a
 *   ring reset that stops only the scheduler's work queue (amdgpu from
 *   6.17, xe), taken for a recovery's stop and end while the ring has an
 *   incident (drm_sched_stop() and drm_sched_start() call them too, and
 *   are seen first).
 * And drm's drm_dev_wedged_event(dev, method, info) (6.14+; the task from
 * 6.17), a driver's word that a device hung and how to recover it: part of
 * the device's last incident if that has not had one, else an incident of
 * its own. Its ring is a rings row keyed by the device, with no name.
 * And amdgpu's amdgpu_device_gpu_recover(adev, job, context), a whole GPU
 * reset (fentry and fexit: its time and result), part of the incident of
 * the job's ring if it has one, else an incident of its own (a reset RAS,
 * the KFD or a user asked for), on its device's row. And xe's reports of
 * an exec queue's incidents, tp_btf (6.8+): xe_exec_queue_reset (the GuC
 * reset its engine) and xe_exec_queue_memory_cat_error (a bad access of
 * its GPU memory), on the ring of the queue's own scheduler, naming the
 * queue's process (its xe_file's pid and name), and xe_sched_job_timedout,
 * xe's word that a timeout is real (the incident on an xe ring: the
 * scheduler's timer alone is not). And i915, which has no
 * DRM scheduler: the request its engine reset blames
 * (__i915_request_reset(rq, guilty)) is a TIMEOUT on the engine's ring,
 * named by its fence as a job is and by its context's owner; the engine
 * reset around it (__intel_engine_reset_bh(), fentry and fexit) a RESET
 * with its time, ending the incident. And a device coredump the kernel
 * keeps (fentry on device_add() of the dump's device), of a device the
 * tool has seen, part of the device's last incident or one of its own.
 * And NVIDIA's Xids, read as nv_xid.bpf.h reads them (kprobes and the
 * driver's tracepoint: nvidia.ko has no BTF), each an incident of its own
 * on its GPU's rings row, naming the process the RM's report names.
 * The tool never holds the kernel up: each program reads and returns; an
 * incident's record is copied to the ring buffer, or counted as lost.
 */
#include "kernel_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a kprobe (NVIDIA's Xids) */
#include <bpf/bpf_tracing.h>
#define EVENTS_RINGBUF_BYTES (1024 * 1024)	/* ~170 incidents with their recorders */
#include "tool.bpf.h"
#include "tp_record.bpf.h"
#include "gpuhang.h"
#include "nv_xid.bpf.h"

#include "drm_types.bpf.h"

struct list_head {
	struct list_head *next;
} __core;

struct work_struct {
	long data;
} __core;

struct delayed_work {
	struct work_struct work;
} __core;

/* The members of gpu_sched's types this tool reads beyond drm_types.bpf.h's. */
struct drm_gpu_scheduler___hang {
	struct delayed_work work_tdr;
	struct list_head pending_list;
	struct device *dev;
} __core;

struct drm_sched_job___hang {
	struct list_head list;
	struct drm_sched_fence *s_fence;
	struct drm_gpu_scheduler *sched;
} __core;

struct device_driver {
	const char *name;
} __core;

struct class___hang {
	const char *name;
} __core;

struct device___hang {
	struct device_driver *driver;
	struct class___hang *class;
} __core;

/* drivers/base/devcoredump.c's (in vmlinux BTF): a dump, its device its first member. */
struct devcd_entry___hang {
	unsigned long datalen;
	struct device *failing_dev;
} __core;

struct drm_device___hang {
	struct device *dev;
} __core;

struct drm_wedge_task_info___hang {
	int pid;
	char comm[COMM_LEN];
} __core;

struct amdgpu_device___hang {
	struct device *dev;
} __core;

/* A PASID's process as amdgpu knows it (the layout differs by kernel: CO-RE finds these). */
struct amdgpu_task_info___hang {
	char process_name[COMM_LEN];
	int tgid;
} __core;

/* Its cause (6.12+), an enum AMDGPU_RESET_SRCS: anonymous here, which CO-RE matches with any. */
struct amdgpu_reset_context___hang {
	enum { RESET_SRC___hang } src;
} __core;

struct xe_file___hang {
	char *process_name;
	int pid;
} __core;

struct xe_gpu_scheduler___hang {
	struct drm_gpu_scheduler base;
} __core;

struct xe_guc_exec_queue___hang {
	struct xe_gpu_scheduler___hang sched;
} __core;

/* (guc is in an anonymous union: CO-RE finds it there.) */
struct xe_exec_queue___hang {
	struct xe_file___hang *xef;
	struct xe_guc_exec_queue___hang *guc;
} __core;

struct xe_sched_job___hang {
	struct drm_sched_job drm;
	struct xe_exec_queue___hang *q;
} __core;

struct upid___hang {
	int nr;
} __core;

struct pid___hang {
	struct upid___hang numbers[1];
} __core;

struct drm_i915_private___hang {
	struct drm_device___hang drm;
} __core;

struct intel_gt___hang {
	struct drm_i915_private___hang *i915;
} __core;

struct intel_engine_cs___hang {
	struct drm_i915_private___hang *i915;
	struct intel_gt___hang *gt;
	char name[8];
} __core;

struct i915_gem_context___hang {
	struct pid___hang *pid;
	char name[24];
} __core;

struct intel_context___hang {
	struct i915_gem_context___hang *gem_context;
} __core;

struct i915_request___hang {
	struct dma_fence fence;
	struct intel_engine_cs___hang *engine;
	struct intel_context___hang *context;
} __core;

/*
 * xe reports the timeouts it finds real (xe_sched_job_timedout, traced;
 * set by the frontend): the scheduler's timer on an xe ring is then no
 * incident by itself (xe's handler checks the job's run time, and re-arms
 * the timer for a job that has not run past its time).
 */
const volatile bool xe_timeouts_traced = false;
/* drm_dev_wedged_event() is traced (set by the frontend) */
const volatile bool wedged_traced = false;
/* ... with its third argument, the task. */
const volatile bool wedged_has_task = false;

/* drm_dev_wedged_event()'s recovery methods (include/drm/drm_device.h) */
#define DRM_WEDGE_RECOVERY_REBIND	(1 << 1)
#define DRM_WEDGE_RECOVERY_BUS_RESET	(1 << 2)

#define EIO 5	/* a failed reset's error */

/* What found its table full, or the ring buffer: counted, reported by the frontend. */
__u64 dropped_jobs = 0;
__u64 dropped_rings = 0;
__u64 dropped_devs = 0;
__u64 dropped_culprits = 0;
/* Incidents so far, of every ring: each one's number. */
__u32 nr_incidents = 0;

JOB_ROWS(struct job_row);
ROWS(rings, __u64, struct ring_state, RING_BITS);
ROWS(devs, __u64, struct dev_state, DEV_BITS);
ROWS(culprits, struct culprit_key, struct culprit_stats, CULPRIT_BITS);

/*
 * A recovery function's pointer argument as a plain address: read with
 * BPF_CORE_READ, never dereferenced, so the verifier's rules for trusted
 * (and, in newer kernels, possibly NULL) arguments do not apply to the
 * address arithmetic those rare events do (container_of, list walks).
 */
#define ADDR(p) ((void *)addr_value((__u64)(p)))

/* A new rings row's device: its names, and its recorder (NULL `dev`: one for all). */
static __always_inline void ring_on_device(struct ring_state *s, struct device *dev)
{
	struct device_driver *driver;
	bool made;

	if (dev) {
		bpf_probe_read_kernel_str(s->dev_name, sizeof(s->dev_name), core_dev_name(dev));
		driver = BPF_CORE_READ((struct device___hang *)dev, driver);
		if (driver)
			bpf_probe_read_kernel_str(s->driver, sizeof(s->driver),
						  BPF_CORE_READ(driver, name));
	}
	if (!ROWS_GET(devs, (__u64)dev, &s->dev, &made, &dropped_devs))
		s->dev = NO_ROW;
}

/* The rings row of `sched`, named (and its device found) when made; NULL if full. */
static __always_inline struct rings_row *ring_of(struct drm_gpu_scheduler *sched, __u32 *idx)
{
	struct device *dev = NULL;
	struct rings_row *r;
	bool made;

	r = ROWS_GET(rings, (__u64)sched, idx, &made, &dropped_rings);
	if (!r || !made)
		return r;
	bpf_probe_read_kernel_str(r->s.name, sizeof(r->s.name), BPF_CORE_READ(sched, name));
	/* Before 6.0 no scheduler names its device. */
	if (bpf_core_field_exists(((struct drm_gpu_scheduler___hang *)0)->dev))
		dev = BPF_CORE_READ((struct drm_gpu_scheduler___hang *)sched, dev);
	ring_on_device(&r->s, dev);
	return r;
}

/* The rings row of device `dev` itself, for its events that name no ring; NULL if full. */
static __always_inline struct rings_row *device_ring(struct device *dev, __u32 *idx)
{
	struct rings_row *r;
	bool made;

	r = ROWS_GET(rings, (__u64)dev, idx, &made, &dropped_rings);
	if (r && made)
		ring_on_device(&r->s, dev);
	return r;
}

static __always_inline struct dev_state *dev_of(__u32 dev)
{
	struct devs_row *d = bpf_map_lookup_elem(&devs, &dev);

	return d ? &d->s : NULL;
}

/* The recorder's copy of `job`, if it still holds it. */
static __always_inline struct job_info *recorded_copy(struct job_row *job)
{
	struct dev_state *d;
	struct job_info *rec;
	__u32 slot;

	if (!job->recorded)
		return NULL;
	d = dev_of(job->dev);
	if (!d)
		return NULL;
	slot = (job->recorded - 1) & (RECORDER_SLOTS - 1);
	rec = &d->recorded[slot];
	return rec->context == job->info.context && rec->seqno == job->info.seqno ? rec : NULL;
}

/*
 * The gpu_scheduler events' programs read their job through its BTF
 * pointer (loads the verifier checks, cheaper than a helper's copy per
 * member); the arguments may be NULL from 6.12 on: tested first.
 */

/* A job queued: its row, and its copy in its device's recorder. */
static __always_inline int on_queue(struct drm_sched_job *sched_job)
{
	__u64 id = bpf_get_current_pid_tgid(), context, seqno, pos;
	struct drm_sched_fence *s_fence;
	struct drm_gpu_scheduler *sched;
	struct jobs_row *job;
	struct rings_row *ring;
	struct dev_state *d;
	struct job_fence f;
	struct job_info *info;
	__u32 ring_idx, idx;
	bool made;

	if (!sched_job)
		return 0;
	s_fence = sched_job->s_fence;
	if (!s_fence)
		return 0;
	context = s_fence->finished.context;
	seqno = s_fence->finished.seqno;
	sched = (void *)addr_value((__u64)sched_job->sched);
	ring = ring_of(sched, &ring_idx);
	if (!ring)
		return 0;
	f.context = context;
	f.seqno = seqno;
	job = ROWS_GET_AT(jobs, f, job_start(context, seqno, JOB_ROW_BITS), &idx, &made,
			  &dropped_jobs);
	if (!job)
		return 0;
	info = &job->s.info;
	info->context = context;
	info->seqno = seqno;
	info->queued_ns = bpf_ktime_get_ns();
	info->run_ns = 0;
	info->done_ns = 0;
	info->error = 0;
	info->cgroup_id = bpf_get_current_cgroup_id();
	info->pid = id >> 32;
	info->ring = ring_idx;
	info->wanted = current_wanted(id >> 32);
	bpf_get_current_comm(info->comm, sizeof(info->comm));
	job->s.recorded = 0;
	job->s.dev = ring->s.dev;
	d = dev_of(ring->s.dev);
	if (!d)
		return 0;
	pos = __sync_fetch_and_add(&d->head, 1);
	d->recorded[pos & (RECORDER_SLOTS - 1)] = *info;
	job->s.recorded = pos + 1;
	return 0;
}

static __always_inline int on_run(struct drm_sched_job *sched_job)
{
	__u64 now = bpf_ktime_get_ns();
	struct drm_sched_fence *s_fence;
	struct jobs_row *job;
	struct job_info *rec;
	__u32 idx;

	if (!sched_job)
		return 0;
	s_fence = sched_job->s_fence;
	if (!s_fence)
		return 0;
	job = job_find(s_fence->finished.context, s_fence->finished.seqno, &idx);
	if (!job)
		return 0;
	job->s.info.run_ns = now;
	rec = recorded_copy(&job->s);
	if (rec)
		rec->run_ns = now;
	return 0;
}

static __always_inline int on_done(struct drm_sched_fence *s_fence)
{
	__u64 now = bpf_ktime_get_ns();
	struct dma_fence *parent;
	struct jobs_row *job;
	struct job_info *rec;
	__s32 error;
	__u32 idx;

	if (!s_fence)
		return 0;
	job = job_find(s_fence->finished.context, s_fence->finished.seqno, &idx);
	if (!job)
		return 0;
	/*
	 * The finished fence's error, or the hardware fence's: from 6.17 the
	 * scheduler sets the former only after this event.
	 */
	error = s_fence->finished.error;
	parent = s_fence->parent;
	if (!error && parent)
		error = parent->error;
	rec = recorded_copy(&job->s);
	if (rec) {
		rec->done_ns = now;
		rec->error = error;
	}
	ROWS_FREE(jobs, job, idx);
	return 0;
}

/*
 * A walk of a scheduler's pending list (bpf_loop's context), with the
 * offsets it reads at: the callback has no CO-RE relocations of its own.
 */
struct pending_walk {
	__u64 head;		/* &sched->pending_list */
	__u64 next;		/* the list entry to visit next */
	__u32 list_off, fence_off, parent_off, error_off;
	__u32 all, resubmitted;
};

/*
 * A walk of `sched`'s pending list from its start: the list is the
 * scheduler's jobs on the hardware, in the order they run; its first is
 * the one the timeout handler takes.
 */
static __always_inline struct pending_walk pending_walk_of(__u64 sched)
{
	struct pending_walk w = {
		.head = sched + bpf_core_field_offset(struct drm_gpu_scheduler___hang, pending_list),
		.list_off = bpf_core_field_offset(struct drm_sched_job___hang, list),
		.fence_off = bpf_core_field_offset(struct drm_sched_job___hang, s_fence),
		.parent_off = bpf_core_field_offset(struct drm_sched_fence, parent),
		.error_off = bpf_core_field_offset(struct dma_fence, error),
	};

	bpf_probe_read_kernel(&w.next, sizeof(w.next), (void *)w.head);
	return w;
}

/* The job of `sched_job` as the tool knows it: its row's info, else only its name. */
static __always_inline void job_known(struct drm_sched_job *sched_job, struct job_info *out)
{
	struct jobs_row *job;
	struct drm_sched_fence *s_fence;
	__u64 context, seqno;
	__u32 idx;

	__builtin_memset(out, 0, sizeof(*out));
	if (!sched_job)
		return;
	s_fence = BPF_CORE_READ(sched_job, s_fence);
	context = BPF_CORE_READ(s_fence, finished.context);
	seqno = BPF_CORE_READ(s_fence, finished.seqno);
	job = job_find(context, seqno, &idx);
	if (job) {
		*out = job->s.info;
		return;
	}
	out->context = context;
	out->seqno = seqno;
	out->wanted = !process_filtered();
}

/*
 * An event of `ring` and its last incident, of `size`: GPUHANG_STEP_SIZE,
 * GPUHANG_XID_SIZE, or the whole event, with its device's recorder (a
 * constant, for the verifier to know what was reserved).
 */
static __always_inline struct gpuhang_event *event_of(struct rings_row *ring, __u32 ring_idx,
						      __u32 kind, __u64 size, __u64 now)
{
	bool full = size == sizeof(struct gpuhang_event);
	struct gpuhang_event *e;
	struct dev_state *d;

	e = event_reserve(size);
	if (!e)
		return NULL;
	e->ts_ns = now;
	e->kind = kind;
	e->ring = ring_idx;
	/* 0: a recovery step outside an incident (a driver's reset of a ring that did not hang) */
	e->incident = ring->s.incident_ns ? ring->s.incident : 0;
	e->resubmitted = 0;
	e->lost = 0;
	e->recovery = 0;
	e->result = 0;
	e->scope = 0;
	e->out_ns = 0;
	e->head = 0;
	e->dump_bytes = 0;
	e->dump[0] = 0;
	e->address = 0;
	e->status = 0;
	e->vmhub = 0;
	d = dev_of(ring->s.dev);
	/* Without a device, head 0: the frontend reads none of the recorder. */
	if (full && d) {
		e->head = d->head;
		bpf_probe_read_kernel(e->recorded, sizeof(e->recorded), d->recorded);
	}
	return e;
}

/* An incident's counts per ring, kind and the comm of the job blamed ("" if none known). */
static __always_inline void count_culprit(__u32 ring, __u32 kind, const struct job_info *job)
{
	struct culprit_key key = { .ring = ring, .kind = kind };
	struct culprits_row *c;
	bool made;
	__u32 idx;

	__builtin_memcpy(key.comm, job->comm, sizeof(key.comm));
	c = ROWS_GET(culprits, key, &idx, &made, &dropped_culprits);
	if (c)
		__sync_fetch_and_add(&c->s.incidents, 1);
}

/*
 * The next incident's number (of all rings'). Before 5.12 BPF has no
 * fetch-and-add (tool_load() makes it a load): a plain increment there,
 * where only NVIDIA's Xids are traced (no module has BTF); two Xids at
 * once on two CPUs could then take one number.
 */
static __always_inline __u32 next_incident(void)
{
	if (!has_atomic_fetch)
		return ++nr_incidents;
	return __sync_fetch_and_add(&nr_incidents, 1) + 1;
}

/*
 * The last incident of `ring`'s device (0: one the filters left out): the
 * incident its next wedged event or coredump is part of.
 */
static __always_inline void device_incident(struct rings_row *ring, __u32 incident)
{
	struct dev_state *d = dev_of(ring->s.dev);

	if (d)
		d->last_incident = incident;
}

/* A recovery of `s` that kept it out for `out` ns: counted. */
static __always_inline void count_recovery(struct ring_state *s, __u64 out)
{
	__sync_fetch_and_add(&s->recoveries, 1);
	__sync_fetch_and_add(&s->out_ns, out);
	if (out > s->out_max_ns)
		s->out_max_ns = out;
}

/*
 * An event of an incident: with the recorder if it is an incident of its
 * `own`, without if it belongs to one before. Two calls with constants:
 * the verifier then knows which size each event was reserved with.
 */
static __always_inline struct gpuhang_event *incident_event(struct rings_row *ring, __u32 ring_idx,
							    __u32 kind, bool own, __u64 now)
{
	return own ? event_of(ring, ring_idx, kind, sizeof(struct gpuhang_event), now) :
	       event_of(ring, ring_idx, kind, GPUHANG_STEP_SIZE, now);
}

/*
 * An incident of `ring` (a TIMEOUT or FAULT) blaming `job`, if it passes
 * the filters (its recovery then does too): numbered, open on the ring
 * until its recovery ends it, the device's last, counted, and sent with
 * the device's recorder.
 */
static __always_inline int open_incident(struct rings_row *ring, __u32 ring_idx, __u32 kind,
					 const struct job_info *job, __u64 now)
{
	struct gpuhang_event *e;

	ring->s.wanted = job->wanted;
	if (!job->wanted) {
		device_incident(ring, 0);
		return 0;
	}
	ring->s.incident = next_incident();
	ring->s.incident_ns = now;
	device_incident(ring, ring->s.incident);
	__sync_fetch_and_add(kind == HANG_FAULT ? &ring->s.faults : &ring->s.timeouts, 1);
	count_culprit(ring_idx, kind, job);
	e = event_of(ring, ring_idx, kind, sizeof(*e), now);
	if (!e)
		return 0;
	e->job = *job;
	event_submit(e);
	return 0;
}

/* The timeout handler of `sched` runs: an incident, blaming the first job on its hardware. */
static __always_inline int on_timeout(struct drm_gpu_scheduler *sched)
{
	__u64 now = bpf_ktime_get_ns();
	struct pending_walk first;
	struct rings_row *ring;
	struct job_info job;
	__u32 ring_idx, kind;

	ring = ring_of(sched, &ring_idx);
	if (!ring)
		return 0;
	if (xe_timeouts_traced && ring->s.driver[0] == 'x' && ring->s.driver[1] == 'e' &&
	    !ring->s.driver[2])
		return 0;
	first = pending_walk_of((__u64)sched);
	job_known(first.next && first.next != first.head ? (void *)(first.next - first.list_off) : NULL,
		  &job);
	/* A handler that finds the hardware idle does nothing: no incident (a fault waits). */
	if (!job.context)
		return 0;
	kind = ring->s.fault ? HANG_FAULT : HANG_TIMEOUT;
	ring->s.fault = 0;
	/* Filtered by the process blamed: the incident, its counts and its recovery. */
	return open_incident(ring, ring_idx, kind, &job, now);
}

/*
 * A ring's recovery passes the filters when its incident did, or, without
 * an incident (a driver's reset of a ring that did not hang), when no
 * filter is set.
 */
static __always_inline bool recovery_wanted(struct rings_row *ring)
{
	return ring->s.incident_ns ? ring->s.wanted : !process_filtered();
}

/* A recovery step of `sched` (-e), naming `bad` where it has one. */
static __always_inline void recovery_step(struct drm_gpu_scheduler *sched, __u32 kind,
					  struct drm_sched_job *bad)
{
	__u64 now = bpf_ktime_get_ns();
	struct gpuhang_event *e;
	struct rings_row *ring;
	__u32 ring_idx;

	ring = ring_of(sched, &ring_idx);
	if (!ring)
		return;
	if (kind == HANG_STOP && !ring->s.stop_ns)
		ring->s.stop_ns = now;
	if (!emit_events || !recovery_wanted(ring))
		return;
	e = event_of(ring, ring_idx, kind, GPUHANG_STEP_SIZE, now);
	if (!e)
		return;
	job_known(bad, &e->job);
	event_submit(e);
}

/*
 * One job of the walk: one with a hardware fence that has no error was
 * run again (or goes on running); the others (no fence: cancelled; an
 * error: force-completed) end without running again. Counted without a
 * branch (a read of a NULL parent fails and gives 0).
 */
static int pending_step(__u32 i, struct pending_walk *w)
{
	__u64 job = w->next - w->list_off, s_fence = 0, parent = 0, next = 0;
	__s64 err;
	int error = 0;

	if (!w->next || w->next == w->head)
		return 1;
	bpf_probe_read_kernel(&s_fence, sizeof(s_fence), (void *)(job + w->fence_off));
	bpf_probe_read_kernel(&parent, sizeof(parent), (void *)(s_fence + w->parent_off));
	bpf_probe_read_kernel(&error, sizeof(error), (void *)(parent + w->error_off));
	err = error;
	w->all++;
	w->resubmitted += ((parent | -parent) >> 63) & ((((__u64)err | -(__u64)err) >> 63) ^ 1);
	bpf_probe_read_kernel(&next, sizeof(next), (void *)w->next);
	w->next = next;
	return 0;
}

/*
 * The jobs on `sched`'s hardware as a recovery ends, (all << 16) | run
 * again. bpf_loop: the verifier checks one step, not MAX_PENDING.
 */
static __always_inline int pending_counts(__u64 sched)
{
	struct pending_walk w = pending_walk_of(sched);

	bpf_loop(MAX_PENDING, pending_step, &w, 0);
	return (w.all << 16) | w.resubmitted;
}

/* `sched` starts again: the recovery's end. Out: since its stop, else since its incident. */
static __always_inline int on_start(struct drm_gpu_scheduler *sched)
{
	__u64 now = bpf_ktime_get_ns(), since, out;
	__u32 ring_idx, resubmitted, lost, incident;
	int counts;
	bool wanted;
	struct gpuhang_event *e;
	struct rings_row *ring;

	ring = ring_of(sched, &ring_idx);
	if (!ring)
		return 0;
	counts = pending_counts((__u64)sched);
	resubmitted = counts & 0xffff;
	lost = (counts >> 16) - resubmitted;
	wanted = recovery_wanted(ring);
	incident = ring->s.incident_ns ? ring->s.incident : 0;
	since = ring->s.stop_ns ? ring->s.stop_ns : ring->s.incident_ns;
	out = since ? now - since : 0;
	/* The incident ends here. */
	ring->s.stop_ns = 0;
	ring->s.incident_ns = 0;
	if (!wanted)
		return 0;
	count_recovery(&ring->s, out);
	__sync_fetch_and_add(&ring->s.resubmitted, resubmitted);
	__sync_fetch_and_add(&ring->s.lost, lost);
	e = event_of(ring, ring_idx, HANG_RECOVERED, GPUHANG_STEP_SIZE, now);
	if (!e)
		return 0;
	__builtin_memset(&e->job, 0, sizeof(e->job));
	e->incident = incident;
	e->out_ns = out;
	e->resubmitted = resubmitted;
	e->lost = lost;
	event_submit(e);
	return 0;
}

SEC("fentry/drm_sched_job_timedout")
int BPF_PROG(timedout, struct work_struct *work)
{
	__u32 off = bpf_core_field_offset(struct drm_gpu_scheduler___hang, work_tdr.work);

	return on_timeout((void *)(addr_value((__u64)work) - off));
}

SEC("fentry/drm_sched_fault")
int BPF_PROG(fault, struct drm_gpu_scheduler *sched)
{
	__u32 idx;
	struct rings_row *ring = ring_of(ADDR(sched), &idx);

	if (ring)
		ring->s.fault = 1;
	return 0;
}

SEC("fentry/drm_sched_stop")
int BPF_PROG(stop, struct drm_gpu_scheduler *sched, struct drm_sched_job *bad)
{
	recovery_step(ADDR(sched), HANG_STOP, ADDR(bad));
	return 0;
}

SEC("fentry/drm_sched_increase_karma")
int BPF_PROG(karma, struct drm_sched_job *bad)
{
	recovery_step(BPF_CORE_READ((struct drm_sched_job *)ADDR(bad), sched), HANG_KARMA, ADDR(bad));
	return 0;
}

SEC("fentry/drm_sched_resubmit_jobs")
int BPF_PROG(resubmit, struct drm_gpu_scheduler *sched)
{
	recovery_step(ADDR(sched), HANG_RESUBMIT, NULL);
	return 0;
}

/* (sched, bool full_recovery) before 6.12, (sched) in 6.12, (sched, int errno) after. */
SEC("fentry/drm_sched_start")
int BPF_PROG(start, struct drm_gpu_scheduler *sched)
{
	return on_start(ADDR(sched));
}

/* A ring reset's stop: the recovery's, if the ring has an incident and is not stopped yet. */
SEC("fentry/drm_sched_wqueue_stop")
int BPF_PROG(wqueue_stop, struct drm_gpu_scheduler *sched)
{
	__u32 idx;
	struct rings_row *ring = ring_of(ADDR(sched), &idx);

	if (ring && ring->s.incident_ns && !ring->s.stop_ns)
		recovery_step(ADDR(sched), HANG_STOP, NULL);
	return 0;
}

/* A ring reset's end: the recovery's, if the ring has an incident. */
SEC("fentry/drm_sched_wqueue_start")
int BPF_PROG(wqueue_start, struct drm_gpu_scheduler *sched)
{
	__u32 idx;
	struct rings_row *ring = ring_of(ADDR(sched), &idx);

	if (ring && ring->s.incident_ns)
		return on_start(ADDR(sched));
	return 0;
}

/*
 * Does the task a driver names (a wedged event's, a queue's or PASID's
 * process) pass -p and -c? (Its cgroup is not known: --cgroup, no.)
 */
static __always_inline bool task_wanted(const struct job_info *task)
{
	if (filter_cg || (targ_pid && task->pid != (__u32)targ_pid))
		return false;
	return comm_wanted(task->comm);
}

/*
 * An event a driver raises once for an incident of a device (a wedged
 * event with its `recovery`, a coredump with its name and size), naming
 * `task` if it knows one: part of the device's last incident if that has
 * had none of its kind yet, else an incident of its own, with the
 * recorder. Filtered by its task, or without one, as the incident it is
 * part of.
 */
static __always_inline void device_event(struct rings_row *ring, __u32 ring_idx, __u32 kind,
					 const struct job_info *task, __u32 recovery,
					 const char *dump, __u64 dump_bytes, __u64 now)
{
	struct dev_state *d = dev_of(ring->s.dev);
	__u32 incident = 0, *seen = NULL;
	struct gpuhang_event *e;
	bool own;

	if (d) {
		seen = kind == HANG_WEDGED ? &d->wedged_incident : &d->dump_incident;
		if (d->last_incident && d->last_incident != *seen)
			incident = d->last_incident;
	}
	if (process_filtered() && (task->pid || task->comm[0] ? !task_wanted(task) : !incident))
		return;
	own = !incident;
	if (own) {
		incident = next_incident();
		device_incident(ring, incident);
	}
	if (seen)
		*seen = incident;
	count_culprit(ring_idx, kind, task);
	e = incident_event(ring, ring_idx, kind, own, now);
	if (!e)
		return;
	e->incident = incident;
	e->job = *task;
	e->recovery = recovery;
	e->dump_bytes = dump_bytes;
	if (dump)
		bpf_probe_read_kernel_str(e->dump, sizeof(e->dump), dump);
	event_submit(e);
}

/*
 * The driver says the device hung, and how to recover it (drm reports
 * "WEDGED=..." to user space), naming the task it blames where it knows
 * one: amdgpu after each reset, with the job's task and "none"; xe and
 * i915 when a reset failed, with none.
 */
SEC("fentry/drm_dev_wedged_event")
int BPF_PROG(wedged, struct drm_device *drm, unsigned long method, void *info)
{
	struct drm_wedge_task_info___hang *task = wedged_has_task ? ADDR(info) : NULL;
	__u64 now = bpf_ktime_get_ns();
	struct rings_row *ring;
	struct job_info job;
	__u32 ring_idx;

	ring = device_ring(BPF_CORE_READ((struct drm_device___hang *)ADDR(drm), dev), &ring_idx);
	if (!ring)
		return 0;
	__builtin_memset(&job, 0, sizeof(job));
	/* As drm: a task with a name and a pid (>= 0), else none. */
	if (task) {
		bpf_probe_read_kernel_str(job.comm, sizeof(job.comm), task->comm);
		job.pid = BPF_CORE_READ(task, pid);
		if (!job.comm[0] || (int)job.pid < 0)
			__builtin_memset(&job, 0, sizeof(job));
	}
	device_event(ring, ring_idx, HANG_WEDGED, &job, method, NULL, 0, now);
	return 0;
}

/*
 * A device coredump the kernel keeps: devcoredump adds its device
 * (/sys/class/devcoredump/devcdN) only for a dump it keeps, not for one
 * of a device whose last dump is still unread, which it discards. A dump
 * of a device whose rings the tool has seen (not a network card's).
 */
SEC("fentry/device_add")
int BPF_PROG(coredump, struct device *dev)
{
	static const char devcd_class[] = "devcoredump";
	struct devcd_entry___hang *devcd = ADDR(dev);
	struct class___hang *class;
	struct rings_row *ring;
	struct device *failing;
	struct job_info task;
	char name[sizeof(devcd_class)];
	__u32 idx, i;

	class = BPF_CORE_READ((struct device___hang *)devcd, class);
	if (!class || bpf_probe_read_kernel_str(name, sizeof(name), BPF_CORE_READ(class, name)) !=
		      sizeof(name))
		return 0;
	for (i = 0; i < sizeof(name); i++)
		if (name[i] != devcd_class[i])
			return 0;
	failing = BPF_CORE_READ(devcd, failing_dev);
	if (!failing || !ROWS_FIND(devs, (__u64)failing, &idx))
		return 0;
	ring = device_ring(failing, &idx);
	if (!ring)
		return 0;
	__builtin_memset(&task, 0, sizeof(task));
	device_event(ring, idx, HANG_COREDUMP, &task, 0, core_dev_name((struct device *)devcd),
		     BPF_CORE_READ(devcd, datalen), bpf_ktime_get_ns());
	return 0;
}

/* The rings row of the device of amdgpu device `adev`. */
static __always_inline struct rings_row *amdgpu_ring_of(void *adev, __u32 *idx)
{
	return device_ring(BPF_CORE_READ((struct amdgpu_device___hang *)adev, dev), idx);
}

/*
 * A GPU reset begins: its time, its job as known now (the reset ends it),
 * and the incident it is part of: its job's ring's, else one of its own
 * (numbered now: the coredump the reset takes is part of it), which
 * passes the filters as its job does (without one, if none is set).
 */
SEC("fentry/amdgpu_device_gpu_recover")
int BPF_PROG(gpu_recover, void *adev, struct drm_sched_job *job)
{
	struct rings_row *dev, *ring = NULL;
	struct job_info info;
	struct dev_state *d;
	__u32 idx;

	dev = amdgpu_ring_of(ADDR(adev), &idx);
	if (!dev)
		return 0;
	dev->s.stop_ns = bpf_ktime_get_ns();
	job_known(ADDR(job), &info);
	d = dev_of(dev->s.dev);
	if (d)
		d->reset_job = info;
	if (job)
		ring = ring_of(BPF_CORE_READ((struct drm_sched_job *)ADDR(job), sched), &idx);
	if (ring && ring->s.incident_ns) {
		dev->s.incident = ring->s.incident;
		dev->s.incident_ns = dev->s.stop_ns;
		dev->s.wanted = ring->s.wanted;
		return 0;
	}
	dev->s.incident_ns = 0;
	dev->s.wanted = info.wanted || (!job && !process_filtered());
	dev->s.incident = dev->s.wanted ? next_incident() : 0;
	device_incident(dev, dev->s.incident);
	return 0;
}

/* A GPU reset done: a line with its time, result and cause, its job's if it had one. */
SEC("fexit/amdgpu_device_gpu_recover")
int BPF_PROG(gpu_recover_exit, void *adev, struct drm_sched_job *job,
	     struct amdgpu_reset_context___hang *context, int ret)
{
	__u64 now = bpf_ktime_get_ns(), out;
	struct gpuhang_event *e;
	struct rings_row *dev;
	struct dev_state *d;
	struct job_info info;
	__u32 idx, incident, cause = 0;
	bool own;

	dev = amdgpu_ring_of(ADDR(adev), &idx);
	if (!dev || !dev->s.stop_ns)
		return 0;
	out = now - dev->s.stop_ns;
	dev->s.stop_ns = 0;
	own = !dev->s.incident_ns;
	dev->s.incident_ns = 0;
	d = dev_of(dev->s.dev);
	if (d)
		info = d->reset_job;
	else
		job_known(ADDR(job), &info);
	if (!dev->s.wanted)
		return 0;
	incident = dev->s.incident;
	if (context && bpf_core_field_exists(context->src))
		cause = BPF_CORE_READ((struct amdgpu_reset_context___hang *)ADDR(context), src) + 1;
	count_recovery(&dev->s, out);
	count_culprit(idx, HANG_RESET, &info);
	e = incident_event(dev, idx, HANG_RESET, own, now);
	if (!e)
		return 0;
	e->incident = incident;
	e->out_ns = out;
	e->recovery = cause;
	e->result = ret;
	e->job = info;
	event_submit(e);
	return 0;
}

/*
 * An incident a driver reports with the process it belongs to (`owner`,
 * pid and comm; none: 0), filtered by it: part of the incident open on
 * `ring`, else one of its own, with the recorder; an amdgpu VM fault's
 * `address`, `status` and `vmhub` (+ 1) where it has them.
 */
static __always_inline int owner_event(struct rings_row *ring, __u32 idx, __u32 kind,
				       const struct job_info *owner, __u32 scope, __u64 address,
				       __u32 status, __u32 vmhub, __u64 now)
{
	struct gpuhang_event *e;
	__u32 incident;
	bool own;

	if (process_filtered() && !task_wanted(owner))
		return 0;
	own = !ring->s.incident_ns;
	incident = own ? next_incident() : ring->s.incident;
	if (own)
		device_incident(ring, incident);
	count_culprit(idx, kind, owner);
	e = incident_event(ring, idx, kind, own, now);
	if (!e)
		return 0;
	e->incident = incident;
	e->scope = scope;
	e->job = *owner;
	e->address = address;
	e->status = status;
	e->vmhub = vmhub;
	event_submit(e);
	return 0;
}

/*
 * amdgpu's last lookup of a PASID's process on a thread: the fault its GMC
 * interrupt handler reports next names it (6.12+: the handler looks the
 * process up, logs the fault, then keeps it for user space with
 * amdgpu_vm_update_fault_cache()). Rare: a timeout or coredump looks up too.
 */
struct task_lookup {
	__u64 adev;
	__u32 pasid;
	__u32 tgid;
	char comm[COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct task_lookup);
} task_lookups SEC(".maps");

SEC("fexit/amdgpu_vm_get_task_info_pasid")
int BPF_PROG(task_info, void *adev, __u32 pasid, struct amdgpu_task_info___hang *ret)
{
	struct amdgpu_task_info___hang *ti = ADDR(ret);
	__u32 tid = bpf_get_current_pid_tgid();
	struct task_lookup t = {};

	if (!ti)
		return 0;
	t.adev = addr_value((__u64)adev);
	t.pasid = pasid;
	t.tgid = BPF_CORE_READ(ti, tgid);
	BPF_CORE_READ_STR_INTO(&t.comm, ti, process_name);
	bpf_map_update_elem(&task_lookups, &tid, &t, BPF_ANY);
	return 0;
}

/*
 * A GPU VM fault (6.12+): an incident on the device (of its own, unless
 * during a GPU reset of an incident), naming the process of the PASID as
 * the handler's lookup just did.
 */
SEC("fentry/amdgpu_vm_update_fault_cache")
int BPF_PROG(vm_fault, void *adev, unsigned int pasid, __u64 addr, __u32 status, unsigned int vmhub)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 tid = bpf_get_current_pid_tgid(), idx;
	struct task_lookup *t;
	struct rings_row *ring;
	struct job_info owner;

	ring = amdgpu_ring_of(ADDR(adev), &idx);
	if (!ring)
		return 0;
	__builtin_memset(&owner, 0, sizeof(owner));
	t = bpf_map_lookup_elem(&task_lookups, &tid);
	if (t) {
		if (t->adev == addr_value((__u64)adev) && t->pasid == pasid) {
			owner.pid = t->tgid;
			__builtin_memcpy(owner.comm, t->comm, sizeof(owner.comm));
		}
		bpf_map_delete_elem(&task_lookups, &tid);
	}
	return owner_event(ring, idx, HANG_PAGEFAULT, &owner, 0, addr, status, vmhub + 1, now);
}

/* The process an xe file was opened by, into `who` (false: none). */
static __always_inline bool xe_file_owner(struct xe_file___hang *xef, struct job_info *who)
{
	if (!xef)
		return false;
	who->pid = BPF_CORE_READ(xef, pid);
	bpf_probe_read_kernel_str(who->comm, sizeof(who->comm), BPF_CORE_READ(xef, process_name));
	return true;
}

/*
 * An exec queue's incident as xe reports it: on the ring of the queue's
 * scheduler (xe has one per queue), part of its open incident if it has
 * one, else an incident of its own; naming the queue's process.
 */
static __always_inline int on_xe_queue(struct xe_exec_queue___hang *q, __u32 kind)
{
	__u64 now = bpf_ktime_get_ns(), guc;
	struct rings_row *ring;
	struct job_info owner;
	__u32 idx;

	guc = (__u64)BPF_CORE_READ(q, guc);
	if (!guc)
		return 0;
	ring = ring_of((void *)(guc + bpf_core_field_offset(struct xe_guc_exec_queue___hang, sched.base)),
		       &idx);
	if (!ring)
		return 0;
	__builtin_memset(&owner, 0, sizeof(owner));
	xe_file_owner(BPF_CORE_READ(q, xef), &owner);
	return owner_event(ring, idx, kind, &owner, RESET_ENGINE, 0, 0, 0, now);
}

/*
 * A timeout xe found real: the incident, blaming its job (named by its
 * fence, its submitter if the recorder saw it queued, else the queue's
 * process).
 */
SEC("tp_btf/xe_sched_job_timedout")
int BPF_PROG(xe_job_timedout, struct xe_sched_job___hang *job)
{
	struct xe_sched_job___hang *j = ADDR(job);
	__u64 now = bpf_ktime_get_ns();
	struct drm_sched_job *drm_job;
	struct rings_row *ring;
	struct job_info info;
	__u32 idx;

	drm_job = (void *)j + bpf_core_field_offset(struct xe_sched_job___hang, drm);
	ring = ring_of(BPF_CORE_READ(drm_job, sched), &idx);
	if (!ring)
		return 0;
	job_known(drm_job, &info);
	if (!info.pid && xe_file_owner(BPF_CORE_READ(j, q, xef), &info)) {
		info.ring = idx;
		info.wanted = !process_filtered() || task_wanted(&info);
	}
	return open_incident(ring, idx, HANG_TIMEOUT, &info, now);
}

SEC("tp_btf/xe_exec_queue_reset")
int BPF_PROG(xe_queue_reset, struct xe_exec_queue___hang *q)
{
	return on_xe_queue(ADDR(q), HANG_RESET);
}

SEC("tp_btf/xe_exec_queue_memory_cat_error")
int BPF_PROG(xe_queue_cat_error, struct xe_exec_queue___hang *q)
{
	return on_xe_queue(ADDR(q), HANG_PAGEFAULT);
}

/* The rings row of i915 engine `engine`, named as i915 names it ("rcs0"). */
static __always_inline struct rings_row *engine_ring(struct intel_engine_cs___hang *engine, __u32 *idx)
{
	struct rings_row *r;
	bool made;

	r = ROWS_GET(rings, (__u64)engine, idx, &made, &dropped_rings);
	if (!r || !made)
		return r;
	BPF_CORE_READ_STR_INTO(&r->s.name, engine, name);
	ring_on_device(&r->s, BPF_CORE_READ(engine, i915, drm.dev));
	return r;
}

/*
 * i915 resets each request of an engine it resets; `guilty`: the one that
 * hung, the incident: its fence's context:seqno, the owner of its context
 * (the pid i915 took at its creation; the name it gave it, "comm[pid]", up
 * to the '[').
 */
SEC("fentry/__i915_request_reset")
int BPF_PROG(i915_request_reset, struct i915_request___hang *rq, bool guilty)
{
	__u64 now = bpf_ktime_get_ns();
	struct i915_gem_context___hang *gem;
	struct i915_request___hang *r = ADDR(rq);
	struct rings_row *ring, *gt;
	struct job_info job;
	__u32 idx, i;

	if (!guilty)
		return 0;
	ring = engine_ring(BPF_CORE_READ(r, engine), &idx);
	if (!ring)
		return 0;
	__builtin_memset(&job, 0, sizeof(job));
	job.context = BPF_CORE_READ(r, fence.context);
	job.seqno = BPF_CORE_READ(r, fence.seqno);
	job.ring = idx;
	gem = BPF_CORE_READ(r, context, gem_context);
	if (gem) {
		__u32 cut = 0;

		job.pid = BPF_CORE_READ(gem, pid, numbers[0].nr);
		BPF_CORE_READ_INTO(&job.comm, gem, name);
		job.comm[COMM_LEN - 1] = 0;
		/*
		 * Everything from the '[' zeroed, without a branch per byte (each
		 * would double the verifier's states): cut is 1 from the first
		 * '[' on ((x - 1) >> 8 is 1 only when the byte x is 0).
		 */
		for (i = 0; i < COMM_LEN; i++) {
			__u32 c = (__u8)job.comm[i];

			cut |= (((c ^ '[') - 1) >> 8) & 1;
			job.comm[i] = c & (cut - 1);
		}
	}
	job.wanted = !process_filtered() || task_wanted(&job);
	open_incident(ring, idx, HANG_TIMEOUT, &job, now);
	/* Under a reset of the GT, the incident is the GT's, which ends it. */
	gt = ROWS_FIND(rings, (__u64)BPF_CORE_READ(r, engine, gt), &idx);
	if (gt && gt->s.stop_ns) {
		gt->s.incident = ring->s.incident;
		gt->s.incident_ns = now;
		gt->s.wanted = job.wanted;
		ring->s.incident_ns = 0;
	}
	return 0;
}

/* A reset of `ring` (an i915 engine's or GT's) begins: the requests it blames come inside. */
static __always_inline void reset_begins(struct rings_row *ring)
{
	if (!ring)
		return;
	ring->s.stop_ns = bpf_ktime_get_ns();
	ring->s.incident_ns = 0;
	ring->s.failed = 0;
}

/* An i915 engine reset begins (its heartbeat found it hung, or a user asked). */
SEC("fentry/__intel_engine_reset_bh")
int BPF_PROG(i915_engine_reset, struct intel_engine_cs___hang *engine)
{
	__u32 idx;

	reset_begins(engine_ring(ADDR(engine), &idx));
	return 0;
}

/*
 * A reset of `ring` (an i915 engine's or GT's) is done: a RESET with its
 * time and result; the incident it was part of ends, or it is one of its
 * own.
 */
static __always_inline int reset_done(struct rings_row *ring, __u32 idx, __u32 scope, int result)
{
	__u64 now = bpf_ktime_get_ns(), out;
	struct gpuhang_event *e;
	__u32 incident;
	bool own;

	if (!ring->s.stop_ns)
		return 0;
	out = now - ring->s.stop_ns;
	own = !ring->s.incident_ns;
	ring->s.stop_ns = 0;
	ring->s.incident_ns = 0;
	if (own ? process_filtered() : !ring->s.wanted)
		return 0;
	incident = own ? next_incident() : ring->s.incident;
	if (own)
		device_incident(ring, incident);
	count_recovery(&ring->s, out);
	e = incident_event(ring, idx, HANG_RESET, own, now);
	if (!e)
		return 0;
	__builtin_memset(&e->job, 0, sizeof(e->job));
	e->incident = incident;
	e->out_ns = out;
	e->result = result;
	e->scope = scope;
	event_submit(e);
	return 0;
}

/* ... and is done; the engine's incident ends. */
SEC("fexit/__intel_engine_reset_bh")
int BPF_PROG(i915_engine_reset_exit, struct intel_engine_cs___hang *engine, const char *msg, int ret)
{
	struct rings_row *ring;
	__u32 idx;

	ring = engine_ring(ADDR(engine), &idx);
	return ring ? reset_done(ring, idx, RESET_ENGINE, ret) : 0;
}

/* The rings row of i915 GT `gt`, for its resets: the device's (no name). */
static __always_inline struct rings_row *gt_ring(struct intel_gt___hang *gt, __u32 *idx)
{
	struct rings_row *r;
	bool made;

	r = ROWS_GET(rings, (__u64)gt, idx, &made, &dropped_rings);
	if (r && made)
		ring_on_device(&r->s, BPF_CORE_READ(gt, i915, drm.dev));
	return r;
}

/* An i915 GT reset begins (an engine reset was not possible, or failed). */
SEC("fentry/intel_gt_reset")
int BPF_PROG(i915_gt_reset, struct intel_gt___hang *gt)
{
	__u32 idx;

	reset_begins(gt_ring(ADDR(gt), &idx));
	return 0;
}

/* ... and is done: failed (-EIO) if it wedged the GT. */
SEC("fexit/intel_gt_reset")
int BPF_PROG(i915_gt_reset_exit, struct intel_gt___hang *gt)
{
	struct rings_row *ring;
	__u32 idx;

	ring = gt_ring(ADDR(gt), &idx);
	return ring ? reset_done(ring, idx, RESET_GPU, ring->s.failed ? -EIO : 0) : 0;
}

/*
 * i915 wedges a GT whose reset failed (and, not traced, on unload, suspend
 * or a failed init): the reset failed; where drm has no wedged event of
 * its own (< 6.14), a WEDGED line, with the recovery i915 names there.
 */
SEC("fentry/intel_gt_set_wedged")
int BPF_PROG(i915_gt_wedged, struct intel_gt___hang *gt)
{
	struct job_info none;
	struct rings_row *ring;
	__u32 idx;

	ring = ROWS_FIND(rings, (__u64)ADDR(gt), &idx);
	if (!ring || !ring->s.stop_ns)
		return 0;
	ring->s.failed = 1;
	if (wedged_traced)
		return 0;
	__builtin_memset(&none, 0, sizeof(none));
	device_event(ring, idx, HANG_WEDGED, &none, DRM_WEDGE_RECOVERY_REBIND |
		     DRM_WEDGE_RECOVERY_BUS_RESET, NULL, 0, bpf_ktime_get_ns());
	return 0;
}

/*
 * The rings row of NVIDIA GPU `gpu` (domain << 16 | bus << 8 | slot),
 * named as the RM names it ("0000:3b:00"): the driver has no DRM
 * scheduler, nor a recorder. Its key is no kernel address, as the others'.
 */
/* The hex digit of the 4 bits of `v` at `shift`. */
static __always_inline char hex_digit(__u32 v, int shift)
{
	__u32 d = v >> shift & 15;

	return d < 10 ? '0' + d : 'a' + d - 10;
}

static __always_inline struct rings_row *nv_gpu_ring(__u32 gpu, __u32 *idx)
{
	struct rings_row *r;
	char *n;
	bool made;

	r = ROWS_GET(rings, 1ULL << 32 | gpu, idx, &made, &dropped_rings);
	if (!r || !made)
		return r;
	n = r->s.dev_name;
	n[0] = hex_digit(gpu, 28);
	n[1] = hex_digit(gpu, 24);
	n[2] = hex_digit(gpu, 20);
	n[3] = hex_digit(gpu, 16);
	n[4] = ':';
	n[5] = hex_digit(gpu, 12);
	n[6] = hex_digit(gpu, 8);
	n[7] = ':';
	n[8] = hex_digit(gpu, 4);
	n[9] = hex_digit(gpu, 0);
	n[10] = '\0';
	n = r->s.driver;
	n[0] = 'n';
	n[1] = 'v';
	n[2] = 'i';
	n[3] = 'd';
	n[4] = 'i';
	n[5] = 'a';
	n[6] = '\0';
	r->s.dev = NO_ROW;
	return r;
}

/*
 * The process an Xid's report names: known when its pid is a number (the
 * RM writes pid='<unknown>', name=<unknown> for an error of no process).
 */
static __always_inline void xid_process(const struct nv_xid *x, struct job_info *p)
{
	__u32 pid = 0;
	int i;
	char c;

	__builtin_memset(p, 0, sizeof(*p));
	if (!(x->has & NV_XID_PID))
		return;
	for (i = 0; i < 10; i++) {
		c = x->pid[i];
		if (c < '0' || c > '9')
			break;
		pid = pid * 10 + c - '0';
	}
	if (!i || c)
		return;
	p->pid = pid;
	if (x->has & NV_XID_NAME)
		__builtin_memcpy(p->comm, x->name, sizeof(p->comm) - 1);
}

/*
 * An Xid: an incident of its own on its GPU's row, naming the process its
 * report names; filtered by it (an Xid of no known process passes only
 * when no filter is set).
 */
static __always_inline int xid_incident(const struct nv_xid *x)
{
	__u64 now = bpf_ktime_get_ns();
	struct gpuhang_event *e;
	struct rings_row *ring;
	struct job_info owner;
	__u32 idx, incident;

	xid_process(x, &owner);
	if (process_filtered() && (!owner.pid || !task_wanted(&owner)))
		return 0;
	ring = nv_gpu_ring(x->gpu, &idx);
	if (!ring)
		return 0;
	incident = next_incident();
	count_culprit(idx, HANG_XID, &owner);
	e = event_of(ring, idx, HANG_XID, GPUHANG_XID_SIZE, now);
	if (!e)
		return 0;
	e->incident = incident;
	e->job = owner;
	e->xid = *x;
	event_submit(e);
	return 0;
}

/* nv_printf(level, fmt, ...): an Xid's report, its own before 575 (nv_xid.bpf.h). */
SEC("kprobe")
int BPF_KPROBE(xid_printf, __u32 level, const char *fmt)
{
	struct nv_xid *x = nv_printf_xid(ctx, level, fmt);

	if (!x || !nv_xid_printed(x))
		return 0;
	return xid_incident(x);
}

/* nv_log_error(nv, xid, fmt, ap) (before 575): an Xid nv_printf did not report. */
SEC("kprobe")
int BPF_KPROBE(xid_log_error, void *nv, __u32 xid)
{
	struct nv_xid *x;

	if (nv_xid_take_print(xid, NULL))
		return 0;
	x = nv_xid_scratch();
	if (!x)
		return 0;
	nv_log_error_read(nv, xid, x);
	return xid_incident(x);
}

/* nvidia:nvidia_dev_xid (575 and later): each Xid, the process from nv_printf's report. */
SEC("tracepoint")
int xid_tracepoint(void *ctx)
{
	struct nv_xid *x = nv_xid_scratch();

	if (!x)
		return 0;
	nv_xid_tp_read(ctx, x);
	return xid_incident(x);
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

char LICENSE[] SEC("license") = "GPL";
