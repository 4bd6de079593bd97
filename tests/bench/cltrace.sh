#!/usr/bin/env bash
# What tracing an OpenCL call costs, on this machine's kernel (host
# uprobes on the ICD loader libOpenCL.so.1): cltrace (summary, and -e)
# against empty programs on the same hooks (the limit) and against bpftrace
# doing the work of a simple OpenCL call monitor (an entry and a return
# probe per function, per-call latency, a line per call "PID FUNCTION
# DURATION RESULT" with the result by name, errcode_ret's for the functions
# that return an object, calls and a latency histogram per function), in
# ROUNDS interleaved rounds.
#
#   bash tests/bench/cltrace.sh       (after make all unit-tests bench-progs; as root)
#
# Each tracer in turn, each round, around one burst of CALLS calls (default
# 20000: tests/opencl/clbench's "batches" of clEnqueueWriteBuffer and
# clEnqueueReadBuffer of 64 bytes, blocking, clRetainMemObject and
# clReleaseMemObject, on the real OpenCL - pocl's CPU device here - as fast
# as it takes them; its context, queue and buffer are made before): the
# workload waits until the tracer is attached, makes its calls and waits
# again, so the tracer's BPF run time is read (tests/bench/lib.sh) before
# it is stopped. Every tracer is attached to the functions cltrace attaches
# for the workload (its start-up lines under -v name them: the ones whose
# arguments it reads, then "also:" the ones it counts). Prints one
# "ROUND ..." line per tracer and round, then tests/bench/summarize's
# table (tests/bench/api.sh); asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/api.sh disable=SC1091
. tests/bench/api.sh
# None beside the batches: its context, queue and buffer are made before.
api_init cltrace build/tests/opencl/clbench 0
api_functions OpenCL

# The monitor in bpftrace, generated for those functions. A cl_int result
# is the low half of the return register; the functions that return an
# object write theirs to errcode_ret (their argument as in
# tools/cltrace/cl_api.c), read at the return, "NULL" when there is none and
# no object. Results by name: the cl_ints the workload can see and the
# common failures. Calls and histograms are keyed by the function's number
# (its place in cltrace's list), not its name: bpftrace 0.17 stores a
# histogram's bucket after a string key unaligned when the key's length is
# not a multiple of 8, and the verifier rejects the program. The workload's
# PID is the script's $1: bpftrace 0.17's -p does not keep a library's
# uprobes to that process (another program's OpenCL calls would be
# counted), and cltrace -p counts the workload's calls only.
mon=$BENCH_OUT/clmonitor.bt
# (Its "\n"s are bpftrace's, not echo's.)
# shellcheck disable=SC2028
{
	echo 'BEGIN {'
	echo '	@res[0] = "CL_SUCCESS"; @res[-1] = "CL_DEVICE_NOT_FOUND";'
	echo '	@res[-5] = "CL_OUT_OF_RESOURCES"; @res[-6] = "CL_OUT_OF_HOST_MEMORY";'
	echo '	@res[-11] = "CL_BUILD_PROGRAM_FAILURE"; @res[-30] = "CL_INVALID_VALUE";'
	echo '	@res[-34] = "CL_INVALID_CONTEXT"; @res[-36] = "CL_INVALID_COMMAND_QUEUE";'
	echo '	@res[-38] = "CL_INVALID_MEM_OBJECT"; @res[-46] = "CL_INVALID_KERNEL_NAME";'
	echo '	@res[-61] = "CL_INVALID_BUFFER_SIZE"; @res[-1001] = "CL_PLATFORM_NOT_FOUND_KHR";'
	echo '	@res[-1000000] = "NULL";'
	echo '	printf("ready\n");'
	echo '}'
	id=0
	for f in "${API_FUNCS[@]}"; do
		id=$((id + 1))
		k="tid, $id"
		# errcode_ret's argument, 1-based (cl_api.c's errcode_arg).
		case "$f" in
		clCreateUserEvent) e=2 ;;
		clCreateKernel) e=3 ;;
		clCreateCommandQueue|clCreateCommandQueueWithProperties|clCreateProgramWithIL) e=4 ;;
		clCreateBuffer|clCreateContextFromType|clCreateSubBuffer|clCreateSampler|clCreateProgramWithSource) e=5 ;;
		clCreateBufferWithProperties|clCreateContext|clCreateImage) e=6 ;;
		*) e= ;;
		esac
		if [ -n "$e" ]; then
			echo "uprobe:$API_LIB:$f /pid == \$1/ { @start[$k] = nsecs; @e[$k] = arg$((e - 1)); }"
			echo "uretprobe:$API_LIB:$f /@start[$k]/ {"
			echo "	\$us = (nsecs - @start[$k]) / 1000; \$r = (int64)0;"
			echo "	if (@e[$k] != 0) { \$r = (int64)*uptr((int32 *)@e[$k]); } else { if (retval == 0) { \$r = -1000000; } }"
			echo "	printf(\"%d %s %dus %s\\n\", pid, \"$f\", \$us, @res[\$r]);"
		else
			echo "uprobe:$API_LIB:$f /pid == \$1/ { @start[$k] = nsecs; }"
			echo "uretprobe:$API_LIB:$f /@start[$k]/ {"
			echo "	\$us = (nsecs - @start[$k]) / 1000;"
			echo "	printf(\"%d %s %dus %s\\n\", pid, \"$f\", \$us, @res[(int64)(int32)retval]);"
		fi
		echo "	@calls[$id] = count(); @lat_us[$id] = hist(\$us);"
		echo "	delete(@start[$k]);${e:+ delete(@e[$k]);}"
		echo "}"
	done
	echo 'END { clear(@res); clear(@start); clear(@e); }'
} >"$mon"

api_rounds cl "bpftrace (OpenCL monitor)" bpftrace -p PID "$mon" PID
