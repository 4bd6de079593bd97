/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms: the type shared by the kernel side (bpf/NAME.bpf.c,
 * which records into it with histogram.bpf.h) and the frontends, plain
 * fixed-width types only so both compilers agree on the layout; and, for
 * user space, reading them (histogram.c).
 */
#ifndef GPU_BPF_HISTOGRAM_H
#define GPU_BPF_HISTOGRAM_H

#ifndef __bpf__
#include <linux/types.h>
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#endif

#define MAX_SLOTS 32	/* log2 slots: enough for 2^32 units */

/* A log2 histogram plus the exact moments the slots blur. */
struct lat_hist {
	__u64 count;
	__u64 sum;	/* in hist units (usecs or msecs) */
	__u64 min;	/* valid when count > 0 */
	__u64 max;
	__u32 slots[MAX_SLOTS];
};

/*
 * One step of log2_slot(): `width` if v has bits at or above it (v below
 * 2^(2 * width)), else 0, without a branch: (v >> width) + 2^width - 1
 * reaches 2^width exactly when v >> width is not 0. The barrier keeps the
 * compiler from proving v's range and turning it back into a compare.
 */
#define LOG2_STEP(v, width, width_log2) ({						__u64 _top = (v) >> (width);							asm volatile("" : "+r"(_top));							((_top + ((1ULL << (width)) - 1)) >> (width)) << (width_log2);		})

/*
 * Index of the log2 slot of v: 0 for 0 and 1, 1 for 2..3, 2 for 4..7, ...;
 * MAX_SLOTS - 1 for all above. A binary search in arithmetic, no branch:
 * the BPF verifier walks every path of a branching one with its own
 * constant slot through the rest of the program, up to 64 times over.
 */
static __always_inline __u32 log2_slot(__u64 v)
{
	__u64 slot, shift;

	slot = shift = LOG2_STEP(v, 32, 5);
	v >>= shift;
	slot += shift = LOG2_STEP(v, 16, 4);
	v >>= shift;
	slot += shift = LOG2_STEP(v, 8, 3);
	v >>= shift;
	slot += shift = LOG2_STEP(v, 4, 2);
	v >>= shift;
	slot += shift = LOG2_STEP(v, 2, 1);
	v >>= shift;
	slot += v >> 1;
	/* slot < 64, and MAX_SLOTS is 32: slot >> 5 is 1 past the last slot. */
	return (slot | (0 - (slot >> 5))) & (MAX_SLOTS - 1);
}
_Static_assert(MAX_SLOTS == 32, "log2_slot() clamps at 32 slots");

#ifndef __bpf__
#include <stdio.h>

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
#endif /* !__bpf__ */

#endif /* GPU_BPF_HISTOGRAM_H */
