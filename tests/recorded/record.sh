#!/usr/bin/env bash
# Records the outputs tests/host/man-examples.sh runs the man pages'
# example filters on (tests/recorded/TOOL/KEY.out, README.md): each tool
# run with the options of its examples, on the project's test ground, on
# a workload chosen so that each example's filter has something real to
# select.
#
#   tests/recorded/record.sh [TOOL...]     (as root, at the top of a built
#                                          tree: make all test-progs unit-tests)
#
# Every tool by default. The kernel tracers run in a VM (tests/vm/run, one
# boot per tool, each under the VM lock /tmp/gpu-vm.lock): drmsched,
# gpuhang, amdgpucs, amdkfd, i915mem and nvdrv on 6.1 with the test modules
# (schedgen, amdgen, kfdmock, gemgen, nvmock) and NVIDIA's real driver;
# vblanklat on sid, whose bochs has vblanks (--vga), with the stall module
# to make it miss some. The uprobe tracers run on the host: cudatrace on
# the fake libcuda (tests/cuda), cltrace on pocl. The guest
# part is this script too (--guest TOOL): it writes the outputs to
# $VM_SCRATCH, which the VM does not keep, and prints them as a base64 tar
# on its stdout, which the host part unpacks into tests/recorded.
#
# Not a test (no PASS or FAIL lines), and not under tests/guest: tests/run
# would boot every script there on every kernel.
#
# KEY, the file's name: the example's options, as tests/host/man-examples.sh
# reads them (its key()): the letters of its short options (a long option
# by its short one), sorted; then _NAME for each option that has no short
# form; then _ARG for each argument that is not an option's (interval,
# count). The options' own arguments are not in the name: the functions
# below say which were used (a ring or cgroup named as in the example; a
# PID of the workload's own).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# ---------------------------------------------------------------------------
# Inside the VM.

# rec_start KEY ARGS...: the tool (guest_init's T) with ARGS, stdout into
# $R/KEY.out, stderr beside it in $S; rec_pids collects them.
rec_pids=()
rec_start() {
	local key=$1
	shift
	start_tool "$S/$key.run" "$T" "$@" || { echo "record: $T $* did not start" >&2; exit 1; }
	rec_pids+=("$tool_pid")
	rec_what+=("$key.out: $(basename "$T") $*")
}
# rec_stop: Ctrl-C to each, then each one's output moved into $R; says
# what was recorded on stderr.
rec_stop() {
	local p i=0 key status
	sleep 1	# -e's lines are written at least every 100 ms
	for p in "${rec_pids[@]}"; do kill -INT "$p" 2>/dev/null; done
	for p in "${rec_pids[@]}"; do
		wait "$p"
		status=$?
		key=${rec_what[$i]%%.out:*}
		mv "$S/$key.run" "$R/$key.out"
		echo "record: ${rec_what[$i]} ($K): exit $status, $(wc -l <"$R/$key.out") lines" >&2
		[ "$status" = 0 ] || { echo "record: stderr: $(head -3 "$S/$key.run.err")" >&2; exit 1; }
		i=$((i + 1))
	done
	rec_pids=() rec_what=()
}

# drmsched: the kernel's DRM scheduler driven by schedgen, with amdgpu's
# ring names. 20 chained jobs of 4 ms on gfx, 3 of 25 ms (longer than a
# 60 Hz frame), 5 of 8 ms on compute, from two processes.
guest_drmsched() {
	load_module_deps "${SCHEDGEN_KO:?}" && load_module "$SCHEDGEN_KO" rings=gfx_0.0.0,comp_1.0.0 || exit 1
	rec_start er -e -r gfx_0.0.0
	rec_start j -j
	write_as renderer /proc/schedgen "submit ring=gfx_0.0.0 jobs=20 exec_us=4000 deps=chain"
	write_as encoder /proc/schedgen "submit ring=comp_1.0.0 jobs=5 exec_us=8000
submit ring=gfx_0.0.0 jobs=3 exec_us=25000"
	echo wait >/proc/schedgen
	rec_stop
}

# gpuhang: schedgen with a job timeout: a job that hangs with another
# process's job running beside it, recovered as amdgpu recovers; then an
# NVIDIA Xid naming trainer (nvmock).
guest_gpuhang() {
	load_module_deps "${SCHEDGEN_KO:?}" && load_module "$SCHEDGEN_KO" rings=gfx_0.0.0 \
		timeout_ms=2000 credits=2 || exit 1
	insmod "${NVMOCK_KO:?}" || exit 1
	rec_start j -j
	write_as renderer /proc/schedgen "submit ring=gfx_0.0.0 jobs=3 exec_us=1000 entity=2"
	echo wait >/proc/schedgen
	echo "gate close" >/proc/schedgen
	write_as shader_test /proc/schedgen "submit ring=gfx_0.0.0 jobs=1 hang=1 entity=1 deps=gate"
	write_as trainer /proc/schedgen "submit ring=gfx_0.0.0 jobs=1 exec_us=10000000 entity=3 deps=gate"
	echo "gate open" >/proc/schedgen
	echo "wait timeout_ms=60000" >/proc/schedgen
	echo "xid xid=31 pid=4321 name=trainer msg=Ch 00000010, intr 00000000. MMU Fault" >/proc/nvmock
	rec_stop
}

# amdgpucs: amdgen playing amdgpu on the real scheduler: submissions,
# buffers, moves (evictions among them), interrupts; for --cgroup, a second
# process inside /sys/fs/cgroup/gpu.slice creates buffers, the first outside.
guest_amdgpucs() {
	local cg=/sys/fs/cgroup/gpu.slice
	load_module_deps "${AMDGEN_KO:?}" && load_module "$AMDGEN_KO" rings=gfx,sdma || exit 1
	mkdir -p "$cg"
	rec_start e -e
	rec_start j_cgroup -j --cgroup "$cg"
	write_as amdclient /proc/amdgen "submit ring=gfx jobs=10 exec_us=2000 ibs=3 pasid=42
submit ring=sdma jobs=4 exec_us=1000
bo n=5 size=1048576 domain=4
bo n=2 size=65536 domain=2
move first=0 n=2 to=2
move first=0 n=1 to=4
iv n=6 client=1 src=2 ring=0 vmid=3 pasid=42
vm_flush ring=gfx n=3
map n=3 size=65536
unmap n=1 size=65536
update n=5
bo_list first=0 n=4
wait"
	cp /bin/dash "$S/amdslice"
	# shellcheck disable=SC2016
	in_cgroup "$cg" "$S/amdslice" -c 'printf "%s\n" "$1" >/proc/amdgen' sh "submit ring=gfx jobs=3 exec_us=500
bo n=3 size=262144 domain=4
bo n=1 size=4096 domain=2
move first=7 n=1 to=2
wait"
	rec_stop
	rmdir "$cg"
}

# amdkfd: kfdmock (in amdgpu's place) grants what kfdwork asks and refuses
# two allocations (EINVAL, ENOMEM); /proc/kfdmock makes the KFD's SMI events
# for kfdwork: 4 evictions (3 by TTM, 1 USERPTR) each restored,
# migrations, page faults, a VM fault and a reset.
guest_amdkfd() {
	local gpu=19791 wp
	load_module_deps "${KFDMOCK_KO:?}" && load_module "$KFDMOCK_KO" || exit 1
	rec_start e -e
	rec_start j -j
	mkfifo "$S/hold"
	"$PWD/build/tests/kfdwork" -w $gpu <"$S/hold" >"$S/kw.out" 2>&1 &
	wp=$!
	exec 7>"$S/hold"
	for _ in $(seq 1 300); do grep -q ready "$S/kw.out" && break; sleep 0.1; done
	kfd() { printf '%s\n' "$1" >/proc/kfdmock || echo "record: /proc/kfdmock: $1 refused" >&2; }
	for _ in 1 2 3; do kfd "evict_restore $wp 2 20"; done
	kfd "evict $wp 1"
	sleep 0.05
	kfd "restore $wp"
	kfd "migrate $wp 0x1000 0x1100 0 $gpu 0"
	kfd "migrate $wp 0x2000 0x2010 $gpu 0 3"
	kfd "fault $wp 0x7f0000001000 1 1"
	kfd "vmfault 42"
	kfd "reset"
	exec 7>&-
	wait $wp
	rec_stop
}

# i915mem: gemgen playing i915: one process's objects bound, faulted,
# evicted and bound again (rebinds), then unbound and bound again by a
# second; a third creates 3 objects and exits without freeing them.
guest_i915mem() {
	load_module_deps "${GEMGEN_KO:?}" && load_module "$GEMGEN_KO" || exit 1
	rec_start e -e
	rec_start jl -j -l
	write_as gemclient /proc/gemgen "vm
create n=10 size=65536
bind first=0 n=10 vm=0
fault first=0 n=4 gtt=1 write=1
pwrite first=0 n=3 bytes=4096
evict vm=0 bytes=131072
bind first=0 n=2 vm=0
destroy first=0 n=6 async=1"
	write_as gemclient2 /proc/gemgen "vm
create n=5 size=8192
bind first=10 n=5 vm=1
unbind first=10 n=5
bind first=10 n=1 vm=1
destroy first=10 n=5
release vm=1"
	write_as gemleaker /proc/gemgen "create n=3 size=1048576"
	rec_stop
}

# nvdrv: -j on NVIDIA's real driver (535, no GPU) serving tests/nvidia/nvctl,
# whose calls the resource manager refuses in part (statuses 0x1f, 0x23,
# 0x33, 0x56); -e on nvmock (the real driver's functions, played), which
# reports Xids as the driver prints them, with interrupts and p2p calls.
guest_nvdrv() {
	[ -n "${NVIDIA_KO:-}" ] || { echo "record: no NVIDIA_KO: ${NVIDIA_UNAVAILABLE:-}" >&2; exit 1; }
	load_module_deps "$NVIDIA_KO" && load_module "$NVIDIA_KO" || exit 1
	mknod -m 666 /dev/nvidiactl c 195 255
	rec_start j -j
	"$PWD/build/tests/nvctl" >"$S/nvctl.out" 2>&1 || echo "record: nvctl failed: $(tail -2 "$S/nvctl.out")" >&2
	rec_stop
	unload_module nvidia || exit 1
	load_module "${NVMOCK_KO:?}" || exit 1
	rec_start e -e
	nv() { printf '%s\n' "$*" >/proc/nvmock || echo "record: /proc/nvmock: $* refused" >&2; }
	nv isr n=20 bh=1 delay_us=500
	nv isr n=10 msix=1 bh=1 dev=1 irq=40
	write_as p2papp /proc/nvmock "p2p_get n=2 length=0x200000 page=1"
	nv xid xid=79 pid=1234 name=cudaapp msg=GPU has fallen off the bus.
	nv xid xid=31 pid=4321 name=trainer n=2 dev=1 msg=Ch 00000010, intr 00000000. MMU Fault
	nv log_error xid=48 n=1
	nv print n=3
	rec_stop
}

# vblanklat: bochs's vblanks (sid's vblank timer) to vblwait, a client
# asking for vblank events; -e while the stall module freezes every CPU for
# 200 ms (missed vblanks); -j 1 over the 4 s of a client's 240 vblanks,
# with another such stall.
guest_vblanklat() {
	local drv=bochs w=$PWD/build/tests/vblwait wp
	$VM_MODPROBE -n bochs >/dev/null 2>&1 || drv=bochs-drm
	load_module $drv || exit 1
	for _ in $(seq 1 50); do [ -e /dev/dri/card0 ] && break; sleep 0.1; done
	timeout 20 "$w" -n 1 >/dev/null 2>"$S/probe.err" ||
		{ echo "record: no vblank events here: $(cat "$S/probe.err")" >&2; exit 1; }
	load_module "${STALL_KO:?}" || exit 1
	# stalled KEY VBLANKS DELAY ARGS...: the tool with ARGS while a client
	# waits for VBLANKS vblanks, the CPUs stalled 200 ms DELAY s into it.
	stalled() {
		local key=$1 n=$2 delay=$3
		shift 3
		rec_start "$key" "$@"
		"$w" -n "$n" >/dev/null &
		wp=$!
		sleep "$delay"
		echo 200 >/proc/stall
		wait $wp
		rec_stop
	}
	stalled e 60 0.3 -e
	stalled j_1 240 1.5 -j 1
}

if [ "${1:-}" = --guest ]; then
	tool=$2
	guest_init "$tool"
	R=$S/rec/$tool
	mkdir -p "$R"
	rec_what=()
	"guest_$tool"
	echo "record-archive-begin"
	tar -C "$S/rec" -czf - "$tool" | base64 -w 76
	echo "record-archive-end"
	exit 0
fi

# ---------------------------------------------------------------------------
# On the host.

[ "$(id -u)" = 0 ] || { echo "record: run as root (tracers, VMs)" >&2; exit 1; }
for f in bin/drmsched build/tests/nvctl build/tests/cuda/workload build/tests/opencl/clwork; do
	[ -x "$f" ] || { echo "record: $f is not built (make all test-progs unit-tests)" >&2; exit 1; }
done

# vm TOOL KERNEL [OPTIONS...]: the guest part for TOOL, unpacked here.
vm() {
	local tool=$1 kernel=$2 out
	shift 2
	out=$(mktemp /tmp/record-vm.XXXXXX)
	echo "record: $tool on $kernel" >&2
	flock /tmp/gpu-vm.lock tests/vm/run --kernel "$kernel" --timeout 600 "$@" -- \
		bash tests/recorded/record.sh --guest "$tool" >"$out"
	local status=$?
	if [ "$status" != 0 ] || ! grep -q '^record-archive-end$' "$out"; then
		echo "record: $tool on $kernel failed (status $status):" >&2
		grep -v '^[A-Za-z0-9+/=]*$' "$out" | tail -20 >&2
		rm -f "$out"
		return 1
	fi
	rm -rf "tests/recorded/$tool"
	sed -n '/^record-archive-begin$/,/^record-archive-end$/p' "$out" | sed '1d;$d' |
		base64 -d | tar -C tests/recorded -xzf -
	rm -f "$out"
}

# host_start OUT ARGS...: a tracer on the host, as rec_start in the guest:
# its stdout into $htmp (its stderr beside it), moved to OUT by host_wait.
htmp=$(mktemp -d /tmp/record-host.XXXXXX)
trap 'rm -rf "$htmp"' EXIT
host_pids=() host_outs=()
host_start() {
	start_tool "$htmp/${#host_pids[@]}.out" "${@:2}" || { echo "record: ${*:2} did not start" >&2; exit 1; }
	host_pids+=("$tool_pid")
	host_outs+=("$1")
}
# host_wait [INT]: the tracers end by themselves (-p's process exited), or
# at Ctrl-C.
host_wait() {
	local p i=0
	[ "${1:-}" = INT ] && { sleep 1; for p in "${host_pids[@]}"; do kill -INT "$p"; done; }
	for p in "${host_pids[@]}"; do
		wait "$p" || { echo "record: a tracer failed: $(head -3 "$htmp/$i.out.err")" >&2; exit 1; }
		mv "$htmp/$i.out" "${host_outs[$i]}"
		i=$((i + 1))
	done
	host_pids=() host_outs=()
}

# cudatrace: the workload on the fake libcuda.so.1 (tests/cuda): 3 batches
# of a training step (cuMemAlloc_v2 of 1 GiB, a copy, a launch, a free),
# launches of every kind, every copy; traced with -p its PID.
host_cudatrace() {
	local d=tests/recorded/cudatrace tmp wl
	tmp=$(mktemp -d /tmp/record-cuda.XXXXXX)
	rm -rf "$d"
	mkdir -p "$d"
	FAKE_CUDA_LOG=$tmp/fake.log build/tests/cuda/workload --wait "$tmp/go" batches 3 launch copies \
		>"$tmp/wl.out" 2>&1 &
	wl=$!
	while ! grep -qs '^waiting' "$tmp/wl.out"; do sleep 0.02; done
	host_start "$d/ep.out" bin/cudatrace -e -p $wl
	host_start "$d/jp.out" bin/cudatrace -j -p $wl
	touch "$tmp/go"
	wait $wl
	host_wait
	rm -rf "$tmp"
}

# cltrace: every process (no -p) while clwork runs on pocl: a build that
# fails (its log), then the good one, buffers and launches.
host_cltrace() {
	local d=tests/recorded/cltrace tmp
	clinfo -l 2>/dev/null | grep -q 'Device #0' ||
		{ echo "record: cltrace: no OpenCL device here (pocl-opencl-icd, clinfo)" >&2; exit 1; }
	tmp=$(mktemp -d /tmp/record-cl.XXXXXX)
	rm -rf "$d"
	mkdir -p "$d"
	host_start "$d/j.out" bin/cltrace -j
	POCL_CACHE_DIR=$tmp/pocl build/tests/opencl/clwork >"$tmp/wl.out" 2>&1
	host_wait INT
	rm -rf "$tmp"
}

tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(drmsched gpuhang amdgpucs amdkfd i915mem nvdrv vblanklat cudatrace cltrace)
for tool in "${tools[@]}"; do
	case $tool in
	drmsched | gpuhang | amdgpucs | amdkfd | i915mem | nvdrv) vm "$tool" 6.1 || exit 1 ;;
	vblanklat) vm "$tool" sid --vga || exit 1 ;;
	cudatrace | cltrace) "host_$tool" ;;
	*) echo "record: no recording for $tool" >&2; exit 1 ;;
	esac
	for f in tests/recorded/"$tool"/*.out; do
		echo "recorded $f: $(wc -l <"$f") lines"
	done
done
