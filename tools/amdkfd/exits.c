// SPDX-License-Identifier: GPL-2.0
/* amdkfd: the processes that exited while traced (exits.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "exits.h"
#include "maps.h"

struct gone {
	__u32 pid;
	__u32 started;
};

/* Sorted, for exits_has()'s search: summaries ask once per row. */
static struct gone *gone;
static size_t nr_gone, room;

static int cmp_gone(const void *a, const void *b)
{
	const struct gone *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->started < y->started ? -1 : x->started > y->started;
}

int exits_add(__u32 pid, __u32 started)
{
	struct gone g = { pid, started };
	size_t i;

	if (exits_has(pid, started))
		return 0;
	if (nr_gone == room) {
		size_t n = room ? 2 * room : 64;
		struct gone *p = realloc(gone, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		gone = p;
		room = n;
	}
	for (i = nr_gone; i > 0 && cmp_gone(&gone[i - 1], &g) > 0; i--)
		gone[i] = gone[i - 1];
	gone[i] = g;
	nr_gone++;
	return 0;
}

bool exits_has(__u32 pid, __u32 started)
{
	struct gone g = { pid, started };

	return nr_gone && bsearch(&g, gone, nr_gone, sizeof(g), cmp_gone);
}

void exits_forget(struct bpf_map *map, size_t started_offset)
{
	struct map_snapshot s;
	size_t i;

	if (!nr_gone || map_snapshot(map, &s))
		return;
	for (i = 0; i < s.n; i++) {
		const char *key = snapshot_key(&s, i);
		__u32 started;
		__u32 pid;

		memcpy(&pid, key, sizeof(pid));
		memcpy(&started, key + started_offset, sizeof(started));
		if (exits_has(pid, started))
			bpf_map__delete_elem(map, key, s.key_size, 0);
	}
	map_snapshot_free(&s);
}

void exits_free(void)
{
	free(gone);
	gone = NULL;
	nr_gone = room = 0;
}
