// SPDX-License-Identifier: GPL-2.0
/*
 * nvdrv: NVIDIA's kernel driver (nvidia.ko) seen from its entry points.
 *
 * The driver has no tracepoints and, built by DKMS, usually no BTF: every
 * hook is a kprobe or kretprobe on a function of the interface layer (the
 * part of nvidia.ko built from C on the machine), attached by name by the
 * frontend to what the loaded module has (each generation names its entry
 * points differently); the programs here are generic and read their
 * arguments from registers. Kernel structures (file, inode, vma) are read
 * with CO-RE against vmlinux; the driver's own (nv_state_t's PCI location,
 * the p2p page table) at the offsets both generations share.
 *
 * Counters only grow: the frontend prints what changed since its previous
 * summary.
 */
#include "kernel_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a kprobe */
#include "tool.bpf.h"
#include "tp_record.bpf.h"
#include "maps.bpf.h"
#include "nvdrv.h"
#include "nv_xid.bpf.h"


__u64 dropped_rows = 0;		/* a table was full */
__u64 dropped_inflight = 0;	/* calls not followed to their return */

/* ---- the kernel's types: only the members read -------------------------- */

struct inode {
	u32 i_rdev;
} __core;

struct file {
	struct inode *f_inode;
} __core;

struct mm_struct;

struct task_struct {
	int tgid;
	struct mm_struct *mm;
} __core;

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	struct file *vm_file;
} __core;

struct vm_fault {
	struct vm_area_struct *vma;
} __core;

/* struct nvidia_p2p_page_table (nv-p2p.h): version, page_size, pages, entries. */
#define P2P_PT_PAGE_SIZE	4
#define P2P_PT_ENTRIES		16

/* ---- maps ----------------------------------------------------------------- */

ROWS(calls, struct call_key, struct call_stats, CALL_ROW_BITS);
ROWS(rm_rows, struct rm_key, struct rm_stats, RM_ROW_BITS);
ROWS(err_rows, struct err_key, struct err_stats, ERR_ROW_BITS);
ROWS(dev_rows, struct dev_key, struct dev_stats, DEV_ROW_BITS);
ROWS(irq_rows, struct irq_key, struct irq_stats, IRQ_ROW_BITS);
ROWS(p2p_rows, struct p2p_key, struct p2p_stats, P2P_ROW_BITS);
ROWS(power_rows, __u32, struct power_stats, POWER_ROW_BITS);

/* An ioctl between its entry and its return, per thread (inflight.bpf.h). */
struct ioctl_state {
	__u64 start_ns;		/* first: never 0 in a call */
	__u64 ptr;		/* the (inner) argument block in user space */
	__u32 esc;		/* the (inner) escape */
	__u32 size;
	__u32 obj;
	__u32 dev;
	__u8 xfer;
	__u8 has_obj;
	__u8 pad[6];
	__u64 file;		/* the struct file *: the RM's clients die with it */
};
INFLIGHT(ioctls, struct ioctl_state, MAX_INFLIGHT);

/*
 * An open, mmap or poll between entry and return, per thread: hash maps by
 * thread id, these calls being rare beside ioctls (INFLIGHT() is for those).
 */
struct file_state {
	__u64 start_ns;
	__u64 bytes;
	__u64 vma;	/* mmap: the vma being mapped */
	__u32 dev;
	__u32 pad;
};
HASH_MAP(opens, __u64, struct file_state, MAX_INFLIGHT);
HASH_MAP(mmaps, __u64, struct file_state, MAX_INFLIGHT);
HASH_MAP(polls, __u64, struct file_state, MAX_INFLIGHT);

/*
 * A mapping of the driver's, by its vma, and the row whose LIVE counts it;
 * pid 0: a fork's copy, the process whose address space holds it.
 */
HASH_MAP(live_vmas, __u64, struct dev_key, MAX_LIVE_VMAS);

/*
 * A fork copies the parent's mappings before the child has its pid: the
 * copies wait here, by the child's address space, until the fork is done.
 */
#define FORK_DEVS 4
struct fork_copies {
	__u32 dev[FORK_DEVS];
	__u32 n[FORK_DEVS];
};
HASH_MAP(fork_pending, __u64, struct fork_copies, 256);

/* A power transition between its entry and return, per thread (a hash map, as opens). */
struct power_call {
	__u64 start_ns;
	__u32 state;
	__u32 depth;
};
HASH_MAP(power_calls, __u64, struct power_call, 64);
/* The entry of the suspend that the driver is in (0: running). */
__u64 suspended_since = 0;

/* A p2p call between its entry and return, per thread (a hash map, as opens). */
struct p2p_state {
	__u64 bytes;
	__u64 va;
	__u32 fn;
	__u32 pad;
};
HASH_MAP(p2ps, __u64, struct p2p_state, MAX_INFLIGHT);

/* The last top half of each device (nv_linux_state_t *), for its bottom half. */
struct top_half {
	__u64 ts;
	__u32 kind;	/* enum nv_irq_kind */
	__u32 pad;
};
HASH_MAP(top_halves, __u64, struct top_half, 64);

/* nvidia_isr_msix calls nvidia_isr: set while in the former, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} in_msix SEC(".maps");

/* A UVM command's RM status offset (NV_ESC_UVM): the frontend fills it. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_UVM_CMDS);
	__type(key, __u32);
	__type(value, __s32);
} uvm_status SEC(".maps");

/* ---- helpers ---------------------------------------------------------------- */

static __always_inline __u32 file_dev(struct file *file)
{
	return file ? BPF_CORE_READ(file, f_inode, i_rdev) : 0;
}

static __always_inline struct nvdrv_event *event_new(__u32 type, bool always)
{
	struct nvdrv_event *e;
	__u64 id;

	/* Before any helper: without -e every ioctl's return comes through here. */
	if (!emit_events && !always)
		return NULL;
	id = bpf_get_current_pid_tgid();
	e = event_reserve(sizeof(*e));
	if (!e)
		return NULL;
	e->ts_ns = bpf_ktime_get_ns();
	e->type = type;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	return e;
}

/*
 * Where the RM writes its status in the argument block of an RM escape, by
 * escape and block size (nvos.h, nv_escape.h; the same in 535 and 550 but
 * for UNMAP_MEMORY_DMA, which grew); -1: none.
 */
static __always_inline int rm_status_offset(__u32 esc, __u32 size)
{
	if (esc & NV_ESC_UVM) {
		__u32 cmd = esc & ~NV_ESC_UVM;
		__s32 *off = bpf_map_lookup_elem(&uvm_status, &cmd);

		return off ? *off : -1;
	}
	switch (esc) {
	case 0x27: return size == 56 ? 40 : -1;	/* RM_ALLOC_MEMORY: NVOS02 + fd */
	case 0x28: return size == 20 ? 16 : -1;	/* RM_ALLOC_OBJECT: NVOS05 */
	case 0x29: return size == 16 ? 12 : -1;	/* RM_FREE: NVOS00 */
	case NV_ESC_RM_CONTROL: return size == 32 ? 28 : -1;	/* NVOS54 */
	case NV_ESC_RM_ALLOC: return size == 32 ? 28 : size == 48 ? 40 : -1;	/* NVOS21, NVOS64 */
	case 0x34: return size == 28 ? 24 : -1;	/* RM_DUP_OBJECT: NVOS55 */
	case 0x35: return size == 24 ? 20 : -1;	/* RM_SHARE: NVOS57 */
	case 0x4a: return size == 184 ? 20 : -1;	/* RM_VID_HEAP_CONTROL: NVOS32 */
	case 0x4e: return size == 56 ? 40 : -1;	/* RM_MAP_MEMORY: NVOS33 + fd */
	case 0x4f: return size == 32 ? 24 : -1;	/* RM_UNMAP_MEMORY: NVOS34 */
	case 0x57: return size == 56 ? 48 : -1;	/* RM_MAP_MEMORY_DMA: NVOS46 */
	case 0x58: return size == 40 ? 32 : size == 48 ? 40 : -1;	/* RM_UNMAP_MEMORY_DMA: NVOS47 */
	case 0x5e: return size == 40 ? 32 : -1;	/* RM_UPDATE_DEVICE_MAPPING_INFO: NVOS56 */
	case 0xce: case 0xcf: return size == 16 ? 12 : -1;	/* ALLOC/FREE_OS_EVENT */
	}
	return -1;
}

/* ---- open, close, mmap, fault -------------------------------------------------- */

static __always_inline struct dev_stats *dev_row(__u32 pid, __u32 dev)
{
	struct dev_key key = { .pid = pid, .dev = dev };

	return ROWS_STATS(dev_rows, key, &dropped_rows);
}

static __always_inline void file_event(__u32 type, __u32 dev, __s32 ret, __u64 bytes, __u64 lat_ns)
{
	struct nvdrv_event *e = event_new(type, false);

	if (!e)
		return;
	e->file.dev = dev;
	e->file.ret = ret;
	e->file.bytes = bytes;
	e->file.lat_ns = lat_ns;
	event_submit(e);
}

/* nvidia_frontend_open / nvidia_open (struct inode *, struct file *) */
SEC("kprobe")
int BPF_KPROBE(open_entry, struct inode *inode)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state st = {};

	if (!current_wanted(id >> 32))
		return 0;
	st.start_ns = bpf_ktime_get_ns();
	st.dev = inode ? BPF_CORE_READ(inode, i_rdev) : 0;
	if (bpf_map_update_elem(&opens, &id, &st, BPF_ANY))
		__sync_fetch_and_add(&dropped_inflight, 1);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(open_return, int ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state *st = bpf_map_lookup_elem(&opens, &id);
	struct dev_stats *r;

	if (!st)
		return 0;
	r = dev_row(id >> 32, st->dev);
	if (r) {
		__sync_fetch_and_add(&r->opens, 1);
		if (ret < 0)
			__sync_fetch_and_add(&r->open_errors, 1);
	}
	file_event(EV_OPEN, st->dev, ret, 0, bpf_ktime_get_ns() - st->start_ns);
	bpf_map_delete_elem(&opens, &id);
	return 0;
}

/* nvidia_frontend_close / nvidia_close (struct inode *, struct file *) */
SEC("kprobe")
int BPF_KPROBE(close_entry, struct inode *inode, struct file *file)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, dev;
	struct dev_stats *r;
	struct nvdrv_event *e;

	/*
	 * Whoever closes it (an exiting task, or a kworker's delayed fput):
	 * the RM frees the clients made through it (rm_memory.c follows them).
	 */
	e = event_new(EV_RM_CLOSE, true);
	if (e) {
		e->rm.file = (__u64)file;
		event_submit(e);
	}
	if (!current_wanted(pid))
		return 0;
	dev = inode ? BPF_CORE_READ(inode, i_rdev) : 0;
	r = dev_row(pid, dev);
	if (r)
		__sync_fetch_and_add(&r->closes, 1);
	file_event(EV_CLOSE, dev, 0, 0, 0);
	return 0;
}

/* A mapping of (pid, dev) alive from now: counted in its row's LIVE until released. */
static __always_inline void vma_track(__u64 vma, __u32 pid, __u32 dev)
{
	struct dev_key key = { .pid = pid, .dev = dev };
	struct dev_stats *r = dev_row(pid, dev);

	if (!r)
		return;
	if (bpf_map_update_elem(&live_vmas, &vma, &key, BPF_NOEXIST)) {
		__sync_fetch_and_add(&dropped_rows, 1);
		return;
	}
	__sync_fetch_and_add(&r->live, 1);
}

/* nvidia_frontend_mmap / nvidia_mmap (struct file *, struct vm_area_struct *) */
SEC("kprobe")
int BPF_KPROBE(mmap_entry, struct file *file, struct vm_area_struct *vma)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state st = {};

	if (!vma || !current_wanted(id >> 32))
		return 0;
	st.start_ns = bpf_ktime_get_ns();
	st.dev = file_dev(file);
	st.bytes = BPF_CORE_READ(vma, vm_end) - BPF_CORE_READ(vma, vm_start);
	st.vma = (__u64)vma;
	if (bpf_map_update_elem(&mmaps, &id, &st, BPF_ANY))
		__sync_fetch_and_add(&dropped_inflight, 1);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(mmap_return, int ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state *st = bpf_map_lookup_elem(&mmaps, &id);
	struct dev_stats *r;

	if (!st)
		return 0;
	r = dev_row(id >> 32, st->dev);
	if (r) {
		__sync_fetch_and_add(&r->mmaps, 1);
		__sync_fetch_and_add(&r->mmap_bytes, st->bytes);
		if (ret < 0)
			__sync_fetch_and_add(&r->mmap_errors, 1);
	}
	if (ret == 0)
		vma_track(st->vma, id >> 32, st->dev);
	file_event(EV_MMAP, st->dev, ret, st->bytes, bpf_ktime_get_ns() - st->start_ns);
	bpf_map_delete_elem(&mmaps, &id);
	return 0;
}

/* ---- the mappings' lifecycle ------------------------------------------------------ */

static __always_inline struct mm_struct *current_mm(void)
{
	return BPF_CORE_READ((struct task_struct *)bpf_get_current_task(), mm);
}

/* A fork's copy into the child's address space `mm`, counted when the fork is done. */
static __always_inline void fork_copy(__u64 vma, struct mm_struct *mm, __u32 dev)
{
	struct fork_copies zero = {}, *p;
	__u64 key = (__u64)mm;
	struct dev_key owner = { .pid = 0, .dev = dev };
	int i;

	p = map_lookup_or_init(&fork_pending, &key, &zero, &dropped_rows);
	if (!p)
		return;
	for (i = 0; i < FORK_DEVS; i++) {
		if (p->n[i] && p->dev[i] != dev)
			continue;
		p->dev[i] = dev;
		p->n[i]++;
		if (bpf_map_update_elem(&live_vmas, &vma, &owner, BPF_NOEXIST))
			__sync_fetch_and_add(&dropped_rows, 1);
		return;
	}
	__sync_fetch_and_add(&dropped_rows, 1);
}

/*
 * nvidia_vma_open (struct vm_area_struct *): the kernel made a copy of one
 * of the driver's mappings - a fork's child, either half of a split by a
 * partial munmap or mprotect, an mremap's new place. The first mapping
 * comes from mmap, which does not call it.
 */
SEC("kprobe")
int BPF_KPROBE(vma_open_entry, struct vm_area_struct *vma)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, dev = file_dev(BPF_CORE_READ(vma, vm_file));
	struct mm_struct *mm = BPF_CORE_READ(vma, vm_mm);
	struct dev_stats *r;

	if (mm != current_mm()) {
		fork_copy((__u64)vma, mm, dev);
	} else {
		if (!current_wanted(pid))
			return 0;
		r = dev_row(pid, dev);
		if (r)
			__sync_fetch_and_add(&r->vma_copies, 1);
		vma_track((__u64)vma, pid, dev);
	}
	file_event(EV_VMA_COPY, dev, 0, BPF_CORE_READ(vma, vm_end) - BPF_CORE_READ(vma, vm_start), 0);
	return 0;
}

/* A fork done: its copies of the driver's mappings are the child's. */
SEC("raw_tp/sched_process_fork")
int BPF_PROG(fork_mappings, struct task_struct *parent, struct task_struct *child)
{
	__u64 key = (__u64)BPF_CORE_READ(child, mm);
	struct fork_copies *p = bpf_map_lookup_elem(&fork_pending, &key);
	__u32 pid = BPF_CORE_READ(child, tgid);
	struct dev_stats *r;
	int i;

	if (!p)
		return 0;
	for (i = 0; i < FORK_DEVS && current_wanted(pid); i++) {
		if (!p->n[i])
			continue;
		r = dev_row(pid, p->dev[i]);
		if (!r)
			continue;
		__sync_fetch_and_add(&r->vma_copies, p->n[i]);
		__sync_fetch_and_add(&r->live, p->n[i]);
	}
	bpf_map_delete_elem(&fork_pending, &key);
	return 0;
}

/*
 * nvidia_vma_release (struct vm_area_struct *): a mapping gone, at munmap
 * or when its process exits. Counted on the row that made it; one made
 * before tracing began counts on the current process, with no LIVE to end.
 */
SEC("kprobe")
int BPF_KPROBE(vma_release_entry, struct vm_area_struct *vma)
{
	__u64 key = (__u64)vma;
	struct dev_key *owner = bpf_map_lookup_elem(&live_vmas, &key);
	__u32 pid, dev;
	struct dev_stats *r;

	if (owner && !owner->pid) {
		__u64 mm = (__u64)BPF_CORE_READ(vma, vm_mm);

		/* A copy of a fork that failed (never done): never counted. */
		if (bpf_map_lookup_elem(&fork_pending, &mm)) {
			bpf_map_delete_elem(&live_vmas, &key);
			return 0;
		}
	}
	if (owner) {
		/* A fork's copy: the process whose address space it is, releasing it. */
		pid = owner->pid ?: bpf_get_current_pid_tgid() >> 32;
		dev = owner->dev;
		if (!owner->pid && !current_wanted(pid)) {
			bpf_map_delete_elem(&live_vmas, &key);
			return 0;
		}
	} else {
		pid = bpf_get_current_pid_tgid() >> 32;
		dev = file_dev(BPF_CORE_READ(vma, vm_file));
		if (!current_wanted(pid))
			return 0;
	}
	r = dev_row(pid, dev);
	if (r) {
		__sync_fetch_and_add(&r->vma_releases, 1);
		if (owner)
			__sync_fetch_and_add(&r->live, -1);
	}
	if (owner)
		bpf_map_delete_elem(&live_vmas, &key);
	file_event(EV_VMA_RELEASE, dev, 0, BPF_CORE_READ(vma, vm_end) - BPF_CORE_READ(vma, vm_start), 0);
	return 0;
}

/* nvidia_fault (struct vm_fault *) */
SEC("kprobe")
int BPF_KPROBE(fault_entry, struct vm_fault *vmf)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, dev;
	struct dev_stats *r;

	if (!vmf || !current_wanted(pid))
		return 0;
	dev = file_dev(BPF_CORE_READ(vmf, vma, vm_file));
	r = dev_row(pid, dev);
	if (r)
		__sync_fetch_and_add(&r->faults, 1);
	file_event(EV_FAULT, dev, 0, 0, 0);
	return 0;
}

/*
 * nvidia_frontend_poll / nvidia_poll (struct file *, poll_table *): a
 * client waiting for the RM's events; the mask at return says whether it
 * had some. Counted, never sent per call: monitors poll all the time.
 */
SEC("kprobe")
int BPF_KPROBE(poll_entry, struct file *file)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state st = {};

	if (!current_wanted(id >> 32))
		return 0;
	st.dev = file_dev(file);
	if (bpf_map_update_elem(&polls, &id, &st, BPF_ANY))
		__sync_fetch_and_add(&dropped_inflight, 1);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(poll_return, unsigned int mask)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct file_state *st = bpf_map_lookup_elem(&polls, &id);
	struct dev_stats *r;

	if (!st)
		return 0;
	r = dev_row(id >> 32, st->dev);
	if (r) {
		__sync_fetch_and_add(&r->polls, 1);
		if (mask)
			__sync_fetch_and_add(&r->polls_ready, 1);
	}
	bpf_map_delete_elem(&polls, &id);
	return 0;
}

/* ---- ioctls --------------------------------------------------------------------- */

/*
 * Where a memory class's allocation parameters (RM_ALLOC's pAllocParms)
 * hold the size in bytes (NV_MEMORY_CLASSES), and what to add to that
 * NvU64; -1 for the classes that are not memory.
 */
static __always_inline int mem_size_offset(__u32 cls, __u64 *plus)
{
	switch (cls) {
#define MEM_CASE(c, off, p) case c: *plus = p; return off;
	NV_MEMORY_CLASSES(MEM_CASE)
#undef MEM_CASE
	}
	return -1;
}

/*
 * An RM_ALLOC or RM_FREE the RM answered (status read back): for the
 * object tree that GPU memory per process is counted from (rm_memory.c).
 * The RM_ALLOCs it made, of any class (a memory object's parents, its
 * client), and the ones of memory classes it refused; the RM_FREEs it did.
 */
static __always_inline void rm_object_event(const struct ioctl_state *st, __u32 status)
{
	struct { __u32 client, parent, handle, cls; __u64 params; } b = {};
	struct nvdrv_event *e;
	__u64 size = 0, plus = 0;
	int off = -1;

	if (st->esc == NV_ESC_RM_FREE) {
		if (st->size != 16 || status || bpf_probe_read_user(&b, 12, (void *)st->ptr))
			return;
	} else {
		/* NVOS21 (32 bytes) or NVOS64 (48): the same first 24 */
		if ((st->size != 32 && st->size != 48) ||
		    bpf_probe_read_user(&b, sizeof(b), (void *)st->ptr))
			return;
		off = mem_size_offset(b.cls, &plus);
		if (status && off < 0)
			return;
		/* Read back after the call: the RM writes the size it allocated. */
		if (off >= 0 && b.params && !bpf_probe_read_user(&size, sizeof(size), (void *)b.params + off))
			size += plus;
	}
	e = event_new(st->esc == NV_ESC_RM_FREE ? EV_RM_FREE : EV_RM_ALLOC, true);
	if (!e)
		return;
	e->rm.client = b.client;
	e->rm.parent = b.parent;
	e->rm.handle = b.handle;
	e->rm.cls = st->esc == NV_ESC_RM_FREE ? 0 : b.cls;
	e->rm.status = status;
	e->rm.size = size;
	e->rm.file = st->file;
	e->rm.cgroup_id = bpf_get_current_cgroup_id();
	event_submit(e);
}

/* What both ioctl entries keep for the return: when, which file, the user block. */
static __always_inline void ioctl_begin(struct ioctl_state *st, struct file *file, unsigned long arg)
{
	st->start_ns = bpf_ktime_get_ns();
	/* Only -e's lines show it: two reads the summaries do without. */
	st->dev = emit_events ? file_dev(file) : 0;
	st->ptr = arg;
	st->file = (__u64)file;
}

static __always_inline void ioctl_save(__u64 id, const struct ioctl_state *st)
{
	if (INFLIGHT_SAVE(ioctls, id, st))
		__sync_fetch_and_add(&dropped_inflight, 1);
}

/*
 * nvidia_frontend_unlocked_ioctl / _compat_ioctl / nvidia_unlocked_ioctl
 * (struct file *, unsigned int cmd, unsigned long arg): the escape is
 * _IOC_NR(cmd), its block's size _IOC_SIZE(cmd); XFER carries the real
 * escape, size and block in a block of its own.
 */
SEC("kprobe")
int BPF_KPROBE(ioctl_entry, struct file *file, unsigned int cmd, unsigned long arg)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ioctl_state st = {};

	if (!current_wanted(id >> 32))
		return 0;
	ioctl_begin(&st, file, arg);
	st.esc = cmd & 0xff;
	st.size = (cmd >> 16) & 0x3fff;
	if (st.esc == NV_ESC_IOCTL_XFER_CMD && st.size == 16) {
		struct { __u32 cmd; __u32 size; __u64 ptr; } x;

		if (!bpf_probe_read_user(&x, sizeof(x), (void *)arg)) {
			st.xfer = 1;
			st.esc = x.cmd & 0xff;
			st.size = x.size;
			st.ptr = x.ptr;
		}
	}
	/*
	 * RM_ALLOC's object, its hClass: read here, not with the status at the
	 * return, as the RM rewrites some (NV01_ROOT's 0x0 reads back as
	 * NV01_ROOT_CLIENT, 0x41). RM_CONTROL's, its cmd, the RM leaves: read
	 * at the return with the status, in one copy from user space.
	 */
	if (st.esc == NV_ESC_RM_ALLOC && st.size >= 16 &&
	    !bpf_probe_read_user(&st.obj, sizeof(st.obj), (void *)st.ptr + 12))
		st.has_obj = 1;
	ioctl_save(id, &st);
	return 0;
}

/*
 * nvidia-uvm.ko's uvm_unlocked_ioctl (struct file *, unsigned int cmd,
 * unsigned long arg): CUDA's unified memory on /dev/nvidia-uvm. Its return
 * is ioctl_return's.
 */
SEC("kprobe")
int BPF_KPROBE(uvm_ioctl_entry, struct file *file, unsigned int cmd, unsigned long arg)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ioctl_state st = {};

	if (!current_wanted(id >> 32))
		return 0;
	ioctl_begin(&st, file, arg);
	st.esc = NV_ESC_UVM | cmd;
	ioctl_save(id, &st);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(ioctl_return, long ret)
{
	__u64 id = bpf_get_current_pid_tgid(), lat_ns, lat;
	__u32 pid = id >> 32, status = 0, call_idx = 0;
	struct ioctl_state *st = INFLIGHT_GET(ioctls, id);
	struct nvdrv_event *e;
	struct calls_row *c;
	struct call_key ck;
	bool has_status = false, made;
	int off;

	if (!st)
		return 0;
	lat_ns = bpf_ktime_get_ns() - st->start_ns;
	lat = to_units(lat_ns);
	ck.pid = pid;
	ck.esc = st->esc;
	c = ROWS_GET_NAMED(calls, ck, &call_idx, &made, &dropped_rows);
	if (c && made)
		c->s.lat.min = ~0ULL;
	if (c) {
		if (ret < 0)
			__sync_fetch_and_add(&c->s.errors, 1);
		if (st->xfer)
			__sync_fetch_and_add(&c->s.xfer, 1);
		lat_hist_add(&c->s.lat, lat);
	}
	if (ret < 0) {
		struct err_key ek = { .pid = pid, .esc = st->esc, .err = (__u32)-ret };
		struct err_stats *er = ROWS_STATS(err_rows, ek, &dropped_rows);

		if (er)
			__sync_fetch_and_add(&er->count, 1);
	}
	/*
	 * The RM's status: written into the block, copied back before return.
	 * A control's block (NVOS54) is read whole: its cmd and its status.
	 */
	off = rm_status_offset(st->esc, st->size);
	if (st->esc == NV_ESC_RM_CONTROL && st->size >= 12) {
		struct { __u32 client, object, cmd, flags; __u64 params; __u32 params_size, status; } b;

		if (!bpf_probe_read_user(&b, st->size >= sizeof(b) ? sizeof(b) : 12, (void *)st->ptr)) {
			st->obj = b.cmd;
			st->has_obj = 1;
			if (ret == 0 && off == offsetof(typeof(b), status)) {
				status = b.status;
				has_status = true;
			}
		}
	} else if (ret == 0 && off >= 0 &&
		   !bpf_probe_read_user(&status, sizeof(status), (void *)st->ptr + off)) {
		has_status = true;
	}
	if (has_status) {
		struct rm_key rk = {
			.pid = pid,
			.esc = st->esc,
			.obj = st->obj,
			.status = status < RM_STATUS_KEPT ? status : RM_STATUS_KEPT,
		};
		struct rm_stats *rr = ROWS_STATS(rm_rows, rk, &dropped_rows);

		if (rr)
			__sync_fetch_and_add(&rr->count, 1);
	}
	if (has_status && (st->esc == NV_ESC_RM_ALLOC || st->esc == NV_ESC_RM_FREE))
		rm_object_event(st, status);
	e = event_new(EV_IOCTL, false);
	if (e) {
		e->ioctl.esc = st->esc;
		e->ioctl.size = st->size;
		e->ioctl.obj = st->obj;
		e->ioctl.has_obj = st->has_obj;
		e->ioctl.status = status;
		e->ioctl.has_status = has_status;
		e->ioctl.ret = ret;
		e->ioctl.lat_ns = lat_ns;
		e->ioctl.dev = st->dev;
		e->ioctl.xfer = st->xfer;
		event_submit(e);
	}
	INFLIGHT_END(ioctls, id, st);
	return 0;
}

/* ---- interrupts ------------------------------------------------------------------ */

static __always_inline struct irq_stats *irq_row(__u32 gpu, __u32 kind)
{
	struct irq_key key = { .gpu = gpu, .kind = kind };
	struct irq_rows_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET(irq_rows, key, &idx, &made, &dropped_rows);
	if (r && made)
		r->s.top_bottom.min = ~0ULL;
	return r ? &r->s : NULL;
}

static __always_inline void irq_event(__u32 type, __u32 gpu, __u32 kind, __u32 irq, __u64 lat_ns)
{
	struct nvdrv_event *e = event_new(type, false);

	if (!e)
		return;
	e->irq.gpu = gpu;
	e->irq.kind = kind;
	e->irq.irq = irq;
	e->irq.lat_ns = lat_ns;
	event_submit(e);
}

static __always_inline void on_top_half(int irq, void *nvl, __u32 kind)
{
	struct top_half th = { .ts = bpf_ktime_get_ns(), .kind = kind };
	__u64 key = (__u64)nvl;
	__u32 gpu = nv_gpu(nvl);
	struct irq_stats *s = irq_row(gpu, kind);

	if (s)
		__sync_fetch_and_add(&s->top, 1);
	bpf_map_update_elem(&top_halves, &key, &th, BPF_ANY);
	irq_event(EV_ISR, gpu, kind, irq, 0);
}

/* nvidia_isr (int irq, void *nvl): also called by nvidia_isr_msix. */
SEC("kprobe")
int BPF_KPROBE(isr_entry, int irq, void *nvl)
{
	__u32 zero = 0, *msix = bpf_map_lookup_elem(&in_msix, &zero);

	if (msix && *msix)	/* counted as MSI-X */
		return 0;
	on_top_half(irq, nvl, IRQ_ISR);
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(isr_msix_entry, int irq, void *nvl)
{
	__u32 zero = 0, *msix = bpf_map_lookup_elem(&in_msix, &zero);

	if (msix)
		*msix = 1;
	on_top_half(irq, nvl, IRQ_MSIX);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(isr_msix_return)
{
	__u32 zero = 0, *msix = bpf_map_lookup_elem(&in_msix, &zero);

	if (msix)
		*msix = 0;
	return 0;
}

static __always_inline void on_bottom_half(int irq, void *nv, __u32 kind)
{
	__u64 key = (__u64)nv, lat_ns = 0;
	struct top_half *top = bpf_map_lookup_elem(&top_halves, &key);
	__u32 gpu = nv_gpu(nv), irq_kind;
	struct irq_stats *s;

	/*
	 * Counted with the top half that woke it: the unlocked bottom half
	 * follows an MSI-X top half as well as a plain one; without a top
	 * half seen, by its own kind.
	 */
	if (top) {
		irq_kind = top->kind;
		lat_ns = bpf_ktime_get_ns() - top->ts;
		bpf_map_delete_elem(&top_halves, &key);
	} else {
		irq_kind = kind == BH_MSIX_KTHREAD ? IRQ_MSIX : IRQ_ISR;
	}
	s = irq_row(gpu, irq_kind < NR_IRQ_KINDS ? irq_kind : IRQ_ISR);
	if (s) {
		__sync_fetch_and_add(&s->bottom, 1);
		if (top)
			lat_hist_add(&s->top_bottom, to_units(lat_ns));
	}
	irq_event(EV_BH, gpu, kind, irq, top ? lat_ns : 0);
}

/* nvidia_isr_kthread_bh, nvidia_isr_msix_kthread_bh (int irq, void *nv) */
SEC("kprobe")
int BPF_KPROBE(bh_entry, int irq, void *nv)
{
	on_bottom_half(irq, nv, bpf_get_attach_cookie(ctx));
	return 0;
}

/*
 * Kernels without bpf_get_attach_cookie (before 5.15): one program per
 * role instead of the cookie (the frontend loads these only there).
 */
SEC("kprobe")
int BPF_KPROBE(bh_kthread_entry, int irq, void *nv)
{
	on_bottom_half(irq, nv, BH_KTHREAD);
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(bh_msix_kthread_entry, int irq, void *nv)
{
	on_bottom_half(irq, nv, BH_MSIX_KTHREAD);
	return 0;
}

/* nvidia_isr_bh_unlocked (void *nv): queued by the top half for MMU faults. */
SEC("kprobe")
int BPF_KPROBE(bh_unlocked_entry, void *nv)
{
	on_bottom_half(-1, nv, BH_UNLOCKED);
	return 0;
}

/* ---- p2p ---------------------------------------------------------------------------- */

/*
 * The cookie names the function: nvidia_p2p_get_pages (token, va_space, va,
 * length, ...), _persistent (va, length, ...), put_pages (token, va_space,
 * va, page_table), _persistent (va, page_table, flags), dma_map_pages
 * (peer, page_table, **mapping), dma_unmap_pages (peer, page_table,
 * mapping).
 */
static __always_inline int p2p_enter(u64 a1, u64 a2, u64 a3, u64 a4, __u32 fn)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct p2p_state st = {};
	void *pt = NULL;

	if (!current_wanted(id >> 32))
		return 0;
	st.fn = fn;
	switch (st.fn) {
	case P2P_GET_PAGES:
		st.va = a3;
		st.bytes = a4;
		break;
	case P2P_GET_PAGES_PERSISTENT:
		st.va = a1;
		st.bytes = a2;
		break;
	case P2P_PUT_PAGES:
		st.va = a3;
		pt = (void *)a4;
		break;
	case P2P_PUT_PAGES_PERSISTENT:
		st.va = a1;
		pt = (void *)a2;
		break;
	default:
		pt = (void *)a2;
	}
	if (pt) {
		__u32 page_size = 0, entries = 0;

		bpf_probe_read_kernel(&page_size, sizeof(page_size), pt + P2P_PT_PAGE_SIZE);
		bpf_probe_read_kernel(&entries, sizeof(entries), pt + P2P_PT_ENTRIES);
		/* NVIDIA_P2P_PAGE_SIZE_4KB, _64KB, _128KB */
		st.bytes = (__u64)entries << (page_size == 1 ? 16 : page_size == 2 ? 17 : 12);
	}
	if (bpf_map_update_elem(&p2ps, &id, &st, BPF_ANY))
		__sync_fetch_and_add(&dropped_inflight, 1);
	return 0;
}

SEC("kprobe")
int BPF_KPROBE(p2p_entry, u64 a1, u64 a2, u64 a3, u64 a4)
{
	return p2p_enter(a1, a2, a3, a4, bpf_get_attach_cookie(ctx));
}

/* Without cookies (before 5.15): one program per function. */
#define P2P_ENTRY(name, fn)							\
	SEC("kprobe")								\
	int BPF_KPROBE(name, u64 a1, u64 a2, u64 a3, u64 a4)			\
	{									\
		return p2p_enter(a1, a2, a3, a4, fn);				\
	}
P2P_ENTRY(p2p_get_pages_entry, P2P_GET_PAGES)
P2P_ENTRY(p2p_get_pages_persistent_entry, P2P_GET_PAGES_PERSISTENT)
P2P_ENTRY(p2p_put_pages_entry, P2P_PUT_PAGES)
P2P_ENTRY(p2p_dma_map_pages_entry, P2P_DMA_MAP_PAGES)
P2P_ENTRY(p2p_dma_unmap_pages_entry, P2P_DMA_UNMAP_PAGES)
P2P_ENTRY(p2p_put_pages_persistent_entry, P2P_PUT_PAGES_PERSISTENT)

SEC("kretprobe")
int BPF_KRETPROBE(p2p_return, int ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct p2p_state *st = bpf_map_lookup_elem(&p2ps, &id);
	struct nvdrv_event *e;
	struct p2p_stats *s;
	struct p2p_key key;

	if (!st)
		return 0;
	key.pid = id >> 32;
	key.fn = st->fn;
	s = ROWS_STATS(p2p_rows, key, &dropped_rows);
	if (s) {
		__sync_fetch_and_add(&s->calls, 1);
		if (ret)
			__sync_fetch_and_add(&s->errors, 1);
		__sync_fetch_and_add(&s->bytes, st->bytes);
	}
	e = event_new(EV_P2P, false);
	if (e) {
		e->p2p.fn = st->fn;
		e->p2p.ret = ret;
		e->p2p.bytes = st->bytes;
		e->p2p.va = st->va;
		event_submit(e);
	}
	bpf_map_delete_elem(&p2ps, &id);
	return 0;
}

/* ---- Xids ------------------------------------------------------------------------------ */

/*
 * nv_printf (u32 level, const char *fmt, ...): an Xid report, sent unless
 * the tracepoint reports Xids (nv_xid.bpf.h).
 */
SEC("kprobe")
int BPF_KPROBE(printf_entry, u32 level, const char *fmt)
{
	struct nv_xid *x = nv_printf_xid(ctx, level, fmt);
	struct nvdrv_event *e;

	if (!x || !nv_xid_printed(x))
		return 0;
	e = event_new(EV_XID, true);
	if (!e)
		return 0;
	e->xid = *x;
	bpf_ringbuf_submit(e, 0);	/* rare: wake the reader now */
	return 0;
}

/* nv_log_error (nv_state_t *nv, u32 xid, const char *fmt, va_list): an Xid not printed. */
SEC("kprobe")
int BPF_KPROBE(log_error_entry, void *nv, u32 xid)
{
	struct nvdrv_event *e;

	if (nv_xid_take_print(xid, NULL))
		return 0;
	e = event_new(EV_XID, true);
	if (!e)
		return 0;
	nv_log_error_read(nv, xid, &e->xid);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

/*
 * nvidia:nvidia_dev_xid (575 and later), the stable source where the
 * driver has it (nvdrv.c then attaches nv_printf's kprobe above only for
 * the pid and name the RM's report gives, not nv_log_error's). Counted as
 * the record path's events are, so a firing the kernel skipped is
 * reported (records.h).
 */
TP_RECORD_COUNTERS();

SEC("tracepoint")
int dev_xid(void *ctx)
{
	struct nvdrv_event *e;

	TP_RECORD_RAN();
	e = event_new(EV_XID, true);
	if (!e)
		return 0;
	nv_xid_tp_read(ctx, &e->xid);
	bpf_ringbuf_submit(e, 0);	/* rare: wake the reader now */
	return 0;
}

/* ---- power management ------------------------------------------------------------ */

static __always_inline struct power_stats *power_row(__u32 row)
{
	struct power_rows_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET(power_rows, row, &idx, &made, &dropped_rows);
	if (r && made)
		r->s.lat.min = ~0ULL;
	return r ? &r->s : NULL;
}

/*
 * nv_set_system_power_state (nv_power_state_t, nv_pm_action_depth_t): the
 * whole driver into standby or hibernation and back, as systemd's
 * nvidia-suspend.service and /proc/driver/nvidia/suspend ask. Not filtered
 * by process: the driver's state is everyone's.
 */
SEC("kprobe")
int BPF_KPROBE(power_entry, u32 state, u32 depth)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct power_call c = { .start_ns = bpf_ktime_get_ns(), .state = state, .depth = depth };

	if (bpf_map_update_elem(&power_calls, &id, &c, BPF_ANY))
		__sync_fetch_and_add(&dropped_inflight, 1);
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(power_return, u32 status)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), cycle_ns = 0;
	struct power_call *c = bpf_map_lookup_elem(&power_calls, &id);
	struct power_stats *s;
	struct nvdrv_event *e;
	__u32 state;

	if (!c)
		return 0;
	state = c->state;
	if (state >= POWER_CYCLE) {	/* refused by the driver: no state of its own */
		bpf_map_delete_elem(&power_calls, &id);
		return 0;
	}
	s = power_row(state);
	if (s) {
		__sync_fetch_and_add(&s->calls, 1);
		if (status)
			__sync_fetch_and_add(&s->errors, 1);
		lat_hist_add(&s->lat, to_units(now - c->start_ns));
	}
	/* A cycle starts at the first suspend that succeeds and ends at the resume that does. */
	if (!status && state != POWER_RUNNING && !suspended_since) {
		suspended_since = c->start_ns;
	} else if (!status && state == POWER_RUNNING && suspended_since) {
		cycle_ns = now - suspended_since;
		suspended_since = 0;
		s = power_row(POWER_CYCLE);
		if (s) {
			__sync_fetch_and_add(&s->calls, 1);
			lat_hist_add(&s->lat, to_units(cycle_ns));
		}
	}
	e = event_new(EV_POWER, false);
	if (e) {
		e->power.state = state;
		e->power.depth = c->depth;
		e->power.status = status;
		e->power.lat_ns = now - c->start_ns;
		e->power.cycle_ns = cycle_ns;
		bpf_ringbuf_submit(e, 0);	/* rare: wake the reader now */
	}
	bpf_map_delete_elem(&power_calls, &id);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
