/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdgen's trace events: amdgpu's own (amdgpu_trace.h of the same kernels),
 * with the same system, names and prototypes, over amdgen_types.h.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM amdgpu

#if !defined(_AMDGEN_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _AMDGEN_TRACE_H

#include <linux/tracepoint.h>
#include "amdgen_types.h"

TRACE_EVENT(amdgpu_iv,
	TP_PROTO(unsigned int ih, struct amdgpu_iv_entry *iv),
	TP_ARGS(ih, iv),
	TP_STRUCT__entry(__field(unsigned int, ih) __field(unsigned int, client_id)
			 __field(unsigned int, src_id) __field(unsigned int, ring_id)
			 __field(unsigned int, vmid) __field(unsigned int, pasid)),
	TP_fast_assign(__entry->ih = ih; __entry->client_id = iv->client_id;
		       __entry->src_id = iv->src_id; __entry->ring_id = iv->ring_id;
		       __entry->vmid = iv->vmid; __entry->pasid = iv->pasid;),
	TP_printk("ih:%u client_id:%u src_id:%u ring:%u vmid:%u pasid:%u", __entry->ih,
		  __entry->client_id, __entry->src_id, __entry->ring_id, __entry->vmid,
		  __entry->pasid)
);

TRACE_EVENT(amdgpu_bo_create,
	TP_PROTO(struct amdgpu_bo *bo),
	TP_ARGS(bo),
	TP_STRUCT__entry(__field(struct amdgpu_bo *, bo) __field(u32, pages) __field(u32, type)
			 __field(u32, prefer) __field(u32, allow) __field(u32, visible)),
	TP_fast_assign(__entry->bo = bo; __entry->pages = bo->tbo.base.size >> PAGE_SHIFT;
		       __entry->type = amdgen_bo_res(bo)->mem_type;
		       __entry->prefer = bo->preferred_domains;
		       __entry->allow = bo->allowed_domains; __entry->visible = bo->flags;),
	TP_printk("bo=%p, pages=%u, type=%d, preferred=%d, allowed=%d, visible=%d", __entry->bo,
		  __entry->pages, __entry->type, __entry->prefer, __entry->allow, __entry->visible)
);

DECLARE_EVENT_CLASS(amdgen_job,
	TP_PROTO(struct amdgpu_job *job),
	TP_ARGS(job),
	TP_STRUCT__entry(__field(u64, context) __field(u64, seqno) __string(ring,
			 to_amdgpu_ring(job->base.sched)->name) __field(u32, num_ibs)),
	TP_fast_assign(__entry->context = job->base.s_fence->finished.context;
		       __entry->seqno = job->base.s_fence->finished.seqno;
		       __assign_str_compat(ring, to_amdgpu_ring(job->base.sched)->name);
		       __entry->num_ibs = job->num_ibs;),
	TP_printk("context=%llu, seqno=%llu, ring_name=%s, num_ibs=%u", __entry->context,
		  __entry->seqno, __get_str(ring), __entry->num_ibs)
);

DEFINE_EVENT(amdgen_job, amdgpu_cs_ioctl, TP_PROTO(struct amdgpu_job *job), TP_ARGS(job));
DEFINE_EVENT(amdgen_job, amdgpu_sched_run_job, TP_PROTO(struct amdgpu_job *job), TP_ARGS(job));

TRACE_EVENT(amdgpu_vm_flush,
	TP_PROTO(struct amdgpu_ring *ring, unsigned int vmid, uint64_t pd_addr),
	TP_ARGS(ring, vmid, pd_addr),
	TP_STRUCT__entry(__string(ring, ring->name) __field(u32, vmid) __field(u64, pd_addr)),
	TP_fast_assign(__assign_str_compat(ring, ring->name); __entry->vmid = vmid;
		       __entry->pd_addr = pd_addr;),
	TP_printk("ring=%s, id=%u, pd_addr=%010Lx", __get_str(ring), __entry->vmid,
		  __entry->pd_addr)
);

TRACE_EVENT(amdgpu_bo_move,
	TP_PROTO(struct amdgpu_bo *bo, uint32_t new_placement, uint32_t old_placement),
	TP_ARGS(bo, new_placement, old_placement),
	TP_STRUCT__entry(__field(struct amdgpu_bo *, bo) __field(u64, bo_size)
			 __field(u32, new_placement) __field(u32, old_placement)),
	TP_fast_assign(__entry->bo = bo; __entry->bo_size = amdgpu_bo_size(bo);
		       __entry->new_placement = new_placement;
		       __entry->old_placement = old_placement;),
	TP_printk("bo=%p, from=%d, to=%d, size=%lld", __entry->bo, __entry->old_placement,
		  __entry->new_placement, __entry->bo_size)
);

DECLARE_EVENT_CLASS(amdgen_vm_mapping,
	TP_PROTO(struct amdgpu_bo_va *bo_va, struct amdgpu_bo_va_mapping *mapping),
	TP_ARGS(bo_va, mapping),
	TP_STRUCT__entry(__field(struct amdgpu_bo *, bo) __field(long, start) __field(long, last)
			 __field(u64, offset) __field(u64, flags)),
	TP_fast_assign(__entry->bo = bo_va ? bo_va->base.bo : NULL;
		       __entry->start = mapping->start; __entry->last = mapping->last;
		       __entry->offset = mapping->offset; __entry->flags = mapping->flags;),
	TP_printk("bo=%p, start=%lx, last=%lx, offset=%010llx, flags=%llx", __entry->bo,
		  __entry->start, __entry->last, __entry->offset, __entry->flags)
);

DEFINE_EVENT(amdgen_vm_mapping, amdgpu_vm_bo_map,
	TP_PROTO(struct amdgpu_bo_va *bo_va, struct amdgpu_bo_va_mapping *mapping),
	TP_ARGS(bo_va, mapping));
DEFINE_EVENT(amdgen_vm_mapping, amdgpu_vm_bo_unmap,
	TP_PROTO(struct amdgpu_bo_va *bo_va, struct amdgpu_bo_va_mapping *mapping),
	TP_ARGS(bo_va, mapping));

TRACE_EVENT(amdgpu_vm_bo_update,
	TP_PROTO(struct amdgpu_bo_va_mapping *mapping),
	TP_ARGS(mapping),
	TP_STRUCT__entry(__field(u64, soffset) __field(u64, eoffset) __field(u64, flags)),
	TP_fast_assign(__entry->soffset = mapping->start; __entry->eoffset = mapping->last + 1;
		       __entry->flags = mapping->flags;),
	TP_printk("soffs=%010llx, eoffs=%010llx, flags=%llx", __entry->soffset, __entry->eoffset,
		  __entry->flags)
);

TRACE_EVENT(amdgpu_bo_list_set,
	TP_PROTO(struct amdgpu_bo_list *list, struct amdgpu_bo *bo),
	TP_ARGS(list, bo),
	TP_STRUCT__entry(__field(struct amdgpu_bo_list *, list) __field(struct amdgpu_bo *, bo)
			 __field(u64, bo_size)),
	TP_fast_assign(__entry->list = list; __entry->bo = bo;
		       __entry->bo_size = amdgpu_bo_size(bo);),
	TP_printk("list=%p, bo=%p, bo_size=%lld", __entry->list, __entry->bo, __entry->bo_size)
);

TRACE_EVENT(amdgpu_cs_bo_status,
	TP_PROTO(uint64_t total_bo, uint64_t total_size),
	TP_ARGS(total_bo, total_size),
	TP_STRUCT__entry(__field(u64, total_bo) __field(u64, total_size)),
	TP_fast_assign(__entry->total_bo = total_bo; __entry->total_size = total_size;),
	TP_printk("total_bo_size=%lld, total_bo_count=%lld", __entry->total_bo,
		  __entry->total_size)
);

#endif /* _AMDGEN_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE amdgen_trace
#include <trace/define_trace.h>
