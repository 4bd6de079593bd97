/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver's mappings followed through their lifecycle: made by mmap,
 * copied by the kernel (nvidia_vma_open: a fork's child, a split, an
 * mremap), unmapped (nvidia_vma_release: munmap, exit), and how many each
 * process holds now. From the kernel side's dev_rows (vma_copies,
 * vma_releases, live).
 */
#ifndef NVDRV_MAPPINGS_H
#define NVDRV_MAPPINGS_H

#include <stdio.h>

#include "maps.h"

/*
 * The rows of `now` (dev_rows, sorted) that hold mappings or whose
 * mappings changed since `prev` (NULL: none before). At the last summary,
 * the mappings still alive when tracing ended.
 */
void print_mappings(FILE *f, const struct map_snapshot *now, const struct map_snapshot *prev);

#endif /* NVDRV_MAPPINGS_H */
