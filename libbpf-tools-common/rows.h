/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A row's match word (rows.bpf.h), as both sides compute it: the kernel
 * side to find a key's row, the frontend to tell a row made from one still
 * being made (its match word set, its key not yet copied in).
 */
#ifndef GPU_BPF_ROWS_H
#define GPU_BPF_ROWS_H

#ifndef __bpf__
#include <linux/types.h>
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#endif

/* A key's word as a number (rows.bpf.h: a kernel address in a key is a pointer there). */
#ifndef ROW_KEY_WORD
#define ROW_KEY_WORD(w) (w)
#endif

/*
 * The match word of a key of `words` 64-bit words: a hash of them, never 0
 * (a free row's). Two keys that hash alike would share a row: at 2^-63 a
 * pair, never met in a table of thousands.
 */
static __always_inline __u64 row_key_match(const __u64 *w, unsigned int words)
{
	__u64 h = 0;
	unsigned int i;

	for (i = 0; i < words; i++) {
		h = (h ^ ROW_KEY_WORD(w[i])) * 0x9E3779B97F4A7C15ULL;
		h ^= h >> 29;
	}
	return h | 1;
}

#endif /* GPU_BPF_ROWS_H */
