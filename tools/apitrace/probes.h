/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uprobes on the files found (libs.h): the entry and the return program
 * on every function found, each probe with its function's BPF cookie (id,
 * class, flags, stream argument: bpf/apitrace.h).  Where the kernel can,
 * two uprobe_multi links per file; else two perf-event links per function.
 */
#ifndef APITRACE_PROBES_H
#define APITRACE_PROBES_H

#include <bpf/libbpf.h>

#include "apitrace/libs.h"

struct probes {
	struct bpf_program *enter, *exit;
	/*
	 * Kernels without BPF cookies: the programs of function i (api_enter_NN,
	 * api_exit_NN), NULL where no file has it; enter and exit are not loaded.
	 * They tail-call the shared ones through fallback_progs.
	 */
	struct bpf_program *fn_enter[NR_FALLBACK], *fn_exit[NR_FALLBACK];
	struct bpf_program *shared_enter, *shared_exit;
	struct bpf_map *fallback_progs;
	bool cookieless;
	pid_t pid;			/* only this process's calls; 0: every process's */
	bool multi;			/* uprobe_multi links */
	int link_fds[2 * MAX_TARGETS];
	int nr_link_fds;
	struct bpf_link **links;	/* else one perf-event link per probe */
	int nr_links;
};

/*
 * Before the programs are loaded: their attach type, multi links where
 * supported. Where the kernel lacks BPF cookies, the per-function programs
 * of `obj` instead (of the functions found in `libs`), each function's
 * cookie in `fallback_cookies` (the skeleton's rodata).
 */
void probes_init(struct probes *p, struct bpf_object *obj, struct bpf_program *enter,
		 struct bpf_program *exit, pid_t pid, const struct api_libs *libs,
		 __u64 *fallback_cookies);

/* Attach to every function found in `libs`: 0, or a negative errno after saying why. */
int probes_attach(struct probes *p, const struct api_libs *libs);

void probes_detach(struct probes *p);

#endif /* APITRACE_PROBES_H */
