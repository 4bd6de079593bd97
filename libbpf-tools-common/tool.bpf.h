/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The globals every tool's kernel side has, under the same names in every
 * skeleton, so that one frontend helper sets them all (tool.h's
 * tool_set_rodata()): the filters of -p, -c and --cgroup (filter.bpf.h),
 * the per-event ring buffer and its lost-record count (events.bpf.h), -m
 * and -e. Include it first in bpf/NAME.bpf.c, after vmlinux-level headers;
 * a tool that sizes its ring buffer defines EVENTS_RINGBUF_BYTES before.
 */
#ifndef GPU_BPF_TOOL_BPF_H
#define GPU_BPF_TOOL_BPF_H

#include "filter.bpf.h"
#include "events.bpf.h"
#include "histogram.bpf.h"

/* -m: durations in milliseconds, else microseconds. */
const volatile bool targ_ms = false;
/* -e: send one record per event through the ring buffer. */
const volatile bool emit_events = false;

/*
 * Spare programs. The kernel does not run a BPF program on a CPU where the
 * same program is still running (preempted, as 7.x's tracepoints allow, or
 * interrupted by its own hook): it skips the event and counts a recursion
 * miss. So a hot hook can have its handler attached a second time, as a
 * program named PRIMARY_spare (tool.h's tool_choose_spares()), attached
 * after the primary and so run after it on every event. The spare acts
 * only on what the primary left undone (a job not yet marked run, a job
 * not yet done) and counts each event it took here: the frontend reports
 * as lost only the primary's misses the spare did not take (trace_loop.c).
 * An event is lost only when both programs were busy on its CPU.
 */
__u64 spare_rescues = 0;

/* In a spare: whether the primary left this event `undone`, counted if so. */
static __always_inline bool spare_takes(bool undone)
{
	if (undone)
		__sync_fetch_and_add(&spare_rescues, 1);
	return undone;
}

/* A duration in the unit of -m, as the tables and histograms show it. */
static __always_inline __u64 to_units(__u64 ns)
{
	return targ_ms ? ns / 1000000 : ns / 1000;
}

#endif /* GPU_BPF_TOOL_BPF_H */
