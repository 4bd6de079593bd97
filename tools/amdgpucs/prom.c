// SPDX-License-Identifier: GPL-2.0
/* amdgpucs --prometheus: its families (prom.h). */
#include <stdio.h>

#include "amdgpucs/names.h"
#include "amdgpucs/prom.h"

static const char *ring_label(const struct amdgpucs_metrics_in *in, __u32 ring)
{
	return ring < MAX_RINGS && in->rings[ring].name[0] ? in->rings[ring].name : "?";
}

static const struct metrics_column ring_families[] = {
	{ 0, "submissions_total", METRIC_COUNTER,
	  "Command submissions (CS ioctls), per ring and process name" },
	{ 1, "ibs_total", METRIC_COUNTER, "Indirect buffers of those submissions" },
	{ 2, "jobs_run_total", METRIC_COUNTER, "Submissions handed to the ring" },
	{ 3, "jobs_done_total", METRIC_COUNTER, "Submissions whose fence signalled" },
};

static void ring_metrics(struct metrics *m, const struct amdgpucs_metrics_in *in, double unit)
{
	const struct map_snapshot *s = in->rows;
	static struct lat_hist run[MAX_RINGS], done[MAX_RINGS];
	struct metrics_rows subs = { .label_names = { "ring", "comm", "cgroup" } };
	bool seen[MAX_RINGS] = {};
	__u32 r;
	size_t i;

	for (r = 0; r < MAX_RINGS; r++) {
		lat_hist_reset(&run[r]);
		lat_hist_reset(&done[r]);
	}
	for (i = 0; i < s->n; i++) {
		const struct row_key *k = snapshot_key(s, i);
		const struct row_stats *st = snapshot_value(s, i);
		const unsigned long long v[] = { st->submits, st->ibs, st->runs, st->dones };

		metrics_rows_add(&subs, (const char *const[]){ ring_label(in, k->ring), st->comm,
							      metrics_cgroup(st->cgroup_id) }, v, 4);
		if (k->ring < MAX_RINGS) {
			lat_hist_merge(&run[k->ring], &st->submit_run);
			lat_hist_merge(&done[k->ring], &st->run_done);
			seen[k->ring] = true;
		}
	}
	METRICS_ROWS_TABLE(m, &subs, ring_families);
	metrics_rows_free(&subs);
	metrics_family(m, "submit_to_run_seconds", METRIC_HISTOGRAM,
		       "Time from the CS ioctl to the job handed to the ring");
	for (r = 0; r < MAX_RINGS; r++)
		if (seen[r])
			metrics_lat_hist(m, LABELS({ "ring", ring_label(in, r) }), &run[r], unit);
	metrics_family(m, "run_to_done_seconds", METRIC_HISTOGRAM,
		       "Time from the job handed to the ring to its fence signalled");
	for (r = 0; r < MAX_RINGS; r++)
		if (seen[r])
			metrics_lat_hist(m, LABELS({ "ring", ring_label(in, r) }), &done[r], unit);
	metrics_family(m, "vm_flushes_total", METRIC_COUNTER, "amdgpu_vm_flush, per ring");
	for (r = 0; r < MAX_RINGS; r++)
		if (in->rings[r].name[0])
			metrics_u64(m, LABELS({ "ring", ring_label(in, r) }), in->rings[r].flushes);
}

static const struct metrics_column buffer_families[] = {
	{ 0, "buffers_created_total", METRIC_COUNTER,
	  "Buffer objects created, per process name and preferred domain" },
	{ 1, "buffers_created_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ 2, "buffers_evicted_total", METRIC_COUNTER,
	  "Evictions of those buffers from VRAM (to GTT or system)" },
	{ 3, "buffers_evicted_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ 4, "buffers_cpu_visible_vram_bytes_total", METRIC_COUNTER,
	  "Bytes of buffers created in VRAM with CPU access required" },
	{ 5, "buffers_misplaced_total", METRIC_COUNTER,
	  "Buffers created outside their preferred domain" },
};

static const struct metrics_column vm_families[] = {
	{ 0, "vm_maps_total", METRIC_COUNTER, "amdgpu_vm_bo_map, per process name" },
	{ 1, "vm_mapped_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ 2, "vm_unmaps_total", METRIC_COUNTER, "amdgpu_vm_bo_unmap" },
	{ 3, "vm_unmapped_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ 4, "vm_updates_total", METRIC_COUNTER, "amdgpu_vm_bo_update: page-table updates" },
};

static void buffer_metrics(struct metrics *m, const struct map_snapshot *bos,
			   const struct map_snapshot *vms)
{
	struct metrics_rows rows = { .label_names = { "comm", "domain", "cgroup" } };
	struct metrics_rows vm = { .label_names = { "comm", "cgroup" } };
	char domain[64];
	size_t i;

	for (i = 0; i < bos->n; i++) {
		const struct bo_key *k = snapshot_key(bos, i);
		const struct bo_stats *st = snapshot_value(bos, i);
		const unsigned long long v[] = { st->count, st->bytes, st->evictions,
						 st->evicted_bytes, st->visible_bytes, st->misplaced };

		metrics_rows_add(&rows, (const char *const[]){
			st->comm, domain_str(k->domain, domain, sizeof(domain)),
			metrics_cgroup(st->cgroup_id) }, v, 6);
	}
	METRICS_ROWS_TABLE(m, &rows, buffer_families);
	metrics_rows_free(&rows);
	for (i = 0; i < vms->n; i++) {
		const struct vm_stats *st = snapshot_value(vms, i);
		const unsigned long long v[] = { st->maps, st->mapped_bytes, st->unmaps,
						 st->unmapped_bytes, st->updates };

		metrics_rows_add(&vm, (const char *const[]){ st->comm, metrics_cgroup(st->cgroup_id) },
				 v, 5);
	}
	METRICS_ROWS_TABLE(m, &vm, vm_families);
	metrics_rows_free(&vm);
}

static void move_metrics(struct metrics *m, const struct amdgpucs_metrics_in *in)
{
	const struct map_snapshot *ivs = in->ivs;
	struct metrics_rows irqs = { .label_names = { "client", "src" } };
	int from, to;
	size_t i;

	metrics_family(m, "moves_total", METRIC_COUNTER, "Buffer moves between TTM placements");
	for (from = 0; from < NR_PLACEMENTS; from++)
		for (to = 0; to < NR_PLACEMENTS; to++)
			if (in->moves[from][to].count)
				metrics_u64(m, LABELS({ "from", placement_str(from) },
						      { "to", placement_str(to) }),
					    in->moves[from][to].count);
	metrics_family(m, "moved_bytes_total", METRIC_COUNTER, "Their bytes");
	for (from = 0; from < NR_PLACEMENTS; from++)
		for (to = 0; to < NR_PLACEMENTS; to++)
			if (in->moves[from][to].count)
				metrics_u64(m, LABELS({ "from", placement_str(from) },
						      { "to", placement_str(to) }),
					    in->moves[from][to].bytes);
	/* Interrupt sources: client and source id (ring, vmid and pasid summed). */
	for (i = 0; i < ivs->n; i++) {
		const struct iv_key *k = snapshot_key(ivs, i);
		char client[16], src[16];

		snprintf(client, sizeof(client), "%u", k->client_id);
		snprintf(src, sizeof(src), "%u", k->src_id);
		metrics_rows_add(&irqs, (const char *const[]){ client, src },
				 (const unsigned long long *)snapshot_value(ivs, i), 1);
	}
	metrics_rows_family(m, &irqs, 0, 1, "interrupts_total", METRIC_COUNTER,
			    "Interrupt vectors (amdgpu_iv), per IH client and source id");
	metrics_rows_free(&irqs);
}

int amdgpucs_metrics(struct metrics *m, const struct amdgpucs_metrics_in *in)
{
	ring_metrics(m, in, metrics_time_unit());
	buffer_metrics(m, in->bos, in->vms);
	move_metrics(m, in);
	return 0;
}
