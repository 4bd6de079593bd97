/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uprobes on the files found (libs.h): the entry and the return program
 * on every function found, each probe with its function's BPF cookie (id,
 * class, flags, stream argument: bpf/cudatrace.h).  Where the kernel can,
 * two uprobe_multi links per file; else two perf-event links per function.
 */
#ifndef CUDATRACE_PROBES_H
#define CUDATRACE_PROBES_H

#include <bpf/libbpf.h>

#include "cudatrace/libs.h"

struct probes {
	struct bpf_program *enter, *exit;
	pid_t pid;			/* only this process's calls; 0: every process's */
	bool multi;			/* uprobe_multi links */
	int link_fds[2 * MAX_TARGETS];
	int nr_link_fds;
	struct bpf_link **links;	/* else one perf-event link per probe */
	int nr_links;
};

/* Before the programs are loaded: their attach type, multi links where supported. */
void probes_init(struct probes *p, struct bpf_program *enter, struct bpf_program *exit, pid_t pid);

/* Attach to every function found in `libs`: 0, or a negative errno after saying why. */
int probes_attach(struct probes *p, const struct cuda_libs *libs);

void probes_detach(struct probes *p);

#endif /* CUDATRACE_PROBES_H */
