#!/usr/bin/env bash
# What tracing a HIP call costs, on this machine's kernel (host uprobes on
# AMD's runtime libamdhip64.so.5): hiptrace (summary, and -e) against empty
# programs on the same hooks (the limit) and against bpftrace doing the
# work of cudatrace.sh's CUDA monitor for HIP (an entry and a return probe
# per function, per-call latency, a line per call "PID FUNCTION SIZE
# DURATION RESULT" with the result by name and frees sized from the tracked
# allocations, calls and a latency histogram per function), in ROUNDS
# interleaved rounds.
#
#   bash tests/bench/hiptrace.sh       (after make all unit-tests bench-progs; as root)
#
# Each tracer in turn, each round, around one burst of CALLS calls (default
# 20000: tests/hip/hipwork's "batches" of hipMalloc 1 GiB, hipMemcpyHtoD
# 4096 bytes, hipModuleLaunchKernel and hipFree on the fake
# libamdhip64.so.5, as fast as it takes them, plus one hipModuleGetFunction):
# the workload waits until the tracer is attached, makes its calls and
# waits again, so the tracer's BPF run time is read (tests/bench/lib.sh)
# before it is stopped. Every tracer is attached to the functions hiptrace
# attaches for the workload (its start-up lines under -v name them: the
# ones whose arguments it reads, then "also:" the ones it counts). Prints
# one "ROUND ..." line per tracer and round, then tests/bench/summarize's
# table (tests/bench/api.sh); asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/api.sh disable=SC1091
. tests/bench/api.sh
# hipwork finds the fake libamdhip64.so.5 beside it by its RUNPATH.
api_init hiptrace build/tests/hip/hipwork 1	# beside the batches: the one hipModuleGetFunction
api_functions HIP

# cudatrace.sh's monitor for HIP in bpftrace, generated for those
# functions: the SIZE each prints is its size argument (allocations, copies,
# sets: the arguments as in tools/hiptrace/hip_api.c), the size of the
# allocation it frees (frees), or "-". A hipError_t is an int, the low half
# of the return register. Results by name (hiptrace's names): the
# hipError_ts the workload can see and the ones cudatrace.sh's monitor
# names. Calls and histograms are keyed by the function's number (its place
# in hiptrace's list), not its name: bpftrace 0.17 stores a histogram's
# bucket after a string key unaligned when the key's length is not a
# multiple of 8, and the verifier rejects the program. The workload's PID is
# the script's $1: bpftrace 0.17's -p does not keep a library's uprobes to
# that process (another program's HIP calls would be counted), and
# hiptrace -p counts the workload's calls only.
mon=$BENCH_OUT/hipmonitor.bt
# (Its "\n"s are bpftrace's, not echo's.)
# shellcheck disable=SC2028
{
	echo 'BEGIN {'
	echo '	@res[0] = "hipSuccess"; @res[1] = "hipErrorInvalidValue";'
	echo '	@res[2] = "hipErrorOutOfMemory"; @res[400] = "hipErrorInvalidHandle";'
	echo '	@res[500] = "hipErrorNotFound"; @res[719] = "hipErrorLaunchFailure";'
	echo '	printf("ready\n");'
	echo '}'
	id=0
	for f in "${API_FUNCS[@]}"; do
		id=$((id + 1))
		k="tid, $id"
		case "$f" in
		hipMalloc|hipMallocManaged|hipHostMalloc|hipExtMallocWithFlags|hipMallocAsync)
			# (void **ptr, size_t size, ...)
			entry="@a[$k] = arg1; @out[$k] = arg0;" size="@a[$k]"
			track="if (\$r == 0) { @allocs[pid, *uptr((uint64 *)@out[$k])] = @a[$k]; } delete(@out[$k]);" ;;
		hipFree|hipHostFree|hipFreeAsync)
			# (void *ptr, ...)
			entry="@a[$k] = arg0;" size="\$size"
			track="\$size = @allocs[pid, @a[$k]]; if (\$r == 0) { delete(@allocs[pid, @a[$k]]); }" ;;
		hipMemcpy|hipMemcpyAsync|hipMemcpyWithStream|hipMemcpy[HD]toD|hipMemcpyDtoH|\
		hipMemcpy[HD]toDAsync|hipMemcpyDtoHAsync|hipMemset|hipMemsetAsync)
			# (dst, src or value, size_t size, ...)
			entry="@a[$k] = arg2;" size="@a[$k]" track="" ;;
		*)	entry="" size="" track="" ;;
		esac
		echo "uprobe:$API_LIB:$f /pid == \$1/ { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$API_LIB:$f /@start[$k]/ {"
		echo "	\$us = (nsecs - @start[$k]) / 1000; \$r = (int64)(int32)retval; $track"
		if [ -n "$size" ]; then
			echo "	printf(\"%d %s %d %dus %s\\n\", pid, \"$f\", $size, \$us, @res[\$r]);"
		else
			echo "	printf(\"%d %s - %dus %s\\n\", pid, \"$f\", \$us, @res[\$r]);"
		fi
		echo "	@calls[$id] = count(); @lat_us[$id] = hist(\$us);"
		echo "	delete(@start[$k]);${entry:+ delete(@a[$k]);}"
		echo "}"
	done
	echo 'END { clear(@res); clear(@start); clear(@a); clear(@out); }'
} >"$mon"

api_rounds hip "bpftrace (HIP monitor)" bpftrace -p PID "$mon" PID
