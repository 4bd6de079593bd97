#!/usr/bin/env bash
# What tracing a CUDA call costs, on this machine's kernel (host uprobes):
# cudatrace (summary, and -e) against empty programs on the same hooks (the
# limit) and against bpftrace doing the work of the CUDA monitor this
# project's founding tutorial describes (an entry and a return probe per function,
# per-call latency, a line per call "PID FUNCTION SIZE DURATION RESULT" with
# the result by name and frees sized from the tracked allocations, calls
# and a latency histogram per function), in ROUNDS interleaved rounds.
#
#   bash tests/bench/cudatrace.sh       (after make all unit-tests bench-progs; as root)
#
# Each tracer in turn, each round, around one burst of CALLS calls (default
# 20000: the workload's "batches" of cuMemAlloc_v2, cuMemcpyHtoD_v2,
# cuLaunchKernel and cuMemFree_v2 on the fake libcuda.so.1, as fast as it
# takes them, plus one cuModuleGetFunction): the workload waits until the
# tracer is attached, makes its calls and waits again, so the tracer's BPF
# run time is read (tests/bench/lib.sh) before it is stopped. Every tracer
# is attached to the functions cudatrace attaches for the workload (its
# start-up lines under -v name them: the ones whose arguments it reads,
# then "also:" the ones it counts). Prints one "ROUND ..." line per tracer
# and round, then tests/bench/summarize's table (tests/bench/api.sh);
# asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/api.sh disable=SC1091
. tests/bench/api.sh
api_init cudatrace build/tests/cuda/workload 1	# beside the batches: the one cuModuleGetFunction
api_functions "driver API"

# The seed's monitor in bpftrace, generated for those functions: the SIZE
# each prints is its size argument (allocations, copies), the size of the
# allocation it frees (frees), or "-". Results by name: the CUresults the
# workload can see. Calls and histograms are keyed by the function's number
# (its place in cudatrace's list), not its name: bpftrace 0.17 stores a
# histogram's bucket after a string key unaligned when the key's length is
# not a multiple of 8, and the verifier rejects the program.
mon=$BENCH_OUT/seed003.bt
# (Its "\n"s are bpftrace's, not echo's.)
# shellcheck disable=SC2028
{
	echo 'BEGIN {'
	echo '	@res[0] = "CUDA_SUCCESS"; @res[1] = "CUDA_ERROR_INVALID_VALUE";'
	echo '	@res[2] = "CUDA_ERROR_OUT_OF_MEMORY"; @res[400] = "CUDA_ERROR_INVALID_HANDLE";'
	echo '	@res[500] = "CUDA_ERROR_NOT_FOUND"; @res[719] = "CUDA_ERROR_LAUNCH_FAILED";'
	echo '	printf("ready\n");'
	echo '}'
	id=0
	for f in "${API_FUNCS[@]}"; do
		id=$((id + 1))
		k="tid, $id"
		# The v1 API (cuMemAlloc, cuMemcpyHtoD, ...): 32-bit sizes and device pointers.
		case "$f" in
		cuMemAlloc|cuMemAllocHost|cuMemcpyHtoD|cuMemcpyDtoH|cuMemcpyDtoD|cuMemcpy*Async)
			mask=" & 0xffffffff" ;;
		*)	mask="" ;;
		esac
		case "$f" in
		cuMemAlloc)	ptr="*uptr((uint32 *)@out[$k])" ;;
		*)		ptr="*uptr((uint64 *)@out[$k])" ;;
		esac
		case "$f" in
		cuMemAlloc*)
			entry="@a[$k] = arg1$mask; @out[$k] = arg0;" size="@a[$k]"
			track="if (retval == 0) { @allocs[pid, $ptr] = @a[$k]; } delete(@out[$k]);" ;;
		cuMemFree*)
			[ "$f" = cuMemFree ] && mask=" & 0xffffffff"
			entry="@a[$k] = arg0$mask;" size="\$size"
			track="\$size = @allocs[pid, @a[$k]]; if (retval == 0) { delete(@allocs[pid, @a[$k]]); }" ;;
		cuMemcpy*)
			entry="@a[$k] = arg2$mask;" size="@a[$k]" track="" ;;
		*)	entry="" size="" track="" ;;
		esac
		echo "uprobe:$API_LIB:$f { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$API_LIB:$f /@start[$k]/ {"
		echo "	\$us = (nsecs - @start[$k]) / 1000; $track"
		if [ -n "$size" ]; then
			echo "	printf(\"%d %s %d %dus %s\\n\", pid, \"$f\", $size, \$us, @res[retval]);"
		else
			echo "	printf(\"%d %s - %dus %s\\n\", pid, \"$f\", \$us, @res[retval]);"
		fi
		echo "	@calls[$id] = count(); @lat_us[$id] = hist(\$us);"
		echo "	delete(@start[$k]);${entry:+ delete(@a[$k]);}"
		echo "}"
	done
	echo 'END { clear(@res); clear(@start); clear(@a); clear(@out); }'
} >"$mon"

api_rounds cu "bpftrace (CUDA monitor)" bpftrace -p PID "$mon"
