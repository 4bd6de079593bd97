/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gemgen's stand-ins for the i915 driver's types: the members that the
 * trace events (and i915mem) read, at the same paths and of the same types
 * as in the real i915 of each kernel (the real drm_gem_object and
 * drm_mm_node are embedded). tests/btf/corepaths compares them with the
 * real module's BTF in the VM tests; a drift fails there.
 */
#ifndef _GEMGEN_TYPES_H
#define _GEMGEN_TYPES_H

#include <linux/types.h>
#include <linux/version.h>
#include <linux/dma-fence.h>
#include <drm/drm_device.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>

#define PIN_MAPPABLE	BIT(3)

/* i915_vma.guard: guard pages around each binding, since 6.3. */
#define GEMGEN_HAS_GUARD (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0))

struct drm_i915_private {
	struct drm_device drm;
	int index;			/* gemgen: the device's minor index */
};

/* What gpuhang reads of a hang: the request blamed, its context's owner, its engine, its GT. */
typedef u32 intel_engine_mask_t;

struct intel_gt {
	struct drm_i915_private *i915;
};

struct intel_engine_cs {
	struct drm_i915_private *i915;
	struct intel_gt *gt;
	char name[8];
};

struct i915_gem_context {
	struct pid *pid;
	char name[24];
};

struct intel_context {
	struct intel_engine_cs *engine;
	struct i915_gem_context *gem_context;
};

struct i915_request {
	struct dma_fence fence;
	struct intel_engine_cs *engine;
	struct intel_context *context;
};

struct i915_address_space {
	struct drm_i915_private *i915;
	u64 next;			/* gemgen: where the next binding goes */
	int id;
};

struct drm_i915_gem_object {
	union {
		struct drm_gem_object base;
	};
	int id;				/* gemgen: its index */
};

struct i915_vma {
	struct drm_mm_node node;
	struct i915_address_space *vm;
	struct drm_i915_gem_object *obj;
#if GEMGEN_HAS_GUARD
	u32 guard;
#endif
	bool bound;			/* gemgen */
};

static inline u64 gemgen_vma_guard(const struct i915_vma *vma)
{
#if GEMGEN_HAS_GUARD
	return vma->guard;
#else
	return 0;
#endif
}

/* What the real i915_vma_offset() and i915_vma_size() give: inside the guard. */
static inline u64 gemgen_vma_offset(const struct i915_vma *vma)
{
	return vma->node.start + gemgen_vma_guard(vma);
}

static inline u64 gemgen_vma_size(const struct i915_vma *vma)
{
	return vma->node.size - 2 * gemgen_vma_guard(vma);
}

#endif /* _GEMGEN_TYPES_H */
