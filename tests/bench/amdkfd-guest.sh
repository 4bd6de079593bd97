#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what tracing the KFD costs per ioctl,
# amdkfd against empty programs on the same hooks (kfd_ioctl's kprobe and
# kretprobe: the limit) and against a bpftrace one-liner counting the same
# ioctls per process and command (the peer), in ROUNDS interleaved rounds
# of one burst each on the real KFD of the kernel's own amdgpu (no GPU):
# kfdclient -b KFD_ROUNDS, an open, KFD_ROUNDS GET_VERSION and a close.
# amdkfd's printed count is the CALLS of kfdclient's GET_VERSION row
# (amdkfd -e: its GET_VERSION lines). Prints one "ROUND ..." line per
# tracer and round, under the kernel "KVER/amdkfd". On sid the KFD refuses
# to open without a GPU: nothing to measure there, said on stderr.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
KFD_ROUNDS=${KFD_ROUNDS:-10000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/amdkfd
$VM_MODPROBE amdgpu || exit 1
if ! build/tests/kfdclient -b 1 2>"$BENCH_OUT/kfd.err"; then
	echo "bench: amdkfd: the KFD of $VM_KVER does not open: $(cat "$BENCH_OUT/kfd.err")" >&2
	exit 0
fi
bpf_stats_on

cat >"$BENCH_OUT/peer-kfd.bt" <<'BT'
BEGIN { printf("ready\n"); }
kprobe:kfd_ioctl { @calls[comm, arg1 & 0xff] = count(); }
BT

workload() { build/tests/kfdclient -b "$KFD_ROUNDS" >"$BENCH_OUT/kfdclient.out" 2>&1; }

# bench_one (lib.sh) around one burst each; what a summary counted:
bench_counted() { awk '$2 == "kfdclient" && $3 == "GET_VERSION" { s += $4 } END { print s + 0 }' "$2"; }
BENCH_UNITS=$KFD_ROUNDS BENCH_UNIT=ioctl BENCH_WANT=$KFD_ROUNDS

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_amdkfd.bpf.o" ioctl_entry=kfd_ioctl ioctl_return=kfd_ioctl)

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one amdkfd Tracing summary bin/amdkfd
	bench_one "amdkfd -e" "TIME(s)" " GET_VERSION " bin/amdkfd -e
	bench_one "bpftrace (one-liner)" ready "" bpftrace "$BENCH_OUT/peer-kfd.bt"
done
