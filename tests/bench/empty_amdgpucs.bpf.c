// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on amdgpucs's per-job hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/amdgpu_cs_ioctl") int cs_ioctl(void *ctx) { return 0; }
SEC("tp_btf/amdgpu_sched_run_job") int run_job(void *ctx) { return 0; }
/* A job's end: Linux <= 6.16, >= 6.17 */
SEC("tp_btf/drm_sched_process_job") int done_old(void *ctx) { return 0; }
SEC("tp_btf/drm_sched_job_done") int done_new(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
