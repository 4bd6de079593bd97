/* SPDX-License-Identifier: GPL-2.0 */
/* amdkfd -l: the allocations made while tracing and not freed, per process. */
#ifndef AMDKFD_LEAKS_H
#define AMDKFD_LEAKS_H

#include <stdio.h>
#include <bpf/libbpf.h>

#include "maps.h"

#define MAX_LEAKS_LISTED 50	/* allocations listed per process, oldest first */

/*
 * The allocations of `bos` (the BPF map) per process: a table of the
 * processes (exited or not: the KFD frees what an exited process left, but
 * the process never did) and one of their allocations. Each process's name
 * from its row in `calls` (this summary's snapshot).
 */
void print_leaks(FILE *f, struct bpf_map *bos, const struct map_snapshot *calls);

#endif /* AMDKFD_LEAKS_H */
