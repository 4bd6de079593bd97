// SPDX-License-Identifier: GPL-2.0
/*
 * cltrace - OpenCL seen through uprobes on its ICD loader: calls,
 * latencies, errors by name, kernel launches with their work sizes, failed
 * builds with their logs, kernels' device times, and objects never
 * released.
 *
 * Every OpenCL program calls libOpenCL.so.1, whatever the implementation
 * behind it, so one set of probes sees every vendor's. OpenCL as
 * cltrace/cl_api.c describes it to the compute-API tracers' engine
 * (apitrace/), which finds the library, probes it and reports.
 */
#include <stdio.h>

#include "apitrace/run.h"
#include "cltrace/cl_api.h"

const char *argp_program_version = "cltrace 0.1";
static const char doc[] =
"Trace OpenCL calls: latency, errors, launches, failed builds, leaked objects.\n"
"\n"
"USAGE: cltrace [-eEjlmsCTv] [-p PID] [-c COMM] [--cgroup PATH]\n"
"               [--container ID] [--pod UID] [-L PATH]... [-f PATTERN]...\n"
"               [--timeline FILE] [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    cltrace                  # summary per function at Ctrl-C\n"
"    cltrace -p 1234          # ... of PID 1234, in the libOpenCL it has mapped\n"
"    cltrace -e -p 1234       # one line per call, for grep and awk\n"
"    cltrace -E               # only failing calls, with their CL_* names\n"
"    cltrace -l -p 1234       # objects never released, at exit or Ctrl-C\n"
"    cltrace -c python3 5     # processes named python3, a summary every 5 s\n"
"    cltrace -j -p 1234 | jq .  # JSON lines: one object per table row\n"
"    cltrace --timeline calls.json -p 1234  # the calls for ui.perfetto.dev\n";

int main(int argc, char **argv)
{
	/* The engine's options alone. */
	static const struct tool_desc tool = APITRACE_TOOL(NULL, NULL, doc);

	return apitrace_main(&tool, argc, argv, &cl_api);
}
