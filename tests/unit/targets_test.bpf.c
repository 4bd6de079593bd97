// SPDX-License-Identifier: GPL-2.0
/* test_btf_targets: programs whose targets btf_targets_resolve() finds before load. */
#include "kernel_types.bpf.h"

__u64 switches = 0;

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch)
{
	__sync_fetch_and_add(&switches, 1);
	return 0;
}

/* An event no kernel has: left to the load, which fails on it. */
SEC("tp_btf/gpu_bpf_no_such_event")
int BPF_PROG(on_nothing)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
