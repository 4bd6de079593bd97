/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DRM scheduler's events on the record path, frontend side (the BPF
 * side: sched_record.bpf.h).
 */
#ifndef GPU_BPF_SCHED_RECORD_H
#define GPU_BPF_SCHED_RECORD_H

/* "drm_sched_job_done" (>= 6.17), "drm_sched_process_job" (<= 6.16), or NULL: no gpu_sched. */
const char *sched_done_event(void);

#endif /* GPU_BPF_SCHED_RECORD_H */
