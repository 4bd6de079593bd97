/* SPDX-License-Identifier: GPL-2.0 */
/* Printing the histograms of histogram.h, in the layout bcc users know. */
#ifndef GPU_BPF_HIST_H
#define GPU_BPF_HIST_H

#include <stdio.h>

#include "histogram.h"

/* Slot i's range: [lo, hi]; the last slot is open-ended. */
void log2_slot_range(int slot, unsigned long long *lo, unsigned long long *hi);

/* The log2 histogram of `slots`, from its first to its last non-empty slot. */
void print_log2_hist(FILE *f, const __u32 *slots, int nr_slots, const char *unit);

/*
 * A lat_hist: one line of exact moments, then the distribution.
 *   "count 10  avg 2105  min 2050  max 2200  (usecs)"
 */
void print_lat_hist(FILE *f, const struct lat_hist *h, const char *unit);

/* Add the samples of `from` to `into` (a fresh lat_hist has min ~0). */
void lat_hist_merge(struct lat_hist *into, const struct lat_hist *from);

/* Empty `h` for reuse by the kernel side: no samples, min ~0. */
void lat_hist_reset(struct lat_hist *h);
/*
 * What a histogram that only grows gained since an earlier copy `was`
 * (NULL: all of it): counts and slots exactly; min and max within the
 * interval's outermost slots.
 */
void lat_hist_delta(struct lat_hist *out, const struct lat_hist *now, const struct lat_hist *was);

/* The average of a lat_hist as a table cell: "2105", or "-" when empty. */
void format_hist_avg(char *buf, size_t size, const struct lat_hist *h);

#endif /* GPU_BPF_HIST_H */
