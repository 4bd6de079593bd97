/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms per escape (nvidia.ko's and the UVM commands'), merged
 * over processes: the summary's and the metrics' "ESCAPE latency" tables.
 */
#ifndef NVDRV_ESC_HISTS_H
#define NVDRV_ESC_HISTS_H

#include <stdbool.h>

#include "histogram.h"
#include "nvdrv/nvidia_names.h"

struct esc_hists {
	struct lat_hist hist[NR_ESC_SLOTS];	/* by nv_escape_slot() */
	__u32 esc[NR_ESC_SLOTS];		/* the escape of each slot seen */
	bool seen[NR_ESC_SLOTS];
};

void esc_hists_reset(struct esc_hists *h);

/* Add one row's histogram to its escape's (none for a UVM command nvdrv does not know). */
void esc_hists_add(struct esc_hists *h, __u32 esc, const struct lat_hist *lat);

#endif /* NVDRV_ESC_HISTS_H */
