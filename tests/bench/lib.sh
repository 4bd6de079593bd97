# Shell helpers for the benchmarks (sourced), on the host or in a VM guest.
# shellcheck shell=bash
#
# A round runs one tracer around one workload:
#   tracer_start NAME READY CMD...   start CMD under measure, wait until READY
#   ...the workload...
#   tracer_stop NAME                 read its BPF programs' counters, SIGINT it
#   round_line KERNEL NAME ROUND UNITS UNIT PRINTED WANT
# (round_sys_start/_stop around the workload add the kernel's CPU time) and
# round_line prints the "ROUND ..." line tests/bench/summarize reads.
# bench_one does all of it; with BENCH_BESIDE, beside empty programs.
# BENCH_BIN: where measure and empty were built (build/bench).

BENCH_BIN=${BENCH_BIN:-build/bench}
BENCH_OUT=${BENCH_OUT:-${VM_SCRATCH:-/tmp}/bench}
mkdir -p "$BENCH_OUT"

# The kernel's own accounting of BPF run time (off again at exit).
bpf_stats_on() {
	sysctl -qw kernel.bpf_stats_enabled=1
	trap 'sysctl -qw kernel.bpf_stats_enabled=0' EXIT
}

# prog_list PID: "ID NS RUNS" of each BPF program PID holds open, by id,
# from their fdinfo (each program once, however many descriptors name it).
# One grep over all the descriptors: under TCG an awk per descriptor took
# seconds for a tracer's fifty. A program's own descriptor has prog_id and
# run_time_ns; a link's has prog_id alone, and is left out.
prog_list() {
	grep -s -E '^(prog_id|run_time_ns|run_cnt):' /proc/"$1"/fdinfo/* |
		awk -F'[:\t ]+' '$2 == "prog_id" { id[$1] = $3 } $2 == "run_time_ns" { ns[$1] = $3 }
			$2 == "run_cnt" { cnt[$1] = $3 }
			END { for (f in id) if (f in ns) print id[f], ns[f], cnt[f] + 0 }' |
		sort -u -k1,1n
}

# tracer_start NAME READY CMD...: CMD's output goes to $BENCH_OUT/NAME.out.
# Waits (up to 120 s) until a line containing READY appeared.
tracer_start() {
	local name=$1 ready=$2 out=$BENCH_OUT/$1.out i
	shift 2
	rm -f "$out" "$out".*
	"$BENCH_BIN/measure" -o "$out" -r "$ready" -- "$@" &
	eval "measure_pid_${name//[^a-zA-Z0-9]/_}=$!"
	for i in $(seq 1 1200); do
		[ -e "$out.ready" ] && return 0
		[ -e "$out.stats" ] && break    # exited before it was ready
		sleep 0.1
	done
	echo "bench: $name did not get ready: $(tail -3 "$out" 2>/dev/null)" >&2
	tracer_stop "$name"
	return 1
}

# list_sums OUT: OUT.ns and OUT.runs, the sums of OUT.list's programs.
list_sums() {
	awk -v ns="$1.ns" -v runs="$1.runs" '{ s += $2; c += $3 }
		END { print s + 0 >ns; print c + 0 >runs }' "$1.list"
}

# tracer_read NAME: the tracer's in-kernel time so far ($out.list, .ns, .runs).
tracer_read() {
	local out=$BENCH_OUT/$1.out pid
	pid=$(cat "$out.pid" 2>/dev/null)
	[ -n "$pid" ] && [ -e "/proc/$pid" ] || return 0
	prog_list "$pid" >"$out.list"
	list_sums "$out"
}

# tracer_since NAME: tracer_read, less what it read into $out.list0 (the
# programs' time over a window, in the same lines).
tracer_since() {
	local out=$BENCH_OUT/$1.out
	tracer_read "$1"
	[ -e "$out.list0" ] || return 0
	paste -d' ' "$out.list0" "$out.list" | awk 'NF == 6 { print $1, $5 - $2, $6 - $3 }' >"$out.delta"
	mv "$out.delta" "$out.list"
	list_sums "$out"
}

# tracer_stop NAME: the tracer's in-kernel time (unless tracer_read took
# it), then Ctrl-C and wait for it.
tracer_stop() {
	local name=$1 out=$BENCH_OUT/$1.out var pid i
	var=measure_pid_${name//[^a-zA-Z0-9]/_}
	pid=$(cat "$out.pid" 2>/dev/null)
	if [ -n "$pid" ] && [ -e "/proc/$pid" ]; then
		[ -e "$out.list" ] || tracer_read "$name"
		kill -INT "$pid" 2>/dev/null
	fi
	# Ctrl-C again every 2 s: bpftrace 0.17 can lose one (tests/lib.sh,
	# stop_bpftrace). A tracer still there a minute after the first is
	# killed, and said so: one stuck round must not hold up the benchmark.
	for i in $(seq 1 600); do
		kill -0 "${!var}" 2>/dev/null || break
		[ $((i % 20)) = 0 ] && [ -n "$pid" ] && kill -INT "$pid" 2>/dev/null
		sleep 0.1
	done
	if kill -0 "${!var}" 2>/dev/null; then
		echo "bench: $name did not end within 60 s of Ctrl-C: killed" >&2
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "${!var}" 2>/dev/null
}

# BENCH_BESIDE=(CMD...): the empty programs on the tool's hot hooks, run
# beside every tracer but "no tracer", through the same burst: their run
# time (beside_ns) is the limit measured at the same moment as the
# tracer's. Under qemu's TCG the speed of the whole guest moves by up to
# 2x from one burst to the next, and every program's ns with it; the ratio
# of two programs that ran on the same events does not. Where a hook runs
# several programs, the first to run pays for what the event left cold
# (drmsched's jobs on 6.1: the same empty programs cost 0.55 to 0.76 as
# much when second): two copies are loaded, one before the tracer and one
# after, so that the tracer runs between them in either order (a
# tracepoint runs its programs in the order they came, a kprobe the other
# way, a kretprobe the reverse of its kprobe): per program, the cheaper of
# its two copies, the one not run first, counts in the limit.
BENCH_BESIDE=()

# bench_run NAME READY CMD...: tracer_start (between the two copies of the
# empty programs beside, if any), the caller's `workload` function between
# round_sys_start and round_sys_stop, tracer_stop; 1 when the tracer did
# not get ready.
bench_run() {
	local name=$1 ready=$2 beside=0 n
	shift 2
	rm -f "$BENCH_OUT/beside.out.ns" "$BENCH_OUT/beside.out.total"
	if [ ${#BENCH_BESIDE[@]} -gt 0 ] && [ "$name" != "no tracer" ]; then
		tracer_start beside_before ready "${BENCH_BESIDE[@]}" || return 1
		beside=1
	fi
	if ! tracer_start "$name" "$ready" "$@"; then
		[ $beside = 0 ] || tracer_stop beside_before
		return 1
	fi
	if [ $beside = 1 ] && ! tracer_start beside_after ready "${BENCH_BESIDE[@]}"; then
		tracer_stop "$name"
		tracer_stop beside_before
		return 1
	fi
	# With copies beside, all three over the same window, the workload's:
	# the copies live longer, and a hook may fire outside the workload
	# (vblank's off-delay).
	if [ $beside = 1 ]; then
		for n in beside_before "$name" beside_after; do
			tracer_read "$n"
			mv "$BENCH_OUT/$n.out.list" "$BENCH_OUT/$n.out.list0"
		done
	fi
	round_sys_start
	workload
	round_sys_stop
	if [ $beside = 1 ]; then
		for n in beside_before "$name" beside_after; do tracer_since "$n"; done
	fi
	tracer_stop "$name"
	if [ $beside = 1 ]; then
		tracer_stop beside_before
		tracer_stop beside_after
		# The copies' programs by id: loaded from one object in one order.
		paste -d' ' "$BENCH_OUT/beside_before.out.list" "$BENCH_OUT/beside_after.out.list" |
			awk -v min="$BENCH_OUT/beside.out.ns" -v total="$BENCH_OUT/beside.out.total" \
				'NF == 6 { m += $2 < $5 ? $2 : $5; t += $2 + $5 } END { print m + 0 >min; print t + 0 >total }'
	fi
}

# bench_one NAME READY PRINTED CMD...: one tracer around one workload
# (bench_run) and its ROUND line. PRINTED: "" (the tracer prints nothing
# per event), "summary" or "summaries" (the caller's bench_counted KIND
# FILE reads what was counted from the tracer's tables), else a pattern
# matching one line of output per event. The caller sets K (the table's
# kernel), r (the round), BENCH_UNITS and BENCH_UNIT (events and their
# name), BENCH_WANT (what an exact tracer prints). BENCH_PER_RUN=1: the
# units are the runs of the tracer's programs instead (each hook's firing
# that its programs saw), for a workload whose events the kernel also
# fires outside it (the vblank interrupt's off-delay after a client).
bench_one() {
	local name=$1 ready=$2 pattern=$3 printed=- want=- out=$BENCH_OUT/$1.out units=$BENCH_UNITS
	shift 3
	bench_run "$name" "$ready" "$@" || return
	if [ "${BENCH_PER_RUN:-0}" = 1 ] && [ "$(cat "$out.runs" 2>/dev/null || echo 0)" -gt 0 ]; then
		units=$(cat "$out.runs")
	fi
	case "$pattern" in
	"") ;;
	summary | summaries) printed=$(bench_counted "$pattern" "$out"); want=$BENCH_WANT ;;
	*) printed=$(grep -c -- "$pattern" "$out"); want=$BENCH_WANT ;;
	esac
	round_line "$K" "$name" "$r" "$units" "$BENCH_UNIT" "${printed:-0}" "$want"
}

# kernel_has_spares: whether drmsched and amdgpucs load spare programs on
# this kernel (after 6.12: tool_choose_spares()), for a row without them.
kernel_has_spares() {
	case "$(uname -r)" in
	[0-5].* | 6.[0-9].* | 6.1[0-2].*) return 1 ;;
	esac
	return 0
}

# sys_ticks: the CPU time all CPUs spent in the kernel (system, irq,
# softirq) so far, in USER_HZ ticks: around a workload it counts what the
# tracer costs outside its BPF programs too (a classic tracepoint's record,
# built for every event, is not in run_time_ns).
sys_ticks() { awk '$1 == "cpu" { print $4 + $7 + $8; exit }' /proc/stat; }

# round_sys_start / round_sys_stop: the kernel CPU ms of what ran between them.
round_sys_start() { round_sys0=$(sys_ticks); }
round_sys_stop() { round_sys_ms=$(( ($(sys_ticks) - round_sys0) * 1000 / $(getconf CLK_TCK) )); }

# field FILE KEY: KEY=VALUE from a measure stats line.
field() { sed -n "s/.*\<$2=\([^ ]*\).*/\1/p" "$1" 2>/dev/null; }

# round_line KERNEL NAME ROUND UNITS UNIT PRINTED WANT
round_line() {
	local out=$BENCH_OUT/$2.out lost
	lost=$(grep -o '[0-9]* events lost' "$out" | head -1 | cut -d' ' -f1)
	# bpftrace: "Lost N events"
	[ -z "$lost" ] && lost=$(grep -o 'Lost [0-9]* events' "$out" | awk '{ s += $2 } END { print s + 0 }')
	# summarize splits on blanks: a tracer name's blanks travel as "~".
	echo "ROUND kernel=$1 tracer=${2// /\~} round=$3 units=$4 unit=$5 kernel_ns=$(cat "$out.ns" 2>/dev/null || echo -)" \
		"cpu_ms=$(field "$out.stats" cpu_ms) attach_ms=$(field "$out.stats" attach_ms)" \
		"rss_kb=$(field "$out.stats" maxrss_kb) sys_ms=${round_sys_ms:--} lost=${lost:-0} printed=$6 want=$7" \
		"beside_ns=$(cat "$BENCH_OUT/beside.out.ns" 2>/dev/null || echo -)" \
		"beside_total_ns=$(cat "$BENCH_OUT/beside.out.total" 2>/dev/null || echo -)"
}
