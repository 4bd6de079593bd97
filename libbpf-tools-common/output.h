/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output that survives pipes: fully buffered when stdout is not a terminal,
 * flushed by the tracing loop after each batch of events it drained (so
 * `tool | grep` sees lines within a poll interval, at one write(2) per
 * batch rather than per line), and a closed reader (`tool
 * | head`) ends tracing instead of killing the tool with SIGPIPE, so the
 * summary still gets printed - to stderr, as stdout is gone. Any other
 * failure to write (a full disk) ends tracing the same way, said at once
 * on stderr with what was lost, and the exit status 1 (output_error()).
 */
#ifndef GPU_BPF_OUTPUT_H
#define GPU_BPF_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

/* Call once at start-up. */
void output_init(void);

/*
 * stdout can no longer be written (reader went away); tools stop tracing.
 * Noticed even when the tool has nothing to print: a pipe's write end
 * polls as POLLERR once its reader closed it.
 */
bool output_broken(void);

/*
 * Where summaries go: stdout, or stderr once stdout is broken; between
 * summary_capture_begin() and summary_capture_end(), memory.
 */
FILE *summary_stream(void);

/*
 * A summary printed whole or not at all: summary_stream() is memory until
 * summary_capture_end() writes it to stdout, and if that write fails (a
 * disk filled by the summary itself), to stderr, whole. A reader gone
 * leaves stdout quietly, as ever: the summary goes to stderr.
 */
void summary_capture_begin(void);
void summary_capture_end(void);

/* Flush stdout and notice a closed reader; returns output_broken(). */
bool output_flush(void);

/*
 * The errno stdout failed with other than a reader gone (a full disk:
 * ENOSPC), said on stderr when it happened; 0 if none. The exit status 1.
 */
int output_error(void);

/* An errno by its name, "EINVAL", or its number where glibc has no name. */
const char *errno_name(int err, char *buf, size_t size);

/* "HH:MM:SS " for -T columns. */
void print_wallclock(FILE *f);

/* Nanoseconds on the clock bpf_ktime_get_ns() uses. */
unsigned long long monotonic_ns(void);

/*
 * The TIME(s) of an event line: seconds since tracing began. tool_load()
 * starts that clock once the programs are loaded, before any is attached,
 * so no event precedes it; a stamp before it reads 0, never a wrapped
 * difference.
 */
void trace_clock_start(void);
double trace_seconds(unsigned long long ts_ns);

/*
 * Seconds from the stamp `ts_ns` to `now_ns` (an age): 0 for a stamp made
 * after `now_ns` was read (an allocation made while a summary is taken).
 */
double seconds_since(unsigned long long ts_ns, unsigned long long now_ns);

#endif /* GPU_BPF_OUTPUT_H */
