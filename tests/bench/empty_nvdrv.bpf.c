// SPDX-License-Identifier: GPL-2.0
/*
 * Programs that do nothing, on nvdrv's hot hooks: an ioctl's entry and
 * return (nvidia_frontend_unlocked_ioctl in 535, nvidia_unlocked_ioctl in
 * 550: given at attach, empty PROG=FUNCTION) and nv_printf, which the RM
 * calls on many ioctls: what tracing an ioctl costs at the least.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("kprobe") int ioctl_entry(void *ctx) { return 0; }
SEC("kretprobe") int ioctl_return(void *ctx) { return 0; }
SEC("kprobe") int printf_entry(void *ctx) { return 0; }
/* With the two above on each of nvdrv's kprobes: its start-up's limit. */
SEC("raw_tp/sched_process_fork") int fork_entry(void *ctx) { return 0; }

char LICENSE[] SEC("license") = "GPL";
