/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The parts of a tool's main() that are the same everywhere: signals,
 * libbpf's messages, and turning load/attach failures into one line that
 * says what to do.
 */
#ifndef GPU_BPF_RUNTIME_H
#define GPU_BPF_RUNTIME_H

#include <argp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/* Set by SIGINT/SIGTERM/SIGHUP: end tracing, print the summary, exit 0. */
extern volatile sig_atomic_t exiting;

/*
 * Install SIGINT/SIGTERM/SIGHUP handlers and libbpf's print callback (silent
 * unless `verbose`), and set up output (output_init()).
 */
void runtime_init(bool verbose);

/*
 * Checks every tool needs before opening its skeleton: the privilege to
 * load BPF, and kernel BTF for CO-RE.  Prints one line and returns false when something is missing.
 */
bool runtime_preflight(void);

/*
 * Report a failed libbpf call (err < 0) as one line on stderr:
 * "TOOL: failed to WHAT: REASON", with a hint for the usual causes
 * (no privilege, no BTF, missing kernel feature).
 */
void report_bpf_error(const char *what, int err);

/* Process `pid` runs: it exists and is no zombie. */
bool pid_running(pid_t pid);

/*
 * Why -p's process cannot be traced, or NULL: "a zombie (it has exited)",
 * "a kernel thread" (no process of its own, no user space). A process that
 * cannot be read (gone, hidden) is not refused here.
 */
const char *pid_untraceable(pid_t pid);

#endif /* GPU_BPF_RUNTIME_H */
