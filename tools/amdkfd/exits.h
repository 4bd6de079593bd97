/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdkfd: the processes that exited while traced, each known by its pid and
 * start time (a pid may serve another process at once). The KFD freed
 * their memory and queues: they are live no more, and what the maps kept
 * of them to follow those is forgotten once a summary has shown it.
 */
#ifndef AMDKFD_EXITS_H
#define AMDKFD_EXITS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

/* A process gone (its EV_EXIT record). 0 or -ENOMEM. */
int exits_add(__u32 pid, __u32 started);

bool exits_has(__u32 pid, __u32 started);

/*
 * Delete from `map` the entries of the processes gone: keys that start with
 * the pid, its start (32 bits) at `started_offset`.
 */
void exits_forget(struct bpf_map *map, size_t started_offset);

void exits_free(void);

#endif /* AMDKFD_EXITS_H */
