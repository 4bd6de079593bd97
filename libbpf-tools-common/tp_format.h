/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracepoint's record layout, from tracefs events/SYS/EVENT/format: for
 * tools that attach classic tracepoint programs (SEC("tracepoint")) when a
 * driver module has no BTF of its own (DKMS builds, kernels without
 * CONFIG_DEBUG_INFO_BTF_MODULES), reading the record the kernel fills at the
 * offsets it publishes instead of the tracepoint's typed arguments.
 *
 *   struct tp_format fmt;
 *
 *   if (tp_format_load("gpu_scheduler", "drm_run_job", &fmt) ||
 *       tp_field_get(&fmt, "name", TP_WANT_STR, &skel->rodata->f_ring) ||
 *       tp_field_get(&fmt, "fence_context|id", TP_WANT_INT, &skel->rodata->f_id))
 *           fprintf(stderr, "%s\n", fmt.error);   (one line, naming the file or field)
 *
 * A tool does not call these itself: it lists its fields in one table for
 * records_get_fields() (records.h), which does the above for each. The BPF
 * side declares the same fields (TP_FIELD(f_ring) in tp_record.bpf.h) and
 * reads them with tp_read_u64()/tp_read_str().
 * Design notes for porting a tool: tests/README.md, "Tracepoints without
 * module BTF".
 */
#ifndef GPU_BPF_TP_FORMAT_H
#define GPU_BPF_TP_FORMAT_H

#include <limits.h>
#include <stdbool.h>

#include "tp_field.h"

#define TP_FORMAT_MAX_FIELDS	64
#define TP_NAME_LEN		64
#define TP_TYPE_LEN		64

struct tp_format_field {
	char name[TP_NAME_LEN];		/* "job_count", "name", "src_data" (no [4]) */
	char type[TP_TYPE_LEN];		/* as the kernel spells it: "u32", "__data_loc char[]", "struct dma_fence *" */
	unsigned int offset;
	unsigned int size;		/* bytes in the record (4 for __data_loc) */
	unsigned int array_len;		/* fixed arrays: elements, 0 when the length is not a number; else 0 */
	unsigned int flags;		/* TP_FIELD_SIGNED, _DATA_LOC, _REL_LOC, _ARRAY, _CHAR, _PTR (never _PRESENT) */
	bool common;			/* common_type, common_pid, ... (before the blank line) */
};

struct tp_format {
	char system[TP_NAME_LEN];
	char event[TP_NAME_LEN];	/* from "name:" */
	int id;				/* "ID:", -1 when absent */
	unsigned int nr_fields;
	struct tp_format_field fields[TP_FORMAT_MAX_FIELDS];
	char path[PATH_MAX];		/* the file read, for messages */
	char error[512];		/* after a failure: one line, no trailing newline */
};

/*
 * Read and parse events/SYSTEM/EVENT/format under tracefs_path() (so
 * probe_set_root() moves it for tests).  0, or -errno with fmt->error set:
 * tracefs not available, no such event, unreadable, unparsable.
 */
int tp_format_load(const char *system, const char *event, struct tp_format *fmt);

/* Parse a format file's text; `path` only names it in errors.  0 or -EINVAL with fmt->error. */
int tp_format_parse(const char *text, const char *path, struct tp_format *fmt);

/* The field called `name` (no alternatives here), NULL if none. */
const struct tp_format_field *tp_field_find(const struct tp_format *fmt, const char *name);

/* What a reader expects a field to be. */
enum tp_want {
	TP_WANT_INT,	/* an integer or pointer read whole: 1, 2, 4 or 8 bytes, no array, no __data_loc */
	TP_WANT_STR,	/* a string: __data_loc/__rel_loc char[], a fixed char array, or a char pointer (5.10) */
	TP_WANT_ANY,	/* anything: the reader checks the flags */
};

/*
 * Fill `out` (a BPF program's rodata) from the field named `names`, which
 * may list alternatives, newest first: "fence_context|id".  0 when found
 * (flags include TP_FIELD_PRESENT).  Else `out` is zeroed (absent: the BPF
 * readers return 0 or "") and -ENOENT (no such field) or -EINVAL (not what
 * `want` says) with fmt->error one line naming the event, the field and the
 * file: the caller reports it, or goes on without the field if it is optional.
 */
int tp_field_get(struct tp_format *fmt, const char *names, enum tp_want want, struct tp_field *out);

/*
 * The record's fixed part: the end of its last field (where the
 * __data_loc strings begin).  The length a BPF side's tp_record_copy()
 * needs for tp_get_u64() of any field.
 */
unsigned int tp_format_fixed_size(const struct tp_format *fmt);

/* The same without a parsed field: a plain fill (for tests and hand-made layouts). */
void tp_field_from(const struct tp_format_field *f, struct tp_field *out);

#endif /* GPU_BPF_TP_FORMAT_H */
