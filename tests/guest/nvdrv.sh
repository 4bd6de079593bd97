#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# (Not on trixie's 6.12: trixie's driver is 550, sid's, and tests/nvidia
# builds bookworm's 535 there, a pairing no user runs; CI's time is budgeted
# per kernel, tests/README.md.)
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
#     messages on nv_printf (the Xid messages' path);
#  4. nvdrv itself: with no driver, its one-line error; on nvctl's calls, text,
#     -e and -j at once: every ioctl by escape name (the XFER one unwrapped),
#     its errors by errno, the RM's class or command and status per call, the
#     mmap's size and failure, the opens and closes of nvidiactl, exact as
#     nvctl printed them; latencies positive and bounded; JSON equal to the
#     text; --cgroup with nvctl run in two cgroups; with an interval, a
#     burst of calls across several summaries adds up exactly (that, and
#     escaped names, in 6.1's guest only: frontend_checks, tests/lib.sh).
#
# Environment (from tests/vm/run): VM_KERNEL (6.1|sid|5.10|6.12), VM_SCRATCH,
# VM_MODPROBE, NVIDIA_KO or NVIDIA_UNAVAILABLE (why it was not built).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

S=${VM_SCRATCH:?}
K=${VM_KERNEL:?}
P="nvdrv real driver:"
W=$PWD/build/tests/nvctl
T=$PWD/bin/nvdrv
trace=/sys/kernel/tracing

start() { start_tool "$1" "$T" "${@:2}"; }
stop() { stop_tool "$@"; }

if [ -z "${NVIDIA_KO:-}" ]; then
	why=${NVIDIA_UNAVAILABLE:-"nvidia.ko was not built for this kernel (tests/nvidia/build --kernel $K)"}
	# 535 builds for 6.1: not having it there is a failure, not a skip.
	if [ "$K" = 6.1 ]; then fail "$P $why"; else skip "$P $why"; fi
	exit 0
fi
[ -x "$W" ] || { fail "$P no $W (make test-progs)"; exit 0; }

# No driver yet: the tool says which module, in one line.
expect_error "$P nvdrv without nvidia.ko: names the module" 1 \
	"^nvdrv: module nvidia is not loaded .*'modprobe nvidia'$" "$T"

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
gen=$(nvidia_generation)
if [ "$gen" -lt 550 ]; then
	open=nvidia_frontend_open close=nvidia_frontend_close ioctl=nvidia_frontend_unlocked_ioctl
	also="nvidia_open nvidia_close nvidia_ioctl nvidia_frontend_poll"
else
	open=nvidia_open close=nvidia_close ioctl=nvidia_unlocked_ioctl
	also=""
fi
fns="$open $close $ioctl $also nvidia_poll nv_set_system_power_state nvidia_vma_open nvidia_vma_release nvidia_mmap nvidia_fault nvidia_isr nvidia_isr_msix nvidia_isr_kthread_bh
     nvidia_isr_msix_kthread_bh nvidia_isr_bh_unlocked nvidia_p2p_get_pages nvidia_p2p_put_pages
     nvidia_p2p_dma_map_pages nvidia_p2p_dma_unmap_pages nv_printf nv_log_error"
# The module's lines of each list, read once: a grep of the whole list
# takes about 2 s under TCG.
grep -F '[nvidia]' /proc/kallsyms >"$S/ksyms"
grep -F '[nvidia]' $trace/available_filter_functions >"$S/traceable"
missing=""
for f in $fns; do
	grep -q " $f\s*\[nvidia\]$" "$S/ksyms" || missing+=" $f"
done
check_eq "$P the hooked functions are in kallsyms" "${missing# }" ""
# The resource manager's own functions (the binary nv-kernel.o) are built
# without ftrace entries: no kprobe on them (rm_ioctl, say).
check "$P rm_ioctl exists but takes no kprobe (notrace)" sh -c \
	"grep -q ' rm_ioctl\s*\[nvidia\]' $S/ksyms && ! grep -q '^rm_ioctl ' $S/traceable"
notrace=""
for f in $fns; do
	grep -q "^$f \[nvidia\]" "$S/traceable" || notrace+=" $f"
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

# ---------------------------------------------------------------------------
# 4. nvdrv on nvctl's calls: text, -e and -j at once.
P="nvdrv:"
# gpuhang beside them: its Xid kprobes on the real driver's functions.
start_tool "$S/h.j" "$PWD/bin/gpuhang" -j; h_pid=$tool_pid
start "$S/t.out"; t_pid=$tool_pid
start "$S/e.out" -e --timeline "$S/nv.json"; e_pid=$tool_pid
start "$S/j.out" -j
"$W" >"$S/nvctl2.out" 2>&1
h_probes=$(bpftool perf show 2>&1 | awk -v p="$h_pid" '$2 == p && / kprobe / { for (i = 1; i < NF; i++) if ($i == "func") print $(i + 1) }' | sort | tr '\n' ' ')
stop INT
j_status=$tool_status
kill -INT "$t_pid" "$e_pid"; wait "$t_pid"; t_status=$?; wait "$e_pid"; e_status=$?
check_eq "$P text, -e, -j: exit 0" "$t_status $e_status $j_status" "0 0 0"
stop_tools "gpuhang on nvidia.ko" "$h_pid"
check_eq "gpuhang on nvidia.ko: its Xid kprobes on the real nv_printf and nv_log_error" \
	"$h_probes" "nv_log_error nv_printf "
# (nvidia.ko loads drm: before 6.14 it has no wedged event, said.)
h_lacks=""
[ "$VM_KERNEL" = sid ] || h_lacks="gpuhang: drm has no function drm_dev_wedged_event (Linux < 6.14): wedged devices not traced
"
check_eq "gpuhang on nvidia.ko: no Xid; on stderr what drm lacks and the banner" \
	"$(jq -r 'select(.event == "XID") | .xid' "$S/h.j")$(cat "$S/h.j.err")" \
	"${h_lacks}Tracing GPU job timeouts and recoveries (no DRM scheduler)... Hit Ctrl-C to end."
# The one line every nvdrv says: where its Xids come from. 535 and 550
# define no tracepoint (575 and later do: nvmock.sh plays one).
xids_kprobes="nvdrv: Xids from nv_printf and nv_log_error (kprobes): nvidia.ko has no tracepoint nvidia:nvidia_dev_xid (575 and later have it)"
check_eq "$P all functions found; on stderr, the Xids' source alone (text, -e)" \
	"$(cat "$S/t.out.err" "$S/e.out.err")" "$xids_kprobes
$xids_kprobes"
check_eq "$P -j: on stderr, the Xids' source and the banner" "$(cat "$S/j.out.err")" \
	"$xids_kprobes
Tracing nvidia.ko $ver, counting from now... Hit Ctrl-C to end."

# What nvctl did, by the escape the driver ran (the inner one of XFER):
# "ESC XFER ERRNO STATUS OBJ" per ioctl, in order.
calls=$(awk '$1 == "NVCTL" && $3 != "esc=-" {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	esc = f["esc"]; x = 0
	if (f["info"] ~ /^xfer:/) { split(f["info"], a, ":"); esc = a[2]; x = 1 }
	print esc, x, f["errno"], f["status"], f["obj"] }' "$S/nvctl2.out")
name_of() {
	case $1 in
	0x29) echo RM_FREE ;; 0x2a) echo RM_CONTROL ;; 0x2b) echo RM_ALLOC ;;
	0xc8) echo CARD_INFO ;; 0xd2) echo CHECK_VERSION_STR ;; 0xd4) echo ATTACH_GPUS_TO_FD ;;
	0xd6) echo SYS_PARAMS ;; *) echo "$1" ;;
	esac
}
errname() { case $1 in 22) echo EINVAL ;; 16) echo EBUSY ;; *) echo "$1" ;; esac; }
check_eq "$P nvctl made its 20 ioctls" "$(echo "$calls" | wc -l)" 20
# "NAME CALLS XFER ERRORS" per escape.
want_esc=$(echo "$calls" | while read -r esc x e st o; do echo "$(name_of "$esc") $x $e"; done |
	awk '{ n[$1]++; x[$1] += $2; if ($3 != 0) e[$1]++ } END { for (k in n) print k, n[k], x[k], e[k] + 0 }' | sort)
# The ioctl rows: PID COMM ESCAPE NR CALLS XFER ERRORS AVG MAX.
ioctl_rows() { awk '$2 == "nvctl" && NF == 9 && $4 ~ /^0x/ { print $3, $5, $6, $7 }' "$1" | sort; }
check_eq "$P calls, XFER and errors per escape, named (0x99 by number)" "$(ioctl_rows "$S/t.out")" "$want_esc"
check "$P RM_CONTROL: 7 calls, 1 through XFER" grep -Eq '^[0-9]+ +nvctl +RM_CONTROL +0x2a +7 +1 +0 ' "$S/t.out"
check_eq "$P latencies: every escape's average >= 1 us, max < 10 s" \
	"$(awk '$2 == "nvctl" && NF == 9 && $4 ~ /^0x/ && $8 >= 1 && $9 < 10000000 && $9 >= $8' "$S/t.out" | wc -l)" \
	"$(echo "$want_esc" | wc -l)"
check_eq "$P a latency histogram per escape, counting its calls" \
	"$(awk '/^[A-Z_0-9x]+ \(0x[0-9a-f]+\) latency:$/ { name = $1; next }
		name != "" && $1 == "count" { print name, $2; name = "" }' "$S/t.out" | sort)" \
	"$(echo "$want_esc" | cut -d' ' -f1,2)"
# Errors: "ESCAPE ERROR COUNT".
want_err=$(echo "$calls" | awk '$3 != 0 { print $1, $3 }' | while read -r esc e; do echo "$(name_of "$esc") $(errname "$e")"; done |
	sort | uniq -c | awk '{ print $2, $3, $1 }')
check_eq "$P errors per escape and errno (EINVAL x4, EBUSY)" \
	"$(awk '$2 == "nvctl" && NF == 5 && $4 ~ /^E[A-Z]+$/ { print $3, $4, $5 }' "$S/t.out" | sort)" "$want_err"
check_eq "$P EINVAL: 4" "$(awk '$2 == "nvctl" && NF == 5 && $4 == "EINVAL" { n += $5 } END { print n }' "$S/t.out")" 4
# RM statuses: "ESCAPE OBJECT STATUS COUNT", the object for alloc and control only.
want_rm=$(echo "$calls" | awk '$4 != "-" { o = ($1 == "0x29") ? "-" : $5; print $1, o, $4 }' |
	while read -r esc o st; do echo "$(name_of "$esc") $o $st"; done | sort | uniq -c | awk '{ print $2, $3, $4, $1 }')
check_eq "$P RM status per escape and class/command, as nvctl read them" \
	"$(awk '$2 == "nvctl" && $3 ~ /^RM_/ && $5 ~ /^0x/ && NF >= 8 { print $3, $4, $5, $6 }' "$S/t.out" | sort)" "$want_rm"
check "$P RM statuses named (0x56 NV_ERR_NOT_SUPPORTED, 0x1f, 0x23, 0x33)" sh -c \
	"grep -q ' 0x56 .* NV_ERR_NOT_SUPPORTED ' '$S/t.out' && grep -q ' 0x1f .* NV_ERR_INVALID_ARGUMENT ' '$S/t.out' &&
	 grep -q ' 0x23 .* NV_ERR_INVALID_CLIENT ' '$S/t.out' && grep -q ' 0x33 .* NV_ERR_INVALID_OBJECT_HANDLE' '$S/t.out'"
check "$P RM_ALLOC class 0x41 named NV01_ROOT_CLIENT" grep -Eq ' RM_ALLOC +0x41 +0x0 +2 +NV_OK +NV01_ROOT_CLIENT$' "$S/t.out"
# The device: PID COMM DEVICE OPENS OPEN_ERR CLOSES MMAPS MMAP_BYTES MMAP_ERR FAULTS.
check_eq "$P nvidiactl: opened, closed, one mmap of 8192 bytes that failed" \
	"$(awk '$2 == "nvctl" && $3 == "nvidiactl" { print $4, $5, $6, $7, $8, $9, $10 }' "$S/t.out")" "1 0 1 1 8192 1 0"

# -e: one line per call, in nvctl's order.
ev=$S/e.out
check_eq "$P -e: OPEN, 20 IOCTL, MMAP, CLOSE in order" \
	"$(awk '$4 == "nvctl" { print $2 }' "$ev" | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')" \
	"OPEN:1 IOCTL:20 MMAP:1 CLOSE:1 "
check_eq "$P -e: each ioctl's escape, XFER, errno and status, as nvctl saw them" \
	"$(awk '$2 == "IOCTL" && $4 == "nvctl" {
		esc = $5; sub(/^esc=[A-Z_0-9x]*\(/, "", esc); sub(/\)$/, "", esc)
		x = ($6 == "xfer") ? 1 : 0; e = 0; st = "-"
		for (i = 6; i <= NF; i++) {
			if ($i ~ /^ret=-/) { e = substr($i, 6) }
			if ($i ~ /^status=/) st = substr($i, 8)
		}
		print esc, x, e, st }' "$ev")" \
	"$(echo "$calls" | cut -d' ' -f1-4)"
check_eq "$P -e: RM_ALLOC's class and RM_CONTROL's command per call" \
	"$(awk '$2 == "IOCTL" && $4 == "nvctl" { for (i = 6; i <= NF; i++) if ($i ~ /^(class|cmd)=/) { sub(/^[a-z]+=/, "", $i); sub(/\(.*/, "", $i); print $i } }' "$ev")" \
	"$(echo "$calls" | awk '($1 == "0x2b" || $1 == "0x2a") { print $5 }')"
check_eq "$P -e: RM_ALLOC's class and RM_CONTROL's command named where known" \
	"$(awk '$2 == "IOCTL" && $4 == "nvctl" { for (i = 6; i <= NF; i++) if ($i ~ /^(class|cmd)=/) print $i }' "$ev" | sort | uniq -c | awk '{ print $2, $1 }')" \
	"$(echo "$calls" | awk '$1 == "0x2b" { print "class=" $5 } $1 == "0x2a" { print "cmd=" $5 }' | sed \
		-e 's/^class=0x41$/&(NV01_ROOT_CLIENT)/' -e 's/^cmd=0x13e$/&(SYSTEM_GET_BUILD_VERSION_V2)/' \
		-e 's/^cmd=0x201$/&(GPU_GET_ATTACHED_IDS)/' -e 's/^cmd=0x214$/&(GPU_GET_PROBED_IDS)/' |
		sort | uniq -c | awk '{ print $2, $1 }')"
check "$P -e: the mmap, 8192 bytes, EINVAL" grep -Eq ' MMAP +[0-9]+ +nvctl +dev=nvidiactl bytes=8192 ret=-22 EINVAL lat=[0-9]+us$' "$ev"
check "$P -e: open and close of nvidiactl" sh -c \
	"grep -Eq ' OPEN +[0-9]+ +nvctl +dev=nvidiactl ret=0 ' '$ev' && grep -Eq ' CLOSE +[0-9]+ +nvctl +dev=nvidiactl$' '$ev'"

# --timeline (written with -e's lines): nvctl's calls as slices on its
# thread's track, in -e's order, named by escape and RM class or command,
# lasting their latency; the failing ones marked by their errno or RM
# status; the process named.
tl=$S/nv.json
nvs() { jq -r "[.[] | select(.ph == \"$1\" and .cat != \"error\" and .pid == $2)] | sort_by(.ts) | .[] | $3" "$tl"; }
nv_pid=$(awk '$4 == "nvctl" { print $3; exit }' "$ev")
check_eq "$P --timeline: the file is JSON (an array)" "$(jq -r type "$tl")" array
check_eq "$P --timeline: OPEN, the 20 ioctls and MMAP as slices, CLOSE an instant, in -e's order" \
	"$(nvs X "$nv_pid" '.name | split(" ")[0]' | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')$(nvs i "$nv_pid" .name)" \
	"$(awk '$4 == "nvctl" && $2 == "IOCTL" { e = $5; sub(/^esc=/, "", e); sub(/\(.*/, "", e); print e; next }
		$4 == "nvctl" && $2 != "CLOSE" { print $2 }' "$ev" | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')CLOSE"
check_eq "$P --timeline: RM_ALLOC's class and RM_CONTROL's command in the names" \
	"$(nvs X "$nv_pid" 'select(.name | test("^RM_(ALLOC|CONTROL) ")) | .args.object' | while read -r o; do printf '0x%x\n' "$o"; done)" \
	"$(echo "$calls" | awk '($1 == "0x2b" || $1 == "0x2a") { print $5 }')"
check "$P --timeline: class 0x41 named NV01_ROOT_CLIENT" sh -c "jq -e '.[] | select(.name == \"RM_ALLOC NV01_ROOT_CLIENT\")' '$tl' >/dev/null"
check_eq "$P --timeline: each slice lasts its -e line's latency (whole us)" \
	"$(nvs X "$nv_pid" '.dur | floor' | paste -sd' ')" \
	"$(awk '$4 == "nvctl" && $NF ~ /^lat=[0-9]+us$/ { l = $NF; gsub(/[^0-9]/, "", l); print l }' "$ev" | paste -sd' ')"
check_eq "$P --timeline: the failing calls marked, by errno or RM status, in order" \
	"$(jq -r "[.[] | select(.ph == \"i\" and .cat == \"error\" and .pid == $nv_pid)] | sort_by(.ts) | .[].name" "$tl" | paste -sd' ')" \
	"$(awk '$4 == "nvctl" && ($2 == "IOCTL" || $2 == "MMAP" || $2 == "OPEN") { m = ""
		for (i = 6; i <= NF; i++) { if ($i ~ /^ret=-/) m = $(i + 1); if ($i ~ /^status=/ && $i != "status=0x0") m = $(i + 1) }
		if (m != "") print m }' "$ev" | paste -sd' ')"
check_eq "$P --timeline: nvctl's process and thread named" \
	"$(jq -r ".[] | select(.ph == \"M\" and .pid == $nv_pid and (.name == \"process_name\" or .name == \"thread_name\")) | .args.name" "$tl" | paste -sd' ')" \
	"nvctl nvctl"

# -j: the same run as JSON lines, equal to the text.
j=$S/j.out
check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
check_eq "$P -j: ioctl rows equal the text's" \
	"$(jq -r 'select(.type == "ioctl" and .comm == "nvctl") | "\(.escape) \(.calls) \(.xfer) \(.errors)"' "$j" | sort)" \
	"$(ioctl_rows "$S/t.out")"
check_eq "$P -j: RM rows: escape, object, status, count as nvctl read them" \
	"$(jq -r 'select(.type == "rm" and .comm == "nvctl") |
		"\(.escape) \(if .object == null then "-" else "0x\(.object | tostring)" end) \(.status) \(.count)"' "$j" |
		while read -r e o s c; do [ "$o" = - ] || o=$(printf '0x%x' "${o#0x}"); echo "$e $o $(printf '0x%x' "$s") $c"; done | sort)" \
	"$want_rm"
check_eq "$P -j: errors equal the text's" \
	"$(jq -r 'select(.type == "ioctl_error" and .comm == "nvctl") | "\(.escape) \(.error) \(.count)"' "$j" | sort)" "$want_err"
check_eq "$P -j: the device row" \
	"$(jq -r 'select(.type == "device" and .comm == "nvctl") | "\(.device) \(.dev) \(.opens) \(.closes) \(.mmaps) \(.mmap_bytes) \(.mmap_errors)"' "$j")" \
	"nvidiactl 195:255 1 1 1 8192 1"
check_eq "$P -j: histograms count every call, latencies > 0" \
	"$(jq -r 'select(.type == "ioctl_hist") | "\(.escape) \(.count) \([.buckets[].count] | add) \(.min >= 1)"' "$j" | sort)" \
	"$(echo "$want_esc" | awk '{ print $1, $2, $2, "true" }')"

# --prometheus, read back through the real node_exporter and Prometheus:
# nvctl's calls and errors per escape, the RM's failing statuses, exactly
# what the text above counted; never per pid.
if prom_start; then
	start "$S/prom.out" --prometheus "$PROM_FILES/nvdrv.prom" 1
	"$W" >/dev/null 2>&1
	"$W" --poll 5 >/dev/null 2>&1	# 7 driver polls
	echo suspend >/proc/driver/nvidia/suspend && echo resume >/proc/driver/nvidia/suspend
	stop INT
	check_prom "$P --prometheus: ioctls per escape of nvctl, no pid" \
		'gpubpf_nvdrv_ioctls_total{comm="nvctl"}' "escape pid" \
		"$(echo "$want_esc" | awk '{ print $1, "-", $2 }' | sort | paste -sd';')"
	check_prom "$P --prometheus: ioctl errors per escape" \
		'gpubpf_nvdrv_ioctl_errors_total{comm="nvctl"} > 0' escape \
		"$(echo "$want_esc" | awk '$4 > 0 { print $1, $4 }' | sort | paste -sd';')"
	check_prom "$P --prometheus: RM calls that failed, per escape and status" \
		'sum by (escape, status) (gpubpf_nvdrv_rm_calls_total{status!="NV_OK"})' "escape status" \
		"RM_CONTROL NV_ERR_INVALID_ARGUMENT 1;RM_CONTROL NV_ERR_INVALID_CLIENT 1;RM_CONTROL NV_ERR_NOT_SUPPORTED 1;RM_FREE NV_ERR_INVALID_OBJECT_HANDLE 1"
	check_prom "$P --prometheus: nvidiactl opened twice (nvctl, nvctl --poll), one mmap of 8192 bytes that failed" \
		'{__name__=~"gpubpf_nvdrv_(opens|mmaps|mmap_bytes|mmap_errors)_total", comm="nvctl", device="nvidiactl"}' __name__ \
		"gpubpf_nvdrv_mmap_bytes_total 8192;gpubpf_nvdrv_mmap_errors_total 1;gpubpf_nvdrv_mmaps_total 1;gpubpf_nvdrv_opens_total 2"
	check_prom "$P --prometheus: the driver's polls of nvctl --poll 5" \
		'gpubpf_nvdrv_polls_total{comm="nvctl", device="nvidiactl"}' "" 7
	check_prom "$P --prometheus: a suspend, a resume, the cycle they made" \
		'gpubpf_nvdrv_power_transitions_total' transition "cycle 1;resume 1;suspend 1"
	check_prom "$P --prometheus: the cycle's histogram counts it" \
		'gpubpf_nvdrv_power_transition_seconds_count{transition="cycle"}' "" 1
	check_prom "$P --prometheus: nothing lost" 'sum(gpubpf_nvdrv_events_lost_total)' "" 0
	check_prom "$P --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" 0
	check "$P --prometheus: promtool check metrics is clean" \
		sh -c "promtool check metrics <'$PROM_FILES/nvdrv.prom'"
	prom_stop
fi

# Interval mode under load: summaries are differences of the kernel's
# running counts, so over several 1-s summaries (-j 1) a burst of nvctl's
# cheap calls (2000 rounds of CHECK_VERSION_STR and RM_CONTROL in >= 3.5 s)
# adds up to the burst exactly: per escape its calls, its histograms'
# counts, its RM rows; nothing lost.
if frontend_checks "interval summaries under load"; then
	start "$S/iv.out" -j 1
	"$W" --burst 2000 3500 >"$S/burst.out" 2>&1
	check_eq "$P interval: nvctl --burst exits 0" "$?" 0
	stop INT
	check_eq "$P interval: exit 0, the Xids' source and the banner on stderr" "$tool_status $(cat "$S/iv.out.err")" \
		"0 $xids_kprobes
Tracing nvidia.ko $ver, counting from now... Hit Ctrl-C to end."
	bpid=$(sed -n 's/^NVCTL-BURST pid=\([0-9]*\) .*/\1/p' "$S/burst.out")
	# "ESC CALLS" of the burst, per escape: as nvctl counted them, as the summaries sum them.
	want_burst=$(sed -n 's/^NVCTL-BURST esc=\(0x[0-9a-f]*\) calls=\([0-9]*\) .*/\1 \2/p' "$S/burst.out" | sort)
	per_esc() { awk '{ n[$1] += $2 } END { for (e in n) printf "0x%x %d\n", e, n[e] }' | sort; }
	check_eq "$P interval: the burst's calls, no error, NV_OK" \
		"$(grep -c '^NVCTL-BURST esc=.* errors=0 bad_status=0$' "$S/burst.out") $(echo "$want_burst" | awk '$1 == "0xd2" || $1 == "0x2a" { print $2 }' | tr '\n' ' ')" \
		"4 2000 2000 "
	check_ge "$P interval: the burst spans >= 3 summaries" \
		"$(jq -r --argjson p "${bpid:-0}" 'select(.type == "ioctl" and .pid == $p and .esc == 210) | .ts' "$S/iv.out" | sort -u | wc -l)" 3
	check_eq "$P interval: calls per escape summed over the summaries: the burst's, exactly" \
		"$(jq -r --argjson p "${bpid:-0}" 'select(.type == "ioctl" and .pid == $p) | "\(.esc) \(.calls)"' "$S/iv.out" | per_esc)" \
		"$want_burst"
	check_eq "$P interval: latency histograms' counts summed: the same" \
		"$(jq -r 'select(.type == "ioctl_hist") | "\(.esc) \(.count)"' "$S/iv.out" | per_esc)" "$want_burst"
	check_eq "$P interval: RM rows summed: every call NV_OK, the same counts" \
		"$(jq -r --argjson p "${bpid:-0}" 'select(.type == "rm" and .pid == $p and .status == 0) | "\(.esc) \(.count)"' "$S/iv.out" | per_esc)" \
		"$(echo "$want_burst" | grep -v '^0xd2 ')"
	check_eq "$P interval: nothing lost" "$(jq -r 'select(.type == "lost") | .what' "$S/iv.out")" ""
fi

# --pod and --container: nvctl (as nvctlA, nvctlB) in two containers'
# cgroups (cg_names), B's twice (two processes: two rows, summed per name
# here).
cp "$W" "$S/nvctlA"; cp "$W" "$S/nvctlB"
cg=/sys/fs/cgroup/nvdrv-test
start "$S/comm.out" -c nvctlB; comm_pid=$tool_pid
cgroup_tracers_start "$cg"
in_cgroup "$cg_A" "$S/nvctlA" >/dev/null
in_cgroup "$cg_B" "$S/nvctlB" >/dev/null
in_cgroup "$cg_B" "$S/nvctlB" >/dev/null
cgroup_tracers_stop
kill -INT "$comm_pid"; wait "$comm_pid"
check_eq "$P --cgroup: unfiltered sees both: 7 and 14 RM_CONTROL calls" \
	"$(awk '$2 ~ /^nvctl[AB]$/ && $3 == "RM_CONTROL" && $4 == "0x2a" { n[$2] += $5 } END { for (c in n) print c, n[c] }' "$S/cg-all.out" | sort | tr '\n' ' ')" \
	"nvctlA 7 nvctlB 14 "
check_eq "$P --pod -C: A's calls only, named by container, pod and cgroup" \
	"$(awk '$3 == "RM_CONTROL" && $4 == "0x2a" { print $2, $5, $(NF - 2), $(NF - 1), $NF }' "$S/cg-A.out")" \
	"nvctlA 7 $cg_A_text"
check_eq "$P --pod -C: its device row, with the container" \
	"$(awk '$3 == "nvidiactl" { print $2, $4, $(NF - 2), $(NF - 1), $NF }' "$S/cg-A.out")" "nvctlA 1 $cg_A_text"
cg_prom_check "$P" nvctlA 'gpubpf_nvdrv_ioctls_total{escape="RM_CONTROL",comm="nvctlA"' 7
check_eq "$P --container -j -C: B's calls only" \
	"$(jq -r "select(.type == \"ioctl\" and .escape == \"RM_CONTROL\") | \"\(.comm) \(.calls) $CG_JQ\"" "$S/cg-B.out")" \
	"nvctlB 7 $cg_B_json
nvctlB 7 $cg_B_json"
check_eq "$P --container -j: no other process" \
	"$(jq -r 'select(.comm != null and .comm != "nvctlB") | .comm' "$S/cg-B.out" | sort -u)" ""
check_eq "$P -c nvctlB: its calls only" \
	"$(awk '$2 ~ /^nvctl/ && $4 ~ /^0x/ && NF == 9 { print $2 }' "$S/comm.out" | sort -u) $(awk '$3 == "RM_CONTROL" && $4 == "0x2a" { n += $5 } END { print n }' "$S/comm.out")" \
	"nvctlB 14"
expect_error "$P -c with a name too long" 64 "invalid COMM '0123456789abcdefg'" "$T" -c 0123456789abcdefg

# A hostile process name (issue 23, tests/lib.sh's HOSTILE): nvctl's calls
# under that name, traced as text and as -e text and -e -j at once. The
# text keeps one line per event (as many as -j's), the name one column,
# escaped, and no control byte; -j keeps the name exactly.
if frontend_checks "a hostile process name"; then
	cp "$W" "$S/$HOSTILE"
	start "$S/hn.sum"; hn_sum=$tool_pid
	start "$S/hn.ev" -e; hn_ev=$tool_pid
	start "$S/hn.evj" -e -j
	"$S/$HOSTILE" >/dev/null 2>&1 &
	h=$!
	wait $h
	for tool_pid in $hn_sum $hn_ev $tool_pid; do stop INT; done
	check_eq "$P hostile name -e: nvctl's 20 ioctls, the name escaped in COMM" \
		"$(awk -v p=$h '$3 == p && $2 == "IOCTL" { print $4 }' "$S/hn.ev" | uniq -c | sed 's/^ *//')" \
		"20 $HOSTILE_TEXT"
	check_eq "$P hostile name -e: one text line per -j event, and the header" \
		"$(wc -l <"$S/hn.ev")" "$(($(jrows "$S/hn.evj" event .event | wc -l) + 1))"
	check_no_control "$P hostile name: no control byte in the text outputs" "$S/hn.ev" "$S/hn.sum"
	check_eq "$P hostile name summary: the ioctl rows, the name one column" \
		"$(awk -v p=$h '$1 == p && NF == 9 && $4 ~ /^0x/ { n += $5; c[$2] = 1 } END { for (k in c) print k, n }' "$S/hn.sum")" \
		"$HOSTILE_TEXT 20"
	check_hostile_json "$P hostile name -j: the name exact, the bad byte U+FFFD" \
		"$(jrows "$S/hn.evj" event "select(.pid == $h) | .comm" | sort -u)"
fi

# ---------------------------------------------------------------------------
# Poll calls and power management (issue 17.1), on the real driver's own
# paths. nvctl --poll 40: 40 poll() calls that do not wait and one that
# waits 50 ms, 42 calls of the driver's poll, none with events (no GPU
# raises any). Then /proc/driver/nvidia/suspend, which runs
# nv_set_system_power_state as nvidia-suspend.service does: suspend (NV_OK),
# suspend again (NV_OK: already there), hibernate (NV_ERR_INVALID_ARGUMENT
# 0x1f: only from running; the write fails EIO), 300 ms, resume (NV_OK: a
# cycle >= 300 ms), then at depth modeset suspend, 100 ms, resume (a second
# cycle), and resume once more (NV_OK: already running, no cycle).
P="nvdrv poll and power:"
start "$S/pp.out"; pp_txt=$tool_pid
start "$S/pp.ev" -e --timeline "$S/pp.json"; pp_ev=$tool_pid
start "$S/pp.j" -j
"$W" --poll 40 >"$S/poll.out" 2>&1
poll_pid=$(sed -n 's/^NVCTL-POLL pid=\([0-9]*\) .*/\1/p' "$S/poll.out")
check_eq "$P nvctl --poll: 41 poll() calls, none ready" \
	"$(sed 's/pid=[0-9]* //' "$S/poll.out")" "NVCTL-POLL polls=40 waited=1 ready=0 driver_polls=42"
suspend_file=/proc/driver/nvidia/suspend
check_eq "$P /proc/driver/nvidia/suspend offers the three" "$(cat $suspend_file)" "suspend hibernate resume"
power() { echo "$1" >$suspend_file 2>/dev/null; printf '%s ' $?; }
power_rc=$(power suspend; power suspend; power hibernate; sleep 0.3; power resume
	   echo modeset >/proc/driver/nvidia/suspend_depth; power suspend; sleep 0.1; power resume
	   echo default >/proc/driver/nvidia/suspend_depth; power resume)
check_eq "$P the writes: suspend, suspend, hibernate refused, resume, suspend, resume, resume" \
	"$power_rc" "0 0 1 0 0 0 0 "
stop INT
pp_j_status=$tool_status
kill -INT "$pp_txt" "$pp_ev"; wait "$pp_txt"; pp_txt_status=$?; wait "$pp_ev"; pp_ev_status=$?
check_eq "$P text, -e, -j: exit 0" "$pp_txt_status $pp_ev_status $pp_j_status" "0 0 0"
# The device row: PID COMM DEVICE OPENS OPEN_ERR CLOSES MMAPS MMAP_BYTES MMAP_ERR FAULTS POLLS READY.
check_eq "$P nvidiactl: 42 driver polls, none ready, one open and close" \
	"$(awk -v p="$poll_pid" '$1 == p && $3 == "nvidiactl" { print $2, $4, $6, $11, $12 }' "$S/pp.out")" \
	"nvctl 1 1 42 0"
check_eq "$P -j: the device row's polls" \
	"$(jq -r "select(.type == \"device\" and .pid == $poll_pid) | \"\(.polls) \(.polls_ready)\"" "$S/pp.j")" "42 0"
# The power table: POWER CALLS ERRORS AVG MAX, by the driver's state order.
check_eq "$P the power rows: calls and errors per transition, the cycles" \
	"$(awk '$1 == "POWER" { on = 1; next } on && NF == 0 { on = 0 } on { print $1, $2, $3 }' "$S/pp.out")" \
	"hibernate 1 1
suspend 3 0
resume 3 0
cycle 2 0"
check_eq "$P the cycles: the longest >= 300 ms (the sleep), < 10 s" \
	"$(awk '$1 == "cycle" { print ($5 >= 300000 && $5 < 10000000) }' "$S/pp.out")" 1
check_eq "$P -j: the power rows equal the text's" \
	"$(jq -r 'select(.type == "power") | "\(.transition) \(.calls) \(.errors)"' "$S/pp.j")" \
	"$(awk '$1 == "POWER" { on = 1; next } on && NF == 0 { on = 0 } on { print $1, $2, $3 }' "$S/pp.out")"
# -e: one POWER line per transition, in order, with the depth the driver
# was given (a resume gets the depth set at the time); the resumes that
# ended a cycle carry it.
check_eq "$P -e: the transitions in order, with depth and status" \
	"$(sed -n 's/.* POWER .*state=\([a-z]*\) depth=\([a-z]*\) status=\(0x[0-9a-f]*\) \([A-Z_]*\) lat=[0-9]*us.*/\1 \2 \3 \4/p' "$S/pp.ev")" \
	"suspend default 0x0 NV_OK
suspend default 0x0 NV_OK
hibernate default 0x1f NV_ERR_INVALID_ARGUMENT
resume default 0x0 NV_OK
suspend modeset 0x0 NV_OK
resume modeset 0x0 NV_OK
resume default 0x0 NV_OK"
check_eq "$P -e: two resumes end a cycle, the first >= 300 ms, the second >= 100 ms" \
	"$(sed -n 's/.* POWER .*state=resume .* cycle=\([0-9]*\)us$/\1/p' "$S/pp.ev" | awk '{ print (NR == 1 ? $1 >= 300000 : $1 >= 100000) }' | paste -sd' ')" \
	"1 1"
check_eq "$P --timeline: the power slices, the refused one an error, the cycles in args" \
	"$(jq -r '[.[] | select(.name != null and (.name | startswith("power ")))] | sort_by(.ts) | .[] |
		"\(.name) \(.cat) \(.args.cycle_us != null)"' "$S/pp.json")" \
	"power suspend nvidia false
power suspend nvidia false
power hibernate nvidia,error false
power resume nvidia true
power suspend nvidia false
power resume nvidia true
power resume nvidia false"

# ---------------------------------------------------------------------------
# 6. GPU memory per process (issue 17.3) on the real driver: without a GPU
# the RM refuses the device, then every memory object under it (nvctl
# --rm-memory: video memory of 1 MiB, 3 MiB, 0, 2 MiB, 512 KiB; system
# memory of 256 KiB and 5000 bytes; 1 GiB of address space; a 64 KiB OS
# descriptor). nvdrv counts each refusal per class, with the bytes asked
# (read from the allocation parameters) and the RM's status, nothing live;
# nvmock.sh plays the RM that makes them.
P="nvdrv RM memory:"
start "$S/rm.out"; rt_pid=$tool_pid
start "$S/rm.j" -j
"$W" --rm-memory 0 >"$S/rmctl.out" 2>&1
check_eq "$P nvctl --rm-memory exits 0" "$?" 0
stop INT
rj_status=$tool_status
kill -INT "$rt_pid"; wait "$rt_pid"; rt_status=$?
check_eq "$P text, -j: exit 0" "$rt_status $rj_status" "0 0"
rpid=$(sed -n 's/^NVCTL-RMMEM pid=\([0-9]*\).*/\1/p' "$S/rmctl.out")
# nvctl's view, "CLASS-NAME REFUSED BYTES-ASKED" per class, from its lines.
want_mem=$(sed -n 's/^NVCTL-MEM class=\(0x[0-9a-f]*\) size:\([0-9]*\),.*status:\(0x[0-9a-f]*\)$/\1 \2 \3/p' "$S/rmctl.out" |
	awk '$3 != "0x0" { n[$1]++; b[$1] += $2 } END { for (c in n) print c, n[c], b[c] }' |
	sed 's/^0x40 /NV01_MEMORY_LOCAL_USER /; s/^0x3e /NV01_MEMORY_SYSTEM /; s/^0x50a0 /NV50_MEMORY_VIRTUAL /; s/^0x71 /NV01_MEMORY_SYSTEM_OS_DESCRIPTOR /' | sort)
check_eq "$P nvctl: the real RM refused all 9, the bytes asked as planned" "$want_mem" \
	"NV01_MEMORY_LOCAL_USER 5 6815744
NV01_MEMORY_SYSTEM 2 267144
NV01_MEMORY_SYSTEM_OS_DESCRIPTOR 1 65536
NV50_MEMORY_VIRTUAL 1 1073741824"
check_eq "$P per class: none made, the refusals and their bytes exact, nothing live" \
	"$(awk -v p="$rpid" 'NF == 10 && $1 == p && $3 ~ /^NV/ { print $3, $4, $5, $6, $7, $8, $9, $10 }' "$S/rm.out" | sort)" \
	"$(echo "$want_mem" | awk '{ print $1, 0, 0, $2, $3, 0, 0, 0 }')"
check_eq "$P -j: the same rows" \
	"$(jq -r 'select(.type == "memory" and .pid == '"$rpid"') | "\(.class) \(.allocs) \(.frees) \(.failed) \(.failed_bytes) \(.live_objects) \(.live_bytes) \(.peak_bytes)"' "$S/rm.j" | sort)" \
	"$(echo "$want_mem" | awk '{ print $1, 0, 0, $2, $3, 0, 0, 0 }')"
# The RM's statuses, per memory class, as nvctl read them and as nvdrv's RM table has them.
check_eq "$P the refusals' statuses per class, as nvctl read them" \
	"$(jq -r 'select(.type == "rm" and .pid == '"$rpid"' and (.object_name | tostring | test("MEMORY"))) | "\(.object) \(.status) \(.count)"' "$S/rm.j" | sort)" \
	"$(sed -n 's/^NVCTL-MEM class=\(0x[0-9a-f]*\) .*status:\(0x[0-9a-f]*\)$/\1 \2/p' "$S/rmctl.out" |
		while read -r c st; do printf '%d %d\n' "$c" "$st"; done | sort | uniq -c | awk '{ print $2, $3, $1 }')"
check_eq "$P stderr: the Xids' source and the banner" "$(cat "$S/rm.j.err")" "$xids_kprobes
Tracing nvidia.ko $ver, counting from now... Hit Ctrl-C to end."

check "$P rmmod" rmmod nvidia
