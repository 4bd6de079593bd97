// SPDX-License-Identifier: GPL-2.0
/*
 * hiptrace - AMD's HIP seen through uprobes on its runtime, libamdhip64:
 * calls, latencies, errors by name, kernel launches with their shapes, and
 * device memory never freed.
 *
 * HIP as hiptrace/hip_api.c describes it to the compute-API tracers'
 * engine (apitrace/), which finds the library, probes it and reports.
 */
#include <stdio.h>

#include "apitrace/run.h"
#include "hiptrace/hip_api.h"

const char *argp_program_version = "hiptrace 0.1";
static const char doc[] =
"Trace HIP calls: latency, errors, kernel launches and memory never freed.\n"
"\n"
"USAGE: hiptrace [-eEjlmsCTv] [-p PID] [-c COMM] [--cgroup PATH]\n"
"                [--container ID] [--pod UID] [-L PATH]... [-f PATTERN]...\n"
"                [--timeline FILE] [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    hiptrace                  # summary per function at Ctrl-C\n"
"    hiptrace -p 1234          # ... of PID 1234, in its libamdhip64\n"
"    hiptrace -e -p 1234       # one line per call, for grep and awk\n"
"    hiptrace -E               # only failing calls, with hipError_t names\n"
"    hiptrace -l -s -p 1234    # memory never freed, and where it was allocated\n"
"    hiptrace -c python3 5     # processes named python3, a summary every 5 s\n"
"    hiptrace -j -p 1234 | jq .  # JSON lines: one object per table row\n"
"    hiptrace --timeline calls.json -p 1234  # the calls for ui.perfetto.dev\n";

int main(int argc, char **argv)
{
	/* The engine's options alone. */
	static const struct tool_desc tool = APITRACE_TOOL(NULL, NULL, doc);

	return apitrace_main(&tool, argc, argv, &hip_api);
}
