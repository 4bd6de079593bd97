/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DRM scheduler's done event without gpu_sched's BTF, as a raw
 * tracepoint: its one argument is the job's struct drm_sched_fence *.
 *
 * Why not the classic tracepoint and its record: fences signal in
 * interrupts, and the kernel skips a classic tracepoint's (or kprobe's)
 * program that fires while any such program runs on the same CPU
 * (bpf_prog_active; silently before 6.7): jobs would lose their done when
 * it interrupted, say, the CS ioctl's program. A raw tracepoint's program
 * is skipped only by itself.
 *
 * Without gpu_sched's BTF the struct's layout is not known, but its first
 * members are the scheduled fence and the finished one (after a deadline
 * from 6.4), both a struct dma_fence (vmlinux's type, read with CO-RE), and
 * drm_sched_fence_init() numbers them context and context + 1, one seqno:
 * the finished fence is taken where it should be and used only when it
 * says so.
 */
#ifndef GPU_BPF_SCHED_RECORD_BPF_H
#define GPU_BPF_SCHED_RECORD_BPF_H

#include "kernel_types.bpf.h"

/*
 * The finished fence of `s_fence` (a struct drm_sched_fence *), its
 * context and seqno: false if it is not where expected.  It follows the
 * `scheduled` fence, and from 6.4 both follow a ktime_t `deadline`: the
 * fences tell which layout this is (one seqno, contexts n and n + 1).
 */
static __always_inline bool raw_sched_finished(__u64 s_fence, __u64 *context, __u64 *seqno)
{
	__u32 fence_size = bpf_core_type_size(struct dma_fence), skip;
	struct dma_fence *scheduled, *finished;

	if (!s_fence)
		return false;
	for (skip = 0; skip <= 8; skip += 8) {
		scheduled = (void *)(s_fence + skip);
		finished = (void *)(s_fence + skip + fence_size);
		*context = BPF_CORE_READ(finished, context);
		*seqno = BPF_CORE_READ(finished, seqno);
		if (*context && *context == BPF_CORE_READ(scheduled, context) + 1 &&
		    *seqno == BPF_CORE_READ(scheduled, seqno))
			return true;
	}
	return false;
}

#endif /* GPU_BPF_SCHED_RECORD_BPF_H */
