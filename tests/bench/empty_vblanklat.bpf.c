// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, on vblanklat's vblank hooks: what tracing them costs at the least. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("tp_btf/drm_vblank_event") int vblank(void *ctx) { return 0; }
SEC("tp_btf/drm_vblank_event_queued") int queued(void *ctx) { return 0; }
SEC("tp_btf/drm_vblank_event_delivered") int delivered(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
