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
# and round, then tests/bench/summarize's table; asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-20000}
D=build/tests/cuda
K=$(uname -r)

die() { echo "bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "cudatrace.sh: run as root (BPF)"
for f in bin/cudatrace $D/workload "$BENCH_BIN/measure" "$BENCH_BIN/empty"; do
	[ -x "$f" ] || die "$f is not built (make all unit-tests bench-progs)"
done
[ -r "$BENCH_BIN/empty_cuda.bpf.o" ] || die "$BENCH_BIN/empty_cuda.bpf.o is not built (make bench-progs)"
command -v bpftrace >/dev/null || die "no bpftrace (apt-get install -y bpftrace)"
case "$ROUNDS$CALLS" in *[!0-9]*) die "ROUNDS and CALLS must be numbers" ;; esac
if [ "$ROUNDS" -lt 1 ] || [ "$CALLS" -lt 4 ]; then die "ROUNDS >= 1 and CALLS >= 4"; fi
batches=$((CALLS / 4))
units=$((batches * 4 + 1))	# + the one cuModuleGetFunction

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

# start_workload: the workload, waiting for $BENCH_OUT/go before its calls
# and for $BENCH_OUT/done after them; wl_pid is its PID.
start_workload() {
	rm -f "$BENCH_OUT/go" "$BENCH_OUT/done"
	$D/workload --wait "$BENCH_OUT/go" batches "$batches" --wait "$BENCH_OUT/done" \
		>"$BENCH_OUT/workload.out" 2>&1 &
	wl_pid=$!
	for _ in $(seq 1 500); do
		grep -qs '^waiting' "$BENCH_OUT/workload.out" && return 0
		sleep 0.01
	done
	die "the workload did not start: $(cat "$BENCH_OUT/workload.out")"
}

# What cudatrace attaches for this workload: its start-up line
# "cudatrace: driver API in LIB: N functions: F...[; M more counted]" and,
# under -v, "cudatrace: LIB: also: F..." (the M).
start_workload
bin/cudatrace -v -p "$wl_pid" >/dev/null 2>"$BENCH_OUT/probe.err" &
probe_pid=$!
for _ in $(seq 1 300); do
	if grep -qs ' functions: ' "$BENCH_OUT/probe.err"; then
		grep -qs ' functions: .* more counted' "$BENCH_OUT/probe.err" || break
		grep -qs '^cudatrace: .*: also: ' "$BENCH_OUT/probe.err" && break
	fi
	kill -0 $probe_pid 2>/dev/null || break
	sleep 0.1
done
kill -INT $probe_pid 2>/dev/null
wait $probe_pid
stop_workload
line=$(grep -m1 '^cudatrace: driver API in .*: [0-9]* functions: ' "$BENCH_OUT/probe.err")
re='^cudatrace: driver API in (.*): [0-9]+ functions: ([^;]*)'
[[ $line =~ $re ]] || die "cudatrace attached nothing: $(grep -v '^libbpf: ' "$BENCH_OUT/probe.err")"
lib=${BASH_REMATCH[1]}
read -ra funcs <<<"${BASH_REMATCH[2]}"
also=$(grep -m1 -F "cudatrace: $lib: also: " "$BENCH_OUT/probe.err" | sed 's/^.*: also: //')
if [[ $line == *" more counted"* ]]; then
	[ -n "$also" ] || die "cudatrace -v did not name the functions it counts: $line"
	read -ra more <<<"$also"
	funcs+=("${more[@]}")
fi
echo "bench: $ROUNDS rounds of $units calls; every tracer on the ${#funcs[@]} functions cudatrace probes in $lib" >&2

empty_args=()
for f in "${funcs[@]}"; do
	empty_args+=("enter=$lib:$f" "leave=$lib:$f")
done

# The seed's monitor in bpftrace, generated for those functions: the SIZE
# each prints is its size argument (allocations, copies), the size of the
# allocation it frees (frees), or "-". Results by name: the CUresults the
# workload can see. Calls and histograms are keyed by the function's number
# (its place in cudatrace's list), not its name: bpftrace 0.17 stores a
# histogram's bucket after a string key unaligned when the key's length is
# not a multiple of 8, and the verifier rejects the program.
seed=$BENCH_OUT/seed003.bt
{
	echo 'BEGIN {'
	echo '	@res[0] = "CUDA_SUCCESS"; @res[1] = "CUDA_ERROR_INVALID_VALUE";'
	echo '	@res[2] = "CUDA_ERROR_OUT_OF_MEMORY"; @res[400] = "CUDA_ERROR_INVALID_HANDLE";'
	echo '	@res[500] = "CUDA_ERROR_NOT_FOUND"; @res[719] = "CUDA_ERROR_LAUNCH_FAILED";'
	echo '	printf("ready\n");'
	echo '}'
	id=0
	for f in "${funcs[@]}"; do
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
		echo "uprobe:$lib:$f { @start[$k] = nsecs; $entry }"
		echo "uretprobe:$lib:$f /@start[$k]/ {"
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
} >"$seed"

# one NAME READY PRINTED CMD...: one tracer around one burst. CMD's "PID"
# words become the workload's PID. PRINTED counts what the tracer printed
# of the calls: "-" (nothing), "summary" (the CALLS column), "lines" (-e),
# "seed" (the bpftrace script's lines).
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
	wait "$wl_pid"
	wl_pid=
	case "$what" in
	summary) printed=$(awk 'NF == 6 && $1 ~ /^cu/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$out") ;;
	lines) printed=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $5 ~ /^cu/' "$out" | wc -l) ;;
	seed) printed=$(grep -cE '^[0-9]+ cu[A-Za-z0-9_]+ ' "$out") ;;
	esac
	[ "$what" = - ] || want=$units
	round_line "$K" "$name" "$r" "$units" call "$printed" "$want" | tee -a "$BENCH_OUT/rounds.txt"
}

: >"$BENCH_OUT/rounds.txt"
for r in $(seq 1 "$ROUNDS"); do
	echo "bench: round $r of $ROUNDS" >&2
	one empty ready - "$BENCH_BIN/empty" "$BENCH_BIN/empty_cuda.bpf.o" "${empty_args[@]}"
	one cudatrace Tracing summary bin/cudatrace -p PID
	one "cudatrace -e" "TIME(s)" lines bin/cudatrace -e -p PID
	one "bpftrace (CUDA monitor)" ready seed bpftrace -p PID "$seed"
done
echo
echo "$(date -u +%Y-%m-%d): tests/bench/cudatrace.sh, $ROUNDS interleaved rounds of $units calls"
tests/bench/summarize "$BENCH_OUT/rounds.txt"
