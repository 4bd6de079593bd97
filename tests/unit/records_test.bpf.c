// SPDX-License-Identifier: GPL-2.0
/*
 * A classic tracepoint's program skipped on purpose, for test_records.c:
 * bpf_trace_printk() fires the bpf_trace/bpf_trace_printk event from
 * inside the BPF program that calls it. Called from a classic tracepoint's
 * program (the kernel holds bpf_prog_active), a classic program on that
 * event cannot run; called from a raw tracepoint's (which does not hold
 * it), it can. TP_RECORD_COUNTERS() must count both firings, and the runs
 * of the first kind only.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "tp_record.bpf.h"

#define NR_getpid 39	/* x86_64 */

const volatile __u32 targ_tgid = 0;

TP_RECORD_COUNTERS();

static __always_inline bool is_test(void)
{
	return bpf_get_current_pid_tgid() >> 32 == targ_tgid;
}

/* getppid(): a printk inside a classic tracepoint's program. */
SEC("tracepoint/syscalls/sys_enter_getppid")
int printk_in_classic(void *ctx)
{
	if (is_test())
		bpf_printk("gpu-bpf-tools records_test: nested");
	return 0;
}

/* getpid(): a printk inside a raw tracepoint's program. */
SEC("raw_tp/sys_enter")
int printk_in_raw(struct bpf_raw_tracepoint_args *ctx)
{
	if (is_test() && ctx->args[1] == NR_getpid)
		bpf_printk("gpu-bpf-tools records_test: free");
	return 0;
}

/* The record path's program, attached to bpf_trace/bpf_trace_printk by records_attach(). */
SEC("tracepoint")
int on_printk(void *ctx)
{
	TP_RECORD_RAN();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
