/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --timeline FILE: what a tool traced, as a trace that ui.perfetto.dev (and
 * chrome://tracing) opens: Chromium's Trace Event Format, its JSON Array
 * Format - one event object per line after a "[", the closing "]" written
 * at exit and optional to the readers, so a file cut short by a crash
 * still opens.
 *
 * Tracks are (pid, tid) pairs named by metadata events. GPU-side tracks
 * (rings, engines) get pids of their own (timeline_gpu()), named "GPU ...",
 * apart from the CPU side's real pids and tids.
 *
 * One clock for every tool: timestamps are CLOCK_MONOTONIC, what
 * bpf_ktime_get_ns() reads, in microseconds with nanosecond decimals; so
 * the files of two tools traced at once merge into one timeline:
 *
 *	jq -s add drmsched.json cudatrace.json >both.json
 */
#ifndef GPU_BPF_TIMELINE_H
#define GPU_BPF_TIMELINE_H

#include <stdbool.h>
#include <linux/types.h>

#include "table.h"

/* Open FILE for writing (said on stderr when it cannot be). 0 or -errno. */
int timeline_open(const char *path);

/* A file is being written (or was, until a write failed: its events are counted). */
bool timeline_on(void);

/*
 * After each batch of events (the tracing loop): written out, and a write
 * that failed (a full disk) said at once on stderr; the file then takes
 * no more events, timeline_close() says how many it lost and returns the
 * error.
 */
void timeline_flush(void);

/* Write the closing "]" and close; errors said on stderr. 0 or -errno. */
int timeline_close(void);

/* Name a track's process (sorted by `sort`: lower first) and thread. */
void timeline_process(__u32 pid, const char *name, int sort);
void timeline_thread(__u32 pid, __u32 tid, const char *name, int sort);

/*
 * The GPU-side process of device `name`: named "GPU name" the first time
 * (past TIMELINE_MAX_GPUS devices, the last one's). Its pid is 0x7fTT0000 +
 * n, never a real pid (<= 2^22), TT a byte hashed from the tool's name so
 * that the files of tools traced at once merge without their GPU processes
 * colliding.
 */
#define TIMELINE_MAX_GPUS 64
__u32 timeline_gpu(const char *name);

/*
 * The CPU side's tracks: process pid named `comm` and thread (pid, tid)
 * named `thread_comm`, each the first time it is seen (a bounded set: past
 * it, names are written again, which readers take as the same).
 */
void timeline_task(__u32 pid, const char *comm, __u32 tid, const char *thread_comm);

/* Track (pid, tid) named `name`, sorted by `sort`, the first time it is seen. */
void timeline_track(__u32 pid, __u32 tid, const char *name, int sort);

/*
 * Arguments shown with an event: n keys and their cells (a string, a
 * number, '-' as null), as the tables have them.
 */
struct timeline_args {
	const char *const *keys;
	const struct cell *vals;
	int n;
};
#define TIMELINE_ARGS(keys_, ...)							\
	((struct timeline_args){ (keys_), (const struct cell[]){ __VA_ARGS__ },	\
				 sizeof(keys_) / sizeof((keys_)[0]) })
#define TIMELINE_NO_ARGS ((struct timeline_args){ NULL, NULL, 0 })

/* A slice [ts_ns, ts_ns + dur_ns) on (pid, tid). */
void timeline_slice(__u32 pid, __u32 tid, const char *name, const char *cat, __u64 ts_ns,
		    __u64 dur_ns, struct timeline_args args);

/* An instant on (pid, tid). */
void timeline_instant(__u32 pid, __u32 tid, const char *name, const char *cat, __u64 ts_ns,
		      struct timeline_args args);

/* A counter track of process pid: `name` takes `value` at ts_ns. */
void timeline_counter(__u32 pid, const char *name, __u64 ts_ns, long long value);

/*
 * A flow arrow `id` (unique in the file) from the slice that encloses ts_ns
 * on (pid, tid) to the slice that starts at to_ns on (to_pid, to_tid).
 */
void timeline_flow(__u64 id, __u32 pid, __u32 tid, __u64 ts_ns, __u32 to_pid, __u32 to_tid,
		   __u64 to_ns);

/*
 * Slices on one track must nest; work that overlaps (jobs on a ring with
 * room for several) goes on lanes: the first lane free at `start` takes
 * [start, end), its number returned. Past TIMELINE_MAX_LANES, the last lane
 * (and *overlapped set).
 */
#define TIMELINE_MAX_LANES 64
struct timeline_lanes {
	__u64 end[TIMELINE_MAX_LANES];
	int used;	/* lanes named so far */
};
int timeline_lane(struct timeline_lanes *l, __u64 start, __u64 end, bool *overlapped);

#endif /* GPU_BPF_TIMELINE_H */
