// SPDX-License-Identifier: GPL-2.0
/* amdkfd --prometheus: its families (prom.h). Labels are never pids: rows sum per comm. */
#include <stdio.h>
#include <string.h>

#include "amdkfd/decode.h"
#include "amdkfd/exits.h"
#include "amdkfd/kfd_names.h"
#include "amdkfd/prom.h"
#include "output.h"

static int calls_metrics(struct metrics *m, const struct amdkfd_metrics_in *in)
{
	struct metrics_rows calls = { .label_names = { "comm", "call", "cgroup" } };
	struct metrics_rows errs = { .label_names = { "comm", "call", "errno", "cgroup" } };
	char name[32], ebuf[16];
	size_t i;
	int err = 0;

	for (i = 0; i < in->calls->n && !err; i++) {
		const struct call_key *k = snapshot_key(in->calls, i);
		const struct call_stats *s = snapshot_value(in->calls, i);
		const unsigned long long v[] = { s->calls, s->lat.sum };

		err = metrics_rows_add(&calls, (const char *const[]){
			s->comm, kfd_call_name(name, sizeof(name), k->op, k->cmd, k->raw),
			metrics_cgroup(s->cgroup_id) }, v, 2);
	}
	for (i = 0; i < in->errs->n && !err; i++) {
		const struct err_key *k = snapshot_key(in->errs, i);
		const struct err_stats *s = snapshot_value(in->errs, i);

		err = metrics_rows_add(&errs, (const char *const[]){
			s->comm, kfd_call_name(name, sizeof(name), k->call.op, k->call.cmd, k->call.raw),
			errno_name(k->err, ebuf, sizeof(ebuf)), metrics_cgroup(s->cgroup_id) },
			&s->count, 1);
	}
	metrics_rows_family(m, &calls, 0, 1, "calls_total", METRIC_COUNTER,
			    "KFD ioctls, opens and closes returned, per process name and call");
	metrics_rows_family(m, &calls, 1, metrics_time_unit(), "call_seconds_total",
			    METRIC_COUNTER, "Time spent in them, entry to return");
	metrics_rows_family(m, &errs, 0, 1, "call_errors_total", METRIC_COUNTER,
			    "Those that failed, by errno");
	metrics_rows_free(&calls);
	metrics_rows_free(&errs);
	return err;
}

enum { PM_ALLOCS, PM_ALLOC_BYTES, PM_FREES, PM_FREED_BYTES, PM_FAILED, PM_LIVE_BYTES, NR_PM };

static const struct metrics_column memory_families[] = {
	{ PM_ALLOCS, "allocations_total", METRIC_COUNTER,
	  "GPU memory allocations through the KFD, per process name, GPU and kind" },
	{ PM_ALLOC_BYTES, "allocated_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ PM_FREES, "frees_total", METRIC_COUNTER, "Frees of allocations made while tracing" },
	{ PM_FREED_BYTES, "freed_bytes_total", METRIC_COUNTER, "Their bytes" },
	{ PM_FAILED, "allocation_failures_total", METRIC_COUNTER, "Allocations the KFD refused" },
	{ PM_LIVE_BYTES, "live_bytes", METRIC_GAUGE,
	  "Bytes allocated while tracing and not freed, by processes alive" },
};

static const struct metrics_column queue_families[] = {
	{ 0, "queues_created_total", METRIC_COUNTER,
	  "Compute and SDMA queues created, per process name, GPU and type" },
	{ 1, "queue_failures_total", METRIC_COUNTER, "Queue creations the KFD refused" },
	{ 2, "queues_alive", METRIC_GAUGE,
	  "Queues created while tracing and not destroyed, by processes alive" },
};

static int memory_metrics(struct metrics *m, const struct amdkfd_metrics_in *in)
{
	struct metrics_rows mem = { .label_names = { "comm", "gpu", "kind", "cgroup" } };
	struct metrics_rows queues = { .label_names = { "comm", "gpu", "type", "cgroup" } };
	char gpu[16], type[16];
	size_t i;
	int err = 0;

	for (i = 0; i < in->mem->n && !err; i++) {
		const struct mem_key *k = snapshot_key(in->mem, i);
		const struct mem_stats *s = snapshot_value(in->mem, i);
		/*
		 * Below zero only by frees of what was allocated before tracing;
		 * none when the process exited (the KFD freed it all).
		 */
		bool live = s->live_bytes > 0 && !exits_has(k->pid, k->started);
		const unsigned long long v[NR_PM] = {
			s->allocs, s->alloc_bytes, s->frees, s->freed_bytes, s->failed,
			live ? s->live_bytes : 0,
		};

		snprintf(gpu, sizeof(gpu), "%u", k->gpu_id);
		err = metrics_rows_add(&mem, (const char *const[]){
			s->comm, gpu, kfd_mem_kind_name(k->kind), metrics_cgroup(s->cgroup_id) },
			v, NR_PM);
	}
	for (i = 0; i < in->queues->n && !err; i++) {
		const struct queue_key *k = snapshot_key(in->queues, i);
		const struct queue_stats *s = snapshot_value(in->queues, i);
		bool alive = s->alive > 0 && !exits_has(k->pid, k->started);
		const unsigned long long v[] = { s->created, s->failed, alive ? s->alive : 0 };

		snprintf(gpu, sizeof(gpu), "%u", k->gpu_id);
		err = metrics_rows_add(&queues, (const char *const[]){
			s->comm, gpu,
			kfd_name_or_number(kfd_queue_type_name(k->type), k->type, type, sizeof(type)),
			metrics_cgroup(s->cgroup_id) }, v, 3);
	}
	METRICS_ROWS_TABLE(m, &mem, memory_families);
	METRICS_ROWS_TABLE(m, &queues, queue_families);
	metrics_rows_free(&mem);
	metrics_rows_free(&queues);
	return err;
}

static const struct metrics_column restore_families[] = {
	{ 0, "restores_total", METRIC_COUNTER, "Queue restores after an eviction" },
	{ 1, "svm_migrations_total", METRIC_COUNTER,
	  "SVM range migrations between system memory and GPUs" },
	{ 2, "svm_migrated_pages_total", METRIC_COUNTER, "Their pages" },
	{ 3, "gpu_page_faults_total", METRIC_COUNTER, "GPU page faults (SVM, retry faults)" },
	{ 4, "svm_migration_failures_total", METRIC_COUNTER,
	  "SVM migrations that failed, their pages not moved" },
};

/* Evictions per comm and trigger; evict -> restore histograms per comm, merged. */
static int eviction_metrics(struct metrics *m, const struct amdkfd_metrics_in *in)
{
	struct metrics_rows evictions = { .label_names = { "comm", "trigger" } };
	struct metrics_rows other = { .label_names = { "comm" } };
	char trigger[16];
	size_t i, j;
	int t, err = 0;

	for (i = 0; i < in->procs->n && !err; i++) {
		const struct proc_stats *s = snapshot_value(in->procs, i);
		const char *comm = s->comm[0] ? s->comm : "?";
		const unsigned long long v[] = { s->restores, s->migrations, s->migrated_pages,
						 s->faults, s->migrations_failed };

		for (t = 0; t < NR_TRIGGERS && !err; t++) {
			const char *name = t < NR_TRIGGERS - 1 ? kfd_eviction_trigger_name(t) : "OTHER";

			if (!s->evictions_by[t])
				continue;
			err = metrics_rows_add(&evictions, (const char *const[]){
				comm, kfd_name_or_number(name, t, trigger, sizeof(trigger)) },
				&s->evictions_by[t], 1);
		}
		if (!err)
			err = metrics_rows_add(&other, (const char *const[]){ comm }, v, 5);
	}
	metrics_rows_family(m, &evictions, 0, 1, "evictions_total", METRIC_COUNTER,
			    "Queue evictions of a process on a GPU, per process name and trigger");
	METRICS_ROWS_TABLE(m, &other, restore_families);
	metrics_rows_free(&evictions);
	metrics_rows_free(&other);

	metrics_family(m, "restore_seconds", METRIC_HISTOGRAM,
		       "Evict -> restore time of a process's queues on a GPU, per process name");
	for (i = 0; i < in->procs->n; i++) {
		const struct proc_stats *s = snapshot_value(in->procs, i);
		struct lat_hist h = s->restore_lat;
		bool first = true;

		/* Each comm once, with every process of that name merged in. */
		for (j = 0; j < i && first; j++)
			first = strcmp(((const struct proc_stats *)snapshot_value(in->procs, j))->comm,
				       s->comm) != 0;
		if (!first)
			continue;
		for (j = i + 1; j < in->procs->n; j++) {
			const struct proc_stats *o = snapshot_value(in->procs, j);

			if (!strcmp(o->comm, s->comm))
				lat_hist_merge(&h, &o->restore_lat);
		}
		if (h.count)
			metrics_lat_hist(m, LABELS({ "comm", s->comm[0] ? s->comm : "?" }), &h,
					 metrics_time_unit());
	}
	return err;
}

int amdkfd_metrics(struct metrics *m, const struct amdkfd_metrics_in *in)
{
	int err = calls_metrics(m, in);

	if (!err)
		err = memory_metrics(m, in);
	if (!err)
		err = eviction_metrics(m, in);
	metrics_family(m, "vm_faults_total", METRIC_COUNTER, "GPU VM faults, all processes");
	metrics_u64(m, NO_LABELS, in->vm_faults);
	metrics_family(m, "gpu_resets_total", METRIC_COUNTER, "GPU resets");
	metrics_u64(m, NO_LABELS, in->gpu_resets);
	metrics_family(m, "dropped_total", METRIC_COUNTER,
		       "Events not counted or allocations and queues not followed: a table was full");
	metrics_u64(m, NO_LABELS, in->dropped);
	return err;
}
