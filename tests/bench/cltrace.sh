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
# table; asserts nothing.
set -u
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source=tests/bench/lib.sh disable=SC1091
. tests/bench/lib.sh
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-20000}
W=build/tests/opencl/clbench
K=$(uname -r)

die() { echo "bench: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "cltrace.sh: run as root (BPF)"
for f in bin/cltrace $W "$BENCH_BIN/measure" "$BENCH_BIN/empty"; do
	[ -x "$f" ] || die "$f is not built (make all unit-tests bench-progs)"
done
# A uprobe and a uretprobe that do nothing: cudatrace's serve any function.
[ -r "$BENCH_BIN/empty_cuda.bpf.o" ] || die "$BENCH_BIN/empty_cuda.bpf.o is not built (make bench-progs)"
command -v bpftrace >/dev/null || die "no bpftrace (apt-get install -y bpftrace)"
case "$ROUNDS$CALLS" in *[!0-9]*) die "ROUNDS and CALLS must be numbers" ;; esac
if [ "$ROUNDS" -lt 1 ] || [ "$CALLS" -lt 4 ]; then die "ROUNDS >= 1 and CALLS >= 4"; fi
batches=$((CALLS / 4))
units=$((batches * 4))

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

# start_workload: the workload, set up, then waiting for $BENCH_OUT/go
# before its calls and for $BENCH_OUT/done after them; wl_pid is its PID.
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

# What cltrace attaches for this workload: its start-up line
# "cltrace: OpenCL in LIB: N functions: F...; M more counted" and, under
# -v, "cltrace: LIB: also: F..." (the M).
start_workload
bin/cltrace -v -p "$wl_pid" >/dev/null 2>"$BENCH_OUT/probe.err" &
probe_pid=$!
for _ in $(seq 1 300); do
	if grep -qs ' functions: ' "$BENCH_OUT/probe.err"; then
		grep -qs ' functions: .* more counted' "$BENCH_OUT/probe.err" || break
		grep -qs '^cltrace: .*: also: ' "$BENCH_OUT/probe.err" && break
	fi
	kill -0 $probe_pid 2>/dev/null || break
	sleep 0.1
done
kill -INT $probe_pid 2>/dev/null
wait $probe_pid
stop_workload
line=$(grep -m1 '^cltrace: OpenCL in .*: [0-9]* functions: ' "$BENCH_OUT/probe.err")
re='^cltrace: OpenCL in (.*): [0-9]+ functions: ([^;]*)'
[[ $line =~ $re ]] || die "cltrace attached nothing: $(grep -v '^libbpf: ' "$BENCH_OUT/probe.err")"
lib=${BASH_REMATCH[1]}
read -ra funcs <<<"${BASH_REMATCH[2]}"
also=$(grep -m1 -F "cltrace: $lib: also: " "$BENCH_OUT/probe.err" | sed 's/^.*: also: //')
if [[ $line == *" more counted"* ]]; then
	[ -n "$also" ] || die "cltrace -v did not name the functions it counts: $line"
	read -ra more <<<"$also"
	funcs+=("${more[@]}")
fi
echo "bench: $ROUNDS rounds of $units calls; every tracer on the ${#funcs[@]} functions cltrace probes in $lib" >&2

empty_args=()
for f in "${funcs[@]}"; do
	empty_args+=("enter=$lib:$f" "leave=$lib:$f")
done

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
	for f in "${funcs[@]}"; do
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
			echo "uprobe:$lib:$f /pid == \$1/ { @start[$k] = nsecs; @e[$k] = arg$((e - 1)); }"
			echo "uretprobe:$lib:$f /@start[$k]/ {"
			echo "	\$us = (nsecs - @start[$k]) / 1000; \$r = (int64)0;"
			echo "	if (@e[$k] != 0) { \$r = (int64)*uptr((int32 *)@e[$k]); } else { if (retval == 0) { \$r = -1000000; } }"
			echo "	printf(\"%d %s %dus %s\\n\", pid, \"$f\", \$us, @res[\$r]);"
		else
			echo "uprobe:$lib:$f /pid == \$1/ { @start[$k] = nsecs; }"
			echo "uretprobe:$lib:$f /@start[$k]/ {"
			echo "	\$us = (nsecs - @start[$k]) / 1000;"
			echo "	printf(\"%d %s %dus %s\\n\", pid, \"$f\", \$us, @res[(int64)(int32)retval]);"
		fi
		echo "	@calls[$id] = count(); @lat_us[$id] = hist(\$us);"
		echo "	delete(@start[$k]);${e:+ delete(@e[$k]);}"
		echo "}"
	done
	echo 'END { clear(@res); clear(@start); clear(@e); }'
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
	summary) printed=$(awk 'NF == 6 && $1 ~ /^cl/ && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$out") ;;
	lines) printed=$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $5 ~ /^cl/' "$out" | wc -l) ;;
	monitor) printed=$(grep -cE '^[0-9]+ cl[A-Za-z0-9_]+ ' "$out") ;;
	esac
	[ "$what" = - ] || want=$units
	round_line "$K" "$name" "$r" "$units" call "$printed" "$want" | tee -a "$BENCH_OUT/rounds.txt"
}

: >"$BENCH_OUT/rounds.txt"
for r in $(seq 1 "$ROUNDS"); do
	echo "bench: round $r of $ROUNDS" >&2
	one empty ready - "$BENCH_BIN/empty" "$BENCH_BIN/empty_cuda.bpf.o" "${empty_args[@]}"
	one cltrace Tracing summary bin/cltrace -p PID
	one "cltrace -e" "TIME(s)" lines bin/cltrace -e -p PID
	one "bpftrace (OpenCL monitor)" ready monitor bpftrace -p PID "$mon" PID
done
echo
echo "$(date -u +%Y-%m-%d): tests/bench/cltrace.sh, $ROUNDS interleaved rounds of $units calls"
tests/bench/summarize "$BENCH_OUT/rounds.txt"
