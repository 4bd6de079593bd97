// SPDX-License-Identifier: GPL-2.0
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>

#include "trace_loop.h"
#include "opts.h"
#include "output.h"
#include "records.h"
#include "runtime.h"
#include "table.h"
#include "timeline.h"

#define POLL_MS 100	/* how fast Ctrl-C and interval deadlines are noticed */

/* A summary on stdout whole, or on stderr whole where stdout failed. */
static int print_summary(int (*summary)(void *ctx), void *ctx)
{
	int err;

	summary_capture_begin();
	err = summary(ctx);
	summary_capture_end();
	return err;
}

int trace_loop_run(struct trace_loop *loop)
{
	unsigned long long next = 0, next_metrics = 0, now;
	long printed = 0;
	int err;

	if (loop->events && loop->on_event && !loop->rb) {
		loop->rb = ring_buffer__new(bpf_map__fd(loop->events), loop->on_event,
					    loop->ctx, NULL);
		if (!loop->rb)
			return -errno;
	}
	if (loop->interval)
		next = monotonic_ns() + loop->interval * 1000000000ULL;
	if (loop->metrics_path)
		next_metrics = monotonic_ns() + loop->metrics_interval * 1000000000ULL;
	/* The banner or header printed before the loop: a reader waits for it. */
	output_flush();

	while (!exiting && !output_broken()) {
		if (loop->rb) {
			err = ring_buffer__poll(loop->rb, POLL_MS);
			/* Records submitted without a wakeup (event_submit()) wait for us. */
			if (err == 0)
				err = ring_buffer__consume(loop->rb);
			if (err < 0 && err != -EINTR)
				return err;
		} else {
			struct timespec ts = { 0, POLL_MS * 1000000L };

			nanosleep(&ts, NULL);
		}
		output_flush();
		timeline_flush();
		/* Even one that made no traced call (none to see its exit in the kernel). */
		if (loop->ends_with_pid && !pid_running(common_env.pid))
			break;
		now = monotonic_ns();
		if (next_metrics && now >= next_metrics) {
			next_metrics += loop->metrics_interval * 1000000000ULL;
			/* A failure is said once; the next interval tries again. */
			trace_loop_write_metrics(loop);
		}
		if (!loop->interval || now < next)
			continue;
		next += loop->interval * 1000000000ULL;
		if (loop->on_interval) {
			err = print_summary(loop->on_interval, loop->ctx);
			if (err)
				return err;
		}
		if (loop->count && ++printed >= loop->count) {
			loop->count_reached = true;
			return 0;
		}
	}
	/* Drain what the kernel queued before we were told to stop. */
	if (loop->rb && !output_broken())
		ring_buffer__consume(loop->rb);
	return 0;
}

__u64 trace_loop_lost(const struct trace_loop *loop)
{
	return loop->lost_events ? *loop->lost_events : 0;
}

void trace_loop_report_lost(const struct trace_loop *loop)
{
	__u64 lost = trace_loop_lost(loop);

	report_lost("events", lost, 0, "%llu events lost (ring buffer full)",
		    (unsigned long long)lost);
}

bool program_is_spare(const struct bpf_program *prog)
{
	const char *name = bpf_program__name(prog), *end = strrchr(name, '_');

	return end && end > name && !strcmp(end, "_spare");
}

unsigned long long recursion_misses(const struct trace_loop *loop)
{
	unsigned long long misses = 0, rescues = loop->spare_rescues ? *loop->spare_rescues : 0;
	struct bpf_object *obj = loop->obj;
	struct bpf_program *prog, *fired;
	bool counted;

	if (!obj)
		return 0;
	/*
	 * With the record path's counters (records.h), what the classic
	 * tracepoints' programs missed is reported from them (the kernel
	 * counts those misses only from 6.7); the counter's own are not events.
	 */
	fired = bpf_object__find_program_by_name(obj, "records_fired");
	counted = fired && bpf_program__fd(fired) >= 0;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (counted && (prog == fired || bpf_program__type(prog) == BPF_PROG_TYPE_TRACEPOINT))
			continue;
		if (program_is_spare(prog))
			continue;
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			misses += info.recursion_misses;
	}
	/* The rescues were read first: each is one of the misses counted since. */
	return misses > rescues ? misses - rescues : 0;
}

void report_recursion_misses(const struct trace_loop *loop)
{
	unsigned long long misses;

	if (!loop->obj)
		return;
	misses = recursion_misses(loop);
	report_lost("recursion_misses", misses, 0, "%llu events not traced: the kernel "
		    "skipped them while the same BPF program was still running on their CPU",
		    misses);
}

int trace_loop_write_metrics(struct trace_loop *loop)
{
	static const char *const reasons[] = { "ring_buffer_full", "recursion", "tracepoint_skipped",
					       NULL };
	unsigned long long lost[] = { trace_loop_lost(loop), recursion_misses(loop),
				      records_skipped() };
	char tool[64] = "";

	if (!loop->metrics_path || !loop->write_metrics)
		return 0;
	/*
	 * Named after the tool, its -V's first word ("drmsched 0.1"), not the
	 * binary's file name: the four API tracers share one BPF object.
	 */
	if (argp_program_version)
		sscanf(argp_program_version, "%63s", tool);
	return metrics_write_file(loop->metrics_path, tool[0] ? tool : program_invocation_short_name,
				  loop->write_metrics, loop->ctx, reasons, lost);
}

int trace_loop_finish(struct trace_loop *loop, int err, int (*final_summary)(void *ctx))
{
	if (err) {
		fprintf(stderr, "%s: tracing failed: %s\n", program_invocation_short_name,
			strerror(-err));
		return err;
	}
	if (final_summary && !loop->count_reached)
		err = print_summary(final_summary, loop->ctx);
	/* The totals at exit: what a last scrape should see (a failure said, and the exit status). */
	if (trace_loop_write_metrics(loop) && !err)
		err = -EIO;
	trace_loop_report_lost(loop);
	report_recursion_misses(loop);
	return err;
}

void trace_loop_free(struct trace_loop *loop)
{
	ring_buffer__free(loop->rb);
	loop->rb = NULL;
}
