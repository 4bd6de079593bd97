// SPDX-License-Identifier: GPL-2.0
/*
 * amdkfd: amdgpu's KFD (/dev/kfd, the compute path of ROCm: HIP, OpenCL on
 * ROCm) seen from the kernel. The KFD has no tracepoints: every hook is a
 * kprobe or kretprobe on a function of the amdgpu module, attached by name by
 * the frontend to what the loaded module has.
 *
 * - kfd_ioctl(file, cmd, arg): every call, by command, with its result and
 *   latency. The argument struct is read from the caller's memory at the
 *   return: the inputs are still there and the KFD has copied its outputs
 *   back (it does so for every command that has outputs, even when the call
 *   failed). Allocations and queues are followed from those structs.
 * - kfd_open and kfd_release: opens (with their result) and closes.
 * - The SMI event functions (kfd_smi_event_*): the kernel calls them
 *   whether or not anyone listens to SMI events, with the process concerned,
 *   so evictions, restores, SVM migrations and GPU page faults are charged
 *   to their process even when a kernel worker does the work.
 *
 * Counters only grow: the frontend prints what changed since its previous
 * summary.
 */
#include "kernel_types.bpf.h"
#include <linux/ioctl.h>
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a kprobe */
#include "tool.bpf.h"
#include "maps.bpf.h"
#include "amdkfd.h"

/* kfd_smi_event_migration_end takes an eighth parameter, the error (6.11 on). */
const volatile bool migrate_end_error = false;
/* bpf_get_current_task_btf() (5.11): the current task read as memory. */
const volatile bool has_current_task_btf = false;

/* What found its table full: counted, reported by the frontend. */
__u64 dropped_rows = 0;
__u64 dropped_calls = 0;
__u64 dropped_bos = 0;
__u64 dropped_queues = 0;
__u64 dropped_pending = 0;
/* Device-wide: VM faults (by PASID, in -e) and GPU resets. */
__u64 vm_faults = 0;
__u64 gpu_resets = 0;

struct signal_struct {
	atomic_t live;
} __core;

struct task_struct {
	int tgid;
	char comm[TASK_COMM_LEN];
	__u64 start_time;
	struct task_struct *group_leader;
	struct signal_struct *signal;
} __core;

/* A call in flight, per thread (inflight.bpf.h). */
struct call {
	__u64 start_ns;		/* first: never 0 in a call */
	__u64 arg;
	__u32 cmd;
	__u32 op;
};

INFLIGHT(inflight, struct call, MAX_CALLS);
ROWS(calls, struct call_key, struct call_stats, ROW_BITS);
ROWS(errs, struct err_key, struct err_stats, ROW_BITS);
ROWS(mem, struct mem_key, struct mem_stats, PROC_ROW_BITS);
ROWS(queue_rows, struct queue_key, struct queue_stats, PROC_ROW_BITS);
ROWS(procs, struct proc_key, struct proc_stats, PROC_ROW_BITS);

/*
 * Hash maps: what is alive (buffers, queues, evictions and faults not yet
 * ended) goes at its end, and at its process's exit from user space
 * (tools/amdkfd/exits.c).
 *
 * Buffers allocated as BOs are, not preallocated: room for MAX_BOS is
 * about 12 MB of kernel memory, and 80 ms of start-up under qemu's TCG,
 * for a table most processes fill a few hundred rows of. An element's
 * allocation is cheap beside the GPU memory allocation that makes it.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, MAX_BOS);
	__type(key, struct bo_key);
	__type(value, struct bo);
} bos SEC(".maps");
HASH_MAP(queues, struct queue_id_key, struct queue, MAX_QUEUES);
HASH_MAP(pending, struct pending_key, __u64, MAX_PENDING);

/*
 * Each process that called the KFD, by pid, until it exits: its name as it
 * was then and when it started. Up to 6.12 the SMI events give a pid only,
 * and the work they report runs in kernel workers. Only processes -p, -c
 * and --cgroup let through are here, which is how those filters reach the
 * SMI events. Least recently used first out.
 */
struct kfd_proc {
	__u32 started;
	char comm[COMM_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, __u32);
	__type(value, struct kfd_proc);
} names SEC(".maps");

/*
 * When the process on the CPU started: with its pid, who it is. Read at
 * every call: as memory where the kernel allows it (a probe read costs
 * about as much as a map lookup).
 */
static __always_inline __u32 current_started(void)
{
	struct task_struct *task;

	if (has_current_task_btf) {
		task = bpf_get_current_task_btf();
		return STARTED(task->group_leader->start_time);
	}
	task = (void *)bpf_get_current_task();
	return STARTED(BPF_CORE_READ(task, group_leader, start_time));
}

/* ---- calls ---------------------------------------------------------------- */

static __always_inline void call_entered(__u32 op, __u32 cmd, __u64 arg)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct call c = { .start_ns = bpf_ktime_get_ns(), .arg = arg, .cmd = cmd, .op = op };

	if (!current_wanted(id >> 32))
		return;
	/* Over the thread's previous call: one whose return was missed leaves no stale start. */
	if (INFLIGHT_SAVE(inflight, id, &c))
		__sync_fetch_and_add(&dropped_calls, 1);
}

/* The row of (process, call) `key`. A process's first call of a kind also names it for the SMI events. */
static __always_inline struct call_stats *call_row(const struct call_key *key)
{
	struct calls_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET_NAMED(calls, *key, &idx, &made, &dropped_rows);
	if (!r || made) {
		struct kfd_proc proc = { .started = key->started };

		bpf_get_current_comm(proc.comm, sizeof(proc.comm));
		bpf_map_update_elem(&names, &key->pid, &proc, BPF_ANY);
	}
	if (r && made)
		r->s.lat.min = ~0ULL;
	return r ? &r->s : NULL;
}

static __always_inline void count_call(const struct call_key *key, long ret, __u64 latency)
{
	struct err_key ek = { .call = *key };
	struct call_stats *s = call_row(key);
	struct err_stats *e;

	if (s) {
		__sync_fetch_and_add(&s->calls, 1);
		if (ret < 0)
			__sync_fetch_and_add(&s->errors, 1);
		lat_hist_add(&s->lat, latency);
	}
	if (ret >= 0)
		return;
	ek.err = -ret;
	e = ROWS_STATS(errs, ek, &dropped_rows);
	if (e)
		__sync_fetch_and_add(&e->count, 1);
}

static __always_inline __u32 mem_kind(__u32 flags)
{
	if (flags & KFD_MEM_FLAG_VRAM)
		return KIND_VRAM;
	if (flags & KFD_MEM_FLAG_GTT)
		return KIND_GTT;
	if (flags & KFD_MEM_FLAG_USERPTR)
		return KIND_USERPTR;
	if (flags & KFD_MEM_FLAG_DOORBELL)
		return KIND_DOORBELL;
	if (flags & KFD_MEM_FLAG_MMIO_REMAP)
		return KIND_MMIO;
	return KIND_OTHER;
}

static __always_inline struct mem_stats *mem_row(__u32 pid, __u32 started, __u32 gpu_id,
						 __u32 flags)
{
	struct mem_key key = { .pid = pid, .gpu_id = gpu_id, .kind = mem_kind(flags),
			       .started = started };

	return ROWS_STATS(mem, key, &dropped_rows);
}

/* ALLOC_MEMORY_OF_GPU returned: an allocation made (its handle), or refused. */
static __always_inline void memory_allocated(__u32 pid, __u32 started,
					    const struct kfd_alloc_args *a, long ret)
{
	struct mem_stats *m = mem_row(pid, started, a->gpu_id, a->flags);
	struct bo_key key = { .pid = pid, .handle = a->handle, .started = started };
	struct bo bo = { .size = a->size, .ts_ns = bpf_ktime_get_ns(), .gpu_id = a->gpu_id,
			 .flags = a->flags };
	__u64 live;

	if (!m)
		return;
	if (ret < 0) {
		__sync_fetch_and_add(&m->failed, 1);
		__sync_fetch_and_add(&m->failed_bytes, a->size);
		return;
	}
	if (bpf_map_update_elem(&bos, &key, &bo, BPF_ANY)) {
		/* Full, or no memory: not followed to its free, neither live nor freed. */
		__sync_fetch_and_add(&dropped_bos, 1);
		return;
	}
	__sync_fetch_and_add(&m->allocs, 1);
	__sync_fetch_and_add(&m->alloc_bytes, a->size);
	__sync_fetch_and_add(&m->live, 1);
	__sync_fetch_and_add(&m->live_bytes, a->size);
	/* A racing update may lose a peak by one allocation: a gauge, not a counter. */
	live = m->live_bytes;
	if (live > m->peak_bytes)
		m->peak_bytes = live;
}

/* FREE_MEMORY_OF_GPU succeeded: the allocation of that handle, if seen made. */
static __always_inline void memory_freed(__u32 pid, __u32 started, __u64 handle)
{
	struct bo_key key = { .pid = pid, .handle = handle, .started = started };
	struct mem_stats *m;
	struct bo *bo;

	bo = bpf_map_lookup_elem(&bos, &key);
	if (!bo)
		return;	/* allocated before tracing */
	m = mem_row(pid, started, bo->gpu_id, bo->flags);
	if (m) {
		__sync_fetch_and_add(&m->frees, 1);
		__sync_fetch_and_add(&m->freed_bytes, bo->size);
		__sync_fetch_and_add(&m->live, -1);
		__sync_fetch_and_add(&m->live_bytes, -bo->size);
	}
	bpf_map_delete_elem(&bos, &key);
}

static __always_inline struct queue_stats *queue_row(__u32 pid, __u32 started, __u32 gpu_id,
						     __u32 type)
{
	struct queue_key key = { .pid = pid, .gpu_id = gpu_id, .type = type, .started = started };

	return ROWS_STATS(queue_rows, key, &dropped_rows);
}

static __always_inline void queue_created(__u32 pid, __u32 started,
					  const struct kfd_create_queue_args *a, long ret)
{
	struct queue_stats *s = queue_row(pid, started, a->gpu_id, a->queue_type);
	struct queue_id_key key = { .pid = pid, .queue_id = a->queue_id, .started = started };
	struct queue q = { .gpu_id = a->gpu_id, .type = a->queue_type,
			   .ts_ns = bpf_ktime_get_ns() };

	if (!s)
		return;
	if (ret < 0) {
		__sync_fetch_and_add(&s->failed, 1);
		return;
	}
	if (bpf_map_update_elem(&queues, &key, &q, BPF_ANY) == -E2BIG) {
		__sync_fetch_and_add(&dropped_queues, 1);
		return;
	}
	__sync_fetch_and_add(&s->created, 1);
	__sync_fetch_and_add(&s->alive, 1);
}

static __always_inline void queue_destroyed(__u32 pid, __u32 started, __u32 queue_id)
{
	struct queue_id_key key = { .pid = pid, .queue_id = queue_id, .started = started };
	struct queue_stats *s;
	struct queue *q;

	q = bpf_map_lookup_elem(&queues, &key);
	if (!q)
		return;	/* created before tracing */
	s = queue_row(pid, started, q->gpu_id, q->type);
	if (s) {
		__sync_fetch_and_add(&s->destroyed, 1);
		__sync_fetch_and_add(&s->alive, -1);
	}
	bpf_map_delete_elem(&queues, &key);
}

static __always_inline bool has_effects(__u32 nr)
{
	return nr == KFD_NR_ALLOC_MEMORY || nr == KFD_NR_FREE_MEMORY ||
	       nr == KFD_NR_CREATE_QUEUE || nr == KFD_NR_DESTROY_QUEUE;
}

/* What a returned ioctl did to the process's memory and queues. */
static __always_inline void ioctl_effects(__u32 pid, __u32 started, __u32 nr, const void *args,
					  long ret)
{
	switch (nr) {
	case KFD_NR_ALLOC_MEMORY:
		memory_allocated(pid, started, args, ret);
		break;
	case KFD_NR_FREE_MEMORY:
		if (ret == 0)
			memory_freed(pid, started, ((const struct kfd_handle_args *)args)->handle);
		break;
	case KFD_NR_CREATE_QUEUE:
		queue_created(pid, started, args, ret);
		break;
	case KFD_NR_DESTROY_QUEUE:
		if (ret == 0)
			queue_destroyed(pid, started, ((const struct kfd_id_args *)args)->id);
		break;
	}
}

static __always_inline struct amdkfd_event *event_begin(__u32 type, __u32 pid)
{
	struct amdkfd_event *e = event_reserve(sizeof(*e));

	if (!e)
		return NULL;
	e->ts_ns = bpf_ktime_get_ns();
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->type = type;
	e->pid = pid;
	e->tid = bpf_get_current_pid_tgid();
	e->latency = 0;
	e->dur_ns = 0;
	e->ret = 0;
	e->cmd = 0;
	e->args_len = 0;
	e->v[0] = e->v[1] = e->v[2] = e->v[3] = 0;
	e->comm[0] = 0;
	return e;
}

static __always_inline void call_returned(long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32, size = 0, cmd;
	struct call_key key = { .pid = pid };
	__u8 args[ARGS_MAX] = {};
	struct amdkfd_event *e;
	struct call *c;
	__u64 latency, dur_ns, arg;

	c = INFLIGHT_GET(inflight, id);
	if (!c)
		return;	/* entered before tracing, or not a process asked for */
	dur_ns = bpf_ktime_get_ns() - c->start_ns;
	key.started = current_started();
	latency = to_units(dur_ns);
	key.op = c->op;
	/* kfd_open returns an int: its errors come back with the upper half clear. */
	if (key.op == OP_OPEN)
		ret = (int)ret;
	key.cmd = cmd = c->cmd;
	arg = c->arg;
	INFLIGHT_END(inflight, id, c);

	if (key.op == OP_IOCTL) {
		if (_IOC_TYPE(key.cmd) == KFD_IOCTL_TYPE) {
			/* The caller's struct: for what memory and queues follow, and -e's line. */
			if (emit_events || has_effects(_IOC_NR(key.cmd))) {
				size = _IOC_SIZE(key.cmd);
				if (size > ARGS_MAX)
					size = ARGS_MAX;
				if (size && bpf_probe_read_user(args, size, (void *)arg))
					size = 0;
				if (size == _IOC_SIZE(key.cmd) || size == ARGS_MAX)
					ioctl_effects(pid, key.started, _IOC_NR(key.cmd), args,
						      ret);
			}
			key.cmd = _IOC_NR(key.cmd);
		} else {
			key.raw = 1;
		}
	}
	count_call(&key, ret, latency);

	if (!emit_events)
		return;
	e = event_begin(key.op == OP_IOCTL ? EV_IOCTL : EV_OPEN, pid);
	if (!e)
		return;
	e->latency = latency;
	e->dur_ns = dur_ns;
	e->ret = ret;
	e->cmd = cmd;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	if (size <= ARGS_MAX) {
		e->args_len = size;
		__builtin_memcpy(e->args, args, ARGS_MAX);
	}
	event_submit(e);
}

/* kfd_ioctl(struct file *filep, unsigned int cmd, unsigned long arg) */
SEC("kprobe")
int BPF_KPROBE(ioctl_entry, void *file, unsigned int cmd, unsigned long arg)
{
	call_entered(OP_IOCTL, cmd, arg);
	return 0;
}

/* kfd_open(struct inode *, struct file *) */
SEC("kprobe")
int BPF_KPROBE(open_entry)
{
	call_entered(OP_OPEN, 0, 0);
	return 0;
}

/* Both: the result of the call the thread entered. */
SEC("kretprobe")
int BPF_KRETPROBE(call_return, long ret)
{
	call_returned(ret);
	return 0;
}

/* kfd_release(struct inode *, struct file *): the last close of an open file. */
SEC("kprobe")
int BPF_KPROBE(release_entry)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct call_key key = { .pid = id >> 32, .op = OP_CLOSE };
	struct amdkfd_event *e;
	struct call_stats *s;

	if (!current_wanted(key.pid))
		return 0;
	key.started = current_started();
	/* Counted, not timed: it runs at the last close of a file, whoever closes it. */
	s = call_row(&key);
	if (s)
		__sync_fetch_and_add(&s->calls, 1);
	if (!emit_events)
		return 0;
	e = event_begin(EV_CLOSE, key.pid);
	if (!e)
		return 0;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	event_submit(e);
	return 0;
}

/* ---- the SMI events: what the KFD does to a process ---------------------- */

/*
 * The process an SMI event is about: up to 6.12 the kernel passes its pid
 * (pid_t), later its task_struct (the lead thread). Every kernel address is
 * above 4 GiB (the direct map starts at 0xffff8880... with 4-level paging,
 * 0xff11... with x86's 5-level, 0xfff0... with arm64's 52-bit addresses);
 * a pid, an int loaded with a 32-bit move, has its upper half clear. What
 * cannot be read as a task is taken for a pid.
 * Its name: the task's, or, given a pid, the one it called the KFD with
 * (names); empty for a process never seen calling it, whose start is then
 * unknown (0).
 */
struct who {
	__u32 pid;
	__u32 started;
	char comm[TASK_COMM_LEN];
};

static __always_inline void smi_who(unsigned long who, struct who *w)
{
	struct task_struct *task = (void *)who;
	struct kfd_proc *proc;
	int tgid;

	w->pid = who;
	if (who >> 32 && !bpf_core_read(&tgid, sizeof(tgid), &task->tgid)) {
		w->pid = tgid;
		w->started = STARTED(BPF_CORE_READ(task, group_leader, start_time));
		bpf_probe_read_kernel_str(w->comm, TASK_COMM_LEN, &task->comm);
		return;
	}
	proc = bpf_map_lookup_elem(&names, &w->pid);
	if (proc) {
		w->started = proc->started;
		__builtin_memcpy(w->comm, proc->comm, TASK_COMM_LEN);
	} else {
		w->started = 0;
		w->comm[0] = 0;
	}
}

/*
 * -p, -c and --cgroup on the process concerned, not the kernel worker on
 * the CPU. -c and --cgroup were decided at the process's own KFD calls:
 * names holds the processes they let through (call_entered() follows no
 * other), so the events of a process not seen calling the KFD are left out.
 */
static __always_inline bool smi_wanted(const struct who *w)
{
	if (targ_pid && w->pid != (__u32)targ_pid)
		return false;
	if (!targ_comm[0] && !filter_cg)
		return true;
	if (!bpf_map_lookup_elem(&names, &w->pid))
		return false;
	/* The task's own name, where the kernel gives the task: it may have changed since. */
	return comm_wanted(w->comm);
}

static __always_inline struct proc_stats *proc_row(const struct who *w)
{
	struct proc_key key = { .pid = w->pid, .started = w->started };
	struct procs_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET(procs, key, &idx, &made, &dropped_rows);
	if (!r)
		return NULL;
	if (made) {
		r->s.restore_lat.min = r->s.migrate_lat.min = r->s.fault_lat.min = ~0ULL;
		__builtin_memcpy(r->s.comm, w->comm, COMM_LEN);
	}
	return &r->s;
}

static __always_inline void pending_start(const struct who *w, __u32 kind, __u64 id)
{
	struct pending_key key = { .pid = w->pid, .kind = kind, .id = id, .started = w->started };
	__u64 now = bpf_ktime_get_ns();

	/*
	 * An eviction of a process already evicted keeps its first start. A
	 * migration or fault that starts again where one never ended (its
	 * migration failed: the KFD then sends no end) is a new one.
	 */
	if (bpf_map_update_elem(&pending, &key, &now,
				kind == PENDING_EVICT ? BPF_NOEXIST : BPF_ANY) == -E2BIG)
		__sync_fetch_and_add(&dropped_pending, 1);
}

/* The time since the start of `kind` `id`, in ns; -1 unknown. */
static __always_inline __s64 pending_end(const struct who *w, __u32 kind, __u64 id)
{
	struct pending_key key = { .pid = w->pid, .kind = kind, .id = id, .started = w->started };
	__u64 *start = bpf_map_lookup_elem(&pending, &key);
	__s64 ns;

	if (!start)
		return -1;
	ns = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&pending, &key);
	return ns;
}

/* latency_ns: since the start of what ended, -1 when it was not seen. */
static __always_inline void smi_event(__u32 type, const struct who *w, __s64 latency_ns,
				      __u64 v0, __u64 v1, __u64 v2, __u64 v3)
{
	struct amdkfd_event *e;

	if (!emit_events)
		return;
	e = event_begin(type, w->pid);
	if (!e)
		return;
	if (latency_ns >= 0) {
		e->latency = to_units(latency_ns);
		e->dur_ns = latency_ns;
	} else {
		e->ret = -1;	/* the start was not seen */
	}
	e->v[0] = v0;
	e->v[1] = v1;
	e->v[2] = v2;
	e->v[3] = v3;
	__builtin_memcpy(e->comm, w->comm, COMM_LEN);
	event_submit(e);
}

/* kfd_smi_event_queue_eviction(dev, pid or task, u32 trigger): per device */
SEC("kprobe")
int BPF_KPROBE(evict_entry, void *dev, unsigned long who, __u32 trigger)
{
	struct proc_stats *s;
	struct who w;
	__u32 t;

	smi_who(who, &w);
	if (!smi_wanted(&w))
		return 0;
	/* Unknown triggers in the last slot. */
	t = trigger < NR_TRIGGERS - 1 ? trigger : NR_TRIGGERS - 1;
	/* A mask clang cannot fold away, so the verifier sees the index bounded. */
	asm volatile("%[t] &= %[mask]" : [t] "+r"(t) : [mask] "i"(NR_TRIGGERS - 1));
	s = proc_row(&w);
	if (s) {
		__sync_fetch_and_add(&s->evictions, 1);
		__sync_fetch_and_add(&s->evictions_by[t], 1);
	}
	pending_start(&w, PENDING_EVICT, (__u64)dev);
	smi_event(EV_EVICT, &w, -1, trigger, 0, 0, 0);
	return 0;
}

/* kfd_smi_event_queue_restore(dev, pid or task) */
SEC("kprobe")
int BPF_KPROBE(restore_entry, void *dev, unsigned long who)
{
	struct who w;
	struct proc_stats *s;
	__s64 lat;

	smi_who(who, &w);
	if (!smi_wanted(&w))
		return 0;
	lat = pending_end(&w, PENDING_EVICT, (__u64)dev);
	s = proc_row(&w);
	if (s) {
		__sync_fetch_and_add(&s->restores, 1);
		if (lat >= 0)
			lat_hist_add(&s->restore_lat, to_units(lat));
	}
	smi_event(EV_RESTORE, &w, lat, 0, 0, 0, 0);
	return 0;
}

/*
 * kfd_smi_event_migration_start(dev, pid or task, start, end, from, to,
 * prefetch_loc, preferred_loc, trigger): pages [start, end) from gpu_id
 * `from` to `to` (0: system memory).
 */
SEC("kprobe")
int BPF_KPROBE(migrate_start_entry, void *dev, unsigned long who, unsigned long start)
{
	struct who w;

	smi_who(who, &w);
	if (smi_wanted(&w))
		pending_start(&w, PENDING_MIGRATE, start);
	return 0;
}

/*
 * The sixth to eighth arguments, past what BPF_KPROBE reads: x86-64 passes
 * the sixth in r9, the seventh and eighth on the stack above the return
 * address; arm64 all in registers.
 */
#if defined(__TARGET_ARCH_x86)
#define KPROBE_ARG6(ctx) ((ctx)->r9)
static __always_inline __u64 kprobe_stack_arg(struct pt_regs *ctx, int n)
{
	__u64 v = 0;

	bpf_probe_read_kernel(&v, sizeof(v), (void *)(ctx->rsp + 8 * (n - 6)));
	return v;
}
#define kprobe_arg7(ctx) kprobe_stack_arg(ctx, 7)
#define kprobe_arg8(ctx) kprobe_stack_arg(ctx, 8)
#elif defined(__TARGET_ARCH_arm64)
#define KPROBE_ARG6(ctx) (((const struct user_pt_regs *)(ctx))->regs[5])
#define kprobe_arg7(ctx) (((const struct user_pt_regs *)(ctx))->regs[6])
#define kprobe_arg8(ctx) (((const struct user_pt_regs *)(ctx))->regs[7])
#endif

/*
 * kfd_smi_event_migration_end(dev, pid or task, start, end, from, to, trigger[, error]):
 * a migration that failed (error, a negative errno) moved no pages.
 */
SEC("kprobe")
int migrate_end_entry(struct pt_regs *ctx)
{
	unsigned long start = PT_REGS_PARM3(ctx), end = PT_REGS_PARM4(ctx);
	__u32 from = PT_REGS_PARM5(ctx), to = KPROBE_ARG6(ctx), trigger = kprobe_arg7(ctx);
	int error = migrate_end_error ? (int)kprobe_arg8(ctx) : 0;
	struct proc_stats *s;
	struct who w;
	__s64 lat;

	smi_who(PT_REGS_PARM2(ctx), &w);
	if (!smi_wanted(&w))
		return 0;
	lat = pending_end(&w, PENDING_MIGRATE, start);
	s = proc_row(&w);
	if (s && error) {
		__sync_fetch_and_add(&s->migrations_failed, 1);
	} else if (s) {
		__sync_fetch_and_add(&s->migrations, 1);
		__sync_fetch_and_add(&s->migrated_pages, end > start ? end - start : 0);
		if (lat >= 0)
			lat_hist_add(&s->migrate_lat, to_units(lat));
	}
	smi_event(EV_MIGRATE, &w, lat, start, end, (__u64)from << 32 | to,
		  (__u64)(__u32)error << 32 | trigger);
	return 0;
}

/* kfd_smi_event_page_fault_start(dev, pid or task, address, write_fault, ts) */
SEC("kprobe")
int BPF_KPROBE(fault_start_entry, void *dev, unsigned long who, unsigned long address,
	       __u8 write_fault)
{
	struct who w;
	struct proc_stats *s;

	smi_who(who, &w);
	if (!smi_wanted(&w))
		return 0;
	s = proc_row(&w);
	if (s) {
		__sync_fetch_and_add(&s->faults, 1);
		if (write_fault)
			__sync_fetch_and_add(&s->write_faults, 1);
	}
	pending_start(&w, PENDING_FAULT, address);
	return 0;
}

/* kfd_smi_event_page_fault_end(dev, pid or task, address, migration) */
SEC("kprobe")
int BPF_KPROBE(fault_end_entry, void *dev, unsigned long who, unsigned long address,
	       __u8 migration)
{
	struct who w;
	struct proc_stats *s;
	__s64 lat;

	smi_who(who, &w);
	if (!smi_wanted(&w))
		return 0;
	lat = pending_end(&w, PENDING_FAULT, address);
	s = proc_row(&w);
	if (s) {
		if (migration)
			__sync_fetch_and_add(&s->faults_migrated, 1);
		if (lat >= 0)
			lat_hist_add(&s->fault_lat, to_units(lat));
	}
	smi_event(EV_FAULT, &w, lat, address, migration, 0, 0);
	return 0;
}

/*
 * A GPU VM fault, by address space (16-bit PASIDs), and the process amdgpu
 * names for it: kfd_smi_event_update_vmfault(dev, pasid) asks amdgpu for
 * the PASID's task info (amdgpu_vm_get_task_info_pasid(adev, pasid), its
 * struct amdgpu_task_info returned; before 5.11 amdgpu_vm_get_task_info(adev,
 * pasid, info) fills the third argument), and reports the fault with its
 * pid and name. The fault is sent at the function's return, with what the
 * lookup gave: the process's tgid at byte 36 of struct amdgpu_task_info in
 * every layout, the task's name where the frontend says (task_info_comm).
 */
#define TASK_INFO_TGID 36
const volatile __u32 task_info_comm = 16;
/* Set once attached: the lookup returns the info (else it fills its third argument). */
__u32 task_info_returned = 0;

struct vm_fault {
	__u64 info;		/* 5.10's lookup: the struct it fills */
	__u32 pasid;
	__u32 tgid;		/* 0: no process named */
	char comm[TASK_COMM_LEN];
};

/* In flight from the fault's entry to its return, by thread: rare, a hash. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 256);
	__type(key, __u32);
	__type(value, struct vm_fault);
} vm_faults_in_flight SEC(".maps");

SEC("kprobe")
int BPF_KPROBE(vmfault_entry, void *dev, unsigned long pasid)
{
	struct vm_fault f = { .pasid = pasid & 0xffff };
	__u32 tid = bpf_get_current_pid_tgid();

	__sync_fetch_and_add(&vm_faults, 1);
	bpf_map_update_elem(&vm_faults_in_flight, &tid, &f, BPF_ANY);
	return 0;
}

/* amdgpu_vm_get_task_info_pasid(adev, pasid), or 5.10's amdgpu_vm_get_task_info(adev, pasid, info) */
SEC("kprobe")
int BPF_KPROBE(task_info_entry, void *adev, __u32 pasid, void *info)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct vm_fault *f = bpf_map_lookup_elem(&vm_faults_in_flight, &tid);

	if (f)
		f->info = (__u64)info;
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(task_info_return, void *ret)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct vm_fault *f = bpf_map_lookup_elem(&vm_faults_in_flight, &tid);
	char *info;

	if (!f)
		return 0;
	info = task_info_returned ? ret : (void *)f->info;
	if (!info)
		return 0;
	bpf_probe_read_kernel(&f->tgid, sizeof(f->tgid), info + TASK_INFO_TGID);
	bpf_probe_read_kernel_str(f->comm, sizeof(f->comm), info + (task_info_comm & 63));
	return 0;
}

SEC("kretprobe")
int BPF_KRETPROBE(vmfault_return)
{
	__u32 tid = bpf_get_current_pid_tgid();
	struct vm_fault *f = bpf_map_lookup_elem(&vm_faults_in_flight, &tid);
	struct who w = {};

	if (!f)
		return 0;
	if (f->tgid) {
		/* The KFD's process, as its own calls named it; else by amdgpu's name for it. */
		smi_who(f->tgid, &w);
		if (!w.comm[0])
			__builtin_memcpy(w.comm, f->comm, sizeof(w.comm));
	}
	if (f->tgid ? smi_wanted(&w) : !process_filtered())
		smi_event(EV_VMFAULT, &w, -1, f->pasid, 0, 0, 0);
	bpf_map_delete_elem(&vm_faults_in_flight, &tid);
	return 0;
}

/* kfd_smi_event_update_gpu_reset(dev, post_reset[, reset context]) */
SEC("kprobe")
int BPF_KPROBE(reset_entry, void *dev, __u8 post_reset)
{
	struct who none = {};

	if (!post_reset)
		__sync_fetch_and_add(&gpu_resets, 1);
	smi_event(EV_RESET, &none, -1, post_reset, 0, 0, 0);
	return 0;
}

/* ---- exits ---------------------------------------------------------------- */

/*
 * A process that called the KFD is gone, and the KFD has freed what it
 * held (at the teardown of its memory, before this tracepoint): the
 * frontend stops counting its memory and queues as live and forgets its
 * allocations, queues and pending events. Its pid may serve another
 * process at once, which has rows of its own (keys hold the start time).
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(proc_exit, struct task_struct *task)
{
	__u32 pid = task->tgid;
	struct amdkfd_event *e;
	struct kfd_proc *proc;

	/*
	 * Only the last thread: signal->live is already decremented for it.
	 * Read as memory (the tracepoint's task has BTF): every thread's exit
	 * on the machine comes here.
	 */
	if (task->signal->live.counter != 0)
		return 0;
	proc = bpf_map_lookup_elem(&names, &pid);
	if (!proc)
		return 0;
	e = event_reserve(sizeof(*e));
	if (e) {
		__builtin_memset(e, 0, sizeof(*e));
		e->ts_ns = bpf_ktime_get_ns();
		e->type = EV_EXIT;
		e->pid = pid;
		e->v[0] = proc->started;
		__builtin_memcpy(e->comm, proc->comm, COMM_LEN);
		event_submit(e);
	}
	bpf_map_delete_elem(&names, &pid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
