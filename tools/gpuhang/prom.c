// SPDX-License-Identifier: GPL-2.0
/* gpuhang --prometheus: its families (prom.h). */
#include "gpuhang/prom.h"
#include "opts.h"

static const char *or_dash(const char *s)
{
	return s[0] ? s : "-";
}

static const char *kind_label(__u32 kind)
{
	return kind == HANG_FAULT ? "fault" : kind == HANG_WEDGED ? "wedged" :
	       kind == HANG_RESET ? "reset" : kind == HANG_PAGEFAULT ? "pagefault" :
	       kind == HANG_COREDUMP ? "coredump" : kind == HANG_XID ? "xid" : "timeout";
}

enum { PR_RECOVERIES, PR_RESUBMITTED, PR_LOST, PR_OUT, NR_PR };

static const struct metrics_column ring_families[] = {
	{ PR_RECOVERIES, "recoveries_total", METRIC_COUNTER,
	  "Recoveries of the ring: its scheduler started again after an incident" },
	{ PR_RESUBMITTED, "jobs_resubmitted_total", METRIC_COUNTER,
	  "Jobs on the hardware at a recovery that ran again" },
	{ PR_LOST, "jobs_lost_total", METRIC_COUNTER,
	  "Jobs on the hardware at a recovery that ended without running again" },
	{ PR_OUT, "recovery_seconds_total", METRIC_COUNTER,
	  "Time the ring was stopped for recovery (or, without a stop, from the incident)" },
};

int gpuhang_metrics(struct metrics *m, const struct gpuhang_metrics_in *in)
{
	struct metrics_rows incidents = {
		.label_names = { "kind", "driver", "device", "ring", "comm" } };
	struct metrics_rows rings = { .label_names = { "driver", "device", "ring" } };
	size_t i;
	int err = 0;

	for (i = 0; i < in->culprits->n && !err; i++) {
		const struct culprit_key *k = snapshot_key(in->culprits, i);
		const struct culprit_stats *s = snapshot_value(in->culprits, i);
		struct ring_state r = in->ring_at(k->ring);
		char comm[COMM_LEN + 1];
		const unsigned long long v = s->incidents;

		snprintf(comm, sizeof(comm), "%.*s", COMM_LEN, k->comm);
		err = metrics_rows_add(&incidents, (const char *const[]){
			kind_label(k->kind), or_dash(r.driver), or_dash(r.dev_name), or_dash(r.name),
			or_dash(comm) }, &v, 1);
	}
	for (i = 0; i < in->rings->n && !err; i++) {
		const struct ring_state *s = snapshot_value(in->rings, i);
		const unsigned long long v[NR_PR] = { s->recoveries, s->resubmitted, s->lost,
						      (unsigned long long)ns_in_time_unit(s->out_ns) };

		err = metrics_rows_add(&rings, (const char *const[]){
			or_dash(s->driver), or_dash(s->dev_name), or_dash(s->name) }, v, NR_PR);
	}
	metrics_rows_family(m, &incidents, 0, 1, "incidents_total", METRIC_COUNTER,
			    "GPU job timeouts, faults, devices wedged, GPU and engine resets, page "
			    "faults, device coredumps and NVIDIA Xids, by the process name of the job, task or context blamed (\"-\": "
			    "not known; ring \"-\": the device's)");
	METRICS_ROWS_TABLE(m, &rings, ring_families);
	metrics_rows_free(&incidents);
	metrics_rows_free(&rings);
	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "Jobs not recorded (too many in flight) and events of rings beyond the table");
	metrics_u64(m, LABELS({ "what", "jobs" }), in->dropped_jobs);
	metrics_u64(m, LABELS({ "what", "rings" }), in->dropped_rings);
	return err;
}
