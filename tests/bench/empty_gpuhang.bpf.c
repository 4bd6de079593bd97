// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on gpuhang's hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The flight recorder's events: what the quiet state runs. Linux <= 6.16 */
SEC("tp_btf/drm_sched_job") int queue_old(void *ctx) { return 0; }
SEC("tp_btf/drm_run_job") int run_old(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_process_job") int done_old(void *ctx) { return 0; }

/* Linux >= 6.17 */
SEC("tp_btf/drm_sched_job_queue") int queue_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_run") int run_new(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_done") int done_new(void *ctx) { return 0; }

/* The recovery functions: attached (start-up's limit), never run without an incident. */
SEC("fentry/drm_sched_job_timedout") int timedout(void *ctx) { return 0; }
SEC("fentry/drm_sched_fault") int fault(void *ctx) { return 0; }
SEC("fentry/drm_sched_stop") int stop(void *ctx) { return 0; }
SEC("fentry/drm_sched_increase_karma") int karma(void *ctx) { return 0; }
SEC("fentry/drm_sched_resubmit_jobs") int resubmit(void *ctx) { return 0; }
SEC("fentry/drm_sched_start") int start(void *ctx) { return 0; }
/* 6.8+: a ring reset's; drm's wedged event, 6.14+; amdgpu's GPU reset. */
SEC("fentry/drm_sched_wqueue_stop") int wqueue_stop(void *ctx) { return 0; }
SEC("fentry/drm_sched_wqueue_start") int wqueue_start(void *ctx) { return 0; }
SEC("fentry/drm_dev_wedged_event") int wedged(void *ctx) { return 0; }
SEC("fentry/amdgpu_device_gpu_recover") int gpu_recover(void *ctx) { return 0; }
SEC("fexit/amdgpu_device_gpu_recover") int gpu_recover_exit(void *ctx) { return 0; }
/* A device coredump kept: its device added. */
SEC("fentry/device_add") int coredump(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
