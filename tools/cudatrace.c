// SPDX-License-Identifier: GPL-2.0
/*
 * cudatrace - the CUDA API seen through uprobes: calls, latencies, errors,
 * kernel launches and leaked allocations.
 *
 * The driver API in libcuda, and with -R the runtime API in libcudart
 * (shared or linked into the executable), as cudatrace/cuda_api.c
 * describes them to the compute-API tracers' engine (apitrace/), which
 * finds the libraries, probes them and reports.
 */
#include <stdio.h>

#include "apitrace/run.h"
#include "cudatrace/cuda_api.h"

const char *argp_program_version = "cudatrace 0.1";
static const char doc[] =
"Trace CUDA API calls: latency, errors, kernel launches and leaked allocations.\n"
"\n"
"USAGE: cudatrace [-eEjlmRsCTv] [-p PID] [-c COMM] [--cgroup PATH]\n"
"                 [--container ID] [--pod UID] [-L PATH]... [-f PATTERN]...\n"
"                 [--timeline FILE] [--prometheus FILE] [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    cudatrace                # driver API summary per function at Ctrl-C\n"
"    cudatrace -p 1234        # ... of PID 1234, in the libraries it has mapped\n"
"    cudatrace -R -p 1234     # also the runtime API (libcudart)\n"
"    cudatrace -e -p 1234     # one line per call, for grep and awk\n"
"    cudatrace -E             # only failing calls, with their CUresult names\n"
"    cudatrace -l -p 1234     # allocations never freed, at exit or Ctrl-C\n"
"    cudatrace -ls -p 1234 10 # ... with allocating stacks, every 10 seconds\n"
"    cudatrace -c python3 5   # processes named python3, a summary every 5 s\n"
"    cudatrace -L /opt/app/lib/libcuda.so.1   # probe this library\n"
"    cudatrace -f 'cuGraph*'  # these too, where the kernel has no multi-uprobe\n"
"                             # links (before 6.6: else every function is)\n"
"    cudatrace -j -p 1234 | jq .  # JSON lines: one object per table row\n"
"    cudatrace -e -j -p 1234  # ... one per call\n"
"    cudatrace --timeline calls.json -p 1234  # the calls for ui.perfetto.dev\n"
"    cudatrace --cgroup /sys/fs/cgroup/gpu.slice -C -e  # one cgroup's calls\n";

static const struct argp_option opts[] = {
	{ "runtime", 'R', NULL, 0, "Also trace the runtime API (libcudart, or cudart linked into the program)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	if (key != 'R')
		return ARGP_ERR_UNKNOWN;
	apitrace_env.secondary = true;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct tool_desc tool = APITRACE_TOOL(opts, parse_arg, doc);

	return apitrace_main(&tool, argc, argv, &cuda_api);
}
