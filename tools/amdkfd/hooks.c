// SPDX-License-Identifier: GPL-2.0
/* amdkfd's hooks: amdgpu's KFD functions by role (hooks.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hooks.h"
#include "links.h"

/* One role: a kprobe on `fn`, maybe a kretprobe; `shows` what is lost without it. */
static struct hook {
	const char *fn;
	const char *entry, *ret;	/* amdkfd.bpf.c's programs */
	const char *shows;
	struct bpf_program *entry_prog, *ret_prog;
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
	HOOK("kfd_smi_event_update_vmfault", "vmfault_entry", NULL, "VM faults"),
	HOOK("kfd_smi_event_update_gpu_reset", "reset_entry", NULL, "GPU resets"),
#undef HOOK
};
#define NR_HOOKS (sizeof(hooks) / sizeof(hooks[0]))

static struct bpf_link *links[2 * NR_HOOKS];	/* role i's: 2i, 2i + 1 */
static int hook_err[NR_HOOKS];			/* attach_hook()'s */
static int nr_links;
/* attach_hooks()'s roles absent or refused, for say_missing_hooks(). */
static char missing[1024], lost[512];

void choose_hook_programs(struct bpf_object *obj)
{
	size_t i;

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];

		h->entry_prog = bpf_object__find_program_by_name(obj, h->entry);
		h->ret_prog = h->ret ? bpf_object__find_program_by_name(obj, h->ret) : NULL;
	}
}

/*
 * Role i's kprobe and kretprobe, into links[2i] and links[2i + 1];
 * hook_err[i] 0 or -errno (-ENOENT: amdgpu has no such function). From
 * several threads at once (links_parallel).
 */
static void attach_hook(int i, void *unused)
{
	struct hook *h = &hooks[i];
	int which;

	links[2 * i] = attach_kprobe_first(h->entry_prog, &h->fn, 1, false, 0, &which);
	hook_err[i] = links[2 * i] ? 0 : -errno;
	if (hook_err[i] || !h->ret_prog)
		return;
	links[2 * i + 1] = attach_kprobe_first(h->ret_prog, &h->fn, 1, true, 0, &which);
	hook_err[i] = links[2 * i + 1] ? 0 : -errno;
}

static void say(char *buf, size_t size, size_t *len, const char *what, const char *more)
{
	*len += snprintf(buf + *len, *len < size ? size - *len : 0, "%s%s%s", *len ? ", " : "",
			 what, more);
}

int attach_hooks(void)
{
	size_t i, lm = 0, ll = 0;
	int attached = 0;

	/* Each kprobe waits in the kernel (its name looked up, code patched): overlapped. */
	links_parallel(NR_HOOKS, attach_hook, NULL);
	nr_links = 2 * NR_HOOKS;
	for (i = 0; i < NR_HOOKS; i++) {
		if (!hook_err[i]) {
			attached++;
			continue;
		}
		say(missing, sizeof(missing), &lm, hooks[i].fn,
		    hook_err[i] == -ENOENT ? "" : " (refused a kprobe)");
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

void detach_hooks(void)
{
	links_destroy_all(links, nr_links);
	nr_links = 0;
}
