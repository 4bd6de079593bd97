/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Spare programs. The kernel does not run a BPF program on a CPU where the
 * same program is still running (preempted, as 7.x's tracepoints allow, or
 * interrupted by its own hook): it skips the event and counts a recursion
 * miss. So a hot hook can have its handler attached a second time, as a
 * program named PRIMARY_spare (tool.h's tool_choose_spares()), attached
 * after the primary and so run after it on every event. The spare acts
 * only on what the primary left undone and counts each event it took in
 * tool.bpf.h's spare_rescues: the frontend reports as lost only the
 * primary's misses the spare did not take (trace_loop.c). An event is
 * lost only when both programs were busy on its CPU.
 *
 * Both start with spare_first(), which makes the spare cheap where the
 * primary ran: the primary notes on its CPU the event it runs for, and the
 * spare that finds its own event noted there returns at once. Elsewhere
 * (the primary skipped, or the task moved to another CPU between the two)
 * the spare looks at the job itself: spare_takes() with whether the
 * primary left it undone (a job not yet marked run, a job still tracked at
 * its done).
 */
#ifndef GPU_BPF_SPARE_BPF_H
#define GPU_BPF_SPARE_BPF_H

/* Whether the spares load (tool_choose_spares()): else a primary notes nothing. */
const volatile bool with_spares = false;

/* The hooks with spares, each noting its last event per CPU. */
enum spare_hook { SPARE_RUN, SPARE_DONE, NR_SPARE_HOOKS };

/* An event, by the job's finished fence. */
struct spare_mark {
	__u64 context;
	__u64 seqno;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_SPARE_HOOKS);
	__type(key, __u32);
	__type(value, struct spare_mark);
} spare_marks SEC(".maps");

/*
 * At the start of a handler: whether to go on with job context:seqno's
 * event of `hook`. A primary always, noting it; a spare unless this CPU's
 * primary noted this very event (a fence's event comes once).
 */
static __always_inline bool spare_first(__u32 hook, __u64 context, __u64 seqno, bool spare)
{
	struct spare_mark *m;

	if (!with_spares)
		return true;
	m = bpf_map_lookup_elem(&spare_marks, &hook);
	if (!m)
		return true;
	if (!spare) {
		m->context = context;
		m->seqno = seqno;
		return true;
	}
	return m->context != context || m->seqno != seqno;
}

/* In a spare: whether the primary left this event `undone`, counted if so. */
static __always_inline bool spare_takes(bool undone)
{
	if (undone)
		__sync_fetch_and_add(&spare_rescues, 1);
	return undone;
}

#endif /* GPU_BPF_SPARE_BPF_H */
