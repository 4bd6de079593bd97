/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdgen's stand-ins for amdgpu's types: schedgen's ring and job (the
 * members its generator uses) in the shape of amdgpu's, with the members
 * amdgpu's events and amdgpucs read at the real paths and of the real types
 * (the real drm_gpu_scheduler, drm_sched_job and ttm_buffer_object
 * embedded). Checked against the real amdgpu's BTF by the tests.
 */
#ifndef _AMDGEN_TYPES_H
#define _AMDGEN_TYPES_H

#include <linux/types.h>
#include <linux/version.h>
#include <drm/gpu_scheduler.h>
#if __has_include(<drm/ttm/ttm_bo.h>)
#include <drm/ttm/ttm_bo.h>
#else
#include <drm/ttm/ttm_bo_api.h>
#endif
#include <drm/ttm/ttm_resource.h>

struct amdgpu_ring {
	struct drm_gpu_scheduler sched;
	char name[16];
	/* schedgen's */
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entity;
	bool sched_ready, entity_ready;
	u64 hw_context;
	atomic64_t hw_seqno;
	spinlock_t fence_lock;
	atomic_t submitted, completed;
	struct mutex submit_lock;
	struct dma_fence *last_finished;
};

struct amdgpu_job {
	struct drm_sched_job base;
	unsigned int vmid;
	unsigned int pasid;
	uint32_t num_ibs;
	/* schedgen's */
	struct amdgpu_ring *ring;
	u64 exec_ns;
};

struct amdgpu_bo {
	u32 preferred_domains;
	u32 allowed_domains;
	struct ttm_buffer_object tbo;
	u64 flags;
	int id;				/* amdgen */
};

struct amdgpu_iv_entry {
	unsigned int client_id;
	unsigned int src_id;
	unsigned int ring_id;
	unsigned int vmid;
	unsigned int vmid_src;
	uint64_t timestamp;
	unsigned int timestamp_src;
	unsigned int pasid;
	unsigned int src_data[4];
};

static inline struct amdgpu_ring *to_amdgpu_ring(struct drm_gpu_scheduler *sched)
{
	return container_of(sched, struct amdgpu_ring, sched);
}

static inline u64 amdgpu_bo_size(struct amdgpu_bo *bo)
{
	return bo->tbo.base.size;
}

/* __assign_str() lost its second argument in 6.10. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define __assign_str_compat(dst, src) __assign_str(dst)
#else
#define __assign_str_compat(dst, src) __assign_str(dst, src)
#endif

#endif /* _AMDGEN_TYPES_H */
