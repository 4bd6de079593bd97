/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a process learned of its own programs by asking the API: builds that
 * failed with the start of their logs (clBuildProgram, clGetProgramBuildInfo),
 * and its kernels' device times (clGetEventProfilingInfo on its launches'
 * events). Printed in the summary, as the rows changed since the previous.
 */
#ifndef APITRACE_BUILDS_H
#define APITRACE_BUILDS_H

#include <stddef.h>
#include <stdio.h>

#include "apitrace/procs.h"
#include "maps.h"

/*
 * The first line of a build log that says something (logs may begin with
 * blank lines), from its first len bytes, in buf (size).
 */
const char *build_log_line(const char *log, size_t len, char *buf, size_t size);

/* `now` and `was`: snapshots of the builds map (struct kname_key -> struct build_info). */
void print_build_failures(FILE *f, const struct procs *p, const struct map_snapshot *now,
			  const struct map_snapshot *was);

/* The same of the kernel_times map (struct kname_key -> struct kernel_time). */
void print_kernel_times(FILE *f, const struct procs *p, const struct map_snapshot *now,
			const struct map_snapshot *was);

#endif /* APITRACE_BUILDS_H */
