#!/usr/bin/env bash
# vm-kernels: 6.1 sid
# NVIDIA's own user space as the test client: Debian's nvidia-smi
# and libcuda of the driver's version (535.261.03 on 6.1, 550.163.01 on
# sid: tests/nvidia/userspace), run against the real driver and nvidia-uvm with no GPU
# (tests/nvidia/build-uvm), while nvdrv and cudatrace trace them at once.
# What the clients did is counted a second way, by bpftrace on the same
# functions (the kernel's view: every ioctl's escape, RM object, errno and
# RM status, each UVM command and its status), and by the clients
# themselves (tests/nvidia/cuclient prints each CUresult and the name
# libcuda gives it). Both tools must agree with those, and on who did what.
#
# Environment (tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE,
# NVIDIA_UVM_DIR (or NVIDIA_UVM_UNAVAILABLE), NVIDIA_USERSPACE.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

S=${VM_SCRATCH:?}
P="nvclients:"
N=$PWD/bin/nvdrv
C=$PWD/bin/cudatrace
CU=$PWD/build/tests/cuclient

if [ -z "${NVIDIA_UVM_DIR:-}" ]; then
	fail "$P ${NVIDIA_UVM_UNAVAILABLE:-nvidia-uvm.ko was not built (tests/nvidia/build-uvm --kernel $VM_KERNEL)}"
	exit 0
fi
if [ -z "${NVIDIA_USERSPACE:-}" ]; then
	fail "$P NVIDIA's user space was not fetched (tests/nvidia/userspace --kernel $VM_KERNEL)"
	exit 0
fi
L=$NVIDIA_USERSPACE/usr/lib/x86_64-linux-gnu/nvidia/current
SMI=$NVIDIA_USERSPACE/usr/lib/nvidia/current/nvidia-smi
libcuda=$(readlink -f "$L/libcuda.so.1")

# ---------------------------------------------------------------------------
# 1. The ground: nvidia.ko and nvidia-uvm.ko of one build, their device nodes.
for d in $(modinfo -F depends "$NVIDIA_UVM_DIR/nvidia.ko" | tr , ' '); do $VM_MODPROBE "$d"; done
if ! insmod "$NVIDIA_UVM_DIR/nvidia.ko" 2>"$S/insmod.err"; then
	fail "$P insmod nvidia.ko: $(cat "$S/insmod.err")"
	exit 0
fi
mknod -m 666 /dev/nvidiactl c 195 255
check "$P nvidia-uvm.ko loads without a GPU" insmod "$NVIDIA_UVM_DIR/nvidia-uvm.ko"
uvm_major=$(awk '$2 == "nvidia-uvm" { print $1 }' /proc/devices)
check "$P nvidia-uvm's char device (/proc/devices)" test -n "$uvm_major"
mknod -m 666 /dev/nvidia-uvm c "${uvm_major:-0}" 0
mknod -m 666 /dev/nvidia-uvm-tools c "${uvm_major:-0}" 1
# What nvidia-modprobe makes for NVML (Debian's nvidia-smi looks for it and,
# without it, says "Failed to initialize NVML: Unknown Error"): the MIG
# capability nodes, nvidia-caps' minors as /proc/driver/nvidia/capabilities
# gives them.
caps_major=$(awk '$2 == "nvidia-caps" { print $1 }' /proc/devices)
mkdir -p /dev/nvidia-caps
for c in config monitor; do
	minor=$(sed -n 's/^DeviceFileMinor: *//p' "/proc/driver/nvidia/capabilities/mig/$c")
	[ -n "$caps_major" ] && [ -n "$minor" ] &&
		mknod -m 444 "/dev/nvidia-caps/nvidia-cap$minor" c "$caps_major" "$minor"
done
check_eq "$P the MIG capability nodes (nvidia-cap1, nvidia-cap2)" "$(ls /dev/nvidia-caps | paste -sd' ')" \
	"nvidia-cap1 nvidia-cap2"
# The driver's generation (535 has the frontend, whose ioctl entry calls
# nvidia_ioctl; 550 has nvidia_unlocked_ioctl with it inlined).
gen=$(nvidia_generation)
ioctl_fn=nvidia_frontend_unlocked_ioctl
[ "$gen" -lt 550 ] || ioctl_fn=nvidia_unlocked_ioctl
check "$P nvdrv's table of UVM commands: every command and status offset as $gen's headers lay them out" \
	tests/nvidia/gen-uvm-ioctls --check tools/nvdrv/nvidia_names.c "$([ "$gen" -lt 550 ] && echo 1 || echo 2)" \
	"$NVIDIA_UVM_DIR/headers"

# ---------------------------------------------------------------------------
# 2. The kernel's view, by bpftrace: a line per ioctl of the two clients.
#    "NV PID COMM ESC ERRNO OBJ STATUS" (the inner escape of an XFER; OBJ
#    RM_ALLOC's class or RM_CONTROL's command as the client asked, at entry:
#    the RM rewrites NV01_ROOT's to NV01_ROOT_CLIENT; else -1; STATUS the
#    RM's, at return, or -1)
#    "UVM PID COMM CMD ERRNO STATUS" (STATUS where nvdrv's table has it)
# The layouts: nvos.h's NVOS54 (RM_CONTROL: cmd at 8, status at 28),
# NVOS21/NVOS64 (RM_ALLOC: class at 12, status at 28 / 40), NVOS00
# (RM_FREE: status at 12), the other escapes' as nvdrv reads them
# (bpf/nvdrv.bpf.c: rm_status_offset), XFER's {cmd, size, ptr}; UVM_INITIALIZE and
# UVM_PAGEABLE_MEM_ACCESS, UVM_MM_INITIALIZE, UVM_IS_8_SUPPORTED:
# uvm_linux_ioctl.h, uvm_ioctl.h (rmStatus at 8, 4, 4, 4).
sed "s/@IOCTL@/$ioctl_fn/" >"$S/clients.bt" <<'EOF'
BEGIN { printf("READY\n"); }	/* bpftrace runs it once every probe is attached */
kprobe:@IOCTL@ /comm == "nvidia-smi" || comm == "cuclient"/
{
	$c = arg1; $nr = $c & 0xff; $size = ($c >> 16) & 0x3fff; $p = arg2;
	if ($nr == 0xd3) {
		$nr = *(uint32 *)uptr($p) & 0xff; $size = *(uint32 *)uptr($p + 4); $p = *(uint64 *)uptr($p + 8);
	}
	/* the object the client asks for, at entry (the RM may rewrite it) */
	$obj = (int64)-1;
	if ($nr == 0x2a && $size == 32) { $obj = (uint64)(*(uint32 *)uptr($p + 8)); }
	if ($nr == 0x2b && ($size == 32 || $size == 48)) { $obj = (uint64)(*(uint32 *)uptr($p + 12)); }
	@nr[tid] = $nr; @size[tid] = $size; @p[tid] = $p; @obj[tid] = $obj; @in[tid] = 1;
}
kretprobe:@IOCTL@ /@in[tid]/
{
	$nr = @nr[tid]; $size = @size[tid]; $p = @p[tid];
	$st = (int64)-1;
	if ($nr == 0x2a && $size == 32) { $st = (uint64)(*(uint32 *)uptr($p + 28)); }
	if ($nr == 0x2b && $size == 32) { $st = (uint64)(*(uint32 *)uptr($p + 28)); }
	if ($nr == 0x2b && $size == 48) { $st = (uint64)(*(uint32 *)uptr($p + 40)); }
	if ($nr == 0x29 && $size == 16) { $st = (uint64)(*(uint32 *)uptr($p + 12)); }
	if ($nr == 0x27 && $size == 56) { $st = (uint64)(*(uint32 *)uptr($p + 40)); }
	if ($nr == 0x28 && $size == 20) { $st = (uint64)(*(uint32 *)uptr($p + 16)); }
	if ($nr == 0x34 && $size == 28) { $st = (uint64)(*(uint32 *)uptr($p + 24)); }
	if ($nr == 0x35 && $size == 24) { $st = (uint64)(*(uint32 *)uptr($p + 20)); }
	if ($nr == 0x4a && $size == 184) { $st = (uint64)(*(uint32 *)uptr($p + 20)); }
	if ($nr == 0x4e && $size == 56) { $st = (uint64)(*(uint32 *)uptr($p + 40)); }
	if ($nr == 0x4f && $size == 32) { $st = (uint64)(*(uint32 *)uptr($p + 24)); }
	if ($nr == 0x57 && $size == 56) { $st = (uint64)(*(uint32 *)uptr($p + 48)); }
	if ($nr == 0x58 && $size == 40) { $st = (uint64)(*(uint32 *)uptr($p + 32)); }
	if ($nr == 0x58 && $size == 48) { $st = (uint64)(*(uint32 *)uptr($p + 40)); }
	if ($nr == 0x5e && $size == 40) { $st = (uint64)(*(uint32 *)uptr($p + 32)); }
	if (($nr == 0xce || $nr == 0xcf) && $size == 16) { $st = (uint64)(*(uint32 *)uptr($p + 12)); }
	if (retval != 0) { $st = (int64)-1; }
	printf("NV %d %s 0x%x %d %lld %lld\n", pid, comm, $nr, retval < 0 ? -retval : 0, @obj[tid], $st);
	delete(@nr[tid]); delete(@size[tid]); delete(@p[tid]); delete(@obj[tid]); delete(@in[tid]);
}
kprobe:uvm_unlocked_ioctl_entry /comm == "nvidia-smi" || comm == "cuclient"/
{ @ucmd[tid] = arg1; @uarg[tid] = arg2; }
kretprobe:uvm_unlocked_ioctl_entry /@ucmd[tid]/
{
	$c = @ucmd[tid]; $p = @uarg[tid]; $st = (int64)-1;
	if (retval == 0 && $c == 0x30000001) { $st = (uint64)(*(uint32 *)uptr($p + 8)); }
	if (retval == 0 && ($c == 0x27 || $c == 0x4b || $c == 0x7ff)) { $st = (uint64)(*(uint32 *)uptr($p + 4)); }
	printf("UVM %d %s 0x%x %d %lld\n", pid, comm, $c, retval < 0 ? -retval : 0, $st);
	delete(@ucmd[tid]); delete(@uarg[tid]);
}
EOF
bpftrace "$S/clients.bt" >"$S/bt.out" 2>"$S/bt.err" &
bt_pid=$!

# The tracers: nvdrv's summary and -e lines, cudatrace -E on the real libcuda.
start_tool "$S/nv.out" "$N"; nv_pid=$tool_pid
start_tool "$S/nve.out" "$N" -e; nve_pid=$tool_pid
start_tool "$S/ct.out" "$C" -E -L "$libcuda"; ct_pid=$tool_pid
# (cudatrace's banner is its -E header; bpftrace's, READY.)
for _ in $(seq 1 600); do grep -q '^READY' "$S/bt.out" && break; nap 0.1; done
check "$P bpftrace attached" grep -q '^READY' "$S/bt.out"

# ---------------------------------------------------------------------------
# 3. The clients.
LD_LIBRARY_PATH=$L "$SMI" >"$S/smi.out" 2>&1 &
smi_pid=$!
wait $smi_pid
smi_status=$?
LD_LIBRARY_PATH=$L "$CU" >"$S/cu.out" 2>&1 &
cu_pid=$!
wait $cu_pid
cu_status=$?
sleep 1
kill -INT "$nv_pid" "$nve_pid" "$ct_pid"
stop_bpftrace "$bt_pid"
wait "$nv_pid"; nv_status=$?
wait "$nve_pid"; nve_status=$?
wait "$ct_pid"; ct_status=$?
check_eq "$P the tracers end with status 0 (nvdrv, nvdrv -e, cudatrace -E)" \
	"$nv_status $nve_status $ct_status" "0 0 0"
for f in smi cu; do sed "s/^/    | $f: /" "$S/$f.out" >&2; done

# ---------------------------------------------------------------------------
# 4. What the clients said.
# What this ground makes them say, and why (a machine without a GPU has no
# nvidia.ko loaded: nvidia-smi then cannot talk to the driver, and cuInit
# answers 100, CUDA_ERROR_NO_DEVICE). Here the driver is up with no GPU:
# - nvidia-smi 535: its NVML finds no GPU (GPU_GET_PROBED_IDS), frees its
#   client and closes /dev/nvidiactl, then allocates the MIG capabilities'
#   objects through fd -1 (strace: ioctl(-1, RM_ALLOC) EBADF, with the
#   capability nodes made as nvidia-modprobe makes them) and gives up:
#   "Unknown Error". 550's NVML says what happened: no supported GPU.
# - cuInit: libcuda's first question to NV_CONFIDENTIAL_COMPUTE,
#   CONF_COMPUTE_SYSTEM_GET_CAPABILITIES, is refused with
#   NV_ERR_INVALID_LOCK_STATE (the RM holds no GPU lock without a GPU):
#   999, CUDA_ERROR_UNKNOWN, in 535 and 550 alike. nvdrv shows it (below).
if [ "$gen" -lt 550 ]; then
	smi_said="Failed to initialize NVML: Unknown Error" cuda_version=12020
else
	smi_said="Failed to initialize NVML: No supported GPUs were found
Unable to determine the number of GPUs" cuda_version=12040
fi
check_eq "$P nvidia-smi: NVML's failure on a driver without a GPU, status 255" \
	"$(cat "$S/smi.out") $smi_status" "$smi_said 255"
check_eq "$P cuclient: ran (exit 0)" "$cu_status" 0
check_eq "$P cuclient: cuInit fails with CUDA_ERROR_UNKNOWN (999), the driver version still answered" \
	"$(awk '$1 == "cuInit" || $1 == "cuDriverGetVersion" { print $1, $2, $3, $4 }' "$S/cu.out")" \
	"cuInit 999 CUDA_ERROR_UNKNOWN 
cuDriverGetVersion 0 CUDA_SUCCESS $cuda_version"
check_eq "$P nvdrv -e: why cuInit failed: CONF_COMPUTE_SYSTEM_GET_CAPABILITIES refused, NV_ERR_INVALID_LOCK_STATE" \
	"$(awk -v p="$cu_pid" '$2 == "IOCTL" && $3 == p && / cmd=0xcb330101\(/ { print $(NF - 2), $(NF - 1) }' "$S/nve.out")" \
	"status=0x2f NV_ERR_INVALID_LOCK_STATE"

# ---------------------------------------------------------------------------
# 5. cudatrace -E: the failing calls, with the names libcuda itself gives.
check_eq "$P cudatrace -E: cuclient's failing calls, in order, named as libcuda names them" \
	"$(awk -v p="$cu_pid" 'NR > 1 && $2 == p { print $5, $8 }' "$S/ct.out")" \
	"$(awk '$2 != 0 { print $1, $3 }' "$S/cu.out")"
check_eq "$P cudatrace -E: PID, TID and COMM are cuclient's" \
	"$(awk 'NR > 1 { print $2, $3, $4 }' "$S/ct.out" | sort -u)" "$cu_pid $cu_pid cuclient"

# ---------------------------------------------------------------------------
# 6. nvdrv against the kernel's view.
# bt_lines KIND PID: bpftrace's lines of one process, without kind and pid.
bt_lines() { awk -v k="$1" -v p="$2" '$1 == k && $2 == p { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' "$S/bt.out"; }
# nv_lines PID: nvdrv -e's ioctl lines of one process as "COMM ESC ERRNO OBJ STATUS",
# UVM ones as "COMM CMD ERRNO STATUS", like bpftrace's.
nv_lines() {
	awk -v p="$1" 'function hex(s,   i, n) { n = 0; s = tolower(s); sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return n }
	$2 == "IOCTL" && $3 == p {
		nr = $5; sub(/^esc=[^(]*\(/, "", nr); sub(/\)$/, "", nr)
		uvm = ($5 ~ /^esc=UVM_/); err = 0; obj = -1; st = -1
		for (i = 6; i <= NF; i++) {
			if ($i ~ /^ret=-/) err = substr($i, 6)
			if ($i ~ /^(class|cmd)=/) { o = $i; sub(/^[a-z]+=/, "", o); sub(/\(.*/, "", o); obj = hex(o) }
			if ($i ~ /^status=/) st = hex(substr($i, 8))
		}
		if (uvm) printf "UVM %s %s %s %.0f\n", $4, nr, err, st
		else printf "NV %s %s %s %.0f %.0f\n", $4, nr, err, obj, st }' "$S/nve.out"
}
for who in smi cu; do
	pid=$smi_pid
	[ "$who" = cu ] && pid=$cu_pid
	check_ge "$P $who: the kernel saw its ioctls" "$(bt_lines NV "$pid" | wc -l)" 1
	check_eq "$P $who: nvdrv -e: every ioctl, escape, errno, RM object and status, as the kernel saw them" \
		"$(nv_lines "$pid" | awk '$1 == "NV" { $1 = ""; sub(/^ +/, ""); print }')" "$(bt_lines NV "$pid")"
	check_eq "$P $who: nvdrv -e: every UVM command, errno and status, as the kernel saw them" \
		"$(nv_lines "$pid" | awk '$1 == "UVM" { $1 = ""; sub(/^ +/, ""); print }')" "$(bt_lines UVM "$pid")"
done
check_ge "$P cuclient opened /dev/nvidia-uvm: its UVM commands" "$(bt_lines UVM "$cu_pid" | wc -l)" 1
check_eq "$P nvdrv -e: every RM class and control the clients used is named" \
	"$(awk '$2 == "IOCTL" && ($4 == "nvidia-smi" || $4 == "cuclient") {
		for (i = 6; i <= NF; i++) if ($i ~ /^(class|cmd)=0x[0-9a-f]+$/) print $4, $i }' "$S/nve.out" | sort -u)" ""
check_eq "$P nvdrv -e: every UVM command named" \
	"$(awk '$2 == "IOCTL" && $5 ~ /^esc=UVM_0x/' "$S/nve.out")" ""
check "$P nvdrv: the summary names UVM_INITIALIZE in cuclient's rows" \
	grep -Eq "^$cu_pid +cuclient +UVM_INITIALIZE +0x30000001 " "$S/nv.out"
check_eq "$P nvdrv and cudatrace agree on who called libcuda: cuclient's PID" \
	"$(awk -v p="$cu_pid" '$2 == "IOCTL" && $3 == p { print $4 }' "$S/nve.out" | sort -u) $(awk 'NR > 1 { print $2 }' "$S/ct.out" | sort -u)" \
	"cuclient $cu_pid"
