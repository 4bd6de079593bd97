#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what tracing NVIDIA's driver costs per
# ioctl, nvdrv against empty programs on the same hooks (the limit: an
# ioctl's kprobe and kretprobe, and nv_printf's kprobe; for start-up, on
# all of nvdrv's hooks) and against bpftrace
# running the seed tutorial's nvidia_driver.bt in substance (its ioctl
# probe: a count, a count per process name, a line for 1% of them), in
# ROUNDS interleaved rounds of one burst each on the real driver
# (tests/nvidia: 535 on 6.1, 550 on sid, no GPU): nvctl --burst NV_ROUNDS 0,
# an RM client, then NV_ROUNDS x (CHECK_VERSION_STR, RM_CONTROL
# GET_BUILD_VERSION_V2), the client freed: 2 x NV_ROUNDS + 2 ioctls.
# nvdrv's printed count is the CALLS of nvctl's rows (nvdrv -e: its IOCTL
# lines). Prints one "ROUND ..." line per tracer and round, under the
# kernel "KVER/nvdrv" (tests/bench/summarize: a table of its own). And
# gpuhang, whose Xid hooks on the same driver are its quiet state there.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
NV_ROUNDS=${NV_ROUNDS:-5000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/nvdrv
if [ -z "${NVIDIA_KO:-}" ]; then
	echo "bench: no NVIDIA driver for $VM_KVER: ${NVIDIA_UNAVAILABLE:-not built}" >&2
	exit 0
fi
for d in $(modinfo -F depends "$NVIDIA_KO" | tr , ' '); do $VM_MODPROBE "$d"; done
insmod "$NVIDIA_KO" || exit 1
mknod -m 666 /dev/nvidiactl c 195 255
bpf_stats_on

# The ioctl's function: 535's frontend, else 550's.
ioctl_fn=nvidia_frontend_unlocked_ioctl
grep -q " $ioctl_fn\s*\[nvidia\]$" /proc/kallsyms || ioctl_fn=nvidia_unlocked_ioctl
cat >"$BENCH_OUT/seed-nv.bt" <<BT
BEGIN { printf("ready\n"); }
kprobe:$ioctl_fn
{
	@ioctl_count = count();
	@ioctls_per_process[comm] = count();
	if (rand % 100 == 0) {
		printf("%-12llu %-18s %-16s %-8d %-8s cmd=0x%lx\n",
		       elapsed / 1000000, "IOCTL", comm, pid, "-", arg1);
	}
}
BT

ioctls=$((2 * NV_ROUNDS + 2))
workload() { build/tests/nvctl --burst "$NV_ROUNDS" 0 >"$BENCH_OUT/nvctl.out" 2>&1; }

# bench_one (lib.sh) around one burst each; what a summary counted:
bench_counted() { awk '$2 == "nvctl" && $5 ~ /^[0-9]+$/ { s += $5 } END { print s + 0 }' "$2"; }
BENCH_UNITS=$ioctls BENCH_UNIT=ioctl BENCH_WANT=$ioctls

# Its start-up's limit: empty programs on all of nvdrv's hooks, the
# kprobes the kernel lists while nvdrv runs (FUNCTION+OFFSET, +0x4 past
# an IBT kernel's endbr64: a name alone gets the same place). Its
# per-event limit is the hot hooks' above: the others do not fire in the
# burst.
tracer_start hooks Tracing bin/nvdrv || exit 1
all_hooks=(fork_entry)
while read -r _ type fn _; do
	case $type in
	k) all_hooks+=("ioctl_entry=${fn%%+*}") ;;
	r) all_hooks+=("ioctl_return=${fn%%+*}") ;;
	esac
done </sys/kernel/debug/kprobes/list
tracer_stop hooks
echo "bench: nvdrv's hooks: $((${#all_hooks[@]} - 1)) kprobes and sched_process_fork" >&2

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_nvdrv.bpf.o" \
	"ioctl_entry=$ioctl_fn" "ioctl_return=$ioctl_fn" printf_entry=nv_printf)
nvdrv_beside=("${BENCH_BESIDE[@]}")

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one "empty, all its hooks" ready "" "$BENCH_BIN/empty" "$BENCH_BIN/empty_nvdrv.bpf.o" \
		"${all_hooks[@]}"
	bench_one nvdrv Tracing summary bin/nvdrv
	bench_one "nvdrv -e" "TIME(s)" " IOCTL " bin/nvdrv -e
	bench_one "bpftrace (the script replaced)" ready "" bpftrace "$BENCH_OUT/seed-nv.bt"
	# gpuhang's quiet state on NVIDIA's driver: its Xid kprobes, nv_printf's
	# the one that fires; beside an empty one on nv_printf alone.
	BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_nvdrv.bpf.o" printf_entry=nv_printf)
	bench_one "empty: gpuhang's hook (nv_printf)" ready "" "${BENCH_BESIDE[@]}"
	bench_one "gpuhang (its Xids)" Tracing "" bin/gpuhang
	BENCH_BESIDE=("${nvdrv_beside[@]}")
done
