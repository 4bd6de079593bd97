#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# (Not on trixie's 6.12, between 6.1 and sid: CI's 90 minutes are budgeted
# per kernel, and 6.12 runs the scheduler's, vblank's and the tracepoint
# layouts' scripts; tests/README.md.)
# i915mem on a real kernel, run inside the VM by tests/run (one boot per
# kernel). Two proofs:
#  1. Real layouts: with the real i915 loaded the tool loads and attaches
#     (its CO-RE relocations resolve against the real module's BTF), and
#     every member path its BPF reads is, in the real module's BTF, what it
#     is in the test module's (tests/btf/corepaths on both).
#  2. Exact numbers: the test module gemgen (tests/kmod) fires the real
#     events over objects of known sizes from processes of known PID and
#     name; every count, byte and leaked object must be the workload's.
# What the frontend alone does with the same counts (interval summaries,
# signals, -j and -e -j against the text, escaping, timelines) is checked
# in 6.1's guest only (frontend_checks, tests/lib.sh).
#
# Environment (from tests/vm/run and tests/run): VM_KERNEL (6.1|sid),
# VM_SCRATCH (writable dir), VM_MODPROBE, GEMGEN_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init i915mem

# A memory row: "LIVE LIVE_BYTES PEAK_BYTES CREATED CREATED_B DESTROYED DESTROYED_B",
# from the text (mem_row) or from -j (mem_json).
mem_row() {
	awk -v p="$2" 'NF == 10 && $2 == p && $4 ~ /^-?[0-9]+$/ { print $4, $5, $6, $7, $8, $9, $10; exit }' "$1"
}
mem_json() {
	jrows "$1" memory "select(.pid == $2) | \"\(.live) \(.live_bytes) \(.peak_bytes) \(.created) \(.created_bytes) \(.destroyed) \(.destroyed_bytes)\""
}
# An activity row: "BINDS UNBINDS REBINDS GTT_RD GTT_WR CPU_RD CPU_WR CPU_ANY GPU_PF PREAD_B PWRITE_B",
# from the text (act_row) or from -j (act_json).
act_row() {
	awk -v p="$2" -v d="${3:-i915}" 'NF == 14 && $1 == d && $2 == p && $4 ~ /^[0-9]+$/ {
		print $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14; exit }' "$1"
}
act_json() {
	jrows "$1" activity "select(.pid == $2 and .driver == \"${3:-i915}\") | \"\(.binds) \(.unbinds) \(.rebinds) \(.gtt_rd_faults) \(.gtt_wr_faults) \(.cpu_rd_faults) \(.cpu_wr_faults) \(.cpu_any_faults) \(.gpu_faults) \(.pread_bytes) \(.pwrite_bytes)\""
}

# ---------------------------------------------------------------------------
# 1. No driver: no i915 or xe events, and the error says which modules.
expect_error "$P no driver loaded: names i915 and xe" 1 \
	"^i915mem: no Intel GPU driver loaded \(no i915 or xe trace events\): 'modprobe i915' or 'modprobe xe'" "$T"

# ---------------------------------------------------------------------------
# 2. The real i915: the tool attaches against its real BTF; what its BPF
#    reads is there, with the types the test module mirrors. Without module
#    BTF (5.10) it reads the records by itself, and says so.
# The lines the record path says on stderr (records_announce()), for MODULE.
rec_lines() {
	printf "i915mem: reading the tracepoint records (%s)\n" "$1"
	echo "i915mem: not in the records, printed as '-': BYTES of a fault on an object created before tracing (-e)"
}
# xe_missing: what the tool says of the xe events this kernel's xe lacks.
xe_missing() {
	local ev
	for ev in xe_bo_create xe_vma_bind xe_vma_rebind_worker xe_vma_rebind_exec xe_vma_unbind \
		xe_vma_evict xe_vma_pagefault xe_bo_cpu_fault xe_bo_move xe_vm_create xe_vm_free; do
		[ -e $trace/events/xe/$ev ] || echo "i915mem: xe has no event $ev on this kernel: not traced"
	done
}
have_xe=0
[ -n "$(module_file xe)" ] && have_xe=1
load_module i915
# No Intel GPU here: i915 drives no device, and is left out unless -D names it.
expect_error "$P real i915 with no device bound: not traced, -D says how" 1 \
	"^i915mem: i915 is loaded but drives no device \(no Intel GPU bound to it\): -D i915 traces it anyway$" "$T"
if [ -e /sys/kernel/btf/i915 ]; then
	timeout 120 "$T" -D i915 1 1 >"$S/real.out" 2>"$S/real.err"
	check_eq "$P real i915: attaches, one idle interval, exits 0" "$?" 0
	check "$P real i915: says it traces i915" grep -q "^Tracing Intel GPU memory (i915)" "$S/real.out"
	check_eq "$P real i915: nothing on stderr" "$(cat "$S/real.err")" ""
	corepaths_in "$O" i915 | grep -v '^struct xe_' >"$S/real.paths"
	# gpuhang reads i915's requests and engines: its paths and the
	# functions' BTF, for gemgen to mirror below.
	corepaths_in build/gpuhang.bpf.o i915 | grep -E '^struct (i915_|intel_|drm_i915)' >"$S/gh-real.paths"
	cp /sys/kernel/btf/i915 "$S/i915-real.btf"
	check_eq "$P real i915: gpuhang's member paths of i915's types, all there" \
		"$(wc -l <"$S/gh-real.paths") $(grep -c ': missing' "$S/gh-real.paths")" "12 0"
	check_eq "$P real i915: the BPF reads 8 member paths of its types" "$(wc -l <"$S/real.paths")" 8
	# i915_vma.guard (>= 6.3): as the real module's BTF has it
	bpftool btf dump file /sys/kernel/btf/i915 format c |
		awk '/^struct i915_vma {/ { v = 1 } v && /^};/ { exit } v' | grep -q '[^a-z_]guard;' &&
		guard= || guard="struct i915_vma.guard: missing (struct i915_vma has no guard)"
	check_eq "$P real i915: every path the BPF reads exists (guard pages: where i915_vma has them)" \
		"$(grep -v ': \(size_t\|u64\|u32\|struct [a-z0-9_]* \*\)$' "$S/real.paths")" "$guard"
else
	echo "note: $K: i915 has no BTF: the record path by itself"
	timeout 120 "$T" -D i915 1 1 >"$S/real.out" 2>"$S/real.err"
	check_eq "$P real i915 without BTF: attaches, one idle interval, exits 0" "$?" 0
	check "$P real i915 without BTF: says it traces i915" grep -q "^Tracing Intel GPU memory (i915)" "$S/real.out"
	check_eq "$P real i915 without BTF: the record path, said on stderr" \
		"$(cat "$S/real.err")" "$(rec_lines "module i915 has no BTF")"
fi
if [ "$have_xe" = 1 ] && [ -e /sys/kernel/btf/i915 ]; then
	# The real xe too (those of its events this xe has). Both drivers
	# traced at once: gemgen plays both below.
	load_module xe
	expect_error "$P real i915 and xe with no device bound: neither traced, -D says how" 1 \
		"^i915mem: i915 and xe are loaded but drive no device \(no Intel GPU bound to them\): -D i915 or -D xe traces one anyway$" "$T"
	timeout 120 "$T" -D xe 1 1 >"$S/realxe.out" 2>"$S/realxe.err"
	check_eq "$P real xe: attaches, exits 0" "$?" 0
	check "$P real xe: says it traces xe" grep -q "^Tracing Intel GPU memory (xe)" "$S/realxe.out"
	check_eq "$P real xe: on stderr only the xe events this xe lacks" \
		"$(cat "$S/realxe.err")" "$(xe_missing)"
	corepaths_in "$O" xe | grep -v '^struct \(i915_\|drm_i915\|drm_mm_node\)' >"$S/realxe.paths"
	check_eq "$P real xe: the BPF reads 9 member paths of its types, all there" \
		"$(grep -c ': \(size_t\|u64\|struct [a-z0-9_]*\( \*\)\?\)$' "$S/realxe.paths")" 9
	# gpuhang reads xe's exec queues and jobs: its paths, for gemgen to mirror below.
	corepaths_in build/gpuhang.bpf.o xe | grep '^struct xe_' >"$S/gh-realxe.paths"
	check_eq "$P real xe: gpuhang's member paths of xe's types, all there" \
		"$(wc -l <"$S/gh-realxe.paths") $(grep -c ': missing' "$S/gh-realxe.paths")" "7 0"
	unload_module xe
elif [ "$have_xe" = 0 ]; then
	expect_error "$P -D xe where the kernel has no xe: names the module" 1 \
		"^i915mem: driver xe is not loaded: 'modprobe xe'" "$T" -D xe
fi
unload_module i915

# ---------------------------------------------------------------------------
# 3. gemgen plays i915.
load_module "${GEMGEN_KO:?}" || exit 1
# Without module BTF (5.10) everything below runs on the record path, by itself.
rec=0
[ -e /sys/kernel/btf/gemgen ] || rec=1
# quiet FILE...: the tool's stderr but for what the record path says there.
quiet() {
	if [ "$rec" = 1 ]; then grep -vxF "$(rec_lines "module gemgen has no BTF")" "$@"; else cat "$@"; fi
}
if [ "$rec" = 0 ] && [ -e "$S/real.paths" ]; then
	corepaths_in "$O" gemgen >"$S/mock.paths"
	check_eq "$P gemgen mirrors the real i915: the same member paths, of the same types" \
		"$(comm -23 "$S/real.paths" "$S/mock.paths")" ""
fi
if [ -e "$S/realxe.paths" ]; then
	check_eq "$P gemgen mirrors the real xe: the same member paths, of the same types" \
		"$(comm -23 "$S/realxe.paths" "$S/mock.paths")" ""
fi
if [ -e "$S/gh-real.paths" ]; then
	check_eq "$P gemgen mirrors the real i915 for gpuhang: its member paths, of the same types" \
		"$(corepaths_in build/gpuhang.bpf.o gemgen | grep -E '^struct (i915_|intel_|drm_i915)' | diff "$S/gh-real.paths" -)" ""
	MIRROR_FNS="__i915_request_reset __intel_engine_reset_bh intel_gt_reset intel_gt_set_wedged" \
		MIRROR_STRUCTS="" \
		bash tests/kmod/kfdmock-check.sh --compare /sys/kernel/btf/vmlinux "$S/i915-real.btf" \
		/sys/kernel/btf/gemgen >"$S/gh-mirror.out" 2>&1
	check_eq "$P gemgen: the hang functions' prototypes the real i915's (BTF, this boot)" \
		"$? $(grep -vc '^same ' "$S/gh-mirror.out")" "0 0"
fi
if [ -e "$S/gh-realxe.paths" ]; then
	check_eq "$P gemgen mirrors the real xe for gpuhang: its member paths, of the same types" \
		"$(corepaths_in build/gpuhang.bpf.o gemgen | grep '^struct xe_' | diff "$S/gh-realxe.paths" -)" ""
fi

echo >$trace/trace
# (5.10 has no hash-ptr option: its trace buffer prints %p unhashed)
[ -e $trace/options/hash-ptr ] && echo nohash-ptr >$trace/trace_options
echo 1 >$trace/events/i915/enable

# 3a. The summary of a known workload, and -l: its numbers read from -j;
#     the text, traced at once, says the same.
pair_start "$S/sum" -l
write_as gemuser1 /proc/gemgen "vm
create n=10 size=65536
bind first=0 n=10 vm=0
fault first=0 n=4 gtt=1 write=1
fault first=4 n=2 gtt=0 write=0
pwrite first=0 n=3 bytes=4096
pread first=0 n=2 bytes=100
evict vm=0 bytes=131072
bind first=0 n=2 vm=0
shrink pages=256
destroy first=0 n=6 async=1"
write_as gemuser2 /proc/gemgen "create n=3 size=1048576"
pair_stop INT
out=$S/sum.txt j=$S/sum.json
a=$(pid_of gemuser1) b=$(pid_of gemuser2)
check_eq "$P summary: exit status 0 on Ctrl-C (text, -j)" "$txt_status $json_status" "0 0"
# gemgen is no PCI driver: every driver it plays is traced, both at once where it plays xe.
drivers=i915
[ -e $trace/events/xe ] && [ "$rec" = 0 ] && drivers="i915, xe"
check "$P summary: traces every driver gemgen plays ($drivers)" \
	grep -qxF "Tracing Intel GPU memory ($drivers), counting from now... Hit Ctrl-C to end." "$out"
check_eq "$P gemuser1: 4 live, 262144 bytes, peak 655360, 10 created, 6 destroyed" \
	"$(mem_json "$j" "$a")" "4 262144 655360 10 655360 6 393216"
check_eq "$P gemuser2 (exited): 3 live, 3 MiB, created 3" \
	"$(mem_json "$j" "$b")" "3 3145728 3145728 3 3145728 0 0"
check_eq "$P summary: the text's memory rows say what -j does" \
	"$(mem_row "$out" "$a") / $(mem_row "$out" "$b")" "$(mem_json "$j" "$a") / $(mem_json "$j" "$b")"
check_eq "$P rows sorted by live bytes: gemuser2 first" \
	"$(awk 'NF == 10 && $4 ~ /^[0-9]+$/ { print $3 }' "$out" | tr '\n' ' ')" "gemuser2 gemuser1 "
check_eq "$P gemuser1's activity: 12 binds, 2 unbinds (eviction), 2 rebinds, faults, pread/pwrite bytes" \
	"$(act_json "$j" "$a")" "12 2 2 0 4 2 0 0 0 200 12288"
check_eq "$P summary: the text's activity row says what -j does" "$(act_row "$out" "$a")" "$(act_json "$j" "$a")"
check_eq "$P unbinds in all: 2 by eviction + 6 by the destroying worker" \
	"$(jq -rs 'map(select(.type == "activity") | .unbinds) | add' "$j")" 8
check_eq "$P the worker's unbinds are its own row (a kworker)" \
	"$(jrows "$j" activity 'select(.comm | startswith("kworker")) | "\(.binds) \(.unbinds)"')" "0 6"
check_eq "$P the text's worker row says the same" \
	"$(awk 'NF == 14 && $3 ~ /^kworker/ { print $4, $5 }' "$out")" "0 6"
check_eq "$P address space: created by gemuser1, 12 binds, 8 unbinds, 2 rebinds, 786432 bytes, 1 eviction" \
	"$(jrows "$j" address_space '"\(.pid) \(.comm) \(.binds) \(.unbinds) \(.rebinds) \(.bound_bytes) \(.evictions)"')" \
	"$a gemuser1 12 8 2 786432 1"
check_eq "$P address space: the text's row says the same" \
	"$(awk 'NF == 9 && $2 ~ /^0x/ { print $3, $4, $5, $6, $7, $8, $9 }' "$out")" \
	"$a gemuser1 12 8 2 786432 1"
check "$P evictions and the shrinker, pages and bytes" grep -qx \
	"i915: evictions: 1 for room (131072 bytes asked), 0 of ranges (0 bytes), 0 of whole address spaces; shrinker: 1 requests, target 256 pages (1048576 bytes)" "$out"
check_eq "$P -j: evictions and the shrinker" \
	"$(jrows "$j" evictions '"\(.evictions) \(.evict_bytes) \(.range_evictions) \(.range_bytes) \(.vm_evictions) \(.shrink_requests) \(.shrink_target_pages) \(.shrink_target_bytes)"')" \
	"1 131072 0 0 0 1 256 1048576"
check_eq "$P object sizes: 10 of 64 KiB, 3 of 1 MiB" \
	"$(awk '/sizes of the objects created/ { h = 1; next } h && /->/ && $5 > 0 { print $1 ":" $5 } h && /^$/ { h = 0 }' "$out" | tr '\n' ' ')" \
	"65536:10 1048576:3 "
check_eq "$P lifetimes: 6 objects destroyed" \
	"$(jrows "$j" driver_hist 'select(.hist == "lifetime") | "\(.count) \([.buckets[].count] | add)"')" "6 6"
check_eq "$P lifetimes: the text's histogram counts 6" \
	"$(awk '/lifetimes of the objects destroyed/ { h = 1; next } h && /->/ { n += $5 } END { print n }' "$out")" 6
check "$P -l: 7 objects alive" grep -qx "Objects alive (created while tracing, not destroyed): 7" "$out"
check "$P -l: gemuser1's 4, 262144 bytes" grep -qx "i915 PID $a (gemuser1) exited: 4 objects, 262144 bytes" "$out"
check "$P -l: gemuser2's 3, exited" grep -qx "i915 PID $b (gemuser2) exited: 3 objects, 3145728 bytes" "$out"
# The kernel's own trace buffer: objects created and never destroyed.
# (%p without hashing: the address in hex, no 0x.)
grep -o 'i915_gem_object_create: obj=[0-9a-fx]*\|i915_gem_object_destroy: obj=[0-9a-fx]*' $trace/trace |
	sed 's/obj=\(0x\)\?/obj=0x/' >"$S/objs.trace"
check_eq "$P -l names exactly the objects the kernel created and did not destroy" \
	"$(awk '/^    0x/ { print $1 }' "$out" | sort)" \
	"$(awk -F'obj=' '/create/ { live[$2] = 1 } /destroy/ { delete live[$2] } END { for (o in live) print o }' "$S/objs.trace" | sort)"
check_eq "$P -l: oldest first within a process (creation order)" \
	"$(awk '/^i915 PID/ { p = $3 } /^    0x/ && p == '"$a"' { print $1 }' "$out" | tr '\n' ' ')" \
	"$(awk -F'obj=' '/create/ { print $2 }' "$S/objs.trace" | sed -n '7,10p' | tr '\n' ' ')"
banner='^Tracing Intel GPU memory (i915\(, xe\)\?), counting from now\.\.\. Hit Ctrl-C to end\.$'
check_eq "$P summary: nothing on stderr (text; -j: the banner alone)" \
	"$(quiet "$out.err")|$(quiet "$j.err" | grep -v "$banner")" "|"
echo 0 >$trace/events/i915/enable

# 3b. -e: one line per event, the same events as the kernel's trace buffer.
echo >$trace/trace
echo 1 >$trace/events/i915/enable
start "$S/ev.out" -e
write_as gemuser3 /proc/gemgen "vm
create n=5 size=8192
bind first=13 n=5 vm=1
fault first=13 n=1 gtt=1 write=0
unbind first=13 n=5
bind first=13 n=1 vm=1
destroy first=13 n=5
release vm=1"
stop INT
echo 0 >$trace/events/i915/enable
out=$S/ev.out
check_eq "$P -e: header" "$(head -1 "$out")" \
	"$(printf '%-11s %-6s %-10s %-7s %-16s %-18s %12s %s' 'TIME(s)' DRIVER EVENT PID COMM OBJECT BYTES DETAIL)"
for ev in create:CREATE:5 destroy:DESTROY:5 vma_bind:BIND:6 vma_unbind:UNBIND:6 fault:FAULT:1 ppgtt_create:VM_CREATE:1 ppgtt_release:VM_FREE:1; do
	IFS=: read -r tp name n <<<"$ev"
	check_eq "$P -e: $n $name lines, as many as the kernel's $tp events" \
		"$(awk -v e="$name" '$3 == e' "$out" | wc -l) $(grep -c "i915_\(gem_object_\)\?$tp:" $trace/trace)" "$n $n"
done
check_eq "$P -e: every CREATE is 8192 bytes by gemuser3" \
	"$(awk '$3 == "CREATE" { print $4, $5, $7 }' "$out" | sort -u)" "$(pid_of gemuser3) gemuser3 8192"
check_eq "$P -e: the object addresses are the kernel's" \
	"$(awk '$3 == "CREATE" { print $6 }' "$out" | tr '\n' ' ')" \
	"$(grep -o 'i915_gem_object_create: obj=[0-9a-fx]*' $trace/trace | sed 's/.*obj=\(0x\)\?/0x/' | tr '\n' ' ')"
check_eq "$P -e: one BIND is a rebind" "$(grep -c ' rebind$' "$out")" 1
check_eq "$P -e: binding offsets are the kernel's (inside the guard pages)" \
	"$(awk '$3 == "BIND" { sub(/.*offset=/, ""); sub(/ .*/, ""); print }' "$out" | tr '\n' ' ')" \
	"$(grep 'i915_vma_bind:' $trace/trace | sed 's/.*offset=0x0*\([0-9a-f]*\) .*/0x\1/' | tr '\n' ' ')"
check "$P -e: FAULT says gtt read and the page index" grep -q ' FAULT .* gtt read index=0$' "$out"
check_eq "$P -e: nothing on stderr" "$(quiet "$out.err")" ""

# 3c. Filters: -p, -c, -D.
[ -x "$S/gemuser8" ] || cp /bin/dash "$S/gemuser8"
"$S/gemuser8" -c 'while [ ! -e "$1" ]; do sleep 0.1; done; printf "create n=2 size=8192\n" >/proc/gemgen' \
	sh "$S/go8" &
other=$!
start "$S/pid.json" -p "$other" -j
write_as gemuser2 /proc/gemgen "create n=2 size=4096"
touch "$S/go8"
wait "$other"
stop INT
check_eq "$P -p PID: that process's 2 objects" "$(mem_json "$S/pid.json" "$other")" "2 16384 16384 2 16384 0 0"
check_eq "$P -p PID: no other process" "$(jrows "$S/pid.json" memory .pid | wc -l)" 1
start "$S/comm.out" -c gemuser5
write_as gemuser2 /proc/gemgen "create n=2 size=4096"
write_as gemuser5 /proc/gemgen "create n=3 size=4096
destroy first=24 n=3 async=1"
stop INT
check_eq "$P -c gemuser5: its 3 objects, destroyed by a worker all the same" \
	"$(mem_row "$S/comm.out" "$(pid_of gemuser5)")" "0 0 12288 3 12288 3 12288"
check_eq "$P -c gemuser5: no other process" "$(awk 'NF == 10 && $4 ~ /^[0-9]+$/' "$S/comm.out" | wc -l)" 1


# 3d. interval count: each summary has what changed in its interval.
#     (Waits for the first summary rather than a fixed time: VMs share the
#     machine's cores; 3 s leave a loaded one room for each step.)
if frontend_checks "interval count"; then
	: >"$S/int.out"
	timeout 60 "$T" 3 2 >"$S/int.out" 2>&1 &
	int_pid=$!
	wait_for_output "$S/int.out" "$int_pid"
	cp /bin/dash "$S/gemuser6"
	"$S/gemuser6" -c 'printf "create n=4 size=4096\n" >/proc/gemgen
	while [ ! -e "$1" ]; do sleep 0.1; done; printf "create n=1 size=4096\n" >/proc/gemgen' sh "$S/go6" &
	g6=$!
	for i in $(seq 1 100); do
		grep -q '^DRIVER \|^no objects' "$S/int.out" && break
		sleep 0.1
	done
	touch "$S/go6"
	wait "$g6"
	wait "$int_pid"
	check_eq "$P interval 3 count 2: exits 0 by itself" "$?" 0
	check_eq "$P interval: created 4, then 1 (live 4, then 5)" \
		"$(awk -v p="$g6" 'NF == 10 && $2 == p { print $4 "/" $7 }' "$S/int.out" | tr '\n' ' ')" "4/4 5/1 "
fi

# 3e. SIGTERM ends with a summary, like Ctrl-C.
if frontend_checks "SIGTERM"; then
	start "$S/term.out"
	write_as gemuser7 /proc/gemgen "create n=2 size=4096"
	stop TERM
	check_eq "$P SIGTERM: status 0 and the summary" \
		"$tool_status $(mem_row "$S/term.out" "$(pid_of gemuser7)" | cut -d' ' -f1,4)" "0 2 2"

	# gemgen's next object and address space numbers (its objects are numbered
	# on through the whole run): gem_next created|vms.
fi
gem_next() { sed -n "1s/.*$1=\([0-9]*\).*/\1/p" /proc/gemgen; }
# cg_write DIR NAME TEXT: write_as NAME, from a process inside cgroup DIR.
cg_write() {
	[ -x "$S/$2" ] || cp /bin/dash "$S/$2"
	in_cgroup "$1" "$S/$2" -c 'echo $$ >"$1"; printf "%s\n" "$2" >/proc/gemgen' "$2" "$S/$2.pid" "$3"
}
# The text's rows with their columns joined by one space (jrows, in
# tests/lib.sh, gives -j's).
trows() { awk "$2"' { $1 = $1; print }' "$1"; }

# 3f. -j: the same workload traced as text and as JSON lines at once, both
#     with -l: every line a JSON object, its numbers the text's.
if frontend_checks "-j against the text"; then
	pair_start "$S/pair" -l
	o=$(gem_next created) v=$(gem_next vms)
	write_as gemuserj /proc/gemgen "vm
create n=6 size=65536
bind first=$o n=6 vm=$v
fault first=$o n=2 gtt=1 write=1
fault first=$((o + 2)) n=1 gtt=0 write=0
pwrite first=$o n=2 bytes=4096
pread first=$o n=1 bytes=100
evict vm=$v bytes=65536
bind first=$o n=1 vm=$v
shrink pages=16
destroy first=$o n=3 async=1"
	write_as gemuserk /proc/gemgen "create n=2 size=1048576"
	pair_stop INT
	j=$S/pair.json t=$S/pair.txt
	check_eq "$P -j: exit status 0 on Ctrl-C" "$json_status" 0
	check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
	# (gemgen plays xe too where the kernel has xe: both drivers traced there.)
	check_eq "$P -j: stderr is the banner alone" "$(quiet "$j.err" | grep -vc "$banner") $(quiet "$j.err" | wc -l)" "0 1"
	check_eq "$P -j: one ts for the whole summary" "$(jq -r '.ts' "$j" | sort -u | wc -l)" 1
	check_eq "$P -j: memory row of gemuserj: 3 live, peak 393216, 6 created, 3 destroyed" \
		"$(jrows "$j" memory 'select(.comm == "gemuserj") | "\(.live) \(.live_bytes) \(.peak_bytes) \(.created) \(.created_bytes) \(.destroyed) \(.destroyed_bytes)"')" \
		"3 196608 393216 6 393216 3 196608"
	check_eq "$P -j: memory rows equal the text's, in its order" \
		"$(jrows "$j" memory '"\(.driver) \(.pid) \(.comm) \(.live) \(.live_bytes) \(.peak_bytes) \(.created) \(.created_bytes) \(.destroyed) \(.destroyed_bytes)"')" \
		"$(trows "$t" 'NF == 10 && $4 ~ /^-?[0-9]+$/')"
	check_eq "$P -j: activity row of gemuserj: 7 binds, 1 unbind, 1 rebind, faults, pread/pwrite" \
		"$(jrows "$j" activity 'select(.comm == "gemuserj") | "\(.binds) \(.unbinds) \(.rebinds) \(.gtt_rd_faults) \(.gtt_wr_faults) \(.cpu_rd_faults) \(.cpu_wr_faults) \(.cpu_any_faults) \(.gpu_faults) \(.pread_bytes) \(.pwrite_bytes) \(.preads) \(.pwrites)"')" \
		"7 1 1 0 2 1 0 0 0 100 8192 1 2"
	check_eq "$P -j: activity rows equal the text's (the worker's too)" \
		"$(jrows "$j" activity '"\(.driver) \(.pid) \(.comm) \(.binds) \(.unbinds) \(.rebinds) \(.gtt_rd_faults) \(.gtt_wr_faults) \(.cpu_rd_faults) \(.cpu_wr_faults) \(.cpu_any_faults) \(.gpu_faults) \(.pread_bytes) \(.pwrite_bytes)"' | sort)" \
		"$(trows "$t" 'NF == 14 && $4 ~ /^[0-9]+$/' | sort)"
	check_eq "$P -j: address space row equals the text's (address as a hex string)" \
		"$(jrows "$j" address_space '"\(.driver) \(.address_space) \(.pid) \(.comm) \(.binds) \(.unbinds) \(.rebinds) \(.bound_bytes) \(.evictions) \(.freed)"')" \
		"$(awk 'NF == 9 && $2 ~ /^0x/ { print $1, $2, $3, $4, $5, $6, $7, $8, $9, "false" }' "$t")"
	check "$P -j: the address space row has numbers" \
		test "$(jrows "$j" address_space '"\(.binds) \(.unbinds) \(.bound_bytes)"')" = "7 4 458752"
	check_eq "$P -j: evictions and shrinker equal the text's line" \
		"$(jrows "$j" evictions '"\(.driver): \(.evictions) \(.evict_bytes) \(.range_evictions) \(.range_bytes) \(.vm_evictions) \(.shrink_requests) \(.shrink_target_pages) \(.shrink_target_bytes)"')" \
		"$(sed -n 's/^\(i915\): evictions: \([0-9]*\) for room (\([0-9]*\) bytes asked), \([0-9]*\) of ranges (\([0-9]*\) bytes), \([0-9]*\) of whole address spaces; shrinker: \([0-9]*\) requests, target \([0-9]*\) pages (\([0-9]*\) bytes)$/\1: \2 \3 \4 \5 \6 \7 \8 \9/p' "$t")"
	check_eq "$P -j: ... which are the workload's" \
		"$(jrows "$j" evictions '"\(.evictions) \(.evict_bytes) \(.shrink_requests) \(.shrink_target_pages) \(.shrink_target_bytes)"')" \
		"1 65536 1 16 $((16 * $(getconf PAGESIZE)))"
	# A text histogram's non-empty buckets as LO:COUNT.
	hist_text() {
		awk -v title="$2" 'index($0, title) { h = 1; next } h && /->/ && $5 > 0 { print $1 ":" $5 } h && /^$/ { h = 0 }' "$1" | tr '\n' ' '
	}
	check_eq "$P -j: size histogram: 6 of 64 KiB, 2 of 1 MiB, as the text's" \
		"$(jrows "$j" driver_hist 'select(.hist == "size") | "\(.driver) \(.unit) \(.count) " + ([.buckets[] | select(.count > 0) | "\(.lo):\(.count)"] | join(" ")) + " "')" \
		"i915 bytes 8 $(hist_text "$t" "i915: sizes of the objects created")"
	check_eq "$P -j: lifetime histogram: the 3 destroyed, as the text's (microseconds)" \
		"$(jrows "$j" driver_hist 'select(.hist == "lifetime") | "\(.unit) \(.count) \([.buckets[].count] | add)"')" \
		"us 3 $(awk '/lifetimes of the objects destroyed/ { h = 1; next } h && /->/ { n += $5 } END { print n }' "$t")"
	check_eq "$P -j -l: 5 objects alive, as the text says" \
		"$(jrows "$j" leaks '"\(.objects) \(.bytes)"')" \
		"$(sed -n 's/^Objects alive (created while tracing, not destroyed): //p' "$t") $((3 * 65536 + 2 * 1048576))"
	check_eq "$P -j -l: a leak_process row per text line" \
		"$(jrows "$j" leak_process '"\(.driver) PID \(.pid) (\(.comm))\(if .exited then " exited" else "" end): \(.objects) objects, \(.bytes) bytes"')" \
		"$(grep '^i915 PID' "$t")"
	check_eq "$P -j -l: the leak rows are the text's objects, in its order, with their creators" \
		"$(jrows "$j" leak '"\(.object) \(.bytes) \(.pid) \(.comm)"')" \
		"$(awk '/^i915 PID/ { p = $3; c = $4; gsub(/[():]/, "", c) } /^    0x/ { print $1, $2, p, c }' "$t")"
	check_eq "$P -j -l: 5 leak rows, ages in seconds" \
		"$(jrows "$j" leak 'select(.age_s >= 0 and .age_s < 60) | .type' | wc -l)" 5
	check_eq "$P -j: the text run: nothing on stderr" "$(quiet "$t.err")" ""
fi

# 3g. -e -j: the same events as the text's -e, field for field (the text's
#     DETAIL rebuilt from the JSON fields; lifetimes and times are each
#     tracer's own clock readings, so only their presence is compared).
if frontend_checks "-e -j against the text"; then
	pair_start "$S/pair-e" -e
	o=$(gem_next created) v=$(gem_next vms)
	write_as gemusere /proc/gemgen "vm
create n=3 size=8192
bind first=$o n=3 vm=$v
fault first=$o n=1 gtt=1 write=0
fault first=$((o + 1)) n=1 gtt=0 write=1
pwrite first=$o n=1 bytes=512
pread first=$((o + 2)) n=1 bytes=64
shrink pages=4
unbind first=$o n=1
bind first=$o n=1 vm=$v
evict_node vm=$v bytes=4096
destroy first=$o n=3
release vm=$v"
	pair_stop INT
	j=$S/pair-e.json t=$S/pair-e.txt
	check_eq "$P -e -j: every line a JSON object" "$(json_lines "$j")" ok
	check_eq "$P -e -j: the banner on stderr (no header on stdout to say it attached)" \
		"$(quiet "$j.err" | grep -vc "$banner") $(quiet "$j.err" | wc -l)" "0 1"
	check_eq "$P -e -j: 22 events of gemusere" "$(jq -r 'select(.type == "event" and .comm == "gemusere") | .event' "$j" | wc -l)" 22
	check_eq "$P -e -j: every event equals the text's line" "$(python3 - "$j" "$t" <<'PY'
import json, re, sys
def detail(o):
    e = o["event"]
    if e == "CREATE":
        return "-"
    if e == "DESTROY":
        assert o["life_us"] >= 0
        return "creator=%d life=L" % o["creator"]
    if e == "BIND":
        return "vm=%s offset=%s flags=%s%s" % (o["vm"], hex(o["offset"]), hex(o["flags"]),
                                               " rebind" if o["rebind"] else "")
    if e == "UNBIND":
        return "vm=%s offset=%s" % (o["vm"], hex(o["offset"]))
    if e == "FAULT":
        where, rw = o["fault"].split("_")
        return "%s %s index=%d" % (where, rw, o["index"])
    if e in ("PREAD", "PWRITE"):
        return "offset=%d" % o["offset"]
    if e == "SHRINK":
        return "target=%d pages (%d bytes)" % (o["target_pages"], o["target_bytes"])
    return "vm=%s" % o["vm"]
js = sorted("%s %s %d %s %s %d %s" % (o["driver"], o["event"], o["pid"], o["comm"],
            o["object"] or "-", o["bytes"], detail(o)) for o in map(json.loads, open(sys.argv[1])))
tx = sorted(re.sub(r"life=\d+usecs", "life=L", " ".join(l.rstrip("\n").split(None, 7)[1:]))
            for l in list(open(sys.argv[2]))[1:])
print("ok" if js == tx and js else "json %s\ntext %s" % (js, tx))
PY
	)" ok
	check_eq "$P -e -j: each event's ts is within a minute of now" \
		"$(jq -r --argjson now "$(date +%s)" 'select(.ts < $now - 60 or .ts > $now + 1)' "$j")" ""
fi

# 3h. --container: objects made from three cgroups, traced at once
#     unfiltered and filtered; -C names the containers and cgroups. A is a
#     podman container (systemd's driver), A/sub a cgroup of its own below
#     it, B a docker container (the cgroupfs driver).
cg=/sys/fs/cgroup/i915mem-test
id_a=a11ce00000000000000000000000000000000000000000000000000000000a11
id_b=5eed0000000000000000000000000000000000000000000000000000000b0b0b
A=$cg/machine.slice/libpod-$id_a.scope B=$cg/docker/$id_b
mkdir -p "$A/sub" "$B"
start "$S/cg-all.out" -l
p1=$tool_pid
start "$S/cg-A.out" -l -C --container "${id_a:0:12}" --prometheus "$S/cg-A.prom"
p2=$tool_pid
start "$S/cg-B.out" -l -j -C --container "$id_b"
o=$(gem_next created)
cg_write "$A" gemcga "create n=3 size=4096
destroy first=$o n=1"
cg_write "$A/sub" gemcgsub "create n=2 size=8192"
cg_write "$B" gemcgb "create n=5 size=16384
destroy first=$((o + 5)) n=2"
stop INT
for p in $p1 $p2; do kill -INT $p; wait $p; done
a=$(pid_of gemcga) sub=$(pid_of gemcgsub) b=$(pid_of gemcgb)
check_eq "$P --cgroup: unfiltered, each cgroup's process and its objects" \
	"$(mem_row "$S/cg-all.out" "$a") / $(mem_row "$S/cg-all.out" "$sub") / $(mem_row "$S/cg-all.out" "$b")" \
	"2 8192 12288 3 12288 1 4096 / 2 16384 16384 2 16384 0 0 / 3 49152 81920 5 81920 2 32768"
check "$P --cgroup: unfiltered, 7 objects alive" grep -qx "Objects alive (created while tracing, not destroyed): 7" "$S/cg-all.out"
check_eq "$P --container A -C: A's process and A/sub's below it, each named by container and cgroup" \
	"$(awk 'NF == 13 && $4 ~ /^[0-9]+$/ { print $2, $3, $7, $9, $11, $12, $13 }' "$S/cg-A.out")" \
	"$sub gemcgsub 2 0 ${id_a:0:12} - /i915mem-test/machine.slice/libpod-$id_a.scope/sub
$a gemcga 3 1 ${id_a:0:12} - /i915mem-test/machine.slice/libpod-$id_a.scope"
check "$P -C: CONTAINER, POD and CGROUP columns" grep -q "^DRIVER .* CONTAINER  *POD  *CGROUP$" "$S/cg-A.out"
check "$P --container A -l: 4 objects alive" grep -qx "Objects alive (created while tracing, not destroyed): 4" "$S/cg-A.out"
check_eq "$P --container A -l -C: the leaking processes with their cgroups" \
	"$(grep '^i915 PID' "$S/cg-A.out" | sed 's/ exited//')" \
	"i915 PID $a (gemcga): 2 objects, 8192 bytes, cgroup /i915mem-test/machine.slice/libpod-$id_a.scope
i915 PID $sub (gemcgsub): 2 objects, 16384 bytes, cgroup /i915mem-test/machine.slice/libpod-$id_a.scope/sub"
check_eq "$P --container A --prometheus: each process's objects by container" \
	"$(grep -F 'gpubpf_i915mem_objects_created_total{driver="i915",comm="gemcga",container_id="podman://'"$id_a"'",cgroup="/i915mem-test/machine.slice/libpod-'"$id_a"'.scope"} ' "$S/cg-A.prom" | awk '{ print $NF }')" 3
check_eq "$P --container B -j -C: B's process only, its container and cgroup fields" \
	"$(jrows "$S/cg-B.out" memory '"\(.pid) \(.created) \(.destroyed) \(.live) \(.container) \(.runtime) \(.pod) \(.cgroup)"')" \
	"$b 5 2 3 $id_b docker null /i915mem-test/docker/$id_b"
check_eq "$P --container B -j -l -C: its 3 objects alive, each with its creator's container" \
	"$(jrows "$S/cg-B.out" leaks '.objects') $(jrows "$S/cg-B.out" leak '"\(.pid) \(.container) \(.cgroup)"' | sort | uniq -c | tr -s ' ')" \
	"3  3 $b $id_b /i915mem-test/docker/$id_b"
check_eq "$P --cgroup B -j: every line a JSON object" "$(json_lines "$S/cg-B.out")" ok
check_eq "$P --cgroup: nothing on stderr" "$(quiet "$S/cg-all.out.err" "$S/cg-A.out.err")" ""
expect_error "$P --cgroup: no such directory" 64 "^i915mem: --cgroup /nonexistent: No such file or directory" \
	"$T" --cgroup /nonexistent
expect_error "$P --cgroup: not a cgroup" 64 "^i915mem: --cgroup /proc: not a cgroup v2 directory" \
	"$T" --cgroup /proc
find "$cg" -depth -type d -exec rmdir {} +
# 3i. Interval totals are exact: one process creates 50 objects, binds them
#     and destroys 30 (unbinding them first), in 20 rounds 0.2 s apart,
#     across several 1-s interval switches. Summed over the interval
#     summaries (-j), its creates, destroys, binds and unbinds, in objects and
#     bytes, are the workload's, none lost or counted twice; the last
#     summary has the 400 objects left.
if frontend_checks "interval totals over a burst"; then
	o=$(gem_next created) v=$(gem_next vms)
	start "$S/burst-int.json" -j 1
	cp /bin/dash "$S/gemburst"
	"$S/gemburst" -c 'echo $$ >"$1"; printf "vm\n" >/proc/gemgen; i=0 o=$2
	while [ $i -lt 20 ]; do
		printf "create n=50 size=4096\nbind first=%d n=50 vm=%d\ndestroy first=%d n=30\n" $o $3 $o >/proc/gemgen
		sleep 0.2; o=$((o + 50)) i=$((i + 1))
	done' sh "$S/gemburst.pid" "$o" "$v"
	sleep 1.5    # the last interval ends
	stop INT
	j=$S/burst-int.json g=$(pid_of gemburst)
	check_eq "$P burst across 1 s intervals: created, destroyed (objects, bytes) summed over intervals" \
		"$(jq -rs --argjson p "$g" 'map(select(.type == "memory" and .pid == $p)) |
		"\(map(.created) | add) \(map(.created_bytes) | add) \(map(.destroyed) | add) \(map(.destroyed_bytes) | add)"' "$j")" \
		"1000 4096000 600 2457600"
	check_eq "$P burst across 1 s intervals: the last summary: 400 live, 1638400 bytes; peak 430 objects" \
		"$(jrows "$j" memory "select(.pid == $g) | \"\(.live) \(.live_bytes)\"" | tail -1) $(jrows "$j" memory "select(.pid == $g) | .peak_bytes" | sort -n | tail -1)" \
		"400 1638400 $((430 * 4096))"
	check_eq "$P burst across 1 s intervals: binds, unbinds, rebinds summed over intervals" \
		"$(jq -rs --argjson p "$g" 'map(select(.type == "activity" and .pid == $p)) |
		"\(map(.binds) | add) \(map(.unbinds) | add) \(map(.rebinds) | add)"' "$j")" "1000 600 0"
	check_eq "$P burst across 1 s intervals: the address space's binds, unbinds, bytes bound summed over intervals" \
		"$(jq -rs 'map(select(.type == "address_space")) |
		"\(map(.binds) | add) \(map(.unbinds) | add) \(map(.bound_bytes) | add)"' "$j")" "1000 600 4096000"
	check_ge "$P burst across 1 s intervals: spread over several summaries" "$(jq -r '.ts' "$j" | sort -u | wc -l)" 3
	check_ge "$P burst across 1 s intervals: objects created in more than one" \
		"$(jrows "$j" memory "select(.pid == $g and .created > 0) | .ts" | sort -u | wc -l)" 2
	check_eq "$P burst across 1 s intervals: exit 0, nothing lost (no lost object, stderr the banner alone)" \
		"$tool_status $(jrows "$j" lost .what)|$(quiet "$j.err" | grep -v "$banner")" "0 |"
fi

# 3k. --timeline: live bytes per process as a counter track: gemtl creates 4
#     objects of 8 KiB and destroys 2; its counter steps up and down with
#     -e's CREATE and DESTROY lines (traced at once); its process is named.
if frontend_checks "--timeline"; then
	o=$(gem_next created)
	expect_error "$P --timeline: a directory that is not there" 1 \
		"^i915mem: --timeline /nonexistent/t.json: No such file or directory$" \
		"$T" --timeline /nonexistent/t.json
	start "$S/tl.ev" -e; tl_ev=$tool_pid
	start "$S/tl.out" --timeline "$S/tl.json"
	write_as gemtl /proc/gemgen "create n=4 size=8192
destroy first=$o n=2"
	for tool_pid in $tl_ev $tool_pid; do stop INT; done
	g=$(pid_of gemtl)
	check_eq "$P --timeline: the file is JSON (an array)" "$(jq -r type "$S/tl.json")" array
	check_eq "$P --timeline: gemtl's live bytes: up 4 x 8192, down 2 x 8192" \
		"$(jq -r --argjson p "$g" '[.[] | select(.ph == "C" and .pid == $p and .name == "i915 live bytes")] | sort_by(.ts) | map(.args.value) | join(" ")' "$S/tl.json")" \
		"8192 16384 24576 32768 24576 16384"
	check_eq "$P --timeline: the steps are -e's CREATE and DESTROY lines" \
		"$(jq -r --argjson p "$g" '[.[] | select(.ph == "C" and .pid == $p)] | sort_by(.ts) | map(.args.value) | join(" ")' "$S/tl.json")" \
		"$(awk -v p="$g" '($3 == "CREATE" && $4 == p) { n += $7; print n } ($3 == "DESTROY" && $0 ~ "creator=" p " ") { n -= $7; print n }' "$S/tl.ev" | paste -sd' ')"
	check_eq "$P --timeline: gemtl's process named" \
		"$(jq -r --argjson p "$g" '.[] | select(.ph == "M" and .name == "process_name" and .pid == $p) | .args.name' "$S/tl.json")" gemtl
	check "$P --timeline: the summary still printed" grep -q "^DRIVER  *PID" "$S/tl.out"
fi

# 3j. A hostile process name (issue 23, tests/lib.sh's HOSTILE): traced as
#     -e text and -e -j at once, and as a summary with -l. The text keeps
#     one line per event (as many as -j's), the name one column, escaped,
#     and no control byte; -j keeps the name exactly.
if frontend_checks "a hostile process name"; then
	o=$(gem_next created)
	start "$S/hn.ev" -e; hn_ev=$tool_pid
	start "$S/hn.evj" -e -j; hn_evj=$tool_pid
	start "$S/hn.sum" -l
	write_as "$HOSTILE" /proc/gemgen "create n=3 size=8192"
	for tool_pid in $hn_ev $hn_evj $tool_pid; do stop INT; done
	h=$(pid_of "$HOSTILE")
	check_eq "$P hostile name -e: 3 CREATE lines, the name escaped in COMM" \
		"$(awk '$3 == "CREATE" { print $4, $5 }' "$S/hn.ev" | uniq -c | sed 's/^ *//')" "3 $h $HOSTILE_TEXT"
	check_eq "$P hostile name -e: one text line per -j event, and the header" \
		"$(wc -l <"$S/hn.ev")" "$(($(jrows "$S/hn.evj" event .event | wc -l) + 1))"
	check_no_control "$P hostile name: no control byte in the text outputs" "$S/hn.ev" "$S/hn.sum"
	check_eq "$P hostile name summary: the memory row, the name one column" \
		"$(mem_row "$S/hn.sum" "$h" | cut -d' ' -f1,2) $(awk -v p="$h" 'NF == 10 && $2 == p { print $3 }' "$S/hn.sum")" \
		"3 24576 $HOSTILE_TEXT"
	check "$P hostile name -l: the process's line" grep -qxF "i915 PID $h ($HOSTILE_TEXT) exited: 3 objects, 24576 bytes" "$S/hn.sum"
	check_hostile_json "$P hostile name -j: the name exact, the bad byte U+FFFD" \
		"$(jrows "$S/hn.evj" event 'select(.event == "CREATE") | .comm' | sort -u)"
	echo "destroy first=$o n=3" >/proc/gemgen
fi

# ---------------------------------------------------------------------------
# 4. xe (kernels >= 6.8): gemgen plays xe too (the BTF path only: xe's
#    records do not name its buffer objects).
if [ -e $trace/events/xe ] && [ "$rec" = 1 ]; then
	expect_error "$P xe without BTF: -D xe says why not" 1 \
		"^i915mem: xe cannot be traced without its BTF \(its trace records do not name the buffer objects\)$" "$T" -D xe
elif [ -e $trace/events/xe ]; then
	echo >$trace/trace
	echo 1 >$trace/events/xe/enable
	start "$S/xe.out" -l -D xe
	write_as xeuser1 /proc/gemgen "xe_vm
xe_create n=4 size=2097152
xe_bind first=0 n=4 vm=0
xe_evict first=0 n=2
xe_move first=0 n=2 placement=2
xe_rebind first=0 n=2
xe_fault first=0 n=3
xe_gpu_fault first=2 n=1
create n=1 size=4096
xe_destroy first=0 n=3 async=1"
	stop INT
	echo 0 >$trace/events/xe/enable
	out=$S/xe.out x=$(pid_of xeuser1)
	check_eq "$P xe: 1 live of 2 MiB, peak 8 MiB, 4 created, 3 destroyed (by a worker)" \
		"$(mem_row "$out" "$x")" "1 2097152 8388608 4 8388608 3 6291456"
	check_eq "$P xe: -D xe leaves i915's object out" "$(grep -c '^i915 ' "$out")" 0
	check_eq "$P xe: 6 binds (2 rebinds), 3 CPU faults, 1 GPU page fault" \
		"$(act_row "$out" "$x" xe)" "6 0 2 0 0 0 0 3 1 0 0"
	check_eq "$P xe: address space: 6 binds, 3 unbinds, 2 rebinds, 12 MiB bound, 2 evictions" \
		"$(awk 'NF == 9 && $1 == "xe" && $2 ~ /^0x/ { print $3, $4, $5, $6, $7, $8, $9 }' "$out")" \
		"$x xeuser1 6 3 2 12582912 2"
	check "$P xe: evictions line" grep -qx "xe: evictions: 2 bindings evicted (4194304 bytes)" "$out"
	check "$P xe: moves line" grep -qx "xe: 2 buffer moves between placements, 4194304 bytes" "$out"
	check "$P xe: -l: the one BO left, its creator exited" \
		grep -qx "xe PID $x (xeuser1) exited: 1 objects, 2097152 bytes" "$out"
	check_eq "$P xe: -l lists that one BO, 2 MiB (xe's own event does not print its address)" \
		"$(awk '/^    0x/ { print $2, $3 }' "$out")" "2097152 bytes"
	check_eq "$P xe: the kernel's trace buffer has the 4 xe_bo_create events" \
		"$(grep -c 'xe_bo_create: size=2097152' $trace/trace)" 4
	check_eq "$P xe: nothing on stderr" "$(cat "$out.err")" ""

	start "$S/xev.out" -e -D xe
	write_as xeuser2 /proc/gemgen "xe_create n=2 size=65536
xe_bind first=4 n=2 vm=0
xe_move first=4 n=1 placement=4
xe_destroy first=4 n=2"
	stop INT
	out=$S/xev.out
	check_eq "$P xe -e: CREATE BIND MOVE UNBIND DESTROY lines" \
		"$(awk 'NR > 1 { n[$3]++ } END { print n["CREATE"], n["BIND"], n["MOVE"], n["UNBIND"], n["DESTROY"] }' "$out")" \
		"2 2 1 2 2"
	check "$P xe -e: the move's placements" grep -q ' MOVE .* 65536 placement=0x4 from=0x0$' "$out"
	check_eq "$P xe -e: destroyed BOs are the created ones" \
		"$(awk '$3 == "CREATE" { print $6 }' "$out" | sort | tr '\n' ' ')" \
		"$(awk '$3 == "DESTROY" { print $6 }' "$out" | sort | tr '\n' ' ')"
fi

# ---------------------------------------------------------------------------
# 5. The record path (--no-btf; by itself for a module without BTF) next to
#    the BTF path: the same workload, the same rows.
# w5 FIRST VM: objects from FIRST on, address space VM, by gemuserr and gemusers.
w5() {
	write_as gemuserr /proc/gemgen "vm
create n=8 size=65536
bind first=$1 n=8 vm=$2
fault first=$1 n=3 gtt=1 write=1
fault first=$(($1 + 3)) n=1 gtt=0 write=0
pwrite first=$1 n=2 bytes=4096
pread first=$1 n=1 bytes=100
evict vm=$2 bytes=131072
bind first=$1 n=2 vm=$2
evict_node vm=$2 bytes=4096
shrink pages=64
unbind first=$(($1 + 4)) n=2
bind first=$(($1 + 4)) n=1 vm=$2
destroy first=$1 n=5
evict_vm vm=$2"
	write_as gemusers /proc/gemgen "create n=3 size=1048576"
}
# rows5 FILE [anon]: the -j rows, sorted, without what two tracers read off
# their own clocks (ts, ages, lifetime buckets); anon: without pids and
# addresses too (another load of the module, other processes).
rows5() {
	jq -c 'del(.ts, .age_s) | if .hist == "lifetime" then del(.buckets) else . end' "$1" |
		if [ "${2:-}" = anon ]; then jq -c 'del(.pid, .address_space, .object)'; else cat; fi | sort
}
# ev5 FILE: the -e lines but their time, lifetimes as L.
ev5() { awk 'NR > 1 { $1 = ""; print }' "$1" | sed 's/life=[0-9]*/life=L/' | sort; }
# atomics5 SINCE: BPF_FETCH and BPF_CMPXCHG instructions in the record
# programs loaded after program id SINCE (last_prog: the newest now; a
# tracer's programs freed when it exits may linger a while).
last_prog() { bpftool -j prog show | jq '[.[].id] | max // 0'; }
atomics5() {
	local id n=0
	for id in $(bpftool -j prog show | jq --argjson s "$1" '.[] | select(.id > $s and (.name | startswith("tp_i915"))) | .id'); do
		# The raw instructions: bpftool's annotated dump reads the BTF, 3 to
		# 4 s a program under TCG. An atomic store of a word or a double word
		# (code c3, db) whose imm has BPF_FETCH (bit 0), an exchange (e1) aside.
		bpftool prog dump xlated id "$id" file "$S/xlated.bin"
		n=$((n + $(od -An -v -tx1 -w8 "$S/xlated.bin" |
			awk '($1 == "c3" || $1 == "db") && $5 != "e1" && index("13579bdf", substr($5, 2)) { c++ }
			     END { print c + 0 }')))
	done
	echo $n
}
pretend=atomic_fetch,attach_cookie
if [ "$rec" = 0 ]; then
	o=$(gem_next created) v=$(gem_next vms)
	start "$S/r-btf.json" -j -l || exit 1; p1=$tool_pid
	start "$S/r-rec.json" -j -l --no-btf || exit 1; p2=$tool_pid
	GPU_BPF_PRETEND_MISSING=$pretend start "$S/r-old.json" -j -l --no-btf || exit 1; p3=$tool_pid
	start "$S/r-btf.ev" -e || exit 1; p4=$tool_pid
	start "$S/r-rec.ev" -e --no-btf || exit 1
	w5 "$o" "$v"
	stop INT
	for p in $p1 $p2 $p3 $p4; do kill -INT $p; wait $p; done
	check_eq "$P --no-btf: 3 processes' memory rows, as the workload made them" \
		"$(jrows "$S/r-rec.json" memory 'select(.comm | startswith("gemuser")) | "\(.comm) \(.live) \(.live_bytes) \(.peak_bytes) \(.created) \(.destroyed)"' | sort)" \
		"gemuserr 3 196608 524288 8 5
gemusers 3 3145728 3145728 3 0"
	check_eq "$P --no-btf: gemuserr's activity (11 binds, 3 rebinds, 11 unbinds: eviction, by hand, destroy, evict_vm)" \
		"$(jrows "$S/r-rec.json" activity 'select(.comm == "gemuserr") | "\(.binds) \(.unbinds) \(.rebinds) \(.gtt_wr_faults) \(.cpu_rd_faults) \(.pread_bytes) \(.pwrite_bytes)"')" \
		"11 11 3 3 1 100 8192"
	check_eq "$P --no-btf: the same rows as the BTF path, exactly" "$(rows5 "$S/r-rec.json")" "$(rows5 "$S/r-btf.json")"
	check_eq "$P --no-btf, atomics pretended missing ($pretend): the same rows" \
		"$(rows5 "$S/r-old.json")" "$(rows5 "$S/r-btf.json")"
	check_eq "$P --no-btf -e: the same events as the BTF path's -e" "$(ev5 "$S/r-rec.ev")" "$(ev5 "$S/r-btf.ev")"
	check_eq "$P --no-btf -e: the workload's 50 events" "$(ev5 "$S/r-rec.ev" | grep -c gemuser)" 50
	check_eq "$P --no-btf: stderr says the path, what is '-', and the banner" \
		"$(cat "$S/r-rec.json.err")" \
		"$([ -e $trace/events/xe ] && echo "i915mem: xe not traced: without its BTF (its trace records do not name the buffer objects)"
		rec_lines "--no-btf"; echo "Tracing Intel GPU memory (i915), counting from now... Hit Ctrl-C to end.")"
	check "$P the BTF path says nothing of records (-v does)" test ! -s "$S/r-btf.ev.err"
	timeout 60 "$T" -v 1 1 >"$S/v.out" 2>"$S/v.err"
	check "$P -v: the BTF path named" grep -qx "i915mem: reading the structs of gemgen (module BTF)" "$S/v.err"
	# The programs loaded where the kernel has atomics, and where it is said not to.
	since=$(last_prog)
	start "$S/a-new.out" --no-btf || exit 1
	check_ge "$P --no-btf: its programs hold the peak's compare-and-swap here" "$(atomics5 "$since")" 1
	stop INT
fi
since=$(last_prog)
GPU_BPF_PRETEND_MISSING=$pretend start "$S/a-old.out" --no-btf || exit 1
check_eq "$P --no-btf, $pretend missing: no BPF_FETCH or BPF_CMPXCHG in its programs" "$(atomics5 "$since")" 0
write_as gemuseru /proc/gemgen "create n=4 size=4096"
stop INT
check_eq "$P --no-btf, $pretend missing: exact counts, peak too" \
	"$(mem_row "$S/a-old.out" "$(pid_of gemuseru)")" "4 16384 16384 4 16384 0 0"

# 5a. --prometheus, read back through the real node_exporter and Prometheus:
#     live bytes per comm (two processes of one name, an interval apart, one
#     row: labels are never pids), objects created per comm, binds.
if prom_start; then
	o=$(gem_next created) v=$(gem_next vms)
	start "$S/prom.out" --prometheus "$PROM_FILES/i915mem.prom" 1
	write_as gemprom /proc/gemgen "create n=4 size=65536"
	sleep 1.5
	write_as gemprom /proc/gemgen "create n=2 size=1048576
vm
bind first=$o n=6 vm=$v
unbind first=$o n=2"
	# Another process's binds count in its own row.
	write_as gemprom2 /proc/gemgen "bind first=$o n=1 vm=$v"
	stop INT
	check_prom "$P --prometheus: gemprom's live objects and bytes, created, one row, no pid" \
		'{__name__=~"gpubpf_i915mem_(live_objects|live_bytes|objects_created_total|objects_created_bytes_total)", comm="gemprom"}' \
		"__name__ driver pid" \
		"gpubpf_i915mem_live_bytes i915 - 2359296;gpubpf_i915mem_live_objects i915 - 6;gpubpf_i915mem_objects_created_bytes_total i915 - 2359296;gpubpf_i915mem_objects_created_total i915 - 6"
	check_prom "$P --prometheus: i915's CREATE events" \
		'gpubpf_i915mem_driver_events_total{event="CREATE"}' driver "i915 6"
	check_prom "$P --prometheus: i915's BIND and UNBIND events, its processes' rows summed" \
		'gpubpf_i915mem_driver_events_total{driver="i915", event=~"BIND|UNBIND"}' event \
		"BIND 7;UNBIND 2"
	check_prom "$P --prometheus: nothing lost" 'sum(gpubpf_i915mem_events_lost_total)' "" 0
	check_prom "$P --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" 0
	check "$P --prometheus: promtool check metrics is clean" \
		sh -c "promtool check metrics <'$PROM_FILES/i915mem.prom'"
	prom_stop
fi

# 5b. DKMS-like: gemgen (playing i915) without its .BTF section; the tool
#     must take the record path by itself, say so, and count the same rows.
if [ "$rec" = 0 ]; then
	rmmod gemgen
	objcopy --remove-section=.BTF "$GEMGEN_KO" "$S/gemgen-nobtf.ko"
	if load_module "$S/gemgen-nobtf.ko"; then
		check "$P stripped gemgen: no /sys/kernel/btf/gemgen" test ! -e /sys/kernel/btf/gemgen
		start "$S/r-dkms.json" -j -l || exit 1
		w5 0 0
		stop INT
		check_eq "$P stripped gemgen: the record path chosen, said once" \
			"$(grep -c '^i915mem: reading the tracepoint records (module gemgen has no BTF)$' "$S/r-dkms.json.err")" 1
		check_eq "$P stripped gemgen: the BTF path's rows (but pids and addresses)" \
			"$(rows5 "$S/r-dkms.json" anon)" "$(rows5 "$S/r-btf.json" anon)"
	fi
fi
rmmod gemgen

# 5c. The real i915 without its .BTF (as a DKMS backport builds it): the
#     record path by itself, named.
if [ "$rec" = 0 ] && load_module i915 && unload_module i915; then
	ko=$(module_file i915)
	case "$ko" in
	*.xz) xz -dc "$ko" >"$S/i915.ko" ;;
	*.zst) zstd -qdc "$ko" >"$S/i915.ko" ;;
	*) cp "$ko" "$S/i915.ko" ;;
	esac
	objcopy --remove-section=.BTF "$S/i915.ko" "$S/i915-nobtf.ko"
	if load_module "$S/i915-nobtf.ko"; then
		timeout 120 "$T" -D i915 1 1 >"$S/real-dkms.out" 2>"$S/real-dkms.err"
		check_eq "$P stripped i915: attaches, one idle interval, exits 0" "$?" 0
		check "$P stripped i915: says it traces i915" grep -q "^Tracing Intel GPU memory (i915)" "$S/real-dkms.out"
		check_eq "$P stripped i915: the record path, said on stderr" \
			"$(cat "$S/real-dkms.err")" "$(rec_lines "module i915 has no BTF")"
		rmmod i915
	fi
fi
