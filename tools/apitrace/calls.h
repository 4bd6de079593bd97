/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -e, -E: one line per call - time, process, function, bytes, latency,
 * result - and the arguments worth showing as DETAIL's key=value words
 * (fields of their own with -j); --timeline: one slice per call.
 */
#ifndef APITRACE_CALLS_H
#define APITRACE_CALLS_H

#include <stdio.h>

#include "apitrace.h"
#include "table.h"

/* The per-call lines' table, for tool_trace(). */
const struct table *call_table(void);

/*
 * One call, `time_s` after tracing began; `kernel` names the kernel a
 * launch launched (NULL for other calls).
 */
void print_call(FILE *f, const struct call_event *e, double time_s, const char *kernel);

/*
 * --timeline: the call as a slice on its thread's track, from its entry to
 * its return, named by the function, with -j's fields as arguments; a
 * failing one also marked by an instant named by its result. Here rather
 * than in a timeline.c: its name and arguments are the -e line's cells.
 */
void apitrace_timeline_event(const struct call_event *e, const char *kernel);

#endif /* APITRACE_CALLS_H */
