/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --leaks: the allocations not freed, from the kernel side's table of
 * outstanding allocations - per process, oldest first, with --stack each
 * one's allocating stack - at a process's exit, every interval, or at the
 * end.
 */
#ifndef APITRACE_LEAKS_H
#define APITRACE_LEAKS_H

#include <bpf/libbpf.h>
#include <linux/types.h>

#include "apitrace/procs.h"

struct leak_source {
	struct bpf_map *allocs;		/* struct alloc_key -> struct alloc_info */
	struct bpf_map *stacks;		/* struct alloc_key -> struct alloc_stack; NULL: no --stack */
	struct procs *procs;		/* names the processes, and the stacks' frames */
};

/*
 * The allocations of process `pid`, or of all (0): a heading per process,
 * a row per allocation, oldest first, dated by `now`.  `exit_comm` (NULL:
 * running) says the process exited, in cgroup `exit_cgroup`: it is then a
 * summary of its own, also when it left nothing.  0 or a negative errno.
 */
int print_leaks(const struct leak_source *src, __u32 pid, const char *exit_comm,
		__u64 exit_cgroup, __u64 now);

/* A process is gone: its allocations went with it. */
void forget_allocs(const struct leak_source *src, __u32 pid);

#endif /* APITRACE_LEAKS_H */
