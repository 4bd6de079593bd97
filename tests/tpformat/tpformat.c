// SPDX-License-Identifier: GPL-2.0
/*
 * tests/tpformat: gpu_scheduler's run event read by a classic tracepoint
 * program through offsets loaded from tracefs (tp_format.h), as a tool
 * will when the driver module has no BTF.  Prints one line per job
 * ("run ring=gfx id=3 job_count=1 hw_job_count=0 ..."), which
 * tests/guest/tpformat.sh compares with the kernel's own trace buffer; the
 * switch-out of a child it forks (sched_switch's prev_comm, a fixed char
 * array); at exit, the sign-extension checks.
 *
 *   tpformat [--event EVENT] [--want FIELD]...
 *
 * Errors are one line on stderr, exit 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probe.h"
#include "tp_format.h"
#include "tpformat.h"
#include "tpformat.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int quiet(enum libbpf_print_level level, const char *f, va_list ap)
{
	if (level != LIBBPF_WARN || !getenv("TPFORMAT_VERBOSE"))
		return 0;
	return vfprintf(stderr, f, ap);
}

static int die(const char *msg)
{
	fprintf(stderr, "tpformat: %s\n", msg);
	exit(1);
}

static int on_event(void *ctx, void *data, size_t size)
{
	const struct tpf_event *e = data;
	const struct tpformat_bpf *skel = ctx;
	const struct tp_field *r = (const struct tp_field *)&skel->rodata->f_id;

	(void)size;
	if (e->kind == TPF_SWITCH) {
		printf("switch pid=%lld comm=%s len=%d bytes_equal=%d\n", (long long)e->pid, e->ring, e->name_len,
		       e->bytes_equal);
		return 0;
	}
	printf("%s ring=%s", e->kind == TPF_RUN_COPY ? "copy" : "run", e->ring);
	if (skel->rodata->f_dev.flags)
		printf(" dev=%s", e->dev);
	if (r->flags)
		printf(" id=%llu", (unsigned long long)e->id);
	if (skel->rodata->f_fence_context.flags)
		printf(" fence=%llu:%llu", (unsigned long long)e->fence_context,
		       (unsigned long long)e->fence_seqno);
	printf(" job_count=%llu hw_job_count=%lld", (unsigned long long)e->job_count, (long long)e->hw_job_count);
	if (skel->rodata->f_client_id.flags)
		printf(" client_id=%llu", (unsigned long long)e->client_id);
	printf(" pid=%lld name_len=%d\n", (long long)e->pid, e->name_len);	/* pid: the running task's */
	fflush(stdout);
	return 0;
}

/* A program's mean run time (bpf_stats): informative, never checked. */
static void print_cost(const char *what, const struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len) || !info.run_cnt)
		return;
	printf("cost %s: %llu runs, %llu ns each, %u insns jited\n", what, (unsigned long long)info.run_cnt,
	       (unsigned long long)(info.run_time_ns / info.run_cnt), info.jited_prog_len);
}

/* want: the field or die with tp_format's one line. */
static void need(struct tp_format *fmt, const char *names, enum tp_want want, volatile struct tp_field *out)
{
	if (tp_field_get(fmt, names, want, (struct tp_field *)out))
		die(fmt->error);
}

static void maybe(struct tp_format *fmt, const char *names, enum tp_want want, volatile struct tp_field *out)
{
	int err = tp_field_get(fmt, names, want, (struct tp_field *)out);

	if (err && err != -ENOENT)
		die(fmt->error);
}

static void byte_field(volatile struct tp_field *out, const struct tp_format_field *f, unsigned int at,
		       unsigned int size, bool sign)
{
	out->offset = (__u16)(f->offset + at);
	out->size = (__u16)size;
	out->flags = TP_FIELD_PRESENT | (sign ? TP_FIELD_SIGNED : 0);
}

int main(int argc, char **argv)
{
	static struct tp_format fmt, sw;
	const char *event = NULL, *wants[8];
	const struct tp_format_field *wide = NULL;
	struct tpformat_bpf *skel;
	struct ring_buffer *rb;
	struct bpf_link *l1, *l2, *l3, *l4, *l5;
	int stats_fd;
	int nwants = 0, i, pipefd[2];
	char line[128];
	pid_t child;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--event") && i + 1 < argc)
			event = argv[++i];
		else if (!strcmp(argv[i], "--want") && i + 1 < argc && nwants < 8)
			wants[nwants++] = argv[++i];
		else if (!strcmp(argv[i], "--root") && i + 1 < argc)
			probe_set_root(argv[++i]);
		else
			die("usage: tpformat [--event EVENT] [--want FIELD]... [--root DIR]");
	}
	libbpf_set_print(quiet);
	if (!event)
		event = tracepoint_exists("gpu_scheduler", "drm_sched_job_run") ? "drm_sched_job_run" : "drm_run_job";
	if (tp_format_load("gpu_scheduler", event, &fmt))
		die(fmt.error);
	for (i = 0; i < nwants; i++) {
		struct tp_field dummy;

		if (tp_field_get(&fmt, wants[i], TP_WANT_ANY, &dummy))
			die(fmt.error);
	}
	if (tp_format_load("sched", "sched_switch", &sw))
		die(sw.error);

	skel = tpformat_bpf__open();
	if (!skel)
		die("cannot open the BPF object");
	need(&fmt, "name", TP_WANT_STR, &skel->rodata->f_name);
	maybe(&fmt, "dev", TP_WANT_STR, &skel->rodata->f_dev);
	need(&fmt, "job_count", TP_WANT_INT, &skel->rodata->f_job_count);
	need(&fmt, "hw_job_count", TP_WANT_INT, &skel->rodata->f_hw_job_count);
	maybe(&fmt, "id", TP_WANT_INT, &skel->rodata->f_id);
	maybe(&fmt, "fence_context", TP_WANT_INT, &skel->rodata->f_fence_context);
	maybe(&fmt, "fence_seqno", TP_WANT_INT, &skel->rodata->f_fence_seqno);
	maybe(&fmt, "client_id", TP_WANT_INT, &skel->rodata->f_client_id);
	need(&sw, "prev_comm", TP_WANT_STR, &skel->rodata->f_prev_comm);
	need(&sw, "prev_pid", TP_WANT_INT, &skel->rodata->f_prev_pid);

	/* an 8-byte field whose bytes are read again as narrower integers */
	for (i = 0; !wide && i < 3; i++) {
		static const char *const names[] = { "fence", "entity", "fence_context" };

		wide = tp_field_find(&fmt, names[i]);
		if (wide && (wide->size != 8 || (wide->flags & ~TP_FIELD_PTR)))
			wide = NULL;
	}
	if (wide) {
		tp_field_from(wide, (struct tp_field *)&skel->rodata->f_wide);
		skel->rodata->f_wide.flags &= ~TP_FIELD_SIGNED;
		byte_field(&skel->rodata->f_s8, wide, 7, 1, true);
		byte_field(&skel->rodata->f_u8, wide, 7, 1, false);
		byte_field(&skel->rodata->f_s16, wide, 6, 2, true);
		byte_field(&skel->rodata->f_s32, wide, 4, 4, true);
		byte_field(&skel->rodata->f_u32, wide, 4, 4, false);
	}

	skel->rodata->run_len = tp_format_fixed_size(&fmt);

	if (tpformat_bpf__load(skel))
		die("cannot load the BPF programs (TPFORMAT_VERBOSE=1 shows the verifier's log)");
	l1 = bpf_program__attach_tracepoint(skel->progs.on_run, "gpu_scheduler", event);
	if (!l1) {
		snprintf(line, sizeof(line), "cannot attach to gpu_scheduler/%s: %s", event, strerror(errno));
		die(line);
	}
	l3 = bpf_program__attach_tracepoint(skel->progs.on_run_copy, "gpu_scheduler", event);
	l4 = bpf_program__attach_tracepoint(skel->progs.on_run_empty, "gpu_scheduler", event);
	l5 = bpf_program__attach_tracepoint(skel->progs.on_run_sign, "gpu_scheduler", event);
	if (!l3 || !l4 || !l5)
		die("cannot attach the second and third program");
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);	/* each program's run time, printed at exit */
	l2 = bpf_program__attach_tracepoint(skel->progs.on_switch, "sched", "sched_switch");
	if (!l2)
		die("cannot attach to sched/sched_switch");
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, skel, NULL);
	if (!rb)
		die("cannot create the ring buffer");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	printf("attached gpu_scheduler/%s (id %d):", event, fmt.id);
	for (i = 0; i < (int)fmt.nr_fields; i++)
		if (!fmt.fields[i].common)
			printf(" %s@%u/%u", fmt.fields[i].name, fmt.fields[i].offset, fmt.fields[i].size);
	printf("\n");
	fflush(stdout);

	/* a child that renames itself, then sleeps: sched_switch records its comm */
	if (pipe(pipefd))
		die("pipe failed");
	child = fork();
	if (child == 0) {
		char c;

		close(pipefd[1]);
		if (read(pipefd[0], &c, 1) != 1)
			_exit(1);
		prctl(PR_SET_NAME, "tpf-comm-check");
		usleep(20000);
		_exit(0);
	}
	skel->bss->targ_pid = (__u32)child;
	if (write(pipefd[1], "x", 1) != 1)
		die("write to pipe failed");
	waitpid(child, NULL, 0);
	printf("child pid=%d\n", (int)child);

	while (!stop) {
		int n = ring_buffer__poll(rb, 100);

		if (n < 0 && n != -EINTR)
			break;
	}
	ring_buffer__consume(rb);
	printf("sign field=%s checks=%llu mismatches=%llu negative=%llu lost=%llu\n", wide ? wide->name : "-",
	       (unsigned long long)skel->bss->sign_checks, (unsigned long long)skel->bss->sign_mismatches,
	       (unsigned long long)skel->bss->sign_negative, (unsigned long long)skel->bss->lost);
	print_cost("on_run (a probe read per field)", skel->progs.on_run);
	print_cost("on_run_copy (one copy, loads)", skel->progs.on_run_copy);
	print_cost("on_run_empty", skel->progs.on_run_empty);
	if (stats_fd >= 0)
		close(stats_fd);
	ring_buffer__free(rb);
	bpf_link__destroy(l3);
	bpf_link__destroy(l4);
	bpf_link__destroy(l5);
	bpf_link__destroy(l1);
	bpf_link__destroy(l2);
	tpformat_bpf__destroy(skel);
	return 0;
}
