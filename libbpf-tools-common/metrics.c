// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "container.h"
#include "metrics.h"
#include "opts.h"
#include "untrusted.h"

#define PREFIX "gpubpf_"

void metrics_family(struct metrics *m, const char *name, const char *type, const char *help)
{
	snprintf(m->family, sizeof(m->family), PREFIX "%s_%s", m->tool, name);
	/* HELP text escapes only backslash and newline; ours have neither. */
	fprintf(m->f, "# HELP %s %s\n# TYPE %s %s\n", m->family, help, m->family, type);
}

void metrics_escape(char *out, size_t size, const char *value)
{
	const unsigned char *s = (const unsigned char *)value;
	size_t o = 0;
	int len;

	/* Prometheus rejects a file whose label values are not UTF-8. */
	while (*s && o + 5 < size) {
		len = utf8_len(s, strlen((const char *)s));
		if (len > 1) {
			memcpy(out + o, s, len);
			o += len;
			s += len;
			continue;
		}
		if (*s == '\\' || *s == '"') {
			out[o++] = '\\';
			out[o++] = *s;
		} else if (*s == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else {
			out[o++] = len == 1 && *s >= 0x20 && *s < 0x7f ? *s : '?';
		}
		s++;
	}
	out[o] = '\0';
}

static void put_label(FILE *f, const char **sep, const char *name, const char *value)
{
	char esc[METRICS_LABEL_LEN * 2];

	metrics_escape(esc, sizeof(esc), value);
	fprintf(f, "%s%s=\"%s\"", *sep, name, esc);
	*sep = ",";
}

/*
 * Before a "cgroup" label, the container its path names as kube-state-metrics
 * names it, so that a query joins the two on equal labels:
 * kube_pod_container_info's container_id="containerd://ID" (where the path
 * names the runtime) and kube_pod_info's uid.
 */
static void put_container_labels(FILE *f, const char **sep, const char *cgroup)
{
	struct container c;
	char id[CONTAINER_ID_LEN + 32];

	if (!container_of_cgroup(cgroup, &c))
		return;
	if (c.id[0] && container_runtime_name(c.runtime)[0]) {
		snprintf(id, sizeof(id), "%s://%s", container_runtime_name(c.runtime), c.id);
		put_label(f, sep, "container_id", id);
	}
	if (c.pod[0])
		put_label(f, sep, "uid", c.pod);
}

/* "{name="value",..." without its closing brace; false for no labels. */
static bool open_labels(FILE *f, const struct label *labels)
{
	const char *sep = "{";

	for (; labels && labels->name; labels++) {
		if (!strcmp(labels->name, "cgroup"))
			put_container_labels(f, &sep, labels->value);
		put_label(f, &sep, labels->name, labels->value);
	}
	return sep[0] == ',';
}

/* `open` (open_labels()'s text), then le="`le`" if given, closed. */
static void close_labels(FILE *f, const char *open, const char *le)
{
	if (le)
		fprintf(f, "%sle=\"%s\"", open[0] ? "," : "{", le);
	if (open[0] || le)
		fputc('}', f);
}

static void put_labels(FILE *f, const struct label *labels)
{
	if (open_labels(f, labels))
		fputc('}', f);
}

void metrics_u64(struct metrics *m, const struct label *labels, unsigned long long value)
{
	fputs(m->family, m->f);
	put_labels(m->f, labels);
	fprintf(m->f, " %llu\n", value);
}

void metrics_double(struct metrics *m, const struct label *labels, double value)
{
	fputs(m->family, m->f);
	put_labels(m->f, labels);
	fprintf(m->f, " %.9g\n", value);
}

/*
 * Buckets at le_of(i) for slots 0 .. MAX_SLOTS - 2, +Inf, _sum (times
 * `scale`), _count: the labels escaped, and a cgroup's container found,
 * once for all of them.
 */
static void put_hist(struct metrics *m, const struct label *labels, const struct lat_hist *h,
		     double scale, bool whole)
{
	unsigned long long cum = 0;
	char le[32], *open = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&open, &len);
	int i;

	if (f)
		open_labels(f, labels);
	if (!f || fclose(f)) {
		m->err = errno ?: ENOMEM;
		free(open);
		return;
	}
	f = m->f;
	/* Every bucket, empty ones too: a series' buckets never change. */
	for (i = 0; i < MAX_SLOTS - 1; i++) {
		cum += h->slots[i];
		if (whole)
			snprintf(le, sizeof(le), "%llu", (2ULL << i) - 1);
		else
			snprintf(le, sizeof(le), "%.9g", (double)(2ULL << i) * scale);
		fprintf(f, "%s_bucket%s", m->family, open);
		close_labels(f, open, le);
		fprintf(f, " %llu\n", cum);
	}
	/* +Inf is the count: the last slot is open-ended. */
	fprintf(f, "%s_bucket%s", m->family, open);
	close_labels(f, open, "+Inf");
	fprintf(f, " %llu\n", (unsigned long long)h->count);
	fprintf(f, "%s_sum%s", m->family, open);
	close_labels(f, open, NULL);
	if (whole)
		fprintf(f, " %llu\n", (unsigned long long)h->sum);
	else
		fprintf(f, " %.9g\n", (double)h->sum * scale);
	fprintf(f, "%s_count%s", m->family, open);
	close_labels(f, open, NULL);
	fprintf(f, " %llu\n", (unsigned long long)h->count);
	free(open);
}

void metrics_lat_hist(struct metrics *m, const struct label *labels, const struct lat_hist *h,
		      double unit_s)
{
	/* A value recorded as v units was below v + 1: a slot ends below 2^(i+1). */
	put_hist(m, labels, h, unit_s, false);
}

void metrics_count_hist(struct metrics *m, const struct label *labels, const struct lat_hist *h)
{
	put_hist(m, labels, h, 1, true);
}

double metrics_time_unit(void)
{
	return common_env.msecs ? 1e-3 : 1e-6;
}

/* The labels in use: a "cgroup" label only with -C, where the tables show it. */
static int nr_labels(const struct metrics_rows *r)
{
	int n = 0;

	while (n < METRICS_MAX_LABELS && r->label_names[n] &&
	       (common_env.show_cgroup || strcmp(r->label_names[n], "cgroup")))
		n++;
	return n;
}

const char *metrics_cgroup(__u64 cgroup_id)
{
	return common_env.show_cgroup && cgroup_v2_mounted() ? cgroup_name(cgroup_id) : "";
}

int metrics_rows_add(struct metrics_rows *r, const char *const *label_values,
		     const unsigned long long *values, int nr)
{
	int nl = nr_labels(r), i;
	struct metrics_row key = {}, *row = NULL;
	size_t j;

	for (i = 0; i < nl; i++)
		snprintf(key.labels[i], METRICS_LABEL_LEN, "%s", label_values[i]);
	for (j = 0; j < r->n && !row; j++)
		if (!memcmp(r->rows[j].labels, key.labels, sizeof(key.labels)))
			row = &r->rows[j];
	if (!row) {
		if (r->n == r->cap) {
			size_t cap = r->cap ? r->cap * 2 : 16;
			struct metrics_row *rows = realloc(r->rows, cap * sizeof(*rows));

			if (!rows)
				return -ENOMEM;
			r->rows = rows;
			r->cap = cap;
		}
		row = &r->rows[r->n++];
		*row = key;
	}
	for (i = 0; i < nr && i < METRICS_MAX_VALUES; i++)
		row->values[i] += values[i];
	return 0;
}

void metrics_rows_family(struct metrics *m, const struct metrics_rows *r, int idx, double scale,
			 const char *name, const char *type, const char *help)
{
	struct label labels[METRICS_MAX_LABELS + 1] = {};
	int nl = nr_labels(r), i;
	size_t j;

	metrics_family(m, name, type, help);
	for (j = 0; j < r->n; j++) {
		for (i = 0; i < nl; i++)
			labels[i] = (struct label){ r->label_names[i], r->rows[j].labels[i] };
		if (scale == 1)
			metrics_u64(m, labels, r->rows[j].values[idx]);
		else
			metrics_double(m, labels, r->rows[j].values[idx] * scale);
	}
}

void metrics_rows_families(struct metrics *m, const struct metrics_rows *r,
			   const struct metrics_column *cols, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		metrics_rows_family(m, r, cols[i].idx,
				    strstr(cols[i].name, "_seconds") ? metrics_time_unit() : 1,
				    cols[i].name, cols[i].type, cols[i].help);
}

void metrics_rows_free(struct metrics_rows *r)
{
	free(r->rows);
	r->rows = NULL;
	r->n = r->cap = 0;
}

/* Say a failure once per errno: a full disk every 10 s is one line, not a flood. */
static void report_write_error(const char *path, const char *what, int err)
{
	static int last_err;

	if (err == last_err)
		return;
	last_err = err;
	if (!err)	/* written again: the next failure is news */
		return;
	fprintf(stderr, "%s: --prometheus %s: %s: %s\n", program_invocation_short_name, path,
		what, strerror(err));
}

/*
 * The file is written unnamed (O_TMPFILE) in its directory and named only
 * to be renamed over `path`: a writer killed while it writes leaves
 * nothing. Where the filesystem has no O_TMPFILE, it is named from the
 * start. Either name is PATH.tmp-PID-N: one whose PID no longer runs is a
 * dead writer's, which the next start removes (metrics_path_writable()).
 * The name does not end in .prom: the textfile collector skips it.
 */
#define TMP_INFIX ".tmp-"

/* A temporary beside `path`, its name into tmp; the fd, or -errno said on stderr. */
static int create_beside(const char *path, char *tmp, size_t size, bool *unnamed)
{
	static unsigned int seq;
	char dir[4096];
	int fd;

	if (snprintf(tmp, size, "%s" TMP_INFIX "%d-%u", path, (int)getpid(), seq++) >= (int)size) {
		report_write_error(path, "cannot write", ENAMETOOLONG);
		return -ENAMETOOLONG;
	}
	path_dir(path, dir, sizeof(dir));
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	*unnamed = fd >= 0;
	if (fd < 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		fd = -errno;
		report_write_error(path, "cannot create a file beside it", -fd);
	}
	return fd;
}

/* An unnamed file named `tmp` (through /proc: AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH). */
static int name_unnamed(int fd, const char *tmp)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) ? errno : 0;
}

/* Remove the temporaries of writers killed between naming and renaming (PATH.tmp-PID-N). */
static void remove_dead_writers(const char *path)
{
	const char *base = basename(path);
	size_t len = strlen(base);
	char dir[4096], stale[8192];
	struct dirent *d;
	DIR *dp;
	int pid;

	path_dir(path, dir, sizeof(dir));
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (strncmp(d->d_name, base, len) || strncmp(d->d_name + len, TMP_INFIX, strlen(TMP_INFIX)) ||
		    sscanf(d->d_name + len + strlen(TMP_INFIX), "%d-", &pid) != 1 || pid <= 0)
			continue;
		if (kill(pid, 0) && errno == ESRCH) {
			snprintf(stale, sizeof(stale), "%s/%s", dir, d->d_name);
			unlink(stale);
		}
	}
	closedir(dp);
}

bool metrics_path_writable(const char *path)
{
	char tmp[4096];
	struct stat st;
	bool unnamed;
	int fd;

	/* Renamed over it every interval: a directory or a device is no target. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: --prometheus %s: %s\n", program_invocation_short_name, path,
			S_ISDIR(st.st_mode) ? "a directory: give a file in it" : "not a regular file");
		return false;
	}
	remove_dead_writers(path);
	fd = create_beside(path, tmp, sizeof(tmp), &unnamed);
	if (fd < 0)
		return false;
	close(fd);
	if (!unnamed)
		unlink(tmp);
	return true;
}

int metrics_write_file(const char *path, const char *tool, metrics_fn fn, void *ctx,
		       const char *const *lost_reasons, const unsigned long long *lost)
{
	char tmp[4096];
	struct metrics m = { .tool = tool };
	bool unnamed, named;
	int fd, err = 0, i;

	fd = create_beside(path, tmp, sizeof(tmp), &unnamed);
	if (fd < 0)
		return fd;
	named = !unnamed;
	/* Readable by node_exporter, which does not run as root. */
	fchmod(fd, 0644);
	m.f = fdopen(fd, "w");
	if (!m.f) {
		err = errno;
		close(fd);
		goto out;
	}
	err = -fn(&m, ctx) ?: m.err;
	if (!err && lost_reasons) {
		metrics_family(&m, "events_lost_total", METRIC_COUNTER,
			       "Events the tool could not trace, by reason");
		for (i = 0; lost_reasons[i]; i++)
			metrics_u64(&m, LABELS({ "reason", lost_reasons[i] }), lost[i]);
	}
	if (fflush(m.f) || ferror(m.f) || fsync(fileno(m.f)))
		err = err ?: errno ?: EIO;
	if (!err && unnamed && !(err = name_unnamed(fileno(m.f), tmp)))
		named = true;
	if (fclose(m.f) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
out:
	if (err) {
		report_write_error(path, "cannot write", err);
		if (named)
			unlink(tmp);
	} else {
		report_write_error(path, NULL, 0);
	}
	return -err;
}
