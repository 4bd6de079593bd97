#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# (Not on trixie's 6.12, between 6.1 and sid: CI's 90 minutes are budgeted
# per kernel, and 6.12 runs the scheduler's, vblank's and the tracepoint
# layouts' scripts; tests/README.md.)
# amdgpucs on a real kernel, run inside the VM by tests/run (one boot per
# kernel). Four proofs:
#  1. Real layouts: with the real amdgpu loaded the tool loads and attaches
#     on both paths, and every member path its BPF reads is, in the real
#     amdgpu's BTF, what it is in the test module's (tests/btf/corepaths on
#     both); the record path finds every field it reads in the real amdgpu's
#     formats.
#  2. Exact numbers on the real scheduler: amdgen (tests/kmod: schedgen
#     playing amdgpu) submits jobs of known shape through the kernel's real
#     DRM scheduler and fires amdgpu's own events; counts, bytes and latency
#     bounds must be the workload's.
#  3. The record path (--no-btf) traces the same workload at once as the
#     BTF path: the same rows, the same -e events; so does the BTF path with
#     5.10's fallbacks (GPU_BPF_PRETEND_MISSING). Then gpu-sched and amdgpu
#     without their .BTF (a DKMS build's): the tool picks the record path
#     by itself and says so, and counts the same.
#  4. Where the kernel has no module BTF (5.10), everything runs on the
#     record path, whose rows lack only the pasid's process.
# What each kernel has is read from it (/sys/kernel/btf), not from its name.
# Interval summaries and --timeline, the frontend's alone, are checked in
# 6.1's guest only (frontend_checks, tests/lib.sh).
#
# Environment (from tests/vm/run and tests/run): VM_KERNEL, VM_SCRATCH
# (writable dir), VM_MODPROBE, VM_MODDIR, AMDGEN_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init amdgpucs

# A submission row: "SUBMITS IBS RUN DONE" of RING and PID, from the text
# (sub_row) or from -j (sub_json).
sub_row() { awk -v r="$2" -v p="$3" 'NF == 9 && $1 == r && $2 == p { print $4, $5, $6, $7 }' "$1"; }
sub_json() {
	jrows "$1" submission "select(.ring == \"$2\" and .pid == $3) | \"\(.submits) \(.ibs) \(.run) \(.done)\""
}
# "count avg min max" of RING's histogram KIND ("submit_to_run" or "run_to_done") in -j output.
ring_hist() { jhist_stats "$1" ".type == \"ring_hist\" and .ring == \"$2\" and .hist == \"$3\""; }
# norm FILE: the -j summary rows two tracers of one workload share: no
# times, latencies or rates; interrupts without the pasid's process (the
# records lack it); histograms by their counts.
norm() {
	jq -c 'with_entries(select(.key | test("^ts$|avg|rate|^min|^max|^buckets$|^sum") | not)) |
		if .type == "interrupt" then del(.pid, .comm) else . end' "$1" | sort
}
# ev_norm FILE: -e -j events without their times and latencies.
ev_norm() {
	jq -c 'select(.type == "event") | with_entries(select(.key | test("^time|^ts$|^wait|^exec") | not))' "$1" | sort
}
# quiet FILE.err: what a tracer said on stderr besides its banner and the
# record path's two lines (checked on their own).
quiet() {
	grep -v -e '^Tracing amdgpu' -e '^amdgpucs: reading the tracepoint records (' \
		-e "^amdgpucs: not in the records, printed as '-': interrupts' PROCESS$" "$1"
}
# rec_lines FILE.err WHY: the record path's two lines, once each, for WHY.
rec_lines() {
	printf '%s|%s' "$(grep -c "^amdgpucs: reading the tracepoint records ($2)$" "$1")" \
		"$(grep -c "^amdgpucs: not in the records, printed as '-': interrupts' PROCESS$" "$1")"
}
# strip_ko MODULE OUT: this kernel's MODULE.ko without its .BTF (a DKMS build's).
strip_ko() {
	local ko
	ko=$(module_file "$1")
	case "$ko" in
	*.xz) xz -dc "$ko" >"$S/$1.ko" ;;
	*.zst) zstd -qdc "$ko" >"$S/$1.ko" ;;
	*) cp "$ko" "$S/$1.ko" ;;
	esac && objcopy --remove-section=.BTF "$S/$1.ko" "$2"
}

# ---------------------------------------------------------------------------
# 1. No driver.
expect_error "$P no amdgpu loaded: names the module" 1 \
	"^amdgpucs: no amdgpu tracepoints: module amdgpu is not loaded: 'modprobe amdgpu'" "$T"

# ---------------------------------------------------------------------------
# 2. The real amdgpu.
load_module amdgpu
# The BTF path needs both modules' BTF (5.10 has none: only the record path runs).
btf=1
[ -e /sys/kernel/btf/amdgpu ] && [ -e /sys/kernel/btf/gpu_sched ] || btf=0
[ "$btf" = 0 ] && echo "note: $K: amdgpu has no BTF: only the record path runs"
timeout 120 "$T" 1 1 >"$S/real.out" 2>"$S/real.err"
check_eq "$P real amdgpu: attaches, one idle interval, exits 0" "$?" 0
check "$P real amdgpu: no submissions" grep -qx "no submissions" "$S/real.out"
if [ "$btf" = 1 ]; then
	check_eq "$P real amdgpu: nothing on stderr" "$(cat "$S/real.err")" ""
	corepaths_in "$O" amdgpu >"$S/real.paths"
	check_eq "$P real amdgpu: the member paths the BPF reads of amdgpu's types, all there" \
		"$(grep -c '^struct amdgpu_' "$S/real.paths") $(grep -c ': missing' "$S/real.paths")" "18 0"
	# gpuhang's GPU reset and VM fault hooks read amdgpu's types too: the
	# paths, and the BTF for amdgen's prototypes below (the context's
	# cause: 6.12+).
	corepaths_in build/gpuhang.bpf.o amdgpu | grep '^struct amdgpu_' >"$S/gh-real.paths"
	cp /sys/kernel/btf/amdgpu "$S/amdgpu-real.btf"
	if [ "$K" = 6.1 ]; then gh_missing=1; else gh_missing=0; fi
	check_eq "$P real amdgpu: gpuhang's member paths of amdgpu's types (a reset's cause from 6.12)" \
		"$(wc -l <"$S/gh-real.paths") $(grep -c '^struct amdgpu_reset_context.src: missing' "$S/gh-real.paths")" "4 $gh_missing"
	timeout 120 "$T" --no-btf 1 1 >"$S/real-rec.out" 2>"$S/real-rec.err"
	check_eq "$P real amdgpu --no-btf: every field it reads in the real formats, one idle interval, exits 0" \
		"$? $(grep -cx "no submissions" "$S/real-rec.out")" "0 1"
	check_eq "$P real amdgpu --no-btf: says the path, and what is '-', once, and nothing else" \
		"$(rec_lines "$S/real-rec.err" --no-btf) $(wc -l <"$S/real-rec.err")" "1|1 2"
else
	check_eq "$P real amdgpu without BTF: the record path, said once, and what is '-', nothing else" \
		"$(rec_lines "$S/real.err" "module amdgpu has no BTF") $(wc -l <"$S/real.err")" "1|1 2"
fi
unload_module amdgpu

# ---------------------------------------------------------------------------
# 3. amdgen plays amdgpu on the real scheduler.
load_module "${AMDGEN_KO:?}" rings=gfx,sdma || exit 1
if [ "$btf" = 1 ]; then
	corepaths_in "$O" amdgen >"$S/mock.paths"
	check_eq "$P amdgen mirrors the real amdgpu: the same member paths, of the same types" \
		"$(grep '^struct amdgpu_' "$S/real.paths" | comm -23 - "$S/mock.paths")" ""
	check_eq "$P amdgen mirrors the real amdgpu for gpuhang: its member paths, of the same types" \
		"$(corepaths_in build/gpuhang.bpf.o amdgen | grep '^struct amdgpu_' | diff "$S/gh-real.paths" -)" ""
	# (amdgpu_vm_update_fault_cache(): 6.12+, as amdgen has it)
	fns="amdgpu_device_gpu_recover amdgpu_vm_get_task_info_pasid"
	[ "$K" = 6.1 ] || fns="$fns amdgpu_vm_update_fault_cache"
	MIRROR_FNS=$fns MIRROR_STRUCTS="" bash tests/kmod/kfdmock-check.sh --compare \
		/sys/kernel/btf/vmlinux "$S/amdgpu-real.btf" /sys/kernel/btf/amdgen >"$S/gh-mirror.out" 2>&1
	check_eq "$P amdgen: gpuhang's functions' prototypes the real amdgpu's (BTF, this boot)" \
		"$? $(grep -c '^same ' "$S/gh-mirror.out") $(grep -vc '^same ' "$S/gh-mirror.out")" "0 $(echo $fns | wc -w) 0"
	check_eq "$P amdgen: amdgpu_device_gpu_recover's prototype" "$(grep -m1 gpu_recover "$S/gh-mirror.out")" \
		"same int amdgpu_device_gpu_recover(struct amdgpu_device *, struct amdgpu_job *, struct amdgpu_reset_context *)"
fi
# What the tool says on its own about its path: nothing on the BTF path;
# else the record path's lines (amdgen plays amdgpu: gpu_sched is the module named).
auto_why="module gpu_sched has no BTF"

# The summary workload, from a process called NAME; FIRST: the number
# amdgen gives the first of its buffers (it numbers them from 0 since loaded).
sum_workload() {
	local f=${2:-0}
	write_as "$1" /proc/amdgen "submit ring=gfx jobs=10 exec_us=2000 ibs=3 pasid=42
submit ring=sdma jobs=4 exec_us=1000
bo n=5 size=1048576 domain=4
bo n=2 size=65536 domain=2
move first=$f n=2 to=2
move first=$f n=1 to=4
iv n=6 client=1 src=2 ring=0 vmid=3 pasid=42
vm_flush ring=gfx n=3
map n=3 size=65536
unmap n=1 size=65536
update n=5
bo_list first=$f n=4
wait"
}

# The summary of a known workload: its numbers read from -j; the text,
# traced at once, says the same.
pair_start "$S/sum"
sum_workload amduser1
pair_stop INT
j=$S/sum.json t=$S/sum.txt u=$(pid_of amduser1) u1=$(pid_of amduser1)
check_eq "$P summary: exit status 0 (text, -j)" "$txt_status $json_status" "0 0"
check_eq "$P gfx: 10 submitted with 3 IBs each, 10 run, 10 done" "$(sub_json "$j" gfx "$u")" "10 30 10 10"
check_eq "$P sdma: 4 submitted, run, done" "$(sub_json "$j" sdma "$u")" "4 4 4 4"
check_eq "$P summary: the text's submission rows say what -j does" \
	"$(sub_row "$t" gfx "$u") / $(sub_row "$t" sdma "$u")" "$(sub_json "$j" gfx "$u") / $(sub_json "$j" sdma "$u")"
read -r n avg min max <<<"$(ring_hist "$j" gfx run_to_done)"
check_eq "$P gfx run -> done: 10 jobs" "$n" 10
check_ge "$P gfx run -> done: min >= exec_us 2000" "$min" 2000
read -r n avg min max <<<"$(ring_hist "$j" gfx submit_to_run)"
check_eq "$P gfx submit -> run: 10 jobs" "$n" 10
check_ge "$P gfx submit -> run: one ring slot, the 10th waits >= 9 x 2000 us" "$max" 18000
# (Latencies differ by the two tracers' own timing: each reads the clock itself.)
check_eq "$P summary: the text's gfx histograms count the jobs -j's do" \
	"$(hist_stats "$t" "gfx submit -> run:" | cut -d' ' -f1) $(hist_stats "$t" "gfx run -> done:" | cut -d' ' -f1)" \
	"$(ring_hist "$j" gfx submit_to_run | cut -d' ' -f1) $(ring_hist "$j" gfx run_to_done | cut -d' ' -f1)"
check_eq "$P VM flushes on gfx: 3" "$(jrows "$j" vm_flush 'select(.ring == "gfx") | .vm_flushes')" 3
check_eq "$P VM flushes: the text says 3" "$(awk 'NF == 2 && $1 == "gfx" { print $2 }' "$t")" 3
check_eq "$P buffers: 5 of 1 MiB in VRAM, 2 evicted" \
	"$(jrows "$j" buffer "select(.pid == $u and .domain == \"VRAM\") | \"\(.allowed) \(.created) \(.bytes) \(.evicted) \(.evicted_bytes)\"")" \
	"VRAM 5 5242880 2 2097152"
check_eq "$P buffers: 2 of 64 KiB in GTT" \
	"$(jrows "$j" buffer "select(.pid == $u and .domain == \"GTT\") | \"\(.created) \(.bytes) \(.evicted)\"")" "2 131072 0"
check_eq "$P buffers: the text's rows say what -j does" \
	"$(awk -v p="$u" 'NF == 10 && $1 == p && $3 ~ /^[A-Z]/ { print $3, $4, $5, $6, $7, $8 }' "$t")" \
	"$(jrows "$j" buffer "select(.pid == $u) | \"\(.domain) \(.allowed) \(.created) \(.bytes) \(.evicted) \(.evicted_bytes)\"")"
check_eq "$P moves: VRAM -> GTT twice (evictions), GTT -> VRAM once" \
	"$(jrows "$j" move '"\(.from) \(.to) \(.moves) \(.bytes) \(if .eviction then "eviction" else "" end)"' | tr '\n' '|')" \
	"GTT VRAM 1 1048576 |VRAM GTT 2 2097152 eviction|"
check_eq "$P moves: the text's rows say the same" \
	"$(awk '$1 ~ /^(VRAM|GTT)$/ && $2 ~ /^(VRAM|GTT)$/ { print $1, $2, $3, $4, $6 }' "$t" | tr '\n' '|')" \
	"GTT VRAM 1 1048576 |VRAM GTT 2 2097152 eviction|"
# The pasid's process: from the CS ioctl's job on the BTF path; the records have no pasid there.
iv_row() { jrows "$1" interrupt 'select(.client == 1 and .src == 2) | "\(.ring_id) \(.vmid) \(.pasid) \(.count) \(.pid) \(.comm)"'; }
iv_text() { awk 'NF >= 8 && $1 == 1 && $2 == 2 { print $3, $4, $5, $6, $8, $9 }' "$1"; }
if [ "$btf" = 1 ]; then
	check_eq "$P interrupts: 6 from client 1 src 2, pasid 42 named by its submitter" \
		"$(iv_row "$j")" "0 3 42 6 $u (exited)"
	check_eq "$P interrupts: the text's row says the same" "$(iv_text "$t")" "0 3 42 6 $u (exited)"
else
	check_eq "$P interrupts: 6 from client 1 src 2, pasid 42, its process unknown (null)" \
		"$(iv_row "$j")" "0 3 42 6 null null"
	check_eq "$P interrupts: the text's row says the same ('-')" "$(iv_text "$t")" "0 3 42 6 - "
fi
check_eq "$P GPU VM: 3 mappings of 64 KiB, 1 unmapped, 5 page-table updates, a BO list of 4 buffers (4 MiB)" \
	"$(jrows "$j" vm "select(.pid == $u) | \"\(.maps) \(.mapped_bytes) \(.unmaps) \(.unmapped_bytes) \(.pt_updates) \(.bo_lists) \(.listed_bos) \(.listed_bytes)\"")" \
	"3 196608 1 65536 5 1 4 4194304"
check_eq "$P GPU VM: the text's row says the same" \
	"$(awk -v p="$u" 'NF == 10 && $1 == p && $3 ~ /^[0-9]+$/ { print $3, $4, $5, $6, $7, $8, $9, $10 }' "$t")" \
	"3 196608 1 65536 5 1 4 4194304"
check_eq "$P summary: nothing on stderr (text; -j: the banner alone)" \
	"$(quiet "$t.err")|$(quiet "$j.err")" "|"
if [ "$btf" = 1 ]; then
	check_eq "$P summary: the BTF path says nothing of records" \
		"$(grep -c '^amdgpucs: .*records' "$t.err" "$j.err" | cut -d: -f2 | tr '\n' ' ')" "0 0 "
else
	check_eq "$P summary: the record path chosen by itself, said once, and what is '-' (text, -j)" \
		"$(rec_lines "$t.err" "$auto_why") $(rec_lines "$j.err" "$auto_why")" "1|1 1|1"
fi

# -e: one line per event; the fences are the kernel's.
# With module BTF, the BTF path and the record path trace it at once too (-e -j).
echo >$trace/trace
echo 1 >$trace/events/amdgpu/enable
if [ "$btf" = 1 ]; then
	start "$S/ev-btf.json" -e -j || exit 1
	ev_btf=$tool_pid
	start "$S/ev-rec.json" --no-btf -e -j || exit 1
	ev_rec=$tool_pid
fi
start "$S/ev.out" -e
write_as amduser2 /proc/amdgen "submit ring=gfx jobs=3 exec_us=1000 ibs=2
bo n=1 size=4096 domain=4
move first=7 n=1 to=2
iv n=1 client=2 src=7 ring=1 vmid=2 pasid=9
vm_flush ring=gfx n=1
map n=1 size=8192
unmap n=1 size=8192
wait"
stop INT
if [ "$btf" = 1 ]; then
	tool_pid=$ev_rec; stop INT
	tool_pid=$ev_btf; stop INT
	check_eq "$P --no-btf -e at once: the same events, fields and all (times and latencies aside)" \
		"$(ev_norm "$S/ev-rec.json")" "$(ev_norm "$S/ev-btf.json")"
	check_eq "$P --no-btf -e: 3 SUBMIT RUN DONE, BO_CREATE BO_MOVE IV VM_FLUSH VM_MAP VM_UNMAP" \
		"$(jq -r 'select(.type == "event") | .event' "$S/ev-rec.json" | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }')" \
		"BO_CREATE 1 BO_MOVE 1 DONE 3 IV 1 RUN 3 SUBMIT 3 VM_FLUSH 1 VM_MAP 1 VM_UNMAP 1 "
fi
echo 0 >$trace/events/amdgpu/enable
out=$S/ev.out
check_eq "$P -e: SUBMIT RUN DONE BO_CREATE BO_MOVE IV VM_FLUSH lines" \
	"$(awk 'NR > 1 { n[$2]++ } END { print n["SUBMIT"], n["RUN"], n["DONE"], n["BO_CREATE"], n["BO_MOVE"], n["IV"], n["VM_FLUSH"] }' "$out")" \
	"3 3 3 1 1 1 1"
check_eq "$P -e: the submitted fences are the kernel's (amdgpu_cs_ioctl context:seqno)" \
	"$(awk '$2 == "SUBMIT" { sub(/fence=/, "", $6); print $6 }' "$out" | tr '\n' ' ')" \
	"$(grep 'amdgpu_cs_ioctl:' $trace/trace | sed 's/.*context=\([0-9]*\), seqno=\([0-9]*\).*/\1:\2/' | tr '\n' ' ')"
check_eq "$P -e: every DONE took >= 1000 us" "$(awk '$2 == "DONE" { sub(/.*exec=/, ""); if ($0 + 0 >= 1000) n++ } END { print n }' "$out")" 3
check "$P -e: the move is an eviction" grep -q ' BO_MOVE .* bytes=4096 from=VRAM to=GTT eviction$' "$out"
check_eq "$P -e: nothing on stderr" "$(quiet "$out.err")" ""

# Filters.
start "$S/ring.json" -r sdma -j
write_as amduser3 /proc/amdgen "submit ring=gfx jobs=2 exec_us=100
submit ring=sdma jobs=3 exec_us=100
wait"
stop INT
check_eq "$P -r sdma: sdma's 3 only" \
	"$(jrows "$S/ring.json" submission '"\(.ring) \(.submits)"' | tr '\n' ' ')" "sdma 3 "
start "$S/comm.json" -c amduser5 -j
write_as amduser4 /proc/amdgen "submit ring=gfx jobs=2 exec_us=100
bo n=1 size=4096 domain=4"
write_as amduser5 /proc/amdgen "submit ring=gfx jobs=1 exec_us=100
wait"
stop INT
check_eq "$P -c amduser5: its submission only, no buffers" \
	"$(jrows "$S/comm.json" submission '"\(.comm) \(.submits)"') $(jrows "$S/comm.json" buffer .pid | wc -l)" \
	"amduser5 1 0"
expect_error "$P -r with a name too long" 64 "invalid RING '0123456789abcdefg'" "$T" -r 0123456789abcdefg

# interval count: each summary has its interval's submissions. (The second
# batch waits for the first summary rather than a fixed time: VMs share the
# machine's cores; 3 s leave a loaded one room for each step.)
if frontend_checks "interval count, interval totals over a burst"; then
	: >"$S/int.out"
	timeout 60 "$T" 3 2 >"$S/int.out" 2>&1 &
	int_pid=$!
	wait_for_output "$S/int.out" "$int_pid"
	cp /bin/dash "$S/amduser6"
	"$S/amduser6" -c 'printf "submit ring=gfx jobs=4 exec_us=100\nwait\n" >/proc/amdgen
	while [ ! -e "$1" ]; do sleep 0.1; done; printf "submit ring=gfx jobs=1 exec_us=100\nwait\n" >/proc/amdgen' sh "$S/go6" &
	a6=$!
	for i in $(seq 1 100); do
		grep -q '^RING \|^no submissions' "$S/int.out" && break
		sleep 0.1
	done
	touch "$S/go6"
	wait "$a6"
	wait "$int_pid"
	check_eq "$P interval 3 count 2: exits 0 by itself" "$?" 0
	check_eq "$P interval: 4 submissions, then 1" \
		"$(awk -v p="$a6" 'NF == 9 && $2 == p { print $4 }' "$S/int.out" | tr '\n' ' ')" "4 1 "
	# Interval totals are exact: a burst on both rings, submitted in 20 rounds
	# 0.2 s apart and run one job at a time for seconds, spans several 1-s
	# interval switches; summed over the interval summaries (-j), each ring's
	# submissions, IBs, runs, dones and timed jobs are the burst's, none lost or
	# counted twice.
	BURST_GFX=1200 BURST_SDMA=800
	start "$S/burst-int.json" -j 1
	cp /bin/dash "$S/amdburst"
	"$S/amdburst" -c 'i=0; while [ $i -lt 20 ]; do
	printf "submit ring=gfx jobs=60 exec_us=2000 ibs=2\nsubmit ring=sdma jobs=40 exec_us=2000\n" >/proc/amdgen
	sleep 0.2; i=$((i + 1)); done; echo wait >/proc/amdgen'
	sleep 1.5    # the last interval ends
	stop INT
	j=$S/burst-int.json
	check_eq "$P burst of $BURST_GFX + $BURST_SDMA, 1 s intervals: submissions, IBs, runs, dones per ring summed over intervals" \
		"$(jq -rs 'map(select(.type == "submission")) | group_by(.ring)[] |
		"\(.[0].ring) \(map(.submits) | add) \(map(.ibs) | add) \(map(.run) | add) \(map(.done) | add)"' "$j")" \
		"gfx $BURST_GFX $((2 * BURST_GFX)) $BURST_GFX $BURST_GFX
sdma $BURST_SDMA $BURST_SDMA $BURST_SDMA $BURST_SDMA"
	check_eq "$P burst, 1 s intervals: every job in the run -> done histograms, summed over intervals" \
		"$(jq -rs 'map(select(.type == "ring_hist" and .hist == "run_to_done")) | group_by(.ring)[] |
		"\(.[0].ring) \(map(.count) | add)"' "$j" | tr '\n' ' ')" "gfx $BURST_GFX sdma $BURST_SDMA "
	check_ge "$P burst, 1 s intervals: spread over several summaries" "$(jq -r '.ts' "$j" | sort -u | wc -l)" 3
	check_ge "$P burst, 1 s intervals: the submissions themselves in more than one" \
		"$(jrows "$j" submission 'select(.ring == "gfx" and .submits > 0) | .ts' | sort -u | wc -l)" 2
	check_eq "$P burst, 1 s intervals: nothing lost (no lost object, stderr the banner alone)" \
		"$(jrows "$j" lost .what)|$(quiet "$j.err")" "|"
fi

# -j: the same workload traced as text and as JSON lines at once.
pair_start "$S/pair"
# amdgen numbers buffers from 0 since it was loaded: 0-8 were made above, these are 9-11.
write_as amduser7 /proc/amdgen "submit ring=gfx jobs=4 exec_us=500 ibs=2 pasid=43
bo n=3 size=65536 domain=4
move first=9 n=1 to=2
iv n=2 client=1 src=5 ring=0 vmid=1 pasid=43
vm_flush ring=gfx n=2
map n=2 size=4096
bo_list first=9 n=2
wait"
pair_stop INT
j=$S/pair.json u=$(pid_of amduser7)
check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
check "$P -j: the banner goes to stderr" grep -q "^Tracing amdgpu" "$j.err"
check_eq "$P -j: submission row equals the text's" \
	"$(jq -r --argjson p "$u" 'select(.type == "submission" and .pid == $p) |
		"\(.submits) \(.ibs) \(.run) \(.done)"' "$j")" "$(sub_row "$S/pair.txt" gfx "$u")"
check_eq "$P -j: gfx run -> done histogram counts 4, its buckets too" \
	"$(jq -r 'select(.type == "ring_hist" and .ring == "gfx" and .hist == "run_to_done") |
		"\(.count) \([.buckets[].count] | add) \(.min >= 500)"' "$j")" "4 4 true"
check_eq "$P -j: buffer row: VRAM, 3 created, bytes, 1 evicted" \
	"$(jq -r --argjson p "$u" 'select(.type == "buffer" and .pid == $p) |
		"\(.domain) \(.created) \(.bytes) \(.evicted) \(.evicted_bytes)"' "$j")" "VRAM 3 196608 1 65536"
check_eq "$P -j: the move is an eviction" \
	"$(jq -r 'select(.type == "move") | "\(.from) \(.to) \(.moves) \(.bytes) \(.eviction)"' "$j")" \
	"VRAM GTT 1 65536 true"
check_eq "$P -j: vm row: 2 maps of 4 KiB, a BO list of 2" \
	"$(jq -r --argjson p "$u" 'select(.type == "vm" and .pid == $p) |
		"\(.maps) \(.mapped_bytes) \(.bo_lists) \(.listed_bos) \(.listed_bytes)"' "$j")" "2 8192 1 2 131072"
check_eq "$P -j: interrupts: 2 of src 5, pasid 43 named by its submitter (the records: unknown)" \
	"$(jq -r 'select(.type == "interrupt" and .src == 5) | "\(.count) \(.pasid) \(.pid)"' "$j")" \
	"2 43 $([ "$btf" = 1 ] && echo "$u" || echo null)"
check_eq "$P -j: 2 VM flushes on gfx" "$(jq -r 'select(.type == "vm_flush") | "\(.ring) \(.vm_flushes)"' "$j")" "gfx 2"

pair_start "$S/pair-e" -e
write_as amduser8 /proc/amdgen "submit ring=sdma jobs=2 exec_us=100
bo n=1 size=8192 domain=2
wait"
pair_stop INT
j=$S/pair-e.json
check_eq "$P -e -j: every line a JSON object" "$(json_lines "$j")" ok
check_eq "$P -e -j: the same events as the text, fences included" \
	"$(jq -r 'select(.type == "event") | "\(.event) \(.context // "-"):\(.seqno // "-")"' "$j" | sort)" \
	"$(awk 'NR > 1 { f = "-:-"; if (match($6, /^fence=/)) f = substr($6, 7); print $2, f }' "$S/pair-e.txt" | sort)"
check_eq "$P -e -j: BO_CREATE fields" \
	"$(jq -r 'select(.event == "BO_CREATE") | "\(.bytes) \(.domain) \(has("context"))"' "$j")" "8192 GTT false"

# --pod and --container: submitters in two containers' cgroups (cg_names),
# traced unfiltered and filtered.
cg=/sys/fs/cgroup/amdgpucs-test
cgroup_tracers_start "$cg"
cp /bin/dash "$S/amdcgA"; cp /bin/dash "$S/amdcgB"
in_cgroup "$cg_A" "$S/amdcgA" -c 'printf "%s\n" "$1" >/proc/amdgen' sh "submit ring=gfx jobs=3 exec_us=100
bo n=2 size=4096 domain=4
wait"
in_cgroup "$cg_B" "$S/amdcgB" -c 'printf "%s\n" "$1" >/proc/amdgen' sh "submit ring=gfx jobs=5 exec_us=100
wait"
cgroup_tracers_stop
check_eq "$P --cgroup: unfiltered sees both: 3 and 5 submissions" \
	"$(awk 'NF == 9 && $3 ~ /^amdcg/ { print $3, $4 }' "$S/cg-all.out" | sort | tr '\n' ' ')" "amdcgA 3 amdcgB 5 "
check_eq "$P --pod -C: its 3 submissions, named by container, pod and cgroup" \
	"$(awk 'NF == 12 && $3 ~ /^amdcg/ { print $3, $4, $10, $11, $12 }' "$S/cg-A.out")" "amdcgA 3 $cg_A_text"
check_eq "$P --pod -C: its 2 buffers" \
	"$(awk 'NF == 13 && $2 == "amdcgA" && $3 == "VRAM" { print $5, $11, $12, $13 }' "$S/cg-A.out")" "2 $cg_A_text"
cg_prom_check "$P" amdcgA 'gpubpf_amdgpucs_submissions_total{ring="gfx",comm="amdcgA"' 3
check_eq "$P --container -j -C: its 5 submissions, no buffers" \
	"$(jq -r "select(.type == \"submission\") | \"\(.comm) \(.submits) $CG_JQ\"" "$S/cg-B.out")
$(jq -r 'select(.type == "buffer")' "$S/cg-B.out" | wc -l)" "amdcgB 5 $cg_B_json
0"

# 3v. CPU-visible VRAM and placements (the seed's `visible`): 3 buffers of
#     64 KiB created in VRAM with CPU access required, 2 of 128 KiB in VRAM
#     without, and 4 of 4 KiB that preferred VRAM but were placed in GTT.
#     All prefer VRAM: one row, 9 created, 196608 bytes CPU-visible, 4
#     misplaced; the text, -j and the record path (traced at once) agree.
start "$S/vis.txt"; vis_txt=$tool_pid
start "$S/vis-rec.json" -j --no-btf; vis_rec=$tool_pid
start "$S/vis.json" -j
write_as amdvis /proc/amdgen "bo n=3 size=65536 domain=4 flags=1
bo n=2 size=131072 domain=4
bo n=4 size=4096 domain=2 prefer=4"
for tool_pid in $vis_txt $vis_rec $tool_pid; do stop INT; done
vis_row() { jrows "$1" buffer 'select(.comm == "amdvis") | "\(.domain) \(.allowed) \(.created) \(.bytes) \(.visible_bytes) \(.misplaced)"'; }
check_eq "$P visible VRAM: one row (preferred VRAM): 9 created, 196608 bytes CPU-visible, 4 misplaced" \
	"$(vis_row "$S/vis.json")" "VRAM GTT|VRAM 9 475136 196608 4"
check_eq "$P visible VRAM: the record path reads the same (type and visible of the records)" \
	"$(vis_row "$S/vis-rec.json")" "$(vis_row "$S/vis.json")"
check_eq "$P visible VRAM: the text's row" \
	"$(awk 'NF == 10 && $2 == "amdvis" { print $3, $4, $5, $6, $9, $10 }' "$S/vis.txt")" "VRAM GTT|VRAM 9 475136 196608 4"

# 3z. A hostile process name (issue 23, tests/lib.sh's HOSTILE): traced as
#     -e text and -e -j at once, and as a summary. The text keeps one line
#     per event (as many as -j's), the name one column, escaped, and no
#     control byte; -j keeps the name exactly.
start "$S/hn.ev" -e; hn_ev=$tool_pid
start "$S/hn.evj" -e -j; hn_evj=$tool_pid
start "$S/hn.sum"
write_as "$HOSTILE" /proc/amdgen "submit ring=gfx jobs=3 exec_us=1000 ibs=1
bo n=2 size=65536 domain=4
wait"
for tool_pid in $hn_ev $hn_evj $tool_pid; do stop INT; done
check_eq "$P hostile name -e: 3 SUBMIT, RUN and DONE and 2 BO_CREATE lines, the name escaped in COMM" \
	"$(awk '$2 ~ /^[A-Z_]+$/ && $2 != "EVENT" && $4 ~ /^[0-9]+$/ { print $2, $5 }' "$S/hn.ev" | sort | uniq -c | sed 's/^ *//' | paste -sd,)" \
	"2 BO_CREATE $HOSTILE_TEXT,3 DONE $HOSTILE_TEXT,3 RUN $HOSTILE_TEXT,3 SUBMIT $HOSTILE_TEXT"
check_eq "$P hostile name -e: one text line per -j event, and the header" \
	"$(wc -l <"$S/hn.ev")" "$(($(jrows "$S/hn.evj" event .event | wc -l) + 1))"
check_no_control "$P hostile name: no control byte in the text outputs" "$S/hn.ev" "$S/hn.sum"
check_eq "$P hostile name summary: the submission and buffer rows, the name one column" \
	"$(awk 'NF == 9 && $1 == "gfx" { print $3, $4 } NF == 10 && $3 == "VRAM" { print $2, $5 }' "$S/hn.sum" | paste -sd,)" \
	"$HOSTILE_TEXT 3,$HOSTILE_TEXT 2"
check_hostile_json "$P hostile name -j: the name exact, the bad byte U+FFFD" \
	"$(jrows "$S/hn.evj" event 'select(.event == "SUBMIT") | .comm' | sort -u)"

# 3t. --timeline: the jobs of two processes on two rings, as -e's (traced at
#     once), as slices a timeline viewer reads: one per job on its ring's
#     track, named by the submitting process, lasting its execution, its IB
#     count an argument; never overlapping on a track; a flow from each
#     submission to its job; the rings' queued counters end at 0.
if frontend_checks "--timeline"; then
	expect_error "$P --timeline: a directory that is not there" 1 \
		"^amdgpucs: --timeline /nonexistent/t.json: No such file or directory$" \
		"$T" --timeline /nonexistent/t.json
	start "$S/tl.ev" -e; tl_ev=$tool_pid
	start "$S/tl.out" --timeline "$S/tl.json"
	write_as tlgfx /proc/amdgen "submit ring=gfx jobs=6 exec_us=2000 ibs=2
wait"
	write_as tlsdma /proc/amdgen "submit ring=sdma jobs=4 exec_us=1000 ibs=1
wait"
	for tool_pid in $tl_ev $tool_pid; do stop INT; done
	tl=$S/tl.json
	check_eq "$P --timeline: the file is JSON (an array of events)" "$(jq -r 'type' "$tl" 2>&1)" array
	check_eq "$P --timeline: job slices per ring track and name, with their IBs" \
		"$(tl_job_tracks "$tl" ' ibs=\(.args.ibs)')" "6 gfx tlgfx ibs=2,4 sdma tlsdma ibs=1"
	check_eq "$P --timeline: the jobs are -e's (their fences)" \
		"$(jq -r '.[] | select(.ph == "X" and .cat == "job") | .args.job' "$tl" | sort | paste -sd' ')" \
		"$(awk '$2 == "DONE" { sub(/^fence=/, "", $6); print $6 }' "$S/tl.ev" | sort | paste -sd' ')"
	check_eq "$P --timeline: each slice lasts its job's execution (>= exec_us), its args say so" \
		"$(jq -r '.[] | select(.ph == "X" and .cat == "job") | select(.dur < (if .name == "tlgfx" then 2000 else 1000 end) or .dur != .args.exec_us) | .args.job' "$tl")" ""
	check_eq "$P --timeline: no two slices of a track overlap" "$(tl_overlaps "$tl")" 0
	check_eq "$P --timeline: flows: 10 submissions, each begun and ended" "$(tl_flows "$tl")" "10 10 0"
	check_eq "$P --timeline: the queued counter of each ring ends at 0" "$(tl_counters_end "$tl")" \
		"gfx queued=0 sdma queued=0"
	check_eq "$P --timeline: the GPU's process named" \
		"$(jq -r '.[] | select(.ph == "M" and .name == "process_name" and (.args.name | startswith("GPU"))) | .args.name' "$tl")" "GPU amdgpu"
	check "$P --timeline: the summary still printed" grep -q "^RING  *PID" "$S/tl.out"
fi

# ---------------------------------------------------------------------------
# 4. The record path (--no-btf) and the BTF path on the summary's workload at
# once: the same rows. (Two tracers only: on 7.x, whose tracepoints run
# preemptible, a BTF program preempted by another ring's run of the same
# event misses it, and more tracers make that likelier: the tool says so.)
if [ "$btf" = 1 ]; then
	start "$S/at-btf.json" -j || exit 1
	at_btf=$tool_pid
	start "$S/rec.json" --no-btf -j || exit 1
	rec_json=$tool_pid
	# amdgen's buffers 0-14 were made above: these are 15-21.
	sum_workload amduser10 15
	tool_pid=$rec_json; stop INT; rec_json_status=$tool_status
	tool_pid=$at_btf; stop INT
	u=$(pid_of amduser10)
	check_eq "$P --no-btf at once: exit status 0" "$rec_json_status" 0
	check_eq "$P --no-btf at once: the workload's submissions" \
		"$(jrows "$S/rec.json" submission '"\(.ring) \(.submits) \(.ibs) \(.run) \(.done)"' | tr '\n' ' ')" \
		"gfx 10 30 10 10 sdma 4 4 4 4 "
	check_eq "$P --no-btf at once: the same -j rows (submissions, flushes, buffers, VM, moves, interrupts, histogram counts)" \
		"$(norm "$S/rec.json")" "$(norm "$S/at-btf.json")"
	check_eq "$P --no-btf: the interrupt's process unknown (null), the BTF path's named" \
		"$(iv_row "$S/rec.json")|$(iv_row "$S/at-btf.json")" "0 3 42 6 null null|0 3 42 6 $u (exited)"
	check_eq "$P --no-btf: says the path and what is '-', once each" \
		"$(rec_lines "$S/rec.json.err" --no-btf)" "1|1"
	check_eq "$P --no-btf: nothing else on stderr, the BTF path nothing but its banner" \
		"$(quiet "$S/rec.json.err")|$(quiet "$S/at-btf.json.err")" "|"
fi

# ---------------------------------------------------------------------------
# 5. 5.10's fallbacks on this kernel (no atomic fetch or compare-and-swap,
# no attach cookies: GPU_BPF_PRETEND_MISSING), on each path there is, next
# to the tool as it is: the same rows.
pretend="env GPU_BPF_PRETEND_MISSING=atomic_fetch,attach_cookie $T"
start "$S/fb-ref.json" -j || exit 1
fb_ref=$tool_pid
start_tool "$S/fb-rec.json" $pretend --no-btf -j || exit 1
fb_rec=$tool_pid
if [ "$btf" = 1 ]; then
	start_tool "$S/fb-btf.json" $pretend -j || exit 1
	fb_btf=$tool_pid
fi
# amdgen's buffers 0-21 were made above (0-14 without module BTF): these follow.
write_as amduser9 /proc/amdgen "submit ring=gfx jobs=6 exec_us=500 ibs=2
submit ring=sdma jobs=3 exec_us=500
bo n=2 size=8192 domain=4
bo n=1 size=4096 domain=2
move first=$([ "$btf" = 1 ] && echo 22 || echo 15) n=1 to=2
iv n=3 client=3 src=4 ring=0 vmid=1 pasid=7
vm_flush ring=sdma n=2
map n=2 size=4096
update n=1
wait"
for p in ${fb_btf:-} $fb_rec $fb_ref; do tool_pid=$p; stop INT; done
check_eq "$P fallbacks, record path: the workload's submissions" \
	"$(jrows "$S/fb-rec.json" submission '"\(.ring) \(.submits) \(.ibs) \(.run) \(.done)"' | tr '\n' ' ')" \
	"gfx 6 12 6 6 sdma 3 3 3 3 "
check_eq "$P fallbacks, record path: the same rows as the tool as it is" \
	"$(norm "$S/fb-rec.json")" "$(norm "$S/fb-ref.json")"
if [ "$btf" = 1 ]; then
	check_eq "$P fallbacks, BTF path: the same rows as the tool as it is" \
		"$(norm "$S/fb-btf.json")" "$(norm "$S/fb-ref.json")"
	check_eq "$P fallbacks, BTF path: nothing on stderr but the banner" "$(quiet "$S/fb-btf.json.err")" ""
fi

# 5b. --prometheus, read back through the real node_exporter and Prometheus:
#     submissions and evicted bytes per ring and comm, totals since start
#     (two batches a summary apart add up), never per pid.
if prom_start; then
	start "$S/prom.out" --prometheus "$PROM_FILES/amdgpucs.prom" 1
	# amdgen's buffers 0-35 were made above (0-28 without module BTF): these follow.
	write_as amdprom /proc/amdgen "submit ring=gfx jobs=4 exec_us=500 ibs=2
bo n=3 size=1048576 domain=4
move first=$([ "$btf" = 1 ] && echo 36 || echo 29) n=2 to=2
wait"
	sleep 1.5
	write_as amdprom /proc/amdgen "submit ring=gfx jobs=3 exec_us=500 ibs=1
submit ring=sdma jobs=2 exec_us=500
wait"
	stop INT
	check_prom "$P --prometheus: submissions and IBs per ring of amdprom, one row, no pid" \
		'{__name__=~"gpubpf_amdgpucs_(submissions|ibs|jobs_done)_total", comm="amdprom"}' "__name__ ring pid" \
		"gpubpf_amdgpucs_ibs_total gfx - 11;gpubpf_amdgpucs_ibs_total sdma - 2;gpubpf_amdgpucs_jobs_done_total gfx - 7;gpubpf_amdgpucs_jobs_done_total sdma - 2;gpubpf_amdgpucs_submissions_total gfx - 7;gpubpf_amdgpucs_submissions_total sdma - 2"
	check_prom "$P --prometheus: buffers created and evicted, in bytes, per comm and domain" \
		'{__name__=~"gpubpf_amdgpucs_buffers_(created|evicted)(_bytes)?_total", comm="amdprom"}' "__name__ domain" \
		"gpubpf_amdgpucs_buffers_created_bytes_total VRAM 3145728;gpubpf_amdgpucs_buffers_created_total VRAM 3;gpubpf_amdgpucs_buffers_evicted_bytes_total VRAM 2097152;gpubpf_amdgpucs_buffers_evicted_total VRAM 2"
	check_prom "$P --prometheus: gfx's run -> done histogram counts its 7 jobs" \
		'gpubpf_amdgpucs_run_to_done_seconds_count{ring="gfx"}' "" 7
	check_prom "$P --prometheus: nothing lost" 'sum(gpubpf_amdgpucs_events_lost_total)' "" 0
	check_prom "$P --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" 0
	check "$P --prometheus: promtool check metrics is clean" \
		sh -c "promtool check metrics <'$PROM_FILES/amdgpucs.prom'"
	prom_stop
fi
rmmod amdgen

# ---------------------------------------------------------------------------
# 6. A DKMS build's modules: gpu-sched and amdgpu without their .BTF. The
# tool picks the record path by itself, says so in one line, and counts
# what the BTF path counted in 3.
if [ "$btf" = 1 ]; then
	unload_module gpu_sched
	if strip_ko gpu-sched "$S/gpu-sched-nobtf.ko" 2>"$S/strip.err" &&
		strip_ko amdgpu "$S/amdgpu-nobtf.ko" 2>>"$S/strip.err" &&
		load_module "$S/gpu-sched-nobtf.ko"; then
		check "$P stripped: no /sys/kernel/btf/gpu_sched" test ! -e /sys/kernel/btf/gpu_sched
		if load_module "$S/amdgpu-nobtf.ko"; then
			check "$P stripped: no /sys/kernel/btf/amdgpu" test ! -e /sys/kernel/btf/amdgpu
			timeout 120 "$T" 1 1 >"$S/dkms-real.out" 2>"$S/dkms-real.err"
			check_eq "$P stripped amdgpu: the record path, one idle interval, exits 0" \
				"$? $(grep -cx "no submissions" "$S/dkms-real.out")" "0 1"
			check_eq "$P stripped amdgpu: says so (module amdgpu), and what is '-', once, nothing else" \
				"$(rec_lines "$S/dkms-real.err" "module amdgpu has no BTF") $(wc -l <"$S/dkms-real.err")" "1|1 2"
			unload_module amdgpu
		fi
		load_module "$AMDGEN_KO" rings=gfx,sdma || exit 1
		pair_start "$S/dkms"
		sum_workload amduser1
		pair_stop INT
		check_eq "$P stripped gpu-sched: exit status 0 (text, -j)" "$txt_status $json_status" "0 0"
		check_eq "$P stripped gpu-sched: the record path chosen by itself, said once, what is '-' (text, -j)" \
			"$(rec_lines "$S/dkms.txt.err" "$auto_why") $(rec_lines "$S/dkms.json.err" "$auto_why")" "1|1 1|1"
		check_eq "$P stripped gpu-sched: the rows of the BTF path in 3 (pids aside)" \
			"$(norm "$S/dkms.json" | jq -c 'del(.pid)' | sort)" "$(norm "$S/sum.json" | jq -c 'del(.pid)' | sort)"
		check_eq "$P stripped gpu-sched: the text's submission rows too" \
			"$(sub_row "$S/dkms.txt" gfx "$(pid_of amduser1)") / $(sub_row "$S/dkms.txt" sdma "$(pid_of amduser1)")" \
			"$(sub_row "$S/sum.txt" gfx "$u1") / $(sub_row "$S/sum.txt" sdma "$u1")"
		check_eq "$P stripped gpu-sched: the interrupt's process '-' in the text, null in -j" \
			"$(iv_text "$S/dkms.txt")/$(iv_row "$S/dkms.json")" "0 3 42 6 - /0 3 42 6 null null"
		rmmod amdgen
	else
		fail "$P strip and load gpu-sched and amdgpu: $(cat "$S/strip.err")"
	fi
fi
