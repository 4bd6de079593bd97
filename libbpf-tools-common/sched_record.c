// SPDX-License-Identifier: GPL-2.0
/* The DRM scheduler's events on the record path, frontend side (sched_record.h). */
#include <stddef.h>

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
