/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Destroying many kprobe links at once, their waits overlapped.
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

#include <bpf/libbpf.h>

/* Destroy links[0..n) (NULLs skipped), several at a time. */
void links_destroy_all(struct bpf_link **links, int n);

#endif /* LINKS_H */
