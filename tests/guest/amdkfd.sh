#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# vm-options: --la57
# (Not on trixie's 6.12: its KFD answers as 6.1's, its SMI events take a
# pid as 6.1's, and kfdmock's prototypes there, checked by hand
# (tests/kmod/kfdmock-check.sh), are sid's but for the pid: CI's time is
# budgeted per kernel, tests/README.md.)
# amdkfd on the real KFD of each kernel's own amdgpu (no AMD GPU: the KFD
# then has the CPU alone in its topology), then on the test module kfdmock
# (tests/kmod/kfdmock.c, named amdgpu) for what needs a GPU. Proved here:
#  1. every KFD call of tests/amdkfd/kfdclient (2 rounds of 19 known calls,
#     their real results: tests/amdkfd/kfdclient.c) exactly, per call and
#     errno, in text and -j, and decoded in -e's lines;
#  2. ROCm's own user space (6.1): rocminfo, and HIP's runtime
#     (tests/amdkfd/hipclient), which dies of SIGSEGV in hipGetDeviceCount:
#     each process's calls and results equal to bpftrace's view of the same
#     kprobes, the HIP program's last calls before its death in -e;
#  3. sid's failing open of /dev/kfd (EINVAL) shown as such; 5.10's missing
#     SMI events said in one line (on both, kfdclient's known results are
#     the other view: bpftrace runs on 6.1); on every kernel, an open of the
#     KFD's device with minor 1: kfd_open's int -ENODEV, an error; and (not
#     sid) 16 threads inside WAIT_EVENTS at once, more than the kernel's
#     default kretprobe instances (10 on 2 CPUs): every return counted, and
#     with 8 instances (GPU_BPF_KRETPROBE_INSTANCES) the 8 missed said;
#  4. amdgpu unloaded under a running amdkfd: it ends at Ctrl-C with its
#     summary whole;
#  5. kfdmock's workloads (see below): exact live bytes, leaks, failed
#     allocations, queues, evict -> restore times, migrations (sid: one
#     that failed, counted apart) and faults; -c and --cgroup applied to
#     the SMI events as to the calls;
#  6. a pid served again at once: two processes, each with its own name,
#     cgroup, calls and memory; the gauges of the one that exited at 0.
# The guest runs with 5-level paging (--la57; 5.10 is built without): from
# 6.13 the SMI events pass a task, whose address then starts 0xff11....
#
# Environment (tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE, KFDMOCK_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
guest_init amdkfd
[ "$K" = 5.10 ] || check "$P the guest runs with 5-level paging" grep -qw la57 /proc/cpuinfo

KC=$PWD/build/tests/kfdclient
HC=$PWD/build/tests/hipclient
KW=$PWD/build/tests/kfdwork
for w in "$KC" "$HC" "$KW"; do
	[ -x "$w" ] || { fail "$P $w is not built (make test-progs)"; exit 1; }
done

# "0x01 GET_VERSION" ...: the KFD's ioctl names, as the tool's table has them.
awk -F'"' '/^\t\[0x[0-9a-fA-F]+\] = "/ { split($1, a, /[][]/); print tolower(a[2]), $2 }' \
	tools/amdkfd/kfd_names.c >"$S/names"
# "-22 EINVAL" ...
python3 -c 'import errno; [print(-k, v) for k, v in errno.errorcode.items()]' >"$S/errnos"

# kview FILE: the kernel's view (bpftrace's lines) as "PID COMM CALL ERRNO"
# per call, ERRNO 0 for success, CALL as amdkfd names it.
kview() {
	awk 'FILENAME == ARGV[1] { name[$1] = $2; next }
	     FILENAME == ARGV[2] { err[$1] = $2; next }
	     $1 == "IOCTL" { c = name[sprintf("0x%02x", $4)]; if (c == "") c = sprintf("nr_0x%02x", $4)
			     print $2, $3, c, $5 < 0 ? err[$5] : 0 }
	     $1 == "OPEN" { print $2, $3, "open", $4 < 0 ? err[$4] : 0 }' \
		"$S/names" "$S/errnos" "$1"
}
# tview JSON COMM: amdkfd -j's rows of COMM in the same form, one line per call.
tview() {
	jq -r --arg c "$2" 'select(.type == "call" and .comm == $c and .call != "close")
		| "\(.pid) \(.comm) \(.call) \(.calls) \(.errors)"' "$1" |
	while read -r pid comm call calls errors; do
		for _ in $(seq 1 $((calls - errors))); do echo "$pid $comm $call 0"; done
	done
	jq -r --arg c "$2" 'select(.type == "error" and .comm == $c)
		| "\(.pid) \(.comm) \(.call) \(.errno) \(.count)"' "$1" |
	while read -r pid comm call errno count; do
		for _ in $(seq 1 "$count"); do echo "$pid $comm $call $errno"; done
	done
}
same_view() {	# same_view NAME COMM: amdkfd's calls of COMM equal the kernel's
	check_eq "$P $1: every call and result equal to bpftrace's" \
		"$(tview "$S/sum.json" "$2" | sort)" "$(grep " $2 " "$S/kview" | sort)"
}

cat >"$S/kfd.bt" <<'EOF'
BEGIN { printf("READY\n"); }	/* bpftrace runs it once every probe is attached */
kprobe:kfd_ioctl { @cmd[tid] = arg1; @in[tid] = 1; }
kretprobe:kfd_ioctl /@in[tid]/
{
	printf("IOCTL %d %s %d %d\n", pid, comm, @cmd[tid] & 0xff, (int32)retval);
	delete(@cmd[tid]); delete(@in[tid]);
}
kprobe:kfd_open { @open[tid] = 1; }
kretprobe:kfd_open /@open[tid]/ { printf("OPEN %d %s %d\n", pid, comm, (int32)retval); delete(@open[tid]); }
EOF

# ---------------------------------------------------------------------------
# 1.-4. The real KFD.
load_module amdgpu || exit 1
# The real module's BTF, for kfdmock's prototypes in part 5 (none on 5.10).
cp /sys/kernel/btf/amdgpu "$S/amdgpu.btf" 2>/dev/null
# The kernel's view by bpftrace, where real clients run (6.1); elsewhere
# kfdclient's known results are the other view.
[ "$K" = 6.1 ] && { bpftrace "$S/kfd.bt" >"$S/bt.out" 2>"$S/bt.err" & bt_pid=$!; }
pair_start "$S/sum" -l || exit 1
start "$S/ev.txt" -e || exit 1
ev_pid=$tool_pid
if [ "$K" != sid ]; then
	GPU_BPF_KRETPROBE_INSTANCES=8 start "$S/few.json" -j || exit 1
	few_pid=$tool_pid
fi
if [ "$K" = 6.1 ]; then
	for _ in $(seq 1 600); do grep -q '^READY' "$S/bt.out" && break; nap 0.1; done
	check "$P bpftrace attached" grep -q '^READY' "$S/bt.out"
fi

case $K in
5.10)
	check "$P 5.10: its missing SMI events said in one line" \
		grep -q "^amdkfd: amdgpu has no kfd_smi_event_queue_eviction, .*: not shown: evictions, restores" \
		"$S/sum.txt.err"
	;;
*)
	check_eq "$P $K: every hook found, nothing said missing" "$(cat "$S/sum.txt.err")" ""
	;;
esac

"$KC" -n 2 -p >"$S/kc.out" 2>"$S/kc.err"
kc_status=$?
# The KFD's device with minor 1: kfd_open refuses it first, an int -ENODEV.
mknod "$S/kfd1" c "$(cut -d: -f1 /sys/class/kfd/kfd/dev)" 1
cp /bin/dash "$S/kfdminor"
"$S/kfdminor" -c ': <"$1"' sh "$S/kfd1" 2>/dev/null
if [ "$K" != sid ]; then
	cp "$KC" "$S/kfdwaiters"	# a name of its own: bpftrace's kretprobe misses some
	"$S/kfdwaiters" -w 16
	check_eq "$P kfdclient -w 16: every wait timed out" "$?" 0
	tool_pid=$few_pid
	stop
	check_eq "$P 8 kretprobe instances: the 8 waits inside, the 8 missed said" \
		"$(jrows "$S/few.json" call 'select(.comm == "kfdwaiters" and .call == "WAIT_EVENTS") | .calls') $(grep -c "^amdkfd: 8 returns of kfd_ioctl missed (more than 8 threads inside it at once): not counted$" "$S/few.json.err") $(jrows "$S/few.json" lost 'select(.what == "returns") | "\(.count) \(.limit)"')" \
		"8 1 8 8"
fi
if [ "$K" = sid ]; then
	check_eq "$P sid: kfdclient's open fails" "$kc_status $(cat "$S/kc.err")" \
		"1 kfdclient: /dev/kfd: Invalid argument"
elif [ "$K" = 6.1 ]; then
	rocminfo >"$S/rocminfo.out" 2>&1
	check_eq "$P 6.1: rocminfo ran" "$?" 0
	"$HC" >"$S/hc.out" 2>&1
	hc_status=$?
fi
if [ "$K" = 6.1 ]; then
	sleep 1	# bpftrace's perf buffers are read every 100 ms
	stop_bpftrace "$bt_pid"
	kview "$S/bt.out" >"$S/kview"
fi

# 4. Unloaded under the tracers: they end with what they gathered.
check "$P amdgpu unloads under the tracers" $VM_MODPROBE -r amdgpu
pair_stop
check_eq "$P stopped after amdgpu went: text, -j status" "$txt_status $json_status" "0 0"
tool_pid=$ev_pid
stop
check_eq "$P -e: stopped, status 0" "$tool_status" 0

kpid=$(jrows "$S/sum.json" call 'select(.comm == "kfdclient") | .pid' | head -1)
check_eq "$P an open refused with an int errno: counted an error, in text" \
	"$(awk '$2 == "kfdminor" && $3 == "open" { print $4, $5; exit }' "$S/sum.txt")" "1 1"
check_eq "$P the same in -j, its errno" \
	"$(jrows "$S/sum.json" error 'select(.comm == "kfdminor") | "\(.call) \(.errno) \(.count)"')" \
	"open ENODEV 1"
check "$P -e's line of it" grep -Eq "^[0-9.]+ +[0-9]+ +kfdminor +open +-19 ENODEV " "$S/ev.txt"
# trow CALL: "CALLS ERRORS" of kfdclient's CALL in the text summary.
trow() { awk -v p="$kpid" -v c="$1" '$1 == p && $3 == c { print $4, $5; exit }' "$S/sum.txt"; }
jrow() { jrows "$S/sum.json" call "select(.pid == $kpid and .call == \"$1\") | \"\(.calls) \(.errors)\""; }
jrow_of() { jrows "$S/sum.json" call "select(.comm == \"$1\" and .call == \"$2\") | \"\(.calls) \(.errors)\""; }
if [ "$K" = sid ]; then
	check_eq "$P sid: the failed open counted" "$(trow open)" "1 1"
	check_eq "$P sid: its errno" "$(jrows "$S/sum.json" error "select(.pid == $kpid) | \"\(.call) \(.errno) \(.count)\"")" \
		"open EINVAL 1"
	check "$P sid: -e's line of it" grep -Eq "^[0-9.]+ +$kpid +kfdclient +open +-22 EINVAL " "$S/ev.txt"
else
	# kfdclient's 2 rounds: (calls errors) per call, as the real KFD answered.
	apertures="4 2"
	[ "$K" = 5.10 ] && apertures="4 0"
	for want in "GET_VERSION 6 0" "GET_PROCESS_APERTURES_NEW $apertures" "GET_CLOCK_COUNTERS 2 0" \
		    "CREATE_EVENT 4 0" "SET_EVENT 2 0" "WAIT_EVENTS 4 0" "RESET_EVENT 2 0" \
		    "DESTROY_EVENT 4 0" "ALLOC_MEMORY_OF_GPU 2 2" "FREE_MEMORY_OF_GPU 2 2" \
		    "CREATE_QUEUE 2 2" "DESTROY_QUEUE 2 2" "nr_0x7f 2 2" "open 2 0" "close 2 0"; do
		set -- $want
		check_eq "$P kfdclient: $1 in text" "$(trow "$1")" "$2 $3"
		check_eq "$P kfdclient: $1 in -j" "$(jrow "$1")" "$2 $3"
	done
	want="ALLOC_MEMORY_OF_GPU EINVAL 2|CREATE_QUEUE EINVAL 2|DESTROY_QUEUE EINVAL 2|FREE_MEMORY_OF_GPU EINVAL 2|nr_0x7f ENOTTY 2"
	[ "$K" = 5.10 ] || want="$want|GET_PROCESS_APERTURES_NEW EINVAL 2"
	check_eq "$P kfdclient: its errnos" \
		"$(jrows "$S/sum.json" error "select(.pid == $kpid) | \"\(.call) \(.errno) \(.count)\"" | sort)" \
		"$(tr '|' '\n' <<<"$want" | sort)"
	[ "$K" = 6.1 ] && same_view "kfdclient" kfdclient && same_view "kfdminor" kfdminor
	check_eq "$P 16 threads inside WAIT_EVENTS at once: every return counted" \
		"$(jrow_of kfdwaiters WAIT_EVENTS) $(jrow_of kfdwaiters CREATE_EVENT)" "16 0 16 0"
	# -e: each call's line, what it asked and what the KFD answered.
	ev() { grep -Ec "^[0-9.]+ +$kpid +kfdclient +$1" "$S/ev.txt"; }
	check_eq "$P -e: a line per call, open and close" "$(grep -Ec "^[0-9.]+ +$kpid +kfdclient " "$S/ev.txt")" 42
	# kfdclient -p's "GET_VERSION 0 0 version=1.11": the version the KFD gave it.
	version=$(awk '$1 == "GET_VERSION" { print $4; exit }' "$S/kc.out")
	check_eq "$P -e: GET_VERSION's version" "$(ev "GET_VERSION +0 +- +[0-9]+ ${version//./\\.}$")" 6
	check_eq "$P -e: a refused allocation, decoded" \
		"$(ev "ALLOC_MEMORY_OF_GPU +-22 EINVAL +[0-9]+ gpu=4660 size=1048576 flags=VRAM\|WRITABLE$")" 2
	check_eq "$P -e: a refused queue, decoded" \
		"$(ev "CREATE_QUEUE +-22 EINVAL +[0-9]+ gpu=4660 type=COMPUTE ring=4096$")" 2
	check_eq "$P -e: events created, with their ids" \
		"$(ev "CREATE_EVENT +0 +- +[0-9]+ type=SIGNAL auto_reset=1 event=[0-9]+$")" 4
	check_eq "$P -e: a wait that completed, one that timed out" \
		"$(ev "WAIT_EVENTS +0 +- +[0-9]+ events=1 all=1 timeout_ms=1000 result=complete$") $(ev "WAIT_EVENTS +0 +- +[0-9]+ events=1 all=1 timeout_ms=10 result=timeout$")" \
		"2 2"
	check_eq "$P -e: the unknown ioctl raw" "$(ev "nr_0x7f +-25 ENOTTY ")" 2
fi

if [ "$K" = 6.1 ]; then
	same_view "rocminfo" rocminfo
	check_ge "$P rocminfo: its calls counted" "$(grep -c " rocminfo " "$S/kview")" 5
	# ROCm 5.2's runtime on a KFD with no GPU node: hipErrorNoDevice (100),
	# or, seen once, SIGSEGV inside hipGetDeviceCount (139). Either way the
	# KFD's view of it is exact, and -e ends with its last call and the close.
	check "$P hipclient: HIP's runtime said no device or died ($hc_status)" \
		test "$hc_status" = 100 -o "$hc_status" = 139
	same_view "hipclient" hipclient
	hpid=$(grep -m1 " hipclient " "$S/kview" | cut -d' ' -f1)
	last=$(grep " hipclient " "$S/kview" | tail -1 | cut -d' ' -f3)
	check_eq "$P hipclient: -e shows its last call, then its close" \
		"$(awk -v p="$hpid" '$2 == p { print $4 }' "$S/ev.txt" | grep -v close | tail -1) $(awk -v p="$hpid" '$2 == p { print $4 }' "$S/ev.txt" | tail -1)" \
		"$last close"
fi
check_eq "$P nothing lost" "$(grep -h "lost\|not counted\|not followed" "$S"/sum.txt.err "$S"/ev.txt.err)" ""

# ---------------------------------------------------------------------------
# 5. kfdmock, in amdgpu's place: its GPU (gpu_id 0x4d4f, 19791) grants what
#    kfdwork asks (tests/amdkfd/kfdwork.c), and /proc/kfdmock makes the KFD's
#    SMI events for kfdwork's pid in known numbers and gaps.
if [ -z "${KFDMOCK_KO:-}" ]; then
	fail "$P kfdmock.ko was not built (tests/kmod/build --kernel $K)"
	exit 0
fi
load_module "$KFDMOCK_KO" || exit 0
if [ -e "$S/amdgpu.btf" ]; then
	bash tests/kmod/kfdmock-check.sh --compare /sys/kernel/btf/vmlinux "$S/amdgpu.btf" \
		/sys/kernel/btf/amdgpu >"$S/mirror.out" 2>&1
	check_eq "$P mock: every function's prototype, and struct amdgpu_task_info, the real amdgpu's (BTF, this boot)" \
		"$? $(grep -vc '^same ' "$S/mirror.out")" "0 0"
fi
GPU=19791
smi=true
[ "$K" = 5.10 ] && smi=false	# no queue, migration or fault events: only vmfault, reset
pair_start "$S/mock" -l || exit 1
# The filters on the SMI events: kfdwork runs in cgroup A; the shell, which
# never calls the KFD, gets an eviction of its own.
cg=/sys/fs/cgroup/amdkfd-test
mkdir -p "$cg/A"
if $smi; then
	start "$S/flt-cg.json" -j --cgroup "$cg/A" || exit 1
	flt_cg_pid=$tool_pid
	start "$S/flt-c.json" -j -c kfdwork || exit 1
	flt_c_pid=$tool_pid
fi
start "$S/mock.ev" -e --prometheus "$S/kfd.prom" --timeline "$S/kfd.tl" || exit 1
mkfifo "$S/hold"
# (Not in_cgroup: in the background its $! is a subshell's, not kfdwork's.)
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -w "$3"' sh "$cg/A" "$KW" $GPU \
	<"$S/hold" >"$S/kw.out" 2>&1 &
wp=$!
exec 7>"$S/hold"
for _ in $(seq 1 300); do grep -q ready "$S/kw.out" && break; nap 0.1; done
check_eq "$P kfdwork: every call as the mock answers" "$(cat "$S/kw.out")" ready

ctl() { printf '%s\n' "$1" >/proc/kfdmock || fail "$P /proc/kfdmock: $1"; }
if $smi; then
	for _ in 1 2 3; do ctl "evict_restore $wp 2 20"; done	# TTM, 20 ms
	ctl "evict $wp 1"					# USERPTR
	sleep 0.05
	ctl "restore $wp"
	ctl "migrate $wp 0x1000 0x1100 0 $GPU 0"			# 256 pages to the GPU, PREFETCH
	ctl "migrate $wp 0x2000 0x2010 $GPU 0 3"			# 16 back, TTM_EVICTION
	ctl "fault $wp 0x7f0000001000 1 1"
	ctl "fault $wp 0x7f0000002000 0 0"
	# And a fault of the shell's that never ends, then another at its
	# address after the eviction: timed from its own start.
	ctl "fault_start $$ 0x7f0000003000 1"
	ctl "evict $$ 1"
	ctl "restore $$"
	ctl "fault $$ 0x7f0000003000 0 0"
	# sid: a migration of the shell's that failed (migration_end's error).
	[ "$K" = sid ] && ctl "migrate $$ 0x3000 0x3008 0 $GPU 0 0 0 -12"
fi
# A VM fault whose PASID amdgpu names vmfaulter's (the mock's PASIDs are the writer's).
write_as vmfaulter /proc/kfdmock "vmfault 42" || fail "$P /proc/kfdmock: vmfault 42"
ctl "reset"
exec 7>&-
wait $wp
pair_stop
mock_ev_pid=$tool_pid
if $smi; then
	for tool_pid in "$flt_cg_pid" "$flt_c_pid"; do stop; done
	check_eq "$P mock: the filtered ones, status" "$tool_status" 0
fi
rmdir "$cg/A" "$cg"
check_eq "$P mock: text, -j status" "$txt_status $json_status" "0 0"
tool_pid=$mock_ev_pid
stop
check_eq "$P mock: -e, status" "$tool_status" 0

# mrow KIND: kfdwork's memory row of KIND, "ALLOCS BYTES FREES FREED FAILED LIVE LIVE_BYTES PEAK".
mrow() { awk -v p="$wp" -v k="$1" '$1 == p && $4 == k { $1 = $2 = $3 = $4 = ""; print }' "$S/mock.txt" | xargs; }
jmrow() { jrows "$S/mock.json" memory "select(.pid == $wp and .kind == \"$1\" and .gpu == $GPU) |
	\"\(.allocs) \(.bytes) \(.frees) \(.freed_bytes) \(.failed) \(.live) \(.live_bytes) \(.peak_bytes)\""; }
for want in "VRAM 3 3145728 2 2097152 2 1 1048576 3145728" "GTT 2 131072 1 65536 0 1 65536 131072" \
	    "USERPTR 1 4096 0 0 0 1 4096 4096" "DOORBELL 1 8192 0 0 0 1 8192 8192"; do
	set -- $want
	check_eq "$P mock: $1 memory in text" "$(mrow "$1")" "${*:2}"
	check_eq "$P mock: $1 memory in -j" "$(jmrow "$1")" "${*:2}"
done
check_eq "$P mock: the refused allocations' errnos" \
	"$(jrows "$S/mock.json" error "select(.pid == $wp) | \"\(.call) \(.errno) \(.count)\"" | sort | paste -sd,)" \
	"ALLOC_MEMORY_OF_GPU EINVAL 1,ALLOC_MEMORY_OF_GPU ENOMEM 1"
check_eq "$P mock: queues" \
	"$(jrows "$S/mock.json" queues "select(.pid == $wp and .gpu == $GPU) | \"\(.queue_type) \(.created) \(.destroyed) \(.failed) \(.alive)\"" | sort | paste -sd,)" \
	"COMPUTE_AQL 3 2 0 1,SDMA 1 0 0 1"
check_eq "$P mock: queues in text" \
	"$(awk -v p="$wp" '$1 == p && $4 ~ /^(COMPUTE_AQL|SDMA)$/ { print $4, $5, $6, $7, $8 }' "$S/mock.txt" | sort | paste -sd,)" \
	"COMPUTE_AQL 3 2 0 1,SDMA 1 0 0 1"
check_eq "$P mock: -l: what kfdwork left, and that it exited" \
	"$(jrows "$S/mock.json" leak_process "select(.pid == $wp) | \"\(.exited) \(.allocs) \(.bytes)\"")" \
	"true 4 1126400"
check_eq "$P mock: -l: its allocations" \
	"$(jrows "$S/mock.json" leak "select(.pid == $wp) | \"\(.gpu) \(.flags) \(.bytes)\"" | sort | paste -sd,)" \
	"$GPU DOORBELL|WRITABLE 8192,$GPU GTT|WRITABLE 65536,$GPU USERPTR|WRITABLE 4096,$GPU VRAM|WRITABLE 1048576"
check_eq "$P mock: -e: allocations with their handles" \
	"$(grep -Ec "^[0-9.]+ +$wp +kfdwork +ALLOC_MEMORY_OF_GPU +0 +- +[0-9]+ gpu=$GPU size=[0-9]+ flags=[A-Z_|]+ handle=0x4d4f0000000[1-9]$" "$S/mock.ev")" 7
check_eq "$P mock: -e: queues created with their ids" \
	"$(grep -Ec "^[0-9.]+ +$wp +kfdwork +CREATE_QUEUE +0 +- +[0-9]+ gpu=$GPU type=(COMPUTE_AQL|SDMA) ring=4096 queue=[0-3]$" "$S/mock.ev")" 4
check_eq "$P mock: device: VM faults, resets" \
	"$(jrows "$S/mock.json" device '"\(.vm_faults) \(.gpu_resets)"')" "1 1"
check_eq "$P mock: -e: the VM fault, its PASID and the process amdgpu names for it" \
	"$(grep -Ec "^[0-9.]+ +$(pid_of vmfaulter) +vmfaulter +vm_fault .*pasid=42$" "$S/mock.ev")" 1
check_eq "$P mock: -e: the reset's two lines" \
	"$(grep -Eo "gpu_reset .*(begins|done)$" "$S/mock.ev" | awk '{ print $NF }' | paste -sd,)" "begins,done"
if $smi; then
	check_eq "$P mock: evictions, restores, migrations, pages, faults, writes, migrated, triggers" \
		"$(jrows "$S/mock.json" process "select(.pid == $wp) | \"\(.comm) \(.evictions) \(.restores) \(.migrations) \(.migrated_pages) \(.faults) \(.write_faults) \(.faults_migrated) \(.triggers)\"")" \
		"kfdwork 4 4 2 272 2 1 1 USERPTR:1,TTM:3"
	check_eq "$P mock: the shell's eviction, restore, faults, unfiltered" \
		"$(jrows "$S/mock.json" process "select(.pid == $$) | \"\(.evictions) \(.restores) \(.faults) \(.write_faults)\"")" "1 1 2 1"
	if [ "$K" = sid ]; then
		check_eq "$P mock: a failed migration: counted apart, no pages" \
			"$(jrows "$S/mock.json" process "select(.pid == $$) | \"\(.migrations) \(.migrated_pages) \(.migrations_failed)\"")" \
			"0 0 1"
		check "$P mock: -e: the failed migration's error" grep -Eq \
			"^[0-9.]+ +$$ +[^ ]+ +migrate .* pages=0x3000-0x3008 from=0 to=$GPU trigger=PREFETCH error=ENOMEM$" "$S/mock.ev"
	fi
	check_eq "$P mock: --timeline: a fault where one never ended starts after what came between" \
		"$(jq -r "[.[] | select(.pid == $$ and .ph == \"X\")] | (map(select(.cat == \"fault\")) | length == 1) and
			(map(select(.cat == \"fault\"))[0].ts >= (map(select(.cat == \"eviction\"))[0] | .ts + .dur))" \
			"$S/kfd.tl")" true
	for f in "cg --cgroup A" "c -c kfdwork"; do
		check_eq "$P mock: ${f#* }: kfdwork's SMI events alone" \
			"$(jrows "$S/flt-${f%% *}.json" process '"\(.pid) \(.comm) \(.evictions) \(.restores) \(.migrations) \(.faults)"')" \
			"$wp kfdwork 4 4 2 2"
	done
	check_eq "$P mock: the same in text" \
		"$(awk -v p="$wp" '$1 == p && NF == 11 { print $2, $3, $4, $6, $7, $8, $9, $10, $11 }' "$S/mock.txt")" \
		"kfdwork 4 4 2 272 2 1 1 USERPTR:1,TTM:3"
	# evict -> restore: each of the 4 timed (the gaps asked for are 20 and 50
	# ms; how long they take under qemu is not asserted).
	read -r n avg min max <<<"$(jhist_stats "$S/mock.json" ".type == \"process_hist\" and .pid == $wp")"
	check_eq "$P mock: evict -> restore histogram: 4 restores, none of 0" "$n $((min > 0))" "4 1"
	check_eq "$P mock: -e: evictions by trigger, named by their process" \
		"$(grep -E "^[0-9.]+ +$wp +kfdwork +evict " "$S/mock.ev" | grep -Eo 'trigger=[A-Z]+' | sort | uniq -c | xargs)" \
		"3 trigger=TTM 1 trigger=USERPTR"
	check_eq "$P mock: -e: restores timed" \
		"$(awk -v p="$wp" '$2 == p && $4 == "restore" && $7 > 0' "$S/mock.ev" | wc -l)" 4
	check "$P mock: -e: a migration to the GPU, decoded" grep -Eq \
		"^[0-9.]+ +$wp +kfdwork +migrate +- +- +[0-9]+ pages=0x1000-0x1100 from=0 to=$GPU trigger=PREFETCH$" "$S/mock.ev"
	check "$P mock: -e: one back, by TTM" grep -Eq \
		"^[0-9.]+ +$wp +kfdwork +migrate +- +- +[0-9]+ pages=0x2000-0x2010 from=$GPU to=0 trigger=TTM_EVICTION$" "$S/mock.ev"
	check "$P mock: -e: a GPU page fault that migrated" grep -Eq \
		"^[0-9.]+ +$wp +kfdwork +page_fault +- +- +[0-9]+ address=0x7f0000001000 migrated=yes$" "$S/mock.ev"
fi
# --prometheus: a valid file with the same numbers, per process name.
check "$P mock: --prometheus: promtool accepts it" promtool check metrics <"$S/kfd.prom"
# (kfdwork has exited: the KFD freed what it held, part 6 has one alive.)
check_eq "$P mock: --prometheus: live bytes per kind, none once it exited" \
	"$(grep '^gpubpf_amdkfd_live_bytes{comm="kfdwork"' "$S/kfd.prom" | sort | paste -sd,)" \
	"gpubpf_amdkfd_live_bytes{comm=\"kfdwork\",gpu=\"$GPU\",kind=\"DOORBELL\"} 0,gpubpf_amdkfd_live_bytes{comm=\"kfdwork\",gpu=\"$GPU\",kind=\"GTT\"} 0,gpubpf_amdkfd_live_bytes{comm=\"kfdwork\",gpu=\"$GPU\",kind=\"USERPTR\"} 0,gpubpf_amdkfd_live_bytes{comm=\"kfdwork\",gpu=\"$GPU\",kind=\"VRAM\"} 0"
if $smi; then
	check_eq "$P mock: --prometheus: evictions per trigger, restores timed" \
		"$(grep -E '^gpubpf_amdkfd_(evictions_total|restore_seconds_count)\{comm="kfdwork"' "$S/kfd.prom" | sort | paste -sd,)" \
		"gpubpf_amdkfd_evictions_total{comm=\"kfdwork\",trigger=\"TTM\"} 3,gpubpf_amdkfd_evictions_total{comm=\"kfdwork\",trigger=\"USERPTR\"} 1,gpubpf_amdkfd_restore_seconds_count{comm=\"kfdwork\"} 4"
fi
# --timeline: kfdwork's calls, its four queues (two destroyed, two gone at
# its close), and, with the SMI events, 4 evictions until restore, 2
# migrations, 2 faults; the VM fault and the reset on the GPU's track.
tl() { jq -r ".[] | select($1)" "$S/kfd.tl" | jq -s length; }
check_eq "$P mock: --timeline: kfdwork's calls" \
	"$(tl ".pid == $wp and .ph == \"X\" and .cat == \"call\"")" 19
check_eq "$P mock: --timeline: its queues, how they ended" \
	"$(jq -r ".[] | select(.pid == $wp and .cat == \"queue\") | \"\(.name) \(.args.end)\"" "$S/kfd.tl" | sort | uniq -c | xargs)" \
	"1 COMPUTE_AQL closed 2 COMPUTE_AQL destroyed 1 SDMA closed"
check_eq "$P mock: --timeline: the VM fault and the reset" \
	"$(jq -r '.[] | select(.cat == "gpu") | .name' "$S/kfd.tl" | sort | uniq -c | xargs)" \
	"2 gpu_reset 1 vm_fault"
if $smi; then
	check_eq "$P mock: --timeline: evictions until their restore" \
		"$(tl ".pid == $wp and .ph == \"X\" and .cat == \"eviction\" and .dur > 0")" 4
	check_eq "$P mock: --timeline: migrations, faults" \
		"$(tl ".pid == $wp and .cat == \"svm\"") $(tl ".pid == $wp and .cat == \"fault\"")" "2 2"
fi
check_eq "$P mock: nothing lost" "$(grep -h "lost\|not counted\|not followed\|not timed" "$S"/mock.txt.err "$S"/mock.ev.err)" ""

# ---------------------------------------------------------------------------
# 6. A pid served again: kfdwork (cgroup A) exits holding memory and queues,
#    and its pid goes at once (ns_last_pid) to kfdwork2 (cgroup B), which
#    asks the same and still runs when the tracer stops. Each is a process
#    of its own: its name, container, calls, memory; only the first exited.
#    A and B are named as a pod's containerd container and a docker one
#    (tests/lib.sh cg_names).
cg_names "$cg"
mkdir -p "$cg_A" "$cg_B"
cp "$KW" "$S/kfdwork2"
mkfifo "$S/hold2"
# (An interval of an hour: no summary nor metrics before the end forgets anything.)
start "$S/reuse.json" -j -l -C --prometheus "$S/reuse.prom" 3600 || exit 1
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3"' sh "$cg_A" "$KW" $GPU >"$S/kw1.out" 2>&1 &
wp1=$!
wait $wp1
check_eq "$P pid again: the first kfdwork ran" "$? $(cat "$S/kw1.out")" "0 ready"
wp2=
for _ in 1 2 3 4 5; do
	echo $((wp1 - 1)) >/proc/sys/kernel/ns_last_pid
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" -w "$3"' sh "$cg_B" "$S/kfdwork2" $GPU \
		<"$S/hold2" >"$S/kw2.out" 2>&1 &
	wp2=$!
	[ "$wp2" = "$wp1" ] && break
	kill -KILL "$wp2"	# still opening the fifo: it called nothing
	wait "$wp2" 2>/dev/null
done
check_eq "$P pid again: kfdwork2 got kfdwork's pid" "$wp2" "$wp1"
exec 8>"$S/hold2"
for _ in $(seq 1 300); do grep -q ready "$S/kw2.out" && break; nap 0.1; done
check_eq "$P pid again: kfdwork2's calls as the mock answers" "$(cat "$S/kw2.out")" ready
# The queues the tool followed: kfdwork's forgotten at its exit, kfdwork2's 2.
for _ in $(seq 1 50); do
	queues=$(bpftool -j map dump name queues | jq length)
	[ "$queues" = 2 ] && break
	nap 0.1
done
check_eq "$P pid again: the queues of the one gone forgotten" "$queues" 2
stop
check_eq "$P pid again: status" "$tool_status" 0
exec 8>&-
wait "$wp2"
find "$cg" -depth -type d -exec rmdir {} +
# pcalls FILE PID COMM: "CALL CALLS ERRORS" of COMM's calls.
pcalls() { jrows "$1" call "select(.pid == $2 and .comm == \"$3\") | \"\(.call) \(.calls) \(.errors)\"" | sort | paste -sd,; }
check_eq "$P pid again: two processes, each its container" \
	"$(jrows "$S/reuse.json" call "select(.pid == $wp1) | \"\(.comm) $CG_JQ\"" | sort -u | paste -sd,)" \
	"kfdwork $CG_ID_A containerd $CG_POD ${cg_A_text##* },kfdwork2 $cg_B_json"
check_eq "$P pid again: kfdwork's calls, as in part 5" "$(pcalls "$S/reuse.json" "$wp1" kfdwork)" \
	"$(pcalls "$S/mock.json" "$wp" kfdwork)"
check_eq "$P pid again: kfdwork2's, the same but the close (it runs)" \
	"$(pcalls "$S/reuse.json" "$wp1" kfdwork2)" "$(pcalls "$S/mock.json" "$wp" kfdwork | sed 's/close 1 0,//')"
check_eq "$P pid again: each one's VRAM, its allocations alone" \
	"$(jrows "$S/reuse.json" memory "select(.pid == $wp1 and .kind == \"VRAM\") | \"\(.comm) \(.allocs) \(.frees) \(.failed) \(.live) \(.live_bytes)\"" | sort | paste -sd,)" \
	"kfdwork 3 2 2 1 1048576,kfdwork2 3 2 2 1 1048576"
check_eq "$P pid again: -l: what each left, the first exited" \
	"$(jrows "$S/reuse.json" leak_process "select(.pid == $wp1) | \"\(.comm) \(.exited) \(.allocs) \(.bytes)\"" | sort | paste -sd,)" \
	"kfdwork true 4 1126400,kfdwork2 false 4 1126400"
# gauge COMM FAMILY: COMM's series of gpubpf_amdkfd_FAMILY, "KIND CONTAINER_ID uid=UID N" sorted.
gauge() {
	grep "^gpubpf_amdkfd_$2{comm=\"$1\"" "$S/reuse.prom" |
		sed -E 's/^[a-z_]+\{comm="[^"]*",gpu="[0-9]+",(kind|type)="([A-Z_]+)",container_id="([^"]*)",(uid="([^"]*)",)?cgroup="[^"]*"\} /\2 \3 uid=\5 /' |
		sort | paste -sd,
}
a="containerd://$CG_ID_A uid=$CG_POD" b="docker://$CG_ID_B uid="
check_eq "$P pid again: --prometheus: the live bytes of kfdwork2 alone, by container" \
	"$(gauge kfdwork live_bytes) | $(gauge kfdwork2 live_bytes)" \
	"DOORBELL $a 0,GTT $a 0,USERPTR $a 0,VRAM $a 0 | DOORBELL $b 8192,GTT $b 65536,USERPTR $b 4096,VRAM $b 1048576"
check_eq "$P pid again: --prometheus: its queues alone alive" \
	"$(gauge kfdwork queues_alive) | $(gauge kfdwork2 queues_alive)" \
	"COMPUTE_AQL $a 0,SDMA $a 0 | COMPUTE_AQL $b 1,SDMA $b 1"
check_eq "$P pid again: nothing lost" "$(grep -h "lost\|not counted\|not followed\|not timed" "$S/reuse.json.err")" ""
