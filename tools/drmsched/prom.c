// SPDX-License-Identifier: GPL-2.0
/* drmsched --prometheus: its families (prom.h). */
#include "drmsched/prom.h"

static const struct ring_info *ring_info(const struct drmsched_metrics_in *in, __u32 ring)
{
	static const struct ring_info unknown = { .name = "?", .dev = "?" };

	return ring < in->nr_rings ? &in->ring_infos[ring] : &unknown;
}

static const char *ring_dev(const struct drmsched_metrics_in *in, __u32 ring)
{
	const char *dev = ring_info(in, ring)->dev;

	return dev[0] ? dev : "-";
}

static void ring_metrics(struct metrics *m, const struct drmsched_metrics_in *in, double unit)
{
	size_t i;

#define RING_LABELS(r) LABELS({ "device", ring_dev(in, r) }, { "ring", ring_info(in, r)->name })
#define RING_FAMILY(name, field, help)							\
	do {										\
		metrics_family(m, name, METRIC_COUNTER, help);				\
		for (i = 0; i < in->nr_shown; i++)					\
			metrics_u64(m, RING_LABELS(in->rings[i]),			\
				    in->ring_stats[in->rings[i]].field);			\
	} while (0)
	RING_FAMILY("jobs_queued_total", queued, "Jobs pushed to the ring's entities");
	RING_FAMILY("jobs_run_total", run, "Jobs handed to the hardware");
	RING_FAMILY("jobs_done_total", done, "Jobs whose finished fence signalled");
	RING_FAMILY("jobs_untimed_total", untracked,
		    "Jobs that ran or finished but were queued before tracing began");
	RING_FAMILY("dependencies_total", deps, "Dependencies of the ring's jobs");
	if (in->has_blocked)
		RING_FAMILY("dependencies_blocked_total", blocked,
			    "Dependencies found unsignalled when the job was to run (Linux >= 6.17)");
	metrics_family(m, "queue_wait_seconds", METRIC_HISTOGRAM, "Time from queued to run");
	for (i = 0; i < in->nr_shown; i++)
		metrics_lat_hist(m, RING_LABELS(in->rings[i]), &in->ring_stats[in->rings[i]].wait,
				 unit);
	metrics_family(m, "execution_seconds", METRIC_HISTOGRAM, "Time from run to done");
	for (i = 0; i < in->nr_shown; i++)
		metrics_lat_hist(m, RING_LABELS(in->rings[i]), &in->ring_stats[in->rings[i]].exec,
				 unit);
	metrics_family(m, "jobs_behind", METRIC_HISTOGRAM,
		       "Jobs queued behind each job in its entity as it ran");
	for (i = 0; i < in->nr_shown; i++)
		metrics_count_hist(m, RING_LABELS(in->rings[i]),
				   &in->ring_stats[in->rings[i]].waiting);
	metrics_family(m, "jobs_on_hardware", METRIC_HISTOGRAM,
		       "Jobs (credits from Linux 6.7) on the hardware as each job ran, itself included");
	for (i = 0; i < in->nr_shown; i++)
		metrics_count_hist(m, RING_LABELS(in->rings[i]), &in->ring_stats[in->rings[i]].on_hw);
#undef RING_FAMILY
#undef RING_LABELS
}

static const struct metrics_column process_families[] = {
	{ 0, "process_jobs_queued_total", METRIC_COUNTER,
	  "Jobs queued, per ring and process name" },
	{ 1, "process_jobs_done_total", METRIC_COUNTER, "Jobs done, per ring and process name" },
	{ 2, "process_queue_wait_seconds_total", METRIC_COUNTER,
	  "Queue wait of the jobs done, summed, per ring and process name" },
	{ 3, "process_execution_seconds_total", METRIC_COUNTER,
	  "Execution of the jobs done, summed, per ring and process name" },
};

static int proc_metrics(struct metrics *m, const struct drmsched_metrics_in *in)
{
	struct metrics_rows procs = { .label_names = { "device", "ring", "comm", "cgroup" } };
	int err = 0;
	__u32 i;

	for (i = 0; i < in->nr_procs && !err; i++) {
		const struct proc_info *pi = &in->proc_infos[i];
		const char *labels[] = { ring_dev(in, pi->ring), ring_info(in, pi->ring)->name,
					 pi->comm, metrics_cgroup(pi->cgroup_id) };
		const unsigned long long v[] = { in->proc_queued[i], in->proc_done[i].done,
						 in->proc_wait_sum[i], in->proc_done[i].exec_sum };

		if (!ring_info(in, pi->ring)->excluded)
			err = metrics_rows_add(&procs, labels, v, 4);
	}
	METRICS_ROWS_TABLE(m, &procs, process_families);
	metrics_rows_free(&procs);
	return err;
}

int drmsched_metrics(struct metrics *m, const struct drmsched_metrics_in *in)
{
	double unit = metrics_time_unit();
	int err;

	ring_metrics(m, in, unit);
	err = proc_metrics(m, in);
	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "Events a full table of the tool had no room for, by table");
	metrics_u64(m, LABELS({ "table", "jobs" }), in->dropped_jobs);
	metrics_u64(m, LABELS({ "table", "rings" }), in->dropped_rings);
	metrics_u64(m, LABELS({ "table", "processes" }), in->dropped_procs);
	metrics_u64(m, LABELS({ "table", "deps" }), in->dropped_deps);
	return err;
}
