/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cgroup v2 for --cgroup, --container and --pod (filtering in the kernel,
 * filter.bpf.h) and -C (naming the cgroup a process ran in, from the id
 * BPF recorded).
 */
#ifndef GPU_BPF_CGROUP_H
#define GPU_BPF_CGROUP_H

#include <stddef.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/*
 * Open `path` as a cgroup v2 directory. Returns the fd, or -1 with a
 * reason in `why` (no such directory, not a cgroup, a cgroup v1
 * hierarchy).
 */
int cgroup_open(const char *path, char *why, size_t size);

/*
 * For --cgroup PATH (NULL: none), opened as `fd`: put it in the BPF
 * object's `cgroup_map` (after load; filter.bpf.h's `filter_cg` was set
 * before it). false: said why on stderr.
 */
bool cgroup_filter_apply(struct bpf_map *cgroup_map, const char *path, int fd);

/*
 * Whether a cgroup v2 hierarchy is mounted (alone or beside cgroup v1's):
 * without one, the ids BPF reads are all the unmounted root's, and name
 * nothing.
 */
bool cgroup_v2_mounted(void);

/*
 * The path of the cgroup with id `id` (bpf_get_current_cgroup_id()),
 * relative to the cgroup v2 root ("/" is the root): looked up in the
 * hierarchy when first asked, "#ID" once the cgroup is gone.
 */
const char *cgroup_name(__u64 id);

/*
 * For --container ID and --pod UID: the cgroup v2 directory of the
 * container whose id begins with `id`, or of the pod `pod` (its UID with
 * dashes or, as the kubelet's slices write it, '_'), as container.h reads
 * the paths; the other NULL. Returns the path (allocated), or NULL with a
 * reason in `why` (none, or more than one container).
 */
const char *cgroup_of_container(const char *id, const char *pod, char *why, size_t size);

#endif /* GPU_BPF_CGROUP_H */
