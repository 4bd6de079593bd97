/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -p PID and -c COMM in the kernel: whether the process on the CPU is one
 * the user asked for. The frontend sets targ_pid and targ_comm before load
 * (0 and "": every process).
 */
#ifndef GPU_BPF_FILTER_BPF_H
#define GPU_BPF_FILTER_BPF_H

#include "kernel_types.bpf.h"

const volatile int targ_pid = 0;
const volatile char targ_comm[TASK_COMM_LEN] = {};

/* Is a filter set? (Then what happened before tracing cannot be told apart.) */
static __always_inline bool process_filtered(void)
{
	return targ_pid || targ_comm[0];
}

static __always_inline bool current_wanted(__u32 pid)
{
	char comm[TASK_COMM_LEN];
	int i;

	if (targ_pid && pid != (__u32)targ_pid)
		return false;
	if (!targ_comm[0])
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	for (i = 0; i < TASK_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

#endif /* GPU_BPF_FILTER_BPF_H */
