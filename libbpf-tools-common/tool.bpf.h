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
#include "inflight.bpf.h"

/* -m: durations in milliseconds, else microseconds. */
const volatile bool targ_ms = false;
/* -e: send one record per event through the ring buffer. */
const volatile bool emit_events = false;

/*
 * Events of hot hooks that spare programs (spare.bpf.h) took because their
 * primary was skipped: in every skeleton, for the frontend's report of
 * what was lost (trace_loop.c).
 */
__u64 spare_rescues = 0;

/* A duration in the unit of -m, as the tables and histograms show it. */
static __always_inline __u64 to_units(__u64 ns)
{
	return targ_ms ? ns / 1000000 : ns / 1000;
}

#endif /* GPU_BPF_TOOL_BPF_H */
