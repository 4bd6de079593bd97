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
#include "tp_field.h"
#include "vblanklat.skel.h"
#include "cgroup.h"
#include "histogram.h"
#include "links.h"
#include "maps.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "tool.h"
#include "vblanklat/prom.h"
#include "tp_format.h"

static struct env {
	long crtc;
} env = { .crtc = -1 };

static struct vblanklat_bpf *skel;
static bool records;		/* the record path: drm without BTF, or --no-btf */
static bool seen_vblank;

/*
 * The kernel's counters only grow; a summary shows what grew since the one
 * before (kept here), so an update landing while a summary is taken is
 * counted in the next one, never lost.
 */
enum { S_CRTCS, S_FILES, NR_SNAPS };
static struct map_snapshot prev[NR_SNAPS];

/* Missed vblanks of the current interval, from the ring buffer. */
#define MAX_MISSED_KEPT 64
static struct vblanklat_event missed[MAX_MISSED_KEPT];
static int nr_missed, nr_missed_dropped;

const char *argp_program_version = "vblanklat 0.1";
static const char doc[] =
"Display vblank timing, missed vblanks, and vblank event latency per client.\n"
"\n"
"USAGE: vblanklat [-ejmCTv] [-P CRTC] [-p PID] [-c COMM] [--cgroup PATH]\n"
"                 [--container ID] [--pod UID] [--no-btf] [--prometheus FILE]\n"
"                 [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    vblanklat             # summary at Ctrl-C\n"
"    vblanklat 1           # a summary every second\n"
"    vblanklat -P 0        # only CRTC 0 (pipe 0)\n"
"    vblanklat -p 1234     # only the events process 1234 asked for\n"
"    vblanklat -e          # one line per vblank and event\n"
"    vblanklat -j          # JSON lines: one object per table row\n"
"    vblanklat --cgroup /sys/fs/cgroup/user.slice -C  # one cgroup's clients\n"
"    vblanklat --no-btf    # the trace records: no vblank -> delivered latency\n";

static const struct argp_option opts[] = {
	{ "crtc", 'P', "CRTC", 0, "Only this CRTC (pipe index, 0..15)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'P':
		env.crtc = parse_long_arg(state, arg, "CRTC", 0, MAX_CRTCS - 1);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct tool_desc tool = {
	.doc = doc,
	.options = opts,
	.parser = parse_arg,
	.events = "Print one line per vblank and vblank event",
	.records = true,
	.needs = TOOL_TRACEFS,
};

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

/* -c was the CRTC before it meant COMM in every tool: a number there is an old command line. */
static bool crtc_as_comm(void)
{
	const char *c = common_env.comm;

	if (!c[0] || c[strspn(c, "0123456789")])
		return false;
	fprintf(stderr, "vblanklat: -c is the process name (COMM) in every tool; for CRTC %s use "
		"-P %s\n", c, c);
	return true;
}

/* The BTF path's programs, or the record path's (attached by event name). */
static void choose_programs(void)
{
	bpf_program__set_autoload(skel->progs.vblank, !records);
	bpf_program__set_autoload(skel->progs.queued, !records);
	bpf_program__set_autoload(skel->progs.delivered, !records);
	bpf_program__set_autoload(skel->progs.tp_vblank, records);
	bpf_program__set_autoload(skel->progs.tp_queued, records);
	bpf_program__set_autoload(skel->progs.tp_delivered, records);
}

/*
 * The commit ioctls' handlers, where drm has them: page flips' owners and
 * commit -> flip. Without them (a kernel that inlined or renamed one),
 * flips are still counted, under their file alone.
 */
static struct kprobe_role commit_roles[] = {
	{ .fns = { "drm_mode_page_flip_ioctl" }, .nr_fns = 1 },
	{ .fns = { "drm_mode_atomic_ioctl" }, .nr_fns = 1 },
};
static struct kprobe_roles commit_probes = { .role = commit_roles, .n = 2 };

static void open_commit_probes(void)
{
	commit_roles[0].entry = skel->progs.page_flip_ioctl;
	commit_roles[1].entry = skel->progs.atomic_ioctl;
	kprobe_roles_open(&commit_probes);
}

static void attach_commit_probes(void)
{
	int i;

	kprobe_roles_attach(&commit_probes);
	for (i = 0; i < commit_probes.n; i++)
		if (commit_roles[i].err)
			fprintf(stderr, "vblanklat: drm has no %s to probe%s: its page flips' owners "
				"and commit -> flip latency not shown\n", commit_roles[i].fns[0],
				commit_roles[i].err == -ENOENT ? "" : " (refused a kprobe)");
}

#define FIELD(ev, name, f) RECORD_FIELD(vblanklat, "drm", ev, name, TP_WANT_INT, f, NULL)

/* The record path: where each field is in the three records (tracefs formats). */
static int set_record_fields(void)
{
	const struct record_field fields[] = {
		FIELD("drm_vblank_event", "crtc", f_vbl_crtc),
		FIELD("drm_vblank_event", "seq", f_vbl_seq),
		FIELD("drm_vblank_event", "time", f_vbl_time),
		FIELD("drm_vblank_event", "high_prec", f_vbl_high_prec),
		/* a queued or delivered event: the drm_file, the CRTC, the sequence */
		FIELD("drm_vblank_event_queued", "file", f_queued_file),
		FIELD("drm_vblank_event_queued", "crtc", f_queued_crtc),
		FIELD("drm_vblank_event_queued", "seq", f_queued_seq),
		FIELD("drm_vblank_event_delivered", "file", f_deliv_file),
		FIELD("drm_vblank_event_delivered", "crtc", f_deliv_crtc),
		FIELD("drm_vblank_event_delivered", "seq", f_deliv_seq),
	};
	int size = records_get_fields(skel->rodata, fields, sizeof(fields) / sizeof(fields[0]), 0);

	if (size < 0)
		return -1;
	/* The longest fixed part of the three records: one copy per event covers each. */
	skel->rodata->rec_size = size;
	/* The vblank's time is the device's (drm_file -> minor -> dev): drm's types. */
	records_missing("V->D");
	return 0;
}

static int attach_records(void)
{
	const struct record_tp tps[] = {
		{ skel->progs.tp_vblank, "drm", "drm_vblank_event" },
		{ skel->progs.tp_queued, "drm", "drm_vblank_event_queued" },
		{ skel->progs.tp_delivered, "drm", "drm_vblank_event_delivered" },
	};

	return records_attach(tps, sizeof(tps) / sizeof(tps[0])) ?:
	       records_count_skipped(skel->obj);
}

static const char *const event_names[] = {
	[EV_VBLANK] = "VBLANK", [EV_QUEUED] = "QUEUED", [EV_DELIVERED] = "DELIVERED",
	[EV_MISSED] = "MISSED",
};

static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -9, 0 },
	{ "CRTC", "crtc", 4, 0 },
	{ "SEQ", "seq", -10, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "Q->D", "queue_lat", 8, COL_TIME },
	{ "V->D", "vblank_lat", 8, COL_TIME },
	{ "DETAIL", "detail", 0, 0 },
	{ "", "seq_from", 0, COL_JSON_ONLY },	/* MISSED: the vblank before the gap */
	{ "", "missed", 0, COL_JSON_ONLY },	/* and a flip's: the vblanks it missed */
	{ "", "commit_to_flip", 0, COL_JSON_ONLY | COL_TIME },
	CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

/* A delivery without a queued event: "flip" (and its commit's latency, the vblanks it missed), or "kernel". */
static void flip_detail(const struct vblanklat_event *e, char *buf, size_t size)
{
	int n;

	if (!e->file) {
		snprintf(buf, size, "kernel");
		return;
	}
	n = snprintf(buf, size, "flip");
	if (e->known_latency & 4)
		n += snprintf(buf + n, size - n, " commit_to_flip=%llu%s",
			      (unsigned long long)e->flip_latency, time_unit_short());
	if (e->known_latency & 8)
		snprintf(buf + n, size - n, " missed=%u", e->frames_missed);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct vblanklat_event *e = data;
	char detail[64] = "";
	bool is_missed;

	(void)ctx;
	if (size < sizeof(*e))
		return 0;
	is_missed = e->type == EV_MISSED;
	if (is_missed) {
		if (nr_missed < MAX_MISSED_KEPT)
			missed[nr_missed++] = *e;
		else
			nr_missed_dropped++;
		if (!common_env.events)
			return 0;
		snprintf(detail, sizeof(detail), "after=%u missed=%u", e->seq_from,
			 e->seq - e->seq_from - 1);
	}
	if (e->type == EV_VBLANK)
		strcpy(detail, e->high_prec ? "high-precision" : "coarse");
	else if (e->type == EV_DELIVERED && !(e->known_latency & 1))
		flip_detail(e, detail, sizeof(detail));

	table_event(stdout, &event_table, (struct cell[]){
		CELL_F(trace_seconds(e->ts_ns), 6), CELL_S(event_names[e->type]),
		CELL_I(e->crtc), CELL_U(e->seq), CELL_U_IF(e->pid, e->pid),
		e->pid ? CELL_S(e->comm) : CELL_NONE,
		CELL_U_IF(e->known_latency & 1, e->latency),
		CELL_U_IF(e->known_latency & 2, e->vblank_latency),
		detail[0] ? CELL_S(detail) : CELL_NONE, CELL_U_IF(is_missed, e->seq_from),
		is_missed ? CELL_U(e->seq - e->seq_from - 1) : CELL_U_IF(e->known_latency & 8,
									  e->frames_missed),
		CELL_U_IF(e->known_latency & 4, e->flip_latency),
		e->pid ? cell_cgroup(e->cgroup_id) : CELL_NONE }, e->ts_ns);
	return 0;
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

static const struct column crtc_cols[] = {
	{ "CRTC", "crtc", -4, 0 },
	{ "VBLANKS", "vblanks", 8, 0 },
	{ "RATE(Hz)", "rate_hz", 9, 0 },
	{ "MISSED", "missed", 7, 0 },
	{ "RESUMED", "resumed", 8, 0 },
	{ "TIMESTAMPS", "timestamps", 0, 0 },
};
static const struct table crtc_table = TABLE("crtc", crtc_cols);

/* CRTCs that had vblanks since the last summary: their number. */
static size_t active_crtcs(const struct map_snapshot *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->n; i++) {
		const struct crtc_stats *st = snapshot_value(s, i);
		const struct crtc_stats *was = map_snapshot_find(&prev[S_CRTCS], snapshot_key(s, i));

		n += st->vblanks > (was ? was->vblanks : 0);
	}
	return n;
}

static void print_crtcs(FILE *f, const struct map_snapshot *s)
{
	static const struct crtc_stats none;
	size_t i;

	table_header(f, &crtc_table);
	for (i = 0; i < s->n; i++) {
		__u32 crtc = *(__u32 *)snapshot_key(s, i);
		const struct crtc_stats *st = snapshot_value(s, i);
		const struct crtc_stats *was = map_snapshot_find(&prev[S_CRTCS], &crtc);
		__u64 vblanks, high_prec, from_time;
		__u32 from_seq;
		struct cell rate = CELL_NONE;

		if (!was)
			was = &none;
		vblanks = st->vblanks - was->vblanks;
		high_prec = st->high_prec - was->high_prec;
		if (!vblanks)
			continue;
		/*
		 * From sequence numbers: counts the vblanks we did not see too.
		 * From the last vblank of the summary before, if there was one.
		 */
		from_time = was->vblanks ? was->last_time : st->first_time;
		from_seq = was->vblanks ? was->last_seq : st->first_seq;
		if (st->last_time > from_time)
			rate = CELL_F((__u32)(st->last_seq - from_seq) * 1e9 /
				      (st->last_time - from_time), 2);
		table_row(f, &crtc_table, (struct cell[]){
			CELL_U(crtc), CELL_U(vblanks), rate, CELL_U(st->missed - was->missed),
			CELL_U(st->resumed - was->resumed),
			CELL_S(high_prec == vblanks ? "high-precision"
			       : high_prec ? "mixed" : "coarse (irq time)") });
	}
}

static const struct column missed_cols[] = {
	{ "TIME", "time", -12, 0 },	/* the vblank's, wall clock */
	{ "CRTC", "crtc", -4, 0 },
	{ "SEQ", "", -21, COL_TEXT_ONLY },	/* "from -> to" */
	{ "", "seq_from", 0, COL_JSON_ONLY },
	{ "", "seq", 0, COL_JSON_ONLY },
	{ "MISSED", "missed", 6, 0 },
};
static const struct table missed_table = TABLE("missed", missed_cols);

static void print_missed(FILE *f)
{
	char when[32], seqs[32];
	int i;

	if (!nr_missed)
		return;
	text_printf(f, "\nMissed vblanks:\n");
	table_header(f, &missed_table);
	for (i = 0; i < nr_missed; i++) {
		fmt_mono(when, sizeof(when), missed[i].time);
		snprintf(seqs, sizeof(seqs), "%u->%u", missed[i].seq_from, missed[i].seq);
		table_row(f, &missed_table, (struct cell[]){
			CELL_S(when), CELL_U(missed[i].crtc), CELL_S(seqs), CELL_U(missed[i].seq_from),
			CELL_U(missed[i].seq), CELL_U(missed[i].seq - missed[i].seq_from - 1) });
	}
	if (nr_missed_dropped) {
		text_printf(f, "(%d more not listed)\n", nr_missed_dropped);
		json_lost("missed_vblanks_listed", nr_missed_dropped, MAX_MISSED_KEPT);
	}
}

static int cmp_file(const void *a, const void *b)
{
	const struct file_stats *fa = (const void *)((const char *)a + sizeof(struct client_key));
	const struct file_stats *fb = (const void *)((const char *)b + sizeof(struct client_key));

	return fa->pid < fb->pid ? -1 : fa->pid > fb->pid;
}

static const struct column client_cols[] = {
	PID_COLUMN,		/* -: the kernel's own events */
	{ "COMM", "comm", -16, 0 },
	{ "QUEUED", "queued", 7, 0 },
	{ "DELIVERED", "delivered", 9, 0 },
	{ "FLIPS", "flips", 6, 0 },
	{ "Q->D", "queue_lat_avg", 9, COL_TIME },
	{ "V->D", "vblank_lat_avg", 9, COL_TIME },
	{ "C->F", "commit_to_flip_avg", 9, COL_TIME },
	{ "MISSED", "late_flips", 6, 0 },	/* flips that missed their first vblank */
	{ "", "frames_missed", 0, COL_JSON_ONLY },	/* the vblanks they missed */
	CGROUP_COLUMN,
};
static const struct table client_table = TABLE("client", client_cols);
static const struct table client_hist_table = { "client_hist", client_cols, 2, false };

/* What a client's counters gained since the last summary; false: nothing. */
static bool file_delta(struct file_stats *out, const struct file_stats *now,
		       const struct file_stats *was)
{
	*out = *now;
	if (!was)
		return now->queued || now->delivered || now->other;
	out->queued -= was->queued;
	out->delivered -= was->delivered;
	out->other -= was->other;
	out->late_flips -= was->late_flips;
	out->frames_missed -= was->frames_missed;
	lat_hist_delta(&out->queue_lat, &now->queue_lat, &was->queue_lat);
	lat_hist_delta(&out->vblank_lat, &now->vblank_lat, &was->vblank_lat);
	lat_hist_delta(&out->flip_lat, &now->flip_lat, &was->flip_lat);
	return out->queued || out->delivered || out->other;
}

/* Row i of `now` as a delta since the last summary in *d; false: nothing new. */
static bool file_row_delta(const struct map_snapshot *now, size_t i, struct file_stats *d)
{
	return file_delta(d, snapshot_value(now, i),
			  map_snapshot_find(&prev[S_FILES], snapshot_key(now, i)));
}

/* A client's two latency histograms, when they have samples. */
static void print_file_hists(FILE *f, const struct file_stats *d)
{
	const char *comm = d->pid ? d->comm : "[kernel]";
	const struct cell key[] = { CELL_U_IF(d->pid, d->pid), CELL_S(comm) };
	char title[96];

	if (d->queue_lat.count) {
		snprintf(title, sizeof(title), "%s (pid %u) queued -> delivered:", d->comm, d->pid);
		table_lat_hist(f, &client_hist_table, key, "queued_to_delivered", title,
			       &d->queue_lat, time_unit());
	}
	if (d->vblank_lat.count) {
		snprintf(title, sizeof(title), "%s (pid %u) vblank -> delivered:", comm, d->pid);
		table_lat_hist(f, &client_hist_table, key, "vblank_to_delivered", title,
			       &d->vblank_lat, time_unit());
	}
	if (d->flip_lat.count) {
		snprintf(title, sizeof(title), "%s (pid %u) commit -> flip:", comm, d->pid);
		table_lat_hist(f, &client_hist_table, key, "commit_to_flip", title,
			       &d->flip_lat, time_unit());
	}
}

static void print_files(FILE *f, const struct map_snapshot *now)
{
	struct file_stats d;
	bool header = false;
	size_t i;

	for (i = 0; i < now->n; i++) {
		__u64 file = ((const struct client_key *)snapshot_key(now, i))->file;

		if (!file_row_delta(now, i, &d))
			continue;
		table_header_once(f, &client_table, &header);
		/* No file: events the kernel sends itself (fbdev page flips). */
		table_row(f, &client_table, (struct cell[]){
			CELL_U_IF(d.pid, d.pid),
			CELL_S(file ? (d.comm[0] ? d.comm : "?") : "[kernel]"),
			CELL_U(d.queued), CELL_U(d.delivered), CELL_U(d.other),
			cell_hist_avg(&d.queue_lat), cell_hist_avg(&d.vblank_lat),
			cell_hist_avg(&d.flip_lat), CELL_U_IF(d.flip_lat.count, d.late_flips),
			CELL_U_IF(d.flip_lat.count, d.frames_missed),
			d.pid ? cell_cgroup(d.cgroup_id) : CELL_NONE });
	}
	/* The histograms under the table, in the same order. */
	for (i = 0; i < now->n; i++) {
		if (file_row_delta(now, i, &d))
			print_file_hists(f, &d);
	}
}

static void explain_no_vblanks(FILE *f)
{
	char drivers[512];

	drm_drivers(drivers, sizeof(drivers));
	text_printf(f, "no vblanks: no CRTC%s generated a vblank interrupt. Either no display is "
		"active, or its driver does not support vblanks on this kernel (virtual displays "
		"such as bochs have them only where the kernel emulates them with a timer). "
		"DRM drivers: %s\n", env.crtc >= 0 ? " matching -P" : "",
		drivers[0] ? drivers : "none bound");
}

static int print_summary(void *ctx)
{
	struct bpf_map *maps[NR_SNAPS] = { skel->maps.crtc_stats, skel->maps.file_stats };
	struct map_snapshot now[NR_SNAPS];
	FILE *f = summary_stream();
	int err;

	(void)ctx;
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	map_snapshot_sort(&now[S_CRTCS], cmp_u32_key);
	map_snapshot_sort(&now[S_FILES], cmp_file);

	summary_begin(f);
	if (active_crtcs(&now[S_CRTCS])) {
		seen_vblank = true;
		print_crtcs(f, &now[S_CRTCS]);
	} else if (!seen_vblank) {
		explain_no_vblanks(f);
	} else {
		text_printf(f, "no vblanks this interval (the vblank interrupt is off while no client "
			"waits for one)\n");
	}
	print_missed(f);
	print_files(f, &now[S_FILES]);
	fflush(f);
	nr_missed = nr_missed_dropped = 0;
	map_snapshot_keep(prev, now, NR_SNAPS);
	return 0;
}

/* ---- --prometheus (vblanklat/prom.c) ----------------------------------- */

static int write_metrics(struct metrics *m, void *ctx)
{
	struct bpf_map *maps[NR_SNAPS] = { skel->maps.crtc_stats, skel->maps.file_stats };
	struct map_snapshot now[NR_SNAPS];
	int err;

	(void)ctx;
	err = tool_snapshot(maps, now, NR_SNAPS);
	if (err)
		return err;
	map_snapshot_sort(&now[S_CRTCS], cmp_u32_key);
	err = vblanklat_metrics(m, &(struct vblanklat_metrics_in){
		.crtcs = &now[S_CRTCS], .files = &now[S_FILES], .dropped = skel->bss->dropped });
	map_snapshot_free_all(now, NR_SNAPS);
	return err;
}

/* What the kernel side had no room for: never silent. */
static void report_dropped(void)
{
	report_lost("events", skel->bss->dropped, MAX_FILES, "%llu events not tracked "
		    "(too many clients or pending events)",
		    (unsigned long long)skel->bss->dropped);
}

int main(int argc, char **argv)
{
	struct trace_loop loop = {};
	int err;

	if (!tool_init(&tool, argc, argv))
		return 1;
	if (crtc_as_comm())
		return argp_err_exit_status;
	if (!tracepoint_exists("drm", "drm_vblank_event")) {
		fprintf(stderr, "vblanklat: no drm tracepoints: module drm is not loaded; load your "
			"display driver, e.g. 'modprobe i915', 'modprobe amdgpu', 'modprobe bochs'\n");
		return 1;
	}
	/* Only drm's types are read: a DKMS driver over an in-tree drm keeps the BTF path. */
	records = records_wanted("drm");

	skel = vblanklat_bpf__open_opts(tool_open_opts());
	if (!skel) {
		report_bpf_error("open BPF object", -errno);
		return 1;
	}
	tool_set_rodata(skel);
	skel->rodata->targ_crtc = env.crtc;
	skel->rodata->idle_ns = vblank_off_delay_ns();
	choose_programs();
	err = records ? set_record_fields() : 0;
	if (err)
		goto cleanup;
	open_commit_probes();
	err = tool_start(skel->skeleton, skel->maps.cgroup_map, "the drm vblank tracepoints");
	if (!err && records)
		err = attach_records();
	if (err)
		goto cleanup;
	attach_commit_probes();
	/* Said once attached: a test waiting for the tool's first output sees it attached. */
	records_announce();

	/* Missed vblanks always come through the ring buffer. */
	loop = TOOL_TRACE_LOOP(skel, handle_event);
	loop.write_metrics = write_metrics;
	err = tool_trace(&loop, &event_table, print_summary,
			 "Tracing vblanks and vblank events");
	report_dropped();
	err = tool_close(&loop, err);
cleanup:
	kprobe_roles_destroy(&commit_probes);
	records_detach();
	map_snapshot_free_all(prev, NR_SNAPS);
	vblanklat_bpf__destroy(skel);
	return err != 0;
}
