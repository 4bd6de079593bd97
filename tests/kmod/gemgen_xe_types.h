/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gemgen's stand-ins for the xe driver's types: the members its events and
 * i915mem read, at the real paths, embedding the real ttm_buffer_object
 * and drm_gpuva/drm_gpuvm (checked against the real xe's BTF by the tests).
 */
#ifndef _GEMGEN_XE_TYPES_H
#define _GEMGEN_XE_TYPES_H

#include <drm/drm_gpuvm.h>
#include <drm/ttm/ttm_bo.h>

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

#endif /* _GEMGEN_XE_TYPES_H */
