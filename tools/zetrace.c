// SPDX-License-Identifier: GPL-2.0
/*
 * zetrace - oneAPI Level Zero seen through uprobes on its loader,
 * libze_loader: calls, latencies, errors by name, kernel launches with
 * their group counts and sizes, and device memory never freed.
 *
 * Every Level Zero program calls the loader, whatever driver is behind it
 * (Intel's GPUs, SYCL and oneAPI runtimes on them). Level Zero as
 * zetrace/ze_api.c describes it to the compute-API tracers' engine
 * (apitrace/), which finds the library, probes it and reports.
 */
#include <stdio.h>

#include "apitrace/run.h"
#include "zetrace/ze_api.h"

const char *argp_program_version = "zetrace 0.1";
static const char doc[] =
"Trace Level Zero calls: latency, errors, kernel launches, memory never freed.\n"
"\n"
"USAGE: zetrace [-eEjlmsCTv] [-p PID] [-c COMM] [--cgroup PATH]\n"
"               [--container ID] [--pod UID] [-L PATH]... [-f PATTERN]...\n"
"               [--timeline FILE] [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    zetrace                  # summary per function at Ctrl-C\n"
"    zetrace -p 1234          # ... of PID 1234, in the loader it has mapped\n"
"    zetrace -e -p 1234       # one line per call, for grep and awk\n"
"    zetrace -E               # only failing calls, with ZE_RESULT_* names\n"
"    zetrace -l -s -p 1234    # memory never freed, and where it was allocated\n"
"    zetrace -c python3 5     # processes named python3, a summary every 5 s\n"
"    zetrace -j -p 1234 | jq .  # JSON lines: one object per table row\n"
"    zetrace --timeline calls.json -p 1234  # the calls for ui.perfetto.dev\n";

int main(int argc, char **argv)
{
	/* The engine's options alone. */
	static const struct tool_desc tool = APITRACE_TOOL(NULL, NULL, doc);

	return apitrace_main(&tool, argc, argv, &ze_api);
}
