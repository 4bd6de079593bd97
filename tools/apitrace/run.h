/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's command line and main loop: a tool on it (cudatrace.c) is
 * its family's description (api.h), the options that are its own, and its
 * skeleton (of bpf/apitrace.bpf.h), handed over through struct
 * apitrace_bpf.
 */
#ifndef APITRACE_RUN_H
#define APITRACE_RUN_H

#include <argp.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

#include "apitrace/api.h"
#include "apitrace/libs.h"

/* The engine's options, every tool's: -e -E -l -s -L -f --timeline. */
struct apitrace_env {
	bool events;
	bool errors;
	bool leaks;
	bool stacks;
	bool secondary;		/* the tool's -R (cudatrace: the runtime API too) */
	const char *timeline;	/* --timeline FILE */
	const char *libs[MAX_LIBS];
	int nr_libs;
	const char *patterns[MAX_PATTERNS];	/* -f */
	int nr_patterns;
};

extern struct apitrace_env apitrace_env;

/* The engine's options, then the common ones, as a tool's argp children. */
extern const struct argp_child apitrace_argp_children[];

#define APITRACE_ARGP(options_, parser_, doc_)						\
	{ .options = (options_), .parser = (parser_), .args_doc = "[interval [count]]",	\
	  .doc = (doc_), .children = apitrace_argp_children }

/*
 * What the engine uses of a tool's skeleton: bpf/apitrace.bpf.h's
 * programs, maps and globals, by the names every such skeleton has.
 */
struct apitrace_bpf {
	struct bpf_object *obj;
	struct bpf_object_skeleton *skeleton;
	struct bpf_program *enter, *exit, *proc_exit;
	struct bpf_map *func_stats, *errors, *launches, *allocs, *alloc_stacks, *procs, *knames,
		*builds, *prof_events, *kernel_times, *group_sizes, *inflight, *events, *notices,
		*cgroup_map;
	bool *errors_only, *capture_stacks;
	__u64 *fallback_cookies;
	__u64 *lost_events, *spare_rescues, *lost_notices, *dropped_allocs, *dropped_rows;
	__u64 *dropped_calls;
};

#define APITRACE_BPF(skel)									\
	((struct apitrace_bpf){									\
		.obj = (skel)->obj, .skeleton = (skel)->skeleton,				\
		.enter = (skel)->progs.api_enter, .exit = (skel)->progs.api_exit,		\
		.proc_exit = (skel)->progs.api_proc_exit,					\
		.func_stats = (skel)->maps.func_stats, .errors = (skel)->maps.errors,		\
		.launches = (skel)->maps.launches, .allocs = (skel)->maps.allocs,		\
		.alloc_stacks = (skel)->maps.alloc_stacks, .procs = (skel)->maps.procs,	\
		.knames = (skel)->maps.knames, .builds = (skel)->maps.builds,			\
		.prof_events = (skel)->maps.prof_events, .inflight = (skel)->maps.inflight,	\
		.group_sizes = (skel)->maps.group_sizes,					\
		.kernel_times = (skel)->maps.kernel_times, .events = (skel)->maps.events,	\
		.notices = (skel)->maps.notices, .cgroup_map = (skel)->maps.cgroup_map,	\
		.errors_only = &(skel)->rodata->errors_only,					\
		.capture_stacks = &(skel)->rodata->capture_stacks,				\
		.fallback_cookies = (skel)->rodata->fallback_cookies,				\
		.lost_events = &(skel)->bss->lost_events,					\
		.spare_rescues = &(skel)->bss->spare_rescues,					\
		.lost_notices = &(skel)->bss->lost_notices,					\
		.dropped_allocs = &(skel)->bss->dropped_allocs,				\
		.dropped_rows = &(skel)->bss->dropped_rows,				\
		.dropped_calls = &(skel)->bss->dropped_calls })

/*
 * Parse the command line (tool_init()), check -p's process, find the
 * family's libraries and their functions. false: said why; exit 1.
 */
bool apitrace_init(const struct argp *argp, int argc, char **argv, const struct api_desc *desc);

/* A record per call (-e, -E, --timeline): tool_set_rodata()'s per_event. */
bool apitrace_call_records(void);

/*
 * With the skeleton opened (and tool_set_rodata() done): set the rest, load,
 * attach, trace until the end, report. 0 or an error, said. What it
 * attached is detached before it returns; the skeleton is the caller's.
 */
int apitrace_run(const struct apitrace_bpf *b);

/* After the skeleton is destroyed: the libraries' symbols, the snapshots, the processes. */
void apitrace_free(void);

#endif /* APITRACE_RUN_H */
