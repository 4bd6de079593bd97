/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing loop every tool runs: poll the ring buffer of per-event
 * records (tool.bpf.h) if there is one, print a summary every interval,
 * and stop on Ctrl-C, SIGTERM, a closed stdout or after `count` intervals.
 * Records the kernel side could not queue are counted, never silent.
 */
#ifndef GPU_BPF_TRACE_LOOP_H
#define GPU_BPF_TRACE_LOOP_H

#include <stdbool.h>
#include <linux/types.h>
#include <bpf/libbpf.h>

#include "metrics.h"

struct trace_loop {
	/* Per-event records: the skeleton's `events` map, and its handler. */
	struct bpf_map *events;
	ring_buffer_sample_fn on_event;
	/* The skeleton's `lost_events` (bss): records dropped when full. */
	const volatile __u64 *lost_events;
	/* The skeleton's `spare_rescues` (bss): primaries' misses their spares took (spare.bpf.h). */
	const volatile __u64 *spare_rescues;
	/*
	 * tool_trace(): the summary goes on every interval beside per-event
	 * lines (cudatrace -e --leaks), where per-event lines have none.
	 */
	bool summary_with_events;
	/*
	 * Tracing ends when -p's process has (a process's calls end with it;
	 * a GPU job it submitted may still run after it: not the kernel tools').
	 */
	bool ends_with_pid;
	/* Called every `interval` seconds (0: never), `count` times (0: no limit). */
	int (*on_interval)(void *ctx);
	long interval;
	long count;
	void *ctx;
	/*
	 * The skeleton's object: at the end, events its programs missed
	 * because one of them was still running on the CPU (the kernel's
	 * recursion guard) are reported, never silent.
	 */
	struct bpf_object *obj;
	/*
	 * --prometheus (metrics.h): the tool's families, written to
	 * `metrics_path` before the loop, every `metrics_interval` seconds
	 * and at the end, with what was lost (the ring buffer, recursion
	 * misses, skipped records).
	 */
	metrics_fn write_metrics;
	const char *metrics_path;
	long metrics_interval;
	/* Filled in by trace_loop_run(). */
	struct ring_buffer *rb;
	bool count_reached;	/* stopped after `count` intervals were printed */
};

/*
 * Run until stopped.  Returns 0 on a normal stop (signal, count reached,
 * stdout closed), or a negative errno when polling or on_interval failed.
 */
int trace_loop_run(struct trace_loop *loop);

/* Records lost so far (0 when the tool has no event stream). */
__u64 trace_loop_lost(const struct trace_loop *loop);

/* At exit: "TOOL: N events lost (ring buffer full)" on stderr, if any were. */
void trace_loop_report_lost(const struct trace_loop *loop);

/* Release the ring buffer. */
/*
 * After trace_loop_run(): say why tracing failed (err), or print the summary
 * of what was gathered since the last one - Ctrl-C or SIGTERM mid-interval,
 * no interval at all, the reader gone - with `final_summary` (NULL: none;
 * not when `count` summaries were all printed), then report the records the
 * ring buffer lost. Returns the error.
 */
int trace_loop_finish(struct trace_loop *loop, int err, int (*final_summary)(void *ctx));

void trace_loop_free(struct trace_loop *loop);

/*
 * A BPF program is not run again on a CPU where it is still running
 * (preempted, or interrupted by its own hook): the kernel skips that event
 * and counts it in the program's recursion_misses. Report their sum over
 * loop->obj's programs, less what spare programs took (spare.bpf.h; the
 * spares' own misses are events their primary ran); trace_loop_finish()
 * does it.
 */
void report_recursion_misses(const struct trace_loop *loop);

/* Those misses so far. */
unsigned long long recursion_misses(const struct trace_loop *loop);

/* A spare program (spare.bpf.h): its name is its primary's and "_spare". */
bool program_is_spare(const struct bpf_program *prog);

/* --prometheus: write the metrics file now (trace_loop_run() does it on time). 0 or -errno. */
int trace_loop_write_metrics(struct trace_loop *loop);

#endif /* GPU_BPF_TRACE_LOOP_H */
