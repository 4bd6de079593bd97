/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An object's CO-RE relocations, as its .BTF.ext lists them (libbpf 1.1
 * has no public accessor): for core_btf.c, and for tests/btf/corepaths.
 */
#ifndef GPU_BPF_CORE_RELOS_H
#define GPU_BPF_CORE_RELOS_H

#include <stddef.h>
#include <linux/bpf.h>

/*
 * Call FN(record, CTX) for each CO-RE relocation of the BPF object whose
 * ELF file is ELF[SIZE], until it returns nonzero, which is returned.
 * 0 (also for an object with none), or -EPROTO for a malformed one.
 */
int core_relos_foreach(const void *elf, size_t size,
		       int (*fn)(const struct bpf_core_relo *r, void *ctx), void *ctx);

#endif
