// SPDX-License-Identifier: GPL-2.0
/* vblanklat --prometheus: its families (prom.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "vblanklat/prom.h"

/* One client row per comm (labels are never pids), its histograms merged. */
struct comm_hists {
	char comm[COMM_LEN + 1];
	const char *cgroup;
	struct lat_hist queue_lat, vblank_lat, flip_lat;
};

static struct comm_hists *comm_row(struct comm_hists *rows, size_t *n, const char *comm,
				   const char *cgroup)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp(rows[i].comm, comm) && !strcmp(rows[i].cgroup, cgroup))
			return &rows[i];
	memset(&rows[*n], 0, sizeof(rows[*n]));
	snprintf(rows[*n].comm, sizeof(rows[*n].comm), "%s", comm);
	rows[*n].cgroup = cgroup;
	lat_hist_reset(&rows[*n].queue_lat);
	lat_hist_reset(&rows[*n].vblank_lat);
	lat_hist_reset(&rows[*n].flip_lat);
	return &rows[(*n)++];
}

static void crtc_metrics(struct metrics *m, const struct map_snapshot *crtcs)
{
	size_t i;

#define CRTC_FAMILY(name, field, help)							\
	do {										\
		metrics_family(m, name, METRIC_COUNTER, help);				\
		for (i = 0; i < crtcs->n; i++) {					\
			const struct crtc_stats *st = snapshot_value(crtcs, i);		\
			char crtc[16];							\
											\
			snprintf(crtc, sizeof(crtc), "%u", *(__u32 *)snapshot_key(crtcs, i)); \
			metrics_u64(m, LABELS({ "crtc", crtc }), st->field);		\
		}									\
	} while (0)
	CRTC_FAMILY("vblanks_total", vblanks, "Vblanks traced, per CRTC");
	CRTC_FAMILY("missed_vblanks_total", missed, "Vblanks skipped while the interrupt ran");
	CRTC_FAMILY("resumed_vblanks_total", resumed,
		    "Vblanks skipped while the interrupt was off (idle)");
#undef CRTC_FAMILY
}

static const struct metrics_column client_families[] = {
	{ 0, "events_queued_total", METRIC_COUNTER,
	  "Vblank events clients asked for, per process name" },
	{ 1, "events_delivered_total", METRIC_COUNTER,
	  "Vblank events delivered to the clients that asked" },
	{ 2, "flips_total", METRIC_COUNTER, "Events delivered without a queued one: page flips" },
	{ 3, "late_flips_total", METRIC_COUNTER,
	  "Page flips that landed after the vblank they could have made" },
	{ 4, "flip_missed_vblanks_total", METRIC_COUNTER, "The vblanks those page flips missed" },
};

static int client_metrics(struct metrics *m, const struct map_snapshot *files)
{
	struct metrics_rows clients = { .label_names = { "comm", "cgroup" } };
	struct comm_hists *hists;
	double unit = metrics_time_unit();
	size_t i, nh = 0;
	int err = 0;

	/* Without them, the families still say what they hold (empty). */
	hists = calloc(files->n + 1, sizeof(*hists));
	if (!hists)
		err = -ENOMEM;
	for (i = 0; i < files->n && !err; i++) {
		const struct client_key *k = snapshot_key(files, i);
		const struct file_stats *fs = snapshot_value(files, i);
		const char *comm = !k->file ? "[kernel]" : fs->comm[0] ? fs->comm : "?";
		const char *cg = fs->pid ? metrics_cgroup(fs->cgroup_id) : "";
		const unsigned long long v[] = { fs->queued, fs->delivered, fs->other, fs->late_flips,
						 fs->frames_missed };
		struct comm_hists *h = comm_row(hists, &nh, comm, cg);

		err = metrics_rows_add(&clients, (const char *const[]){ comm, cg }, v, 5);
		lat_hist_merge(&h->queue_lat, &fs->queue_lat);
		lat_hist_merge(&h->vblank_lat, &fs->vblank_lat);
		lat_hist_merge(&h->flip_lat, &fs->flip_lat);
	}
	METRICS_ROWS_TABLE(m, &clients, client_families);
	metrics_rows_free(&clients);
#define COMM_HIST(name, field, help)							\
	do {										\
		metrics_family(m, name, METRIC_HISTOGRAM, help);			\
		for (i = 0; i < nh; i++)						\
			metrics_lat_hist(m, common_env.show_cgroup ?			\
					 LABELS({ "comm", hists[i].comm }, { "cgroup", hists[i].cgroup }) : \
					 LABELS({ "comm", hists[i].comm }), &hists[i].field, unit); \
	} while (0)
	COMM_HIST("queue_to_delivery_seconds", queue_lat, "Time from a vblank event queued to delivered");
	COMM_HIST("vblank_to_delivery_seconds", vblank_lat,
		  "Time from the vblank to its event delivered (BTF path only)");
	COMM_HIST("commit_to_flip_seconds", flip_lat,
		  "Time from a commit asking for a page flip event to the event delivered");
#undef COMM_HIST
	free(hists);
	return err;
}

int vblanklat_metrics(struct metrics *m, const struct vblanklat_metrics_in *in)
{
	int err;

	crtc_metrics(m, in->crtcs);
	err = client_metrics(m, in->files);
	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "Events that found the tool's tracking map full");
	metrics_u64(m, NO_LABELS, in->dropped);
	return err;
}
