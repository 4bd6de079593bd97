#!/usr/bin/env bash
# What tracing a Level Zero call costs, on this machine's kernel (host
# uprobes on oneAPI's loader libze_loader.so.1): zetrace (summary, and -e)
# against empty programs on the same hooks (the limit) and against bpftrace
# doing the work of cudatrace.sh's CUDA monitor for Level Zero (an entry
# and a return probe per function, per-call latency, a line per call "PID
# FUNCTION SIZE DURATION RESULT" with the result by name and frees sized
# from the tracked allocations, calls and a latency histogram per
# function), in ROUNDS interleaved rounds.
#
#   bash tests/bench/zetrace.sh       (after make all unit-tests bench-progs; as root)
#
# Each tracer in turn, each round, around one burst of CALLS calls (default
# 20000: tests/ze/zework's "batches" of zeMemAllocDevice 1 GiB,
# zeCommandListAppendMemoryCopy 4096 bytes, zeCommandListAppendLaunchKernel
# and zeMemFree on the fake libze_loader.so.1, as fast as it takes them,
# plus the phase's 11 calls before them: setup's 8 (zeInit, zeDriverGet
# twice, zeDeviceGet, zeDeviceGetProperties, zeContextCreate,
# zeCommandQueueCreate, zeCommandListCreate), zeModuleCreate, zeKernelCreate
# and zeKernelSetGroupSize): the workload waits until the tracer is
# attached, makes its calls and waits again, so the tracer's BPF run time
# is read (tests/bench/lib.sh) before it is stopped (its teardown's 5 calls
# come after, untraced). Every tracer is attached to the functions zetrace
# attaches for the workload (its start-up lines under -v name them: the
# ones whose arguments it reads, then "also:" the ones it counts). Prints
# one "ROUND ..." line per tracer and round, then tests/bench/summarize's
# table (tests/bench/api.sh); asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/api.sh disable=SC1091
. tests/bench/api.sh
# zework finds the fake libze_loader.so.1 beside it by its RUNPATH.
# Beside the batches: setup's 8, zeModuleCreate, zeKernelCreate, zeKernelSetGroupSize.
api_init zetrace build/tests/ze/zework 11
api_functions "Level Zero"

# cudatrace.sh's monitor for Level Zero in bpftrace, generated for those
# functions: the SIZE each prints is its size argument (allocations, copies,
# fills: the arguments as in tools/zetrace/ze_api.c, whose indexes are
# 1-based and bpftrace's argN 0-based), the size of the allocation it frees
# (frees), or "-"; printed with %lu (bpftrace's %d keeps an integer's low
# 32 bits: 10 GiB would print as -2147483648). An allocation writes its
# pointer through its last argument, read at the return: zeMemAllocShared's
# is the 7th, past the six registers, on the stack above the return address
# (bpftrace 0.17 has no arg6 on x86-64). A ze_result_t is a 32-bit enum,
# the low half of the return register. Results by name (zetrace's,
# tools/zetrace/ze_errors.c): the ze_result_ts zework can see and the
# common failures. Calls and histograms are keyed by the function's number
# (its place in zetrace's list), not its name: bpftrace 0.17 stores a
# histogram's bucket after a string key unaligned when the key's length is
# not a multiple of 8, and the verifier rejects the program. The workload's
# PID is the script's $1: bpftrace 0.17's -p does not keep a library's
# uprobes to that process (another program's Level Zero calls would be
# counted), and zetrace -p counts the workload's calls only.
mon=$BENCH_OUT/zemonitor.bt
# (Its "\n"s are bpftrace's, not echo's.)
# shellcheck disable=SC2028
{
	echo 'BEGIN {'
	echo '	@res[0x0] = "ZE_RESULT_SUCCESS"; @res[0x1] = "ZE_RESULT_NOT_READY";'
	echo '	@res[0x70000001] = "ZE_RESULT_ERROR_DEVICE_LOST";'
	echo '	@res[0x70000002] = "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY";'
	echo '	@res[0x70000003] = "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY";'
	echo '	@res[0x70000004] = "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE";'
	echo '	@res[0x78000001] = "ZE_RESULT_ERROR_UNINITIALIZED";'
	echo '	@res[0x78000004] = "ZE_RESULT_ERROR_INVALID_ARGUMENT";'
	echo '	@res[0x78000005] = "ZE_RESULT_ERROR_INVALID_NULL_HANDLE";'
	echo '	@res[0x78000007] = "ZE_RESULT_ERROR_INVALID_NULL_POINTER";'
	echo '	@res[0x78000009] = "ZE_RESULT_ERROR_UNSUPPORTED_SIZE";'
	echo '	@res[0x78000011] = "ZE_RESULT_ERROR_INVALID_KERNEL_NAME";'
	echo '	@res[0x7ffffffe] = "ZE_RESULT_ERROR_UNKNOWN";'
	echo '	printf("ready\n");'
	echo '}'
	id=0
	for f in "${API_FUNCS[@]}"; do
		id=$((id + 1))
		k="tid, $id"
		case "$f" in
		zeMemAllocDevice)
			# (context, device_desc, size_t size, alignment, device, void **pptr)
			entry="@a[$k] = arg2; @out[$k] = arg5;" size="@a[$k]" ;;
		zeMemAllocHost)
			# (context, host_desc, size_t size, alignment, void **pptr)
			entry="@a[$k] = arg2; @out[$k] = arg4;" size="@a[$k]" ;;
		zeMemAllocShared)
			# (context, device_desc, host_desc, size_t size, alignment, device, void **pptr)
			entry="@a[$k] = arg3; @out[$k] = *uptr((uint64 *)(reg(\"sp\") + 8));" size="@a[$k]" ;;
		zeMemFree)
			# (context, void *ptr)
			entry="@a[$k] = arg1;" size="\$size" ;;
		zeMemFreeExt)
			# (context, free_desc, void *ptr)
			entry="@a[$k] = arg2;" size="\$size" ;;
		zeCommandListAppendMemoryCopy)
			# (list, dst, src, size_t size, ...)
			entry="@a[$k] = arg3;" size="@a[$k]" ;;
		zeCommandListAppendMemoryFill)
			# (list, ptr, pattern, pattern_size, size_t size, ...)
			entry="@a[$k] = arg4;" size="@a[$k]" ;;
		*)	entry="" size="" ;;
		esac
		case "$f" in
		zeMemAlloc*)
			track="if (\$r == 0) { @allocs[pid, *uptr((uint64 *)@out[$k])] = @a[$k]; } delete(@out[$k]);" ;;
		zeMemFree*)
			track="\$size = @allocs[pid, @a[$k]]; if (\$r == 0) { delete(@allocs[pid, @a[$k]]); }" ;;
		*)	track="" ;;
		esac
		echo "uprobe:$API_LIB:$f /pid == \$1/ { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$API_LIB:$f /@start[$k]/ {"
		echo "	\$us = (nsecs - @start[$k]) / 1000; \$r = (int64)(int32)retval; $track"
		if [ -n "$size" ]; then
			echo "	printf(\"%d %s %lu %dus %s\\n\", pid, \"$f\", $size, \$us, @res[\$r]);"
		else
			echo "	printf(\"%d %s - %dus %s\\n\", pid, \"$f\", \$us, @res[\$r]);"
		fi
		echo "	@calls[$id] = count(); @lat_us[$id] = hist(\$us);"
		echo "	delete(@start[$k]);${entry:+ delete(@a[$k]);}"
		echo "}"
	done
	echo 'END { clear(@res); clear(@start); clear(@a); clear(@out); }'
} >"$mon"

# Function names only: zetrace's own "zetrace: ..." lines start with "ze" too.
api_rounds 'ze[A-Z]' "bpftrace (Level Zero monitor)" bpftrace -p PID "$mon" PID
