/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gemgen's xe events: the real xe's memory events (xe_trace_bo.h), two of
 * its exec queue events and a job's timeout (xe_trace.h), with the same system, names and
 * prototypes, over stand-ins with the real member paths (gemgen_xe_types.h).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xe

#if !defined(_GEMGEN_XE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _GEMGEN_XE_TRACE_H

#include <linux/tracepoint.h>
#include "gemgen_xe_types.h"

DECLARE_EVENT_CLASS(gemgen_xe_bo,
	TP_PROTO(struct xe_bo *bo),
	TP_ARGS(bo),
	TP_STRUCT__entry(__field(size_t, size) __field(u32, flags) __field(struct xe_vm *, vm)),
	TP_fast_assign(__entry->size = bo->ttm.base.size; __entry->flags = bo->flags;
		       __entry->vm = bo->vm;),
	TP_printk("size=%zu, flags=0x%02x, vm=%p", __entry->size, __entry->flags, __entry->vm)
);

DEFINE_EVENT(gemgen_xe_bo, xe_bo_cpu_fault, TP_PROTO(struct xe_bo *bo), TP_ARGS(bo));
DEFINE_EVENT(gemgen_xe_bo, xe_bo_create, TP_PROTO(struct xe_bo *bo), TP_ARGS(bo));

TRACE_EVENT(xe_bo_move,
	TP_PROTO(struct xe_bo *bo, uint32_t new_placement, uint32_t old_placement,
		 bool move_lacks_source),
	TP_ARGS(bo, new_placement, old_placement, move_lacks_source),
	TP_STRUCT__entry(__field(struct xe_bo *, bo) __field(size_t, size)
			 __field(u32, new_placement) __field(u32, old_placement)
			 __field(bool, move_lacks_source)),
	TP_fast_assign(__entry->bo = bo; __entry->size = bo->ttm.base.size;
		       __entry->new_placement = new_placement;
		       __entry->old_placement = old_placement;
		       __entry->move_lacks_source = move_lacks_source;),
	TP_printk("move_lacks_source:%s, migrate object %p [size %zu] from %u to %u",
		  __entry->move_lacks_source ? "yes" : "no", __entry->bo, __entry->size,
		  __entry->old_placement, __entry->new_placement)
);

DECLARE_EVENT_CLASS(gemgen_xe_vma,
	TP_PROTO(struct xe_vma *vma),
	TP_ARGS(vma),
	TP_STRUCT__entry(__field(struct xe_vma *, vma) __field(u64, start) __field(u64, end)),
	TP_fast_assign(__entry->vma = vma; __entry->start = vma->gpuva.va.addr;
		       __entry->end = vma->gpuva.va.addr + vma->gpuva.va.range - 1;),
	TP_printk("vma=%p, start=0x%012llx, end=0x%012llx", __entry->vma, __entry->start,
		  __entry->end)
);

DEFINE_EVENT(gemgen_xe_vma, xe_vma_pagefault, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));
DEFINE_EVENT(gemgen_xe_vma, xe_vma_bind, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));
DEFINE_EVENT(gemgen_xe_vma, xe_vma_unbind, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));
DEFINE_EVENT(gemgen_xe_vma, xe_vma_rebind_worker, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));
DEFINE_EVENT(gemgen_xe_vma, xe_vma_rebind_exec, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));
DEFINE_EVENT(gemgen_xe_vma, xe_vma_evict, TP_PROTO(struct xe_vma *vma), TP_ARGS(vma));

DECLARE_EVENT_CLASS(gemgen_xe_vm,
	TP_PROTO(struct xe_vm *vm),
	TP_ARGS(vm),
	TP_STRUCT__entry(__field(struct xe_vm *, vm)),
	TP_fast_assign(__entry->vm = vm;),
	TP_printk("vm=%p", __entry->vm)
);

DEFINE_EVENT(gemgen_xe_vm, xe_vm_create, TP_PROTO(struct xe_vm *vm), TP_ARGS(vm));
DEFINE_EVENT(gemgen_xe_vm, xe_vm_free, TP_PROTO(struct xe_vm *vm), TP_ARGS(vm));

/* xe_trace.h's exec queue events that report an incident (the GuC's word). */
DECLARE_EVENT_CLASS(gemgen_xe_exec_queue,
	TP_PROTO(struct xe_exec_queue *q),
	TP_ARGS(q),
	TP_STRUCT__entry(__field(struct xe_exec_queue *, q)),
	TP_fast_assign(__entry->q = q;),
	TP_printk("q=%p", __entry->q)
);

DEFINE_EVENT(gemgen_xe_exec_queue, xe_exec_queue_reset, TP_PROTO(struct xe_exec_queue *q), TP_ARGS(q));
DEFINE_EVENT(gemgen_xe_exec_queue, xe_exec_queue_memory_cat_error, TP_PROTO(struct xe_exec_queue *q),
	     TP_ARGS(q));

/* ... and its job event of a timeout xe found real (its handler checks the job's run time). */
DECLARE_EVENT_CLASS(gemgen_xe_sched_job,
	TP_PROTO(struct xe_sched_job *job),
	TP_ARGS(job),
	TP_STRUCT__entry(__field(struct xe_sched_job *, job)),
	TP_fast_assign(__entry->job = job;),
	TP_printk("job=%p", __entry->job)
);

DEFINE_EVENT(gemgen_xe_sched_job, xe_sched_job_timedout, TP_PROTO(struct xe_sched_job *job),
	     TP_ARGS(job));

#endif /* _GEMGEN_XE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE gemgen_xe_trace
#include <trace/define_trace.h>
