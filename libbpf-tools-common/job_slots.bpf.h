/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Jobs in flight on the DRM scheduler, each named by its finished fence,
 * context:seqno (unique, never reused), kept in the slots of an array
 * found by hashing the fence: no hash map on a job's path. A hash map's
 * insert and delete take a bucket lock and an element off a free list,
 * and every lookup hashes the key; a burst's thousands of jobs a second
 * would pay that at each of their events.
 *
 * The tool defines, before including this:
 *	JOB_SLOT_BITS, JOB_PROBES	MAX_JOBS is 1 << JOB_SLOT_BITS slots;
 *					a job tries JOB_PROBES of them
 *	JOB_SLOT_FIELDS			what the tool keeps per job: the
 *					members of struct job_slot after
 *					its fence and index
 * tool_load() sizes job_claims to 1 where the kernel has compare-and-swap
 * (tool.h).
 */
#ifndef GPU_BPF_JOB_SLOTS_BPF_H
#define GPU_BPF_JOB_SLOTS_BPF_H

#include "histogram.bpf.h"	/* has_atomic_fetch */

#ifndef MAX_JOBS
#define MAX_JOBS	(1 << JOB_SLOT_BITS)
#endif

struct job_slot {
	__u64 context;	/* 0: the slot is free (fence contexts start at 1) */
	__u64 seqno;
	__u32 idx;	/* the slot's own index in jobs, for job_claims */
	JOB_SLOT_FIELDS
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, MAX_JOBS);
	__type(key, __u32);
	__type(value, struct job_slot);
} jobs SEC(".maps");

/*
 * Without has_atomic_fetch (kernels < 5.12), the slots taken: a slot is
 * someone's once its index is in here. A hash map's BPF_NOEXIST insert is
 * the one arbiter between CPUs tracing programs have there: no
 * compare-and-swap before 5.12, no bpf_spin_lock in tracing programs.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_JOBS);
	__type(key, __u32);
	__type(value, __u8);
} job_claims SEC(".maps");

/*
 * A context's jobs (consecutive seqnos) take consecutive slots from a point
 * its hash picks: the slots a burst touches share pages and cache lines, as
 * random slots would not (a TLB and cache miss per event). Contexts whose
 * runs of slots meet probe past each other.
 */
static __always_inline __u32 job_hash(__u64 context, __u64 seqno)
{
	return (__u32)((context * 0x9E3779B97F4A7C15ULL) >> (64 - JOB_SLOT_BITS)) + (__u32)seqno;
}

/*
 * The index of job context:seqno's slot, or MAX_JOBS if it is not tracked.
 * A global function: the verifier walks the probes once per program, where
 * a slot pointer returned from each probe would have it walk the rest of
 * the caller once per probe.
 */
__noinline __u32 job_index(__u64 context, __u64 seqno)
{
	__u32 h = job_hash(context, seqno), i, idx;
	struct job_slot *slot;

	/* Every probe is checked: freed slots leave no marker to stop at. */
	for (i = 0; i < JOB_PROBES; i++) {
		idx = (h + i) & (MAX_JOBS - 1);
		slot = bpf_map_lookup_elem(&jobs, &idx);
		if (slot && slot->context == context && slot->seqno == seqno)
			return idx;
	}
	return MAX_JOBS;
}

/* The slot of job context:seqno, or NULL if it is not tracked. */
static __always_inline struct job_slot *job_find(__u64 context, __u64 seqno)
{
	__u32 idx = job_index(context, seqno);

	return bpf_map_lookup_elem(&jobs, &idx);
}

/*
 * Take the free slot `idx` for `context`, unless another CPU takes it first:
 * by compare-and-swap, or, before 5.12, by its index in job_claims (the
 * compare-and-swap is dead code there, rewritten by
 * tool_load()).
 */
static __always_inline bool job_slot_take(struct job_slot *slot, __u32 idx, __u64 context)
{
	__u8 one = 1;

	if (slot->context)
		return false;
	if (has_atomic_fetch)
		return __sync_val_compare_and_swap(&slot->context, 0, context) == 0;
	if (bpf_map_update_elem(&job_claims, &idx, &one, BPF_NOEXIST))
		return false;
	slot->context = context;
	return true;
}

/* A free slot for job context:seqno, taken; NULL when its probes found none. */
static __always_inline struct job_slot *job_claim(__u64 context, __u64 seqno)
{
	__u32 h = job_hash(context, seqno), i, idx;
	struct job_slot *slot;

	if (!context)
		return NULL;
	for (i = 0; i < JOB_PROBES; i++) {
		idx = (h + i) & (MAX_JOBS - 1);
		slot = bpf_map_lookup_elem(&jobs, &idx);
		if (!slot)
			break;
		if (job_slot_take(slot, idx, context)) {
			slot->seqno = seqno;
			slot->idx = idx;
			return slot;
		}
	}
	return NULL;
}

/*
 * After the job's last event: free its slot (the seqno first, so it can
 * match nothing; the claim last, so no one takes a slot still being cleared).
 */
static __always_inline void job_release(struct job_slot *slot)
{
	__u32 idx = slot->idx;

	slot->seqno = 0;
	slot->context = 0;
	if (!has_atomic_fetch)
		bpf_map_delete_elem(&job_claims, &idx);
}

#endif /* GPU_BPF_JOB_SLOTS_BPF_H */
