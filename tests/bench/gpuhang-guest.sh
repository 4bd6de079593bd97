#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what gpuhang costs while nothing hangs,
# the state it spends its life in. Its flight recorder keeps every job's
# submitter and times, so each job pays three programs on the gpu_scheduler
# events: gpuhang against empty programs on those events (the limit; beside
# them, empty ones on its recovery functions too, for start-up) and against
# drmsched, which tracks every job on the same events. ROUNDS rounds of one
# burst of JOBS jobs each (schedgen: exec 0 us, 64 on the ring at once, no
# timeout). No script is replaced: no bpftrace one-liner names the job a
# timeout blames.
# Prints one "ROUND ..." line per tracer and round (tests/bench/summarize).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/gpuhang
$VM_MODPROBE gpu-sched
insmod "${SCHEDGEN_KO:?}" rings=gfx credits=64 || exit 1
bpf_stats_on

if [ -e /sys/kernel/tracing/events/gpu_scheduler/drm_sched_job_run ]; then
	events=(queue_new run_new done_new)
else
	events=(queue_old run_old done_old)
fi
functions=(timedout fault stop karma resubmit start coredump)
# Those the kernel has (schedgen is no amdgpu nor i915: no GPU reset to trace, by either).
grep -qw drm_sched_wqueue_start /proc/kallsyms && functions+=(wqueue_stop wqueue_start)
grep -qw drm_dev_wedged_event /proc/kallsyms && functions+=(wedged)

workload() {
	echo "submit ring=gfx jobs=$JOBS exec_us=0" >/proc/schedgen
	echo "wait timeout_ms=600000" >/proc/schedgen
}
BENCH_UNITS=$JOBS BENCH_UNIT=job BENCH_WANT=-

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_gpuhang.bpf.o" "${events[@]}")

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one "empty, all its hooks" ready "" "${BENCH_BESIDE[@]}" "${functions[@]}"
	bench_one gpuhang Tracing "" bin/gpuhang
	bench_one drmsched Tracing "" bin/drmsched
done
