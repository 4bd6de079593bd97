/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every tool's kernel side has, under the same names in every
 * skeleton, so that one frontend helper sets them all (tool.h's
 * tool_set_rodata()): the filters of -p, -c and --cgroup (filter.bpf.h),
 * -e's ring buffer and its lost-record count, -m; and the row store
 * (rows.bpf.h), histograms and calls in flight. Include it first in
 * bpf/NAME.bpf.c, after vmlinux-level headers; a tool that sizes its ring
 * buffer defines EVENTS_RINGBUF_BYTES before.
 */
#ifndef GPU_BPF_TOOL_BPF_H
#define GPU_BPF_TOOL_BPF_H

#include "filter.bpf.h"
#include "histogram.bpf.h"
#include "inflight.bpf.h"
#include "rows.bpf.h"

/*
 * -e's records: one ring buffer per tool, and a count of the records that
 * did not fit, which the frontend reports (trace_loop.c).
 */
#ifndef EVENTS_RINGBUF_BYTES
#define EVENTS_RINGBUF_BYTES (256 * 1024)	/* frontends may resize */
#endif

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, EVENTS_RINGBUF_BYTES);
} events SEC(".maps");

/* Records dropped because the ring buffer was full. */
__u64 lost_events = 0;

static __always_inline void *event_reserve(__u64 size)
{
	void *e = bpf_ringbuf_reserve(&events, size, 0);

	if (!e)
		__sync_fetch_and_add(&lost_events, 1);
	return e;
}

/*
 * Submit a reserved record. Waking the reader for every record costs more
 * than the record itself under bursts of thousands of events per second:
 * wake it only once a quarter of the buffer is waiting. The frontend polls
 * with a timeout (trace_loop.c), so a lone record still shows within 100 ms.
 */
static __always_inline void event_submit(void *e)
{
	__u64 waiting = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);
	__u64 size = bpf_ringbuf_query(&events, BPF_RB_RING_SIZE);

	bpf_ringbuf_submit(e, waiting >= size / 4 ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

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
