/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdkfd's hooks: the KFD has no tracepoints, so each role (ioctls, opens,
 * evictions, ...) is a kprobe, maybe with a kretprobe, on a function of the
 * amdgpu module; a kernel that lacks a role's function (5.10 has no queue
 * eviction events) loses only what that role shows.
 */
#ifndef AMDKFD_HOOKS_H
#define AMDKFD_HOOKS_H

#include <bpf/libbpf.h>

/*
 * Before loading: each role's kprobes on its function where amdgpu has it
 * (the kernel looks the names up), for its programs in `obj` (amdkfd.bpf.c's,
 * by name), made in the background while the programs load.
 */
void open_hooks(struct bpf_object *obj);
/* After loading: each role's programs attached. -ENOENT (said) when none attached. */
int attach_hooks(void);

/*
 * The roles absent or refused, in one line on stderr, once everything is
 * attached (a test takes a tracer's first line on stderr for "attached").
 */
void say_missing_hooks(void);

/* The returns of calls the kretprobes missed, said as every loss is (links.h). */
/*
 * kfd_smi_event_migration_end takes the error of the migration as its eighth
 * parameter: from amdgpu's BTF, or, for a module built without it, the
 * kernel's release (upstream 6.11 added it).
 */
bool migration_end_has_error(void);

/*
 * The process a VM fault's PASID belongs to, amdgpu's struct
 * amdgpu_task_info: where its task's name is (amdgpu's BTF, else the
 * kernel's release); once attached, whether the lookup returns it (else
 * 5.10's fills its third argument).
 */
unsigned int task_info_comm_offset(void);
bool task_info_returned(void);

void report_missed_returns(void);
void detach_hooks(void);

#endif /* AMDKFD_HOOKS_H */
