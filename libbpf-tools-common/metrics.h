/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --prometheus FILE: a tool's counters and histograms in Prometheus' text
 * exposition format (version 0.0.4), the format node_exporter's textfile
 * collector reads and `promtool check metrics` checks. The file is replaced
 * atomically (written beside it, fsync, rename) at start, every interval and
 * at exit, so a scrape never sees half a file.
 *
 * Conventions every tool keeps: names are gpubpf_TOOL_WHAT (the prefix is
 * added here); counters end in _total and are totals since the tool started,
 * never per interval; times are _seconds histograms with cumulative `le`
 * buckets; sizes are _bytes; labels have bounded cardinality (device, ring,
 * driver, comm, cgroup...), never a pid or an address, so rows kept per
 * process are summed per comm (metrics_rows). A "cgroup" label brings the
 * container's: container_id and uid, as kube-state-metrics names them.
 */
#ifndef GPU_BPF_METRICS_H
#define GPU_BPF_METRICS_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>

#include "histogram.h"

/* Without an interval, the file is rewritten this often (seconds). */
#define METRICS_DEFAULT_INTERVAL 10

struct metrics {
	FILE *f;
	const char *tool;	/* the name after gpubpf_ */
	char family[128];	/* the family being written, prefix included */
	int err;		/* an errno a sample could not be written for */
};

/* A label: name="value"; a list ends with { NULL, NULL }. */
struct label {
	const char *name;
	const char *value;
};
#define LABELS(...)	((const struct label[]){ __VA_ARGS__, { NULL, NULL } })
#define NO_LABELS	((const struct label[]){ { NULL, NULL } })

/* Family types. */
#define METRIC_COUNTER		"counter"
#define METRIC_GAUGE		"gauge"
#define METRIC_HISTOGRAM	"histogram"

/*
 * Begin a family: its HELP and TYPE lines. `name` without the gpubpf_TOOL_
 * prefix; a counter's name ends in _total.
 */
void metrics_family(struct metrics *m, const char *name, const char *type, const char *help);

/* A sample of the current (counter or gauge) family. */
void metrics_u64(struct metrics *m, const struct label *labels, unsigned long long value);
void metrics_double(struct metrics *m, const struct label *labels, double value);

/*
 * A sample of the current histogram family from a lat_hist in hist units
 * of `unit_s` seconds each (1e-6 for usecs): its log2 slots as cumulative
 * buckets, le = the slot's exclusive upper end (a value recorded as v units
 * was below v + 1), _sum and _count.
 */
void metrics_lat_hist(struct metrics *m, const struct label *labels, const struct lat_hist *h,
		      double unit_s);

/*
 * The same for a histogram of counts (a queue's depth): whole numbers, so
 * a slot's le is its inclusive upper end (1, 3, 7, ...); _sum as is.
 */
void metrics_count_hist(struct metrics *m, const struct label *labels, const struct lat_hist *h);

/* The seconds one unit of the tools' latency histograms is (-m: msecs). */
double metrics_time_unit(void);

/*
 * Rows summed by their label values: what a tool keeps per process (or per
 * object) becomes one row per comm, as labels must not be pids. Up to
 * METRICS_MAX_LABELS labels of up to METRICS_LABEL_LEN - 1 bytes, and
 * METRICS_MAX_VALUES values per row.
 */
#define METRICS_MAX_LABELS	6
#define METRICS_MAX_VALUES	12
#define METRICS_LABEL_LEN	512	/* a pod container's cgroup path is ~200 */

struct metrics_row {
	char labels[METRICS_MAX_LABELS][METRICS_LABEL_LEN];
	unsigned long long values[METRICS_MAX_VALUES];
};

struct metrics_rows {
	/* NULL-terminated if fewer; a last label "cgroup" counts only with -C */
	const char *label_names[METRICS_MAX_LABELS];
	struct metrics_row *rows;
	size_t n, cap;
};

/* A process's cgroup as the "cgroup" label's value: its path with -C, else "" (unused). */
const char *metrics_cgroup(__u64 cgroup_id);

/* Add `values` (nr of them) to the row of `label_values` (one per label name). -ENOMEM. */
int metrics_rows_add(struct metrics_rows *r, const char *const *label_values,
		     const unsigned long long *values, int nr);

/*
 * A family with one sample per row: the row's value number `idx`, times
 * `scale` (1: the integer as is; metrics_time_unit() for a sum of times).
 */
void metrics_rows_family(struct metrics *m, const struct metrics_rows *r, int idx, double scale,
			 const char *name, const char *type, const char *help);

/* One family of a table of them: value `idx` of each row. */
struct metrics_column {
	int idx;
	const char *name, *type, *help;
};

/*
 * The families of `cols`, n of them, in order (metrics_rows_family()). A
 * family named in seconds ("..._seconds_total") holds a sum of times in the
 * tool's unit, scaled by metrics_time_unit(): the unit is in the name, as
 * Prometheus names it.
 */
void metrics_rows_families(struct metrics *m, const struct metrics_rows *r,
			   const struct metrics_column *cols, size_t n);
#define METRICS_ROWS_TABLE(m, r, cols)	\
	metrics_rows_families((m), (r), (cols), sizeof(cols) / sizeof((cols)[0]))

void metrics_rows_free(struct metrics_rows *r);

/* What a tool writes: its families. 0 or a negative errno. */
typedef int (*metrics_fn)(struct metrics *m, void *ctx);

/*
 * Write `path` atomically: `fn`'s families, then what the tool lost
 * (gpubpf_TOOL_events_lost_total by reason, `lost` of them, NULL-terminated
 * reasons in `lost_reasons`). A failure is said once on stderr per kind of
 * error. 0 or a negative errno.
 */
int metrics_write_file(const char *path, const char *tool, metrics_fn fn, void *ctx,
		       const char *const *lost_reasons, const unsigned long long *lost);

/* At start-up: can a file be made beside `path`? false: said on stderr. */
bool metrics_path_writable(const char *path);

/* Escape a label value into out (size bytes): \\, \" and \n; bytes outside printable ASCII as '?'. */
void metrics_escape(char *out, size_t size, const char *value);

#endif /* GPU_BPF_METRICS_H */
