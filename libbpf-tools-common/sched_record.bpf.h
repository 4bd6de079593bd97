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

/* Done events whose fences were not where expected: not counted, the frontend says how many. */
__u64 odd_done_fences = 0;

static __always_inline void sched_raw_done(struct bpf_raw_tracepoint_args *ctx, bool spare,
					   void (*done)(__u64 context, __u64 seqno, bool spare))
{
	__u64 context, seqno;

	if (raw_sched_finished(ctx->args[0], &context, &seqno))
		done(context, seqno, spare);
	else if (ctx->args[0] && !spare)
		__sync_fetch_and_add(&odd_done_fences, 1);
}

/*
 * The done event's programs on the record path, raw_done and its spare
 * (spare.bpf.h: a raw tracepoint's program is skipped only by itself),
 * attached by event name (records_attach()): each hands `done`, the tool's
 * one body for a job's done (static __always_inline void done(__u64
 * context, __u64 seqno, bool spare)), the job's finished fence.
 */
#define SCHED_RAW_DONE_PROGRAMS(done)						\
	SEC("raw_tp")								\
	int raw_done(struct bpf_raw_tracepoint_args *ctx)			\
	{									\
		sched_raw_done(ctx, false, done);				\
		return 0;							\
	}									\
	SEC("raw_tp")								\
	int raw_done_spare(struct bpf_raw_tracepoint_args *ctx)		\
	{									\
		sched_raw_done(ctx, true, done);				\
		return 0;							\
	}

#endif /* GPU_BPF_SCHED_RECORD_BPF_H */
