// SPDX-License-Identifier: GPL-2.0
/* i915mem --prometheus: its families (prom.h). */
#include "i915mem/names.h"
#include "i915mem/prom.h"

/*
 * --prometheus: what the summary keeps per (driver, process), summed per
 * (driver, comm) - labels are never pids - and each driver's event counts.
 */
enum { PM_CREATED, PM_CREATED_BYTES, PM_DESTROYED, PM_DESTROYED_BYTES, PM_LIVE, PM_LIVE_BYTES,
       PM_BINDS, PM_UNBINDS, PM_REBINDS, NR_PM };

static const struct metrics_column process_families[] = {
	{ PM_CREATED, "objects_created_total", METRIC_COUNTER,
	  "GEM objects (xe: BOs) created, per driver and process name" },
	{ PM_CREATED_BYTES, "objects_created_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ PM_DESTROYED, "objects_destroyed_total", METRIC_COUNTER,
	  "Objects destroyed, charged to their creator" },
	{ PM_DESTROYED_BYTES, "objects_destroyed_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ PM_LIVE, "live_objects", METRIC_GAUGE,
	  "Objects created while tracing and not destroyed" },
	{ PM_LIVE_BYTES, "live_bytes", METRIC_GAUGE, "Their bytes" },
	{ PM_BINDS, "binds_total", METRIC_COUNTER, "Bindings into GPU address spaces" },
	{ PM_UNBINDS, "unbinds_total", METRIC_COUNTER, "Unbindings" },
	{ PM_REBINDS, "rebinds_total", METRIC_COUNTER,
	  "Binds of objects that had been unbound before" },
};

int i915mem_metrics(struct metrics *m, const struct i915mem_metrics_in *in)
{
	const struct map_snapshot *snap = in->procs;
	const struct driver_stats *drivers = in->drivers;
	struct metrics_rows procs = { .label_names = { "driver", "comm", "cgroup" } };
	struct metrics_rows faults = { .label_names = { "driver", "comm", "kind" } };
	size_t i;
	int d, e, k, err = 0;

	for (i = 0; i < snap->n && !err; i++) {
		const struct proc_key *key = snapshot_key(snap, i);
		const struct proc_stats *p = snapshot_value(snap, i);
		const char *drv = driver_names[key->driver % NR_DRIVERS];
		/* A process's live counts go below zero only by what was created before tracing. */
		const unsigned long long v[NR_PM] = {
			p->created, p->created_bytes, p->destroyed, p->destroyed_bytes,
			p->live > 0 ? p->live : 0, p->live_bytes > 0 ? p->live_bytes : 0,
			p->binds, p->unbinds, p->rebinds,
		};

		err = metrics_rows_add(&procs, (const char *const[]){
			drv, p->comm, metrics_cgroup(p->cgroup_id) },
			v, NR_PM);
		for (k = 0; k < NR_FAULT_KINDS && !err; k++)
			if (fault_names[k] && p->faults[k])
				err = metrics_rows_add(&faults, (const char *const[]){
					drv, p->comm, fault_names[k] }, &p->faults[k], 1);
	}
	METRICS_ROWS_TABLE(m, &procs, process_families);
	metrics_rows_family(m, &faults, 0, 1, "faults_total", METRIC_COUNTER,
			    "Page faults on the objects, by kind");
	metrics_rows_free(&procs);
	metrics_rows_free(&faults);
	metrics_family(m, "driver_events_total", METRIC_COUNTER, "Events traced, per driver");
	for (d = 0; d < NR_DRIVERS; d++)
		for (e = 0; e < NR_EVENT_TYPES; e++)
			if (drivers[d].events[e])
				metrics_u64(m, LABELS({ "driver", driver_names[d] },
						      { "event", event_names[e] }),
					    drivers[d].events[e]);
	metrics_family(m, "untracked_destroys_total", METRIC_COUNTER,
		       "Objects destroyed whose creation was not traced");
	for (d = 0; d < NR_DRIVERS; d++)
		metrics_u64(m, LABELS({ "driver", driver_names[d] }),
			    drivers[d].untracked_destroys);
	return err;
}
