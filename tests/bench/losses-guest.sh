#!/usr/bin/env bash
# In a VM: do drmsched and amdgpucs lose a job's run or done, at bursts on
# two rings of the kernel's real DRM scheduler? RUNS runs per tool, each
# one tool (-j) around JOBS jobs on each of two rings (schedgen for
# drmsched, amdgen for amdgpucs), exec 0 us. Per run, one line:
#
#   LOSS KVER TOOL run=N want=W queued=Q run=R done=D kernel=[PROG=MISSES ...] said=N
#
# kernel=: each program's recursion_misses as bpftool read it before the
# tool stopped (a primary's misses its spare took are not lost: tool.bpf.h);
# said=: the events the tool reported not traced. A run is exact when Q, R
# and D are each W; otherwise the shortfall must be what it said. The last
# line counts the runs: "LOSSES KVER TOOL runs=N exact=E reported=P wrong=X".
# Asserts nothing (tests/run does not run it): tests/bench/run --kernel sid
# with BENCH_TOOLS=losses.
set -u
cd "$(dirname "$0")/../.." || exit 1
RUNS=${RUNS:-50}
JOBS=${JOBS:-5000}
out=${VM_SCRATCH:-/tmp}/losses
mkdir -p "$out"
$VM_MODPROBE gpu-sched

# one_run TOOL CTL RINGS N: TOOL -j around one burst on both RINGS through CTL.
one_run() {
	local tool=$1 ctl=$2 r1=${3%,*} r2=${3#*,} n=$4 pid i counts said
	"bin/$tool" -j >"$out/j" 2>"$out/err" &
	pid=$!
	for i in $(seq 300); do
		[ -s "$out/j" ] || grep -q 'Hit Ctrl-C' "$out/err" 2>/dev/null && break
		sleep 0.1
	done
	printf 'submit ring=%s jobs=%s exec_us=0\nsubmit ring=%s jobs=%s exec_us=0\n' \
		"$r1" "$JOBS" "$r2" "$JOBS" >"$ctl"
	echo "wait timeout_ms=600000" >"$ctl"
	bpftool prog show -j | jq -r '[.[] | select((.recursion_misses // 0) > 0)
		| "\(.name)=\(.recursion_misses)"] | join(" ")' >"$out/misses"
	kill -INT "$pid"
	wait "$pid"
	if [ "$tool" = drmsched ]; then
		counts=$(jq -r 'select(.type == "ring") | "\(.queued) \(.run) \(.done)"' "$out/j")
	else
		counts=$(jq -r 'select(.type == "submission") | "\(.submits) \(.run) \(.done)"' "$out/j")
	fi
	counts=$(awk '{ q += $1; r += $2; d += $3 } END { print q + 0, r + 0, d + 0 }' <<<"$counts")
	said=$(sed -n 's/.*: \([0-9]*\) events not traced.*/\1/p' "$out/err")
	set -- $counts
	echo "LOSS $VM_KVER $tool run=$n want=$((2 * JOBS)) queued=$1 run=$2 done=$3" \
		"kernel=[$(cat "$out/misses")] said=${said:-0}"
}

# losses TOOL CTL RINGS: RUNS runs, then the count of exact, reported and wrong ones.
losses() {
	local tool=$1 ctl=$2 rings=$3 n line exact=0 reported=0 wrong=0
	for n in $(seq "$RUNS"); do
		line=$(one_run "$tool" "$ctl" "$rings" "$n")
		echo "$line"
		awk '{ for (i = 4; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
			short = 3 * v["want"] - v["queued"] - v["run"] - v["done"]
			exit short == 0 ? 0 : (short == v["said"] ? 1 : 2) }' <<<"$line"
		case $? in
		0) exact=$((exact + 1)) ;;
		1) reported=$((reported + 1)) ;;
		*) wrong=$((wrong + 1)) ;;
		esac
	done
	echo "LOSSES $VM_KVER $tool runs=$RUNS exact=$exact reported=$reported wrong=$wrong"
}

insmod "${SCHEDGEN_KO:?}" rings=gfx,compute credits=64 || exit 1
losses drmsched /proc/schedgen gfx,compute
rmmod schedgen
insmod "${AMDGEN_KO:?}" rings=gfx,sdma credits=64 || exit 1
losses amdgpucs /proc/amdgen gfx,sdma
rmmod amdgen
