// SPDX-License-Identifier: GPL-2.0
/* Emits one 1 KiB record per call of the test's probed function into a
 * ring buffer of a single page, so most records cannot fit. And counts the
 * calls of another function per key, in counters that only grow, as the
 * tools count: the frontend's interval differences must add up to them;
 * and again in rows by index (rows.bpf.h), in fewer slots than would
 * spare a key from probing past another's; and hands out rows in order to
 * more callers than there are rows. */
#include "kernel_types.bpf.h"
#include <asm/ptrace.h>	/* struct pt_regs: the registers at a uprobe */
#define EVENTS_RINGBUF_BYTES 4096
#include "tool.bpf.h"

struct record {
	__u64 seq;
	char pad[1016];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u64);
} table SEC(".maps");

__u64 calls = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct lat_hist);
} counts SEC(".maps");

struct counted_key {
	__u32 key;
	__u32 pad;
};
ROWS(counted_rows, struct counted_key, struct lat_hist, 4);
/* The same calls counted by their row's address: a key holding a pointer. */
ROWS(row_addrs, __u64, __u64, 4);
__u64 rows_full = 0;

SEC("uprobe")
int BPF_KPROBE(on_counted, __u32 key)
{
	struct counted_key ck = { .key = key };
	struct lat_hist *h, init = LAT_HIST_INIT;
	struct counted_rows_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET(counted_rows, ck, &idx, &made, &rows_full);
	if (r && made)
		r->s.min = ~0ULL;
	if (r) {
		struct row_addrs_row *a;

		lat_hist_add(&r->s, key + 1);
		a = ROWS_GET(row_addrs, (__u64)r, &idx, &made, &rows_full);
		if (a)
			__sync_fetch_and_add(&a->s, 1);
	}

	h = bpf_map_lookup_elem(&counts, &key);
	if (!h) {
		bpf_map_update_elem(&counts, &key, &init, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&counts, &key);
		if (!h)
			return 0;
	}
	lat_hist_add(h, key + 1);	/* a sample whose value says which key it is */
	return 0;
}

/* Rows freed and found by address (rows.bpf.h's _ADDR forms), in 16 slots. */
ROWS(addr_rows, __u64, __u64, 4);	/* the address, and nothing */
__s32 addr_idx = -1;	/* the last call's row, -1: none */

/* op 0: make addr's row; 1: find it; 2: find it and free it. */
SEC("uprobe")
int BPF_KPROBE(on_addr, __u64 addr, int op)
{
	struct addr_rows_row *r;
	__u32 idx = 0;
	bool made;

	if (op == 0)
		r = ROWS_GET_ADDR(addr_rows, addr, &idx, &made, &rows_full);
	else
		r = ROWS_FIND_ADDR(addr_rows, addr, &idx);
	if (r && op == 0)
		r->key = addr;
	if (r && op == 2)
		ROWS_FREE(addr_rows, r, idx);
	addr_idx = r ? (__s32)idx : -1;
	return 0;
}

/* Rows handed out in order (rows.bpf.h's row_next()): 6 of them. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 6);
	__type(key, __u32);
	__type(value, __u8);
} next_claims SEC(".maps");
__u32 nr_next = 0;
__u32 next_given[6 + 1] = {};	/* the calls given each row; the last: told it was full */

SEC("uprobe")
int BPF_KPROBE(on_next)
{
	__u32 idx = row_next(&nr_next, &next_claims, 6);

	if (idx <= 6)
		__sync_fetch_and_add(&next_given[idx], 1);
	return 0;
}

SEC("uprobe")
int BPF_KPROBE(on_call)
{
	struct record *r;
	__u64 seq = __sync_fetch_and_add(&calls, 1);

	r = event_reserve(sizeof(*r));
	if (!r)
		return 0;
	r->seq = seq;
	event_submit(r);
	return 0;
}

/*
 * Set by name before load, as tool_load() sets spare.bpf.h's
 * (tool_set_rodata_bool()); its neighbours must not move.
 */
const volatile __u32 before_spares = 7;
const volatile bool with_spares = false;
const volatile bool after_spares = false;

/* Spares (tool.bpf.h) by name only: tool_choose_spares() loads on_call_spare where on_call loads. */
SEC("uprobe")
int BPF_KPROBE(on_call_spare)
{
	return 0;
}

/* A spare without a primary never loads. */
SEC("uprobe")
int BPF_KPROBE(orphan_spare)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
