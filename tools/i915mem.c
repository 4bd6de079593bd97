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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i915mem.h"
#include "i915mem.skel.h"
#include "events.h"
#include "hist.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"

#define MAX_LEAKS_LISTED 50	/* objects listed per process; the rest counted */

static struct env {
	bool events;
	bool leaks;
	char comm[COMM_LEN];
	int driver;		/* -D: DRV_I915, DRV_XE, or -1 */
} env = { .driver = -1 };

static const char *const driver_names[NR_DRIVERS] = { [DRV_I915] = "i915", [DRV_XE] = "xe" };
/* The event that every version of each driver has. */
static const char *const driver_events[NR_DRIVERS] = {
	[DRV_I915] = "i915_gem_object_create", [DRV_XE] = "xe_bo_create",
};

static struct i915mem_bpf *skel;
static unsigned long long start_ns;
static long page_size;

/* The counters at the previous summary: each summary prints what changed. */
static struct map_snapshot prev_procs, prev_vms;
static struct driver_stats prev_drivers[NR_DRIVERS];

const char *argp_program_version = "i915mem 0.1";
static const char doc[] =
"Intel GPU memory (i915, xe): who holds it, what leaks, what thrashes.\n"
"\n"
"USAGE: i915mem [-elmT] [-D i915|xe] [-p PID] [-c COMM] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    i915mem               # summary at Ctrl-C\n"
"    i915mem 5             # a summary every 5 seconds\n"
"    i915mem -l            # and the objects still alive, per creating process\n"
"    i915mem -p 1234       # only objects process 1234 creates, and what it does\n"
"    i915mem -c Xorg -D xe # only Xorg, only the xe driver\n"
"    i915mem -e            # one line per event\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per event", 0 },
	{ "leaks", 'l', NULL, 0, "List the objects still alive at each summary", 0 },
	{ "comm", 'c', "COMM", 0, "Only processes with this command name", 0 },
	{ "driver", 'D', "DRIVER", 0, "Only this driver: i915 or xe", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	case 'l':
		env.leaks = true;
		break;
	case 'c':
		parse_name_arg(state, arg, "COMM", env.comm, sizeof(env.comm));
		break;
	case 'D':
		if (!strcmp(arg, "i915"))
			env.driver = DRV_I915;
		else if (!strcmp(arg, "xe"))
			env.driver = DRV_XE;
		else
			argp_error(state, "invalid DRIVER '%s' (i915 or xe)", arg);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* ---- which events this kernel and its drivers have ---------------------- */

struct hook {
	int driver;
	const char *event;	/* a trace event of the driver's, or (fentry) a function */
	struct bpf_program *(*prog)(void);
	bool fentry;
};

#define HOOK(drv, ev, name) { drv, ev, prog_##name, false }
#define FENTRY(drv, func, name) { drv, func, prog_##name, true }
#define PROG(name) static struct bpf_program *prog_##name(void) { return skel->progs.name; }
PROG(i915_create) PROG(i915_destroy) PROG(i915_bind) PROG(i915_unbind) PROG(i915_fault)
PROG(i915_pread) PROG(i915_pwrite) PROG(i915_shrink) PROG(i915_evict) PROG(i915_evict_node)
PROG(i915_evict_vm) PROG(i915_vm_create) PROG(i915_vm_free)
PROG(xe_create) PROG(xe_destroy) PROG(xe_vma_bind) PROG(xe_vma_rebind_worker)
PROG(xe_vma_rebind_exec) PROG(xe_vma_unbind) PROG(xe_vma_evict) PROG(xe_vma_pagefault)
PROG(xe_cpu_fault) PROG(xe_move) PROG(xe_vm_create) PROG(xe_vm_free)

static const struct hook hooks[] = {
	HOOK(DRV_I915, "i915_gem_object_create", i915_create),
	HOOK(DRV_I915, "i915_gem_object_destroy", i915_destroy),
	HOOK(DRV_I915, "i915_vma_bind", i915_bind),
	HOOK(DRV_I915, "i915_vma_unbind", i915_unbind),
	HOOK(DRV_I915, "i915_gem_object_fault", i915_fault),
	HOOK(DRV_I915, "i915_gem_object_pread", i915_pread),
	HOOK(DRV_I915, "i915_gem_object_pwrite", i915_pwrite),
	HOOK(DRV_I915, "i915_gem_shrink", i915_shrink),
	HOOK(DRV_I915, "i915_gem_evict", i915_evict),
	HOOK(DRV_I915, "i915_gem_evict_node", i915_evict_node),
	HOOK(DRV_I915, "i915_gem_evict_vm", i915_evict_vm),
	HOOK(DRV_I915, "i915_ppgtt_create", i915_vm_create),
	HOOK(DRV_I915, "i915_ppgtt_release", i915_vm_free),
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
 * Load the programs of the drivers that are there (and wanted); of those,
 * skip any event this kernel lacks, saying which. The drivers traced: a
 * bit per driver; 0 when there is nothing to trace (said why).
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
	for (d = 0; d < NR_DRIVERS; d++) {
		if (!(loaded & (1u << d)) || (env.driver >= 0 && env.driver != d)) {
			loaded &= ~(1u << d);
			continue;
		}
		if (module_lacks_btf(driver_names[d])) {
			fprintf(stderr, "i915mem: module %s has no BTF (/sys/kernel/btf/%s): the kernel "
				"needs CONFIG_DEBUG_INFO_BTF_MODULES=y\n", driver_names[d],
				driver_names[d]);
			return 0;
		}
	}
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		const struct hook *h = &hooks[i];
		bool on = loaded & (1u << h->driver);

		if (on && !h->fentry && !tracepoint_exists(driver_names[h->driver], h->event)) {
			fprintf(stderr, "i915mem: %s has no event %s on this kernel: not traced\n",
				driver_names[h->driver], h->event);
			on = false;
		} else if (on && h->fentry && !kprobe_exists(h->event)) {
			fprintf(stderr, "i915mem: %s has no function %s on this kernel: its objects' "
				"destruction is not traced\n", driver_names[h->driver], h->event);
			on = false;
		}
		bpf_program__set_autoload(h->prog(), on);
		if (on)
			traced |= 1u << h->driver;
	}
	if (!traced)
		fprintf(stderr, "i915mem: %s: none of the events this tool reads\n",
			env.driver >= 0 ? driver_names[env.driver] : "i915, xe");
	return traced;
}

/* ---- summaries ---------------------------------------------------------- */

#define DELTA(now, was, field) ((now)->field - ((was) ? (was)->field : 0))

static int cmp_live_bytes(const void *a, const void *b)
{
	const struct proc_stats *pa = (const void *)((const char *)a + sizeof(struct proc_key));
	const struct proc_stats *pb = (const void *)((const char *)b + sizeof(struct proc_key));
	const struct proc_key *ka = a, *kb = b;

	if (pa->live_bytes != pb->live_bytes)
		return pa->live_bytes > pb->live_bytes ? -1 : 1;
	return ka->pid < kb->pid ? -1 : ka->pid > kb->pid;
}

static void print_memory(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct proc_key *k = snapshot_key(s, i);
		const struct proc_stats *p = snapshot_value(s, i);
		const struct proc_stats *was = map_snapshot_find(&prev_procs, k);

		if (!p->live && !DELTA(p, was, created) && !DELTA(p, was, destroyed))
			continue;
		if (!header) {
			fprintf(f, "%-6s %-7s %-16s %8s %12s %12s %8s %12s %9s %12s\n", "DRIVER", "PID",
				"COMM", "LIVE", "LIVE_BYTES", "PEAK_BYTES", "CREATED", "CREATED_B",
				"DESTROYED", "DESTROYED_B");
			header = true;
		}
		fprintf(f, "%-6s %-7u %-16s %8lld %12lld %12lld %8llu %12llu %9llu %12llu\n",
			driver_names[k->driver % NR_DRIVERS], k->pid, p->comm, (long long)p->live,
			(long long)p->live_bytes, (long long)p->peak_bytes,
			(unsigned long long)DELTA(p, was, created),
			(unsigned long long)DELTA(p, was, created_bytes),
			(unsigned long long)DELTA(p, was, destroyed),
			(unsigned long long)DELTA(p, was, destroyed_bytes));
	}
	if (!header)
		fprintf(f, "no objects created or alive\n");
}

static void print_activity(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		const struct proc_key *k = snapshot_key(s, i);
		const struct proc_stats *p = snapshot_value(s, i);
		const struct proc_stats *was = map_snapshot_find(&prev_procs, k);
		unsigned long long faults[NR_FAULT_KINDS], any = 0;
		int j;

		for (j = 0; j < NR_FAULT_KINDS; j++)
			any |= faults[j] = DELTA(p, was, faults[j]);
		if (!DELTA(p, was, binds) && !DELTA(p, was, unbinds) && !any &&
		    !DELTA(p, was, preads) && !DELTA(p, was, pwrites))
			continue;
		if (!header) {
			fprintf(f, "\n%-6s %-7s %-16s %7s %7s %7s %7s %7s %7s %7s %7s %7s %12s %12s\n",
				"DRIVER", "PID", "COMM", "BINDS", "UNBINDS", "REBINDS", "GTT_RD",
				"GTT_WR", "CPU_RD", "CPU_WR", "CPU_ANY", "GPU_PF", "PREAD_B",
				"PWRITE_B");
			header = true;
		}
		fprintf(f, "%-6s %-7u %-16s %7llu %7llu %7llu %7llu %7llu %7llu %7llu %7llu %7llu "
			"%12llu %12llu\n", driver_names[k->driver % NR_DRIVERS], k->pid, p->comm,
			(unsigned long long)DELTA(p, was, binds),
			(unsigned long long)DELTA(p, was, unbinds),
			(unsigned long long)DELTA(p, was, rebinds), faults[FAULT_GTT],
			faults[FAULT_GTT | FAULT_WRITE], faults[0], faults[FAULT_WRITE],
			faults[FAULT_CPU_ANY], faults[FAULT_GPU],
			(unsigned long long)DELTA(p, was, pread_bytes),
			(unsigned long long)DELTA(p, was, pwrite_bytes));
	}
}

static int cmp_vm(const void *a, const void *b)
{
	const struct vm_stats *va = (const void *)((const char *)a + sizeof(__u64));
	const struct vm_stats *vb = (const void *)((const char *)b + sizeof(__u64));

	if (va->binds != vb->binds)
		return va->binds > vb->binds ? -1 : 1;
	return *(const __u64 *)a < *(const __u64 *)b ? -1 : *(const __u64 *)a > *(const __u64 *)b;
}

static void print_vms(FILE *f, const struct map_snapshot *s)
{
	bool header = false;
	size_t i;

	for (i = 0; i < s->n; i++) {
		__u64 vm = *(__u64 *)snapshot_key(s, i);
		const struct vm_stats *v = snapshot_value(s, i);
		const struct vm_stats *was = map_snapshot_find(&prev_vms, &vm);

		if (!DELTA(v, was, binds) && !DELTA(v, was, unbinds) && !DELTA(v, was, evictions))
			continue;
		if (!header) {
			fprintf(f, "\n%-6s %-18s %-7s %-16s %7s %7s %7s %12s %7s\n", "DRIVER",
				"ADDRESS_SPACE", "PID", "COMM", "BINDS", "UNBINDS", "REBINDS",
				"BOUND_B", "EVICTS");
			header = true;
		}
		fprintf(f, "%-6s 0x%-16llx %-7u %-16s %7llu %7llu %7llu %12llu %7llu%s\n",
			driver_names[v->driver % NR_DRIVERS], (unsigned long long)vm, v->pid,
			v->comm, (unsigned long long)DELTA(v, was, binds),
			(unsigned long long)DELTA(v, was, unbinds),
			(unsigned long long)DELTA(v, was, rebinds),
			(unsigned long long)DELTA(v, was, bind_bytes),
			(unsigned long long)DELTA(v, was, evictions), v->freed ? " (freed)" : "");
	}
}

static void print_driver(FILE *f, int d)
{
	const struct driver_stats *now = &skel->bss->drivers[d], *was = &prev_drivers[d];
	unsigned long long ev[NR_EVENT_TYPES], pages;
	__u32 sizes[MAX_SLOTS], lives[MAX_SLOTS];
	int i;

	for (i = 0; i < NR_EVENT_TYPES; i++)
		ev[i] = now->events[i] - was->events[i];
	pages = now->shrink_pages - was->shrink_pages;
	if (d == DRV_XE && ev[EV_EVICT]) {
		fprintf(f, "\n%s: evictions: %llu bindings evicted (%llu bytes)\n", driver_names[d],
			ev[EV_EVICT], (unsigned long long)(now->evict_bytes - was->evict_bytes));
	} else if (ev[EV_EVICT] || ev[EV_EVICT_NODE] || ev[EV_EVICT_VM] || ev[EV_SHRINK]) {
		fprintf(f, "\n%s: evictions: %llu for room (%llu bytes asked), %llu of ranges "
			"(%llu bytes), %llu of whole address spaces; shrinker: %llu requests, "
			"target %llu pages (%llu bytes)\n", driver_names[d], ev[EV_EVICT],
			now->evict_bytes - was->evict_bytes, ev[EV_EVICT_NODE],
			now->evict_node_bytes - was->evict_node_bytes, ev[EV_EVICT_VM],
			ev[EV_SHRINK], pages, pages * page_size);
	}
	if (ev[EV_MOVE])
		fprintf(f, "\n%s: %llu buffer moves between placements, %llu bytes\n",
			driver_names[d], ev[EV_MOVE],
			(unsigned long long)(now->move_bytes - was->move_bytes));
	if (now->untracked_destroys - was->untracked_destroys)
		fprintf(f, "\n%s: %llu objects destroyed whose creation was not traced (created "
			"before tracing began, imported, or userptr)\n",
			driver_names[d], (unsigned long long)(now->untracked_destroys -
							      was->untracked_destroys));
	for (i = 0; i < MAX_SLOTS; i++) {
		sizes[i] = now->size_slots[i] - was->size_slots[i];
		lives[i] = now->life_slots[i] - was->life_slots[i];
	}
	if (ev[EV_CREATE]) {
		fprintf(f, "\n%s: sizes of the objects created:\n", driver_names[d]);
		print_log2_hist(f, sizes, MAX_SLOTS, "bytes");
	}
	if (ev[EV_DESTROY]) {
		fprintf(f, "\n%s: lifetimes of the objects destroyed (create -> destroy):\n",
			driver_names[d]);
		print_log2_hist(f, lives, MAX_SLOTS, time_unit());
	}
}

/* Is `pid` still the process that was called `comm`? */
static bool process_alive(__u32 pid, const char *comm)
{
	char path[64], now[COMM_LEN + 1] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(now, sizeof(now), f))
		now[strcspn(now, "\n")] = '\0';
	fclose(f);
	return !strncmp(now, comm, COMM_LEN - 1);
}

struct leak {
	__u64 obj;
	struct gem_obj o;
};

static int cmp_leak(const void *a, const void *b)
{
	const struct leak *x = a, *y = b;

	if (x->o.driver != y->o.driver)
		return x->o.driver < y->o.driver ? -1 : 1;
	if (x->o.pid != y->o.pid)
		return x->o.pid < y->o.pid ? -1 : 1;
	if (x->o.created_ns != y->o.created_ns)
		return x->o.created_ns < y->o.created_ns ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

static const char *comm_of(const struct map_snapshot *procs, __u32 pid, __u32 driver)
{
	struct proc_key k = { .pid = pid, .driver = driver };
	size_t i;

	for (i = 0; i < procs->n; i++)
		if (!memcmp(snapshot_key(procs, i), &k, sizeof(k)))
			return ((const struct proc_stats *)snapshot_value(procs, i))->comm;
	return "?";
}

/* -l: the objects created while tracing and still alive, per creating process. */
static void print_leaks(FILE *f, const struct map_snapshot *procs)
{
	struct map_snapshot objs = {};
	unsigned long long now = monotonic_ns(), bytes;
	struct leak *leaks;
	size_t i, j, n = 0, first;
	int err;

	err = map_snapshot(skel->maps.objects, &objs, 0);
	if (err) {
		fprintf(stderr, "i915mem: failed to read the objects: %s\n", strerror(-err));
		return;
	}
	leaks = calloc(objs.n + 1, sizeof(*leaks));
	for (i = 0; leaks && i < objs.n; i++) {
		const struct gem_obj *o = snapshot_value(&objs, i);

		if (o->preexisting)
			continue;
		leaks[n].obj = *(__u64 *)snapshot_key(&objs, i);
		leaks[n++].o = *o;
	}
	qsort(leaks, n, sizeof(*leaks), cmp_leak);
	fprintf(f, "\nObjects alive (created while tracing, not destroyed): %zu\n", n);
	for (first = 0; first < n; first = j) {
		const struct gem_obj *o = &leaks[first].o;
		const char *comm = comm_of(procs, o->pid, o->driver);

		bytes = 0;
		for (j = first; j < n && leaks[j].o.pid == o->pid && leaks[j].o.driver == o->driver; j++)
			bytes += leaks[j].o.size;
		fprintf(f, "%s PID %u (%s)%s: %zu objects, %llu bytes\n", driver_names[o->driver %
			NR_DRIVERS], o->pid, comm, process_alive(o->pid, comm) ? "" : " exited",
			j - first, bytes);
		for (i = first; i < j && i < first + MAX_LEAKS_LISTED; i++)
			fprintf(f, "    0x%-16llx %12llu bytes  age %.3f s\n",
				(unsigned long long)leaks[i].obj, (unsigned long long)leaks[i].o.size,
				(now - leaks[i].o.created_ns) / 1e9);
		if (j - first > MAX_LEAKS_LISTED)
			fprintf(f, "    (%zu more)\n", j - first - MAX_LEAKS_LISTED);
	}
	free(leaks);
	map_snapshot_free(&objs);
}

static int print_summary(void *ctx)
{
	struct map_snapshot procs = {}, vms = {};
	FILE *f = summary_stream();
	int err, d;

	(void)ctx;
	err = map_snapshot(skel->maps.procs, &procs, 0);
	if (!err)
		err = map_snapshot(skel->maps.vms, &vms, 0);
	if (err) {
		fprintf(stderr, "i915mem: failed to read maps: %s\n", strerror(-err));
		map_snapshot_free(&procs);
		return err;
	}
	map_snapshot_sort(&procs, cmp_live_bytes);
	map_snapshot_sort(&vms, cmp_vm);

	summary_begin(f, common_env.timestamp);
	print_memory(f, &procs);
	print_activity(f, &procs);
	print_vms(f, &vms);
	for (d = 0; d < NR_DRIVERS; d++)
		print_driver(f, d);
	if (env.leaks)
		print_leaks(f, &procs);
	fflush(f);

	map_snapshot_free(&prev_procs);
	map_snapshot_free(&prev_vms);
	prev_procs = procs;
	prev_vms = vms;
	memcpy(prev_drivers, skel->bss->drivers, sizeof(prev_drivers));
	return 0;
}

/* ---- -e ----------------------------------------------------------------- */

static const char *const event_names[NR_EVENT_TYPES] = {
	[EV_CREATE] = "CREATE", [EV_DESTROY] = "DESTROY", [EV_BIND] = "BIND",
	[EV_UNBIND] = "UNBIND", [EV_FAULT] = "FAULT", [EV_PREAD] = "PREAD",
	[EV_PWRITE] = "PWRITE", [EV_SHRINK] = "SHRINK", [EV_EVICT] = "EVICT",
	[EV_EVICT_NODE] = "EVICT_NODE", [EV_EVICT_VM] = "EVICT_VM", [EV_VM_CREATE] = "VM_CREATE",
	[EV_VM_FREE] = "VM_FREE", [EV_MOVE] = "MOVE",
};

static void print_event_header(void)
{
	if (common_env.timestamp)
		printf("%-8s ", "TIME");
	printf("%-11s %-6s %-10s %-7s %-16s %-18s %12s %s\n", "TIME(s)", "DRIVER", "EVENT", "PID",
	       "COMM", "OBJECT", "BYTES", "DETAIL");
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct i915mem_event *e = data;
	char obj[24] = "-", detail[96] = "";

	(void)ctx;
	if (size < sizeof(*e) || e->type >= NR_EVENT_TYPES)
		return 0;
	if (e->obj)
		snprintf(obj, sizeof(obj), "0x%llx", (unsigned long long)e->obj);
	switch (e->type) {
	case EV_CREATE:
		break;
	case EV_DESTROY:
		snprintf(detail, sizeof(detail), "creator=%u life=%llu%s", e->creator,
			 (unsigned long long)e->arg, time_unit());
		break;
	case EV_BIND:
		snprintf(detail, sizeof(detail), "vm=0x%llx offset=0x%llx flags=0x%llx%s",
			 (unsigned long long)e->vm, (unsigned long long)e->offset,
			 (unsigned long long)e->arg, e->rebind ? " rebind" : "");
		break;
	case EV_UNBIND:
		snprintf(detail, sizeof(detail), "vm=0x%llx offset=0x%llx", (unsigned long long)e->vm,
			 (unsigned long long)e->offset);
		break;
	case EV_FAULT:
		if (e->fault_kind == FAULT_GPU)
			snprintf(detail, sizeof(detail), "gpu address=0x%llx",
				 (unsigned long long)e->offset);
		else if (e->fault_kind == FAULT_CPU_ANY)
			snprintf(detail, sizeof(detail), "cpu");
		else
			snprintf(detail, sizeof(detail), "%s %s index=%llu",
				 e->fault_kind & FAULT_GTT ? "gtt" : "cpu",
				 e->fault_kind & FAULT_WRITE ? "write" : "read",
				 (unsigned long long)e->offset);
		break;
	case EV_MOVE:
		snprintf(detail, sizeof(detail), "placement=0x%llx from=0x%llx",
			 (unsigned long long)(e->arg >> 32), (unsigned long long)(e->arg & 0xffffffff));
		break;
	case EV_PREAD:
	case EV_PWRITE:
		snprintf(detail, sizeof(detail), "offset=%llu", (unsigned long long)e->offset);
		break;
	case EV_SHRINK:
		snprintf(detail, sizeof(detail), "target=%llu pages (%llu bytes)",
			 (unsigned long long)e->arg, (unsigned long long)e->arg * page_size);
		break;
	default:
		snprintf(detail, sizeof(detail), "vm=0x%llx", (unsigned long long)e->vm);
	}
	if (common_env.timestamp)
		print_wallclock(stdout);
	printf("%-11.6f %-6s %-10s %-7u %-16s %-18s %12llu %s\n", (e->ts_ns - start_ns) / 1e9,
	       driver_names[e->driver % NR_DRIVERS], event_names[e->type], e->pid, e->comm, obj,
	       (unsigned long long)e->size, detail[0] ? detail : "-");
	return 0;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	const struct i915mem_bpf__bss *bss = skel->bss;

	if (bss->dropped_objects)
		fprintf(stderr, "i915mem: %llu objects not tracked (more than %d alive at once)\n",
			(unsigned long long)bss->dropped_objects, MAX_OBJECTS);
	if (bss->dropped_procs)
		fprintf(stderr, "i915mem: events of processes beyond the first %d not counted per "
			"process (%llu)\n", MAX_PROCS, (unsigned long long)bss->dropped_procs);
	if (bss->dropped_vms)
		fprintf(stderr, "i915mem: events of address spaces beyond the first %d not counted "
			"per address space (%llu)\n", MAX_VMS, (unsigned long long)bss->dropped_vms);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "[interval [count]]",
		.doc = doc,
		.children = common_argp_child,
	};
	struct trace_loop loop = {};
	unsigned int traced;
	int err;

	if (!tracer_init(&argp, argc, argv))
		return 1;
	page_size = sysconf(_SC_PAGESIZE);

	skel = i915mem_bpf__open();
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	traced = choose_hooks();
	if (!traced) {
		err = 1;
		goto cleanup;
	}
	skel->rodata->targ_pid = common_env.pid;
	memcpy((char *)skel->rodata->targ_comm, env.comm, sizeof(env.comm));
	skel->rodata->targ_driver = env.driver;
	skel->rodata->targ_ms = common_env.msecs;
	skel->rodata->emit_events = env.events;
	/* Objects come and go by the thousand when a game loads a level. */
	bpf_map__set_max_entries(skel->maps.events, env.events ? 4 << 20 : 4096);

	err = i915mem_bpf__load(skel);
	if (err) {
		report_bpf_error("load BPF programs", err);
		goto cleanup;
	}
	err = i915mem_bpf__attach(skel);
	if (err) {
		report_bpf_error("attach to the i915/xe tracepoints", err);
		goto cleanup;
	}
	start_ns = monotonic_ns();

	loop.lost_events = &skel->bss->lost_events;
	loop.interval = common_env.interval;
	loop.count = common_env.count;
	if (env.events) {
		loop.events = skel->maps.events;
		loop.on_event = handle_event;
		print_event_header();
	} else {
		printf("Tracing Intel GPU memory (%s%s%s)... Hit Ctrl-C to end.\n",
		       traced & (1u << DRV_I915) ? "i915" : "",
		       traced == ((1u << DRV_I915) | (1u << DRV_XE)) ? ", " : "",
		       traced & (1u << DRV_XE) ? "xe" : "");
		loop.on_interval = print_summary;
	}
	err = trace_loop_finish(&loop, trace_loop_run(&loop), env.events ? NULL : print_summary);
	report_dropped();
cleanup:
	trace_loop_free(&loop);
	map_snapshot_free(&prev_procs);
	map_snapshot_free(&prev_vms);
	i915mem_bpf__destroy(skel);
	return err != 0;
}
