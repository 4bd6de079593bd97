/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gemgen's stand-ins for the xe driver's types: the members its events,
 * i915mem and gpuhang read, at the real paths, embedding the real
 * ttm_buffer_object, drm_gpuva/drm_gpuvm and drm_gpu_scheduler (checked
 * against the real xe's BTF by the tests).
 */
#ifndef _GEMGEN_XE_TYPES_H
#define _GEMGEN_XE_TYPES_H

#include <drm/drm_gpuvm.h>
#include <drm/ttm/ttm_bo.h>
#include <drm/gpu_scheduler.h>

struct xe_vm {
	struct drm_gpuvm gpuvm;
	u64 next;			/* gemgen: where the next binding goes */
};

struct xe_bo {
	struct ttm_buffer_object ttm;
	u32 flags;
	struct xe_vm *vm;
	int id;				/* gemgen */
	struct xe_vma *vma;		/* gemgen: its one binding */
};

struct xe_vma {
	struct drm_gpuva gpuva;
	bool bound;			/* gemgen */
};

/* What gpuhang reads of an exec queue's incidents: its owner, its scheduler. */
struct xe_file {
	char *process_name;
	pid_t pid;
};

struct xe_gpu_scheduler {
	struct drm_gpu_scheduler base;
};

struct xe_guc_exec_queue {
	struct xe_gpu_scheduler sched;
};

struct xe_execlist_exec_queue;

struct xe_exec_queue {
	struct xe_file *xef;
	char name[16];
	union {
		struct xe_execlist_exec_queue *execlist;
		struct xe_guc_exec_queue *guc;
	};
};

/* A job: the DRM scheduler's, on its queue. */
struct xe_sched_job {
	struct drm_sched_job drm;
	struct xe_exec_queue *q;
};

#endif /* _GEMGEN_XE_TYPES_H */
