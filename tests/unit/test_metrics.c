// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c, the --prometheus writer: exact text for known inputs, label
 * values Prometheus would reject made safe, rows summed per label set, the
 * file replaced atomically and readable by others, and - where Debian's
 * prometheus package is installed - `promtool check metrics` clean on it.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "metrics.h"
#include "opts.h"

static char *read_all(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void test_escape(void)
{
	char out[64];

	metrics_escape(out, sizeof(out), "a\"b\\c\nd");
	CHECK_STR("escape: quote, backslash and newline", out, "a\\\"b\\\\c\\nd");
	metrics_escape(out, sizeof(out), "t\tx\x7f\xff\xc3(");
	CHECK_STR("escape: control bytes and invalid UTF-8 become '?'", out, "t?x??" "?(");
	metrics_escape(out, sizeof(out), "pr\xc3\xbc" "fung");
	CHECK_STR("escape: valid UTF-8 kept", out, "pr\xc3\xbc" "fung");
	metrics_escape(out, 8, "0123456789");
	CHECK("escape: truncated within the buffer", strlen(out) < 8, "len %zu", strlen(out));
}

/* The lines of `text` that start with `prefix`, joined. */
static const char *lines_with(const char *text, const char *prefix)
{
	static char out[4096];
	const char *p = text;
	size_t o = 0;

	out[0] = '\0';
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		if (!strncmp(p, prefix, strlen(prefix)) && o + len < sizeof(out)) {
			memcpy(out + o, p, len);
			o += len;
			out[o] = '\0';
		}
		p += len;
	}
	return out;
}

static const struct metrics_column process_families[] = {
	{ 0, "process_jobs_total", METRIC_COUNTER, "Per comm" },
	{ 1, "process_wait_seconds_total", METRIC_COUNTER, "Per comm" },
};

static int write_sample(struct metrics *m, void *ctx)
{
	struct lat_hist h = { .count = 3, .sum = 7 };
	struct metrics_rows rows = { .label_names = { "ring", "comm" } };
	const unsigned long long a[] = { 2, 10 }, b[] = { 3, 20 }, c[] = { 5, 1 };

	(void)ctx;
	h.slots[0] = 1;		/* 1 unit */
	h.slots[1] = 2;		/* 3 units, twice */
	metrics_family(m, "jobs_total", METRIC_COUNTER, "Jobs");
	metrics_u64(m, LABELS({ "ring", "gfx" }, { "comm", "a\"b" }), 42);
	metrics_u64(m, NO_LABELS, 7);
	metrics_family(m, "wait_seconds", METRIC_HISTOGRAM, "Wait");
	metrics_lat_hist(m, LABELS({ "ring", "gfx" }), &h, 1e-6);
	metrics_family(m, "depth", METRIC_HISTOGRAM, "Depth");
	metrics_count_hist(m, LABELS({ "ring", "gfx" }), &h);
	metrics_family(m, "idle_seconds", METRIC_HISTOGRAM, "Idle");
	metrics_lat_hist(m, NO_LABELS, &h, 1e-6);
	/* Two processes of one name on gfx: one row. */
	metrics_rows_add(&rows, (const char *const[]){ "gfx", "worker" }, a, 2);
	metrics_rows_add(&rows, (const char *const[]){ "gfx", "worker" }, b, 2);
	metrics_rows_add(&rows, (const char *const[]){ "comp", "worker" }, c, 2);
	/* A table of families: the one named in seconds is scaled (us here). */
	METRICS_ROWS_TABLE(m, &rows, process_families);
	metrics_rows_free(&rows);
	return 0;
}

#define CONTAINER_ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define POD_UID "7f3e1c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
#define POD_CGROUP "/kubepods.slice/kubepods-burstable.slice/" \
	"kubepods-burstable-pod7f3e1c2a_5b6d_4e8f_9a0b_1c2d3e4f5a6b.slice/" \
	"cri-containerd-" CONTAINER_ID ".scope"

static int write_cgroup_rows(struct metrics *m, void *ctx)
{
	struct metrics_rows rows = { .label_names = { "comm", "cgroup" } };
	const unsigned long long one = 1;
	struct lat_hist h = { .count = 1, .sum = 1, .slots = { 1 } };

	(void)ctx;
	metrics_rows_add(&rows, (const char *const[]){ "w", "/a" }, &one, 1);
	metrics_rows_add(&rows, (const char *const[]){ "w", POD_CGROUP }, &one, 1);
	metrics_rows_add(&rows, (const char *const[]){ "w", "/system.slice/docker-" CONTAINER_ID ".scope" },
			 &one, 1);
	metrics_rows_add(&rows, (const char *const[]){ "w", "/kubepods/besteffort/pod" POD_UID "/" CONTAINER_ID },
			 &one, 1);
	metrics_rows_family(m, &rows, 0, 1, "cg_total", METRIC_COUNTER, "Per comm");
	metrics_rows_free(&rows);
	metrics_family(m, "pod_depth", METRIC_HISTOGRAM, "Depth");
	metrics_count_hist(m, LABELS({ "cgroup", POD_CGROUP }), &h);
	return 0;
}

static int write_fails(struct metrics *m, void *ctx)
{
	(void)m;
	(void)ctx;
	return -EIO;
}

static void test_file(void)
{
	static const char *const reasons[] = { "ring_buffer_full", "recursion", NULL };
	const unsigned long long lost[] = { 4, 0 };
	char dir[] = "/tmp/metrics-test.XXXXXX", path[128], cmd[256];
	const char *text;
	struct stat st;
	int err;

	if (!mkdtemp(dir)) {
		CHECK("a temporary directory", 0, "%s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/t.prom", dir);
	err = metrics_write_file(path, "t", write_sample, NULL, reasons, lost);
	CHECK("file: written", err == 0, "err %d", err);
	text = read_all(path);
	CHECK_STR("file: a counter's HELP, TYPE and samples, labels escaped",
		  lines_with(text, "gpubpf_t_jobs_total"),
		  "gpubpf_t_jobs_total{ring=\"gfx\",comm=\"a\\\"b\"} 42\n"
		  "gpubpf_t_jobs_total 7\n");
	CHECK_STR("file: TYPE lines in order", lines_with(text, "# TYPE"),
		  "# TYPE gpubpf_t_jobs_total counter\n"
		  "# TYPE gpubpf_t_wait_seconds histogram\n"
		  "# TYPE gpubpf_t_depth histogram\n"
		  "# TYPE gpubpf_t_idle_seconds histogram\n"
		  "# TYPE gpubpf_t_process_jobs_total counter\n"
		  "# TYPE gpubpf_t_process_wait_seconds_total counter\n"
		  "# TYPE gpubpf_t_events_lost_total counter\n");
	/* 1 unit is below 2 us; 3 units below 4 us; cumulative from there. */
	CHECK("file: histogram buckets cumulative, le the slot's upper end in seconds",
	      strstr(text, "gpubpf_t_wait_seconds_bucket{ring=\"gfx\",le=\"2e-06\"} 1\n"
			   "gpubpf_t_wait_seconds_bucket{ring=\"gfx\",le=\"4e-06\"} 3\n"
			   "gpubpf_t_wait_seconds_bucket{ring=\"gfx\",le=\"8e-06\"} 3\n") != NULL,
	      "\n%s", lines_with(text, "gpubpf_t_wait"));
	CHECK("file: +Inf is the count; _sum in seconds; _count",
	      strstr(text, "gpubpf_t_wait_seconds_bucket{ring=\"gfx\",le=\"+Inf\"} 3\n"
			   "gpubpf_t_wait_seconds_sum{ring=\"gfx\"} 7e-06\n"
			   "gpubpf_t_wait_seconds_count{ring=\"gfx\"} 3\n") != NULL,
	      "\n%s", lines_with(text, "gpubpf_t_wait"));
	CHECK("file: a histogram of counts: le the slot's inclusive end, _sum whole",
	      strstr(text, "gpubpf_t_depth_bucket{ring=\"gfx\",le=\"1\"} 1\n"
			   "gpubpf_t_depth_bucket{ring=\"gfx\",le=\"3\"} 3\n"
			   "gpubpf_t_depth_bucket{ring=\"gfx\",le=\"7\"} 3\n") != NULL &&
	      strstr(text, "gpubpf_t_depth_sum{ring=\"gfx\"} 7\n") != NULL,
	      "\n%s", lines_with(text, "gpubpf_t_depth"));
	CHECK("file: a histogram of no labels: le alone, bare _sum and _count",
	      strstr(text, "gpubpf_t_idle_seconds_bucket{le=\"2e-06\"} 1\n") != NULL &&
	      strstr(text, "gpubpf_t_idle_seconds_bucket{le=\"+Inf\"} 3\n"
			   "gpubpf_t_idle_seconds_sum 7e-06\n"
			   "gpubpf_t_idle_seconds_count 3\n") != NULL,
	      "\n%s", lines_with(text, "gpubpf_t_idle"));
	snprintf(cmd, sizeof(cmd), "test $(grep -c '^gpubpf_t_wait_seconds_bucket' %s) = %d", path,
		 MAX_SLOTS);
	CHECK("file: every bucket, empty ones too (a series' buckets never change)",
	      system(cmd) == 0, "%s", cmd);
	CHECK_STR("file: rows summed per label set", lines_with(text, "gpubpf_t_process_"),
		  "gpubpf_t_process_jobs_total{ring=\"gfx\",comm=\"worker\"} 5\n"
		  "gpubpf_t_process_jobs_total{ring=\"comp\",comm=\"worker\"} 5\n"
		  "gpubpf_t_process_wait_seconds_total{ring=\"gfx\",comm=\"worker\"} 3e-05\n"
		  "gpubpf_t_process_wait_seconds_total{ring=\"comp\",comm=\"worker\"} 1e-06\n");
	CHECK_STR("file: what was lost, by reason", lines_with(text, "gpubpf_t_events_lost"),
		  "gpubpf_t_events_lost_total{reason=\"ring_buffer_full\"} 4\n"
		  "gpubpf_t_events_lost_total{reason=\"recursion\"} 0\n");
	CHECK("file: readable by node_exporter's user (0644)",
	      !stat(path, &st) && (st.st_mode & 0777) == 0644, "mode %o", st.st_mode & 0777);

	/* A failing writer leaves the previous file whole, and no temporary. */
	err = metrics_write_file(path, "t", write_fails, NULL, NULL, NULL);
	CHECK("file: a writer's error is returned", err == -EIO, "err %d", err);
	CHECK("file: the previous file kept", strstr(read_all(path), "gpubpf_t_jobs_total 7") != NULL,
	      "gone");
	snprintf(cmd, sizeof(cmd), "test $(ls %s | wc -l) = 1", dir);
	CHECK("file: no temporary left beside it", system(cmd) == 0, "%s", cmd);

	if (!system("command -v promtool >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "promtool check metrics < %s", path);
		CHECK("file: promtool check metrics is clean", system(cmd) == 0, "%s", cmd);
	} else {
		printf("SKIP file: promtool check metrics (no promtool: Debian's prometheus)\n");
	}

	metrics_write_file(path, "t", write_cgroup_rows, NULL, NULL, NULL);
	CHECK_STR("rows: the cgroup label only with -C", lines_with(read_all(path), "gpubpf_t_cg"),
		  "gpubpf_t_cg_total{comm=\"w\"} 4\n");
	common_env.show_cgroup = true;
	metrics_write_file(path, "t", write_cgroup_rows, NULL, NULL, NULL);
	common_env.show_cgroup = false;
	CHECK_STR("rows: with -C, the cgroup label, and a container's container_id and uid as "
		  "kube-state-metrics has them (no container_id where no runtime is named)",
		  lines_with(read_all(path), "gpubpf_t_cg"),
		  "gpubpf_t_cg_total{comm=\"w\",cgroup=\"/a\"} 1\n"
		  "gpubpf_t_cg_total{comm=\"w\",container_id=\"containerd://" CONTAINER_ID "\",uid=\""
		  POD_UID "\",cgroup=\"" POD_CGROUP "\"} 1\n"
		  "gpubpf_t_cg_total{comm=\"w\",container_id=\"docker://" CONTAINER_ID "\",cgroup=\""
		  "/system.slice/docker-" CONTAINER_ID ".scope\"} 1\n"
		  "gpubpf_t_cg_total{comm=\"w\",uid=\"" POD_UID "\",cgroup=\"/kubepods/besteffort/pod"
		  POD_UID "/" CONTAINER_ID "\"} 1\n");

	CHECK_STR("a histogram's cgroup: container_id and uid on each of its samples",
		  lines_with(read_all(path), "gpubpf_t_pod_depth_count"),
		  "gpubpf_t_pod_depth_count{container_id=\"containerd://" CONTAINER_ID "\",uid=\""
		  POD_UID "\",cgroup=\"" POD_CGROUP "\"} 1\n");
	snprintf(cmd, sizeof(cmd), "test $(grep -c '^gpubpf_t_pod_depth.*container_id=.*uid=.*cgroup=' %s) = %d",
		 path, MAX_SLOTS + 2);
	CHECK("a histogram's cgroup: the same labels on every bucket, _sum and _count",
	      system(cmd) == 0, "%s", cmd);

	snprintf(path, sizeof(path), "%s/no/such/dir/t.prom", dir);
	err = metrics_write_file(path, "t", write_sample, NULL, NULL, NULL);
	CHECK("file: a directory that is not there is an error", err == -ENOENT, "err %d", err);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

int main(void)
{
	test_escape();
	test_file();
	return check_failures;
}
