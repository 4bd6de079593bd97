/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency histograms shared by the kernel side (bpf/NAME.bpf.c) and the
 * frontends: plain fixed-width types only, so both compilers agree on the
 * layout.
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

/* Index of the log2 slot of v: 0 for 0 and 1, 1 for 2..3, 2 for 4..7, ... */
static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 slot = 0;

	/* unrolled binary search: bounded for the BPF verifier */
	if (v >> 32) { v >>= 32; slot += 32; }
	if (v >> 16) { v >>= 16; slot += 16; }
	if (v >> 8)  { v >>= 8;  slot += 8; }
	if (v >> 4)  { v >>= 4;  slot += 4; }
	if (v >> 2)  { v >>= 2;  slot += 2; }
	if (v >> 1)  { slot += 1; }
	return slot < MAX_SLOTS ? slot : MAX_SLOTS - 1;
}

#endif /* GPU_BPF_HISTOGRAM_H */
