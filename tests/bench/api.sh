# The compute-API tracers' benchmark harness (sourced by cudatrace.sh,
# hiptrace.sh, zetrace.sh and cltrace.sh, from the top of the tree), on
# this machine's kernel (host uprobes). Each script names its tracer, its
# workload and its bpftrace peer; the rest is the same for all four:
#
#   api_init TOOL WORKLOAD EXTRA   checks; a burst is CALLS calls (default
#                                  20000) in batches of four, plus the EXTRA
#                                  calls WORKLOAD makes beside the batches
#   api_functions WHAT             API_LIB and API_FUNCS: what TOOL attaches
#                                  for WORKLOAD
#   api_rounds NAMES PEER CMD...   ROUNDS (default 5) rounds of "empty",
#                                  TOOL, "TOOL -e" and PEER (bpftrace, CMD),
#                                  then tests/bench/summarize's table
#
# WORKLOAD --wait GO batches N --wait DONE makes its calls once GO exists
# and waits again, so the tracer's BPF run time is read (lib.sh) before it
# is stopped, and exits once DONE exists. Every tracer is attached to the
# functions TOOL attaches for the workload.
# shellcheck shell=bash

# shellcheck source=tests/bench/lib.sh disable=SC1091
. tests/bench/lib.sh

die() { echo "bench: $*" >&2; exit 1; }

# api_init TOOL WORKLOAD EXTRA: what the rounds need is built and BPF
# statistics are on (off again at exit, the workload killed first).
api_init() {
	local f
	api_tool=$1 api_workload=$2
	ROUNDS=${ROUNDS:-5}
	CALLS=${CALLS:-20000}
	# Keyed by tool: each has its own empty programs, its own table.
	K=$(uname -r)/$api_tool
	[ "$(id -u)" = 0 ] || die "$api_tool.sh: run as root (BPF)"
	for f in "bin/$api_tool" "$api_workload" "$BENCH_BIN/measure" "$BENCH_BIN/empty"; do
		[ -x "$f" ] || die "$f is not built (make all unit-tests bench-progs)"
	done
	# A uprobe and a uretprobe that do nothing: cudatrace's serve any function.
	[ -r "$BENCH_BIN/empty_cuda.bpf.o" ] || die "$BENCH_BIN/empty_cuda.bpf.o is not built (make bench-progs)"
	command -v bpftrace >/dev/null || die "no bpftrace (apt-get install -y bpftrace)"
	case "$ROUNDS$CALLS" in *[!0-9]*) die "ROUNDS and CALLS must be numbers" ;; esac
	if [ "$ROUNDS" -lt 1 ] || [ "$CALLS" -lt 4 ]; then die "ROUNDS >= 1 and CALLS >= 4"; fi
	api_batches=$((CALLS / 4))
	api_units=$((api_batches * 4 + $3))

	bpf_stats_on
	wl_pid=
	# lib.sh's EXIT trap turns BPF statistics off again: keep it (expanded
	# now), kill the workload first.
	# shellcheck disable=SC2064
	trap "stop_workload; $(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/")" EXIT
}

stop_workload() {
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null && wait "$wl_pid" 2>/dev/null
	wl_pid=
}

# start_workload: the workload, waiting for $BENCH_OUT/go before its calls
# and for $BENCH_OUT/done after them; wl_pid is its PID.
start_workload() {
	rm -f "$BENCH_OUT/go" "$BENCH_OUT/done"
	"$api_workload" --wait "$BENCH_OUT/go" batches "$api_batches" --wait "$BENCH_OUT/done" \
		>"$BENCH_OUT/workload.out" 2>&1 &
	wl_pid=$!
	for _ in $(seq 1 1000); do
		grep -qs '^waiting' "$BENCH_OUT/workload.out" && return 0
		kill -0 "$wl_pid" 2>/dev/null || break
		sleep 0.01
	done
	die "the workload did not start: $(cat "$BENCH_OUT/workload.out")"
}

# api_functions WHAT: what TOOL attaches for the workload, from its start-up
# line "TOOL: WHAT in LIB: N functions: F...[; M more counted]" and, under
# -v, "TOOL: LIB: also: F..." (the M): API_LIB, and API_FUNCS the Fs then
# the Ms.
api_functions() {
	local what=$1 probe_pid line re also more f
	start_workload
	"bin/$api_tool" -v -p "$wl_pid" >/dev/null 2>"$BENCH_OUT/probe.err" &
	probe_pid=$!
	for _ in $(seq 1 300); do
		if grep -qs ' functions: ' "$BENCH_OUT/probe.err"; then
			grep -qs ' functions: .* more counted' "$BENCH_OUT/probe.err" || break
			grep -qs "^$api_tool: .*: also: " "$BENCH_OUT/probe.err" && break
		fi
		kill -0 $probe_pid 2>/dev/null || break
		sleep 0.1
	done
	kill -INT $probe_pid 2>/dev/null
	wait $probe_pid
	stop_workload
	line=$(grep -m1 "^$api_tool: $what in .*: [0-9]* functions: " "$BENCH_OUT/probe.err")
	re="^$api_tool: $what in (.*): [0-9]+ functions: ([^;]*)"
	[[ $line =~ $re ]] || die "$api_tool attached nothing: $(grep -v '^libbpf: ' "$BENCH_OUT/probe.err")"
	API_LIB=${BASH_REMATCH[1]}
	read -ra API_FUNCS <<<"${BASH_REMATCH[2]}"
	also=$(grep -m1 -F "$api_tool: $API_LIB: also: " "$BENCH_OUT/probe.err" | sed 's/^.*: also: //')
	if [[ $line == *" more counted"* ]]; then
		[ -n "$also" ] || die "$api_tool -v did not name the functions it counts: $line"
		read -ra more <<<"$also"
		API_FUNCS+=("${more[@]}")
	fi
	echo "bench: $ROUNDS rounds of $api_units calls; every tracer on the ${#API_FUNCS[@]} functions $api_tool probes in $API_LIB" >&2

	api_empty_args=()
	for f in "${API_FUNCS[@]}"; do
		api_empty_args+=("enter=$API_LIB:$f" "leave=$API_LIB:$f")
	done
}

# api_one NAME READY PRINTED CMD...: one tracer around one burst. CMD's
# "PID" words become the workload's PID. PRINTED counts what the tracer
# printed of the calls: "-" (nothing), "summary" (the CALLS column),
# "lines" (-e), "monitor" (the bpftrace peer's lines), each a line whose
# function's name matches api_names.
api_one() {
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
	summary) printed=$(awk -v fn="^$api_names" 'NF == 6 && $1 ~ fn && $2 ~ /^[0-9]+$/ { s += $2 } END { print s + 0 }' "$out") ;;
	lines) printed=$(awk -v fn="^$api_names" '$1 ~ /^[0-9]+\.[0-9]+$/ && $5 ~ fn' "$out" | wc -l) ;;
	monitor) printed=$(grep -cE "^[0-9]+ ${api_names}[A-Za-z0-9_]* " "$out") ;;
	esac
	[ "$what" = - ] || want=$api_units
	round_line "$K" "$name" "$r" "$api_units" call "$printed" "$want" | tee -a "$BENCH_OUT/rounds.txt"
}

# api_rounds NAMES PEER CMD...: the rounds, each tracer in turn around one
# burst, PEER running CMD. NAMES: an extended regular expression the names
# of the traced functions start with (and the tracer's other lines do not).
api_rounds() {
	local peer=$2 r
	api_names=$1
	shift 2
	: >"$BENCH_OUT/rounds.txt"
	for r in $(seq 1 "$ROUNDS"); do
		echo "bench: round $r of $ROUNDS" >&2
		api_one empty ready - "$BENCH_BIN/empty" "$BENCH_BIN/empty_cuda.bpf.o" "${api_empty_args[@]}"
		api_one "$api_tool" Tracing summary "bin/$api_tool" -p PID
		api_one "$api_tool -e" "TIME(s)" lines "bin/$api_tool" -e -p PID
		api_one "$peer" ready monitor "$@"
	done
	echo
	echo "$(date -u +%Y-%m-%d): tests/bench/$api_tool.sh, $ROUNDS interleaved rounds of $api_units calls"
	tests/bench/summarize "$BENCH_OUT/rounds.txt"
}
