/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vblanklat --prometheus: vblanks, missed and resumed per CRTC; per client
 * process name (labels are never pids) the vblank events queued and
 * delivered, page flips, late flips and the vblanks they missed, and the
 * latency histograms merged; events the kernel side could not track.
 * Totals since the tool started.
 */
#ifndef VBLANKLAT_PROM_H
#define VBLANKLAT_PROM_H

#include "vblanklat.h"
#include "maps.h"
#include "metrics.h"

/* What write_metrics() reads from the skeleton. */
struct vblanklat_metrics_in {
	const struct map_snapshot *crtcs;	/* crtc_stats, sorted by CRTC */
	const struct map_snapshot *files;	/* file_stats */
	unsigned long long dropped;		/* events that found a tracking map full */
};

/* The families. 0, or a negative errno (a row not added). */
int vblanklat_metrics(struct metrics *m, const struct vblanklat_metrics_in *in);

#endif /* VBLANKLAT_PROM_H */
