/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -p PID, -c COMM and --cgroup PATH in the kernel: whether the process on
 * the CPU is one the user asked for. The frontend sets targ_pid, targ_comm
 * and filter_cg before load (0, "" and false: every process), and puts the
 * cgroup's fd in cgroup_map after (cgroup_filter_apply()).
 */
#ifndef GPU_BPF_FILTER_BPF_H
#define GPU_BPF_FILTER_BPF_H

#include "kernel_types.bpf.h"

const volatile int targ_pid = 0;
const volatile char targ_comm[TASK_COMM_LEN] = {};
const volatile bool filter_cg = false;

/* The --cgroup directory: tasks in it or in any cgroup below it. */
struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroup_map SEC(".maps");

/* Is a filter set? (Then what happened before tracing cannot be told apart.) */
static __always_inline bool process_filtered(void)
{
	return targ_pid || targ_comm[0] || filter_cg;
}

/* Does a task named `comm` pass -c? */
static __always_inline bool comm_wanted(const char *comm)
{
	int i;

	if (!targ_comm[0])
		return true;
	for (i = 0; i < TASK_COMM_LEN; i++) {
		if (comm[i] != targ_comm[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

static __always_inline bool current_wanted(__u32 pid)
{
	char comm[TASK_COMM_LEN];

	if (targ_pid && pid != (__u32)targ_pid)
		return false;
	if (filter_cg && bpf_current_task_under_cgroup(&cgroup_map, 0) != 1)
		return false;
	if (!targ_comm[0])
		return true;
	bpf_get_current_comm(comm, sizeof(comm));
	return comm_wanted(comm);
}

#endif /* GPU_BPF_FILTER_BPF_H */
