#!/usr/bin/env bash
# drmsched on a real kernel, run inside the VM by tests/run (one boot per
# kernel): the real DRM scheduler (module gpu-sched) driven by the test
# module schedgen (tests/kmod), whose workloads have a known shape, so the
# tool's counts must match exactly and its latencies stay within the bounds
# the workload sets.
#
# What the kernel offers is read from it, not from its name: the events'
# generation from tracefs (<= 6.16's names on 5.10, 6.1 and 6.12, 6.17's on
# sid), the path from /sys/kernel/btf (no module BTF on 5.10: the record
# path, which says so on stderr and has no device name before 6.17).
# What the frontend alone does with the same counts (-T, -j against the
# text, interval counts, signals, a closed pipe, escaping, timelines) is
# checked in 6.1's guest only (frontend_checks, tests/lib.sh).
#
# Environment (from tests/vm/run and tests/run): VM_KERNEL (6.1|sid|5.10|6.12),
# VM_SCRATCH (writable dir), VM_MODPROBE (modprobe for the guest kernel),
# SCHEDGEN_KO (the test module built for this kernel).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init drmsched

# ---------------------------------------------------------------------------
# helpers

# A summary row for RING: "QUEUED RUN DONE DEPS BLOCKED", from the text
# (ring_row) or from -j (ring_json; BLOCKED "-" where the kernel has none).
ring_row() { awk -v r="$2" '$2 == r && NF == 9 && $3 ~ /^[0-9]+$/ { print $3, $4, $5, $6, $7; exit }' "$1"; }
ring_json() { jrows "$1" ring "select(.ring == \"$2\") | \"\(.queued) \(.run) \(.done) \(.deps) \(.blocked // \"-\")\""; }
# "count avg min max" of RING's histogram KIND ("wait" or "exec") in -j output.
ring_hist() { jhist_stats "$1" ".type == \"ring_hist\" and .ring == \"$2\" and .hist == \"$3\""; }

# stderr_of FILE: FILE without the record path's lines (on_stderr).
stderr_of() {
	local pats=() line
	for line in "${on_stderr[@]}"; do pats+=(-e "$line"); done
	if [ ${#pats[@]} = 0 ]; then cat "$1"; else grep -vxF "${pats[@]}" "$1"; fi
}

# quiet NAME FILE...: nothing on stderr but the record path's lines (on_stderr).
quiet() {
	local name=$1 pats=() line
	shift
	for line in "${on_stderr[@]}"; do pats+=(-e "$line"); done
	if [ ${#pats[@]} = 0 ]; then
		check_eq "$name" "$(cat "$@")" ""
	else
		check_eq "$name" "$(cat "$@" | grep -vxF "${pats[@]}")" ""
	fi
}

# submit ARGS...: one command to the test module, from a process of known PID.
submit() { echo "submit $*" >/proc/schedgen; }
drain() { echo "wait" >/proc/schedgen; }

# ---------------------------------------------------------------------------
# 1. No driver: no gpu_scheduler events, and the error says which module.
expect_error "$P no driver loaded: names gpu-sched and the drivers" 1 \
	"^drmsched: no gpu_scheduler tracepoints: module gpu-sched is not loaded" "$T"

# i915 does not use the DRM scheduler: loading it must not change that.
if load_module i915; then
	expect_error "$P i915 alone brings no gpu_scheduler events" 1 \
		"module gpu-sched is not loaded" "$T"
fi

# ---------------------------------------------------------------------------
# 2. The real amdgpu (and so gpu-sched): attaching works against its real
#    BTF and event formats, with no hardware (no jobs).
load_module amdgpu
check "$P amdgpu pulled in gpu_sched" test -d /sys/module/gpu_sched

# The kernel's generation of events (6.17 renamed them), and its BTF.
tp=/sys/kernel/tracing/events/gpu_scheduler
new_abi=0
[ -e $tp/drm_sched_job_queue ] && new_abi=1
on_stderr=()
if [ ! -e /sys/kernel/btf/gpu_sched ]; then
	echo "note: $K: gpu_sched has no BTF: the record path"
	on_stderr=("drmsched: reading the tracepoint records (module gpu_sched has no BTF)")
	[ $new_abi = 0 ] && on_stderr+=("drmsched: not in the records, printed as '-': DEV")
fi
if [ $new_abi = 0 ]; then
	want_abi="Linux <= 6.16"
	check "$P $K has the old event names" test -e $tp/drm_run_job/format -a -e $tp/drm_sched_job_wait_dep/format
else
	want_abi="Linux >= 6.17"
	check "$P $K has the 6.17 event names" test -e $tp/drm_sched_job_queue/format -a -e $tp/drm_sched_job_unschedulable/format
	check "$P $K keys jobs by fence context:seqno" grep -q "field:u64 fence_context" $tp/drm_sched_job_run/format
	check "$P $K records client_id" grep -q "field:u64 client_id" $tp/drm_sched_job_queue/format
fi

timeout 120 "$T" 1 1 >"$S/idle.out" 2>"$S/idle.err"
check_eq "$P attaches with amdgpu loaded, exits 0 after 1 interval" "$?" 0
check "$P detects the $want_abi events" grep -q "($want_abi events)" "$S/idle.out"
check "$P idle interval reports no jobs" grep -qx "no jobs" "$S/idle.out"
if [ ${#on_stderr[@]} = 0 ]; then
	check "$P nothing on stderr when idle" test ! -s "$S/idle.err"
else
	check_eq "$P no module BTF: stderr says the record path (and what it lacks), once" \
		"$(cat "$S/idle.err")" "$(printf '%s\n' "${on_stderr[@]}")"
fi

# ---------------------------------------------------------------------------
# 3. The job generator on the real scheduler.
load_module "${SCHEDGEN_KO:?}" rings=gfx,compute || exit 1

# 3a. Summary: exact counts per ring and process, latencies within bounds,
#     read from -j (each number by name); the text, traced at once, says the same.
pair_start "$S/sum"
sh -c 'echo $$ >'"$S"'/wl1.pid; echo "submit ring=gfx jobs=10 exec_us=2000 deps=chain client=42" >/proc/schedgen'
sh -c 'echo $$ >'"$S"'/wl2.pid; echo "submit ring=compute jobs=5 exec_us=5000" >/proc/schedgen'
drain
pair_stop INT
j=$S/sum.json t=$S/sum.txt
check_eq "$P summary: exit status 0 on Ctrl-C (text, -j)" "$txt_status $json_status" "0 0"
check_eq "$P gfx: 10 queued, 10 run, 10 done, 9 dependencies" "$(ring_json "$j" gfx | cut -d' ' -f1-4)" "10 10 10 9"
check_eq "$P compute: 5 queued, 5 run, 5 done, 0 dependencies" "$(ring_json "$j" compute | cut -d' ' -f1-4)" "5 5 5 0"
if [ $new_abi = 0 ]; then
	check_eq "$P $K has no unschedulable event: BLOCKED is -" "$(ring_row "$t" gfx | cut -d' ' -f5)" "-"
	check_eq "$P $K has no unschedulable event: -j blocked is null" \
		"$(jrows "$j" ring 'select(.ring == "gfx") | .blocked')" null
else
	check_le "$P gfx: blocked dependencies <= dependencies" "$(ring_json "$j" gfx | cut -d' ' -f5)" 9
fi
for r in gfx compute; do
	check_eq "$P summary: the text's $r row says what -j does" "$(ring_row "$t" $r)" "$(ring_json "$j" $r)"
done
read -r n avg min max <<<"$(ring_hist "$j" gfx exec)"
check_eq "$P gfx execution histogram counts 10 jobs" "$n" 10
check_ge "$P gfx execution min >= exec_us 2000" "$min" 2000
check_le "$P gfx execution max < 1 s" "$max" 999999
read -r n avg min max <<<"$(ring_hist "$j" compute exec)"
check_eq "$P compute execution histogram counts 5 jobs" "$n" 5
check_ge "$P compute execution min >= exec_us 5000" "$min" 5000
read -r n avg min max <<<"$(ring_hist "$j" gfx wait)"
check_eq "$P gfx queue-wait histogram counts 10 jobs" "$n" 10
# One job at a time (credits=1): the 10th waits for the 9 before it.
check_ge "$P gfx max queue wait >= 9 x 2000 us" "$max" 18000
# (Latencies differ by the two tracers' own timing: each reads the clock itself.)
check_eq "$P summary: the text's histograms count the jobs -j's do" \
	"$(for h in "/gfx queue wait" "/gfx execution" "/compute execution"; do hist_stats "$t" "$h" | cut -d' ' -f1; done | tr '\n' ' ')" \
	"$(for h in "gfx wait" "gfx exec" "compute exec"; do ring_hist "$j" $h | cut -d' ' -f1; done | tr '\n' ' ')"
pid1=$(cat "$S/wl1.pid") pid2=$(cat "$S/wl2.pid")
if [ $new_abi = 0 ]; then client=-; else client=42; fi
check_eq "$P process row: pid, comm, client, 10 queued, 10 done on gfx" \
	"$(jrows "$j" process "select(.pid == $pid1 and .ring == \"gfx\") | \"\(.comm) \(.client // \"-\") \(.queued) \(.done)\"")" \
	"sh $client 10 10"
check_eq "$P process row: second writer has the 5 compute jobs" \
	"$(jrows "$j" process "select(.pid == $pid2 and .ring == \"compute\") | \"\(.comm) \(.queued) \(.done)\"")" "sh 5 5"
check_eq "$P process rows: the text's say what -j does" \
	"$(awk 'NF == 9 && $1 ~ /^[0-9]+$/ { print $1, $2, $3, $5, $6, $7 }' "$t")" \
	"$(jrows "$j" process '"\(.pid) \(.comm) \(.client // "-") \(.ring) \(.queued) \(.done)"')"
check_eq "$P dependency table: gfx waited 9 times on gfx's own fences" \
	"$(jrows "$j" dep 'select(.ring == "gfx" and .owner_ring == "gfx") | .deps')" 9
check_eq "$P dependency table: the text's row says the same" \
	"$(awk '$2 == "gfx" && $4 == "gfx" { print $5 }' "$t")" 9

# 3b. -e: one line per event, exact per type. The kernel's own trace
#     buffer records the same events meanwhile: what drmsched reads with
#     CO-RE must be what the kernel's format says.
trace=/sys/kernel/tracing
echo >$trace/trace
echo 1 >$trace/events/gpu_scheduler/enable
start "$S/ev.out" -e
submit ring=gfx jobs=3 exec_us=3000 deps=chain
drain
stop INT
echo 0 >$trace/events/gpu_scheduler/enable
cp $trace/trace "$S/ev.trace"
out=$S/ev.out
check_eq "$P -e: header" "$(head -1 "$out" | awk '{print $1, $2, $3, $4, $5, $6, $7, $8, $9}')" \
	"TIME(s) EVENT DEV RING JOB PID COMM LAT(us) DEP"
for ev in QUEUE RUN DONE; do
	check_eq "$P -e: 3 $ev lines on gfx" "$(awk -v e=$ev '$2 == e && $4 == "gfx"' "$out" | wc -l)" 3
done
check_eq "$P -e: 2 DEP lines (chain of 3)" "$(awk '$2 == "DEP"' "$out" | wc -l)" 2
check_eq "$P -e: every DONE took >= 3000 us" \
	"$(awk '$2 == "DONE" && $8 >= 3000' "$out" | wc -l)" 3
check_eq "$P -e: each job's QUEUE, RUN, DONE share its context:seqno" \
	"$(awk '$2 ~ /QUEUE|RUN|DONE/ { n[$5]++ } END { for (j in n) if (n[j] == 3) c++; print c }' "$out")" 3
check_eq "$P -e: a DEP names the previous job of the chain" \
	"$(awk '$2 == "DEP" { split($5, j, ":"); split($9, d, ":"); if (d[2] == j[2] - 1) c++ } END { print c + 0 }' "$out")" 2
quiet "$P -e: nothing on stderr" "$out.err"
# Dependencies: "context=C, seq=S" (<= 6.16) or "depends on fence=C:S" (>= 6.17).
check_eq "$P -e: DEP fences are the ones in the kernel's trace" \
	"$(awk '$2 == "DEP" { print $9 }' "$out" | sort | tr '\n' ' ')" \
	"$(grep -E 'drm_sched_job_(wait|add)_dep:' "$S/ev.trace" |
		sed -E 's/.*(context=([0-9]+), seq=([0-9]+)|depends on fence=([0-9]+):([0-9]+)).*/\2\4:\3\5/' |
		sort | tr '\n' ' ')"
if [ $new_abi = 1 ]; then
	check_eq "$P -e: JOB fences are the kernel's fence_context:fence_seqno" \
		"$(awk '$2 == "QUEUE" { print $5 }' "$out" | sort | tr '\n' ' ')" \
		"$(grep 'drm_sched_job_queue:' "$S/ev.trace" | sed -E 's/.*fence=([0-9]+:[0-9]+).*/\1/' |
			sort | tr '\n' ' ')"
fi

# 3c. -T adds a wall-clock column.
if frontend_checks "-T"; then
	start "$S/evT.out" -e -T
	submit ring=compute jobs=1 exec_us=1000
	drain
	stop INT
	check "$P -e -T: HH:MM:SS first column" awk 'NR == 2 && $1 ~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/ { ok = 1 } END { exit !ok }' "$S/evT.out"
fi

# 3d. Filters.
start "$S/ring.json" -r compute -j
submit ring=gfx jobs=4 exec_us=1000
submit ring=compute jobs=2 exec_us=1000
drain
stop INT
check_eq "$P -r compute: compute counted" "$(ring_json "$S/ring.json" compute | cut -d' ' -f1-3)" "2 2 2"
check_eq "$P -r compute: gfx absent" "$(jrows "$S/ring.json" ring 'select(.ring != "compute")')" ""

# The other process waits for the tracer to attach before submitting.
sh -c 'while [ ! -e "$1" ]; do sleep 0.1; done
	echo "submit ring=gfx jobs=2 exec_us=1000" >/proc/schedgen; echo wait >/proc/schedgen' sh "$S/go" &
other=$!
start "$S/pid.json" -p "$other" -j
touch "$S/go"
submit ring=gfx jobs=7 exec_us=1000
wait "$other"
drain
stop INT
check_eq "$P -p PID: only that process's 2 jobs" "$(ring_json "$S/pid.json" gfx | cut -d' ' -f1-3)" "2 2 2"

dev=$(jrows "$S/sum.json" ring 'select(.ring == "gfx") | .dev')
if [ "$dev" = - ]; then
	# The record path before 6.17: no device to filter by.
	expect_error "$P -d without device names: refused" 1 \
		"^drmsched: -d: the gpu_scheduler records of this kernel name no device" "$T" -d 0000:00:00.0
else
	start "$S/dev.out" -d "$dev"
	submit ring=gfx jobs=1 exec_us=1000
	drain
	stop INT
	check_eq "$P -d $dev: its rings counted" "$(ring_row "$S/dev.out" gfx | cut -d' ' -f1)" 1
	start "$S/nodev.out" -d no-such-device
	submit ring=gfx jobs=1 exec_us=1000
	drain
	stop INT
	check "$P -d no-such-device: no jobs" grep -qx "no jobs" "$S/nodev.out"
fi

# 3e. interval count: two summaries, then exit 0 by itself.
if frontend_checks "interval count"; then
	: >"$S/int.out"
	timeout 120 "$T" 2 2 >"$S/int.out" 2>&1 &
	int_pid=$!
	wait_for_output "$S/int.out" "$int_pid"
	submit ring=gfx jobs=2 exec_us=1000
	wait "$int_pid"
	check_eq "$P interval 2 count 2: exits 0 by itself" "$?" 0
	check_eq "$P interval 2 count 2: two summaries" "$(grep -Ec '^DEV +RING +QUEUED|^no jobs' "$S/int.out")" 2
	check_eq "$P interval: the 2 jobs are counted once" \
		"$(awk '$2 == "gfx" && NF == 9 && $3 ~ /^[0-9]+$/ { s += $3 } END { print s }' "$S/int.out")" 2
fi

# 3f. -m: milliseconds.
start "$S/ms.out" -m
submit ring=compute jobs=2 exec_us=20000
drain
stop INT
read -r n avg min max <<<"$(hist_stats "$S/ms.out" "/compute execution")"
check_ge "$P -m: execution of 20000 us jobs is >= 20 ms" "$min" 20
check "$P -m: histogram unit is msecs" grep -q "msecs" "$S/ms.out"

# 3g. SIGTERM ends with the same summary as Ctrl-C.
if frontend_checks "SIGTERM"; then
	start "$S/term.out"
	submit ring=gfx jobs=3 exec_us=1000
	drain
	stop TERM
	check_eq "$P SIGTERM: exit 0" "$tool_status" 0
	check_eq "$P SIGTERM: summary printed" "$(ring_row "$S/term.out" gfx | cut -d' ' -f1-3)" "3 3 3"
fi

# 3h. A closed pipe ends -e cleanly instead of hanging or dying of SIGPIPE:
#     the reader takes the header and one event, then goes away.
if frontend_checks "a closed pipe"; then
	( "$T" -e 2>"$S/pipe.err"; echo "$?" >"$S/pipe.status" ) |
		{ for n in 1 2; do IFS= read -r line && echo "$line" >>"$S/pipe.out"; done; } &
	wait_for_output "$S/pipe.out"
	submit ring=gfx jobs=20 exec_us=500
	drain
	for i in $(seq 1 100); do [ -s "$S/pipe.status" ] && break; nap 0.1; done
	check_eq "$P -e | reader of 2 lines: exits 0 when the reader goes away" "$(cat "$S/pipe.status" 2>/dev/null)" 0
	check_eq "$P -e | reader of 2 lines: the reader got them" "$(wc -l <"$S/pipe.out")" 2
	quiet "$P -e | reader of 2 lines: nothing on stderr" "$S/pipe.err"
fi

# 3j. -j: the same run traced twice, as text and as JSON lines: every line
#     is a JSON object, and its numbers are the text's.
if frontend_checks "-j and -e -j against the text"; then
	pair_start "$S/pair"
	submit ring=gfx jobs=4 exec_us=1000 deps=chain
	submit ring=compute jobs=2 exec_us=1000
	drain
	pair_stop INT
	j=$S/pair.json
	check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
	check "$P -j: the banner goes to stderr" grep -q "^Tracing DRM GPU scheduler jobs" "$j.err"
	for r in gfx compute; do
		check_eq "$P -j: ring $r row equals the text's" \
			"$(jq -r --arg r $r 'select(.type == "ring" and .ring == $r) |
			"\(.queued) \(.run) \(.done) \(.deps) \(.blocked // "-")"' "$j")" \
			"$(ring_row "$S/pair.txt" $r)"
	done
	check_eq "$P -j: gfx execution histogram: count and bucket counts" \
		"$(jq -r 'select(.type == "ring_hist" and .ring == "gfx" and .hist == "exec") |
		"\(.count) \([.buckets[].count] | add) \(.unit)"' "$j")" "4 4 us"
	check_eq "$P -j: process rows: pid and counts as the text's" \
		"$(jq -r 'select(.type == "process") | "\(.pid) \(.ring) \(.queued) \(.done)"' "$j" | sort)" \
		"$(awk 'NF == 9 && $1 ~ /^[0-9]+$/ { print $1, $5, $6, $7 }' "$S/pair.txt" | sort)"
	check_eq "$P -j: dependency row: 3 on gfx's own context" \
		"$(jq -r 'select(.type == "dep") | "\(.ring) \(.owner_ring) \(.deps)"' "$j")" "gfx gfx 3"
	check_eq "$P -j: one ts for the whole summary" \
		"$(jq -r '.ts' "$j" | sort -u | wc -l)" 1

	pair_start "$S/pair-e" -e
	submit ring=gfx jobs=3 exec_us=1000 deps=chain
	drain
	pair_stop INT
	j=$S/pair-e.json
	check_eq "$P -e -j: every line a JSON object" "$(json_lines "$j")" ok
	# (Latencies differ by the two tracers' own timing: each reads the clock itself.)
	check_eq "$P -e -j: the same events as the text, by job" \
		"$(jq -r 'select(.type == "event") | "\(.event) \(.context):\(.seqno) \(.pid) \(.comm) \(.lat_us != null)"' "$j" | sort)" \
		"$(awk 'NR > 1 { print $2, $5, $6, $7, $8 != "-" }' "$S/pair-e.txt" | sed 's/ 1$/ true/; s/ 0$/ false/' | sort)"
	check_eq "$P -e -j: DEP events name the fence waited on" \
		"$(jq -r 'select(.event == "DEP") | "\(.dep_context):\(.dep_seqno)"' "$j" | sort)" \
		"$(awk '$2 == "DEP" { print $9 }' "$S/pair-e.txt" | sort)"
	check_eq "$P -e -j: each event's ts is within a minute of now" \
		"$(jq -r --argjson now "$(date +%s)" 'select(.ts < $now - 60 or .ts > $now + 1)' "$j")" ""
fi

# 3k. --cgroup and --container: workloads from three cgroups, traced at
#     once unfiltered and filtered by each: A a CRI-O container of a
#     Kubernetes pod (the kubelet's systemd driver), A/sub a cgroup of the
#     container's own below it, and B, which no runtime named, a hostile name
#     (a quote, a backslash, a space, a tab, an escape sequence, 240 bytes;
#     cgroup v2 refuses a newline).
cg=/sys/fs/cgroup/drmsched-test
pod=0d9c2b7a-1e3f-4a5b-8c6d-7e8f9a0b1c2d
id=c0ffee0123456789abcdef0123456789abcdef0123456789abcdef0123456789
rel_a=kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${pod//-/_}.slice/crio-$id.scope
rel_b=$(printf 'b"\\ \t\033[2J%0231d' 0)
mkdir -p "$cg/$rel_a/sub" "$cg/$rel_b"
start "$S/cg-all.out"
p1=$tool_pid
start "$S/cg-A.out" --container "${id:0:6}"
p2=$tool_pid
start "$S/cg-sub.out" --cgroup "$cg/$rel_a/sub" -C
p3=$tool_pid
start "$S/cg-B.out" -j -C --cgroup "$cg/$rel_b" --prometheus "$S/cg-B.prom"
in_cgroup "$cg/$rel_a" sh -c 'echo "submit ring=gfx jobs=3 exec_us=1000" >/proc/schedgen'
in_cgroup "$cg/$rel_a/sub" sh -c 'echo "submit ring=gfx jobs=2 exec_us=1000" >/proc/schedgen'
in_cgroup "$cg/$rel_b" sh -c 'echo "submit ring=gfx jobs=5 exec_us=1000" >/proc/schedgen'
drain
stop INT
for p in $p1 $p2 $p3; do kill -INT $p; wait $p; done
check_eq "$P --cgroup: unfiltered sees all 10 jobs" "$(ring_row "$S/cg-all.out" gfx | cut -d' ' -f1-3)" "10 10 10"
check_eq "$P --container: its 3 and the 2 of a cgroup below it" "$(ring_row "$S/cg-A.out" gfx | cut -d' ' -f1-3)" "5 5 5"
check_eq "$P --cgroup A/sub: its 2" "$(ring_row "$S/cg-sub.out" gfx | cut -d' ' -f1-3)" "2 2 2"
check_eq "$P --cgroup A/sub -C: the process row names its container, pod and cgroup" \
	"$(awk 'NF == 12 && $1 ~ /^[0-9]+$/ { print $6, $10, $11, $12 }' "$S/cg-sub.out")" \
	"2 ${id:0:12} $pod /drmsched-test/$rel_a/sub"
check "$P -C: CONTAINER, POD and CGROUP columns" grep -q "^PID .* CONTAINER  *POD  *CGROUP$" "$S/cg-sub.out"
check_eq "$P --cgroup B -j -C: its 5; no container, the hostile path whole" \
	"$(jq -r --arg want "/drmsched-test/$rel_b" \
		'select(.type == "process") | "\(.queued) \(.container) \(.runtime) \(.pod) \(.unit) \(.cgroup == $want)"' \
		"$S/cg-B.out")" "5 null null null null true"
esc='b\"\\ ??[2J'$(printf '%0231d' 0)
check_eq "$P --cgroup B --prometheus: the hostile path one escaped label value, no line broken" \
	"$(grep '^gpubpf_drmsched_process_jobs_queued_total{' "$S/cg-B.prom" |
		grep -cF ",ring=\"gfx\",comm=\"sh\",cgroup=\"/drmsched-test/$esc\"} 5") $(grep -vc '^gpubpf_\|^#' "$S/cg-B.prom")" \
	"1 0"
quiet "$P --cgroup: nothing on stderr" "$S/cg-all.out.err" "$S/cg-A.out.err" "$S/cg-sub.out.err"
expect_error "$P --cgroup: no such directory" 64 "^drmsched: --cgroup /nonexistent: No such file or directory" \
	"$T" --cgroup /nonexistent
expect_error "$P --cgroup: not a cgroup" 64 "^drmsched: --cgroup /proc: not a cgroup v2 directory" \
	"$T" --cgroup /proc
expect_error "$P --container: one that is not there" 64 \
	"^drmsched: --container 0123abc: no cgroup of it under /sys/fs/cgroup$" "$T" --container 0123abc
expect_error "$P --pod: not a UID" 64 \
	"^drmsched: --pod 42: not a pod UID \\(8-4-4-4-12 lowercase hex digits\\)$" "$T" --pod 42
expect_error "$P --pod with --container: one cgroup to filter on" 64 \
	"^drmsched: --container ${id:0:6}: only one of --cgroup, --container and --pod$" \
	"$T" --pod "$pod" --container "${id:0:6}"
find "$cg" -depth -type d -exec rmdir {} +
# Only cgroup v1 mounted, as on a machine still booted with it: -C says in
# one line that it can name no cgroup (BPF reads the unmounted v2 root's
# id), and its fields are null.
v1='umount /sys/fs/cgroup && mount -t tmpfs none /sys/fs/cgroup && mkdir /sys/fs/cgroup/gpubpf &&
	mount -t cgroup -o none,name=gpubpf cgroup /sys/fs/cgroup/gpubpf'
start_tool "$S/v1.json" unshare -m sh -c "$v1"' && exec "$@"' sh "$T" -C -j
submit ring=gfx jobs=2 exec_us=1000
drain
stop INT
check_eq "$P cgroup v1 alone -C: one line says so" "$(grep -cxF "drmsched: -C: no cgroup v2 hierarchy is mounted (cgroup v1 alone): no process's cgroup or container can be named" "$S/v1.json.err")" 1
check_eq "$P cgroup v1 alone -C -j: the process's container and cgroup null" \
	"$(jq -r 'select(.type == "process") | "\(.queued) \(.container) \(.pod) \(.cgroup)"' "$S/v1.json")" "2 null null null"

# 3k'. A submitter in a PID namespace of its own (a container's, PID 1
#      there; unshare --pid): -e and -e -j show its PID there beside the
#      host's, while it lives (it waits on a fifo until both have the line).
if frontend_checks "PID namespaces"; then
	start "$S/ns.ev" -e; ns_ev=$tool_pid
	start "$S/ns.json" -e -j; ns_json=$tool_pid
	mkfifo "$S/ns.go"
	unshare --pid --fork sh -c 'echo "submit ring=gfx jobs=1 exec_us=1000" >/proc/schedgen; read -r _ <"$1"' \
		sh "$S/ns.go" &
	ns_unshare=$!
	for _ in $(seq 1 300); do
		grep -q ' QUEUE ' "$S/ns.ev" && grep -q '"QUEUE"' "$S/ns.json" && break
		nap 0.1
	done
	ns_host=$(cat /proc/$ns_unshare/task/$ns_unshare/children)
	echo >"$S/ns.go"
	wait $ns_unshare
	drain
	for tool_pid in $ns_ev $ns_json; do stop INT; done
	check_eq "$P -e: the QUEUE line's PID, the host's and the namespace's" \
		"$(awk '$2 == "QUEUE" { print $6 }' "$S/ns.ev")" "${ns_host% }(1)"
	check_eq "$P -e -j: pid and ns_pid" \
		"$(jq -r 'select(.event == "QUEUE") | "\(.pid) \(.ns_pid)"' "$S/ns.json")" "${ns_host% } 1"
fi

# 3l. --prometheus, read back through the real node_exporter and Prometheus:
#     counters are totals since start (two submissions a summary apart add
#     up), per ring and per comm, and the histograms count the jobs.
expect_error "$P --prometheus: a directory that is not there" 1 \
	"^drmsched: --prometheus /nonexistent/d.prom: cannot create a file beside it: No such file or directory$" \
	"$T" --prometheus /nonexistent/d.prom
if prom_start; then
	prom=$PROM_FILES/drmsched.prom
	start "$S/prom.out" --prometheus "$prom" 1
	check "$P --prometheus: the file is there once attached" test -s "$prom"
	write_as gfxwork /proc/schedgen "submit ring=gfx jobs=6 exec_us=2000 deps=chain"
	drain
	check_prom "$P --prometheus: Prometheus has gfx's first 6 jobs" \
		'gpubpf_drmsched_jobs_done_total' ring "gfx 6"
	write_as gfxwork /proc/schedgen "submit ring=gfx jobs=4 exec_us=2000"
	# 1500 us, not 1000: a job measures at least its exec_us, and 1000 to
	# 1023 us falls in the le="0.001024" bucket.
	write_as compwork /proc/schedgen "submit ring=compute jobs=5 exec_us=1500"
	drain
	stop INT
	check_eq "$P --prometheus: exit 0 on Ctrl-C" "$tool_status" 0
	check_prom "$P --prometheus: jobs queued, run and done per ring are totals since start" \
		'{__name__=~"gpubpf_drmsched_jobs_(queued|run|done)_total"}' "__name__ ring" \
		"gpubpf_drmsched_jobs_done_total compute 5;gpubpf_drmsched_jobs_done_total gfx 10;gpubpf_drmsched_jobs_queued_total compute 5;gpubpf_drmsched_jobs_queued_total gfx 10;gpubpf_drmsched_jobs_run_total compute 5;gpubpf_drmsched_jobs_run_total gfx 10"
	check_prom "$P --prometheus: gfx's chain of 6: 5 dependencies" \
		'gpubpf_drmsched_dependencies_total' ring "compute 0;gfx 5"
	check_prom "$P --prometheus: execution histogram: every job counted, none under 1.024 ms" \
		'gpubpf_drmsched_execution_seconds_bucket{le=~"0.001024|\\+Inf"}' "ring le" \
		"compute +Inf 5;compute 0.001024 0;gfx +Inf 10;gfx 0.001024 0"
	check_prom "$P --prometheus: execution sum >= the jobs' 27.5 ms" \
		'sum(gpubpf_drmsched_execution_seconds_sum) >= bool 0.0275' "" "1"
	check_prom "$P --prometheus: queue wait counts every job" \
		'gpubpf_drmsched_queue_wait_seconds_count' ring "compute 5;gfx 10"
	check_prom "$P --prometheus: per comm, never per pid" \
		'gpubpf_drmsched_process_jobs_done_total' "comm ring pid" "compwork compute - 5;gfxwork gfx - 10"
	check_prom "$P --prometheus: nothing lost, by reason" \
		'gpubpf_drmsched_events_lost_total' reason "recursion 0;ring_buffer_full 0;tracepoint_skipped 0"
	check_prom "$P --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" "0"
	check "$P --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$prom'"
	check "$P --prometheus: the text summaries still printed" grep -q "^DEV  *RING" "$S/prom.out"
	prom_stop
fi

# 3m. A hostile process name (issue 23, tests/lib.sh's HOSTILE): the text
#     keeps one line per row, the name one column, and no control byte; -j
#     keeps the name exactly.
if frontend_checks "a hostile process name"; then
	start "$S/hn.ev" -e; hn_ev=$tool_pid
	start "$S/hn.json" -j; hn_json=$tool_pid
	start "$S/hn.sum"
	write_as "$HOSTILE" /proc/schedgen "submit ring=gfx jobs=3 exec_us=1000"
	drain
	for tool_pid in $hn_ev $hn_json $tool_pid; do stop INT; done
	check_eq "$P hostile name -e: 9 lines of 9 columns, the name escaped in COMM" \
		"$(awk '$2 ~ /^(QUEUE|RUN|DONE)$/ && NF == 9 { print $7 }' "$S/hn.ev" | sort | uniq -c | sed 's/^ *//')" \
		"9 $HOSTILE_TEXT"
	check_eq "$P hostile name -e: no other lines than the header and those 9" "$(wc -l <"$S/hn.ev")" 10
	check_no_control "$P hostile name: no control byte in the text outputs" "$S/hn.ev" "$S/hn.sum"
	check_eq "$P hostile name summary: one process row, the name one column" \
		"$(awk 'NF == 9 && $1 ~ /^[0-9]+$/ { print $2, $6 }' "$S/hn.sum")" "$HOSTILE_TEXT 3"
	check_hostile_json "$P hostile name -j: the name exact, the bad byte U+FFFD" \
		"$(jrows "$S/hn.json" process '.comm')"
fi

# 3n. Queue depth as jobs ran (the seed's job_count and hw_job_count): 10
#     gfx jobs held behind one 300 ms compute job, so all 10 are queued when
#     the first runs; one at a time on the ring (credits=1): 9, 8 ... 0
#     behind, each alone on the hardware.
#     The record path (--no-btf), traced at once, reads the same from the
#     records; the text's table says what -j does.
start "$S/depth.txt"; depth_txt=$tool_pid
start "$S/depth-rec.json" -j --no-btf; depth_rec=$tool_pid
start "$S/depth.json" -j --prometheus "$S/depth.prom"
submit ring=compute jobs=1 exec_us=300000
submit ring=gfx jobs=10 exec_us=1000 deps=ring:compute
drain
for tool_pid in $depth_txt $depth_rec $tool_pid; do stop INT; done
depth_row() { jrows "$1" depth 'select(.ring == "gfx") | "\(.run) \(.behind_avg) \(.behind_max) \(.on_hw_avg) \(.on_hw_max)"'; }
check_eq "$P depth: gfx: 10 runs, 4.5 behind on average, at most 9; 1 on the hardware, at most 1" \
	"$(depth_row "$S/depth.json")" "10 4.5 9 1 1"
check_eq "$P depth: the on-hardware histogram: count 10, min 1, max 1" \
	"$(jhist_stats "$S/depth.json" '.type == "ring_hist" and .ring == "gfx" and .hist == "on_hw"' | awk '{ print $1, $3, $4 }')" "10 1 1"
check_eq "$P depth: the record path reads the same" "$(depth_row "$S/depth-rec.json")" "10 4.5 9 1 1"
check_eq "$P depth: the text's row" \
	"$(awk '/^Queue depth as jobs ran:/ { t = 1 } t && $2 == "gfx" && NF == 7 { print $3, $4, $5, $6, $7; exit }' "$S/depth.txt")" \
	"10 4.50 9 1.00 1"
check_eq "$P depth: the behind histogram: 0..1 twice, 2..3 twice, 4..7 four times, 8..15 twice" \
	"$(jrows "$S/depth.json" ring_hist 'select(.ring == "gfx" and .hist == "behind") | [.buckets[] | "\(.lo)-\(.hi):\(.count)"] | join(" ")')" \
	"0-1:2 2-3:2 4-7:4 8-15:2"
check_eq "$P depth: --prometheus: the same as a histogram of whole jobs" \
	"$(grep -E '^gpubpf_drmsched_jobs_behind_(sum|count|bucket\{.*ring="gfx",le="(1|3|7|15)"\})' "$S/depth.prom" |
		grep 'ring="gfx"' | awk '{ print $2 }' | paste -sd' ')" "2 4 8 10 45 10"

# 3o. --timeline: the same jobs as -e's (traced at once), as slices a
#     timeline viewer reads: one per job on its ring's track, named by the
#     submitting process, lasting its execution; never overlapping on a
#     track; a flow from each submitter to its job and along gfx's chain.
if frontend_checks "--timeline"; then
	expect_error "$P --timeline: a directory that is not there" 1 \
		"^drmsched: --timeline /nonexistent/t.json: No such file or directory$" \
		"$T" --timeline /nonexistent/t.json
	start "$S/tl.ev" -e; tl_ev=$tool_pid
	start "$S/tl.out" --timeline "$S/tl.json"
	write_as tlgfx /proc/schedgen "submit ring=gfx jobs=10 exec_us=2000 deps=chain"
	write_as tlcomp /proc/schedgen "submit ring=compute jobs=5 exec_us=1000"
	drain
	for tool_pid in $tl_ev $tool_pid; do stop INT; done
	tl=$S/tl.json
	check_eq "$P --timeline: the file is JSON (an array of events)" "$(jq -r 'type' "$tl" 2>&1)" array
	check_eq "$P --timeline: job slices per ring track and name" \
		"$(tl_job_tracks "$tl")" "5 compute tlcomp,10 gfx tlgfx"
	check_eq "$P --timeline: the jobs are -e's (context:seqno)" \
		"$(jq -r '.[] | select(.ph == "X" and .cat == "job") | .args.job' "$tl" | sort | paste -sd' ')" \
		"$(awk '$2 == "DONE" { print $5 }' "$S/tl.ev" | sort | paste -sd' ')"
	check_eq "$P --timeline: each slice lasts its job's execution (>= exec_us), its args say so" \
		"$(jq -r '.[] | select(.ph == "X" and .cat == "job") | select(.dur < (if .name == "tlgfx" then 2000 else 1000 end) or .dur != .args.exec_us) | .args.job' "$tl")" ""
	check_eq "$P --timeline: no two slices of a track overlap" "$(tl_overlaps "$tl")" 0
	check_eq "$P --timeline: flows: 15 submissions and 9 links of gfx's chain, each begun and ended" \
		"$(tl_flows "$tl")" "24 24 0"
	check_eq "$P --timeline: the queued counter of each ring ends at 0" \
		"$(tl_counters_end "$tl")" "compute queued=0 gfx queued=0"
	check "$P --timeline: the summary still printed" grep -q "^DEV  *RING" "$S/tl.out"
fi

# 3o'. Outputs that cannot be written: -e to a tmpfs that fills up (8 KB,
#      600 lines of 200 jobs): one line at once, what was lost, tracing
#      ends by itself, exit 1. --timeline /dev/full: one line at once, the
#      -e lines all there, exit 1.
if frontend_checks "outputs that cannot be written"; then
	mkdir -p "$S/small"
	mount -t tmpfs -o size=8k none "$S/small"
	"$T" -e >"$S/small/ev.out" 2>"$S/small.err" &
	full_pid=$!
	wait_for_output "$S/small/ev.out" "$full_pid"
	submit ring=gfx jobs=200 exec_us=100
	drain
	wait "$full_pid"
	check_eq "$P -e to a full tmpfs: exit 1 by itself, one line naming stdout, the error and the bytes lost" \
		"$? $(stderr_of "$S/small.err" | sed -E 's/: [0-9]+ bytes/: N bytes/')" \
		"1 drmsched: stdout: cannot write: No space left on device: N bytes of output lost; tracing ends, the summary on stderr"
	umount "$S/small"
	start "$S/tlfull.out" -e --timeline /dev/full
	submit ring=gfx jobs=3 exec_us=1000
	drain
	stop INT
	check_eq "$P --timeline /dev/full: exit 1, one line at once, the events it lost at the end, the -e lines all there" \
		"$tool_status $(stderr_of "$S/tlfull.out.err" | sed -E 's/: [1-9][0-9]* events/: N events/') $(awk '$2 ~ /^(QUEUE|RUN|DONE)$/' "$S/tlfull.out" | wc -l)" \
		"1 drmsched: --timeline /dev/full: cannot write: No space left on device: the timeline ends here
drmsched: --timeline /dev/full: N events not written 9"
fi

# 3p. One clock: cudatrace's timeline (CUDA calls through the test suite's
#     fake libcuda, tests/cuda) and drmsched's, written at once, merge with
#     jq into one file that keeps both; a job queued before the calls and
#     one after them frame the calls in the merged file's time.
if frontend_checks "cudatrace's timeline merged"; then
	W=$PWD/build/tests/cuda/workload
	rm -f "$S/cu-go"
	"$W" --wait "$S/cu-go" launch >"$S/cu.wl" 2>&1 &
	cu_wl=$!
	for _ in $(seq 1 100); do grep -qs '^waiting' "$S/cu.wl" && break; nap 0.1; done
	start "$S/mg.out" --timeline "$S/mg-jobs.json"; mg_drm=$tool_pid
	start_tool "$S/mg-cu.out" "$PWD/bin/cudatrace" -p "$cu_wl" --timeline "$S/mg-cuda.json"; mg_cu=$tool_pid
	write_as mgbefore /proc/schedgen "submit ring=gfx jobs=1 exec_us=1000"
	sleep 0.2
	touch "$S/cu-go"
	wait "$cu_wl"
	sleep 0.2
	write_as mgafter /proc/schedgen "submit ring=gfx jobs=1 exec_us=1000"
	drain
	for _ in $(seq 1 50); do kill -0 "$mg_cu" 2>/dev/null || break; nap 0.1; done
	tool_pid=$mg_cu; stop INT
	tool_pid=$mg_drm; stop INT
	jq -s add "$S/mg-jobs.json" "$S/mg-cuda.json" >"$S/mg.json"
	check_eq "$P merged timeline: both files' slices: 2 jobs and cudatrace's 9 calls" \
		"$(jq -r '[.[] | select(.ph == "X" and .cat == "job")] | length' "$S/mg.json") $(jq -r '[.[] | select(.ph == "X" and (.cat | startswith("cuda")))] | length' "$S/mg.json")" \
		"2 8"
	check_eq "$P merged timeline: one clock: the calls between the job queued before and the one after" \
		"$(jq -r '(map(select(.ph == "X" and .cat == "submit")) | sort_by(.ts)) as $q |
		[.[] | select(.ph == "X" and (.cat | startswith("cuda"))) | select(.ts > $q[0].ts and .ts + .dur < $q[1].ts)] | length' "$S/mg.json")" 8
fi

# 3i. The driver unloaded mid-trace: what was gathered is still reported.
start "$S/rmmod.out"
submit ring=compute jobs=4 exec_us=1000
drain
rmmod schedgen
check "$P schedgen unloaded while tracing" test ! -e /proc/schedgen
stop INT
check_eq "$P after rmmod: exit 0" "$tool_status" 0
check_eq "$P after rmmod: the 4 jobs are reported by ring name" \
	"$(ring_row "$S/rmmod.out" compute | cut -d' ' -f1-3)" "4 4 4"

# ---------------------------------------------------------------------------
# 4. A burst at make bench's rate: 20000 jobs of 0 us, 64 on the ring at once,
#    pushed as fast as the kernel takes them. Every job is counted, in the
#    summary, in interval summaries (counters that only grow, each summary
#    their gain since the one before: none is lost or counted twice), and -e
#    prints every event.
BURST=20000
load_module "$SCHEDGEN_KO" rings=gfx credits=64 || exit 1
start "$S/burst.out"
submit ring=gfx jobs=$BURST exec_us=0
drain
stop INT
check_eq "$P burst of $BURST: summary counts every job queued, run, done" \
	"$(ring_row "$S/burst.out" gfx | cut -d' ' -f1-3)" "$BURST $BURST $BURST"
check_eq "$P burst of $BURST: execution histogram counts every job" \
	"$(hist_stats "$S/burst.out" "/gfx execution" | cut -d' ' -f1)" "$BURST"
quiet "$P burst of $BURST: nothing dropped or lost (stderr empty)" "$S/burst.out.err"

: >"$S/burst-int.out"
timeout 600 "$T" 1 >"$S/burst-int.out" 2>"$S/burst-int.err" &
tool_pid=$!
wait_for_output "$S/burst-int.out" "$tool_pid"
# 10 ms each, 64 at a time: >= 3 s, so summaries are taken mid-burst.
submit ring=gfx jobs=$BURST exec_us=10000
drain
sleep 1.5    # the last interval ends
stop INT
check_eq "$P burst of $BURST, 1 s intervals: queued, run, done summed over intervals" \
	"$(awk '$2 == "gfx" && NF == 9 && $3 ~ /^[0-9]+$/ { q += $3; r += $4; d += $5 } END { print q, r, d }' "$S/burst-int.out")" \
	"$BURST $BURST $BURST"
check_ge "$P burst of $BURST, 1 s intervals: spread over several summaries" \
	"$(grep -c '^DEV  *RING' "$S/burst-int.out")" 3
quiet "$P burst of $BURST, 1 s intervals: nothing dropped or lost" "$S/burst-int.err"

start "$S/burst-e.out" -e --timeline "$S/burst.json"
submit ring=gfx jobs=$BURST exec_us=0
drain
stop INT
# (One event a line, as timeline.c writes them: jq takes 20 s on this file under qemu.)
check_eq "$P -e --timeline burst of $BURST: a slice for every job, none drawn over another" \
	"$(grep -c '^\[\?{"ph":"X","pid":[0-9]*,"tid":[0-9]*,"name":"[^"]*","cat":"job",' "$S/burst.json")" "$BURST"
for ev in QUEUE RUN DONE; do
	check_eq "$P -e burst of $BURST: every $ev line printed" \
		"$(awk -v e=$ev '$2 == e' "$S/burst-e.out" | wc -l)" "$BURST"
done
quiet "$P -e burst of $BURST: no event lost (stderr empty)" "$S/burst-e.out.err"
check_eq "$P -e burst of $BURST: every job's three lines share its context:seqno" \
	"$(awk '$2 ~ /QUEUE|RUN|DONE/ { n[$5]++ } END { for (j in n) if (n[j] == 3) c++; print c }' "$S/burst-e.out")" "$BURST"
rmmod schedgen
