/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A DRM scheduler job's finished fence, context:seqno, from a gpu_scheduler
 * trace record (the record path, tp_record.bpf.h): <= 6.16's records carry
 * `fence`, &s_fence->finished, a struct dma_fence (vmlinux's type: CO-RE
 * reads it without gpu_sched's BTF); >= 6.17's carry fence_context and
 * fence_seqno.  The frontend fills the descriptors with sched_fence_fields()
 * (sched_record.h): one of the two kinds is present.
 */
#ifndef GPU_BPF_SCHED_RECORD_BPF_H
#define GPU_BPF_SCHED_RECORD_BPF_H

#include "kernel_types.bpf.h"
#include "tp_record.bpf.h"

/* The job's finished fence from the record: false if it names none. */
static __always_inline bool rec_sched_fence(void *ctx, const volatile struct tp_field *f_fence,
					    const volatile struct tp_field *f_ctx,
					    const volatile struct tp_field *f_seqno,
					    __u64 *context, __u64 *seqno)
{
	if (tp_has(f_fence)) {
		struct dma_fence *fence = (void *)tp_read_u64(ctx, f_fence);

		if (!fence)
			return false;
		*context = BPF_CORE_READ(fence, context);
		*seqno = BPF_CORE_READ(fence, seqno);
	} else {
		*context = tp_read_u64(ctx, f_ctx);
		*seqno = tp_read_u64(ctx, f_seqno);
	}
	return *context != 0;
}

#endif /* GPU_BPF_SCHED_RECORD_BPF_H */
