#!/usr/bin/env bash
# tests/kmod/check-guest.sh [REPEAT]: schedgen's own checks, in a VM booted by
# tests/kmod/check (as root, with gpu-sched loadable and SCHEDGEN_KO set).
#
# Runs each workload REPEAT times (default 3), each time on a freshly loaded
# schedgen with the gpu_scheduler tracepoints on (tracefs), and prints the
# events counted per ring, one line per run:
#   WORKLOAD credits=C: EVENT RING=N ... | run->done avg per ring in µs
# then checks the counts that must be exact (PASS/FAIL lines), the command
# language's errors, and rmmod with jobs in flight; ends with
# "N passed, N failed".
set -u
REPEAT=${1:-3}
T=/sys/kernel/tracing
S=${VM_SCRATCH:-/tmp}
KO=${SCHEDGEN_KO:?SCHEDGEN_KO: the module built for this kernel}
passed=0 failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }

$VM_MODPROBE gpu-sched || { echo "FAIL modprobe gpu-sched"; exit 1; }
if [ -e $T/events/gpu_scheduler/drm_sched_job_queue ]; then
	ev_queue=drm_sched_job_queue ev_run=drm_sched_job_run ev_done=drm_sched_job_done
	ev_dep=drm_sched_job_add_dep ev_unsched=drm_sched_job_unschedulable
else
	ev_queue=drm_sched_job ev_run=drm_run_job ev_done=drm_sched_process_job
	ev_dep=drm_sched_job_wait_dep ev_unsched=
fi
echo 16384 >$T/buffer_size_kb

load() { insmod "$KO" rings=gfx,compute "$@"; }
unload() { rmmod schedgen; }

# The events of the trace in $1, per ring: "EVENT RING COUNT" lines, and
# "exec RING AVG_US" (run -> done). Jobs are keyed by their finished fence:
# the pointer on <= 6.16 (reused only after the job is freed: the latest
# queue event wins), context:seqno on >= 6.17.
count_events() {
	grep -v '^#' "$1" | awk '
	{
		ev = ""; ts = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = $i + 0; ev = $(i + 1); sub(/:$/, "", ev); break }
		if (ev == "") next
		ring = ""; if (match($0, /ring=[^ ,]+/)) ring = substr($0, RSTART + 5, RLENGTH - 5)
		fence = ""; if (match($0, /fence=[0-9a-fx:]+/)) fence = substr($0, RSTART + 6, RLENGTH - 6)
		if (ev == "drm_sched_job" || ev == "drm_sched_job_queue") ring_of[fence] = ring
		if (ring == "") ring = (fence in ring_of) ? ring_of[fence] : "?"
		n[ev " " ring]++
		if (ev == "drm_run_job" || ev == "drm_sched_job_run") start[fence] = ts
		if ((ev == "drm_sched_process_job" || ev == "drm_sched_job_done") && (fence in start)) {
			sum[ring] += ts - start[fence]; cnt[ring]++; delete start[fence]
		}
	}
	END {
		for (k in n) print k, n[k]
		for (r in cnt) printf "exec %s %.0f\n", r, sum[r] / cnt[r] * 1e6
	}' | sort
}

# run NAME CREDITS CMD...: one workload on a fresh module; prints its line and
# leaves the counts in $S/counts.
run() {
	local name=$1 credits=$2 c line ev r
	shift 2
	load credits="$credits" || { fail "$name: insmod credits=$credits"; return; }
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/gpu_scheduler/enable
	echo 1 >$T/tracing_on
	for c in "$@"; do
		if [ "$c" = "&" ]; then wait; continue; fi    # "&": wait for the background writers
		if [ "${c:0:1}" = "&" ]; then echo "${c:1}" >/proc/schedgen & continue; fi
		echo "$c" >/proc/schedgen || fail "$name: '$c' failed"
	done
	wait
	echo wait >/proc/schedgen || fail "$name: wait failed"
	echo 0 >$T/tracing_on
	echo 0 >$T/events/gpu_scheduler/enable
	cp $T/trace "$S/trace.$name.$credits"
	count_events "$S/trace.$name.$credits" >"$S/counts"
	cat /proc/schedgen >"$S/status"
	unload || fail "$name: rmmod"
	line="$name credits=$credits:"
	for ev in $ev_queue $ev_run $ev_done $ev_dep $ev_unsched; do
		line+=" $ev"
		for r in gfx compute '?'; do
			c=$(awk -v k="$ev $r" '$1 " " $2 == k { print $3 }' "$S/counts")
			[ -n "$c" ] && line+=" $r=$c"
		done
	done
	line+=" | run->done avg:"
	line+=$(awk '$1 == "exec" { printf " %s=%sus", $2, $3 }' "$S/counts")
	echo "$line"
}

# n EVENT RING: the count of the last run (0 when none).
n() { awk -v k="$1 $2" '$1 " " $2 == k { c = $3 } END { print c + 0 }' "$S/counts"; }

# expect NAME CREDITS "CMD..." -- EVENT RING N ...: REPEAT runs, each must
# have exactly these counts; prints every run's line.
expect() {
	local name=$1 credits=$2 cmds=() i ok want
	shift 2
	while [ "$1" != "--" ]; do cmds+=("$1"); shift; done
	shift
	want=("$@")
	ok=0
	for i in $(seq "$REPEAT"); do
		run "$name" "$credits" "${cmds[@]}"
		local j bad=""
		for ((j = 0; j < ${#want[@]}; j += 3)); do
			[ -z "${want[j]}" ] && continue
			local got
			got=$(n "${want[j]}" "${want[j + 1]}")
			[ "$got" = "${want[j + 2]}" ] || bad+=" ${want[j]} ${want[j + 1]}=$got (want ${want[j + 2]})"
		done
		if [ -z "$bad" ]; then ok=$((ok + 1)); else echo "  run $i:$bad"; fi
	done
	check_eq "$name credits=$credits: exact counts in $REPEAT of $REPEAT runs" "$ok" "$REPEAT"
}

# Only the dependency events the kernel has (6.1: no unschedulable event).
U=$ev_unsched

for cr in 1 4; do
	expect none "$cr" "submit ring=gfx jobs=10 exec_us=2000" -- \
		$ev_queue gfx 10 $ev_run gfx 10 $ev_done gfx 10 $ev_dep gfx 0 "$U" gfx 0
	# Same-entity dependencies never block: the scheduler skips (>= 6.17) or
	# only waits for the previous job to be scheduled (6.1).
	expect chain "$cr" "submit ring=gfx jobs=10 exec_us=2000 deps=chain" -- \
		$ev_queue gfx 10 $ev_run gfx 10 $ev_done gfx 10 $ev_dep gfx 9 "$U" gfx 0
	# compute's first job blocks on gfx's last (gfx takes >= 20 ms, compute is
	# submitted right after): one unschedulable; the others find it signalled.
	expect ring "$cr" "submit ring=gfx jobs=10 exec_us=2000 deps=chain" \
		"submit ring=compute jobs=5 exec_us=1000 deps=ring:gfx" -- \
		$ev_queue gfx 10 $ev_run gfx 10 $ev_done gfx 10 $ev_dep gfx 9 \
		$ev_queue compute 5 $ev_run compute 5 $ev_done compute 5 $ev_dep compute 5 \
		"$U" gfx 0 "$U" compute 1
	# A dependency on a job already finished is still added (and traced).
	expect ring-done "$cr" "submit ring=gfx jobs=2 exec_us=1000" "wait" \
		"submit ring=compute jobs=5 exec_us=1000 deps=ring:gfx" -- \
		$ev_queue gfx 2 $ev_done gfx 2 $ev_queue compute 5 $ev_run compute 5 $ev_done compute 5 \
		$ev_dep compute 5 "$U" compute 0
	# Nothing submitted on gfx yet: no dependency.
	expect ring-empty "$cr" "submit ring=compute jobs=3 exec_us=1000 deps=ring:gfx" -- \
		$ev_queue compute 3 $ev_run compute 3 $ev_done compute 3 $ev_dep compute 0 "$U" compute 0
	# Many short jobs, and two writers on one ring at once.
	expect many "$cr" "submit ring=gfx jobs=200 exec_us=100 deps=chain" \
		"submit ring=compute jobs=200 exec_us=100 deps=ring:gfx" -- \
		$ev_queue gfx 200 $ev_run gfx 200 $ev_done gfx 200 $ev_dep gfx 199 \
		$ev_queue compute 200 $ev_run compute 200 $ev_done compute 200 $ev_dep compute 200
	expect writers "$cr" "&submit ring=gfx jobs=50 exec_us=200 deps=chain" \
		"&submit ring=gfx jobs=50 exec_us=200" "&" -- \
		$ev_queue gfx 100 $ev_run gfx 100 $ev_done gfx 100 $ev_dep gfx 49
done

# The status file and the client id (>= 6.17 records it).
load
echo "submit ring=gfx jobs=3 exec_us=100 client=42" >/proc/schedgen
echo wait >/proc/schedgen
check_eq "status after 3 jobs" "$(cat /proc/schedgen)" \
	"ring=gfx dev=schedgen submitted=3 completed=3 timeouts=0
ring=compute dev=schedgen submitted=0 completed=0 timeouts=0"
unload

# Errors: EINVAL and a reason in the kernel log.
load
dmesg -c >/dev/null
for bad in "frob" "submit ring=nope jobs=1" "submit ring=gfx" "submit ring=gfx jobs=0" \
	"submit ring=gfx jobs=1 exec_us=x" "submit ring=gfx jobs=1 deps=ring:nope" \
	"submit ring=gfx jobs=1 deps=tree" "submit ring=gfx jobs=1 colour=red" "submit ring=gfx jobs" \
	"wait timeout_ms=-1" "wait ring=gfx" "submit ring=gfx jobs=1 entity=4" \
	"submit ring=gfx jobs=1 hang=1"; do
	err=$( (echo "$bad" >/proc/schedgen) 2>&1)
	case "$err" in
	*"Invalid argument"*) pass "'$bad': EINVAL" ;;
	*) fail "'$bad': got '$err', want EINVAL" ;;
	esac
done
check_eq "a reason logged for each bad command" "$(dmesg | grep -c 'schedgen: ')" 13
dmesg | grep 'schedgen: ' | sed 's/^\[[^]]*\] /  dmesg: /'
check_eq "nothing submitted by bad commands" "$(cat /proc/schedgen | head -1)" \
	"ring=gfx dev=schedgen submitted=0 completed=0 timeouts=0"

# wait: times out with ETIMEDOUT; blocks until the work is done.
echo "submit ring=gfx jobs=1 exec_us=2000000" >/proc/schedgen
err=$( (echo "wait timeout_ms=100" >/proc/schedgen) 2>&1)
case "$err" in *"timed out"*) pass "wait timeout_ms=100: ETIMEDOUT" ;; *) fail "wait timeout: got '$err'" ;; esac
t0=$(date +%s%N)
echo "wait" >/proc/schedgen
t1=$(date +%s%N)
check_eq "wait returns once the 2 s job is done" "$(( (t1 - t0) > 1500000000 ))" 1
# Several commands in one write.
printf 'submit ring=gfx jobs=2 exec_us=100\nsubmit ring=compute jobs=1 exec_us=100\nwait\n' >/proc/schedgen
check_eq "several lines in one write" "$(cat /proc/schedgen | tr '\n' ' ')" \
	"ring=gfx dev=schedgen submitted=3 completed=3 timeouts=0 ring=compute dev=schedgen submitted=1 completed=1 timeouts=0 "
unload

# rmmod with jobs in flight (queued, blocked on another ring, running) and a
# writer blocked in "wait": jobs not yet run take 0 µs, so it is quick.
load credits=2
dmesg -c >/dev/null
echo "submit ring=gfx jobs=1000 exec_us=5000 deps=chain" >/proc/schedgen
echo "submit ring=compute jobs=100 exec_us=5000 deps=ring:gfx" >/proc/schedgen
(echo wait >/proc/schedgen) 2>"$S/wait.err" &
sleep 0.2
t0=$(date +%s%N)
rmmod schedgen
rc=$?
t1=$(date +%s%N)
wait
check_eq "rmmod with 1100 jobs in flight" "$rc" 0
check_eq "rmmod took < 3 s (was $(( (t1 - t0) / 1000000 )) ms)" "$(( (t1 - t0) < 3000000000 ))" 1
if grep -q "No such device" "$S/wait.err"; then pass "blocked wait returned ENODEV"
else fail "blocked wait: got '$(cat "$S/wait.err")', want ENODEV"; fi
check_eq "no kernel warnings" "$(dmesg | grep -ciE 'warn|bug|oops|leak|pending')" 0
load
unload && pass "loads again after that"

# Module parameters.
insmod "$KO" credits=0 2>/dev/null && { fail "credits=0 accepted"; rmmod schedgen; } || pass "credits=0 refused"
insmod "$KO" rings=a,a 2>/dev/null && { fail "rings=a,a accepted"; rmmod schedgen; } || pass "rings=a,a refused"
insmod "$KO" || fail "default insmod"
check_eq "default: one ring gfx" "$(cat /proc/schedgen)" "ring=gfx dev=schedgen submitted=0 completed=0 timeouts=0"
rmmod schedgen
insmod "$KO" timeout_ms=3600001 2>/dev/null && { fail "timeout_ms=3600001 accepted"; rmmod schedgen; } ||
	pass "timeout_ms=3600001 refused"
insmod "$KO" recovery=none 2>/dev/null && { fail "recovery=none accepted"; rmmod schedgen; } ||
	pass "recovery=none refused"

# A hang: the job on entity 1 never signals; one of entity 2 runs beside it
# past the timeout, two more of entity 1 wait behind. One timeout, the bad
# job's fence ends with an error, the other running job is run again, the
# waiting ones run after: all four done.
insmod "$KO" timeout_ms=500 credits=2
dmesg -c >/dev/null
echo > $T/trace
echo 1 > $T/events/dma_fence/dma_fence_signaled/enable
echo "submit ring=gfx jobs=1 hang=1 entity=1" >/proc/schedgen
echo "submit ring=gfx jobs=1 exec_us=3000000 entity=2" >/proc/schedgen
echo "submit ring=gfx jobs=2 exec_us=1000 entity=1" >/proc/schedgen
echo "wait timeout_ms=20000" >/proc/schedgen || fail "wait after a hang"
echo 0 > $T/events/dma_fence/dma_fence_signaled/enable
check_eq "a hang: one timeout, every job done" "$(cat /proc/schedgen)" \
	"ring=gfx dev=schedgen submitted=4 completed=4 timeouts=1"
rmmod schedgen || fail "rmmod after a hang"
check_eq "no kernel warnings after a hang" "$(dmesg | grep -ciE 'warn|bug|oops|leak|pending')" 0
dmesg | sed 's/^/  dmesg: /' | tail -5

# The same hang recovered by a ring reset (recovery=ring: the work queue
# stopped and started, as amdgpu's ring reset and xe), where the scheduler
# has drm_sched_wqueue_stop() (6.8+); refused where not.
if grep -qw drm_sched_wqueue_stop /proc/kallsyms; then
	insmod "$KO" timeout_ms=500 credits=2 recovery=ring
	dmesg -c >/dev/null
	echo "submit ring=gfx jobs=1 hang=1 entity=1" >/proc/schedgen
	echo "submit ring=gfx jobs=1 exec_us=3000000 entity=2" >/proc/schedgen
	echo "submit ring=gfx jobs=2 exec_us=1000 entity=1" >/proc/schedgen
	echo "wait timeout_ms=20000" >/proc/schedgen || fail "wait after a hang (ring reset)"
	check_eq "a hang, a ring reset: one timeout, every job done" "$(cat /proc/schedgen)" \
		"ring=gfx dev=schedgen submitted=4 completed=4 timeouts=1"
	rmmod schedgen || fail "rmmod after a ring reset"
	check_eq "no kernel warnings after a ring reset" "$(dmesg | grep -ciE 'warn|bug|oops|leak|pending')" 0
else
	insmod "$KO" recovery=ring 2>/dev/null && { fail "recovery=ring accepted without drm_sched_wqueue_stop()"; rmmod schedgen; } ||
		pass "recovery=ring refused without drm_sched_wqueue_stop()"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
