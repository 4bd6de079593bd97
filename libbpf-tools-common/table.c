// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cgroup.h"
#include "container.h"
#include "histogram.h"
#include "opts.h"
#include "output.h"
#include "pidns.h"
#include "table.h"
#include "untrusted.h"

bool json_output(void)
{
	return common_env.json;
}

/* "usecs" (what text histograms say) -> "us" (what JSON field names say). */
static const char *json_unit(const char *unit)
{
	if (!strcmp(unit, "usecs"))
		return "us";
	if (!strcmp(unit, "msecs"))
		return "ms";
	if (!strcmp(unit, "nsecs"))
		return "ns";
	return unit;
}

/*
 * Whatever the kernel hands over (a comm can hold any byte but NUL): JSON
 * escapes for quotes, backslashes and control characters, valid UTF-8 as
 * is, and U+FFFD for each byte that is not part of valid UTF-8, so every
 * line stays valid JSON.
 */
void json_put_string(FILE *f, const char *str, size_t max)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strnlen(str, max), i = 0, len;

	fputc('"', f);
	while (i < n) {
		unsigned char c = s[i];

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
		} else if (c == '\n') {
			fputs("\\n", f);
		} else if (c == '\t') {
			fputs("\\t", f);
		} else if (c < 0x20 || c == 0x7f) {
			fprintf(f, "\\u%04x", c);
		} else if ((len = utf8_len(s + i, n - i)) == 0) {
			fputs("\\ufffd", f);
		} else {
			fwrite(s + i, 1, len, f);
			i += len;
			continue;
		}
		i++;
	}
	fputc('"', f);
}

static void json_key(FILE *f, const char *key, bool is_time)
{
	fprintf(f, ",\"%s%s%s\":", key, is_time ? "_" : "", is_time ? time_unit_short() : "");
}

void json_put_cell(FILE *f, const struct cell *c)
{
	switch (c->kind) {
	case CELL_STR:
		json_put_string(f, c->s, SIZE_MAX);
		break;
	case CELL_U64:
		fprintf(f, "%llu", c->u);
		break;
	case CELL_S64:
		fprintf(f, "%lld", c->i);
		break;
	case CELL_F64:
		fprintf(f, "%.*f", c->prec, c->f);
		break;
	case CELL_BOOL:
		fputs(c->u ? "true" : "false", f);
		break;
	default:
		fputs("null", f);
	}
}

/* The wall-clock time of the summary being printed (JSON "ts"). */
static double summary_ts;

static double realtime_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void summary_begin(FILE *f)
{
	if (json_output()) {
		summary_ts = realtime_now();	/* its rows' "ts" */
		return;
	}
	fputc('\n', f);
	if (common_env.timestamp) {
		print_wallclock(f);
		fputc('\n', f);
	}
}

struct cell cell_cgroup(__u64 id)
{
	return common_env.show_cgroup && cgroup_v2_mounted() ? CELL_S(cgroup_name(id)) : CELL_NONE;
}

static void json_begin(FILE *f, const char *type, double ts)
{
	fputs("{\"type\":", f);
	json_put_string(f, type, SIZE_MAX);
	fprintf(f, ",\"ts\":%.6f", ts);
}

static bool shown(const struct column *col, unsigned int not_in_this_output)
{
	return !(col->flags & not_in_this_output) &&
	       (!(col->flags & COL_CGROUP) || common_env.show_cgroup);
}

/*
 * A COL_CGROUP column is the container its cell's cgroup path names
 * (container_of_cgroup()) before the path: text CONTAINER (docker's 12
 * digits) and POD (the UID), JSON "container" (the whole id), "runtime",
 * "pod" and "unit".
 */
static const struct column container_col = { "CONTAINER", "container", -12, 0 };
static const struct column pod_col = { "POD", "pod", -POD_UID_LEN, 0 };

static void container_of_cell(const struct cell *path, struct container *c)
{
	if (path->kind == CELL_STR)
		container_of_cgroup(path->s, c);
	else
		memset(c, 0, sizeof(*c));
}

/* key: the string, or null when it is empty. */
static void json_string_or_null(FILE *f, const char *key, const char *s)
{
	struct cell c = CELL_S_OR_NONE(s);

	json_key(f, key, false);
	json_put_cell(f, &c);
}

static void json_container(FILE *f, const struct cell *path)
{
	struct container c;

	container_of_cell(path, &c);
	json_string_or_null(f, "container", c.id);
	json_string_or_null(f, "runtime", container_runtime_name(c.runtime));
	json_string_or_null(f, "pod", c.pod);
	json_string_or_null(f, "unit", c.unit);
}

/*
 * A COL_PID cell of an event line, whose process still lives (a summary's
 * may be gone, its PID another's since): its PID in its own namespace
 * where that differs, else 0.
 */
static unsigned int event_ns_pid(bool event, const struct column *col, const struct cell *c)
{
	return event && (col->flags & COL_PID) && c->kind == CELL_U64 ? ns_pid(c->u) : 0;
}

static void json_fields(FILE *f, const struct table *t, const struct cell *cells)
{
	unsigned int ns;
	int i;

	for (i = 0; i < t->nr_cols; i++) {
		if (!shown(&t->cols[i], COL_TEXT_ONLY))
			continue;
		if ((t->cols[i].flags & COL_SPARSE) && cells[i].kind == CELL_NA)
			continue;
		if (t->cols[i].flags & COL_CGROUP)
			json_container(f, &cells[i]);
		json_key(f, t->cols[i].key, t->cols[i].flags & COL_TIME);
		json_put_cell(f, &cells[i]);
		if ((ns = event_ns_pid(t->events, &t->cols[i], &cells[i])))
			fprintf(f, ",\"ns_pid\":%u", ns);
	}
}

/*
 * `ends_line`: the row's last text column, where a string may keep its
 * spaces. `event`: a line of an event: PID(NSPID) for a COL_PID whose
 * namespace numbers it otherwise (event_ns_pid()).
 */
static void text_cell(FILE *f, const struct column *col, const struct cell *c, bool ends_line,
		      bool event)
{
	unsigned int ns = event_ns_pid(event, col, c);
	char buf[1024];
	const char *s = buf;

	switch (c->kind) {
	case CELL_STR:
		/* Whatever a traced process chose: it must not split the row or drive a terminal. */
		text_escape(buf, sizeof(buf), c->s, sizeof(buf), ends_line);
		break;
	case CELL_U64:
		if (ns)
			snprintf(buf, sizeof(buf), "%llu(%u)", c->u, ns);
		else
			snprintf(buf, sizeof(buf), "%llu", c->u);
		break;
	case CELL_S64:
		snprintf(buf, sizeof(buf), "%lld", c->i);
		break;
	case CELL_F64:
		snprintf(buf, sizeof(buf), "%.*f", c->prec, c->f);
		break;
	case CELL_BOOL:
		s = c->u ? col->key : "";
		break;
	default:
		s = "-";
	}
	fprintf(f, "%*s", col->width, s);
}

static void text_row(FILE *f, const struct table *t, const struct cell *cells)
{
	bool first = true;
	int i, last = -1;

	for (i = 0; i < t->nr_cols; i++)
		if (shown(&t->cols[i], COL_JSON_ONLY))
			last = i;
	for (i = 0; i < t->nr_cols; i++) {
		if (!shown(&t->cols[i], COL_JSON_ONLY))
			continue;
		if (!first)
			fputc(' ', f);
		first = false;
		if (t->cols[i].flags & COL_CGROUP) {
			struct container c;
			struct cell id, pod;

			container_of_cell(&cells[i], &c);
			c.id[12] = '\0';	/* as docker ps prints it */
			id = CELL_S_OR_NONE(c.id);
			pod = CELL_S_OR_NONE(c.pod);
			text_cell(f, &container_col, &id, false, false);
			fputc(' ', f);
			text_cell(f, &pod_col, &pod, false, false);
			fputc(' ', f);
		}
		text_cell(f, &t->cols[i], &cells[i], i == last, t->events);
	}
	fputc('\n', f);
}

void table_header(FILE *f, const struct table *t)
{
	char head[64];
	bool first = true;
	int i;

	if (json_output())
		return;
	if (t->events && common_env.timestamp)
		fprintf(f, "%-8s ", "TIME");
	for (i = 0; i < t->nr_cols; i++) {
		const struct column *col = &t->cols[i];

		if (!shown(col, COL_JSON_ONLY))
			continue;
		if (col->flags & COL_TIME)
			snprintf(head, sizeof(head), "%s(%s)", col->head, time_unit_short());
		else
			snprintf(head, sizeof(head), "%s", col->head);
		if (!first)
			fputc(' ', f);
		first = false;
		if (col->flags & COL_CGROUP)
			fprintf(f, "%*s %*s ", container_col.width, container_col.head,
				pod_col.width, pod_col.head);
		fprintf(f, "%*s", col->width, head);
	}
	fputc('\n', f);
}

void table_header_once(FILE *f, const struct table *t, bool *headed)
{
	if (*headed)
		return;
	text_printf(f, "\n");
	table_header(f, t);
	*headed = true;
}

void table_row(FILE *f, const struct table *t, const struct cell *cells)
{
	if (!json_output()) {
		text_row(f, t, cells);
		return;
	}
	json_begin(f, t->type, summary_ts);
	json_fields(f, t, cells);
	fputs("}\n", f);
}

void table_event(FILE *f, const struct table *t, const struct cell *cells,
		 unsigned long long ktime_ns)
{
	if (!json_output()) {
		if (common_env.timestamp)
			print_wallclock(f);
		text_row(f, t, cells);
		return;
	}
	/* The event's own time: now, less how long ago it happened. */
	json_begin(f, t->type, realtime_now() - ((double)monotonic_ns() - (double)ktime_ns) / 1e9);
	json_fields(f, t, cells);
	fputs("}\n", f);
}

/* The non-empty range of `slots` as JSON buckets, as the text histogram shows them. */
static void json_buckets(FILE *f, const __u32 *slots, int nr_slots)
{
	int i, first = -1, last = -1;

	for (i = 0; i < nr_slots; i++) {
		if (slots[i]) {
			last = i;
			if (first < 0)
				first = i;
		}
	}
	fputs(",\"buckets\":[", f);
	for (i = first; first >= 0 && i <= last; i++) {
		unsigned long long lo, hi;

		log2_slot_range(i, &lo, &hi);
		fprintf(f, "%s{\"lo\":%llu,\"hi\":", i > first ? "," : "", lo);
		if (hi == ~0ULL)
			fputs("null", f);	/* the last slot is open-ended */
		else
			fprintf(f, "%llu", hi);
		fprintf(f, ",\"count\":%u}", slots[i]);
	}
	fputc(']', f);
}

static void json_hist_begin(FILE *f, const struct table *t, const struct cell *cells,
			    const char *name, const char *unit)
{
	json_begin(f, t->type, summary_ts);
	json_fields(f, t, cells);
	fputs(",\"hist\":", f);
	json_put_string(f, name, SIZE_MAX);
	fputs(",\"unit\":", f);
	json_put_string(f, json_unit(unit), SIZE_MAX);
}

void table_lat_hist(FILE *f, const struct table *t, const struct cell *cells,
		    const char *name, const char *title, const struct lat_hist *h,
		    const char *unit)
{
	if (!json_output()) {
		fprintf(f, "\n%s\n", text_safe(title));
		print_lat_hist(f, h, unit);
		return;
	}
	json_hist_begin(f, t, cells, name, unit);
	fprintf(f, ",\"count\":%llu", (unsigned long long)h->count);
	if (h->count)
		fprintf(f, ",\"avg\":%llu,\"min\":%llu,\"max\":%llu",
			(unsigned long long)(h->sum / h->count), (unsigned long long)h->min,
			(unsigned long long)h->max);
	else
		fputs(",\"avg\":null,\"min\":null,\"max\":null", f);
	json_buckets(f, h->slots, MAX_SLOTS);
	fputs("}\n", f);
}

void table_log2_hist(FILE *f, const struct table *t, const struct cell *cells,
		     const char *name, const char *title, const __u32 *slots, int nr_slots,
		     const char *unit)
{
	unsigned long long total = 0;
	int i;

	if (!json_output()) {
		fprintf(f, "\n%s\n", text_safe(title));
		print_log2_hist(f, slots, nr_slots, unit);
		return;
	}
	for (i = 0; i < nr_slots; i++)
		total += slots[i];
	json_hist_begin(f, t, cells, name, unit);
	fprintf(f, ",\"count\":%llu", total);
	json_buckets(f, slots, nr_slots);
	fputs("}\n", f);
}

void text_printf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	if (json_output())
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
}

void report_lost(const char *what, unsigned long long count, long long limit,
		 const char *fmt, ...)
{
	va_list ap;

	if (!count)
		return;
	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	json_lost(what, count, limit);
}

void json_lost(const char *what, unsigned long long count, long long limit)
{
	if (!json_output() || output_broken())
		return;
	json_begin(stdout, "lost", realtime_now());
	fputs(",\"what\":", stdout);
	json_put_string(stdout, what, SIZE_MAX);
	fprintf(stdout, ",\"count\":%llu,\"limit\":%lld}\n", count, limit);
	fflush(stdout);
}
