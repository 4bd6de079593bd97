#!/usr/bin/env bash
# Inside the VM (6.1: the kernel whose events the bpftrace scripts of the
# seed tutorial were written for): the cost per DRM scheduler job of
# tracing it, drmsched against bpftrace doing the seed script's work, side
# by side on the same workload in one boot.
set -u
cd "$(dirname "$0")/../.." || exit 1
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-3}
$VM_MODPROBE gpu-sched
insmod "${SCHEDGEN_KO:?}" rings=gfx credits=64

# The seed's drm_scheduler.bt, in substance: a line per run and completion,
# counts per ring.
cat >"$VM_SCRATCH/seed.bt" <<'BT'
tracepoint:gpu_scheduler:drm_run_job {
	@start[args->id] = nsecs;
	printf("%llu RUN %llu %s %u\n", nsecs / 1000000, args->id, str(args->name), args->job_count);
	@jobs_per_ring[str(args->name)] = count();
}
tracepoint:gpu_scheduler:drm_sched_process_job {
	printf("%llu COMPLETE %p\n", nsecs / 1000000, args->fence);
	@completion_count = count();
}
BT

# One timed workload, in ns.
workload() {
	local t0 t1
	t0=$(date +%s%N)
	echo "submit ring=gfx jobs=$JOBS exec_us=0" >/proc/schedgen
	echo "wait timeout_ms=600000" >/proc/schedgen
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

# run_with NAME CMD...: the workload under a tracer started in the background.
run_with() {
	local name=$1 pid t
	shift
	if [ $# -gt 0 ]; then
		"$@" >"$VM_SCRATCH/$name.out" 2>&1 &
		pid=$!
		# attached once it printed something
		for _ in $(seq 1 600); do [ -s "$VM_SCRATCH/$name.out" ] && break; sleep 0.1; done
	fi
	t=$(workload)
	if [ $# -gt 0 ]; then
		kill -INT "$pid"
		wait "$pid" 2>/dev/null
	fi
	echo "$t"
}

declare -A total
for r in $(seq 1 "$ROUNDS"); do
	total[none]=$(( ${total[none]:-0} + $(run_with none) ))
	total[drmsched]=$(( ${total[drmsched]:-0} + $(run_with drmsched bin/drmsched) ))
	total[drmsched_e]=$(( ${total[drmsched_e]:-0} + $(run_with drmsched_e bin/drmsched -e) ))
	total[bpftrace]=$(( ${total[bpftrace]:-0} + $(run_with bpftrace bpftrace "$VM_SCRATCH/seed.bt") ))
done

n=$((JOBS * ROUNDS))
per() { echo $(( (total[$1] - total[none]) / n )); }
echo "workload: $ROUNDS rounds x $JOBS jobs on the real DRM scheduler (schedgen, exec 0 us), Linux $VM_KVER under qemu TCG"
printf '%-28s %12s %14s\n' "tracer" "ns/job" "added ns/job"
printf '%-28s %12d %14s\n' "none" $((total[none] / n)) "-"
printf '%-28s %12d %14d\n' "drmsched (summary)" $((total[drmsched] / n)) "$(per drmsched)"
printf '%-28s %12d %14d\n' "drmsched -e (per event)" $((total[drmsched_e] / n)) "$(per drmsched_e)"
printf '%-28s %12d %14d\n' "bpftrace, seed script" $((total[bpftrace] / n)) "$(per bpftrace)"
awk -v d="$(per drmsched)" -v e="$(per drmsched_e)" -v b="$(per bpftrace)" 'BEGIN {
	if (d > 0) printf "ratio: bpftrace seed script costs %.1fx drmsched summary per job\n", b / d
	if (e > 0) printf "ratio: bpftrace seed script costs %.1fx drmsched -e per job\n", b / e
}'
# What each printed of the last round's jobs: bpftrace drops output it cannot keep up with.
echo "last round: bpftrace printed $(grep -c COMPLETE "$VM_SCRATCH/bpftrace.out") of $JOBS completions" \
	"$(grep -o 'Lost [0-9]* events' "$VM_SCRATCH/bpftrace.out" | head -1)"
echo "last round: drmsched -e printed $(grep -c ' DONE ' "$VM_SCRATCH/drmsched_e.out") of $JOBS DONE lines" \
	"$(grep -o '[0-9]* events lost' "$VM_SCRATCH/drmsched_e.out" | head -1)"
