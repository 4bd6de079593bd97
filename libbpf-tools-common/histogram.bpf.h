/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-side updates of struct lat_hist (histogram.h). */
#ifndef GPU_BPF_HISTOGRAM_BPF_H
#define GPU_BPF_HISTOGRAM_BPF_H

#include "histogram.h"

/* A fresh histogram: min starts high so the first sample always wins. */
#define LAT_HIST_INIT { .min = ~0ULL }

/*
 * Record one sample.  Several CPUs may update the same histogram (jobs of
 * one ring complete on any CPU), so every field is updated atomically; the
 * min/max loops give up after a few lost races rather than spin.
 */
static __always_inline void lat_hist_add(struct lat_hist *h, __u64 v)
{
	__u64 old;
	int i;

	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum, v);
	__sync_fetch_and_add(&h->slots[log2_slot(v)], 1);

	for (i = 0; i < 4; i++) {
		old = h->max;
		if (v <= old || __sync_val_compare_and_swap(&h->max, old, v) == old)
			break;
	}
	for (i = 0; i < 4; i++) {
		old = h->min;
		if (v >= old || __sync_val_compare_and_swap(&h->min, old, v) == old)
			break;
	}
}

#endif /* GPU_BPF_HISTOGRAM_BPF_H */
