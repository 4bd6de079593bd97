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
# table; asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/lib.sh disable=SC1091
. tests/bench/lib.sh
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-20000}
W=build/tests/hip/hipwork
K=$(uname -r)

die() { echo "bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "hiptrace.sh: run as root (BPF)"
for f in bin/hiptrace $W "$BENCH_BIN/measure" "$BENCH_BIN/empty"; do
	[ -x "$f" ] || die "$f is not built (make all unit-tests bench-progs)"
done
# A uprobe and a uretprobe that do nothing: cudatrace's serve any function.
[ -r "$BENCH_BIN/empty_cuda.bpf.o" ] || die "$BENCH_BIN/empty_cuda.bpf.o is not built (make bench-progs)"
command -v bpftrace >/dev/null || die "no bpftrace (apt-get install -y bpftrace)"
case "$ROUNDS$CALLS" in *[!0-9]*) die "ROUNDS and CALLS must be numbers" ;; esac
if [ "$ROUNDS" -lt 1 ] || [ "$CALLS" -lt 4 ]; then die "ROUNDS >= 1 and CALLS >= 4"; fi
batches=$((CALLS / 4))
units=$((batches * 4 + 1))	# + the one hipModuleGetFunction

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

# start_workload: the workload (the fake libamdhip64.so.5 beside it, by its
# RUNPATH), waiting for $BENCH_OUT/go before its calls and for
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

# What hiptrace attaches for this workload: its start-up line
# "hiptrace: HIP in LIB: N functions: F...[; M more counted]" and, under
# -v, "hiptrace: LIB: also: F..." (the M).
start_workload
bin/hiptrace -v -p "$wl_pid" >/dev/null 2>"$BENCH_OUT/probe.err" &
probe_pid=$!
for _ in $(seq 1 300); do
	if grep -qs ' functions: ' "$BENCH_OUT/probe.err"; then
		grep -qs ' functions: .* more counted' "$BENCH_OUT/probe.err" || break
		grep -qs '^hiptrace: .*: also: ' "$BENCH_OUT/probe.err" && break
	fi
	kill -0 $probe_pid 2>/dev/null || break
	sleep 0.1
done
kill -INT $probe_pid 2>/dev/null
wait $probe_pid
stop_workload
line=$(grep -m1 '^hiptrace: HIP in .*: [0-9]* functions: ' "$BENCH_OUT/probe.err")
re='^hiptrace: HIP in (.*): [0-9]+ functions: ([^;]*)'
[[ $line =~ $re ]] || die "hiptrace attached nothing: $(grep -v '^libbpf: ' "$BENCH_OUT/probe.err")"
lib=${BASH_REMATCH[1]}
read -ra funcs <<<"${BASH_REMATCH[2]}"
also=$(grep -m1 -F "hiptrace: $lib: also: " "$BENCH_OUT/probe.err" | sed 's/^.*: also: //')
if [[ $line == *" more counted"* ]]; then
	[ -n "$also" ] || die "hiptrace -v did not name the functions it counts: $line"
	read -ra more <<<"$also"
	funcs+=("${more[@]}")
fi
echo "bench: $ROUNDS rounds of $units calls; every tracer on the ${#funcs[@]} functions hiptrace probes in $lib" >&2

empty_args=()
for f in "${funcs[@]}"; do
	empty_args+=("enter=$lib:$f" "leave=$lib:$f")
done

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
	for f in "${funcs[@]}"; do
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
		echo "uprobe:$lib:$f /pid == \$1/ { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$lib:$f /@start[$k]/ {"
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
	case "$what" in
	summary) printed=$(awk 'NF == 6 && $1 ~ /^hip/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$out") ;;
	lines) printed=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $5 ~ /^hip/' "$out" | wc -l) ;;
	monitor) printed=$(grep -cE '^[0-9]+ hip[A-Za-z0-9_]+ ' "$out") ;;
	esac
	[ "$what" = - ] || want=$units
	round_line "$K" "$name" "$r" "$units" call "$printed" "$want" | tee -a "$BENCH_OUT/rounds.txt"
}

: >"$BENCH_OUT/rounds.txt"
for r in $(seq 1 "$ROUNDS"); do
	echo "bench: round $r of $ROUNDS" >&2
	one empty ready - "$BENCH_BIN/empty" "$BENCH_BIN/empty_cuda.bpf.o" "${empty_args[@]}"
	one hiptrace Tracing summary bin/hiptrace -p PID
	one "hiptrace -e" "TIME(s)" lines bin/hiptrace -e -p PID
	one "bpftrace (HIP monitor)" ready monitor bpftrace -p PID "$mon" PID
done
echo
echo "$(date -u +%Y-%m-%d): tests/bench/hiptrace.sh, $ROUNDS interleaved rounds of $units calls"
tests/bench/summarize "$BENCH_OUT/rounds.txt"
