#!/usr/bin/env bash
# NVIDIA's real kernel driver in the VM, without a GPU: the ground nvdrv's
# real-driver tests stand on. Run inside the VM by tests/run (one boot per
# kernel): nvidia.ko from tests/nvidia/build (535 on 6.1, 550 on sid; patched
# only to load with no GPU) is loaded, /dev/nvidiactl made, and the workload
# tests/nvidia/nvctl makes its calls. Proved here:
#  1. the driver loads, serves nvidiactl and unloads;
#  2. every call returns what the real driver returns: the ioctl's value and
#     errno, and the resource manager's status in the argument block;
#  3. the functions nvdrv hooks are there, by their names in this driver
#     generation, and kprobes on them attach and fire: once per ioctl on the
#     ioctl entry, with the mmap's size on nvidia_mmap, the driver's
#     messages on nv_printf (the Xid messages' path).
#
# Environment (from tests/vm/run): VM_KERNEL (6.1|sid), VM_SCRATCH,
# VM_MODPROBE, NVIDIA_KO or NVIDIA_UNAVAILABLE (why it was not built).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

S=${VM_SCRATCH:?}
K=${VM_KERNEL:?}
P="nvdrv real driver:"
W=$PWD/build/tests/nvctl
trace=/sys/kernel/tracing

if [ -z "${NVIDIA_KO:-}" ]; then
	why=${NVIDIA_UNAVAILABLE:-"nvidia.ko was not built for this kernel (tests/nvidia/build --kernel $K)"}
	# 535 builds for 6.1: not having it there is a failure, not a skip.
	if [ "$K" = 6.1 ]; then fail "$P $why"; else skip "$P $why"; fi
	exit 0
fi
[ -x "$W" ] || { fail "$P no $W (make test-progs)"; exit 0; }

# ---------------------------------------------------------------------------
# 1. Load (its dependencies first: drm), the control node, the version.
for d in $(modinfo -F depends "$NVIDIA_KO" | tr , ' '); do $VM_MODPROBE "$d"; done
if ! insmod "$NVIDIA_KO" 2>"$S/insmod.err"; then
	fail "$P insmod: $(cat "$S/insmod.err"); $(dmesg | grep NVRM | tail -3)"
	exit 0
fi
ver=$(modinfo -F version "$NVIDIA_KO")
check "$P loads without a GPU (NVRM: loading ... $ver)" sh -c "dmesg | grep -q 'NVRM: loading NVIDIA UNIX x86_64 Kernel Module  $ver'"
check "$P /proc/driver/nvidia/version" grep -q "Kernel Module  $ver" /proc/driver/nvidia/version
# 535: "195 nvidia-frontend"; 550: "195 nvidia".
check "$P char major 195 (/proc/devices)" grep -Eq '^195 nvidia' /proc/devices
mknod -m 666 /dev/nvidiactl c 195 255

# The functions nvdrv hooks, by generation: 535 has the frontend (its
# nvidia_frontend_unlocked_ioctl calls nvidia_ioctl), 550 does not (its
# nvidia_unlocked_ioctl has nvidia_ioctl inlined).
if [ "$K" = 6.1 ]; then
	open=nvidia_frontend_open close=nvidia_frontend_close ioctl=nvidia_frontend_unlocked_ioctl
	also="nvidia_open nvidia_close nvidia_ioctl"
else
	open=nvidia_open close=nvidia_close ioctl=nvidia_unlocked_ioctl
	also=""
fi
fns="$open $close $ioctl $also nvidia_mmap nvidia_fault nvidia_isr nvidia_isr_msix nvidia_isr_kthread_bh
     nvidia_isr_msix_kthread_bh nvidia_isr_bh_unlocked nvidia_p2p_get_pages nvidia_p2p_put_pages
     nvidia_p2p_dma_map_pages nvidia_p2p_dma_unmap_pages nv_printf nv_log_error"
missing=""
for f in $fns; do
	grep -q " $f\s*\[nvidia\]$" /proc/kallsyms || missing+=" $f"
done
check_eq "$P the hooked functions are in kallsyms" "${missing# }" ""
# The resource manager's own functions (the binary nv-kernel.o) are built
# without ftrace entries: no kprobe on them (rm_ioctl, say).
check "$P rm_ioctl exists but takes no kprobe (notrace)" sh -c \
	"grep -q ' rm_ioctl\s*\[nvidia\]' /proc/kallsyms && ! grep -q '^rm_ioctl ' $trace/available_filter_functions"
notrace=""
for f in $fns; do
	grep -q "^$f \[nvidia\]" $trace/available_filter_functions || notrace+=" $f"
done
check_eq "$P the hooked functions take kprobes (ftrace entries)" "${notrace# }" ""

# Kprobes through tracefs, as nvdrv's will be: the ioctl entry (file, cmd,
# user pointer) and its return, mmap with the vma's bounds (vm_start and
# vm_end, the first members of vm_area_struct), open, close, nv_printf with
# its level and format.
probes="p:nvt/ioctl $ioctl file=%di cmd=%si:x32 arg=%dx:x64
r:nvt/ioctl_ret $ioctl ret=\$retval:s64
p:nvt/mmap nvidia_mmap start=+0(%si):x64 end=+8(%si):x64
r:nvt/mmap_ret nvidia_mmap ret=\$retval:s32
p:nvt/open $open
p:nvt/close $close
p:nvt/printf nv_printf level=%di:x32 fmt=+0(%si):string"
printf '%s\n' "$probes" >"$S/probes"
ok=1
while read -r p; do
	echo "$p" >>$trace/kprobe_events 2>"$S/kprobe.err" || { ok=0; fail "$P kprobe '$p': $(cat "$S/kprobe.err")"; }
done <"$S/probes"
[ "$ok" = 1 ] && pass "$P kprobes attach to $ioctl, nvidia_mmap, $open, $close, nv_printf"
echo >$trace/trace
echo 1 >$trace/events/nvt/enable

# ---------------------------------------------------------------------------
# 2. The workload, and what the real driver answered.
"$W" >"$S/nvctl.out" 2>"$S/nvctl.err"
check_eq "$P nvctl exits 0" "$?" 0
echo 0 >$trace/events/nvt/enable
grep -v '^#' $trace/trace >"$S/trace.out"

# call: "ret errno status" as the real driver answers (ret: the ioctl's
# value; "fd" for open's descriptor). RM statuses (nvstatuscodes.h): 0x1f
# NV_ERR_INVALID_ARGUMENT, 0x23 NV_ERR_INVALID_CLIENT, 0x33
# NV_ERR_INVALID_OBJECT_HANDLE, 0x56 NV_ERR_NOT_SUPPORTED.
want="open fd 0 -
check_version 0 0 -
check_version_bad -1 22 -
sys_params 0 0 -
sys_params_busy -1 16 -
card_info 0 0 -
attach_gpus -1 22 -
rm_alloc 0 0 0x0
rm_alloc64 0 0 0x0
rm_control 0 0 0x0
rm_control_xfer 0 0 0x0
rm_control_attached 0 0 0x0
rm_control_probed 0 0 0x0
rm_control_badcmd 0 0 0x56
rm_control_badsize 0 0 0x1f
rm_control_badclient 0 0 0x23
rm_alloc_badsize -1 22 -
unknown_escape -1 22 -
rm_free 0 0 0x0
rm_free64 0 0 0x0
rm_free_again 0 0 0x33
mmap -1 22 -
close 0 0 -"
# "NAME RET ERRNO STATUS" of each NVCTL line.
got=$(sed -n 's/^NVCTL call=\([a-z0-9_]*\) .* ret=\([-0-9]*\) errno=\([0-9]*\) status=\([^ ]*\) .*/\1 \2 \3 \4/p' "$S/nvctl.out" |
	awk '$1 == "open" && $2 >= 0 { $2 = "fd" } { print }')
check_eq "$P the calls made, in order" "$(echo "$got" | cut -d' ' -f1 | tr '\n' ' ')" \
	"$(echo "$want" | cut -d' ' -f1 | tr '\n' ' ')"
while read -r name r e s; do
	line=$(echo "$got" | awk -v n="$name" '$1 == n { print $2, $3, $4; exit }')
	check_eq "$P $name returns ret=$r errno=$e status=$s" "$line" "$r $e $s"
done <<EOF
$want
EOF
# field CALL KEY: the value of KEY= on CALL's line.
field() {
	awk -v c="call=$1" -v k="$2=" '$1 == "NVCTL" && $2 == c {
		for (i = 3; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }' "$S/nvctl.out"
}
check_eq "$P check_version: reply 1, the driver's version" "$(field check_version info)" "reply:1,version:$ver"
check_eq "$P card_info: no GPU" "$(field card_info info)" "valid:0"
check "$P rm_alloc: a client handle" sh -c "grep -Eq '^NVCTL call=rm_alloc .* info=hClient:0x[0-9a-f]{8}$' $S/nvctl.out"
check_eq "$P rm_alloc: class NV01_ROOT_CLIENT" "$(field rm_alloc obj)" 0x41
check_eq "$P rm_control: NV0000_CTRL_CMD_SYSTEM_GET_BUILD_VERSION_V2" "$(field rm_control obj)" 0x13e
check_eq "$P rm_control_xfer: through NV_ESC_IOCTL_XFER_CMD (0xd3) to NV_ESC_RM_CONTROL (0x2a)" \
	"$(field rm_control_xfer esc) $(field rm_control_xfer info)" "0xd3 xfer:0x2a:32"
check_eq "$P RM build version is the module's" "$(sed -n 's/^NVCTL-INFO build_version=//p' "$S/nvctl.out")" "$ver"
check_eq "$P no GPU attached or probed" "$(grep -c '^NVCTL-INFO \(attached\|probed\)_gpus=0$' "$S/nvctl.out")" 2
check "$P the refused version is logged (NVRM: API mismatch)" sh -c "dmesg | grep -q 'NVRM: API mismatch: the client has the version 1.0'"

# ---------------------------------------------------------------------------
# 3. What the kprobes saw: nvctl's own events (its comm).
ev() { grep -c "^ *nvctl-[0-9]* .* $1: " "$S/trace.out"; }
ioctls=$(grep -c '^NVCTL call=.* esc=0x' "$S/nvctl.out")
check_eq "$P kprobe $ioctl: once per ioctl" "$(ev ioctl)" "$ioctls"
check_eq "$P kretprobe $ioctl: once per ioctl" "$(ev ioctl_ret)" "$ioctls"
check_eq "$P kprobe $ioctl: the escape numbers in order (_IOC_NR of cmd)" \
	"$(sed -n 's/.* ioctl: .* cmd=0x\([0-9a-f]*\) .*/\1/p' "$S/trace.out" | while read -r c; do printf '0x%x ' $((0x$c & 0xff)); done)" \
	"$(sed -n 's/^NVCTL call=.* esc=\(0x[0-9a-f]*\) .*/\1/p' "$S/nvctl.out" | tr '\n' ' ')"
check_eq "$P kretprobe $ioctl: the return values in order" \
	"$(sed -n 's/.* ioctl_ret: .* ret=\([-0-9]*\)$/\1/p' "$S/trace.out" | tr '\n' ' ')" \
	"$(sed -n 's/^NVCTL call=.* esc=0x[0-9a-f]* .* ret=0 .*/0/p; s/^NVCTL call=.* esc=0x[0-9a-f]* .* errno=\([0-9]*\) .*/-\1/p' "$S/nvctl.out" | tr '\n' ' ')"
check_eq "$P kprobe nvidia_mmap: the vma's size" \
	"$(sed -n 's/.* mmap: .* start=0x\([0-9a-f]*\) end=0x\([0-9a-f]*\)$/\1 \2/p' "$S/trace.out" | while read -r a b; do echo $((0x$b - 0x$a)); done)" 8192
check_eq "$P kretprobe nvidia_mmap: -EINVAL" "$(sed -n 's/.* mmap_ret: .* ret=\([-0-9]*\)$/\1/p' "$S/trace.out")" -22
check_eq "$P kprobe $open: once" "$(ev open)" 1
check_eq "$P kprobe $close: once" "$(ev close)" 1
check "$P kprobe nv_printf: the refused mmap's message, level NV_DBG_ERRORS (4)" \
	grep -q ' printf: .* level=0x4 fmt="NVRM: VM: invalid mmap' "$S/trace.out"

echo >$trace/kprobe_events
check "$P rmmod" rmmod nvidia
