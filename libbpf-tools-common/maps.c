// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "maps.h"
#include "rows.h"

static const struct btf *rows_btf;

void map_snapshot_use_btf(const struct btf *btf)
{
	rows_btf = btf;
}

/*
 * Where a rows.bpf.h table's rows hold their key and what follows it, from
 * the BTF of its value type: a struct whose first member is `match`.
 * False for any other map.
 */
static bool rows_layout(const struct bpf_map *map, size_t *key_size, size_t *value_offset)
{
	const struct btf_member *m;
	const struct btf_type *t;
	__s64 size;
	__u32 id;

	if (!rows_btf || bpf_map__type(map) != BPF_MAP_TYPE_ARRAY)
		return false;
	id = bpf_map__btf_value_type_id(map);
	t = id ? btf__type_by_id(rows_btf, btf__resolve_type(rows_btf, id)) : NULL;
	if (!t || !btf_is_struct(t) || btf_vlen(t) < 3)
		return false;
	m = btf_members(t);
	if (strcmp(btf__name_by_offset(rows_btf, m[0].name_off), "match") ||
	    btf_member_bit_offset(t, 1) != 64)
		return false;
	size = btf__resolve_size(rows_btf, m[1].type);
	if (size <= 0)
		return false;
	*key_size = size;
	*value_offset = btf_member_bit_offset(t, 2) / 8;
	return true;
}

/* An array's every entry in one call (a lookup each would be a syscall each). */
static int array_snapshot(struct bpf_map *map, struct map_snapshot *snap)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 count = bpf_map__max_entries(map), out;
	int err;

	err = bpf_map_lookup_batch(bpf_map__fd(map), NULL, &out, snap->keys, snap->values,
				   &count, &opts);
	if (err && err != -ENOENT)	/* ENOENT: all of it read */
		return err;
	snap->n = count;
	return 0;
}

/*
 * Is this row made: its match word set, and its key in (the key's hash,
 * row_key_match(); or, for an address's row, the address)?
 */
static bool row_made(const char *row, size_t key_size)
{
	__u64 match = *(const __u64 *)row, w[8] = {};

	if (!match || key_size > sizeof(w))
		return match != 0;
	memcpy(w, row + sizeof(__u64), key_size);
	return match == row_key_match(w, (key_size + 7) / 8) ||
	       (key_size == sizeof(__u64) && match == w[0]);
}

/* Room for one more entry of a snapshot that grows as it is read. */
static int snapshot_grow(struct map_snapshot *s, size_t *cap)
{
	size_t more = *cap ? *cap * 2 : 64;
	void *keys, *values;

	if (s->n < *cap)
		return 0;
	keys = realloc(s->keys, more * s->key_size);
	if (keys)
		s->keys = keys;
	values = realloc(s->values, more * s->value_size);
	if (values)
		s->values = values;
	if (!keys || !values)
		return -ENOMEM;
	*cap = more;
	return 0;
}

/*
 * A rows.bpf.h table's rows in use, each keyed by the `key_size` bytes
 * after its match word, valued by the rest from `value_offset`. A row
 * whose key is not yet in (made on another CPU this moment) is left for
 * the next snapshot. 0 or a negative errno.
 */
static int rows_snapshot(struct bpf_map *map, struct map_snapshot *s, size_t key_size,
			 size_t value_offset)
{
	/* A row starts with a __u64: its size is its stride, in the map and in a batch. */
	size_t slots = bpf_map__max_entries(map), slot_size = bpf_map__value_size(map);
	size_t vs = slot_size - value_offset, cap = 0, i, mapped = slots * slot_size;
	struct map_snapshot copy = { .key_size = sizeof(__u32), .value_size = slot_size };
	const char *table = NULL;
	void *addr = MAP_FAILED;
	int err;

	/*
	 * Mapped (rows.bpf.h declares the slots BPF_F_MMAPABLE; the kernel maps
	 * them all at once), read in place, where a lookup would copy every slot
	 * of a table sized twice its rows, in use or not.
	 */
	if (bpf_map__map_flags(map) & BPF_F_MMAPABLE)
		addr = mmap(NULL, mapped, PROT_READ, MAP_SHARED, bpf_map__fd(map), 0);
	if (addr != MAP_FAILED) {
		table = addr;
	} else {
		copy.keys = calloc(slots, copy.key_size);
		copy.values = calloc(slots, slot_size);
		err = copy.keys && copy.values ? array_snapshot(map, &copy) : -ENOMEM;
		if (err) {
			map_snapshot_free(&copy);
			return err;
		}
		table = copy.values;
		slots = copy.n;
	}
	s->key_size = key_size;
	s->value_size = vs;
	for (err = 0, i = 0; !err && i < slots; i++) {
		const char *row = table + i * slot_size;

		if (!row_made(row, key_size))
			continue;
		err = snapshot_grow(s, &cap);
		if (err)
			break;
		memcpy(snapshot_key(s, s->n), row + sizeof(__u64), key_size);
		memcpy(snapshot_value(s, s->n), row + value_offset, vs);
		s->n++;
	}
	map_snapshot_free(&copy);
	if (addr != MAP_FAILED)
		munmap(addr, mapped);
	return err;
}

int map_snapshot(struct bpf_map *map, struct map_snapshot *snap)
{
	size_t cap = bpf_map__max_entries(map), ks = bpf_map__key_size(map),
	       vs = bpf_map__value_size(map);
	char *prev = NULL, *key;
	int err;

	memset(snap, 0, sizeof(*snap));
	if (bpf_map__type(map) == BPF_MAP_TYPE_ARRAY) {
		size_t key_size, value_offset;

		if (rows_layout(map, &key_size, &value_offset)) {
			err = rows_snapshot(map, snap, key_size, value_offset);
			if (err)
				map_snapshot_free(snap);
			return err;
		}
	}
	snap->key_size = ks;
	snap->value_size = vs;
	snap->keys = calloc(cap, ks);
	snap->values = calloc(cap, vs);
	if (!snap->keys || !snap->values) {
		map_snapshot_free(snap);
		return -ENOMEM;
	}
	if (bpf_map__type(map) == BPF_MAP_TYPE_ARRAY) {
		err = array_snapshot(map, snap);
		if (err)
			map_snapshot_free(snap);
		return err;
	}
	/* The keys first, then their values: a key deleted in between is dropped. */
	while (snap->n < cap) {
		key = snapshot_key(snap, snap->n);
		err = bpf_map__get_next_key(map, prev, key, ks);
		if (err == -ENOENT)
			break;
		if (err) {
			map_snapshot_free(snap);
			return err;
		}
		prev = key;
		snap->n++;
	}
	for (size_t i = 0; i < snap->n; ) {
		key = snapshot_key(snap, i);
		if (bpf_map__lookup_elem(map, key, ks, snapshot_value(snap, i), vs, 0)) {
			/* Deleted meanwhile: drop it from the snapshot. */
			snap->n--;
			memmove(key, snapshot_key(snap, snap->n), ks);
			continue;
		}
		i++;
	}
	return 0;
}

int map_snapshot_sort(struct map_snapshot *s, int (*cmp)(const void *, const void *))
{
	/* Keys and values live in two arrays: sort rows of both, then split. */
	size_t ks = s->key_size, vs = s->value_size, row = ks + vs, i;
	char *rows = malloc(s->n * row + 1);

	if (!rows)
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		memcpy(rows + i * row, snapshot_key(s, i), ks);
		memcpy(rows + i * row + ks, snapshot_value(s, i), vs);
	}
	qsort(rows, s->n, row, cmp);
	for (i = 0; i < s->n; i++) {
		memcpy(snapshot_key(s, i), rows + i * row, ks);
		memcpy(snapshot_value(s, i), rows + i * row + ks, vs);
	}
	free(rows);
	return 0;
}

const void *map_snapshot_find(const struct map_snapshot *s, const void *key)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!memcmp(snapshot_key(s, i), key, s->key_size))
			return snapshot_value(s, i);
	return NULL;
}

void map_snapshot_free(struct map_snapshot *snap)
{
	free(snap->keys);
	free(snap->values);
	snap->keys = snap->values = NULL;
	snap->n = 0;
}

int map_snapshot_all(struct bpf_map *const *maps, struct map_snapshot *snaps, size_t n)
{
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		err = map_snapshot(maps[i], &snaps[i]);
		if (err) {
			map_snapshot_free_all(snaps, i);
			return err;
		}
	}
	return 0;
}

void map_snapshot_keep(struct map_snapshot *prev, struct map_snapshot *now, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		map_snapshot_free(&prev[i]);
		prev[i] = now[i];
		memset(&now[i], 0, sizeof(now[i]));
	}
}

void map_snapshot_free_all(struct map_snapshot *snaps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		map_snapshot_free(&snaps[i]);
}

int map_sum_percpu(const struct bpf_map *map, __u32 key, __u64 *sum, size_t n)
{
	int ncpu = libbpf_num_possible_cpus(), err;
	size_t cpu, i;
	__u64 *vals;

	if (ncpu <= 0)
		return ncpu ?: -EINVAL;
	vals = calloc((size_t)ncpu * n, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = bpf_map__lookup_elem(map, &key, sizeof(key), vals, (size_t)ncpu * n * sizeof(*vals), 0);
	for (i = 0; !err && i < n; i++)
		for (sum[i] = 0, cpu = 0; cpu < (size_t)ncpu; cpu++)
			sum[i] += vals[cpu * n + i];
	free(vals);
	return err;
}
