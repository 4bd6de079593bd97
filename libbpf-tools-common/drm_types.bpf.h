/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DRM types read by the DRM tools (include/drm/gpu_scheduler.h, drm_file.h),
 * relocated with CO-RE against the modules' BTF (gpu_sched, drm); and their
 * rows of the scheduler's jobs in flight (JOB_ROWS()).
 */
#ifndef GPU_BPF_DRM_TYPES_BPF_H
#define GPU_BPF_DRM_TYPES_BPF_H

#include "kernel_types.bpf.h"
#include "rows.bpf.h"

struct drm_gpu_scheduler;

struct drm_sched_fence {
	struct dma_fence scheduled;
	struct dma_fence finished;
	struct dma_fence *parent;	/* the hardware's fence, once run */
	struct drm_gpu_scheduler *sched;
	u64 drm_client_id;		/* Linux >= 6.17 */
} __core;

struct drm_gpu_scheduler {
	const char *name;
	struct device *dev;
	atomic_t hw_rq_count;		/* jobs on the hardware, Linux <= 6.6 */
	atomic_t credit_count;		/* their credits, Linux >= 6.7 */
} __core;

/* include/drm/spsc_queue.h: an entity's queue of jobs not yet run */
struct spsc_queue {
	atomic_t job_count;
} __core;

struct drm_sched_entity {
	struct spsc_queue job_queue;
} __core;

struct drm_sched_job {
	struct drm_gpu_scheduler *sched;
	struct drm_sched_fence *s_fence;
} __core;

typedef struct {
	s64 counter;
} atomic64_t;

/* include/drm/drm_vblank.h: one per CRTC, dev->vblank[pipe] */
struct drm_vblank_crtc {
	atomic64_t count;	/* the vblank sequence number */
	s64 time;		/* its timestamp (ktime_t) */
} __core;

struct drm_device {
	struct drm_vblank_crtc *vblank;
	unsigned int num_crtcs;
} __core;

struct drm_minor {
	int index;
	struct drm_device *dev;
} __core;

struct drm_file {
	struct drm_minor *minor;
} __core;

/* dev_name(): the name given at registration, else the kobject's. */
static __always_inline const char *core_dev_name(struct device *dev)
{
	const char *name;

	if (!dev)
		return NULL;
	name = BPF_CORE_READ(dev, init_name);
	return name ? name : BPF_CORE_READ(dev, kobj.name);
}

/*
 * A job in flight on the DRM scheduler, named by its finished fence
 * (unique, never reused): the key of the DRM tools' rows of jobs.
 */
struct job_fence {
	__u64 context;
	__u64 seqno;
};

/*
 * The row a job's probes start from (ROWS_GET_AT): a context's jobs,
 * consecutive seqnos, take consecutive rows from a point its hash picks,
 * so the rows a burst touches share pages and cache lines, as hashed ones
 * would not (a TLB and cache miss per event). Contexts whose runs of rows
 * meet probe past each other.
 */
static __always_inline __u32 job_start(__u64 context, __u64 seqno, __u32 bits)
{
	return row_hash(context, bits) + (__u32)seqno;
}

/*
 * A tool's rows of jobs in flight, `jobs`: 1 << JOB_ROW_BITS rows of
 * value_t, keyed by their fence, made with ROWS_GET_AT(jobs, fence,
 * job_start(...), ...) and freed with ROWS_FREE(); and their lookups:
 *
 *	job_index(context, seqno)	the row's index, NO_ROW if the job is
 *					not tracked: a global function, so
 *					the verifier walks the probes once per
 *					program, not the rest of the caller
 *					once per probe
 *	job_find(context, seqno, &idx)	the row (NULL: not tracked), its
 *					index in idx for ROWS_FREE()
 */
#define JOB_ROWS(value_t)									\
	ROWS(jobs, struct job_fence, value_t, JOB_ROW_BITS);					\
												\
	__noinline __u32 job_index(__u64 context, __u64 seqno)					\
	{											\
		struct job_fence f = { .context = context, .seqno = seqno };			\
		__u32 idx;									\
												\
		return ROWS_FIND_AT(jobs, f, job_start(context, seqno, JOB_ROW_BITS), &idx) ?	\
			idx : NO_ROW;								\
	}											\
												\
	static __always_inline struct jobs_row *job_find(__u64 context, __u64 seqno, __u32 *idx) \
	{											\
		*idx = job_index(context, seqno);						\
		return bpf_map_lookup_elem(&jobs, idx);						\
	}

#endif /* GPU_BPF_DRM_TYPES_BPF_H */
