/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kprobes of a tool's roles: each on the first function of several the
 * kernel has, which the kernel looks up itself (choosing from
 * /proc/kallsyms in user space takes most of a second under qemu's TCG:
 * 150000 lines with a driver loaded), made while the programs load, and
 * destroyed many at once, their waits overlapped.
 *
 * A kprobe's perf-event link waits out an RCU grace period when it is
 * destroyed (unregister_kprobe, after it dropped the kprobes' lock): one
 * link after another, nvdrv's 36 took 3.5 s to detach on 6.1 under qemu's
 * TCG, every Ctrl-C. Destroyed from several threads, the grace periods
 * overlap: 1.8 s. (Uprobes gain nothing, their unregistering is serialised
 * in the kernel; classic tracepoints' links are destroyed in milliseconds.)
 */
#ifndef LINKS_H
#define LINKS_H

#include <stdbool.h>
#include <bpf/libbpf.h>

struct parallel_run;

/*
 * A tool's role: a kprobe running `entry` on the first of fns[0..nr_fns)
 * the kernel has and, with `ret`, a kretprobe running it on the same
 * function, both with `cookie` (entry NULL: the role is not wanted).
 * The kernel's work for a kprobe (the name looked up, the code patched: 20
 * to 40 ms under TCG, one kprobe at a time) needs no program, so
 * kprobe_roles_open() makes them before the programs are loaded, in the
 * background while the verifier checks them: nvdrv's start-up on sid under
 * TCG went from 2.4 s to 1.7 s (6.1's: 1.9 to 1.7 s, where loading and
 * patching contend more).
 *
 * A kretprobe holds one instance per thread inside its function, from a
 * pool the kernel sizes max(10, 2 x CPUs) unless told otherwise: threads
 * blocked in a call (amdkfd's WAIT_EVENTS) use them up, and the returns of
 * further ones are missed. So a kretprobe is made through tracefs
 * (kprobe_events' "rN:", which the kprobe PMU lacks) with
 * KRETPROBE_INSTANCES, and tracefs counts what it missed (kprobe_profile);
 * where tracefs refuses, by the kprobe PMU, its misses unknown.
 */
struct kprobe_role {
	const char *fns[3];
	int nr_fns;
	struct bpf_program *entry, *ret;
	__u64 cookie;
	/* Set by kprobe_roles_open() and kprobe_roles_attach(): */
	const char *found;		/* the function taken, or refusing */
	int err;			/* 0, -ENOENT: none of fns, else -errno */
	int pfd[2];			/* the kprobe and kretprobe until attached, or -1 */
	struct bpf_link *link[2];
	char ret_event[32];		/* the kretprobe's tracefs event, or "" */
};

/* At least this many threads at once in a kretprobe's function (GPU_BPF_KRETPROBE_INSTANCES in tests). */
#define KRETPROBE_INSTANCES 1024

struct kprobe_roles {
	struct kprobe_role *role;
	int n;
	bool opened;
	struct parallel_run *opening;
};

/* Before loading: every wanted role's kprobes, made from several threads in the background. */
void kprobe_roles_open(struct kprobe_roles *r);
/* After loading: each role's programs on its kprobes. The roles attached. */
int kprobe_roles_attach(struct kprobe_roles *r);
/*
 * The returns the roles' kretprobes missed, as report_lost("returns", ...)
 * says what is lost (nothing when none was).
 */
void kprobe_roles_report_missed(const struct kprobe_roles *r);
/* Detach and free all (also when loading failed between the two). */
void kprobe_roles_destroy(struct kprobe_roles *r);

#endif /* LINKS_H */
