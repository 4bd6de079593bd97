/* SPDX-License-Identifier: GPL-2.0 */
/* template --prometheus: calls, errors and time per (comm, command). */
#ifndef TEMPLATE_PROM_H
#define TEMPLATE_PROM_H

#include "template.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() read from the skeleton. */
struct template_metrics_in {
	const struct map_snapshot *rows;	/* the stats map: ioctl_key -> ioctl_stats */
	unsigned long long dropped_rows;
};

/* The families. 0 or a negative errno. */
int template_metrics(struct metrics *m, const struct template_metrics_in *in);

#endif /* TEMPLATE_PROM_H */
