// SPDX-License-Identifier: GPL-2.0
/*
 * vblanklat - display vblank timing, missed vblanks, and how late DRM
 * clients get the vblank events they asked for.
 *
 * Per CRTC: vblanks, the measured refresh rate, and vblank sequence numbers
 * skipped while the interrupt was running (missed vblanks: the kernel was
 * too late to handle them), with when. Per DRM client (a drm_file, named by
 * the process that queued events on it): latency from queueing a vblank
 * event to its delivery, and from the vblank itself to the delivery.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vblanklat.h"
#include "vblanklat.skel.h"
#include "events.h"
#include "hist.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"

static struct env {
	bool events;
	long crtc;
} env = { .crtc = -1 };

static struct vblanklat_bpf *skel;
static unsigned long long start_ns;
static bool seen_vblank;

/* Missed vblanks of the current interval, from the ring buffer. */
#define MAX_MISSED_KEPT 64
static struct vblanklat_event missed[MAX_MISSED_KEPT];
static int nr_missed, nr_missed_dropped;

const char *argp_program_version = "vblanklat 0.1";
static const char doc[] =
"Display vblank timing, missed vblanks, and vblank event latency per client.\n"
"\n"
"USAGE: vblanklat [-emT] [-c CRTC] [-p PID] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    vblanklat             # summary at Ctrl-C\n"
"    vblanklat 1           # a summary every second\n"
"    vblanklat -c 0        # only CRTC 0\n"
"    vblanklat -p 1234     # only the events process 1234 asked for\n"
"    vblanklat -e          # one line per vblank and event\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per vblank and vblank event", 0 },
	{ "crtc", 'c', "CRTC", 0, "Only this CRTC (pipe index, 0..15)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	case 'c':
		env.crtc = parse_long_arg(state, arg, "CRTC", 0, MAX_CRTCS - 1);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* drm.vblankoffdelay: how long the vblank interrupt stays on without users. */
static unsigned long long vblank_off_delay_ns(void)
{
	FILE *f = fopen("/sys/module/drm/parameters/vblankoffdelay", "r");
	long ms = 5000;

	if (f) {
		if (fscanf(f, "%ld", &ms) != 1 || ms <= 0)
			ms = 5000;
		fclose(f);
	}
	return ms * 1000000ULL;
}

/* The DRM drivers bound to display devices, for the "no vblanks" hint. */
static void drm_drivers(char *buf, size_t size)
{
	char link[PATH_MAX], target[PATH_MAX];
	struct dirent *d;
	DIR *dir = opendir("/sys/class/drm");
	size_t len = 0;
	ssize_t n;

	buf[0] = '\0';
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		if (strncmp(d->d_name, "card", 4) || strchr(d->d_name, '-'))
			continue;
		snprintf(link, sizeof(link), "/sys/class/drm/%s/device/driver", d->d_name);
		n = readlink(link, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = '\0';
		len += snprintf(buf + len, size > len ? size - len : 0, "%s%s (%s)",
				len ? ", " : "", strrchr(target, '/') + 1, d->d_name);
	}
	closedir(dir);
}

/* CLOCK_MONOTONIC ns (vblank timestamps) to wall clock HH:MM:SS.mmm. */
static void fmt_mono(char *buf, size_t size, unsigned long long mono_ns)
{
	struct timespec rt;
	time_t secs;
	struct tm tm;
	long long real_ns;

	clock_gettime(CLOCK_REALTIME, &rt);
	real_ns = rt.tv_sec * 1000000000LL + rt.tv_nsec - (long long)(monotonic_ns() - mono_ns);
	secs = real_ns / 1000000000LL;
	localtime_r(&secs, &tm);
	snprintf(buf, size, "%02d:%02d:%02d.%03lld", tm.tm_hour, tm.tm_min, tm.tm_sec,
		 (real_ns / 1000000) % 1000);
}

static int cmp_u32_key(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;

	return x < y ? -1 : x > y;
}

static void print_crtcs(FILE *f, struct map_snapshot *s)
{
	size_t i;

	fprintf(f, "%-4s %8s %9s %7s %8s  %s\n", "CRTC", "VBLANKS", "RATE(Hz)", "MISSED", "RESUMED",
		"TIMESTAMPS");
	for (i = 0; i < s->n; i++) {
		__u32 crtc = *(__u32 *)snapshot_key(s, i);
		struct crtc_stats *st = snapshot_value(s, i);
		char rate[24] = "-";

		/* From sequence numbers: counts the vblanks we did not see too. */
		if (st->last_time > st->first_time)
			snprintf(rate, sizeof(rate), "%.2f",
				 (st->last_seq - st->first_seq) * 1e9 / (st->last_time - st->first_time));
		fprintf(f, "%-4u %8llu %9s %7llu %8llu  %s\n", crtc, (unsigned long long)st->vblanks,
			rate, (unsigned long long)st->missed, (unsigned long long)st->resumed,
			st->high_prec == st->vblanks ? "high-precision"
			: st->high_prec ? "mixed" : "coarse (irq time)");
	}
}

static void print_missed(FILE *f)
{
	char when[32], seqs[32];
	int i;

	if (!nr_missed)
		return;
	fprintf(f, "\nMissed vblanks:\n%-12s %-4s %-21s %6s\n", "TIME", "CRTC", "SEQ", "MISSED");
	for (i = 0; i < nr_missed; i++) {
		fmt_mono(when, sizeof(when), missed[i].time);
		snprintf(seqs, sizeof(seqs), "%u -> %u", missed[i].seq_from, missed[i].seq);
		fprintf(f, "%-12s %-4d %-21s %6u\n", when, missed[i].crtc, seqs,
			missed[i].seq - missed[i].seq_from - 1);
	}
	if (nr_missed_dropped)
		fprintf(f, "(%d more not listed)\n", nr_missed_dropped);
}

static int cmp_file(const void *a, const void *b)
{
	const struct file_stats *fa = (const void *)((const char *)a + sizeof(__u64));
	const struct file_stats *fb = (const void *)((const char *)b + sizeof(__u64));

	return fa->pid < fb->pid ? -1 : fa->pid > fb->pid;
}

static void print_files(FILE *f, struct map_snapshot *s)
{
	size_t i;

	if (!s->n)
		return;
	fprintf(f, "\n%-7s %-16s %7s %9s %6s %9s %9s\n", "PID", "COMM", "QUEUED", "DELIVERED",
		"FLIPS", common_env.msecs ? "Q->D(ms)" : "Q->D(us)", common_env.msecs ? "V->D(ms)" : "V->D(us)");
	for (i = 0; i < s->n; i++) {
		__u64 file = *(__u64 *)snapshot_key(s, i);
		struct file_stats *fs = snapshot_value(s, i);
		char pid[16], qd[24], vd[24];

		/* No file: events the kernel sends itself (fbdev page flips). */
		if (fs->pid)
			snprintf(pid, sizeof(pid), "%u", fs->pid);
		else
			strcpy(pid, "-");
		format_hist_avg(qd, sizeof(qd), &fs->queue_lat);
		format_hist_avg(vd, sizeof(vd), &fs->vblank_lat);
		fprintf(f, "%-7s %-16s %7llu %9llu %6llu %9s %9s\n", pid,
			file ? (fs->comm[0] ? fs->comm : "?") : "[kernel]",
			(unsigned long long)fs->queued, (unsigned long long)fs->delivered,
			(unsigned long long)fs->other, qd, vd);
	}
	for (i = 0; i < s->n; i++) {
		struct file_stats *fs = snapshot_value(s, i);

		if (fs->queue_lat.count) {
			fprintf(f, "\n%s (pid %u) queued -> delivered:\n", fs->comm, fs->pid);
			print_lat_hist(f, &fs->queue_lat, time_unit());
		}
		if (fs->vblank_lat.count) {
			fprintf(f, "\n%s (pid %u) vblank -> delivered:\n", fs->pid ? fs->comm : "[kernel]",
				fs->pid);
			print_lat_hist(f, &fs->vblank_lat, time_unit());
		}
	}
}

static void explain_no_vblanks(FILE *f)
{
	char drivers[512];

	drm_drivers(drivers, sizeof(drivers));
	fprintf(f, "no vblanks: no CRTC%s generated a vblank interrupt. Either no display is "
		"active, or its driver does not support vblanks on this kernel (virtual displays "
		"such as bochs have them only where the kernel emulates them with a timer). "
		"DRM drivers: %s\n", env.crtc >= 0 ? " matching -c" : "",
		drivers[0] ? drivers : "none bound");
}

static int print_summary(void *ctx)
{
	struct map_snapshot crtcs = {}, files = {};
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = map_snapshot(skel->maps.crtc_stats, &crtcs, 1);
	if (!err)
		err = map_snapshot(skel->maps.file_stats, &files, 1);
	if (err) {
		fprintf(stderr, "vblanklat: failed to read maps: %s\n", strerror(-err));
		goto out;
	}
	map_snapshot_sort(&crtcs, cmp_u32_key);
	map_snapshot_sort(&files, cmp_file);

	summary_begin(f, common_env.timestamp);
	if (crtcs.n) {
		seen_vblank = true;
		print_crtcs(f, &crtcs);
	} else if (!seen_vblank) {
		explain_no_vblanks(f);
	} else {
		fprintf(f, "no vblanks this interval (the vblank interrupt is off while no client "
			"waits for one)\n");
	}
	print_missed(f);
	print_files(f, &files);
	fflush(f);
	nr_missed = nr_missed_dropped = 0;
out:
	map_snapshot_free(&crtcs);
	map_snapshot_free(&files);
	return err;
}

static const char *const event_names[] = {
	[EV_VBLANK] = "VBLANK", [EV_QUEUED] = "QUEUED", [EV_DELIVERED] = "DELIVERED",
	[EV_MISSED] = "MISSED",
};

static void print_event_header(void)
{
	if (common_env.timestamp)
		printf("%-8s ", "TIME");
	printf("%-11s %-9s %4s %-10s %-7s %-16s %8s %8s %s\n", "TIME(s)", "EVENT", "CRTC", "SEQ",
	       "PID", "COMM", common_env.msecs ? "Q->D(ms)" : "Q->D(us)",
	       common_env.msecs ? "V->D(ms)" : "V->D(us)", "DETAIL");
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct vblanklat_event *e = data;
	char pid[16] = "-", qd[24] = "-", vd[24] = "-", detail[64] = "-";

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	if (e->type == EV_MISSED) {
		if (nr_missed < MAX_MISSED_KEPT)
			missed[nr_missed++] = *e;
		else
			nr_missed_dropped++;
		if (!env.events)
			return 0;
		snprintf(detail, sizeof(detail), "after=%u missed=%u", e->seq_from,
			 e->seq - e->seq_from - 1);
	}
	if (e->pid)
		snprintf(pid, sizeof(pid), "%u", e->pid);
	if (e->known_latency & 1)
		snprintf(qd, sizeof(qd), "%llu", (unsigned long long)e->latency);
	if (e->known_latency & 2)
		snprintf(vd, sizeof(vd), "%llu", (unsigned long long)e->vblank_latency);
	if (e->type == EV_VBLANK)
		strcpy(detail, e->high_prec ? "high-precision" : "coarse");
	else if (e->type == EV_DELIVERED && !(e->known_latency & 1))
		strcpy(detail, e->file ? "flip" : "kernel");

	if (common_env.timestamp)
		print_wallclock(stdout);
	printf("%-11.6f %-9s %4d %-10u %-7s %-16s %8s %8s %s\n", (e->ts_ns - start_ns) / 1e9,
	       event_names[e->type], e->crtc, e->seq, pid, e->pid ? e->comm : "-", qd, vd, detail);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "[interval [count]]",
		.doc = doc,
		.children = common_argp_child,
	};
	struct trace_loop loop = {};
	int err;

	if (!tracer_init(&argp, argc, argv))
		return 1;
	if (!tracepoint_exists("drm", "drm_vblank_event")) {
		fprintf(stderr, "vblanklat: no drm tracepoints: module drm is not loaded; load your "
			"display driver, e.g. 'modprobe i915', 'modprobe amdgpu', 'modprobe bochs'\n");
		return 1;
	}
	if (module_lacks_btf("drm")) {
		fprintf(stderr, "vblanklat: module drm has no BTF (/sys/kernel/btf/drm): the kernel "
			"needs CONFIG_DEBUG_INFO_BTF_MODULES=y\n");
		return 1;
	}

	skel = vblanklat_bpf__open();
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	skel->rodata->targ_pid = common_env.pid;
	skel->rodata->targ_crtc = env.crtc;
	skel->rodata->targ_ms = common_env.msecs;
	skel->rodata->emit_events = env.events;
	skel->rodata->idle_ns = vblank_off_delay_ns();

	err = vblanklat_bpf__load(skel);
	if (err) {
		report_bpf_error("load BPF programs", err);
		goto cleanup;
	}
	err = vblanklat_bpf__attach(skel);
	if (err) {
		report_bpf_error("attach to the drm vblank tracepoints", err);
		goto cleanup;
	}
	start_ns = monotonic_ns();

	/* Missed vblanks always come through the ring buffer. */
	loop.events = skel->maps.events;
	loop.on_event = handle_event;
	loop.lost_events = &skel->bss->lost_events;
	loop.interval = common_env.interval;
	loop.count = common_env.count;
	if (env.events) {
		print_event_header();
	} else {
		printf("Tracing vblanks and vblank events... Hit Ctrl-C to end.\n");
		loop.on_interval = print_summary;
	}
	err = trace_loop_finish(&loop, trace_loop_run(&loop), env.events ? NULL : print_summary);
	if (skel->bss->dropped)
		fprintf(stderr, "vblanklat: %llu events not tracked (too many clients or pending events)\n",
			(unsigned long long)skel->bss->dropped);
cleanup:
	trace_loop_free(&loop);
	vblanklat_bpf__destroy(skel);
	return err != 0;
}
