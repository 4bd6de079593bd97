/* SPDX-License-Identifier: GPL-2.0 */
/* amdkfd -e: what a call asked of the KFD and what it answered. */
#ifndef AMDKFD_DECODE_H
#define AMDKFD_DECODE_H

#include <stddef.h>

/* A call's name: the ioctl's, "open", "close", or the raw command in hex. */
const char *kfd_call_name(char *buf, size_t size, unsigned int op, unsigned int cmd,
			  unsigned int raw);

/* `name`, or where the KFD's header has none for `v`, the number in buf. */
const char *kfd_name_or_number(const char *name, unsigned int v, char *buf, size_t size);

/* A memory row's kind (enum mem_kind): "VRAM", "GTT", ..., "OTHER". */
const char *kfd_mem_kind_name(unsigned int kind);

/*
 * The DETAIL of an ioctl's -e line, from its argument struct as the caller's
 * memory held it at the return (`len` bytes of it): "gpu=... size=...
 * flags=VRAM|WRITABLE handle=0x...". Empty for commands not decoded.
 */
void kfd_call_detail(char *buf, size_t size, unsigned int cmd, const void *args,
		     unsigned int len, long ret);

#endif /* AMDKFD_DECODE_H */
