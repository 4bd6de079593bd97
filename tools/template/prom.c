// SPDX-License-Identifier: GPL-2.0
/* template --prometheus: its families (prom.h). */
#include <stdio.h>

#include "template/prom.h"

enum { PM_CALLS, PM_ERRORS, PM_TIME, NR_PM };

static const struct metrics_column ioctl_families[] = {
	{ PM_CALLS, "ioctls_total", METRIC_COUNTER,
	  "ioctl(2) calls returned, per process name and command" },
	{ PM_ERRORS, "ioctl_errors_total", METRIC_COUNTER, "Those that returned an error" },
	{ PM_TIME, "ioctl_seconds_total", METRIC_COUNTER,
	  "Time spent in them, entry to return" },
};

/* Rows per process summed per comm: labels are never pids. */
int template_metrics(struct metrics *m, const struct template_metrics_in *in)
{
	struct metrics_rows rows = { .label_names = { "comm", "cmd", "cgroup" } };
	size_t i;
	int err = 0;

	for (i = 0; i < in->rows->n && !err; i++) {
		const struct ioctl_key *k = snapshot_key(in->rows, i);
		const struct ioctl_stats *s = snapshot_value(in->rows, i);
		const unsigned long long v[NR_PM] = { s->calls, s->errors, s->lat.sum };
		char cmd[16];

		snprintf(cmd, sizeof(cmd), "0x%x", k->cmd);
		err = metrics_rows_add(&rows, (const char *const[]){
			s->comm, cmd, metrics_cgroup(s->cgroup_id) }, v, NR_PM);
	}
	METRICS_ROWS_TABLE(m, &rows, ioctl_families);
	metrics_rows_free(&rows);
	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "Calls not counted: the table of processes and commands was full");
	metrics_u64(m, NO_LABELS, in->dropped_rows);
	return err;
}
