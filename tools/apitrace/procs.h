/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The processes seen calling the API, to name what the summaries and reports
 * show: a process's command name and (-C) cgroup, the kernels it launched
 * (by cuModuleGetFunction's name, or the host stub's symbol), and the
 * processes that exited - still named until the summary after their exit,
 * then forgotten, their rows in the maps too.
 */
#ifndef APITRACE_PROCS_H
#define APITRACE_PROCS_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>
#include <linux/types.h>

#include "apitrace.h"
#include "uprobe_helpers.h"

struct procs {
	struct bpf_map *procs;		/* the kernel side's: pid -> struct proc_info */
	struct bpf_map *knames;		/* struct kname_key -> struct kname */
	struct syms_cache *syms;	/* the processes' symbols */
	struct exited_proc {
		__u32 pid;
		__u64 cgroup_id;
	} exited[MAX_PROCS];		/* since the last summary */
	int nr_exited;
};

/* 0, or -ENOMEM. */
int procs_init(struct procs *p, struct bpf_map *procs, struct bpf_map *knames);
void procs_free(struct procs *p);

/* A process's first call of the API: read its maps while it lives, to name its addresses later. */
void proc_new(struct procs *p, __u32 pid);

/* -p's process, known from the start: in the map, so its exit ends tracing. 0 or -errno. */
int proc_watch(struct procs *p, __u32 pid);

/* A process exited (cgroup_id: where it was), named still until forgotten. */
void proc_exited(struct procs *p, __u32 pid, __u64 cgroup_id);
bool proc_has_exited(const struct procs *p, __u32 pid);

/* Its command name in buf (COMM_LEN), or "?". */
const char *proc_comm(const struct procs *p, __u32 pid, char *buf);

/* -C: the cgroup it was in at its first call; NULL when unknown (or without -C). */
const char *proc_cgroup(const struct procs *p, __u32 pid);

/* The kernel a launch (function func) of process pid launched, `handle`. */
const char *kernel_name(const struct procs *p, __u32 pid, __u32 func, __u64 handle, char *buf,
			size_t size);

/*
 * After the summary that printed their last calls: forget the processes
 * that exited, their kernels' names, and their rows in maps[0..n) (keys
 * starting with a PID).
 */
void procs_forget_exited(struct procs *p, struct bpf_map *const *maps, size_t n);

#endif /* APITRACE_PROCS_H */
