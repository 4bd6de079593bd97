// SPDX-License-Identifier: GPL-2.0
/* nvdrv --prometheus: the families of its maps and of the Xids (prom.h). */
#include <stdbool.h>
#include <stdio.h>

#include "nvdrv/esc_hists.h"
#include "nvdrv/nvidia_names.h"
#include "nvdrv/power.h"
#include "nvdrv/prom.h"
#include "nvdrv/rm_memory.h"
#include "nvdrv/xids.h"

/* From the calls and rm_rows maps: per escape and process name; RM calls. */
static int ioctl_metrics(struct metrics *m, const struct map_snapshot *calls,
			 const struct map_snapshot *rm, double unit)
{
	static struct esc_hists per_esc;
	struct metrics_rows rows = { .label_names = { "escape", "comm", "cgroup" } };
	struct metrics_rows rmr = { .label_names = { "escape", "object", "status" } };
	char esc[24], obj[16], st[16];
	size_t i;
	int e, err = 0;

	esc_hists_reset(&per_esc);
	for (i = 0; i < calls->n && !err; i++) {
		const struct call_key *k = snapshot_key(calls, i);
		const struct call_stats *c = snapshot_value(calls, i);
		const unsigned long long v[] = { c->lat.count, c->errors };

		err = metrics_rows_add(&rows, (const char *const[]){
			nv_escape_str(k->esc, esc, sizeof(esc)), c->comm, metrics_cgroup(c->cgroup_id) }, v, 2);
		esc_hists_add(&per_esc, k->esc, &c->lat);
	}
	metrics_rows_family(m, &rows, 0, 1, "ioctls_total", METRIC_COUNTER,
			    "ioctls on NVIDIA's device nodes, per escape and process name");
	metrics_rows_family(m, &rows, 1, 1, "ioctl_errors_total", METRIC_COUNTER,
			    "Those that returned an error");
	metrics_rows_free(&rows);
	metrics_family(m, "ioctl_latency_seconds", METRIC_HISTOGRAM, "ioctl latency, per escape");
	for (e = 0; e < NR_ESC_SLOTS; e++)
		if (per_esc.seen[e])
			metrics_lat_hist(m, LABELS({ "escape", nv_escape_str(per_esc.esc[e], esc, sizeof(esc)) }),
					 &per_esc.hist[e], unit);
	/* RM calls by what they named and the status the RM answered (NV_OK too). */
	for (i = 0; i < rm->n && !err; i++) {
		const struct rm_key *k = snapshot_key(rm, i);
		const struct rm_stats *r = snapshot_value(rm, i);
		const char *oname = nv_object_name(k->esc, k->obj), *sname = nv_status_name(k->status);

		snprintf(obj, sizeof(obj), "0x%x", k->obj);
		snprintf(st, sizeof(st), "0x%x", k->status);
		err = metrics_rows_add(&rmr, (const char *const[]){
			nv_escape_str(k->esc, esc, sizeof(esc)), oname ? oname : obj, sname ? sname : st },
			&r->count, 1);
	}
	metrics_rows_family(m, &rmr, 0, 1, "rm_calls_total", METRIC_COUNTER,
			    "RM calls (alloc, control, free...), per escape, class or command, and RM status");
	metrics_rows_free(&rmr);
	return err;
}

static const struct metrics_column device_families[] = {
	{ 0, "opens_total", METRIC_COUNTER,
	  "Opens of NVIDIA's device nodes, per node and process name" },
	{ 1, "open_errors_total", METRIC_COUNTER, "Failed opens" },
	{ 2, "mmaps_total", METRIC_COUNTER, "mmaps of the nodes" },
	{ 3, "mmap_bytes_total", METRIC_COUNTER, "Their bytes, mapped or not" },
	{ 4, "mmap_errors_total", METRIC_COUNTER, "Failed mmaps" },
	{ 5, "faults_total", METRIC_COUNTER, "Page faults on those mappings" },
	{ 6, "polls_total", METRIC_COUNTER,
	  "The driver's poll calls (a poll() that sleeps makes two)" },
	{ 7, "polls_ready_total", METRIC_COUNTER, "Those that found events waiting" },
	{ 8, "mappings_copied_total", METRIC_COUNTER,
	  "Mappings the kernel copied (fork, split, mremap: nvidia_vma_open)" },
	{ 9, "mappings_unmapped_total", METRIC_COUNTER,
	  "Mappings unmapped (munmap, exit: nvidia_vma_release)" },
	{ 10, "mappings_live", METRIC_GAUGE, "Mappings held now, made or copied while traced" },
};

/* From the dev_rows and irq_rows maps: device nodes, interrupts. */
static int device_metrics(struct metrics *m, const struct map_snapshot *devs,
			  const struct map_snapshot *irqs, double unit)
{
	struct metrics_rows rows = { .label_names = { "device", "comm", "cgroup" } };
	char dev[32], gpu[32];
	size_t i;
	int err = 0;

	for (i = 0; i < devs->n && !err; i++) {
		const struct dev_key *k = snapshot_key(devs, i);
		const struct dev_stats *d = snapshot_value(devs, i);
		const unsigned long long v[] = { d->opens, d->open_errors, d->mmaps, d->mmap_bytes,
						 d->mmap_errors, d->faults, d->polls, d->polls_ready,
						 d->vma_copies, d->vma_releases,
						 d->live > 0 ? (unsigned long long)d->live : 0 };

		err = metrics_rows_add(&rows, (const char *const[]){
			dev_name(k->dev, dev, sizeof(dev)), d->comm, metrics_cgroup(d->cgroup_id) }, v, 11);
	}
	METRICS_ROWS_TABLE(m, &rows, device_families);
	metrics_rows_free(&rows);
#define IRQ_FAMILY(name, type, help, put)						\
	do {										\
		metrics_family(m, name, type, help);					\
		for (i = 0; i < irqs->n; i++) {						\
			const struct irq_key *k = snapshot_key(irqs, i);		\
			const struct irq_stats *q = snapshot_value(irqs, i);		\
			const struct label *l = LABELS({ "gpu", nv_gpu_name(k->gpu, gpu, sizeof(gpu)) }, \
						       { "kind", irq_kind_name(k->kind) }); \
			put;								\
		}									\
	} while (0)
	IRQ_FAMILY("interrupts_total", METRIC_COUNTER, "Interrupt top halves, per GPU and kind",
		   metrics_u64(m, l, q->top));
	IRQ_FAMILY("interrupts_handled_total", METRIC_COUNTER, "Top halves that returned IRQ_HANDLED",
		   metrics_u64(m, l, q->handled));
	IRQ_FAMILY("bottom_halves_total", METRIC_COUNTER, "Bottom halves",
		   metrics_u64(m, l, q->bottom));
	IRQ_FAMILY("top_to_bottom_half_seconds", METRIC_HISTOGRAM,
		   "Time from a top half to its bottom half",
		   metrics_lat_hist(m, l, &q->top_bottom, unit));
#undef IRQ_FAMILY
	return err;
}

/* The Xids counted in user space (xids.h). */
static void xid_metrics(struct metrics *m)
{
	char gpu[32], xid[16];
	int i;

	metrics_family(m, "xids_total", METRIC_COUNTER, "Xid errors reported, per GPU and Xid");
	for (i = 0; i < nr_xid_rows; i++) {
		snprintf(xid, sizeof(xid), "%u", xid_rows[i].xid);
		metrics_u64(m, LABELS({ "gpu", nv_gpu_name(xid_rows[i].gpu, gpu, sizeof(gpu)) },
				      { "xid", xid }), xid_rows[i].count);
	}
}

int nvdrv_metrics(struct metrics *m, const struct nvdrv_metrics_in *in)
{
	double unit = metrics_time_unit();
	int err;

	power_metrics(m, in->power, unit);
	err = ioctl_metrics(m, in->calls, in->rm, unit) ?:
	      device_metrics(m, in->devs, in->irqs, unit) ?:
	      rm_memory_metrics(m);
	xid_metrics(m);
	return err;
}
