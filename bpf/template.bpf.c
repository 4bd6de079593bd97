// SPDX-License-Identifier: GPL-2.0
/*
 * template: ioctl(2) per process and command - calls, errors, latency -
 * the smallest complete tool, the one a new tool is copied from
 * (CONTRIBUTING.md). Every GPU driver's user space enters the kernel there.
 *
 * Two paths, as every tracepoint tool has them, each only reading its
 * inputs and calling the one body of its event:
 * - the BTF path: tp_btf programs on raw_syscalls' sys_enter and sys_exit,
 *   given the tracepoint's typed arguments (the registers and the call's
 *   number or result); run for every system call, they keep ioctl's (its
 *   number; at the exit, the thread's call in flight);
 * - the record path (--no-btf; a driver tool's path where its module has
 *   no BTF): classic programs on syscalls:sys_{enter,exit}_ioctl, reading
 *   the records' fields at the offsets the frontend found in tracefs.
 * A call is counted at its return, timed from its entry: calls that
 * entered before tracing began are not counted. 32-bit processes' calls
 * are not in the per-syscall events; raw_syscalls has them under their own
 * numbers (on x86-64, ioctl's 16 is their lchown, which the BTF path
 * counts too).
 */
#include "kernel_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the caller's registers at sys_enter */
#include <bpf/bpf_tracing.h>
#include "tool.bpf.h"
#include "tp_record.bpf.h"
#include "template.h"

/* ioctl's system call number on this architecture: the frontend's SYS_ioctl. */
const volatile long nr_ioctl = -1;

/* What found its table full: counted, reported by the frontend. */
__u64 dropped_rows = 0;
__u64 dropped_calls = 0;

/* A call in flight, per thread: in a slot its thread id picks (inflight.bpf.h). */
struct call {
	__u64 start_ns;		/* first: never 0 in a call */
	__u32 cmd;
	__u32 fd;
};
INFLIGHT(calls, struct call, MAX_CALLS);

ROWS(stats, struct ioctl_key, struct ioctl_stats, ROW_BITS);

static __always_inline int ioctl_entered(unsigned long fd, unsigned long cmd)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct call c = { .start_ns = bpf_ktime_get_ns(), .cmd = cmd, .fd = fd };

	if (!current_wanted(id >> 32))
		return 0;
	/* A call whose return was missed is replaced: no stale start stays behind. */
	if (INFLIGHT_SAVE(calls, id, &c))
		__sync_fetch_and_add(&dropped_calls, 1);
	return 0;
}

/* The row of `key`, named (comm, cgroup) only when it is made, as every tool's rows are. */
static __always_inline struct ioctl_stats *row_of(struct ioctl_key key)
{
	struct stats_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET_NAMED(stats, key, &idx, &made, &dropped_rows);
	if (r && made)
		r->s.lat.min = ~0ULL;
	return r ? &r->s : NULL;
}

static __always_inline int ioctl_returned(long ret)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ioctl_key key = { .pid = id >> 32 };
	struct template_event *e;
	struct ioctl_stats *s;
	__u64 now, lat_ns, latency;
	struct call *c;
	__u32 fd;

	/* First: the BTF path runs at every system call's return. */
	c = INFLIGHT_GET(calls, id);
	if (!c)
		return 0;	/* entered before tracing, or not a process asked for */
	now = bpf_ktime_get_ns();
	lat_ns = now - c->start_ns;
	latency = to_units(lat_ns);
	key.cmd = c->cmd;
	fd = c->fd;
	INFLIGHT_END(calls, id, c);

	s = row_of(key);
	if (s) {
		__sync_fetch_and_add(&s->calls, 1);
		if (ret < 0)
			__sync_fetch_and_add(&s->errors, 1);
		lat_hist_add(&s->lat, latency);
	}
	if (!emit_events)
		return 0;
	e = event_reserve(sizeof(*e));
	if (!e)
		return 0;
	e->ts_ns = now;
	e->cgroup_id = bpf_get_current_cgroup_id();
	e->latency = latency;
	e->lat_ns = lat_ns;
	e->ret = ret;
	e->pid = key.pid;
	e->tid = (__u32)id;
	e->cmd = key.cmd;
	e->fd = fd;
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	event_submit(e);
	return 0;
}

/* The BTF path: the tracepoints' typed arguments. */
SEC("tp_btf/sys_enter")
int BPF_PROG(ioctl_enter, struct pt_regs *regs, long nr)
{
	if (nr != nr_ioctl)
		return 0;
	return ioctl_entered(PT_REGS_PARM1_SYSCALL(regs), PT_REGS_PARM2_SYSCALL(regs));
}

/* A thread makes one call at a time: its call in flight is the one returning. */
SEC("tp_btf/sys_exit")
int BPF_PROG(ioctl_exit, struct pt_regs *regs, long ret)
{
	return ioctl_returned(ret);
}

/*
 * The record path: the same arguments from the trace records, at the
 * offsets tracefs gives (the frontend fills these before load). A driver
 * tool counts its classic programs' skipped firings (TP_RECORD_COUNTERS());
 * the syscall events have no tracepoint of their own to count them at.
 */
TP_FIELD(f_fd);
TP_FIELD(f_cmd);
TP_FIELD(f_ret);

SEC("tracepoint")
int tp_ioctl_enter(void *ctx)
{
	return ioctl_entered(tp_read_u64(ctx, &f_fd), tp_read_u64(ctx, &f_cmd));
}

SEC("tracepoint")
int tp_ioctl_exit(void *ctx)
{
	return ioctl_returned(tp_read_s64(ctx, &f_ret));
}

char LICENSE[] SEC("license") = "GPL";
