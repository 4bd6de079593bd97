// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on drmsched's hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* Linux <= 6.16 */
SEC("tp_btf/drm_sched_job") int queue_old(void *ctx) { return 0; }
SEC("tp_btf/drm_run_job") int run_old(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_process_job") int done_old(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_wait_dep") int dep_old(void *ctx) { return 0; }

/* Linux >= 6.17 */
SEC("tp_btf/drm_sched_job_queue") int queue_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_run") int run_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_done") int done_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_add_dep") int dep_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_unschedulable") int blocked_new(void *ctx) { return 0; }

/* The same as classic tracepoints: the record path's limit (drmsched --no-btf) */
SEC("tracepoint/gpu_scheduler/drm_sched_job") int tp_queue_old(void *ctx) { return 0; }
SEC("tracepoint/gpu_scheduler/drm_run_job") int tp_run_old(void *ctx) { return 0; }
SEC("tracepoint/gpu_scheduler/drm_sched_process_job") int tp_done_old(void *ctx) { return 0; }
SEC("tracepoint/gpu_scheduler/drm_sched_job_queue") int tp_queue_new(void *ctx) { return 0; }
SEC("tracepoint/gpu_scheduler/drm_sched_job_run") int tp_run_new(void *ctx) { return 0; }
SEC("tracepoint/gpu_scheduler/drm_sched_job_done") int tp_done_new(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
