// SPDX-License-Identifier: GPL-2.0
/* amdgpucs's names for amdgpu's domains and placements (names.h). */
#include <stdio.h>

#include "amdgpucs/names.h"

/* AMDGPU_GEM_DOMAIN_* bits, as "VRAM|GTT". */
const char *domain_str(__u32 d, char *buf, size_t size)
{
	static const char *const names[] = { "CPU", "GTT", "VRAM", "GDS", "GWS", "OA", "DOORBELL" };
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (d & (1u << i))
			len += snprintf(buf + len, len < size ? size - len : 0, "%s%s", len ? "|" : "",
					names[i]);
	if (!len)
		snprintf(buf, size, "0x%x", d);
	return buf;
}

/* amdgpu's TTM placements (TTM_PL_* and AMDGPU_PL_*). */
const char *placement_str(__u32 p)
{
	static const char *const names[NR_PLACEMENTS] = {
		"SYSTEM", "GTT", "VRAM", "GDS", "GWS", "OA", "PREEMPT", "DOORBELL",
	};

	return p < NR_PLACEMENTS ? names[p] : "?";
}

bool is_eviction(__u32 from, __u32 to)
{
	return from == 2 && (to == 0 || to == 1);	/* VRAM -> system or GTT */
}
