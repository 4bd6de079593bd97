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
 * member is the scheduled fence and the next the finished one, both a
 * struct dma_fence (vmlinux's type, read with CO-RE), and
 * drm_sched_fence_init() numbers them context and context + 1, one seqno:
 * the finished fence is taken where it should be and used only when it
 * says so.
 */
#ifndef GPU_BPF_SCHED_RECORD_BPF_H
#define GPU_BPF_SCHED_RECORD_BPF_H

#include "kernel_types.bpf.h"

/* The finished fence of `s_fence` (a struct drm_sched_fence *): false if it is not where expected. */
static __always_inline bool raw_sched_finished(__u64 s_fence, __u64 *context, __u64 *seqno)
{
	struct dma_fence *scheduled = (void *)s_fence, *finished;

	if (!scheduled)
		return false;
	finished = (void *)scheduled + bpf_core_type_size(struct dma_fence);
	*context = BPF_CORE_READ(finished, context);
	*seqno = BPF_CORE_READ(finished, seqno);
	return *context && *context == BPF_CORE_READ(scheduled, context) + 1 &&
	       *seqno == BPF_CORE_READ(scheduled, seqno);
}

#endif /* GPU_BPF_SCHED_RECORD_BPF_H */
