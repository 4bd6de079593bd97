// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that do nothing, on amdkfd's hot hooks: a KFD ioctl's entry and
 * return (kfd_ioctl): what tracing a KFD call costs at the least.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe") int ioctl_entry(void *ctx) { return 0; }
SEC("kretprobe") int ioctl_return(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
