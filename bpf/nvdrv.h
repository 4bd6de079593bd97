/* SPDX-License-Identifier: GPL-2.0 */
/* nvdrv: records and table layouts shared by nvdrv.bpf.c and nvdrv.c */
#ifndef NVDRV_H
#define NVDRV_H

#include "histogram.h"
#include "nv_xid.h"

#define COMM_LEN	16
/* Rows for the whole session (rows.bpf.h: a table of 1 << bits fills before its last slot) */
#define CALL_ROW_BITS	12	/* 4096 (process, escape) rows */
#define RM_ROW_BITS	12	/* 4096 (process, escape, class/cmd, status) rows */
#define ERR_ROW_BITS	11	/* (process, escape, errno) rows */
#define DEV_ROW_BITS	11	/* (process, device node) rows */
#define IRQ_ROW_BITS	7	/* (GPU, interrupt kind) rows */
#define P2P_ROW_BITS	9	/* (process, p2p function) rows */
#define POWER_ROW_BITS	4	/* power_row: the driver's states and the cycles */
#define MAX_INFLIGHT	16384	/* calls between entry and return */
#define MAX_LIVE_VMAS	16384	/* mappings of the driver's files alive */

/* The interface layer's ioctl numbers (nv-ioctl-numbers.h): _IOC_NR. */
#define NV_ESC_IOCTL_XFER_CMD	0xd3
/* The resource manager's (nv_escape.h) whose object nvdrv reads. */
#define NV_ESC_RM_CONTROL	0x2a	/* NVOS54: its cmd */
#define NV_ESC_RM_ALLOC		0x2b	/* NVOS21, NVOS64: its hClass */
#define NV_ESC_RM_FREE		0x29	/* NVOS00 */
/*
 * A /dev/nvidia-uvm command (nvidia-uvm.ko's uvm_unlocked_ioctl: a plain
 * number, UVM_INITIALIZE 0x30000001, not _IOC-made) where an escape goes:
 * NV_ESC_UVM | cmd, so the two never share a row. Its RM status is where
 * the uvm_status map says (filled from tools/nvdrv/nvidia_names.c's table
 * for the loaded driver's version).
 */
#define NV_ESC_UVM		(1u << 31)
#define MAX_UVM_CMDS		128

/*
 * The RM's memory classes nvdrv counts (class/cl003e.h, cl0040.h, cl50a0.h,
 * cl0071.h) and where their allocation parameters hold the size, an NvU64
 * (nvos.h, the same in 535 and 550): NV_MEMORY_ALLOCATION_PARAMS.size at
 * 64 (after owner ... zcullCovg, rangeLo, rangeHi); the OS descriptor's
 * NV_OS_DESC_MEMORY_ALLOCATION_PARAMS.limit at 24, the size minus one.
 * X(class, offset, plus): the size is the NvU64 at offset, plus `plus`.
 */
#define NV_MEMORY_CLASSES(X)								\
	X(0x003e, 64, 0)	/* NV01_MEMORY_SYSTEM: system memory */			\
	X(0x0040, 64, 0)	/* NV01_MEMORY_LOCAL_USER: video memory */		\
	X(0x50a0, 64, 0)	/* NV50_MEMORY_VIRTUAL: GPU virtual address space */	\
	X(0x0071, 24, 1)	/* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR: pinned user memory */

/* Roles of the probed functions (BPF cookies of the shared programs). */
enum nv_irq_kind { IRQ_ISR, IRQ_MSIX, NR_IRQ_KINDS };
enum nv_bh_kind { BH_KTHREAD, BH_MSIX_KTHREAD, BH_UNLOCKED, NR_BH_KINDS };
/*
 * Power rows: nv_set_system_power_state's target (nv_power_state_t in nv.h:
 * /proc/driver/nvidia/suspend's "hibernate", "suspend", "resume"), and the
 * cycles, each from a suspend's (or hibernate's) entry to its resume's return.
 */
enum power_row { POWER_HIBERNATE, POWER_STANDBY, POWER_RUNNING, POWER_CYCLE, NR_POWER_ROWS };
enum nv_p2p_fn { P2P_GET_PAGES, P2P_GET_PAGES_PERSISTENT, P2P_PUT_PAGES, P2P_DMA_MAP_PAGES,
		 P2P_DMA_UNMAP_PAGES, P2P_PUT_PAGES_PERSISTENT, NR_P2P_FNS };

enum nvdrv_event_type {
	EV_OPEN,	/* open of a device node, with its result */
	EV_CLOSE,
	EV_IOCTL,	/* an ioctl, at its return */
	EV_MMAP,	/* an mmap, at its return */
	EV_FAULT,	/* nvidia_fault */
	EV_ISR,		/* a top half */
	EV_BH,		/* a bottom half */
	EV_P2P,		/* a p2p call, at its return */
	EV_XID,		/* an Xid (nv_xid.h: always sent, Xids are rare) */
	EV_POWER,	/* nv_set_system_power_state, at its return */
	EV_VMA_COPY,	/* nvidia_vma_open: a mapping copied (fork, split, mremap) */
	EV_VMA_RELEASE,	/* nvidia_vma_release: a mapping gone (munmap, exit) */
	/* The RM's objects, for GPU memory per process (always sent; not -e lines): */
	EV_RM_ALLOC,	/* an RM_ALLOC the RM made (any class) or refused (memory classes) */
	EV_RM_FREE,	/* an RM_FREE the RM did */
	EV_RM_CLOSE,	/* a close of the driver's file: the clients made through it die */
	NR_EVENT_TYPES,
};

/* Per (process, escape); the escape is the inner one of an XFER. */
struct call_key {
	__u32 pid;
	__u32 esc;
};

struct call_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;	/* of the process, when its row was made */
	__u64 errors;		/* negative returns */
	__u64 xfer;		/* calls that came through NV_ESC_IOCTL_XFER_CMD */
	struct lat_hist lat;	/* its count: the calls */
};

/* Per (process, RM escape, class or control command, RM status). */
struct rm_key {
	__u32 pid;
	__u32 esc;
	__u32 obj;	/* RM_ALLOC: hClass; RM_CONTROL: cmd; else 0 */
	__u32 status;
};

struct rm_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;
	__u64 count;
};

/* An RM row keeps statuses below this exactly (NV_STATUS codes are under 0x10000), the rest as it. */
#define RM_STATUS_KEPT	0x7ffff

/* Per (process, escape, errno) of failed ioctls. */
struct err_key {
	__u32 pid;
	__u32 esc;
	__u32 err;	/* errno (positive) */
	__u32 pad;
};

struct err_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;
	__u64 count;
};

/* Per (process, device node): dev is the kernel's dev_t (major << 20 | minor). */
struct dev_key {
	__u32 pid;
	__u32 dev;
};

struct dev_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;
	__u64 opens;
	__u64 open_errors;
	__u64 closes;
	__u64 mmaps;
	__u64 mmap_bytes;	/* of the vmas, mapped or not */
	__u64 mmap_errors;
	__u64 faults;
	__u64 polls;		/* the driver's poll calls (a poll() that sleeps makes two) */
	__u64 polls_ready;	/* ... that said the file had events */
	__u64 vma_copies;	/* nvidia_vma_open: mappings copied by fork, split or mremap */
	__u64 vma_releases;	/* nvidia_vma_release: mappings gone */
	__s64 live;		/* mappings alive now (a gauge): made or copied, less released */
};

/* Per (GPU, interrupt kind): gpu is domain << 16 | bus << 8 | slot. */
struct irq_key {
	__u32 gpu;
	__u32 kind;	/* enum nv_irq_kind */
};

struct irq_stats {
	__u64 top;		/* top halves */
	__u64 handled;		/* ... that returned IRQ_HANDLED */
	__u64 bottom;		/* bottom halves */
	struct lat_hist top_bottom;	/* top half -> its bottom half */
};

/* Per power row (enum power_row): the transitions to it, or the cycles. */
struct power_stats {
	__u64 calls;
	__u64 errors;		/* NV_STATUS other than NV_OK */
	struct lat_hist lat;	/* a transition's, or a whole cycle's */
};

struct p2p_key {
	__u32 pid;
	__u32 fn;	/* enum nv_p2p_fn */
};

struct p2p_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;
	__u64 calls;
	__u64 errors;	/* nonzero returns */
	__u64 bytes;	/* get_pages: the length asked for */
};

/* One event; the union's member by type. */
struct nvdrv_event {
	__u64 ts_ns;
	__u32 type;
	__u32 pid;
	__u32 tid;
	char comm[COMM_LEN];
	union {
		struct {		/* EV_OPEN, EV_CLOSE, EV_MMAP, EV_FAULT */
			__u32 dev;
			__s32 ret;
			__u64 bytes;
			__u64 lat_ns;	/* EV_OPEN, EV_MMAP */
		} file;
		struct {		/* EV_IOCTL */
			__u32 esc;	/* inner escape */
			__u32 size;	/* of the (inner) argument block */
			__u32 obj;
			__u32 status;
			__s64 ret;
			__u64 lat_ns;
			__u32 dev;
			__u8 xfer;
			__u8 has_obj;
			__u8 has_status;
			__u8 pad;
		} ioctl;
		struct {		/* EV_ISR, EV_BH */
			__u32 gpu;
			__u32 kind;
			__u32 irq;
			__s32 ret;
			__u64 lat_ns;	/* EV_BH: since the top half (0: none seen) */
		} irq;
		struct {		/* EV_P2P */
			__u32 fn;
			__s32 ret;
			__u64 bytes;
			__u64 va;
		} p2p;
		struct nv_xid xid;		/* EV_XID */
		struct {		/* EV_POWER */
			__u32 state;	/* enum power_row: the target */
			__u32 depth;	/* nv_pm_action_depth_t */
			__u32 status;	/* NV_STATUS */
			__u32 pad;
			__u64 lat_ns;	/* the transition */
			__u64 cycle_ns;	/* a resume ending a cycle: the cycle (else 0) */
		} power;
		struct {		/* EV_RM_ALLOC, EV_RM_FREE; EV_RM_CLOSE: file */
			__u32 client;	/* hRoot */
			__u32 parent;	/* hObjectParent */
			__u32 handle;	/* RM_ALLOC's hObjectNew, RM_FREE's hObjectOld */
			__u32 cls;	/* RM_ALLOC's hClass */
			__u32 status;	/* NV_STATUS */
			__u32 pad;
			__u64 size;	/* memory classes: bytes, from the allocation's parameters */
			__u64 file;	/* the struct file * it came through */
			__u64 cgroup_id;
		} rm;
	};
};

#endif /* NVDRV_H */
