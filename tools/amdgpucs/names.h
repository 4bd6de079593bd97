/* SPDX-License-Identifier: GPL-2.0 */
/* amdgpucs: amdgpu's memory domains and TTM placements by name. */
#ifndef AMDGPUCS_NAMES_H
#define AMDGPUCS_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "amdgpucs.h"

/* AMDGPU_GEM_DOMAIN_* bits, as "VRAM|GTT" (0x... when none is known), in buf. */
const char *domain_str(__u32 d, char *buf, size_t size);

/* A TTM placement (TTM_PL_* and AMDGPU_PL_*): "VRAM", "GTT", ...; "?" beyond. */
const char *placement_str(__u32 p);

/* A move out of VRAM, to GTT or system memory. */
bool is_eviction(__u32 from, __u32 to);

#endif /* AMDGPUCS_NAMES_H */
