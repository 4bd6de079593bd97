#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what tracing a DRM scheduler job costs,
# drmsched against empty programs on the same tracepoints (the limit) and
# against bpftrace running the seed tutorial's drm_scheduler.bt in substance,
# in ROUNDS interleaved rounds of one burst of JOBS jobs each (the real DRM
# scheduler, driven by schedgen: exec 0 us, 64 jobs on the ring at once).
# The record path (drmsched --no-btf: classic tracepoints, the record read
# through tracefs's format) beside the BTF path, each with its own limit: an
# empty program on the tp_btf hook and one on the classic tracepoint. The
# kernel builds a classic tracepoint's record before the program runs, which
# its run_time_ns does not count: the kernel CPU column (all of the guest's
# system time during the burst) does.
# drmsched with --prometheus (the metrics file rewritten every second) beside
# drmsched printing the same 1 s summaries without it.
# Prints one "ROUND ..." line per tracer and round (tests/bench/summarize).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/drmsched
$VM_MODPROBE gpu-sched
insmod "${SCHEDGEN_KO:?}" rings=gfx credits=64 || exit 1
bpf_stats_on

# The seed's drm_scheduler.bt, in substance: a start time per job and a line
# per run and completion, jobs counted per ring. On >= 6.17 the same work on
# the renamed events (the job id is gone: the fence seqno stands for it).
if [ -e /sys/kernel/tracing/events/gpu_scheduler/drm_sched_job_run ]; then
	run=drm_sched_job_run done=drm_sched_job_done id=fence_seqno fence=fence_seqno
	empty_progs=(queue_new run_new done_new)
	empty_tp_progs=(tp_queue_new tp_run_new tp_done_new)
else
	run=drm_run_job done=drm_sched_process_job id=id fence=fence
	empty_progs=(queue_old run_old done_old)
	empty_tp_progs=(tp_queue_old tp_run_old tp_done_old)
fi
cat >"$BENCH_OUT/seed.bt" <<BT
BEGIN { printf("ready\n"); }
tracepoint:gpu_scheduler:$run {
	@start[args->$id] = nsecs;
	printf("%llu RUN %llu %s %u\n", nsecs / 1000000, args->$id, str(args->name), args->job_count);
	@jobs_per_ring[str(args->name)] = count();
}
tracepoint:gpu_scheduler:$done {
	printf("%llu COMPLETE %llu\n", nsecs / 1000000, (uint64)args->$fence);
	@completion_count = count();
}
BT

workload() {
	echo "submit ring=gfx jobs=$JOBS exec_us=0" >/proc/schedgen
	echo "wait timeout_ms=600000" >/proc/schedgen
}

# bench_one (lib.sh) around one burst each: "summary" reads the DONE column
# of drmsched's ring row, "summaries" sums it over the 1 s summaries.
bench_counted() {
	case $1 in
	summary) awk '$2 == "gfx" && $3 ~ /^[0-9]+$/ { print $5; exit }' "$2" ;;
	summaries) awk '$2 == "gfx" && NF == 9 && $3 ~ /^[0-9]+$/ { d += $5 } END { print d + 0 }' "$2" ;;
	esac
}
BENCH_UNITS=$JOBS BENCH_UNIT=job BENCH_WANT=$JOBS

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_drmsched.bpf.o" "${empty_progs[@]}")

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one "empty (tracepoint)" ready "" "$BENCH_BIN/empty" "$BENCH_BIN/empty_drmsched.bpf.o" "${empty_tp_progs[@]}"
	bench_one drmsched Tracing summary bin/drmsched
	! kernel_has_spares ||
		bench_one "drmsched, no spares" Tracing summary env GPU_BPF_PRETEND_MISSING=spares bin/drmsched
	bench_one "drmsched --no-btf" Tracing summary bin/drmsched --no-btf
	# What --prometheus adds: the file rewritten every second beside the summaries.
	bench_one "drmsched 1" Tracing summaries bin/drmsched 1
	bench_one "drmsched --prometheus 1" Tracing summaries bin/drmsched --prometheus "$BENCH_OUT/drmsched.prom" 1
	bench_one "drmsched -e" "TIME(s)" " DONE " bin/drmsched -e
	bench_one "bpftrace (the script replaced)" ready " COMPLETE " bpftrace "$BENCH_OUT/seed.bt"
done
