// SPDX-License-Identifier: GPL-2.0
/* nvdrv's hooks: nvidia.ko's functions by role and driver generation (hooks.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "nvdrv.h"
#include "hooks.h"
#include "links.h"
#include "probe.h"

/*
 * One role: the first of its candidate functions that the module has, with
 * a kprobe and maybe a kretprobe; `shows` what is lost without it (NULL:
 * nothing, another role covers it).
 */
#define UVM "nvidia_uvm:"	/* a function of nvidia-uvm.ko, not nvidia.ko */

static struct hook {
	const char *const fn[3];
	enum prog_id entry, ret;
	__u64 cookie;
	const char *shows;
} hooks[] = {
	{ { "nvidia_frontend_open", "nvidia_open" }, P_OPEN, P_OPEN_RET, 0, "opens" },
	{ { "nvidia_frontend_close", "nvidia_close" }, P_CLOSE, P_NONE, 0, "closes" },
	{ { "nvidia_frontend_unlocked_ioctl", "nvidia_unlocked_ioctl" }, P_IOCTL, P_IOCTL_RET, 0,
	  "ioctls" },
	/* 535's 32-bit entry; 550 serves it with nvidia_unlocked_ioctl. */
	{ { "nvidia_frontend_compat_ioctl" }, P_IOCTL, P_IOCTL_RET, 0, NULL },
	{ { "nvidia_frontend_mmap", "nvidia_mmap" }, P_MMAP, P_MMAP_RET, 0, "mmaps" },
	{ { "nvidia_fault" }, P_FAULT, P_NONE, 0, "faults" },
	/* The vm_operations of its mappings (static: in kallsyms, not exported). */
	{ { "nvidia_vma_open" }, P_VMA_OPEN, P_NONE, 0, "copied mappings" },
	{ { "nvidia_vma_release" }, P_VMA_RELEASE, P_NONE, 0, "unmaps" },
	{ { "nvidia_frontend_poll", "nvidia_poll" }, P_POLL, P_POLL_RET, 0, "polls" },
	{ { "nv_set_system_power_state" }, P_POWER, P_POWER_RET, 0, "suspends and resumes" },
	{ { "nvidia_isr" }, P_ISR, P_NONE, 0, "interrupts" },
	{ { "nvidia_isr_msix" }, P_ISR_MSIX, P_ISR_MSIX_RET, 0, "MSI-X interrupts" },
	{ { "nvidia_isr_kthread_bh" }, P_BH, P_NONE, BH_KTHREAD, "bottom halves" },
	{ { "nvidia_isr_msix_kthread_bh" }, P_BH, P_NONE, BH_MSIX_KTHREAD, "MSI-X bottom halves" },
	{ { "nvidia_isr_bh_unlocked" }, P_BH_UNLOCKED, P_NONE, BH_UNLOCKED, "unlocked bottom halves" },
	{ { "nvidia_p2p_get_pages" }, P_P2P, P_P2P_RET, P2P_GET_PAGES, "p2p get_pages" },
	{ { "nvidia_p2p_get_pages_persistent" }, P_P2P, P_P2P_RET, P2P_GET_PAGES_PERSISTENT,
	  "persistent p2p get_pages" },
	{ { "nvidia_p2p_put_pages" }, P_P2P, P_P2P_RET, P2P_PUT_PAGES, "p2p put_pages" },
	{ { "nvidia_p2p_put_pages_persistent" }, P_P2P, P_P2P_RET, P2P_PUT_PAGES_PERSISTENT,
	  "persistent p2p put_pages" },
	{ { "nvidia_p2p_dma_map_pages" }, P_P2P, P_P2P_RET, P2P_DMA_MAP_PAGES, "p2p dma_map_pages" },
	{ { "nvidia_p2p_dma_unmap_pages" }, P_P2P, P_P2P_RET, P2P_DMA_UNMAP_PAGES,
	  "p2p dma_unmap_pages" },
	{ { "nv_printf" }, P_PRINTF, P_NONE, 0, "the pid and name of Xids" },
	{ { "nv_log_error" }, P_LOG_ERROR, P_NONE, 0, "Xids not printed" },
	/*
	 * /dev/nvidia-uvm ("nvidia_uvm:": nvidia-uvm.ko's): its file_operations
	 * are the *_entry wrappers (UVM_ENTRY_WRAP), the functions they call
	 * static and maybe inlined.
	 */
	{ { UVM "uvm_open_entry", UVM "uvm_open" }, P_OPEN, P_OPEN_RET, 0, NULL },
	{ { UVM "uvm_release_entry", UVM "uvm_release" }, P_CLOSE, P_NONE, 0, NULL },
	{ { UVM "uvm_unlocked_ioctl_entry", UVM "uvm_unlocked_ioctl" }, P_UVM_IOCTL, P_IOCTL_RET, 0,
	  NULL },
};
#define NR_HOOKS (sizeof(hooks) / sizeof(hooks[0]))

static bool dropped[NR_HOOKS];	/* drop_hooks(): not wanted */
static struct bpf_program *const *progs;
static bool uvm_loaded;	/* nvidia-uvm.ko: its roles are tried */
/* attach_hooks()'s roles absent or refused, for say_missing_hooks(). */
static char missing[512], lost[512];
/* Each hook's kprobes (entry NULL: not wanted). */
static struct kprobe_role roles[NR_HOOKS];
static struct kprobe_roles kprobes = { .role = roles, .n = NR_HOOKS };

/* Without BPF cookies: the program of the shared one's role `cookie`. */
static enum prog_id cookieless(enum prog_id id, __u64 cookie)
{
	if (id == P_BH)
		return cookie == BH_MSIX_KTHREAD ? P_BH_MSIX_KTHREAD : P_BH_KTHREAD;
	if (id == P_P2P)
		return P_P2P_GET_PAGES + cookie;
	return id;
}

void drop_hooks(enum prog_id entry)
{
	size_t i;

	for (i = 0; i < NR_HOOKS; i++)
		if (hooks[i].entry == entry)
			dropped[i] = true;
}

static bool is_uvm(const struct hook *h)
{
	return !strncmp(h->fn[0], UVM, strlen(UVM));
}

/* The function's name, without the module's prefix. */
static const char *fn_name(const char *fn)
{
	return strncmp(fn, UVM, strlen(UVM)) ? fn : fn + strlen(UVM);
}

void choose_hook_programs(struct bpf_program *const *p, bool uvm)
{
	bool used[NR_PROGS] = {};
	bool cookies = kernel_has_attach_cookie();
	size_t i;
	int id;

	progs = p;
	uvm_loaded = uvm;
	for (i = 0; i < NR_HOOKS; i++) {
		if (!cookies)
			hooks[i].entry = cookieless(hooks[i].entry, hooks[i].cookie);
		if (dropped[i] || (is_uvm(&hooks[i]) && !uvm))
			continue;
		used[hooks[i].entry] = true;
		if (hooks[i].ret != P_NONE)
			used[hooks[i].ret] = true;
	}
	for (id = 0; id < NR_PROGS; id++)
		bpf_program__set_autoload(progs[id], used[id]);
}

void open_hooks(void)
{
	bool cookies = kernel_has_attach_cookie();
	size_t i;
	int n;

	for (i = 0; i < NR_HOOKS; i++) {
		struct hook *h = &hooks[i];
		struct kprobe_role *r = &roles[i];

		if (dropped[i] || (is_uvm(h) && !uvm_loaded))
			continue;
		for (n = 0; n < 3 && h->fn[n]; n++)
			r->fns[n] = fn_name(h->fn[n]);
		r->nr_fns = n;
		r->entry = progs[h->entry];
		r->ret = h->ret != P_NONE ? progs[h->ret] : NULL;
		/* Without cookies (the role's own program), a nonzero one is refused. */
		r->cookie = cookies ? h->cookie : 0;
	}
	kprobe_roles_open(&kprobes);
}

/* Attach every role the module has; the ones absent or refused said in one line. */
int attach_hooks(void)
{
	int attached = kprobe_roles_attach(&kprobes);
	size_t i, lm = 0, ll = 0;

	for (i = 0; i < NR_HOOKS; i++) {
		const struct kprobe_role *r = &roles[i];

		if (!r->entry || !r->err || !hooks[i].shows)
			continue;
		lm += snprintf(missing + lm, lm < sizeof(missing) ? sizeof(missing) - lm : 0, "%s%s%s",
			       lm ? ", " : "", r->err == -ENOENT ? hooks[i].fn[0] : r->found,
			       r->err == -ENOENT ? "" : " (refused a kprobe)");
		ll += snprintf(lost + ll, ll < sizeof(lost) ? sizeof(lost) - ll : 0, "%s%s",
			       ll ? ", " : "", hooks[i].shows);
	}
	if (!attached) {
		fprintf(stderr, "nvdrv: no function of nvidia.ko takes a kprobe: %s\n", missing);
		return -ENOENT;
	}
	return 0;
}

bool uvm_hooked(void)
{
	return uvm_loaded;
}

void say_missing_hooks(void)
{
	if (missing[0])
		fprintf(stderr, "nvdrv: nvidia.ko has no %s: not shown: %s\n", missing, lost);
}

void report_missed_returns(void)
{
	kprobe_roles_report_missed(&kprobes);
}

void detach_hooks(void)
{
	kprobe_roles_destroy(&kprobes);
}
