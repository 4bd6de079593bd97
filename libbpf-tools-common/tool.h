/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skeleton every tool's main() follows, step by step, so that main()
 * holds only what is the tool's own (its checks, its rodata, its choice of
 * programs) and every tool fails the same way at the same step:
 *
 *	if (!tool_init(&tool, argc, argv))              its struct tool_desc: the command
 *		return 1;                               line, libbpf's messages, privilege,
 *	                                                BTF, tracefs, --timeline's file
 *	... the tool's checks: which events or functions this kernel has,
 *	    records = records_wanted("MODULES")
 *	skel = NAME_bpf__open_opts(tool_open_opts());   failed: report_bpf_error(
 *	                                                "open BPF object", -errno), exit 1
 *	tool_set_rodata(skel);                          then the tool's own rodata
 *	choose_programs(skel);                          set_autoload per path
 *	err = set_record_fields();                      the record path: one table for
 *	                                                records_get_fields() (records.h)
 *	... map sizes
 *	err = tool_start(skel->skeleton, ...);          or tool_load() and the tool's
 *	                                                own attach; records_attach()
 *	records_announce();                             (a record-path tool)
 *	loop = TOOL_TRACE_LOOP(skel, handle_event);
 *	loop.write_metrics = write_metrics;             (a tool with --prometheus)
 *	err = tool_trace(&loop, ...);                   the banner, the loop, the last
 *	                                                summary, what was lost
 *	report_dropped();                               what did not fit the tool's tables
 *	err = tool_close(&loop, err);
 * cleanup:
 *	records_detach();
 *	NAME_bpf__destroy(skel);
 *	return err != 0;
 *
 * Each step reports its own failure as one line on stderr; main() only
 * goes to cleanup (every step above returns 0 or a negative errno) and
 * exits 1. tools/template.c is this sequence and nothing else.
 */
#ifndef GPU_BPF_TOOL_H
#define GPU_BPF_TOOL_H

#include <argp.h>
#include <stdbool.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "maps.h"
#include "opts.h"
#include "probe.h"
#include "records.h"
#include "table.h"
#include "trace_loop.h"

/* What a tool needs besides privilege and kernel BTF. */
#define TOOL_TRACEFS	0x1	/* tracepoints: tracefs mounted (or mountable) */

/*
 * What a tool is to the library, handed to tool_init(): its command line
 * (argp's doc, its own options and their parser, and the help of the
 * options the library keeps for it: -e into common_env.events, --timeline
 * into common_env.timeline, opened by tool_init(); --no-btf), what it needs
 * of the kernel, and the size of its `events` ring buffer, which tool_load()
 * sets. The common options (opts.h) and `interval [count]` every tool has.
 */
struct tool_desc {
	const char *doc;			/* USAGE and EXAMPLES: argp's doc */
	const struct argp_option *options;	/* its own, or NULL */
	argp_parser_t parser;
	const struct argp *engine;	/* the options of an engine it runs on (apitrace) */
	const char *events;		/* -e's help ("Print one line per job event"); NULL: no -e */
	const char *timeline;		/* --timeline FILE's help; NULL: no --timeline */
	bool records;			/* --no-btf: it reads tracepoints (records.h) */
	unsigned int needs;		/* TOOL_TRACEFS */
	__u32 ring_bytes;		/* `events` with -e or --timeline (0: as declared) */
	__u32 quiet_ring_bytes;		/* ... without them (0: as declared) */
};

/*
 * Parse the command line (argp exits on a bad one, status 64), set up
 * libbpf's messages (-v), signals and output, open --timeline's file, and
 * check what the kernel must offer. false: said why on stderr; exit 1.
 */
bool tool_init(const struct tool_desc *tool, int argc, char **argv);

/* Records per event for the ring buffer: -e or --timeline. */
static inline bool tool_per_event(void)
{
	return common_env.events || common_env.timeline;
}

/*
 * The end of a start-up phase, NAME what it did. tool_init() ends "init",
 * tool_load() "checks" (the tool's own, the skeleton opened) and "load",
 * tool_attach() "attach", the banner the rest: -v prints them there.
 */
void tool_phase(const char *name);

/*
 * `obj` keeps calls in flight in task storage (inflight.bpf.h) and the
 * kernel has it: probed only for such an object (three probe programs).
 */
bool tool_uses_task_storage(struct bpf_object *obj);

/*
 * Set tool.bpf.h's globals from the command line, before load. Every
 * skeleton has them under the same names; records through the ring buffer
 * with -e or --timeline (tool_per_event()).
 */
#define tool_set_rodata(skel)								\
	do {										\
		(skel)->rodata->targ_pid = common_env.pid;				\
		memcpy((char *)(skel)->rodata->targ_comm, common_env.comm,		\
		       sizeof((skel)->rodata->targ_comm));				\
		(skel)->rodata->filter_cg = common_env.cgroup != NULL;			\
		(skel)->rodata->targ_ms = common_env.msecs;				\
		(skel)->rodata->emit_events = tool_per_event();				\
		(skel)->rodata->has_atomic_fetch = kernel_has_atomic_fetch();		\
		(skel)->rodata->has_task_storage = tool_uses_task_storage((skel)->obj);	\
	} while (0)

/* The BPF side's `const volatile bool name`, where it has one, set to v before load. */
void tool_set_rodata_bool(struct bpf_object *obj, const char *name, bool v);

/*
 * A claims map (rows.bpf.h's NAME_claims) arbitrates free rows only
 * before 5.12, where there is no compare-and-swap: one entry elsewhere.
 * Before load; tool_load() does it for every map named NAME_claims whose
 * value is an integer.
 */
void tool_size_claims(struct bpf_map *claims);

/*
 * Each spare (spare.bpf.h, a program named PRIMARY_spare) loads where its
 * primary does, on kernels whose tracepoints call their programs
 * preemptible (after 6.12; 7.2 is, 6.12 and 6.1 are not: there, not one
 * miss in 100 bursts of 10000 jobs, and a spare would only cost its runs).
 * The spare is in the primary's section, after it: attached after it, so
 * the hook runs it second. Returns whether spares load. tool_load() does
 * it, once the tool has chosen its programs, and sets spare.bpf.h's
 * with_spares.
 */
bool tool_choose_spares(struct bpf_object *obj);

/*
 * The options every skeleton is opened with: CO-RE's target BTF, which
 * tool_load() writes (core_btf.h). NULL: libbpf's defaults.
 */
const struct bpf_object_open_opts *tool_open_opts(void);

/*
 * Load the skeleton's programs (skel->skeleton), then put --cgroup's
 * directory in `cgroup_map`. Before the load, what every object needs once
 * its programs are chosen: the spares (tool_choose_spares()), and before
 * 5.12, which rejects a program holding a fetch atomic or a
 * compare-and-swap anywhere, the library's (dead there) rewritten into
 * loads. Returns 0 or a negative errno, said on stderr.
 */
int tool_load(struct bpf_object_skeleton *s, struct bpf_map *cgroup_map);

/* Attach the skeleton's programs; `hooks` names them in an error ("the drm tracepoints"). */
int tool_attach(struct bpf_object_skeleton *s, const char *hooks);

/* tool_load(), then tool_attach(): for a tool whose programs all attach by their SEC(). */
int tool_start(struct bpf_object_skeleton *s, struct bpf_map *cgroup_map, const char *hooks);

/*
 * A trace loop with what every tool sets the same way: the skeleton's
 * object (for its recursion misses), its ring buffer of records for
 * `on_event` (NULL: the tool reads it, or none, itself) and their lost
 * count, and the interval and count of the command line.
 */
#define TOOL_TRACE_LOOP(skel, on_event_)							\
	((struct trace_loop){ .obj = (skel)->obj, .lost_events = &(skel)->bss->lost_events,	\
			      .spare_rescues = &(skel)->bss->spare_rescues,			\
			      .events = (skel)->maps.events,					\
			      .on_event = (on_event_),						\
			      .interval = common_env.interval, .count = common_env.count,	\
			      .metrics_path = common_env.prometheus,				\
			      .metrics_interval = common_env.interval ?: METRICS_DEFAULT_INTERVAL })

/*
 * A summary's snapshots of `maps` (map_snapshot_all()); a failure is said
 * in one line on stderr. Returns 0 or a negative errno.
 */
int tool_snapshot(struct bpf_map *const *maps, struct map_snapshot *now, size_t n);

/*
 * Trace until Ctrl-C, SIGTERM, a closed reader or `count` summaries, and
 * end with the summary of what was gathered since the last one and a report
 * of what was lost (trace_loop_finish()).
 *
 * With -e (common_env.events), per-event lines of `event_table`: its
 * header first, no summaries (but with loop->summary_with_events); else
 * `summary` every interval and at the end. `loop`'s events and on_event are
 * the caller's (a tool may read records without -e too).
 *
 * With --prometheus, loop->write_metrics (the tool's) writes the file
 * before tracing starts (a path that cannot be written ends the tool then),
 * every interval and at the end.
 *
 * The banner "BANNER... Hit Ctrl-C to end." tells a person the tool has
 * attached: on stdout above summaries; on stderr with -j, whose stdout is
 * for programs; and not at all above text event lines, whose header says it.
 */
int tool_trace(struct trace_loop *loop, const struct table *event_table,
	       int (*summary)(void *ctx), const char *banner, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * After tool_trace() and the tool's own reports: close --timeline's file
 * (a failure to write it, said, fails the tool) and free the loop. Returns
 * `err`, or -EIO when only the timeline failed.
 */
int tool_close(struct trace_loop *loop, int err);

/* The banner alone, by tool_trace()'s rule, for a tool that runs its loop itself. */
void tool_banner(bool per_event_lines, const char *banner, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* GPU_BPF_TOOL_H */
