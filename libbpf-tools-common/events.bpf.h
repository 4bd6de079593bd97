/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-event records for the tools' -e modes: one ring buffer per tool, and a
 * counter of records that did not fit, which the frontend reports (see
 * trace_loop.c).  Include once per .bpf.c, before the tool's own code.
 */
#ifndef GPU_BPF_EVENTS_BPF_H
#define GPU_BPF_EVENTS_BPF_H

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

#endif /* GPU_BPF_EVENTS_BPF_H */
