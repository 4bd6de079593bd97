/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one store of per-key state on the kernel side: rows kept for the
 * session (per process and call, say) in the slots of an array, found by
 * hashing their key: open addressing with linear probing. Finding an
 * event's row is then array lookups the verifier inlines and a compare,
 * where a hash map's lookup hashes the key (jhash) and walks a bucket, and
 * its insert takes the bucket's lock and an element off a free list: on the
 * hot path of a tool that counts every call, most of its cost. And a row is
 * made in place, where a hash map's insert copies a whole initial value
 * (a scratch map's, when it is too big for the stack).
 *
 * A row is three members, struct NAME_row: `match` (0 while the row is
 * free), the key, and what the frontend reads, s:
 *
 *	ROWS(calls, struct call_key, struct call_stats, 12);
 *						array calls of 1 << 12 rows of
 *						struct calls_row, and
 *						calls_claims (before 5.12)
 *	r = ROWS_GET(calls, key, &idx, &made, &full);	the row of `key`,
 *						a struct call_key; NULL: no room
 *						(*full counted); idx: the row's
 *						index
 *	if (made) ...				the first of its key, its key
 *						copied in: set what is not zero
 *						(a histogram's min)
 *	r = ROWS_GET_NAMED(calls, ...);		the same, and the stats' comm
 *						and cgroup_id set when made
 *	s = ROWS_STATS(calls, key, &full);	&r->s of ROWS_GET_NAMED's row
 *	r = ROWS_FIND(calls, key, &idx);	NULL: no row (none is made)
 *	r = ROWS_GET_AT(jobs, key, start, ...);	ROWS_GET, ROWS_FIND with the
 *	r = ROWS_FIND_AT(jobs, key, start, &idx);	probes from `start`: rows
 *						side by side (a context's jobs)
 *
 * The frontend reads such an array as a hash map of key and stats
 * (map_snapshot(): its rows in use, read in place through a mapping of
 * the array).
 *
 * Rows that end (an object destroyed, a job done) are freed, and leave
 * holes that a key's row may sit beyond: ROWS_FIND and ROWS_FIND_ADDR
 * check every probe. ROWS_GET stops at the first free slot: a row of the
 * same key past it (one never freed) is left behind the new one, which
 * lookups, probing in the same order, find first.
 *
 *	r = ROWS_FIND_ADDR(objects, obj, &idx);	NULL: not there
 *	r = ROWS_GET_ADDR(objects, obj, &idx, &made, &full);
 *	ROWS_FREE(objects, r, idx);		its slot free for another key
 *
 * A lookup on a hot path with other branches before it tries the first
 * probe inline and leaves the rest to a global function, which takes the
 * address as a number:
 *
 *	r = ROWS_FIRST_ADDR(objects, obj, &idx);	NULL: not in its first probe
 *	idx = obj_index(addr_value(obj));	a global function's ROWS_FIND_ADDR
 *
 * The _ADDR forms take a kernel address as the key (the key member a
 * __u64, the address again), a pointer the program was given (a
 * tracepoint's object): the verifier allows no arithmetic on it, but lets
 * a privileged program copy its low 32 bits, which is what they hash (slab
 * addresses differ there), and compare and store the whole.
 *
 * tool_load() sizes NAME_claims to 1 where the kernel has compare-and-swap,
 * but for tables declared ROWS_CLAIMED, whose rows ROWS_GET_CLAIMED makes.
 */
#ifndef GPU_BPF_ROWS_BPF_H
#define GPU_BPF_ROWS_BPF_H

#include "histogram.bpf.h"	/* has_atomic_fetch */

/* Slots a key tries before the table counts as full. */
#define ROW_PROBES 8

/* The index no row has: a global function's "none" (a lookup of it finds NULL). */
#define NO_ROW 0xffffffffu

#define ROWS_TABLE(name, key_t, value_t, bits, claim_t)				\
	struct name##_row {							\
		__u64 match;							\
		key_t key;							\
		value_t s;							\
	};									\
	struct {								\
		__uint(type, BPF_MAP_TYPE_ARRAY);				\
		__uint(max_entries, 1 << (bits));				\
		__uint(map_flags, BPF_F_MMAPABLE);	/* read in place */	\
		__type(key, __u32);						\
		__type(value, struct name##_row);				\
	} name SEC(".maps");							\
	struct {								\
		__uint(type, BPF_MAP_TYPE_HASH);				\
		__uint(max_entries, 1 << (bits));				\
		__type(key, __u32);						\
		__type(value, claim_t);	/* the match the row is taken for */	\
	} name##_claims SEC(".maps");						\
	enum { name##_bits = (bits) }

/*
 * A claim's value: a plain __u64 where the claims are needed only before
 * 5.12 (tool_load() sizes the map to one entry elsewhere); this struct for
 * a table whose rows ROWS_GET_CLAIMED makes, which needs them on every kernel.
 */
struct row_claim {
	__u64 match;
};

#define ROWS(name, key_t, value_t, bits) ROWS_TABLE(name, key_t, value_t, bits, __u64)
#define ROWS_CLAIMED(name, key_t, value_t, bits) \
	ROWS_TABLE(name, key_t, value_t, bits, struct row_claim)

/*
 * Take the free row `idx` for `key`, unless another CPU takes it first: by
 * compare-and-swap, or by its index in the claims before 5.12 (the
 * compare-and-swap is dead code there, rewritten by
 * tool_load()) and wherever `cas` is false (ROWS_GET_CLAIMED).
 */
static __always_inline bool row_take(__u64 *row_key, void *claims, __u32 idx, __u64 key, bool cas)
{
	if (cas && has_atomic_fetch)
		return __sync_val_compare_and_swap(row_key, 0, key) == 0;
	if (bpf_map_update_elem(claims, &idx, &key, BPF_NOEXIST))
		return false;
	*row_key = key;
	return true;
}

/*
 * Is row `idx`, which another CPU took first, taken for `key`? A
 * compare-and-swap stored the key with the taking; a claim holds it from
 * the moment it is won, before the winner stores it in the row, so that
 * a loser of the same key does not go on to make a second row for it.
 */
static __always_inline bool row_taken_for(__u64 *row_key, void *claims, __u32 idx, __u64 key,
					  bool cas)
{
	__u64 *claimed;

	if (*row_key == key)
		return true;
	if (cas && has_atomic_fetch)
		return false;
	claimed = bpf_map_lookup_elem(claims, &idx);
	return claimed && *claimed == key;
}

/*
 * The row of `key` (nonzero) in `rows` of 1 << bits slots, its index in
 * *idx, made if it is new (*made set: its first user initialises it;
 * another CPU may count in it meanwhile, so what it sets must not be a
 * counter, and a histogram's min may miss that CPU's sample); NULL when
 * its probes found neither it nor a free slot, counted in *full.
 */
static __always_inline void *row_get(void *rows, void *claims, __u32 bits, __u64 key, __u32 h,
				     __u32 *idx_out, bool *made, __u64 *full, bool cas)
{
	__u32 i, idx;
	__u64 *row;

	*made = false;
	for (i = 0; i < ROW_PROBES; i++) {
		idx = (h + i) & ((1u << bits) - 1);
		row = bpf_map_lookup_elem(rows, &idx);
		if (!row)
			break;
		*idx_out = idx;
		if (*row == key)
			return row;
		if (*row)
			continue;
		if (row_take(row, claims, idx, key, cas)) {
			*made = true;
			return row;
		}
		/* Another CPU took it: maybe for this key. */
		if (row_taken_for(row, claims, idx, key, cas))
			return row;
	}
	__sync_fetch_and_add(full, 1);
	return NULL;
}

/* Where a key's probes start: the top bits of its hash. */
static __always_inline __u32 row_hash(__u64 key, __u32 bits)
{
	return (__u32)((key * 0x9E3779B97F4A7C15ULL) >> (64 - bits));
}

/*
 * An address's: its page's hash, plus its offset in the page in 64-byte
 * steps. Objects that share a page (a slab's neighbours, made together and
 * used together) get rows side by side, about a page of rows for a page of
 * objects, where hashing the whole address gives each object a page of the
 * table of its own and each event a cache and TLB miss. Pages' runs start
 * anywhere, not at multiples of 64: objects at the same offset in two
 * pages rarely meet.
 */
static __always_inline __u32 row_hash_addr(__u64 addr, __u32 bits)
{
	__u32 a;

	/* A copy of the low half: the verifier refuses shifting the pointer itself. */
	asm volatile("%[a] = %[p]" : [a] "=w"(a) : [p] "w"((__u32)addr));
	return (((a >> 12) * 0x9E3779B1u) >> (32 - bits)) + ((a >> 6) & 63);
}

/*
 * A kernel address the program was given, which the verifier types as a
 * pointer, as a plain number: what a global function's argument must be
 * (row_first()). Negating a pointer is allowed a privileged program and
 * leaves a number; twice, the same number.
 */
static __always_inline __u64 addr_value(__u64 addr)
{
	asm volatile("%[a] = -%[a]; %[a] = -%[a]" : [a] "+r"(addr));
	return addr;
}

/* A key's words hashed as numbers: a key may hold a kernel address (a tracepoint's drm_file). */
#define ROW_KEY_WORD(w) addr_value(w)
#include "rows.h"

/*
 * `var`, a copy of `kv` (a value of table `name`'s key type) in a zeroed
 * union with its words, which row_key_match() hashes: words aligned there,
 * as the verifier wants the stack's, and the tail past a key of 12 or 20
 * bytes zero. A key with holes names them (a pad member) and zeroes them,
 * as a hash map's would.
 */
#define ROW_KEY_COPY(name, var, kv)							\
	union {										\
		typeof(((struct name##_row *)0)->key) k;				\
		__u64 w[(sizeof(((struct name##_row *)0)->key) + 7) / 8];		\
	} var = {};									\
	var.k = (kv)

/*
 * Where a key's probes start: by default (ROW_HASHED) where its match word
 * hashes to; or `start`, the caller's (ROWS_GET_AT). A caller's start that
 * is NO_ROW itself is taken as ROW_HASHED, alike on every lookup of its key.
 */
#define ROW_HASHED NO_ROW
#define ROW_START(name, start, m) \
	((start) == ROW_HASHED ? row_hash((m), name##_bits) : (__u32)(start))

/* The row of `kv`, made with its key copied in; its match word a hash of the key. */
#define ROWS_KEY_GET(name, kv, start, idx, made, full, cas) ({					\
	ROW_KEY_COPY(name, __rk, kv);								\
	__u64 __m = row_key_match(__rk.w, sizeof(__rk.w) / 8);					\
	void *__r = row_get(&name, &name##_claims, name##_bits, __m, ROW_START(name, start, __m), \
			    (idx), (made), (full), (cas));					\
												\
	if (__r && *(made))									\
		((struct name##_row *)__r)->key = __rk.k;					\
	__r;											\
})

#define ROWS_GET(name, kv, idx, made, full) ROWS_KEY_GET(name, kv, ROW_HASHED, idx, made, full, true)

/*
 * ROWS_GET and ROWS_FIND with the first probe the caller's: for keys whose
 * rows are best side by side (a fence context's jobs, by seqno), which
 * every lookup of the key starts from.
 */
#define ROWS_GET_AT(name, kv, start, idx, made, full) \
	ROWS_KEY_GET(name, kv, start, idx, made, full, true)

/*
 * ROWS_GET for rows that name their process, as most tools' do: the
 * stats' comm and cgroup_id, the current task's when the row is made.
 */
#define ROWS_GET_NAMED(name, kv, idx, made, full) ({				\
	struct name##_row *__nr = ROWS_GET(name, kv, idx, made, full);		\
										\
	if (__nr && *(made)) {							\
		bpf_get_current_comm(__nr->s.comm, sizeof(__nr->s.comm));	\
		__nr->s.cgroup_id = bpf_get_current_cgroup_id();		\
	}									\
	__nr;									\
})

/* The stats of `kv`'s row, named when made (ROWS_GET_NAMED); NULL: no room (*full counted). */
#define ROWS_STATS(name, kv, full) ({						\
	struct name##_row *__sr;						\
	bool __sm;								\
	__u32 __si;								\
										\
	__sr = ROWS_GET_NAMED(name, kv, &__si, &__sm, full);			\
	__sr ? &__sr->s : NULL;							\
})
#define ROWS_GET_ADDR(name, addr, idx, made, full) \
	row_get(&name, &name##_claims, name##_bits, (addr), row_hash_addr((addr), name##_bits), \
		(idx), (made), (full), true)
/*
 * ROWS_GET and ROWS_GET_ADDR taking free rows through NAME_claims on every
 * kernel (a table declared ROWS_CLAIMED), for a global function:
 * libbpf appends a global function's code to a program at load, out of
 * the reach of tool_load()'s rewrite. For tables whose rows are made rarely
 * (one per process, one per address space).
 */
#define ROWS_GET_CLAIMED(name, kv, idx, made, full) \
	ROWS_KEY_GET(name, kv, ROW_HASHED, idx, made, full, false)
#define ROWS_GET_ADDR_CLAIMED(name, addr, idx, made, full) \
	row_get(&name, &name##_claims, name##_bits, (addr), row_hash_addr((addr), name##_bits), \
		(idx), (made), (full), false)

/* The row of `key` (nonzero), its index in *idx; NULL when none of its probes holds it. */
static __always_inline void *row_find(void *rows, __u32 bits, __u64 key, __u32 h, __u32 *idx_out)
{
	__u32 i, idx;
	__u64 *row;

	for (i = 0; i < ROW_PROBES; i++) {
		idx = (h + i) & ((1u << bits) - 1);
		row = bpf_map_lookup_elem(rows, &idx);
		if (row && *row == key) {
			*idx_out = idx;
			return row;
		}
	}
	return NULL;
}

/* The row of `kv` (ROWS_GET's), its index in *idx; NULL: it has none. */
#define ROWS_FIND_AT(name, kv, start, idx) ({						\
	ROW_KEY_COPY(name, __fk, kv);							\
	__u64 __fm = row_key_match(__fk.w, sizeof(__fk.w) / 8);			\
											\
	row_find(&name, name##_bits, __fm, ROW_START(name, start, __fm), (idx));	\
})

#define ROWS_FIND(name, kv, idx) ROWS_FIND_AT(name, kv, ROW_HASHED, idx)

#define ROWS_FIND_ADDR(name, addr, idx) \
	row_find(&name, name##_bits, (addr), row_hash_addr((addr), name##_bits), (idx))

/*
 * The row of `key` if its first probe holds it, its index in *idx; else
 * NULL. Where most lookups end in a table far from full: a caller tries it
 * inline, then calls a global function for the rest of the probes, which
 * the verifier walks once, where a loop inlined is walked for every path
 * that reaches it (and the call is paid only past the first probe).
 */
static __always_inline void *row_first(void *rows, __u32 bits, __u64 key, __u32 h, __u32 *idx)
{
	__u64 *row;

	*idx = h & ((1u << bits) - 1);
	row = bpf_map_lookup_elem(rows, idx);
	return row && *row == key ? row : NULL;
}

#define ROWS_FIRST_ADDR(name, addr, idx) \
	row_first(&name, name##_bits, (addr), row_hash_addr((addr), name##_bits), (idx))

/* Free row `idx` (its key cleared last but for the claim: no one takes it half cleared). */
static __always_inline void row_free(__u64 *row, void *claims, __u32 idx)
{
	*row = 0;
	if (!has_atomic_fetch)
		bpf_map_delete_elem(claims, &idx);
}

#define ROWS_FREE(name, row, idx) row_free((__u64 *)(row), &name##_claims, (idx))

/*
 * Tables whose rows are handed out in order and kept for the session
 * (rings, processes), the rows in use [0, *nr) (readers take *nr or max,
 * the smaller): the next row's index, or max when all are taken. One
 * fetch-and-add from 5.12. Before, where BPF has none, the first of the
 * next ROW_CLAIM_TRIES rows whose index an insert into `claims` (sized 1
 * elsewhere: tool_load()) wins: a hash map's BPF_NOEXIST insert is
 * the one arbiter between CPUs there. Inlined: in a global function the
 * fetch-and-add would be out of the reach of tool_load()'s rewrite, and
 * where it is live the verifier walks no loop.
 */
#define ROW_CLAIM_TRIES 64

static __always_inline __u32 row_next(__u32 *nr, void *claims, __u32 max)
{
	__u32 idx = *nr, i;
	__u8 one = 1;

	if (idx >= max)		/* full: *nr no further from max than the CPUs at it */
		return max;
	if (has_atomic_fetch) {
		idx = __sync_fetch_and_add(nr, 1);
		return idx < max ? idx : max;
	}
	for (i = 0; i < ROW_CLAIM_TRIES && idx < max; i++, idx++) {
		if (!bpf_map_update_elem(claims, &idx, &one, BPF_NOEXIST)) {
			__sync_fetch_and_add(nr, 1);	/* result unused: no BPF_FETCH */
			return idx;
		}
	}
	return max;
}

#endif /* GPU_BPF_ROWS_BPF_H */
