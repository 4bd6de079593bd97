// SPDX-License-Identifier: GPL-2.0
/* Programs that do nothing, for cudatrace's hooks: a uprobe and a uretprobe per function. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("uprobe") int enter(void *ctx) { return 0; }
SEC("uretprobe") int leave(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
