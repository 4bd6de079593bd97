/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output that survives pipes: fully buffered when stdout is not a terminal,
 * flushed by the tracing loop after each batch of events it drained (so
 * `tool | grep` sees lines within a poll interval, at one write(2) per
 * batch rather than per line), and a closed reader (`tool
 * | head`) ends tracing instead of killing the tool with SIGPIPE, so the
 * summary still gets printed - to stderr, as stdout is gone.
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

/* Where summaries go: stdout, or stderr once stdout is broken. */
FILE *summary_stream(void);

/* Flush stdout and notice a closed reader; returns output_broken(). */
bool output_flush(void);

/* An errno by its name, "EINVAL", or its number where glibc has no name. */
const char *errno_name(int err, char *buf, size_t size);

/* "HH:MM:SS " for -T columns. */
void print_wallclock(FILE *f);

/* Nanoseconds on the clock bpf_ktime_get_ns() uses. */
unsigned long long monotonic_ns(void);

#endif /* GPU_BPF_OUTPUT_H */
