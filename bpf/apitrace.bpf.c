// SPDX-License-Identifier: GPL-2.0
/*
 * The compute-API tracers' kernel side (cudatrace, hiptrace, zetrace and
 * cltrace: one object for the four, tools/apitrace/): the calls of an
 * API's library, seen through uprobes.
 *
 * One entry program and one return program serve every probed symbol: the
 * frontend attaches them to each function with a BPF cookie naming the
 * function and how to read its arguments (apitrace.h).  The entry decodes
 * the arguments by the x86-64 calling convention and parks them per thread
 * and function; the return adds the result, the duration and what the call
 * wrote to its out-parameters (the pointer allocated, the CUfunction
 * handle), then updates the per-function statistics, the table of
 * outstanding allocations and the launch counts.  Per-call records go to
 * the ring buffer only for -e / --errors.
 */
#include "kernel_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a uprobe */
#include "tool.bpf.h"
#include "maps.bpf.h"
#include "apitrace.h"

const volatile bool errors_only = false;
const volatile bool capture_stacks = false;

/* Counters the frontend reports at exit. */
__u64 lost_notices = 0;		/* process notices that did not fit */
__u64 dropped_allocs = 0;	/* allocations the table had no room for */
__u64 dropped_rows = 0;		/* statistics rows the maps had no room for */
__u64 dropped_calls = 0;	/* calls entered with MAX_INFLIGHT others in flight */

/*
 * Not an LRU: one takes free entries to each CPU's own list 128 at a time,
 * and evicts a live call, silently, once the other CPUs hold the rest (on
 * a host of 128 CPUs, from the first call in flight). The calls of a
 * process that dies inside them are deleted at its exit (unfinished.c).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_INFLIGHT);
	__type(key, struct inflight_key);
	__type(value, struct inflight);
} inflight SEC(".maps");

ROWS(func_stats, __u32, struct func_stats, FUNC_ROW_BITS);
ROWS(errors, struct err_key, __u64, ERR_ROW_BITS);

/* A hash map: an entry goes at its free, and at its process's exit (leaks.c). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_ALLOCS);
	__type(key, struct alloc_key);
	__type(value, struct alloc_info);
} allocs SEC(".maps");

/* Hash maps: a process's rows go at its exit (procs.c), here and in builds and kernel_times. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_LAUNCH_ROWS);
	__type(key, struct launch_key);
	__type(value, struct launch_stats);
} launches SEC(".maps");

/* An LRU: kernels' names, as long as a process keeps making new ones. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_KNAMES);
	__type(key, struct kname_key);
	__type(value, struct kname);
} knames SEC(".maps");

/* OpenCL's clBuildProgram failures, and their logs (CL_BUILD, CL_BUILD_LOG). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_BUILDS);
	__type(key, struct kname_key);
	__type(value, struct build_info);
} builds SEC(".maps");

/* A build's first value: too large for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct build_info);
} build_init SEC(".maps");

/* Level Zero's kernels' group sizes, as zeKernelSetGroupSize last set them. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_GROUP_SIZES);
	__type(key, struct kname_key);
	__type(value, struct group_size);
} group_sizes SEC(".maps");

/* Launches' events, then the kernels' device times read of them (CL_PROFILE). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_PROF_EVENTS);
	__type(key, struct kname_key);
	__type(value, struct prof_event);
} prof_events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_LAUNCH_ROWS);
	__type(key, struct kname_key);
	__type(value, struct kernel_time);
} kernel_times SEC(".maps");

/* A hash map: a process's entry goes at its exit (exit hook below). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, __u32);
	__type(value, struct proc_info);
} procs SEC(".maps");

/*
 * Stacks by allocation, not a STACK_TRACE map: its buckets are shared by
 * hash, so two stacks could collide and one allocation lose its stack.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_STACKS);	/* the frontend shrinks it without --stack */
	__type(key, struct alloc_key);
	__type(value, struct alloc_stack);
} alloc_stacks SEC(".maps");

/* A stack as it is read: too large for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct alloc_stack);
} stack_scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 64 * 1024);
} notices SEC(".maps");

/* Minimal task types for the exit hook, relocated against the kernel's BTF. */
struct signal_struct {
	atomic_t live;
} __core;

struct task_struct {
	struct signal_struct *signal;
	int exit_code;
} __core;

/*
 * Argument i (0-based) of a function, at its first instruction.  x86-64
 * SysV: six integer registers, then the stack, where sp points at the
 * return address the call pushed, so the 7th argument is at sp+8.  A
 * 32-bit argument occupies the low half of its register or 8-byte stack
 * slot; the upper half is undefined, so callers mask it.
 */
static __always_inline __u64 arg(struct pt_regs *ctx, int i)
{
	__u64 v = 0;

#if defined(__TARGET_ARCH_x86)
	switch (i) {
	case 0: return ctx->rdi;
	case 1: return ctx->rsi;
	case 2: return ctx->rdx;
	case 3: return ctx->rcx;
	case 4: return ctx->r8;
	case 5: return ctx->r9;
	}
	bpf_probe_read_user(&v, sizeof(v), (void *)(ctx->rsp + 8 + 8 * (i - 6)));
#elif defined(__TARGET_ARCH_arm64)
	/* AAPCS64 (untested): x0-x7, then the stack from sp, no return address. */
	if (i < 8)
		return ((const struct user_pt_regs *)ctx)->regs[i & 7];
	bpf_probe_read_user(&v, sizeof(v), (void *)(((const struct user_pt_regs *)ctx)->sp +
						    8 * (i - 8)));
#else
#error "apitrace: calling convention of this architecture not implemented"
#endif
	return v;
}

static __always_inline __u32 arg32(struct pt_regs *ctx, int i)
{
	return (__u32)arg(ctx, i);
}

/*
 * Register argument i, i known only at run time (0..5).  All six are
 * loaded first: a switch over ctx fields would be folded by clang into one
 * load at a variable ctx offset, which the verifier rejects.
 */
static __always_inline __u64 reg_arg(struct pt_regs *ctx, __u32 i)
{
	__u64 regs[6] = { arg(ctx, 0), arg(ctx, 1), arg(ctx, 2),
			  arg(ctx, 3), arg(ctx, 4), arg(ctx, 5) };

	return i < 6 ? regs[i] : 0;
}

/* Argument i, i known only at run time: a register's, or the stack's. */
static __always_inline __u64 nth_arg(struct pt_regs *ctx, __u32 i)
{
	__u64 v = 0;

	if (i < 6)
		return reg_arg(ctx, i);
#if defined(__TARGET_ARCH_x86)
	bpf_probe_read_user(&v, sizeof(v), (void *)(ctx->rsp + 8 + 8 * (__u64)(i - 6)));
#elif defined(__TARGET_ARCH_arm64)
	if (i < 8)
		return ((const struct user_pt_regs *)ctx)->regs[i & 7];
	bpf_probe_read_user(&v, sizeof(v), (void *)(((const struct user_pt_regs *)ctx)->sp +
						    8 * (__u64)(i - 8)));
#endif
	return v;
}

/* The argument COOKIE_PTR_ARG names, else the first. */
static __always_inline __u64 ptr_arg(struct pt_regs *ctx, __u64 cookie)
{
	__u32 i = COOKIE_PTR_ARG(cookie);

	return i ? nth_arg(ctx, i - 1) : arg(ctx, 0);
}

/* cuLaunchKernelEx's CUlaunchConfig, up to the stream. */
struct launch_config {
	__u32 grid[3];
	__u32 block[3];
	__u32 shmem;
	__u32 pad;
	__u64 stream;
};

static __always_inline void notice(__u32 type, __u32 pid, const char *comm, __u64 cgroup_id,
				   __u64 now, __u32 exit_code)
{
	struct notice *n = bpf_ringbuf_reserve(&notices, sizeof(*n), 0);

	if (!n) {
		__sync_fetch_and_add(&lost_notices, 1);
		return;
	}
	n->ts_ns = now;
	n->cgroup_id = cgroup_id;
	n->type = type;
	n->pid = pid;
	__builtin_memcpy(n->comm, comm, sizeof(n->comm));
	n->exit_code = exit_code;
	n->pad = 0;
	bpf_ringbuf_submit(n, 0);
}

/*
 * First call of a process, at its entry: remember it (its name and cgroup
 * then), so its exit can be reported - also when it dies inside that call. -p's process is in the map from the start, its
 * cgroup still unknown (0: no cgroup has that id): filled in here.
 */
static __always_inline void note_process(__u32 pid, __u64 now)
{
	struct proc_info pi = {}, *known;

	known = bpf_map_lookup_elem(&procs, &pid);
	if (known) {
		if (!known->cgroup_id)
			known->cgroup_id = bpf_get_current_cgroup_id();
		return;
	}
	bpf_get_current_comm(pi.comm, sizeof(pi.comm));
	pi.cgroup_id = bpf_get_current_cgroup_id();
	if (bpf_map_update_elem(&procs, &pid, &pi, BPF_NOEXIST) == 0)
		notice(NOTICE_NEW, pid, pi.comm, pi.cgroup_id, now, 0);
}

/*
 * Keep call *c (key: depth 0) until its return; false when there is no
 * room. Inside a call of the same function, one level deeper: the outer
 * call's entry stays for its own return.
 */
static __always_inline bool park_call(struct inflight_key *key, const struct inflight *c)
{
	struct inflight *outer;
	long err;

	err = bpf_map_update_elem(&inflight, key, c, BPF_NOEXIST);
	if (err != -EEXIST)
		return !err;
	outer = bpf_map_lookup_elem(&inflight, key);
	if (!outer || outer->nested >= MAX_NESTED)
		return false;
	key->depth = ++outer->nested;
	if (!bpf_map_update_elem(&inflight, key, c, BPF_ANY))
		return true;
	outer->nested--;
	return false;
}

/* The innermost call in flight of key's function on its thread: taken out into *c. */
static __always_inline bool unpark_call(struct inflight_key *key, struct inflight *c)
{
	struct inflight *p = bpf_map_lookup_elem(&inflight, key), *outer = p;

	if (p && outer->nested) {
		key->depth = outer->nested--;
		p = bpf_map_lookup_elem(&inflight, key);
	}
	if (!p)
		return false;
	*c = *p;
	bpf_map_delete_elem(&inflight, key);
	return true;
}

/* A call of the function `cookie` names begins: park its arguments. */
static __always_inline int on_enter(struct pt_regs *ctx, __u64 cookie)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 pid = id >> 32, flags = COOKIE_FLAGS(cookie), stream_arg, size_arg, n;
	struct inflight_key key = { .tid = (__u32)id, .func = COOKIE_FUNC(cookie) };
	__u64 sizes[3];
	struct inflight c = {};
	struct launch_config cfg;
	struct kname_key kk = {};
	struct group_size *gs;
	struct alloc_key ak = {};
	struct alloc_info *ai;
	__u64 packed;

	/* -p, -c, --cgroup: the return probe only completes what the entry parked. */
	if (!current_wanted(pid))
		return 0;

	c.ts = bpf_ktime_get_ns();
	note_process(pid, c.ts);
	c.cookie = cookie;
	c.pid = pid;
	size_arg = COOKIE_SIZE_ARG(cookie);
	switch (COOKIE_CLASS(cookie)) {
	case CL_ALLOC:
		c.out = ptr_arg(ctx, cookie);
		if (size_arg)
			c.a.size = reg_arg(ctx, size_arg - 1);
		else
			c.a.size = flags & CF_SIZE32 ? arg32(ctx, 1) : arg(ctx, 1);
		break;
	case CL_FREE:
		c.a.addr = flags & CF_PTR32 ? arg32(ctx, 0) : ptr_arg(ctx, cookie);
		/* Its size now: a nested free (cudaFree -> cuMemFree) removes it first. */
		ak.pid = pid;
		ak.addr = c.a.addr;
		ai = bpf_map_lookup_elem(&allocs, &ak);
		if (ai)
			c.a.size = ai->size;
		break;
	case CL_COPY:
		if (size_arg)
			c.a.size = reg_arg(ctx, size_arg - 1);
		else
			c.a.size = flags & CF_SIZE32 ? arg32(ctx, 2) : arg(ctx, 2);
		if (flags & CF_KIND)
			c.a.kind = arg32(ctx, 3);
		break;
	case CL_LAUNCH:
		/* f, gx, gy, gz, bx, by in registers; bz, shmem, stream on the stack. */
		c.a.addr = arg(ctx, 0);
		c.a.grid[0] = arg32(ctx, 1);
		c.a.grid[1] = arg32(ctx, 2);
		c.a.grid[2] = arg32(ctx, 3);
		c.a.block[0] = arg32(ctx, 4);
		c.a.block[1] = arg32(ctx, 5);
		c.a.block[2] = arg32(ctx, 6);
		c.a.shmem = arg32(ctx, 7);
		c.a.stream = arg(ctx, 8);
		break;
	case CL_LAUNCH_EX:
		c.a.addr = arg(ctx, 1);
		if (!bpf_probe_read_user(&cfg, sizeof(cfg), (void *)arg(ctx, 0))) {
			__builtin_memcpy(c.a.grid, cfg.grid, sizeof(c.a.grid));
			__builtin_memcpy(c.a.block, cfg.block, sizeof(c.a.block));
			c.a.shmem = cfg.shmem;
			c.a.stream = cfg.stream;
		}
		break;
	case CL_RT_LAUNCH:
		/* A dim3 (12 bytes) takes two registers: x | y << 32, then z. */
		c.a.addr = arg(ctx, 0);
		packed = arg(ctx, 1);
		c.a.grid[0] = (__u32)packed;
		c.a.grid[1] = packed >> 32;
		c.a.grid[2] = arg32(ctx, 2);
		packed = arg(ctx, 3);
		c.a.block[0] = (__u32)packed;
		c.a.block[1] = packed >> 32;
		c.a.block[2] = arg32(ctx, 4);
		/* args in the 6th register; size_t shmem (CF_SIZE32: unsigned int) and the stream on the stack. */
		c.a.shmem = flags & CF_SIZE32 ? arg32(ctx, 6) : arg(ctx, 6);
		c.a.stream = arg(ctx, 7);
		break;
	case CL_GET_FUNC:
		c.out = ptr_arg(ctx, cookie);
		c.name = COOKIE_NAME_ARG(cookie) ? reg_arg(ctx, COOKIE_NAME_ARG(cookie) - 1)
						 : arg(ctx, 2);
		if (flags & CF_ZE_DESC)
			bpf_probe_read_user(&c.name, sizeof(c.name),
					    (void *)(c.name + ZE_DESC_NAME_OFFSET));
		break;
	case CL_STREAM_CREATE:
		c.out = ptr_arg(ctx, cookie);
		break;
	case CL_LAUNCH_ZE:
		/* The group count read here; the group size the kernel's last set. */
		c.a.stream = arg(ctx, 0);
		c.a.addr = arg(ctx, 1);
		bpf_probe_read_user(c.a.grid, sizeof(c.a.grid), (void *)arg(ctx, 2));
		kk.pid = pid;
		kk.handle = c.a.addr;
		gs = bpf_map_lookup_elem(&group_sizes, &kk);
		if (gs)
			__builtin_memcpy(c.a.block, gs->xyz, sizeof(c.a.block));
		break;
	case CL_SET_GROUP:
		c.a.addr = arg(ctx, 0);
		c.a.block[0] = arg32(ctx, 1);
		c.a.block[1] = arg32(ctx, 2);
		c.a.block[2] = arg32(ctx, 3);
		break;
	case CL_LAUNCH_ND:
		/* The work sizes: work_dim size_t's at global and local (NULL: the runtime's). */
		c.a.stream = arg(ctx, 0);
		c.a.addr = arg(ctx, 1);
		n = arg32(ctx, 2);
		if (n > 3)
			n = 3;
		if (!bpf_probe_read_user(sizes, sizeof(sizes), (void *)arg(ctx, 4))) {
			c.a.grid[0] = sizes[0];
			c.a.grid[1] = n > 1 ? sizes[1] : 1;
			c.a.grid[2] = n > 2 ? sizes[2] : 1;
		}
		if (arg(ctx, 5) && !bpf_probe_read_user(sizes, sizeof(sizes), (void *)arg(ctx, 5))) {
			c.a.block[0] = sizes[0];
			c.a.block[1] = n > 1 ? sizes[1] : 1;
			c.a.block[2] = n > 2 ? sizes[2] : 1;
		}
		c.out = arg(ctx, 8);	/* cl_event *: its profiling times, if read */
		break;
	case CL_RETAIN:
	case CL_BUILD:
		c.a.addr = arg(ctx, 0);
		break;
	case CL_BUILD_LOG:
		c.a.addr = arg(ctx, 0);
		c.a.kind = arg32(ctx, 2);
		c.name = arg(ctx, 4);
		break;
	case CL_PROFILE:
		c.a.addr = arg(ctx, 0);
		c.a.kind = arg32(ctx, 1);
		c.out = arg(ctx, 3);
		break;
	}
	if (COOKIE_ERRCODE_ARG(cookie))
		c.errcode = reg_arg(ctx, COOKIE_ERRCODE_ARG(cookie) - 1);
	stream_arg = COOKIE_STREAM_ARG(cookie);
	if (stream_arg)
		c.a.stream = reg_arg(ctx, stream_arg - 1);

	if (!park_call(&key, &c))
		__sync_fetch_and_add(&dropped_calls, 1);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(api_enter)
{
	return on_enter(ctx, bpf_get_attach_cookie(ctx));
}

static __always_inline __u64 read_user_u64(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v;
}

static __always_inline __u64 read_user_u32(__u64 addr)
{
	__u32 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)addr);
	return v;
}

static __always_inline void track_alloc(struct pt_regs *ctx, __u32 pid, __u32 func,
					const struct call_args *a, __u64 now)
{
	struct alloc_key ak = { .pid = pid, .addr = a->addr };
	struct alloc_info ai = { .size = a->size, .ts = now, .func = func };
	struct alloc_stack *st;
	__u32 zero = 0;

	/* Overwrites what a nested call (cudaMalloc -> cuMemAlloc) recorded. */
	if (bpf_map_update_elem(&allocs, &ak, &ai, BPF_ANY)) {
		__sync_fetch_and_add(&dropped_allocs, 1);
		return;
	}
	if (!capture_stacks)
		return;
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!st)
		return;
	/* At the return, so the innermost frame is the caller's (frame pointers). */
	if (bpf_get_stack(ctx, st->ips, sizeof(st->ips), BPF_F_USER_STACK) > 0)
		bpf_map_update_elem(&alloc_stacks, &ak, st, BPF_ANY);
	else
		bpf_map_delete_elem(&alloc_stacks, &ak);
}

/* A free succeeded. true: it only dropped a reference (CL_RETAIN), the object lives on. */
static __always_inline bool untrack_alloc(__u32 pid, __u64 addr, __u64 free_entry)
{
	struct alloc_key ak = { .pid = pid, .addr = addr };
	struct alloc_info *ai;

	ai = bpf_map_lookup_elem(&allocs, &ak);
	/* Not if another thread got the same address back after this free began. */
	if (!ai || ai->ts >= free_entry)
		return false;
	/*
	 * Releases of one object at once each take a reference: the one that
	 * found none left frees it. Without fetch atomics (< 5.12), two
	 * releases may both see the last reference taken, and the object is
	 * never freed here.
	 */
	if (has_atomic_fetch) {
		if ((__s32)__sync_fetch_and_sub(&ai->refs, 1) > 0)
			return true;
	} else if (ai->refs) {
		__sync_fetch_and_sub(&ai->refs, 1);
		return true;
	}
	bpf_map_delete_elem(&allocs, &ak);
	if (capture_stacks)
		bpf_map_delete_elem(&alloc_stacks, &ak);
	return false;
}

static __always_inline void retain_alloc(__u32 pid, __u64 addr)
{
	struct alloc_key ak = { .pid = pid, .addr = addr };
	struct alloc_info *ai;

	ai = bpf_map_lookup_elem(&allocs, &ak);
	if (ai)
		__sync_fetch_and_add(&ai->refs, 1);
}

/* A program failed to build. */
static __always_inline void count_build_failure(const struct kname_key *kk, __u32 func,
						__u32 result)
{
	struct build_info *b;
	__u32 zero = 0;

	b = bpf_map_lookup_elem(&builds, kk);
	if (!b) {
		b = bpf_map_lookup_elem(&build_init, &zero);
		if (!b)
			return;
		__builtin_memset(b, 0, sizeof(*b));
		b = map_lookup_or_init(&builds, kk, b, &dropped_rows);
		if (!b)
			return;
	}
	b->result = result;
	b->func = func;
	__sync_fetch_and_add(&b->failures, 1);
}

/* The process read a failed build's log into `value`: keep its start. */
static __always_inline void keep_build_log(const struct kname_key *kk, __u64 value)
{
	struct build_info *b = bpf_map_lookup_elem(&builds, kk);

	if (!b)
		return;
	bpf_probe_read_user_str(b->log, sizeof(b->log), (void *)value);
	__sync_fetch_and_add(&b->logs, 1);
}

/* A launch returned its event: its kernel, for the times the process may read. */
static __always_inline void keep_launch_event(__u32 pid, __u64 event_out, __u64 kernel)
{
	struct kname_key kk = { .pid = pid, .handle = read_user_u64(event_out) };
	struct prof_event pe = { .kernel = kernel };

	if (kk.handle)
		bpf_map_update_elem(&prof_events, &kk, &pe, BPF_ANY);
}

/* The process read one of an event's profiling times: a kernel's run, once both ends are known. */
static __always_inline void profiling_time(__u32 pid, __u64 event, __u32 param, __u64 value)
{
	struct kname_key kk = { .pid = pid, .handle = event };
	struct kernel_time *kt, zero = {};
	struct prof_event *pe;

	pe = bpf_map_lookup_elem(&prof_events, &kk);
	if (!pe || !pe->kernel)
		return;
	if (param == PROFILING_QUEUED)
		pe->queued = value;
	else if (param == PROFILING_START)
		pe->start = value;
	else if (param == PROFILING_END)
		pe->end = value;
	if (!pe->start || !pe->end || pe->end < pe->start)
		return;
	kk.handle = pe->kernel;
	pe->kernel = 0;		/* counted */
	kt = map_lookup_or_init(&kernel_times, &kk, &zero, &dropped_rows);
	if (!kt)
		return;
	__sync_fetch_and_add(&kt->runs, 1);
	__sync_fetch_and_add(&kt->run_ns, pe->end - pe->start);
	if (pe->queued && pe->queued <= pe->start) {
		__sync_fetch_and_add(&kt->waits, 1);
		__sync_fetch_and_add(&kt->wait_ns, pe->start - pe->queued);
	}
}

static __always_inline void count_launch(__u32 pid, __u32 func, const struct call_args *a,
					 __u32 result)
{
	struct launch_key lk = { .pid = pid, .func = func, .handle = a->addr };
	struct launch_stats *ls, zero = {};

	__builtin_memcpy(lk.grid, a->grid, sizeof(lk.grid));
	__builtin_memcpy(lk.block, a->block, sizeof(lk.block));
	ls = map_lookup_or_init(&launches, &lk, &zero, &dropped_rows);
	if (!ls)
		return;
	if (result)
		__sync_fetch_and_add(&ls->failed, 1);
	else
		__sync_fetch_and_add(&ls->ok, 1);
}

static __always_inline void count_call(__u32 func, __u32 cls, __u32 result, __u64 lat_ns,
				       __u64 size)
{
	struct err_key ek = { .func = func, .result = result };
	struct func_stats_row *r;
	struct errors_row *er;
	struct func_stats *st;
	bool made;
	__u32 idx;

	r = ROWS_GET(func_stats, func, &idx, &made, &dropped_rows);
	if (!r)
		return;
	st = &r->s;
	if (made)
		st->lat.min = ~0ULL;
	__sync_fetch_and_add(&st->calls, 1);
	__sync_fetch_and_add(&st->total_ns, lat_ns);
	lat_hist_add(&st->lat, to_units(lat_ns));
	if (!result) {
		if (cls == CL_ALLOC || cls == CL_FREE || cls == CL_COPY)
			__sync_fetch_and_add(&st->bytes, size);
		return;
	}
	__sync_fetch_and_add(&st->errors, 1);
	er = ROWS_GET(errors, ek, &idx, &made, &dropped_rows);
	if (er)
		__sync_fetch_and_add(&er->s, 1);
}

/* cuModuleGetFunction / cuLibraryGetKernel returned a handle: keep its name. */
static __always_inline void remember_name(const struct kname_key *kk, __u64 name)
{
	struct kname kn = {};

	bpf_probe_read_user_str(kn.name, sizeof(kn.name), (void *)name);
	bpf_map_update_elem(&knames, kk, &kn, BPF_ANY);
}

/* The function `cookie` names returns `ret`: complete what its entry parked. */
static __always_inline int on_exit(struct pt_regs *ctx, long ret, __u64 cookie)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns(), lat;
	__u32 pid = id >> 32, result = (__u32)ret, func, cls, flags;
	struct inflight_key key = { .tid = (__u32)id };
	struct kname_key kk = {};
	struct call_event *e;
	struct inflight c;

	/* The same thread may be inside several functions (cudaMalloc -> cuMemAlloc). */
	key.func = COOKIE_FUNC(cookie);
	if (!unpark_call(&key, &c))
		return 0;

	func = COOKIE_FUNC(c.cookie);
	cls = COOKIE_CLASS(c.cookie);
	flags = COOKIE_FLAGS(c.cookie);
	lat = now - c.ts;
	/*
	 * OpenCL's clCreate*: the object returned, tracked until released; the
	 * result in *errcode_ret.
	 */
	if (COOKIE_ERRCODE_ARG(c.cookie)) {
		if (c.errcode)
			result = read_user_u32(c.errcode);
		else
			result = ret ? 0 : RESULT_NO_ERRCODE;
		if (!result) {
			c.a.addr = ret;
			track_alloc(ctx, pid, func, &c.a, now);
		}
	}

	kk.pid = pid;
	kk.handle = c.a.addr;
	switch (cls) {
	case CL_ALLOC:
		if (result || COOKIE_ERRCODE_ARG(c.cookie))
			break;
		c.a.addr = flags & CF_PTR32 ? read_user_u32(c.out) : read_user_u64(c.out);
		track_alloc(ctx, pid, func, &c.a, now);
		break;
	case CL_FREE:
		/* Only a reference dropped: no bytes freed. */
		if (!result && untrack_alloc(pid, c.a.addr, c.ts))
			c.a.size = 0;
		break;
	case CL_RETAIN:
		if (!result)
			retain_alloc(pid, c.a.addr);
		break;
	case CL_GET_FUNC:
		if (result)
			break;
		if (!COOKIE_ERRCODE_ARG(c.cookie))
			c.a.addr = read_user_u64(c.out);
		kk.handle = c.a.addr;
		remember_name(&kk, c.name);
		break;
	case CL_BUILD:
		if (result)
			count_build_failure(&kk, func, result);
		break;
	case CL_BUILD_LOG:
		if (!result && c.a.kind == BUILD_LOG_PARAM && c.name)
			keep_build_log(&kk, c.name);
		break;
	case CL_PROFILE:
		if (!result && c.out)
			profiling_time(pid, c.a.addr, c.a.kind, read_user_u64(c.out));
		break;
	case CL_STREAM_CREATE:
		if (!result)
			c.a.stream = read_user_u64(c.out);
		break;
	case CL_LAUNCH:
	case CL_LAUNCH_EX:
	case CL_RT_LAUNCH:
		count_launch(pid, func, &c.a, result);
		break;
	case CL_LAUNCH_ND:
		count_launch(pid, func, &c.a, result);
		if (!result && c.out)
			keep_launch_event(pid, c.out, c.a.addr);
		break;
	case CL_LAUNCH_ZE:
		count_launch(pid, func, &c.a, result);
		break;
	case CL_SET_GROUP:
		if (!result) {
			struct group_size gsz = {};

			__builtin_memcpy(gsz.xyz, c.a.block, sizeof(gsz.xyz));
			bpf_map_update_elem(&group_sizes, &kk, &gsz, BPF_ANY);
		}
		break;
	}
	count_call(func, cls, result, lat, c.a.size);

	if (!emit_events || (errors_only && !result))
		return 0;
	e = event_reserve(sizeof(*e));
	if (!e)
		return 0;
	e->ts_ns = now;
	e->lat_ns = lat;
	e->pid = pid;
	e->tid = (__u32)id;
	e->func = func;
	e->result = result;
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	e->a = c.a;
	e->name[0] = 0;
	/* The kernel's name; a build log's start. */
	if (cls == CL_GET_FUNC || (cls == CL_BUILD_LOG && c.a.kind == BUILD_LOG_PARAM && !result))
		bpf_probe_read_user_str(e->name, sizeof(e->name), (void *)c.name);
	event_submit(e);
	return 0;
}

SEC("uretprobe")
int BPF_KRETPROBE(api_exit, long ret)
{
	return on_exit(ctx, ret, bpf_get_attach_cookie(ctx));
}

/*
 * Kernels without bpf_get_attach_cookie (before 5.15): a small program per
 * function instead, api_enter_N and api_exit_N for the function whose
 * cookie the frontend put in fallback_cookies[N] (it loads only those of
 * the functions found, and only there). Each parks the cookie in a per-CPU
 * slot and tail-calls one shared program, api_enter_shared or
 * api_exit_shared: the verifier checks on_enter and on_exit once, not once
 * per function (a copy each cost 11 s of start-up on 5.10 under qemu).
 * Nothing else runs on the CPU between the two (the kernel's bpf_prog_active
 * guard); the slot names its thread all the same.
 */
const volatile __u64 fallback_cookies[NR_FALLBACK] = {};

struct fallback_slot {
	__u64 pid_tgid;
	__u64 cookie;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fallback_slot);
} fallback_slot SEC(".maps");

/* The shared programs, put at FALLBACK_ENTER and FALLBACK_EXIT by the frontend. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} fallback_progs SEC(".maps");

static __always_inline int fallback_to(struct pt_regs *ctx, __u32 n, __u32 shared)
{
	struct fallback_slot *slot = bpf_map_lookup_elem(&fallback_slot, &(__u32){ 0 });

	if (!slot)
		return 0;
	slot->pid_tgid = bpf_get_current_pid_tgid();
	slot->cookie = fallback_cookies[n];
	bpf_tail_call(ctx, &fallback_progs, shared);
	return 0;
}

/* The slot the function's own program filled, if this thread's. */
static __always_inline struct fallback_slot *fallback_parked(void)
{
	struct fallback_slot *slot = bpf_map_lookup_elem(&fallback_slot, &(__u32){ 0 });

	if (!slot || slot->pid_tgid != bpf_get_current_pid_tgid())
		return NULL;
	return slot;
}

SEC("uprobe")
int api_enter_shared(struct pt_regs *ctx)
{
	struct fallback_slot *slot = fallback_parked();

	return slot ? on_enter(ctx, slot->cookie) : 0;
}

SEC("uretprobe")
int api_exit_shared(struct pt_regs *ctx)
{
	struct fallback_slot *slot = fallback_parked();

	return slot ? on_exit(ctx, PT_REGS_RC(ctx), slot->cookie) : 0;
}

#define FALLBACK(name, n)							\
	SEC("uprobe")								\
	int api_enter_##name(struct pt_regs *ctx)				\
	{									\
		return fallback_to(ctx, n, FALLBACK_ENTER);			\
	}									\
	SEC("uretprobe")							\
	int api_exit_##name(struct pt_regs *ctx)				\
	{									\
		return fallback_to(ctx, n, FALLBACK_EXIT);			\
	}
/* Named in octal: api_enter_00 ... api_enter_177 for N = 0 ... 127 (the frontend's %02o). */
#define FALLBACK8(n, base)							\
	FALLBACK(n##0, base + 0) FALLBACK(n##1, base + 1)			\
	FALLBACK(n##2, base + 2) FALLBACK(n##3, base + 3)			\
	FALLBACK(n##4, base + 4) FALLBACK(n##5, base + 5)			\
	FALLBACK(n##6, base + 6) FALLBACK(n##7, base + 7)
FALLBACK8(0, 0) FALLBACK8(1, 8) FALLBACK8(2, 16) FALLBACK8(3, 24)
FALLBACK8(4, 32) FALLBACK8(5, 40) FALLBACK8(6, 48) FALLBACK8(7, 56)
FALLBACK8(10, 64) FALLBACK8(11, 72) FALLBACK8(12, 80) FALLBACK8(13, 88)
FALLBACK8(14, 96) FALLBACK8(15, 104) FALLBACK8(16, 112) FALLBACK8(17, 120)

/* A traced process is gone: the frontend reports and forgets its allocations. */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(api_proc_exit, struct task_struct *task)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct proc_info *pi;

	/* Only the last thread: signal->live is already decremented for it. */
	if (BPF_CORE_READ(task, signal, live.counter) != 0)
		return 0;
	pi = bpf_map_lookup_elem(&procs, &pid);
	if (!pi)
		return 0;
	notice(NOTICE_EXIT, pid, pi->comm, pi->cgroup_id, bpf_ktime_get_ns(),
	       BPF_CORE_READ(task, exit_code));
	bpf_map_delete_elem(&procs, &pid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
