// SPDX-License-Identifier: GPL-2.0
/* Latency histograms per escape (esc_hists.h). */
#include <string.h>

#include "nvdrv/esc_hists.h"

void esc_hists_reset(struct esc_hists *h)
{
	int i;

	memset(h->seen, 0, sizeof(h->seen));
	for (i = 0; i < NR_ESC_SLOTS; i++)
		lat_hist_reset(&h->hist[i]);
}

void esc_hists_add(struct esc_hists *h, __u32 esc, const struct lat_hist *lat)
{
	int slot = nv_escape_slot(esc);

	if (slot < 0)
		return;
	lat_hist_merge(&h->hist[slot], lat);
	h->seen[slot] = true;
	h->esc[slot] = esc;
}
