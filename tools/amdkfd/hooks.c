// SPDX-License-Identifier: GPL-2.0
/* amdkfd's hooks: amdgpu's KFD functions by role (hooks.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "btf_targets.h"
#include "hooks.h"
#include "links.h"
#include "probe.h"

/* One role: a kprobe on `fn`, maybe a kretprobe; `shows` what is lost without it. */
static struct hook {
	const char *fn, *older;		/* the function, or where it lacks, its predecessor */
	const char *entry, *ret;	/* amdkfd.bpf.c's programs */
	const char *shows;
} hooks[] = {
#define HOOK(fn_, entry_, ret_, shows_) { .fn = fn_, .entry = entry_, .ret = ret_, .shows = shows_ }
	HOOK("kfd_ioctl", "ioctl_entry", "call_return", "ioctls"),
	HOOK("kfd_open", "open_entry", "call_return", "opens"),
	HOOK("kfd_release", "release_entry", NULL, "closes"),
	/* The SMI events: the queue, migration and fault ones are >= 5.19's. */
	HOOK("kfd_smi_event_queue_eviction", "evict_entry", NULL, "evictions"),
	HOOK("kfd_smi_event_queue_restore", "restore_entry", NULL, "restores"),
	HOOK("kfd_smi_event_migration_start", "migrate_start_entry", NULL, "SVM migration times"),
	HOOK("kfd_smi_event_migration_end", "migrate_end_entry", NULL, "SVM migrations"),
	HOOK("kfd_smi_event_page_fault_start", "fault_start_entry", NULL, "GPU page faults"),
	HOOK("kfd_smi_event_page_fault_end", "fault_end_entry", NULL, "GPU page fault times"),
	HOOK("kfd_smi_event_update_vmfault", "vmfault_entry", "vmfault_return", "VM faults"),
	/* The process of a VM fault's PASID: a lookup returning it, or 5.10's filling it. */
	{ .fn = "amdgpu_vm_get_task_info_pasid", .older = "amdgpu_vm_get_task_info",
	  .entry = "task_info_entry", .ret = "task_info_return", .shows = "VM faults' processes" },
	HOOK("kfd_smi_event_update_gpu_reset", "reset_entry", NULL, "GPU resets"),
#undef HOOK
};
#define NR_HOOKS (sizeof(hooks) / sizeof(hooks[0]))

/* Each hook's kprobes (entry NULL: amdkfd.bpf.c lacks the program). */
static struct kprobe_role roles[NR_HOOKS];
static struct kprobe_roles kprobes = { .role = roles, .n = NR_HOOKS };
/* attach_hooks()'s roles absent or refused, for say_missing_hooks(). */
static char missing[1024], lost[512];

void open_hooks(struct bpf_object *obj)
{
	size_t i;

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		roles[i].fns[0] = h->fn;
		roles[i].fns[1] = h->older;
		roles[i].nr_fns = h->older ? 2 : 1;
		roles[i].entry = bpf_object__find_program_by_name(obj, h->entry);
		roles[i].ret = h->ret ? bpf_object__find_program_by_name(obj, h->ret) : NULL;
	}
	kprobe_roles_open(&kprobes);
}

static void say(char *buf, size_t size, size_t *len, const char *what, const char *more)
{
	*len += snprintf(buf + *len, *len < size ? size - *len : 0, "%s%s%s", *len ? ", " : "",
			 what, more);
}

int attach_hooks(void)
{
	int attached = kprobe_roles_attach(&kprobes);
	size_t i, lm = 0, ll = 0;

	for (i = 0; i < NR_HOOKS; i++) {
		if (!roles[i].err)
			continue;
		say(missing, sizeof(missing), &lm, hooks[i].fn,
		    roles[i].err == -ENOENT ? "" : " (refused a kprobe)");
		say(lost, sizeof(lost), &ll, hooks[i].shows, "");
	}
	if (!attached) {
		fprintf(stderr, "amdkfd: no KFD function of amdgpu takes a kprobe: %s\n", missing);
		return -ENOENT;
	}
	return 0;
}

void say_missing_hooks(void)
{
	if (missing[0])
		fprintf(stderr, "amdkfd: amdgpu has no %s: not shown: %s\n", missing, lost);
}

bool migration_end_has_error(void)
{
	int n = btf_func_params("amdgpu", "kfd_smi_event_migration_end");

	return n >= 0 ? n >= 8 : kernel_release_at_least(6, 11);
}

unsigned int task_info_comm_offset(void)
{
	int off = btf_member_offset("amdgpu", "amdgpu_task_info", "task_name");

	if (off >= 0)
		return off;
	/* From 6.17 the task's pid and comm come first, drm's struct drm_wedge_task_info. */
	off = btf_member_offset("amdgpu", "amdgpu_task_info", "task");
	if (off >= 0)
		return off + 4;
	return kernel_release_at_least(6, 17) ? 4 : 16;
}

bool task_info_returned(void)
{
	size_t i;

	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].older && !roles[i].err && roles[i].found)
			return !strcmp(roles[i].found, hooks[i].fn);
	return false;
}

void report_missed_returns(void)
{
	kprobe_roles_report_missed(&kprobes);
}

void detach_hooks(void)
{
	kprobe_roles_destroy(&kprobes);
}
