// SPDX-License-Identifier: GPL-2.0
/* nvdrv: the driver's suspends, hibernations, resumes and cycles (power.h). */
#include "nvdrv.h"
#include "power.h"
#include "nvidia_names.h"
#include "histogram.h"
#include "opts.h"
#include "output.h"
#include "table.h"

static const struct column power_cols[] = {
	{ "POWER", "transition", -10, 0 },
	{ "CALLS", "calls", 6, 0 },
	{ "ERRORS", "errors", 6, 0 },
	{ "AVG", "lat_avg", 12, COL_TIME },
	{ "MAX", "lat_max", 12, COL_TIME },
};
static const struct table power_table = TABLE("power", power_cols);

void print_power(FILE *f, const struct map_snapshot *now, const struct map_snapshot *prev)
{
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		const __u32 *row = snapshot_key(now, i);
		const struct power_stats *s = snapshot_value(now, i);
		const struct power_stats *was = prev ? map_snapshot_find(prev, row) : NULL;
		struct lat_hist lat;

		if (s->calls == (was ? was->calls : 0))
			continue;
		table_header_once(f, &power_table, &header);
		lat_hist_delta(&lat, &s->lat, was ? &was->lat : NULL);
		table_row(f, &power_table, (struct cell[]){
			CELL_S(power_row_name(*row)), CELL_U(s->calls - (was ? was->calls : 0)),
			CELL_U(s->errors - (was ? was->errors : 0)), cell_hist_avg(&lat),
			CELL_U_IF(lat.count, lat.max) });
	}
}

void power_metrics(struct metrics *m, const struct map_snapshot *now, double unit)
{
	size_t i;

#define POWER_FAMILY(name, type, help, put)						\
	do {										\
		metrics_family(m, name, type, help);					\
		for (i = 0; i < now->n; i++) {						\
			const __u32 *row = snapshot_key(now, i);			\
			const struct power_stats *s = snapshot_value(now, i);		\
			const struct label *l = LABELS({ "transition", power_row_name(*row) }); \
			put;								\
		}									\
	} while (0)
	POWER_FAMILY("power_transitions_total", METRIC_COUNTER,
		     "The driver's suspends, hibernations and resumes, and the cycles they made",
		     metrics_u64(m, l, s->calls));
	POWER_FAMILY("power_transition_errors_total", METRIC_COUNTER,
		     "Transitions the driver refused (an NV_STATUS other than NV_OK)",
		     metrics_u64(m, l, s->errors));
	POWER_FAMILY("power_transition_seconds", METRIC_HISTOGRAM,
		     "How long each transition took; a cycle's, from its suspend to its resume's end",
		     metrics_lat_hist(m, l, &s->lat, unit));
#undef POWER_FAMILY
}
