/* SPDX-License-Identifier: GPL-2.0 */
/* Reading whole maps from user space, for summaries. */
#ifndef GPU_BPF_MAPS_H
#define GPU_BPF_MAPS_H

#include <stddef.h>
#include <bpf/libbpf.h>

/* Keys and values of a map, copied out: entry i is at keys + i * key_size. */
struct map_snapshot {
	void *keys;
	void *values;
	size_t key_size;
	size_t value_size;
	size_t n;
};

/*
 * Copy every entry of `map` (hash, LRU hash, or array: read in one batch).
 * A rows.bpf.h table (an array whose value type starts with `match`, known
 * by the BTF given to map_snapshot_use_btf()) is read as a hash map of its
 * rows in use would be: each keyed by its key member, valued by what
 * follows. Returns 0 or a negative errno. Free with map_snapshot_free().
 */
int map_snapshot(struct bpf_map *map, struct map_snapshot *snap);
void map_snapshot_free(struct map_snapshot *snap);

/* The BPF object's BTF, where map_snapshot() finds the rows tables (tool_load() gives it). */
struct btf;
void map_snapshot_use_btf(const struct btf *btf);

/*
 * A summary's snapshots: map_snapshot() of maps[0..n) into snaps[0..n),
 * all or none: on an error every one is freed and the
 * error returned.
 */
int map_snapshot_all(struct bpf_map *const *maps, struct map_snapshot *snaps, size_t n);

/*
 * After a summary: free the previous snapshots prev[0..n) and keep this
 * summary's (now[0..n), moved) as the next one's previous.
 */
void map_snapshot_keep(struct map_snapshot *prev, struct map_snapshot *now, size_t n);

/* Free snaps[0..n). */
void map_snapshot_free_all(struct map_snapshot *snaps, size_t n);

/*
 * Sort the entries with `cmp`, which gets two rows, each a key followed by
 * its value (the key is at the row's start, so key comparators work as is).
 */
int map_snapshot_sort(struct map_snapshot *snap, int (*cmp)(const void *, const void *));

/*
 * The value of `key` in a snapshot (NULL: absent). Linear: for the previous
 * summary's rows, to print what changed since (counters that only grow).
 */
const void *map_snapshot_find(const struct map_snapshot *s, const void *key);

/*
 * What a counter of a row grew by since the previous summary's row `was`
 * (map_snapshot_find(); NULL: the row is new since, so all of it). The
 * kernel side's counters only grow; a summary prints their differences.
 */
#define DELTA(now, was, field) ((now)->field - ((was) ? (was)->field : 0))

static inline void *snapshot_key(const struct map_snapshot *s, size_t i)
{
	return (char *)s->keys + i * s->key_size;
}

static inline void *snapshot_value(const struct map_snapshot *s, size_t i)
{
	return (char *)s->values + i * s->value_size;
}

/*
 * Element `key` of a per-CPU array whose values are n __u64 counters (a
 * struct of them), summed over the CPUs into sum[0..n). Returns 0 or a
 * negative errno.
 */
int map_sum_percpu(const struct bpf_map *map, __u32 key, __u64 *sum, size_t n);

#endif /* GPU_BPF_MAPS_H */
