/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calls a process was inside when it ended: entered, never returned
 * (a crash in the library, an exit from another thread). Their entries
 * are left in the kernel side's inflight map; at the process's exit they
 * are reported, with how it ended, and removed.
 */
#ifndef APITRACE_UNFINISHED_H
#define APITRACE_UNFINISHED_H

#include <bpf/libbpf.h>
#include <linux/types.h>

/*
 * Process pid (comm) ended at `now` with wait(2)'s `exit_code`: print the
 * calls it left unfinished in `inflight` (nothing if none) and remove them.
 */
void report_unfinished(struct bpf_map *inflight, __u32 pid, const char *comm, __u32 exit_code,
		       __u64 now);

#endif /* APITRACE_UNFINISHED_H */
