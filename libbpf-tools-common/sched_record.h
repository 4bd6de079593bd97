/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DRM scheduler's events on the record path, frontend side (the BPF
 * side: sched_record.bpf.h): which done event this kernel has, and where a
 * gpu_scheduler record keeps its job's finished fence.
 */
#ifndef GPU_BPF_SCHED_RECORD_H
#define GPU_BPF_SCHED_RECORD_H

#include "tp_format.h"

/* "drm_sched_job_done" (>= 6.17), "drm_sched_process_job" (<= 6.16), or NULL: no gpu_sched. */
const char *sched_done_event(void);

/*
 * A job's finished fence in `fmt` (a gpu_scheduler event's format): its
 * fence_context and fence_seqno (>= 6.17) into ctx and seqno, else its
 * `fence` pointer (<= 6.16) into fence; the others stay absent.  0, or
 * -errno with fmt->error set.
 */
int sched_fence_fields(struct tp_format *fmt, struct tp_field *fence, struct tp_field *ctx,
		       struct tp_field *seqno);

#endif /* GPU_BPF_SCHED_RECORD_H */
