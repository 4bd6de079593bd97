/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every table a tool prints - summary rows, per-event lines, histograms,
 * reports of what was lost - described once and printed either as the
 * aligned text columns people read, or, with -j, as JSON lines (one object
 * per row, "type" naming the table, the columns as fields) that programs
 * read. One description for both, so the two can never disagree.
 */
#ifndef GPU_BPF_TABLE_H
#define GPU_BPF_TABLE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "histogram.h"

/*
 * A value: text prints "-" for CELL_NA, JSON null. CELL_BOOL is a marker
 * in text (the column's JSON key when true, nothing when false), true or
 * false in JSON.
 */
enum cell_kind { CELL_NA, CELL_STR, CELL_U64, CELL_S64, CELL_F64, CELL_BOOL };

struct cell {
	enum cell_kind kind;
	int prec;		/* CELL_F64: digits after the point */
	union {
		const char *s;
		unsigned long long u;
		long long i;
		double f;
	};
};

#define CELL_S(v) ((struct cell){ .kind = CELL_STR, .s = (v) })
#define CELL_U(v) ((struct cell){ .kind = CELL_U64, .u = (v) })
#define CELL_I(v) ((struct cell){ .kind = CELL_S64, .i = (v) })
#define CELL_F(v, p) ((struct cell){ .kind = CELL_F64, .f = (v), .prec = (p) })
#define CELL_B(v) ((struct cell){ .kind = CELL_BOOL, .u = !!(v) })
#define CELL_NONE ((struct cell){ .kind = CELL_NA })
/* A count that only means something on some kernels: "-"/null elsewhere. */
#define CELL_U_IF(c, v) ((c) ? CELL_U(v) : CELL_NONE)
/* A string that may be empty: "-"/null when it is. */
#define CELL_S_OR_NONE(v) ((v)[0] ? CELL_S(v) : CELL_NONE)

/* A lat_hist's average as a cell: none when it is empty. */
static inline struct cell cell_hist_avg(const struct lat_hist *h)
{
	return h->count ? CELL_U(h->sum / h->count) : CELL_NONE;
}

/*
 * A pointer or kernel address as a cell: "0x..." (a JSON number is a
 * double to most readers and would not keep it exactly). `buf` holds it.
 */
static inline struct cell cell_hex(char *buf, size_t size, unsigned long long v)
{
	snprintf(buf, size, "0x%llx", v);
	return CELL_S(buf);
}

/* Column flags. */
#define COL_TIME	0x1	/* a time in the -m unit: "WAIT(us)"/"wait_us", "(ms)"/"_ms" */
#define COL_TEXT_ONLY	0x2	/* not a field of its own in JSON (e.g. shown elsewhere) */
#define COL_JSON_ONLY	0x4	/* a field with no text column */
#define COL_CGROUP	0x8	/* only with -C (common_env.show_cgroup) */
#define COL_SPARSE	0x10	/* JSON: left out when it has no value (CELL_NA) */
#define COL_PID		0x20	/* a host PID: in event lines "PID(NSPID)", JSON "ns_pid" too,
				   where its namespace numbers it otherwise */

/*
 * The CGROUP column of a table whose rows are processes (-C): CONTAINER and
 * POD before it (container.h), JSON "container", "runtime", "pod", "unit".
 */
#define CGROUP_COLUMN { "CGROUP", "cgroup", 0, COL_CGROUP }
/* The PID column of a process (BPF's tgid): its PID in its container's namespace too (pidns.h). */
#define PID_COLUMN { "PID", "pid", -7, COL_PID }

struct column {
	const char *head;	/* text header */
	const char *key;	/* JSON field name */
	int width;		/* text width; negative: left-aligned; 0: as is */
	unsigned int flags;
};

struct table {
	const char *type;	/* JSON "type" */
	const struct column *cols;
	int nr_cols;
	bool events;		/* per-event lines: -T puts the time first */
};

#define TABLE(type_, cols_) { (type_), (cols_), sizeof(cols_) / sizeof((cols_)[0]), false }
#define EVENT_TABLE(type_, cols_) { (type_), (cols_), sizeof(cols_) / sizeof((cols_)[0]), true }

/* -j given: JSON lines instead of text. */
bool json_output(void);

/* The header line (text only; JSON rows name their fields). */
void table_header(FILE *f, const struct table *t);

/*
 * Before the first row of a table printed only when some row changed: a
 * blank line and its header (text), unless *headed; *headed set.
 */
void table_header_once(FILE *f, const struct table *t, bool *headed);

/* A summary row: `cells` in column order. JSON: with the summary's "ts". */
void table_row(FILE *f, const struct table *t, const struct cell *cells);

/*
 * A per-event line for an event at `ktime_ns` (bpf_ktime_get_ns()). Text:
 * with -T, the wall-clock time first. JSON: "ts", the event's wall-clock
 * time in seconds since the epoch.
 */
void table_event(FILE *f, const struct table *t, const struct cell *cells,
		 unsigned long long ktime_ns);

/*
 * A lat_hist of the row described by `cells` (usually the columns that
 * name it: ring, process...). Text: print_lat_hist(), after a title
 * line; JSON: one object of type "hist" with those fields, "hist": `name`,
 * "unit", count/avg/min/max and "buckets": [{"lo","hi","count"}...].
 */
void table_lat_hist(FILE *f, const struct table *t, const struct cell *cells,
		    const char *name, const char *title, const struct lat_hist *h,
		    const char *unit);

/* The same for a bare log2 histogram (no exact count/min/max). */
void table_log2_hist(FILE *f, const struct table *t, const struct cell *cells,
		     const char *name, const char *title, const __u32 *slots, int nr_slots,
		     const char *unit);

/*
 * Start a summary on `f`: text, a blank line and with -T the time; JSON,
 * the time its rows carry as "ts".
 */
void summary_begin(FILE *f);

/* The CGROUP cell of a process row: its cgroup_name() with -C, else none (no lookup). */
struct cell cell_cgroup(__u64 id);

/* Text only (blank lines, notes whose numbers are fields of some row). */
void text_printf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Something the tool could not count or keep (nothing when `count` is 0): a
 * line on stderr ("TOOL: " + the message) and, with -j, an object on stdout:
 * {"type":"lost","what":WHAT,"count":N,"limit":LIMIT} (limit: 0 = none).
 */
void report_lost(const char *what, unsigned long long count, long long limit,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* With -j only: the {"type":"lost",...} object of report_lost(), no message. */
void json_lost(const char *what, unsigned long long count, long long limit);

/* JSON string escaping of `s` (at most `max` bytes, NUL-terminated or not). */
void json_put_string(FILE *f, const char *s, size_t max);

/* A cell as a JSON value: a string, a number, true/false or null. */
void json_put_cell(FILE *f, const struct cell *c);

#endif /* GPU_BPF_TABLE_H */
