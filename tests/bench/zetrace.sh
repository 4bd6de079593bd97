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
# table; asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/lib.sh disable=SC1091
. tests/bench/lib.sh
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-20000}
W=build/tests/ze/zework
K=$(uname -r)

die() { echo "bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "zetrace.sh: run as root (BPF)"
for f in bin/zetrace $W "$BENCH_BIN/measure" "$BENCH_BIN/empty"; do
	[ -x "$f" ] || die "$f is not built (make all unit-tests bench-progs)"
done
# A uprobe and a uretprobe that do nothing: cudatrace's serve any function.
[ -r "$BENCH_BIN/empty_cuda.bpf.o" ] || die "$BENCH_BIN/empty_cuda.bpf.o is not built (make bench-progs)"
command -v bpftrace >/dev/null || die "no bpftrace (apt-get install -y bpftrace)"
case "$ROUNDS$CALLS" in *[!0-9]*) die "ROUNDS and CALLS must be numbers" ;; esac
if [ "$ROUNDS" -lt 1 ] || [ "$CALLS" -lt 4 ]; then die "ROUNDS >= 1 and CALLS >= 4"; fi
batches=$((CALLS / 4))
units=$((batches * 4 + 11))	# + setup's 8, zeModuleCreate, zeKernelCreate, zeKernelSetGroupSize

bpf_stats_on
wl_pid=
stop_workload() {
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null && wait "$wl_pid" 2>/dev/null
	wl_pid=
}
# lib.sh's EXIT trap turns BPF statistics off again: keep it (expanded now),
# kill the workload first.
# shellcheck disable=SC2064
trap "stop_workload; $(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/")" EXIT

# start_workload: the workload (the fake libze_loader.so.1 beside it, by
# its RUNPATH), waiting for $BENCH_OUT/go before its calls and for
# $BENCH_OUT/done after them; wl_pid is its PID.
start_workload() {
	rm -f "$BENCH_OUT/go" "$BENCH_OUT/done"
	$W --wait "$BENCH_OUT/go" batches "$batches" --wait "$BENCH_OUT/done" \
		>"$BENCH_OUT/workload.out" 2>&1 &
	wl_pid=$!
	for _ in $(seq 1 1000); do
		grep -qs '^waiting' "$BENCH_OUT/workload.out" && return 0
		kill -0 "$wl_pid" 2>/dev/null || break
		sleep 0.01
	done
	die "the workload did not start: $(cat "$BENCH_OUT/workload.out")"
}

# What zetrace attaches for this workload: its start-up line
# "zetrace: Level Zero in LIB: N functions: F...[; M more counted]" and,
# under -v, "zetrace: LIB: also: F..." (the M).
start_workload
bin/zetrace -v -p "$wl_pid" >/dev/null 2>"$BENCH_OUT/probe.err" &
probe_pid=$!
for _ in $(seq 1 300); do
	if grep -qs ' functions: ' "$BENCH_OUT/probe.err"; then
		grep -qs ' functions: .* more counted' "$BENCH_OUT/probe.err" || break
		grep -qs '^zetrace: .*: also: ' "$BENCH_OUT/probe.err" && break
	fi
	kill -0 $probe_pid 2>/dev/null || break
	sleep 0.1
done
kill -INT $probe_pid 2>/dev/null
wait $probe_pid
stop_workload
line=$(grep -m1 '^zetrace: Level Zero in .*: [0-9]* functions: ' "$BENCH_OUT/probe.err")
re='^zetrace: Level Zero in (.*): [0-9]+ functions: ([^;]*)'
[[ $line =~ $re ]] || die "zetrace attached nothing: $(grep -v '^libbpf: ' "$BENCH_OUT/probe.err")"
lib=${BASH_REMATCH[1]}
read -ra funcs <<<"${BASH_REMATCH[2]}"
also=$(grep -m1 -F "zetrace: $lib: also: " "$BENCH_OUT/probe.err" | sed 's/^.*: also: //')
if [[ $line == *" more counted"* ]]; then
	[ -n "$also" ] || die "zetrace -v did not name the functions it counts: $line"
	read -ra more <<<"$also"
	funcs+=("${more[@]}")
fi
echo "bench: $ROUNDS rounds of $units calls; every tracer on the ${#funcs[@]} functions zetrace probes in $lib" >&2

empty_args=()
for f in "${funcs[@]}"; do
	empty_args+=("enter=$lib:$f" "leave=$lib:$f")
done

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
	for f in "${funcs[@]}"; do
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
		echo "uprobe:$lib:$f /pid == \$1/ { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$lib:$f /@start[$k]/ {"
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

# one NAME READY PRINTED CMD...: one tracer around one burst. CMD's "PID"
# words become the workload's PID. PRINTED counts what the tracer printed
# of the calls: "-" (nothing), "summary" (the CALLS column), "lines" (-e),
# "monitor" (the bpftrace script's lines).
one() {
	local name=$1 ready=$2 what=$3 out printed=- want=- arg args=()
	shift 3
	out=$BENCH_OUT/$name.out
	start_workload
	for arg in "$@"; do
		[ "$arg" = PID ] && arg=$wl_pid
		args+=("$arg")
	done
	if ! tracer_start "$name" "$ready" "${args[@]}"; then
		stop_workload
		return
	fi
	touch "$BENCH_OUT/go"
	# Its calls are made once it waits again.
	for _ in $(seq 1 6000); do
		[ "$(grep -c '^waiting' "$BENCH_OUT/workload.out")" -ge 2 ] && break
		kill -0 "$wl_pid" 2>/dev/null || break
		sleep 0.01
	done
	tracer_stop "$name"
	touch "$BENCH_OUT/done"
	wait "$wl_pid" || echo "bench: $name: the workload failed: $(tail -1 "$BENCH_OUT/workload.out")" >&2
	wl_pid=
	# (Function names only: zetrace's own "zetrace: ..." lines start with "ze" too.)
	case "$what" in
	summary) printed=$(awk 'NF == 6 && $1 ~ /^ze[A-Z]/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$out") ;;
	lines) printed=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $5 ~ /^ze[A-Z]/' "$out" | wc -l) ;;
	monitor) printed=$(grep -cE '^[0-9]+ ze[A-Z][A-Za-z0-9_]* ' "$out") ;;
	esac
	[ "$what" = - ] || want=$units
	round_line "$K" "$name" "$r" "$units" call "$printed" "$want" | tee -a "$BENCH_OUT/rounds.txt"
}

: >"$BENCH_OUT/rounds.txt"
for r in $(seq 1 "$ROUNDS"); do
	echo "bench: round $r of $ROUNDS" >&2
	one empty ready - "$BENCH_BIN/empty" "$BENCH_BIN/empty_cuda.bpf.o" "${empty_args[@]}"
	one zetrace Tracing summary bin/zetrace -p PID
	one "zetrace -e" "TIME(s)" lines bin/zetrace -e -p PID
	one "bpftrace (Level Zero monitor)" ready monitor bpftrace -p PID "$mon" PID
done
echo
echo "$(date -u +%Y-%m-%d): tests/bench/zetrace.sh, $ROUNDS interleaved rounds of $units calls"
tests/bench/summarize "$BENCH_OUT/rounds.txt"
