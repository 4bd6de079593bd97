// SPDX-License-Identifier: GPL-2.0
/* The DRM scheduler's events on the record path, frontend side (sched_record.h). */
#include <string.h>

#include "probe.h"
#include "sched_record.h"

const char *sched_done_event(void)
{
	if (tracepoint_exists("gpu_scheduler", "drm_sched_job_done"))
		return "drm_sched_job_done";
	if (tracepoint_exists("gpu_scheduler", "drm_sched_process_job"))
		return "drm_sched_process_job";
	return NULL;
}

int sched_fence_fields(struct tp_format *fmt, struct tp_field *fence, struct tp_field *ctx,
		       struct tp_field *seqno)
{
	int err;

	memset(fence, 0, sizeof(*fence));
	memset(ctx, 0, sizeof(*ctx));
	memset(seqno, 0, sizeof(*seqno));
	if (tp_field_find(fmt, "fence_context")) {
		err = tp_field_get(fmt, "fence_context", TP_WANT_INT, ctx);
		return err ? err : tp_field_get(fmt, "fence_seqno", TP_WANT_INT, seqno);
	}
	return tp_field_get(fmt, "fence", TP_WANT_INT, fence);
}
