/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kprobe links: attached on the first function of several the kernel has,
 * and destroyed many at once, their waits overlapped.
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

/*
 * Attach prog as a kprobe (retprobe: a kretprobe, with `cookie`) on the
 * first of fns[0..n) that the kernel has, tried in order: the kernel looks
 * each name up itself, where choosing from /proc/kallsyms in user space
 * takes most of a second under qemu's TCG (150000 lines with a driver
 * loaded). The link, and in *which the index of its function; NULL with
 * errno ENOENT when the kernel has none of them, else with the error that
 * refused the first one it has.
 */
struct bpf_link *attach_kprobe_first(struct bpf_program *prog, const char *const *fns, int n,
				     bool retprobe, __u64 cookie, int *which);

/*
 * fn(i, arg) for each i in [0, n), from several threads at once: for
 * kprobe attaches and detaches, whose waits in the kernel overlap.
 */
void links_parallel(int n, void (*fn)(int i, void *arg), void *arg);

/* Destroy links[0..n) (NULLs skipped), several at a time. */
void links_destroy_all(struct bpf_link **links, int n);

#endif /* LINKS_H */
