#!/usr/bin/env bash
# vm-kernels: 6.1
# i915mem on the real i915's own events (6.1: where a selftest i915.ko is built), run inside the VM by
# tests/run. The third proof of i915mem, besides the real layouts and
# gemgen's exact numbers (tests/guest/i915mem.sh): the real driver, rebuilt
# with its selftests (tests/i915-selftest/build), runs mock suites on a mock
# device in its module init (mock_selftests=-1), and they fire i915's memory
# events from the driver's own code. `i915mem -e` and the kernel's trace
# buffer watch the same run: each event's count must be the same in both.
#
# The suites run inside insmod, before anything could attach to the events
# of a module not yet loaded: st_hold (a parameter the build adds) holds
# them until the tracers are attached to the loading module.
#
# Environment (from tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE,
# I915_SELFTEST_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init i915mem "i915selftest:"
params=/sys/module/i915/parameters

KO=${I915_SELFTEST_KO:-}
if [ ! -e "$KO" ] && [ "$K" = 6.1 ]; then
	fail "$P no selftest i915.ko (I915_SELFTEST_KO): tests/vm/setup builds it with tests/i915-selftest/build"
	exit 1
elif [ ! -e "$KO" ]; then
	skip "$P the real i915's mock selftests: no selftest i915.ko for ${VM_KVER:-$K} (tests/i915-selftest/build makes one for 6.1 only)"
	exit 0
fi

# The mock suites run (i915_mock_selftests.h), for their memory events:
# objects creates a shmem object; vma, evict and gtt bind, unbind and evict
# in a mock GGTT; hugepages creates a 48-bit PPGTT and objects in a mock
# memory region; memory_region creates and frees objects by the ten thousand.
suites="objects vma evict gtt hugepages memory_region"
# Each suite is a parameter igt__LINE__mock_NAME (named by its line in
# that header); once one is set, only those set run.
sel=()
for s in $suites; do
	p=$(modinfo -F parm "$KO" | sed -n "s/^\(igt__[0-9]*__mock_$s\):.*/\1/p")
	[ -n "$p" ] || { fail "$P $KO has no mock suite $s"; exit 1; }
	sel+=("$p=1")
done
# Bounded bursts: i915mem -e's 4 MiB ring buffer holds some 45000 events
# while its reader, a TCG process sharing a loaded host, falls behind. At
# the default st_timeout (500 ms per timed loop) the gtt subtests fire
# 110000 binds and unbinds in 3 s, and two vma subtests (untimed) 245000 in
# 13 s: a run lost 86848 of them (and said so). So the timed loops get
# 100 ms, and st_filter (comma-separated, "!CALLER/SUBTEST" leaves one out)
# leaves those two out.
sel+=(st_timeout=100
	st_filter='!i915_vma_mock_selftests/igt_vma_rotate_remap,!i915_vma_mock_selftests/igt_vma_partial')

# What the driver needs loaded first (modprobe resolves their own).
load_module_deps "$KO" || exit 1

# The events i915mem reads, by their tracefs names, with its -e names.
events="i915_gem_object_create:CREATE i915_gem_object_destroy:DESTROY i915_vma_bind:BIND
i915_vma_unbind:UNBIND i915_gem_object_fault:FAULT i915_gem_object_pread:PREAD
i915_gem_object_pwrite:PWRITE i915_gem_shrink:SHRINK i915_gem_evict:EVICT
i915_gem_evict_node:EVICT_NODE i915_gem_evict_vm:EVICT_VM i915_ppgtt_create:VM_CREATE
i915_ppgtt_release:VM_FREE"

echo 0 >$trace/tracing_on
echo 65536 >$trace/buffer_size_kb    # per CPU: no event overwritten
echo >$trace/trace
echo nohash-ptr >$trace/trace_options
echo 1 >$trace/tracing_on
dmesg -C

# The module loads, its suites held (at most 120 s) until the tracers are on.
insmod "$KO" mock_selftests=-1 st_hold=120 "${sel[@]}" >"$S/insmod.out" 2>&1 &
ins=$!
for _ in $(seq 1 600); do
	[ -e $trace/events/i915/i915_gem_object_create ] && [ -e /sys/kernel/btf/i915 ] &&
		[ -e $params/st_hold ] && break
	kill -0 $ins 2>/dev/null || break
	sleep 0.1
done
check "$P the module loading, its events and BTF are there" \
	test -e $trace/events/i915/i915_gem_object_create -a -e /sys/kernel/btf/i915
check_eq "$P the suites are held (st_hold)" "$(cat $params/st_hold 2>&1)" 120
for ev in $events; do echo 1 >"$trace/events/i915/${ev%%:*}/enable"; done
# The mock device is bound to no PCI driver: -D i915 traces i915 all the same.
start "$S/ev.out" -e -D i915
check_eq "$P i915mem -e attaches to the module still in its init" "$?" 0
t0=$SECONDS
echo 0 >$params/st_hold
wait $ins
ins_status=$?
suite_s=$((SECONDS - t0))
stop INT
for ev in $events; do echo 0 >"$trace/events/i915/${ev%%:*}/enable"; done
echo 0 >$trace/tracing_on
dmesg >"$S/dmesg"

# The selftests' own verdict: with mock_selftests=-1 the module stays, a
# dummy, and its parameter says how they ended (-ENOTTY: all passed).
check_eq "$P insmod returns 0" "$ins_status" 0
check_eq "$P the mock selftests passed (mock_selftests = -ENOTTY, -25)" "$(cat $params/mock_selftests)" -25
for s in $suites; do
	check "$P suite $s ran" grep -q "i915: Running $s\$" "$S/dmesg"
done
check_eq "$P st_filter left the two vma subtests out" \
	"$(grep -c 'Running i915_vma_mock_selftests/igt_vma_\(rotate_remap\|partial\)' "$S/dmesg")" 0
check_eq "$P no subtest failed" "$(grep -E 'failed with error|setup failed' "$S/dmesg")" ""
check_eq "$P no WARNING, BUG or Oops" "$(grep -E 'WARNING:|BUG:|Oops' "$S/dmesg")" ""
echo "# $P the suites ran in ${suite_s} s: $(grep -c 'i915: Running .*/' "$S/dmesg") subtests, $(grep -o 'st_random_seed=0x[0-9a-f]*' "$S/dmesg")"

# The trace buffer lost nothing, nor did the tool.
check_eq "$P the trace buffer overwrote nothing" \
	"$(cat $trace/per_cpu/cpu*/stats | awk '/^overrun:/ { n += $2 } END { print n }')" 0
check_eq "$P i915mem: nothing on stderr (no event lost)" "$(cat "$S/ev.out.err")" ""
check_eq "$P i915mem: exit status 0" "$tool_status" 0

# Per event: i915mem's lines against the kernel's events. DESTROY lines are
# for the objects whose creation it saw: objects made by
# i915_gem_object_create_internal() fire no create event.
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^i915_[a-z_]*:$/) { print substr($i, 1, length($i) - 1), $0; break } }' \
	$trace/trace >"$S/trace.events"
awk '{ n[$1]++ } END { for (e in n) print e, n[e] }' "$S/trace.events" >"$S/count.kernel"
awk 'NR > 1 { n[$3]++ } END { for (e in n) print e, n[e] }' "$S/ev.out" >"$S/count.tool"
kcount() { awk -v e="$1" '$1 == e { n = $2 } END { print n + 0 }' "$S/count.kernel"; }
tcount() { awk -v e="$1" '$1 == e { n = $2 } END { print n + 0 }' "$S/count.tool"; }
for ev in $events; do
	tp=${ev%%:*} name=${ev#*:}
	[ "$name" = DESTROY ] && continue
	check_eq "$P $name: i915mem -e lines = the kernel's $tp events ($(kcount "$tp"))" \
		"$(tcount "$name")" "$(kcount "$tp")"
done
# The objects: CREATE lines name the kernel's created objects; DESTROY
# lines the kernel's destroys of those (an address is live from its create
# to its destroy, then may be reused), not of objects made without a create
# event (i915_gem_object_create_internal(): most of these suites' objects).
awk '$1 == "i915_gem_object_create" || $1 == "i915_gem_object_destroy" {
	o = $0; sub(/.*obj=(0x)?/, "0x", o); sub(/[ ,].*/, "", o)
	if ($1 == "i915_gem_object_create") { live[o] = 1; print "create", o }
	else if (o in live) { delete live[o]; print "destroy", o } }' "$S/trace.events" >"$S/objs.kernel"
check_eq "$P CREATE: the objects are the kernel's" \
	"$(awk 'NR > 1 && $3 == "CREATE" { print $6 }' "$S/ev.out" | sort)" \
	"$(awk '$1 == "create" { print $2 }' "$S/objs.kernel" | sort)"
check_eq "$P DESTROY: i915mem -e lines = the kernel's destroys of the objects created ($(grep -c ^destroy "$S/objs.kernel") of $(kcount i915_gem_object_destroy)), the same objects" \
	"$(awk 'NR > 1 && $3 == "DESTROY" { print $6 }' "$S/ev.out" | sort)" \
	"$(awk '$1 == "destroy" { print $2 }' "$S/objs.kernel" | sort)"
# What these suites fire, from the driver's own code.
for name in CREATE DESTROY BIND UNBIND EVICT EVICT_NODE EVICT_VM VM_CREATE VM_FREE; do
	check_ge "$P the suites fired $name events" "$(tcount "$name")" 1
done
