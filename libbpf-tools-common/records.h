/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record path, frontend side: what a tracepoint tool does when it reads
 * the trace records (tp_record.bpf.h, tp_format.h) instead of a driver's
 * structs through the module's BTF.  Every tracepoint tool has the same
 * option, says the same lines, attaches the same way:
 *
 *   struct tool_desc's .records = true                  --no-btf (tool.h)
 *
 *   records = records_wanted("amdgpu gpu_sched");     --no-btf, or a module without BTF
 *   ... set_autoload per path ...
 *   records_get_fields(skel->rodata, fields, n, 0)      every field read, from one table
 *   tool_load() ...
 *   records_attach(tps, n)                              SEC("tracepoint") programs, by event name
 *   records_announce()                                  one line: which path, and what is '-'
 *   ...
 *   records_detach()
 */
#ifndef GPU_BPF_RECORDS_H
#define GPU_BPF_RECORDS_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

#include "tp_format.h"

/* --no-btf, given on the command line. */
extern bool records_forced;

/*
 * The common options with --no-btf, for tools that read tracepoints (a
 * struct tool_desc's .records, tool.h).
 */
extern const struct argp_child records_argp_children[];

/*
 * Whether to read the records: --no-btf, or one of `modules` (names
 * separated by spaces, as in /sys/module) is loaded without BTF of its own.
 * Remembers why, for records_announce().
 */
bool records_wanted(const char *modules);

/* The path chosen (after records_wanted()). */
bool records_in_use(void);

/*
 * A value the records do not carry, printed as '-' (or JSON null): named
 * once, in records_announce()'s second line ("CLIENT", "PASID").
 */
void records_missing(const char *what);

/*
 * One field the BPF side reads from a record: a TP_FIELD() of its rodata.
 * A tool lists every one in a table (events chosen at run time, where
 * kernels renamed them, are entries with a NULL event: skipped):
 *
 *   #define FIELD(ev, names, want, f, missing) \
 *           RECORD_FIELD(drmsched, "gpu_scheduler", ev, names, want, f, missing)
 *   const struct record_field fields[] = {
 *           FIELD(queue, "name", TP_WANT_STR, f_queue_name, NULL),
 *           FIELD(queue, "dev", TP_WANT_STR, f_queue_dev, "DEV"),
 *           ...
 *   };
 */
struct record_field {
	const char *sys, *event;
	const char *names;	/* alternatives, newest first: "fence_context|id" (tp_field_get()) */
	enum tp_want want;
	size_t rodata;		/* where its struct tp_field is in the skeleton's rodata */
	const char *missing;	/* NULL: needed; else optional, named by records_missing() when absent ("": not named) */
};

#define RECORD_FIELD(tool, sys_, event_, names_, want_, field, missing_)		\
	((struct record_field){ .sys = (sys_), .event = (event_), .names = (names_),	\
				.want = (want_),					\
				.rodata = offsetof(struct tool##_bpf__rodata, field),	\
				.missing = (missing_) })

/* records_get_fields()'s flags. */
#define RECORDS_SKIP_ABSENT_EVENTS 0x1	/* an event this kernel lacks: its program is not loaded */

/*
 * Fill each field's descriptor in `rodata` (the skeleton's) from tracefs,
 * reading each event's format once. Returns the longest fixed part of the
 * records read (tp_format_fixed_size(): what a tp_record_copy() needs), or
 * -1 after one line on stderr naming the event, the field and the file.
 */
int records_get_fields(void *rodata, const struct record_field *fields, size_t n,
		       unsigned int flags);

/* A classic tracepoint program (or a SEC("raw_tp") one) and the event it reads. */
struct record_tp {
	struct bpf_program *prog;
	const char *sys, *event;	/* event NULL: not on this kernel, skipped */
};

/*
 * Attach each program to its event (bpf_program__attach_tracepoint()): a
 * SEC("tracepoint") program has no event in its section, so one program
 * serves an event's old and new names.  A SEC("raw_tp") program attaches
 * as a raw tracepoint (bpf_program__attach_raw_tracepoint()): it runs where
 * a classic one is skipped, in an interrupt that came while another BPF
 * program ran on that CPU (the kernel's bpf_prog_active).  0, or a negative errno said in one
 * line naming the event.  The links live until records_detach().
 */
int records_attach(const struct record_tp *tps, size_t n);
void records_detach(void);

/*
 * A classic tracepoint's program is skipped, silently before Linux 6.7,
 * when its event fires while another BPF program runs on that CPU (an
 * interrupt over a BPF program: the kernel's bpf_prog_active), or when
 * perf's per-context recursion guard refuses the record. To count those:
 * the BPF object has TP_RECORD_COUNTERS() (tp_record.bpf.h) and each
 * SEC("tracepoint") program starts with TP_RECORD_RAN(); after
 * records_attach(), records_count_skipped(obj) attaches the object's
 * records_fired program (a raw tracepoint: per program recursion only) to
 * every classic event attached, after the classic programs, so that it
 * counts each firing after its program ran. tool_trace() then reports
 * fired - ran, a lower bound of what was skipped. 0 or a negative errno
 * (said); nothing to do for an object without the counters.
 */
int records_count_skipped(struct bpf_object *obj);

/* What was skipped so far (0 without the counters), and said once at the end (tool_trace()). */
unsigned long long records_skipped(void);
void records_report_skipped(void);

/*
 * Said on stderr once attached: "TOOL: reading the tracepoint records
 * (--no-btf | module M has no BTF)", and "TOOL: not in the records, printed
 * as '-': ..." when records_missing() named any.  On the BTF path, with -v
 * only: "TOOL: reading the structs of MODULES (module BTF)".
 */
void records_announce(void);

#endif /* GPU_BPF_RECORDS_H */
