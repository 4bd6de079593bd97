/* SPDX-License-Identifier: GPL-2.0 */
/* i915mem -l: the objects still alive at a summary, per creating process. */
#ifndef I915MEM_LEAKS_H
#define I915MEM_LEAKS_H

#include <stdio.h>
#include <bpf/libbpf.h>

#include "i915mem.h"
#include "maps.h"
#include "table.h"

/*
 * i915mem's per-driver and leak lines are sentences in text (the whole
 * line is one text-only cell) and objects of their numbers in JSON.
 */
#define PROSE { "", "", 0, COL_TEXT_ONLY }
#define FIELD(key) { "", key, 0, COL_JSON_ONLY }

/*
 * The objects of `objects` (the BPF map) created while tracing and not
 * destroyed, grouped by creator; each creator's comm and cgroup from its
 * row in `procs` (this summary's snapshot of the procs map).
 */
void print_leaks(FILE *f, const struct map_snapshot *procs, struct bpf_map *objects);

#endif
