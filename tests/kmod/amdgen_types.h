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

/*
 * The buffer's placement: ttm_buffer_object.resource, a pointer, from 5.14;
 * before (5.10), the embedded ttm_buffer_object.mem. Kbuild reads which
 * from the target's TTM header; without it, the version decides.
 */
#ifndef AMDGEN_TTM_RESOURCE_PTR
#define AMDGEN_TTM_RESOURCE_PTR (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 14, 0))
#endif
#if AMDGEN_TTM_RESOURCE_PTR
#define amdgen_bo_res(bo) ((bo)->tbo.resource)
#else
#define amdgen_bo_res(bo) (&(bo)->tbo.mem)
#endif

/* amdgpu_bo_va_mapping.flags: uint64_t on 6.1, uint32_t by 7.x (checked by the tests). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define AMDGEN_MAPPING_FLAGS_TYPE uint32_t
#else
#define AMDGEN_MAPPING_FLAGS_TYPE uint64_t
#endif

#define SG_ENTITIES 4

struct amdgpu_ring {
	struct drm_gpu_scheduler sched;
	char name[16];
	/* schedgen's */
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entity[SG_ENTITIES];
	bool sched_ready;
	int nr_entities;
	u64 hw_context;
	atomic64_t hw_seqno;
	spinlock_t fence_lock;
	atomic_t submitted, completed, timeouts;
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
	struct dma_fence *dep;		/* kernels without drm_sched_job_add_dependency() */
	bool hang;
	unsigned int runs;
	struct sg_hw_fence *hw;
	pid_t pid;
	char comm[TASK_COMM_LEN];
};

/* What gpuhang reads of a device at a GPU reset. */
struct amdgpu_device {
	struct device *dev;
};

/* Why a GPU reset: in its context from 6.12 (first seen there; not in Debian's 6.1). */
#ifndef AMDGEN_RESET_SRC
#define AMDGEN_RESET_SRC (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#endif
enum AMDGPU_RESET_SRCS {
	AMDGPU_RESET_SRC_UNKNOWN,
	AMDGPU_RESET_SRC_JOB,
	AMDGPU_RESET_SRC_RAS,
	AMDGPU_RESET_SRC_MES,
	AMDGPU_RESET_SRC_HWS,
	AMDGPU_RESET_SRC_USER,
};

struct amdgpu_reset_context {
	int method;
	struct amdgpu_device *reset_req_dev;
	struct amdgpu_job *job;
	void *hive;
	struct list_head *reset_device_list;
	unsigned long flags;
#if AMDGEN_RESET_SRC
	enum AMDGPU_RESET_SRCS src;
#endif
};

struct amdgpu_bo {
	u32 preferred_domains;
	u32 allowed_domains;
	struct ttm_buffer_object tbo;
	u64 flags;
	int id;				/* amdgen */
};

struct amdgpu_vm;

struct amdgpu_vm_bo_base {
	struct amdgpu_vm *vm;
	struct amdgpu_bo *bo;
};

struct amdgpu_bo_va {
	struct amdgpu_vm_bo_base base;
};

/* flags: u64 until 6.x, then u32 (as the real one on each kernel) */
struct amdgpu_bo_va_mapping {
	struct amdgpu_bo_va *bo_va;
	uint64_t start;			/* GPU pages (4 KiB) */
	uint64_t last;
	uint64_t offset;
	AMDGEN_MAPPING_FLAGS_TYPE flags;
};

struct amdgpu_bo_list {
	unsigned int num_entries;
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
