#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what tracing an amdgpu command
# submission costs, amdgpucs against empty programs on the same hooks (the
# limit: amdgpu_cs_ioctl, amdgpu_sched_run_job and the scheduler's job done,
# tp_btf) and against bpftrace running the seed tutorial's amd_amdgpu.bt in
# substance (a submit time per job at amdgpu_cs_ioctl, its submit -> run
# latency and a line at amdgpu_sched_run_job, runs counted per ring), in
# ROUNDS interleaved rounds of one burst of JOBS jobs each: amdgen (the
# test module playing amdgpu on the kernel's real DRM scheduler, amdgpu's
# event layouts) submitting from this shell, exec 0 us, 64 jobs on the ring
# at once. The classic tracepoints' record path (amdgpucs --no-btf) beside
# the BTF path. Prints one "ROUND ..." line per tracer and round under the
# kernel "KVER/amdgpucs" (tests/bench/summarize: a table of its own).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
JOBS=${JOBS:-20000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/amdgpucs
$VM_MODPROBE gpu-sched
insmod "${AMDGEN_KO:?}" rings=gfx credits=64 || exit 1
bpf_stats_on

if [ -e /sys/kernel/tracing/events/gpu_scheduler/drm_sched_job_done ]; then
	done_prog=done_new
else
	done_prog=done_old
fi
# The real amdgpu's events key a job by sched_job_id; amdgen's (the layout
# of the kernels it plays) by its fence: context and seqno, as amdgpucs.
cat >"$BENCH_OUT/seed-amd.bt" <<'BT'
BEGIN { printf("ready\n"); }
tracepoint:amdgpu:amdgpu_cs_ioctl {
	@submit[args->context, args->seqno] = nsecs;
}
tracepoint:amdgpu:amdgpu_sched_run_job {
	$t = @submit[args->context, args->seqno];
	if ($t) {
		printf("%llu RUN %llu %s %llu\n", nsecs / 1000000, args->seqno, str(args->ring),
		       (nsecs - $t) / 1000);
		delete(@submit[args->context, args->seqno]);
	}
	@runs_per_ring[str(args->ring)] = count();
}
BT

workload() {
	echo "submit ring=gfx jobs=$JOBS exec_us=0" >/proc/amdgen
	echo "wait timeout_ms=600000" >/proc/amdgen
}

# bench_one (lib.sh) around one burst each; what a summary counted:
# "summary" reads the DONE column of amdgpucs's ring rows (this shell's).
bench_counted() { awk '$1 ~ /^gfx/ && $4 ~ /^[0-9]+$/ { d += $7 } END { print d + 0 }' "$2"; }
BENCH_UNITS=$JOBS BENCH_UNIT=job BENCH_WANT=$JOBS

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_amdgpucs.bpf.o" cs_ioctl run_job "$done_prog")

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one amdgpucs Tracing summary bin/amdgpucs
	! kernel_has_spares ||
		bench_one "amdgpucs, no spares" Tracing summary env GPU_BPF_PRETEND_MISSING=spares bin/amdgpucs
	bench_one "amdgpucs --no-btf" Tracing summary bin/amdgpucs --no-btf
	bench_one "amdgpucs -e" "TIME(s)" " DONE " bin/amdgpucs -e
	bench_one "bpftrace (the script replaced)" ready " RUN " bpftrace "$BENCH_OUT/seed-amd.bt"
done
