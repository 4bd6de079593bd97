/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DRM types read by the DRM tools (include/drm/gpu_scheduler.h, drm_file.h),
 * relocated with CO-RE against the modules' BTF (gpu_sched, drm); and a
 * scheduler job's key in their rows of jobs in flight.
 */
#ifndef GPU_BPF_DRM_TYPES_BPF_H
#define GPU_BPF_DRM_TYPES_BPF_H

#include "kernel_types.bpf.h"

struct drm_gpu_scheduler;

struct drm_sched_fence {
	struct dma_fence scheduled;
	struct dma_fence finished;
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
	return (__u32)((context * 0x9E3779B97F4A7C15ULL) >> (64 - bits)) + (__u32)seqno;
}

#endif /* GPU_BPF_DRM_TYPES_BPF_H */
