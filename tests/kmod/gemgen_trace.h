/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gemgen's trace events: the real i915's memory events (i915_trace.h of
 * the same kernels), with the same system, names and prototypes, over
 * gemgen's own structs that have the real member paths. What each records
 * for the trace buffer is what the real one records.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM i915

#if !defined(_GEMGEN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GEMGEN_TRACE_H

#include <linux/tracepoint.h>
#include "gemgen_types.h"

TRACE_EVENT(i915_gem_object_create,
	TP_PROTO(struct drm_i915_gem_object *obj),
	TP_ARGS(obj),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj) __field(u64, size)),
	TP_fast_assign(__entry->obj = obj; __entry->size = obj->base.size;),
	TP_printk("obj=%p, size=0x%llx", __entry->obj, __entry->size)
);

TRACE_EVENT(i915_gem_shrink,
	TP_PROTO(struct drm_i915_private *i915, unsigned long target, unsigned flags),
	TP_ARGS(i915, target, flags),
	TP_STRUCT__entry(__field(int, dev) __field(unsigned long, target) __field(unsigned, flags)),
	TP_fast_assign(__entry->dev = i915->index; __entry->target = target;
		       __entry->flags = flags;),
	TP_printk("dev=%d, target=%lu, flags=%x", __entry->dev, __entry->target, __entry->flags)
);

TRACE_EVENT(i915_vma_bind,
	TP_PROTO(struct i915_vma *vma, unsigned flags),
	TP_ARGS(vma, flags),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj)
			 __field(struct i915_address_space *, vm) __field(u64, offset)
			 __field(u64, size) __field(unsigned, flags)),
	TP_fast_assign(__entry->obj = vma->obj; __entry->vm = vma->vm;
		       __entry->offset = gemgen_vma_offset(vma); __entry->size = gemgen_vma_size(vma);
		       __entry->flags = flags;),
	TP_printk("obj=%p, offset=0x%016llx size=0x%llx%s vm=%p", __entry->obj, __entry->offset,
		  __entry->size, __entry->flags & PIN_MAPPABLE ? ", mappable" : "", __entry->vm)
);

TRACE_EVENT(i915_vma_unbind,
	TP_PROTO(struct i915_vma *vma),
	TP_ARGS(vma),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj)
			 __field(struct i915_address_space *, vm) __field(u64, offset)
			 __field(u64, size)),
	TP_fast_assign(__entry->obj = vma->obj; __entry->vm = vma->vm;
		       __entry->offset = gemgen_vma_offset(vma);
		       __entry->size = gemgen_vma_size(vma);),
	TP_printk("obj=%p, offset=0x%016llx size=0x%llx vm=%p", __entry->obj, __entry->offset,
		  __entry->size, __entry->vm)
);

DECLARE_EVENT_CLASS(gemgen_gem_object,
	TP_PROTO(struct drm_i915_gem_object *obj),
	TP_ARGS(obj),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj)),
	TP_fast_assign(__entry->obj = obj;),
	TP_printk("obj=%p", __entry->obj)
);

DEFINE_EVENT(gemgen_gem_object, i915_gem_object_destroy,
	TP_PROTO(struct drm_i915_gem_object *obj),
	TP_ARGS(obj)
);

TRACE_EVENT(i915_gem_object_pwrite,
	TP_PROTO(struct drm_i915_gem_object *obj, u64 offset, u64 len),
	TP_ARGS(obj, offset, len),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj) __field(u64, offset)
			 __field(u64, len)),
	TP_fast_assign(__entry->obj = obj; __entry->offset = offset; __entry->len = len;),
	TP_printk("obj=%p, offset=0x%llx, len=0x%llx", __entry->obj, __entry->offset, __entry->len)
);

TRACE_EVENT(i915_gem_object_pread,
	TP_PROTO(struct drm_i915_gem_object *obj, u64 offset, u64 len),
	TP_ARGS(obj, offset, len),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj) __field(u64, offset)
			 __field(u64, len)),
	TP_fast_assign(__entry->obj = obj; __entry->offset = offset; __entry->len = len;),
	TP_printk("obj=%p, offset=0x%llx, len=0x%llx", __entry->obj, __entry->offset, __entry->len)
);

TRACE_EVENT(i915_gem_object_fault,
	TP_PROTO(struct drm_i915_gem_object *obj, u64 index, bool gtt, bool write),
	TP_ARGS(obj, index, gtt, write),
	TP_STRUCT__entry(__field(struct drm_i915_gem_object *, obj) __field(u64, index)
			 __field(bool, gtt) __field(bool, write)),
	TP_fast_assign(__entry->obj = obj; __entry->index = index; __entry->gtt = gtt;
		       __entry->write = write;),
	TP_printk("obj=%p, %s index=%llu %s", __entry->obj, __entry->gtt ? "GTT" : "CPU",
		  __entry->index, __entry->write ? ", writable" : "")
);

TRACE_EVENT(i915_gem_evict,
	TP_PROTO(struct i915_address_space *vm, u64 size, u64 align, unsigned int flags),
	TP_ARGS(vm, size, align, flags),
	TP_STRUCT__entry(__field(u32, dev) __field(struct i915_address_space *, vm)
			 __field(u64, size) __field(u64, align) __field(unsigned int, flags)),
	TP_fast_assign(__entry->dev = 0; __entry->vm = vm; __entry->size = size;
		       __entry->align = align; __entry->flags = flags;),
	TP_printk("dev=%d, vm=%p, size=0x%llx, align=0x%llx %s", __entry->dev, __entry->vm,
		  __entry->size, __entry->align, __entry->flags & PIN_MAPPABLE ? ", mappable" : "")
);

TRACE_EVENT(i915_gem_evict_node,
	TP_PROTO(struct i915_address_space *vm, struct drm_mm_node *node, unsigned int flags),
	TP_ARGS(vm, node, flags),
	TP_STRUCT__entry(__field(u32, dev) __field(struct i915_address_space *, vm)
			 __field(u64, start) __field(u64, size) __field(unsigned int, flags)),
	TP_fast_assign(__entry->dev = 0; __entry->vm = vm; __entry->start = node->start;
		       __entry->size = node->size; __entry->flags = flags;),
	TP_printk("dev=%d, vm=%p, start=0x%llx size=0x%llx, flags=%x", __entry->dev, __entry->vm,
		  __entry->start, __entry->size, __entry->flags)
);

TRACE_EVENT(i915_gem_evict_vm,
	TP_PROTO(struct i915_address_space *vm),
	TP_ARGS(vm),
	TP_STRUCT__entry(__field(u32, dev) __field(struct i915_address_space *, vm)),
	TP_fast_assign(__entry->dev = 0; __entry->vm = vm;),
	TP_printk("dev=%d, vm=%p", __entry->dev, __entry->vm)
);

DECLARE_EVENT_CLASS(gemgen_ppgtt,
	TP_PROTO(struct i915_address_space *vm),
	TP_ARGS(vm),
	TP_STRUCT__entry(__field(struct i915_address_space *, vm) __field(u32, dev)),
	TP_fast_assign(__entry->vm = vm; __entry->dev = 0;),
	TP_printk("dev=%u, vm=%p", __entry->dev, __entry->vm)
);

DEFINE_EVENT(gemgen_ppgtt, i915_ppgtt_create,
	TP_PROTO(struct i915_address_space *vm),
	TP_ARGS(vm)
);

DEFINE_EVENT(gemgen_ppgtt, i915_ppgtt_release,
	TP_PROTO(struct i915_address_space *vm),
	TP_ARGS(vm)
);

#endif /* _GEMGEN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE gemgen_trace
#include <trace/define_trace.h>
