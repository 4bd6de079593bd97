/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvdrv's hooks: the driver has no tracepoints, so each role (opens, ioctls,
 * interrupts, ...) is a kprobe on the first of its candidate functions that
 * the loaded generation of nvidia.ko has (535 has a frontend,
 * nvidia_frontend_*; 550 does not), and maybe a kretprobe.
 */
#ifndef NVDRV_HOOKS_H
#define NVDRV_HOOKS_H

#include <bpf/libbpf.h>

#include "probe.h"

/* The BPF programs the roles use; nvdrv.c gives them, from its skeleton. */
enum prog_id {
	P_OPEN, P_OPEN_RET, P_CLOSE, P_IOCTL, P_IOCTL_RET, P_MMAP, P_MMAP_RET, P_FAULT,
	P_ISR, P_ISR_MSIX, P_ISR_MSIX_RET, P_BH, P_BH_UNLOCKED, P_P2P, P_P2P_RET, P_PRINTF,
	P_LOG_ERROR, P_POLL, P_POLL_RET, P_POWER, P_POWER_RET, P_VMA_OPEN, P_VMA_RELEASE,
	P_UVM_IOCTL,
	/* Kernels without bpf_get_attach_cookie: P_BH's and P_P2P's, one per cookie. */
	P_BH_KTHREAD, P_BH_MSIX_KTHREAD,
	P_P2P_GET_PAGES, P_P2P_GET_PAGES_PERSISTENT, P_P2P_PUT_PAGES, P_P2P_DMA_MAP_PAGES,
	P_P2P_DMA_UNMAP_PAGES, P_P2P_PUT_PAGES_PERSISTENT,
	NR_PROGS, P_NONE = -1,
};

/*
 * Before resolve_hooks(): the roles whose entry program is `entry` are not
 * wanted (another source covers them: the Xid tracepoint): neither
 * attached nor said to be missing.
 */
void drop_hooks(enum prog_id entry);

/*
 * Before loading: load only the programs of `progs` (indexed by enum
 * prog_id, kept for attach_hooks) that a role wanted uses, where the
 * kernel lacks BPF cookies the role's own program instead of the shared
 * one with a cookie. `uvm`: nvidia-uvm.ko is loaded; without it
 * /dev/nvidia-uvm's roles are not tried, and not said to be missing (CUDA
 * loads it at its first start).
 */
void choose_hook_programs(struct bpf_program *const *progs, bool uvm);

/* Whether nvidia-uvm.ko's roles are tried (after choose_hook_programs). */
bool uvm_hooked(void);

/*
 * After choose_hook_programs(), before loading: the kprobes of each role on
 * the first of its functions the module has (the kernel looks the names
 * up), made in the background while the programs load.
 */
void open_hooks(void);
/*
 * After loading: each role's programs attached to its kprobes. -ENOENT
 * (said) when none attached.
 */
int attach_hooks(void);

/*
 * The roles absent or refused, in one line on stderr (nothing when all
 * attached): once everything is attached, since a test takes a tracer's
 * first line on stderr for "attached".
 */
void say_missing_hooks(void);

/* The returns of calls the kretprobes missed, said as every loss is (links.h). */
void report_missed_returns(void);

/* Destroy what attach_hooks() attached. */
void detach_hooks(void);

#endif /* NVDRV_HOOKS_H */
