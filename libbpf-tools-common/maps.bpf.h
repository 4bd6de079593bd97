/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hash maps declared in one line; their rows made on first sight, the one
 * way every tool's kernel side does it (libbpf-tools'
 * bpf_map_lookup_or_try_init()); and the errno values a BPF program
 * compares helpers' results with (vmlinux.h has none).
 */
#ifndef GPU_BPF_MAPS_BPF_H
#define GPU_BPF_MAPS_BPF_H

#ifndef E2BIG
#define E2BIG	7	/* bpf_map_update_elem(): the map is full */
#endif
#ifndef EEXIST
#define EEXIST	17	/* BPF_NOEXIST: another CPU inserted the key first */
#endif

/* A hash map of n rows, declared in one line. */
#define HASH_MAP(name, key_t, value_t, n)		\
	struct {					\
		__uint(type, BPF_MAP_TYPE_HASH);	\
		__uint(max_entries, n);			\
		__type(key, key_t);			\
		__type(value, value_t);			\
	} name SEC(".maps")

/*
 * The value of `key` in `map`, inserted as `init` when absent. NULL when
 * the map is full, counted in *full: a row the summary will not show, so
 * the frontend reports it.
 */
static __always_inline void *map_lookup_or_init(void *map, const void *key, const void *init,
						__u64 *full)
{
	void *value = bpf_map_lookup_elem(map, key);

	if (value)
		return value;
	if (bpf_map_update_elem(map, key, init, BPF_NOEXIST) == -E2BIG)
		__sync_fetch_and_add(full, 1);	/* result unused: no BPF_FETCH before 5.12 */
	return bpf_map_lookup_elem(map, key);
}

#endif /* GPU_BPF_MAPS_BPF_H */
