// SPDX-License-Identifier: GPL-2.0
/* nvdrv: the mappings of the driver's files, made, copied, released, alive (mappings.h). */
#include "nvdrv.h"
#include "mappings.h"
#include "nvidia_names.h"
#include "cgroup.h"
#include "output.h"
#include "table.h"

static const struct column mapping_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "DEVICE", "device", -16, 0 },
	{ "MAPPED", "mapped", 7, 0 },		/* mmaps that succeeded */
	{ "COPIED", "copied", 7, 0 },
	{ "UNMAPPED", "unmapped", 8, 0 },
	{ "LIVE", "live", 6, 0 },		/* now, not per interval */
	CGROUP_COLUMN,
};
static const struct table mapping_table = TABLE("mapping", mapping_cols);

void print_mappings(FILE *f, const struct map_snapshot *now, const struct map_snapshot *prev)
{
	bool header = false;
	char name[64];
	size_t i;

	for (i = 0; i < now->n; i++) {
		const struct dev_key *k = snapshot_key(now, i);
		const struct dev_stats *s = snapshot_value(now, i);
		const struct dev_stats *was = prev ? map_snapshot_find(prev, k) : NULL;
		unsigned long long mapped = DELTA(s, was, mmaps) - DELTA(s, was, mmap_errors);

		if (!s->live && !mapped && !DELTA(s, was, vma_copies) && !DELTA(s, was, vma_releases))
			continue;
		table_header_once(f, &mapping_table, &header);
		table_row(f, &mapping_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(s->comm), CELL_S(dev_name(k->dev, name, sizeof(name))),
			CELL_U(mapped), CELL_U(DELTA(s, was, vma_copies)),
			CELL_U(DELTA(s, was, vma_releases)),
			CELL_I(s->live), cell_cgroup(s->cgroup_id) });
	}
}
