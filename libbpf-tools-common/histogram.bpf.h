/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel-side updates of struct lat_hist (histogram.h). */
#ifndef GPU_BPF_HISTOGRAM_BPF_H
#define GPU_BPF_HISTOGRAM_BPF_H

#include "histogram.h"

/*
 * The kernel has BPF_ATOMIC with BPF_FETCH and BPF_CMPXCHG (5.12): set by
 * tool_set_rodata() from a probe (probe.h's kernel_has_atomic_fetch()).
 * Where false the verifier sees the compare-and-swap code as dead and
 * prunes it, so the program loads on 5.10; counts and sums stay exact
 * there (a fetch-and-add whose result is unused is 5.10's BPF_XADD).
 */
const volatile bool has_atomic_fetch = true;

/* A fresh histogram: min starts high so the first sample always wins. */
#define LAT_HIST_INIT { .min = ~0ULL }

/*
 * Record one sample.  Several CPUs may update the same histogram (jobs of
 * one ring complete on any CPU), so every field is updated atomically; the
 * min/max loops give up after a few lost races rather than spin.  Without
 * has_atomic_fetch, min and max are a plain compare-and-store: a concurrent
 * update on another CPU may overwrite a more extreme value (racy, so min
 * and max may miss an extreme under contention on those kernels).
 */
static __always_inline void lat_hist_add(struct lat_hist *h, __u64 v)
{
	__u64 old;
	int i;

	__sync_fetch_and_add(&h->count, 1);
	__sync_fetch_and_add(&h->sum, v);
	__sync_fetch_and_add(&h->slots[log2_slot(v)], 1);

	if (!has_atomic_fetch) {
		if (v > h->max)
			h->max = v;
		if (v < h->min)
			h->min = v;
		return;
	}
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
