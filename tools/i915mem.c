// SPDX-License-Identifier: GPL-2.0
/*
 * i915mem - Intel GPU memory (i915 and xe): who holds it, what leaks, what
 * thrashes.
 *
 * Per process, the GEM objects (xe: buffer objects) it created: live count
 * and bytes, peak, created and destroyed. What processes did with GPU
 * memory: binds into GPU address spaces, unbinds, and rebinds of objects
 * that had been unbound (eviction churn), CPU faults (GTT or CPU mmap, read
 * or write), pread/pwrite. Per address space: binds, unbinds, rebinds,
 * evictions. Per driver: evictions, the shrinker's requests (in pages),
 * object sizes and lifetimes. -l lists the objects still alive, per
 * creating process, oldest first.
 *
 * Every table is described once (table.h): text columns, or with -j one
 * JSON object per row. --cgroup filters in BPF (filter.bpf.h); -C names
 * the cgroup of each process row, recorded where the row was first seen.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/btf.h>

#include "i915mem.h"
#include "tp_field.h"
#include "i915mem.skel.h"
#include "btf_targets.h"
#include "maps.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "tool.h"
#include "tp_format.h"
#include "i915mem/event_lines.h"
#include "i915mem/leaks.h"
#include "i915mem/names.h"
#include "i915mem/prom.h"
#include "i915mem/summary.h"
#include "i915mem/timeline.h"
#include "timeline.h"

static struct env {
	bool leaks;
	int driver;		/* -D: DRV_I915, DRV_XE, or -1 */
} env = { .driver = -1 };

/* The event that every version of each driver has. */
static const char *const driver_events[NR_DRIVERS] = {
	[DRV_I915] = "i915_gem_object_create", [DRV_XE] = "xe_vm_create",
};

static struct i915mem_bpf *skel;
static bool records;		/* the record path: SEC("tracepoint") programs (--no-btf) */
static bool xe_left_out;	/* ... which leaves xe out: said once attached */

/* The drivers' counters now, their CPUs' summed (read_drivers()). */
static struct driver_stats drivers[NR_DRIVERS];

const char *argp_program_version = "i915mem 0.1";
static const char doc[] =
"Intel GPU memory (i915, xe): who holds it, what leaks, what thrashes.\n"
"\n"
"USAGE: i915mem [-ejlmCTv] [-D DRIVER] [-p PID] [-c COMM] [--cgroup PATH]\n"
"               [--container ID] [--pod UID] [--no-btf] [--timeline FILE]\n"
"               [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    i915mem               # summary at Ctrl-C\n"
"    i915mem 5             # a summary every 5 seconds\n"
"    i915mem -l            # and the objects still alive, per creating process\n"
"    i915mem -p 1234       # only objects PID 1234 creates, and what it does\n"
"    i915mem -c Xorg -D xe # only Xorg, only the xe driver\n"
"    i915mem -e            # one line per event\n"
"    i915mem -j -l | jq .  # JSON lines: one object per table row, leaks too\n"
"    i915mem --timeline mem.json  # live bytes per process for ui.perfetto.dev\n"
"    i915mem --cgroup /sys/fs/cgroup/gpu.slice -C -l  # one cgroup's objects\n";

static const struct argp_option opts[] = {
	{ "leaks", 'l', NULL, 0, "List the objects still alive at each summary", 0 },
	{ "driver", 'D', "DRIVER", 0, "Only this driver: i915 or xe (traced even when it drives no device)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'l':
		env.leaks = true;
		break;
	case 'D':
		if (!strcmp(arg, "i915"))
			env.driver = DRV_I915;
		else if (!strcmp(arg, "xe"))
			env.driver = DRV_XE;
		else
			argp_error(state, "invalid DRIVER '%s' (i915 or xe)", arg_shown(arg));
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct tool_desc tool = {
	.doc = doc,
	.options = opts,
	.parser = parse_arg,
	.events = "Print one line per event",
	.timeline = "Write live bytes per process to FILE as counters of a timeline (ui.perfetto.dev opens it)",
	.records = true,
	.needs = TOOL_TRACEFS,
	/* Objects come and go by the thousand when a game loads a level. */
	.ring_bytes = 4 << 20,
	.quiet_ring_bytes = 4096,
};

/* ---- which events this kernel and its drivers have ---------------------- */

struct hook {
	int driver;
	const char *event;	/* a trace event of the driver's, or (fentry) a function */
	struct bpf_program *(*prog)(void);
	bool fentry;
	struct bpf_program *(*rec)(void);	/* the record path's twin; NULL: none */
};

#define I915(ev, name) { DRV_I915, ev, prog_##name, false, prog_tp_##name }
#define HOOK(drv, ev, name) { drv, ev, prog_##name, false, NULL }
#define FENTRY(drv, func, name) { drv, func, prog_##name, true, NULL }
#define PROG(name) static struct bpf_program *prog_##name(void) { return skel->progs.name; }
#define PROG2(name) PROG(name) PROG(tp_##name)
PROG2(i915_create) PROG2(i915_destroy) PROG2(i915_bind) PROG2(i915_unbind) PROG2(i915_fault)
PROG2(i915_pread) PROG2(i915_pwrite) PROG2(i915_shrink) PROG2(i915_evict)
PROG2(i915_evict_node) PROG2(i915_evict_vm) PROG2(i915_vm_create) PROG2(i915_vm_free)
PROG(xe_create) PROG(xe_destroy) PROG(xe_vma_bind) PROG(xe_vma_rebind_worker)
PROG(xe_vma_rebind_exec) PROG(xe_vma_unbind) PROG(xe_vma_evict) PROG(xe_vma_pagefault)
PROG(xe_cpu_fault) PROG(xe_move) PROG(xe_vm_create) PROG(xe_vm_free)

static const struct hook hooks[] = {
	I915("i915_gem_object_create", i915_create),
	I915("i915_gem_object_destroy", i915_destroy),
	I915("i915_vma_bind", i915_bind),
	I915("i915_vma_unbind", i915_unbind),
	I915("i915_gem_object_fault", i915_fault),
	I915("i915_gem_object_pread", i915_pread),
	I915("i915_gem_object_pwrite", i915_pwrite),
	I915("i915_gem_shrink", i915_shrink),
	I915("i915_gem_evict", i915_evict),
	I915("i915_gem_evict_node", i915_evict_node),
	I915("i915_gem_evict_vm", i915_evict_vm),
	I915("i915_ppgtt_create", i915_vm_create),
	I915("i915_ppgtt_release", i915_vm_free),
	HOOK(DRV_XE, "xe_bo_create", xe_create),
	/* xe has no destroy event: where its BOs end (TTM's destroy callback) */
	FENTRY(DRV_XE, "xe_ttm_bo_destroy", xe_destroy),
	HOOK(DRV_XE, "xe_vma_bind", xe_vma_bind),
	HOOK(DRV_XE, "xe_vma_rebind_worker", xe_vma_rebind_worker),
	HOOK(DRV_XE, "xe_vma_rebind_exec", xe_vma_rebind_exec),
	HOOK(DRV_XE, "xe_vma_unbind", xe_vma_unbind),
	HOOK(DRV_XE, "xe_vma_evict", xe_vma_evict),
	HOOK(DRV_XE, "xe_vma_pagefault", xe_vma_pagefault),
	HOOK(DRV_XE, "xe_bo_cpu_fault", xe_cpu_fault),
	HOOK(DRV_XE, "xe_bo_move", xe_move),
	HOOK(DRV_XE, "xe_vm_create", xe_vm_create),
	HOOK(DRV_XE, "xe_vm_free", xe_vm_free),
};

/*
 * The path: the record path when --no-btf says so, or when a module that
 * defines the drivers' events (i915, xe, or one playing them) has no BTF:
 * a module whose BTF has an event's btf_trace_ typedef defines it; when
 * none does, its __tracepoint_ symbol names the module. xe's records do not name
 * its buffer objects, so the record path traces i915 alone. The drivers
 * left to trace, or 0 (said why).
 */
static unsigned int choose_path(unsigned int loaded)
{
	char modules[128] = "", mod[64];
	int d;

	for (d = 0; d < NR_DRIVERS; d++) {
		if (!(loaded & (1u << d)))
			continue;
		if (!tracepoint_btf_module(driver_events[d], mod, sizeof(mod)) &&
		    !tracepoint_module(driver_events[d], mod, sizeof(mod)))
			snprintf(mod, sizeof(mod), "%s", driver_names[d]);
		if (!strstr(modules, mod))
			snprintf(modules + strlen(modules), sizeof(modules) - strlen(modules), "%s%s",
				 modules[0] ? " " : "", mod);
	}
	records = records_wanted(modules);
	if (!records || !(loaded & (1u << DRV_XE)))
		return loaded;
	if (env.driver == DRV_XE) {
		fprintf(stderr, "i915mem: xe cannot be traced without its BTF (its trace records do "
			"not name the buffer objects)\n");
		return 0;
	}
	xe_left_out = true;
	return loaded & ~(1u << DRV_XE);
}

/*
 * An fentry program's target: in the kernel's BTF, where its load looks
 * for it (the files read once, with the events' modules); not a scan of
 * the kernel's traceable functions, half a second under qemu.
 */
static bool function_in_btf(const char *func)
{
	char mod[64];
	__u32 id;

	return !btf_target_find(func, BTF_KIND_FUNC, mod, sizeof(mod), &id);
}

/*
 * Of the drivers whose events are there, those that may fire them: all but
 * a PCI driver that drives no device. Since Tiger Lake both i915's and
 * xe's ID tables name Intel's GPUs, so udev loads both and one of them
 * takes the GPU; the other one's programs would only double the start-up.
 * A driver playing one under another name (a test module) is no PCI
 * driver, and kept. 0 when none is left (said why).
 */
static unsigned int drivers_in_use(unsigned int loaded)
{
	unsigned int idle = 0;
	int d;

	for (d = 0; d < NR_DRIVERS; d++) {
		if (!(loaded & (1u << d)) || pci_driver_bound(driver_names[d]))
			continue;
		idle |= 1u << d;
		if (common_env.verbose)
			fprintf(stderr, "i915mem: %s drives no device: not traced (-D %s traces it)\n",
				driver_names[d], driver_names[d]);
	}
	if (loaded & ~idle)
		return loaded & ~idle;
	if (idle == (1u << DRV_I915 | 1u << DRV_XE))
		fprintf(stderr, "i915mem: i915 and xe are loaded but drive no device (no Intel GPU "
			"bound to them): -D i915 or -D xe traces one anyway\n");
	else
		fprintf(stderr, "i915mem: %s is loaded but drives no device (no Intel GPU bound to "
			"it): -D %s traces it anyway\n", driver_names[ffs(idle) - 1],
			driver_names[ffs(idle) - 1]);
	return 0;
}

/*
 * Load the programs of the drivers that are there (and wanted), of the
 * path chosen; of those, skip any event this kernel lacks, saying which.
 * The drivers traced: a bit per driver; 0 when there is nothing to trace
 * (said why).
 */
static unsigned int choose_hooks(void)
{
	unsigned int loaded = 0, traced = 0;
	size_t i;
	int d;

	/* A driver is there when its events are (built in or a module). */
	for (d = 0; d < NR_DRIVERS; d++)
		if (tracepoint_exists(driver_names[d], driver_events[d]))
			loaded |= 1u << d;
	if (env.driver >= 0 && !(loaded & (1u << env.driver))) {
		fprintf(stderr, "i915mem: driver %s is not loaded: 'modprobe %s' (or run on a "
			"machine with an Intel GPU it drives)\n", driver_names[env.driver],
			driver_names[env.driver]);
		return 0;
	}
	if (!loaded) {
		fprintf(stderr, "i915mem: no Intel GPU driver loaded (no i915 or xe trace events): "
			"'modprobe i915' or 'modprobe xe'\n");
		return 0;
	}
	for (d = 0; d < NR_DRIVERS; d++)
		if (env.driver >= 0 && env.driver != d)
			loaded &= ~(1u << d);
	if (env.driver < 0 && !(loaded = drivers_in_use(loaded)))
		return 0;
	loaded = choose_path(loaded);
	if (!loaded)
		return 0;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		const struct hook *h = &hooks[i];
		bool on = loaded & (1u << h->driver);

		if (on && !h->fentry && !tracepoint_exists(driver_names[h->driver], h->event)) {
			fprintf(stderr, "i915mem: %s has no event %s on this kernel: not traced\n",
				driver_names[h->driver], h->event);
			on = false;
		} else if (on && h->fentry && !function_in_btf(h->event)) {
			fprintf(stderr, "i915mem: %s has no function %s on this kernel: its objects' "
				"destruction is not traced\n", driver_names[h->driver], h->event);
			on = false;
		}
		bpf_program__set_autoload(h->prog(), on && !records);
		if (h->rec)
			bpf_program__set_autoload(h->rec(), on && records);
		if (on)
			traced |= 1u << h->driver;
	}
	if (!traced)
		fprintf(stderr, "i915mem: %s: none of the events this tool reads\n",
			env.driver >= 0 ? driver_names[env.driver] : "i915, xe");
	return traced;
}

/* ---- the record path ---------------------------------------------------- */

#define RF(ev, name, f) RECORD_FIELD(i915mem, "i915", ev, name, TP_WANT_INT, f, NULL)

/* Every field the record path reads: the same in 5.10, 6.1, 6.12 and 7.x. */
static const struct record_field rec_fields[] = {
	RF("i915_gem_object_create", "obj", f_create_obj),
	RF("i915_gem_object_create", "size", f_create_size),
	RF("i915_gem_object_destroy", "obj", f_destroy_obj),
	RF("i915_vma_bind", "obj", f_bind_obj),
	RF("i915_vma_bind", "vm", f_bind_vm),
	RF("i915_vma_bind", "offset", f_bind_offset),
	RF("i915_vma_bind", "size", f_bind_size),
	RF("i915_vma_bind", "flags", f_bind_flags),
	RF("i915_vma_unbind", "obj", f_unbind_obj),
	RF("i915_vma_unbind", "vm", f_unbind_vm),
	RF("i915_vma_unbind", "offset", f_unbind_offset),
	RF("i915_vma_unbind", "size", f_unbind_size),
	RF("i915_gem_object_fault", "obj", f_fault_obj),
	RF("i915_gem_object_fault", "index", f_fault_index),
	RF("i915_gem_object_fault", "gtt", f_fault_gtt),
	RF("i915_gem_object_fault", "write", f_fault_write),
	RF("i915_gem_object_pread", "obj", f_pread_obj),
	RF("i915_gem_object_pread", "offset", f_pread_offset),
	RF("i915_gem_object_pread", "len", f_pread_len),
	RF("i915_gem_object_pwrite", "obj", f_pwrite_obj),
	RF("i915_gem_object_pwrite", "offset", f_pwrite_offset),
	RF("i915_gem_object_pwrite", "len", f_pwrite_len),
	RF("i915_gem_shrink", "target", f_shrink_target),
	RF("i915_gem_evict", "vm", f_evict_vm),
	RF("i915_gem_evict", "size", f_evict_size),
	RF("i915_gem_evict", "flags", f_evict_flags),
	RF("i915_gem_evict_node", "vm", f_evict_node_vm),
	RF("i915_gem_evict_node", "size", f_evict_node_size),
	RF("i915_gem_evict_node", "flags", f_evict_node_flags),
	RF("i915_gem_evict_vm", "vm", f_evict_vm_vm),
	RF("i915_ppgtt_create", "vm", f_vm_create_vm),
	RF("i915_ppgtt_release", "vm", f_vm_free_vm),
};

/*
 * The loaded programs' fields, from tracefs; an event this kernel lacks was
 * said and its program is not loaded. Non-zero: said why.
 */
static int set_record_fields(void)
{
	if (records_get_fields(skel->rodata, rec_fields, sizeof(rec_fields) / sizeof(rec_fields[0]),
			       RECORDS_SKIP_ABSENT_EVENTS) < 0)
		return -1;
	/* the unbind record has the binding's size, not its object's */
	records_missing("BYTES of a fault on an object created before tracing (-e)");
	return 0;
}

static int attach_records(void)
{
	struct record_tp tps[sizeof(hooks) / sizeof(hooks[0])];
	size_t i, n = 0;

	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (hooks[i].rec && bpf_program__autoload(hooks[i].rec()))
			tps[n++] = (struct record_tp){ hooks[i].rec(), driver_names[hooks[i].driver],
						       hooks[i].event };
	return records_attach(tps, n) ?: records_count_skipped(skel->obj);
}

/* ---- summaries (the tables: i915mem/summary.c) --------------------------- */

_Static_assert(sizeof(struct driver_stats) % sizeof(__u64) == 0, "driver_stats: __u64 counters");

/*
 * drivers[]: the kernel side's per-CPU counters, summed, and the binds and
 * unbinds of the processes' rows PROCS, which the kernel side counts once,
 * in the row (its per-CPU count has only those of no row); nonzero:
 * unreadable.
 */
static int read_drivers(const struct map_snapshot *procs)
{
	size_t i;
	__u32 d;
	int err = 0;

	for (d = 0; d < NR_DRIVERS && !err; d++)
		err = map_sum_percpu(skel->maps.drivers, d, (__u64 *)&drivers[d],
				     sizeof(drivers[d]) / sizeof(__u64));
	for (i = 0; i < procs->n && !err; i++) {
		const struct proc_key *k = snapshot_key(procs, i);
		const struct proc_stats *p = snapshot_value(procs, i);

		if (k->driver < NR_DRIVERS) {
			drivers[k->driver].events[EV_BIND] += p->binds;
			drivers[k->driver].events[EV_UNBIND] += p->unbinds;
		}
	}
	return err;
}


/*
 * The processes' rows into PROCS, with what the frontend derives from
 * them (procs_live()), and drivers[] (read_drivers(), part of it from
 * those rows): what both the summary and --prometheus start from.
 */
static int read_counts(struct map_snapshot *procs)
{
	int err = map_snapshot(skel->maps.procs, procs);

	if (err)
		return err;
	procs_live(procs);
	return read_drivers(procs);
}

static int print_summary(void *ctx)
{
	struct map_snapshot procs = {}, vms = {};
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = read_counts(&procs) ?:
	      map_snapshot(skel->maps.vms, &vms);
	if (err) {
		fprintf(stderr, "i915mem: failed to read maps: %s\n", strerror(-err));
		map_snapshot_free(&procs);
		map_snapshot_free(&vms);
		return err;
	}
	summary_begin(f);
	print_tables(f, &procs, &vms, drivers);
	if (env.leaks)
		print_leaks(f, &procs, skel->maps.objects);
	fflush(f);
	keep_tables(&procs, &vms, drivers);
	return 0;
}

/* ---- -e (the lines: i915mem/event_lines.c) ------------------------------ */

/* --timeline: live bytes per process (i915mem/timeline.c), drawn from every record. */
static void timeline_event(const struct i915mem_event *e)
{
	i915mem_timeline_event(e, driver_names[e->driver % NR_DRIVERS]);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct i915mem_event *e = data;

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	timeline_event(e);
	if (common_env.events)
		print_event(e);
	return 0;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct i915mem_bpf__bss *bss = skel->bss;

	report_lost("objects", bss->dropped_objects, MAX_OBJECTS, "%llu objects not tracked "
		    "(more than %d alive at once)", (unsigned long long)bss->dropped_objects,
		    MAX_OBJECTS);
	report_lost("processes", bss->dropped_procs, MAX_PROCS, "events of processes beyond "
		    "the first %d not counted per process (%llu)", MAX_PROCS,
		    (unsigned long long)bss->dropped_procs);
	report_lost("address_spaces", bss->dropped_vms, MAX_VMS, "events of address spaces "
		    "beyond the first %d not counted per address space (%llu)", MAX_VMS,
		    (unsigned long long)bss->dropped_vms);
	i915mem_timeline_report();
}

/* --prometheus: i915mem/prom.c's families, from a snapshot of the processes. */
static int write_metrics(struct metrics *m, void *ctx)
{
	struct map_snapshot snap = {};
	int err;

	(void)ctx;
	err = read_counts(&snap);
	if (err)
		fprintf(stderr, "i915mem: failed to read maps: %s\n", strerror(-err));
	else
		err = i915mem_metrics(m, &(struct i915mem_metrics_in){
			.procs = &snap, .drivers = drivers });
	map_snapshot_free(&snap);
	return err;
}

int main(int argc, char **argv)
{
	struct trace_loop loop = {};
	unsigned int traced;
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;

	skel = i915mem_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	skel->rodata->targ_driver = env.driver;
	traced = choose_hooks();
	if (!traced) {
		err = -ENOENT;
		goto cleanup;
	}
	err = records ? set_record_fields() : 0;
	if (err)
		goto cleanup;
	err = tool_start(skel->skeleton, skel->maps.cgroup_map, "the i915/xe tracepoints");
	if (!err && records)
		err = attach_records();
	if (err)
		goto cleanup;
	/* Said once attached: a test waiting for the tool's first output sees it attached. */
	if (xe_left_out)
		fprintf(stderr, "i915mem: xe not traced: without its BTF (its trace records do not "
			"name the buffer objects)\n");
	records_announce();

	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing Intel GPU memory (%s%s%s), counting from now",
			 traced & (1u << DRV_I915) ? "i915" : "",
			 traced == ((1u << DRV_I915) | (1u << DRV_XE)) ? ", " : "",
			 traced & (1u << DRV_XE) ? "xe" : "");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	records_detach();
	free_tables();
	i915mem_bpf__destroy(skel);
	return err != 0;
}
