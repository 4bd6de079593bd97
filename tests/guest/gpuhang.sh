#!/usr/bin/env bash
# vm-kernels: 6.1 sid
# gpuhang on a real kernel, run inside the VM by tests/run: the real DRM
# scheduler's timeout handling (module gpu-sched), driven by the test module
# schedgen (tests/kmod) loaded with a job timeout: a job submitted with
# hang=1 never signals, the scheduler's timeout handler calls schedgen's
# timedout_job, which recovers as amdgpu does (stop with the bad job, karma,
# resubmit, start). The workloads have a known shape, so which job is
# blamed, whose, in which cgroup, what ran beside it, how many jobs were
# run again or lost, and the flight recorder's lines are exact; times are
# not asserted.
#
# 6.1 has the gpu_scheduler events of <= 6.16, sid those of >= 6.17 (and
# drm_sched_start(sched, errno), drm_dev_wedged_event()); 5.10's gpu_sched
# has no BTF, which drmsched-nobtf.sh checks gpuhang refuses in one line,
# on every kernel.
#
# Environment (from tests/vm/run and tests/run): VM_KERNEL, VM_SCRATCH,
# VM_MODPROBE, SCHEDGEN_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init gpuhang

# submit_as NAME CGROUP ARGS...: a submit to the generator ($gen: schedgen,
# or amdgen) from a process called NAME (a copy of dash) in cgroup v2
# directory CGROUP; its PID: pid_of NAME.
gen=/proc/schedgen
submit_as() {
	cp -f /bin/dash "$S/$1"
	in_cgroup "$2" "$S/$1" -c 'echo $$ >"$1"; printf "%s\n" "$2" >"$3"' \
		"$1" "$S/$1.pid" "submit ${*:3}" "$gen"
}
status() { tr '\n' ' ' <$gen | sed 's/ $//'; }
# Text lines of EVENT (TIMEOUT, RECOVERED, ...) in FILE, columns from # on.
lines_of() { awk -v e="$2" '$2 == e { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' "$1"; }
# What gpuhang says on stderr of this kernel: what it lacks.
if [ "$K" = 6.1 ]; then
	lacks="gpuhang: drm has no function drm_dev_wedged_event (Linux < 6.14): wedged devices not traced"
else
	lacks=""
fi

# ---------------------------------------------------------------------------
# 1. No driver: no scheduler, and the error says which module.
expect_error "$P no driver loaded: names gpu-sched and the drivers" 1 \
	"^gpuhang: no gpu_scheduler tracepoints: module gpu-sched is not loaded" "$T"

load_module gpu-sched || exit 1
load_module "${SCHEDGEN_KO:?}" rings=gfx,compute timeout_ms=2000 credits=2 || exit 1

# ---------------------------------------------------------------------------
# 2. One hang on ring gfx, two cgroups. busy (A) runs 3 jobs that finish;
#    hanger (A) submits the job that never signals; longrun (B) one that
#    runs 10 s beside it, past the 2 s timeout; behind (B) two jobs queued
#    behind the hang (on its entity, after longrun's has run: they wait for
#    the ring's two slots). The timeout blames hanger's job; longrun's is
#    run again, hanger's lost; behind's run after. hanger and longrun
#    submit behind schedgen's gate, opened once all are queued: the timeout
#    runs from then, whatever the time the writers took. Four tracers at once: -e -C, -j, text with
#    --timeline and --prometheus, and -p of a process that hangs nothing.
cg=/sys/fs/cgroup/gpuhang
mkdir -p "$cg/A" "$cg/B"
start "$S/e.out" -e -n 8 -C
e_pid=$tool_pid
start "$S/j.out" -j -n 8
j_pid=$tool_pid
start "$S/t.out" -n 8 --timeline "$S/tl.json" --prometheus "$S/gpuhang.prom"
t_pid=$tool_pid
start "$S/p.out" -p 1
p_pid=$tool_pid
submit_as busy "$cg/A" ring=gfx jobs=3 exec_us=1000 entity=3
echo wait >/proc/schedgen
echo "gate close" >/proc/schedgen
submit_as hanger "$cg/A" ring=gfx jobs=1 hang=1 entity=1 deps=gate
submit_as longrun "$cg/B" ring=gfx jobs=1 exec_us=10000000 entity=2 deps=gate
# (deps=ring:gfx: longrun's, the last job on gfx, scheduled; so behind's
# never take a slot before it, whichever entity the scheduler picks first.)
submit_as behind "$cg/B" ring=gfx jobs=2 exec_us=1000 entity=1 deps=ring:gfx
echo "gate open" >/proc/schedgen
echo "wait timeout_ms=60000" >/proc/schedgen || fail "$P the hang's jobs all ended"
check_eq "$P schedgen: one timeout, every job done" "$(status)" \
	"ring=gfx dev=schedgen submitted=7 completed=7 timeouts=1 ring=compute dev=schedgen submitted=0 completed=0 timeouts=0"
stop_tools "$P hang" $e_pid $j_pid $t_pid $p_pid
hanger=$(pid_of hanger) longrun=$(pid_of longrun) behind=$(pid_of behind) busy=$(pid_of busy)

# The job blamed, named as drmsched names it: the -j object's context:seqno.
job=$(jrows "$S/j.out" incident 'select(.event == "TIMEOUT") | .job')
check "$P the job blamed has a name" test -n "$job"
check_eq "$P text: one incident, blaming hanger's job; longrun and behind beside it" \
	"$(lines_of "$S/t.out" TIMEOUT | awk '{ $8 = "RAN"; print }')" \
	"1 schedgen schedgen gfx $job $hanger hanger RAN - - - $longrun:longrun,$behind:behind - -"
check_eq "$P text: its recovery: one job run again, one lost" \
	"$(lines_of "$S/t.out" RECOVERED | awk '{ $9 = "OUT"; print }')" \
	"1 schedgen schedgen gfx - - - - OUT 1 1 - - -"
# The flight recorder: the device's last 7 jobs, oldest first, as they
# stood at the timeout.
check_eq "$P text: the flight recorder's lines" \
	"$(awk '/^QUEUED/ { on = 1; next } on && NF == 8 { print $2, $4, $5, $8 } /RECOVERED/ { on = 0 }' "$S/t.out" | sed "s/$hanger /H /; s/$longrun /L /; s/$behind /B /; s/$busy /U /")" \
	"gfx U busy done
gfx U busy done
gfx U busy done
gfx H hanger running
gfx L longrun running
gfx B behind queued
gfx B behind queued"
check_eq "$P text: summary per ring" "$(awk '$1 == "schedgen" && NF == 10' "$S/t.out" | awk '{ $9 = $10 = "T"; print }')" \
	"schedgen schedgen gfx 1 0 1 1 1 T T"
check_eq "$P text: summary per process name blamed" "$(awk '$1 == "schedgen" && NF == 5 { $1 = $1; print }' "$S/t.out")" \
	"schedgen gfx TIMEOUT hanger 1"
check_eq "$P text: on stderr only what the kernel lacks" "$(cat "$S/t.out.err")" "$lacks"

# -e: the recovery's steps, in order, with the cgroups (-C).
check_eq "$P -e: the incident and each step of its recovery" \
	"$(awk '$3 == 1 { print $2, $7, $8, $9 }' "$S/e.out")" \
	"TIMEOUT $job $hanger hanger
STOP $job $hanger hanger
KARMA $job $hanger hanger
RESUBMIT - - -
RECOVERED - - -"
check_eq "$P -e -C: the job blamed's container, pod and cgroup" \
	"$(lines_of "$S/e.out" TIMEOUT | awk '{ print $(NF - 2), $(NF - 1), $NF }')" "- - /gpuhang/A"
check_eq "$P -e -C: the recorder's cgroups" \
	"$(awk '/^QUEUED/ { on = 1; next } on && NF == 11 { print $5, $9, $10, $11 } /STOP/ { on = 0 }' "$S/e.out" | sort | uniq -c | awk '{ print $2, $3, $4, $5, $1 }')" \
	"behind - - /gpuhang/B 2
busy - - /gpuhang/A 3
hanger - - /gpuhang/A 1
longrun - - /gpuhang/B 1"

# -j: the same, as objects; the recorder's jobs name their incident.
check_eq "$P -j: the incident" \
	"$(jrows "$S/j.out" incident 'select(.event == "TIMEOUT") | "\(.incident) \(.dev) \(.driver) \(.ring) \(.context):\(.seqno) \(.pid) \(.comm) \(.ran_us > 0) \(.others)"')" \
	"1 schedgen schedgen gfx $job $hanger hanger true $longrun:longrun,$behind:behind"
check_eq "$P -j: its recovery" \
	"$(jrows "$S/j.out" incident 'select(.event == "RECOVERED") | "\(.incident) \(.ring) \(.resubmitted) \(.lost) \(.out_us >= 0)"')" \
	"1 gfx 1 1 true"
check_eq "$P -j: the recorder's jobs" \
	"$(jrows "$S/j.out" recorded '"\(.incident) \(.ring) \(.comm) \(.state)"' | paste -sd,)" \
	"1 gfx busy done,1 gfx busy done,1 gfx busy done,1 gfx hanger running,1 gfx longrun running,1 gfx behind queued,1 gfx behind queued"
check_eq "$P -j: the recorder names the blamed job as the incident does" \
	"$(jrows "$S/j.out" recorded 'select(.comm == "hanger") | .job')" "$job"
check_eq "$P -j: summary rows" \
	"$(jrows "$S/j.out" ring '"\(.ring) \(.timeouts) \(.faults) \(.recovered) \(.resubmitted) \(.lost)"'; jrows "$S/j.out" culprit '"\(.ring) \(.kind) \(.comm) \(.incidents)"')" \
	"gfx 1 0 1 1 1
gfx TIMEOUT hanger 1"

# -p of another process: the incident is not its; nothing printed, nothing counted.
check_eq "$P -p: an incident blaming another process is left out" \
	"$(grep -cE 'TIMEOUT|RECOVERED' "$S/p.out")" 0

# --prometheus: what the summary says, per kind, driver, device, ring, comm.
check "$P --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$S/gpuhang.prom'"
check_eq "$P --prometheus: the incident and its recovery" \
	"$(grep -E '^gpubpf_gpuhang_(incidents|recoveries|jobs_resubmitted|jobs_lost)_total' "$S/gpuhang.prom")" \
	'gpubpf_gpuhang_incidents_total{kind="timeout",driver="schedgen",device="schedgen",ring="gfx",comm="hanger"} 1
gpubpf_gpuhang_recoveries_total{driver="schedgen",device="schedgen",ring="gfx"} 1
gpubpf_gpuhang_jobs_resubmitted_total{driver="schedgen",device="schedgen",ring="gfx"} 1
gpubpf_gpuhang_jobs_lost_total{driver="schedgen",device="schedgen",ring="gfx"} 1'

# --timeline: the incident on the device's track of its ring, the recovery a slice.
check_eq "$P --timeline: the incident and its recovery on schedgen's gfx track" \
	"$(jq -r --arg job "$job" '
		(map(select(.ph == "M" and .name == "process_name")) | map({(.pid | tostring): .args.name}) | add) as $p |
		(map(select(.ph == "M" and .name == "thread_name")) | map({("\(.pid)/\(.tid)"): .args.name}) | add) as $t |
		.[] | select(.ph == "i" or .ph == "X") |
		"\($p[.pid | tostring]) \($t["\(.pid)/\(.tid)"]) \(.ph) \(.name) \(.args.incident) \(.args.job // .args.resubmitted) \(.args.comm // .args.lost)"' "$S/tl.json")" \
	"GPU schedgen gfx i TIMEOUT 1 $job hanger
GPU schedgen gfx X recovery 1 1 1"

# ---------------------------------------------------------------------------
# 3. A fault: drm_sched_fault() runs the timeout handler at once.
start "$S/f.out" -j -n 0
submit_as faulty "$cg/A" ring=compute jobs=1 hang=1
echo "fault ring=compute" >/proc/schedgen
echo "wait timeout_ms=60000" >/proc/schedgen
stop
check_eq "$P fault: one incident of kind FAULT, blaming faulty's job, recovered" \
	"$(jrows "$S/f.out" incident '"\(.event) \(.ring) \(.comm // "-") \(.lost // "-")"')" \
	"FAULT compute faulty -
RECOVERED compute - 1"
check_eq "$P fault: counted as a fault" \
	"$(jrows "$S/f.out" ring '"\(.ring) \(.timeouts) \(.faults)"')" "compute 0 1"

# ---------------------------------------------------------------------------
# 4. The module unloaded mid-incident: rmmod waits for the timeout to
#    recover the hung job; the tracer sees both and ends with its summary.
start "$S/u.out" -n 0
submit_as gone "$cg/B" ring=gfx jobs=1 hang=1
# Unloading before the job ran would run it at once (no hang): it runs
# within milliseconds of its push; the second leaves room for a slow guest.
sleep 1
rmmod schedgen || fail "$P rmmod schedgen with a hung job"
stop
check_eq "$P unloaded mid-incident: exit 0" "$tool_status" 0
check_eq "$P unloaded mid-incident: its incident and recovery" \
	"$(lines_of "$S/u.out" TIMEOUT | awk '{ print $4, $7 }'; lines_of "$S/u.out" RECOVERED | awk '{ print $4, $11 }')" \
	"gfx gone
gfx 1"
check_eq "$P unloaded mid-incident: on stderr only what the kernel lacks" "$(cat "$S/u.out.err")" "$lacks"

# ---------------------------------------------------------------------------
# 5. A storm: 1000 jobs that hang, one after the other, each timed out
#    after a jiffy or so. Every incident is counted, as many as schedgen's
#    handler was called (which can be more than 1000: the scheduler's
#    handler may take the job before, done but not yet freed, from the
#    ring's list); every job run again or lost; every record printed or
#    counted as lost.
load_module "$SCHEDGEN_KO" timeout_ms=1 || exit 1
start "$S/s.out" -j -n 0
submit_as storm "$cg/A" ring=gfx jobs=1000 hang=1
echo "wait timeout_ms=600000" >/proc/schedgen || fail "$P storm: the jobs all ended"
stop
timeouts=$(sed -n 's/^ring=gfx .* timeouts=//p' /proc/schedgen)
check_eq "$P storm: schedgen's 1000 jobs done, each timed out" "$(status | sed 's/ timeouts=.*//')" \
	"ring=gfx dev=schedgen submitted=1000 completed=1000"
check_ge "$P storm: schedgen's handler called at least once a job ($timeouts)" "$timeouts" 1000
check_eq "$P storm: every call an incident and a recovery; each job run again or lost" \
	"$(jrows "$S/s.out" ring '"\(.timeouts) \(.recovered) \(.resubmitted + .lost)"')" "$timeouts $timeouts 1000"
lines=$(jrows "$S/s.out" incident .event | wc -l)
lost=$(jrows "$S/s.out" lost 'select(.what == "events") | .count')
check_eq "$P storm: every record printed or counted lost ($lines printed)" "$((lines + ${lost:-0}))" \
	"$((2 * timeouts))"
unload_module schedgen

# ---------------------------------------------------------------------------
# 6. A ring reset and a device wedged (sid: drm_dev_wedged_event()
#    naming a task is 6.17+). schedgen recovers as amdgpu's ring reset
#    and xe do (recovery=ring): the scheduler's work queue stopped, the
#    bad job force-completed, the queue started, the job beside it going
#    on; its DRM device (wedged=1) then raises the wedged event as amdgpu
#    does, with recovery "none" and the bad job's task: part of that
#    incident. "wedge" raises it as xe and i915 do when a reset failed,
#    with the methods and no task: an incident of its own, with the
#    device's last jobs. drm's own log line of each is the independent
#    count.
if [ "$K" = 6.1 ]; then
	if insmod "$SCHEDGEN_KO" wedged=1 2>/dev/null; then
		fail "$P 6.1: schedgen wedged=1 loaded without drm_dev_wedged_event()"
		rmmod schedgen
	else
		pass "$P 6.1: schedgen wedged=1 refused (no drm_dev_wedged_event())"
	fi
else
	dmesg -C
	load_module "$SCHEDGEN_KO" timeout_ms=1000 credits=2 recovery=ring wedged=1 || exit 1
	start "$S/w.out" -n 4
	w_pid=$tool_pid
	start "$S/wj.out" -j -e -n 4 --prometheus "$S/w.prom" --timeline "$S/wtl.json"
	wj_pid=$tool_pid
	start "$S/wc.out" -j -c wedger
	wc_pid=$tool_pid
	echo "gate close" >/proc/schedgen
	submit_as wedger "$cg/A" ring=gfx jobs=1 hang=1 entity=1 deps=gate
	submit_as bystander "$cg/B" ring=gfx jobs=1 exec_us=5000000 entity=2 deps=gate
	echo "gate open" >/proc/schedgen
	echo "wait timeout_ms=60000" >/proc/schedgen || fail "$P wedged: the hung job ended"
	check_eq "$P ring reset: one timeout, both jobs done" "$(status)" \
		"ring=gfx dev=schedgen submitted=2 completed=2 timeouts=1"
	echo "wedge recovery=rebind,bus-reset" >/proc/schedgen || fail "$P wedged: schedgen's wedge"
	stop_tools "$P wedged" $w_pid $wj_pid $wc_pid
	wedger=$(pid_of wedger)
	check_eq "$P wedged: drm logged one recovered, one needing recovery" \
		"$(dmesg | grep -o 'device wedged.*')" "device wedged, but no recovery needed
device wedged, needs recovery"
	check_eq "$P wedged: text: the timeout, its wedged event, a wedged incident of its own" \
		"$(awk '$2 ~ /^(TIMEOUT|WEDGED)$/ { print $2, $3, $4, $5, $6, $8, $9, $(NF - 1) }' "$S/w.out")" \
		"TIMEOUT 1 schedgen schedgen gfx $wedger wedger -
WEDGED 1 schedgen schedgen - $wedger wedger none
WEDGED 2 schedgen schedgen - - - rebind,bus-reset"
	check_eq "$P wedged: text: the device's last job under the timeout and the wedged incident" \
		"$(awk '$2 ~ /^[A-Z]+$/ && $3 ~ /^[0-9]+$/ { ev = $2 " " $3; q = 0; next }
			/^QUEUED/ { q = 1; next } q && NF == 8 { print ev, $2, $5, $8; next } { q = 0 }' "$S/w.out")" \
		"TIMEOUT 1 gfx wedger running
TIMEOUT 1 gfx bystander running
WEDGED 2 gfx wedger error:ETIME
WEDGED 2 gfx bystander done"
	check_eq "$P wedged: text: summary per process blamed" \
		"$(awk '$1 == "schedgen" && NF == 5 { $1 = $1; print }' "$S/w.out")" \
		"schedgen - WEDGED - 1
schedgen - WEDGED wedger 1
schedgen gfx TIMEOUT wedger 1"
	check_eq "$P wedged: on stderr nothing" "$(cat "$S/w.out.err")" ""
	check_eq "$P ring reset, wedged: -j -e: the incidents, the ring reset's stop and end" \
		"$(jrows "$S/wj.out" incident '"\(.event) \(.incident) \(.ring // "-") \(.pid // "-") \(.comm // "-") \(.resubmitted // "-") \(.lost // "-") \(.recovery // "-")"')" \
		"TIMEOUT 1 gfx $wedger wedger - - -
STOP 1 gfx - - - - -
RECOVERED 1 gfx - - 1 1 -
WEDGED 1 - $wedger wedger - - none
WEDGED 2 - - - - - rebind,bus-reset"
	check_eq "$P wedged: -j: the recorder of the wedged incident" \
		"$(jrows "$S/wj.out" recorded '"\(.incident) \(.ring) \(.comm) \(.state)"' | grep '^2 ')" "2 gfx wedger error:ETIME
2 gfx bystander done"
	check_eq "$P wedged: -c: the events naming the process only" \
		"$(jrows "$S/wc.out" incident '"\(.event) \(.incident)"' | paste -sd,)" "TIMEOUT 1,RECOVERED 1,WEDGED 1"
	check "$P wedged: --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$S/w.prom'"
	check_eq "$P wedged: --prometheus: per kind, the device's ring \"-\"" \
		"$(grep '^gpubpf_gpuhang_incidents_total' "$S/w.prom" | sort)" \
		'gpubpf_gpuhang_incidents_total{kind="timeout",driver="schedgen",device="schedgen",ring="gfx",comm="wedger"} 1
gpubpf_gpuhang_incidents_total{kind="wedged",driver="schedgen",device="schedgen",ring="-",comm="-"} 1
gpubpf_gpuhang_incidents_total{kind="wedged",driver="schedgen",device="schedgen",ring="-",comm="wedger"} 1'
	check_eq "$P wedged: --timeline: the wedged events on the device's track" \
		"$(jq -r '(map(select(.ph == "M" and .name == "thread_name")) | map({("\(.pid)/\(.tid)"): .args.name}) | add) as $t |
			.[] | select(.ph == "i") | "\($t["\(.pid)/\(.tid)"]) \(.name) \(.args.incident) \(.args.comm // "-")"' "$S/wtl.json")" \
		"gfx TIMEOUT 1 wedger
device WEDGED 1 wedger
device WEDGED 2 -"
	unload_module schedgen
fi

# ---------------------------------------------------------------------------
# 7. amdgpu's whole GPU reset, amdgpu_device_gpu_recover(adev, job,
#    context): amdgen (schedgen playing amdgpu, tests/kmod) recovers a
#    timeout inside it, as amdgpu's timeout handler does up to 6.12: a
#    RESET line after RECOVERED, part of the incident, naming its job;
#    "gpu_reset src=2" is one RAS asks, without a job: an incident of its
#    own. Its cause is in the context from 6.12 (sid), not on 6.1.
#    Each reset takes a device coredump, which the kernel keeps until read
#    (its view: /sys/class/devcoredump): the timeout's is discarded, as a
#    dump taken before the tracers started is still unread; the RAS
#    reset's, once that one is read, is kept: a COREDUMP line of its
#    incident naming the kernel's devcd.
gen=/proc/amdgen
# devcd_of DEV: the coredumps the kernel keeps of device DEV.
devcd_of() {
	local d
	for d in /sys/class/devcoredump/devcd*; do
		[ "$(basename "$(readlink "$d/failing_device")")" = "$1" ] && basename "$d"
	done
}
# devcd_free DEVCD: read (freed, at once, by the kernel's work queue).
devcd_free() {
	local i
	echo 1 >"/sys/class/devcoredump/$1/data"
	for i in $(seq 100); do [ -e "/sys/class/devcoredump/$1" ] || return 0; sleep 0.1; done
	fail "$P reset: /sys/class/devcoredump/$1 freed"
}
load_module "${AMDGEN_KO:?}" rings=gfx timeout_ms=1000 || exit 1
echo gpu_reset >$gen || fail "$P reset: amdgen's gpu_reset before the tracers"
unread=$(devcd_of amdgen)
start "$S/a.out" -n 2
a_pid=$tool_pid
start "$S/aj.out" -j -e -n 2 --prometheus "$S/a.prom" --timeline "$S/atl.json"
aj_pid=$tool_pid
submit_as resetter "$cg/A" ring=gfx jobs=1 hang=1
echo "wait timeout_ms=60000" >$gen || fail "$P reset: the hung job ended"
check_eq "$P reset: the kernel kept the unread dump only" "$(devcd_of amdgen | paste -sd,)" "$unread"
devcd_free "$unread"
echo "gpu_reset src=2" >$gen || fail "$P reset: amdgen's gpu_reset"
kept=$(devcd_of amdgen)
stop_tools "$P reset" $a_pid $aj_pid
resetter=$(pid_of resetter)
check_eq "$P reset: the RAS reset's dump kept, naming no job" \
	"$(echo "$kept" | wc -w) $(cat "/sys/class/devcoredump/$kept/data")" "1 job=none"
devcd_free "$kept"
if [ "$K" = 6.1 ]; then job_cause= ras_cause=; else job_cause="(job)" ras_cause="(ras)"; fi
check_eq "$P reset: text: the timeout, its recovery and GPU reset, a reset of its own and its dump" \
	"$(awk '$2 ~ /^(TIMEOUT|RECOVERED|RESET|COREDUMP)$/ { print $2, $3, $4, $5, $6, $8, $9, $(NF - 1), $NF }' "$S/a.out")" \
	"TIMEOUT 1 amdgen amdgen gfx $resetter resetter - -
RECOVERED 1 amdgen amdgen gfx - - - -
RESET 1 amdgen amdgen - $resetter resetter gpu-reset$job_cause -
COREDUMP 2 amdgen amdgen - - - - $kept
RESET 2 amdgen amdgen - - - gpu-reset$ras_cause -"
check_eq "$P reset: text: summary per ring and device" \
	"$(awk '$1 == "amdgen" && NF == 10 { $9 = $10 = "T"; print }' "$S/a.out")" \
	"amdgen amdgen - 0 0 2 0 0 T T
amdgen amdgen gfx 1 0 1 0 1 T T"
check_eq "$P reset: text: summary per process blamed" \
	"$(awk '$1 == "amdgen" && NF == 5 { $1 = $1; print }' "$S/a.out")" \
	"amdgen - RESET - 1
amdgen - RESET resetter 1
amdgen - COREDUMP - 1
amdgen gfx TIMEOUT resetter 1"
check_eq "$P reset: text: on stderr only what the kernel lacks" "$(cat "$S/a.out.err")" "$lacks"
job=$(jrows "$S/aj.out" incident 'select(.event == "TIMEOUT") | .job')
check_eq "$P reset: -j -e: the incident's steps, the reset naming its job, the RAS reset" \
	"$(jrows "$S/aj.out" incident '"\(.event) \(.incident) \(.ring // "-") \(.job // "-") \(.comm // "-") \(.out_us != null) \(.recovery // "-")"')" \
	"TIMEOUT 1 gfx $job resetter false -
STOP 1 gfx $job resetter false -
KARMA 1 gfx $job resetter false -
RESUBMIT 1 gfx - - false -
RECOVERED 1 gfx - - true -
RESET 1 - $job resetter true gpu-reset$job_cause
COREDUMP 2 - - - false -
RESET 2 - - - true gpu-reset$ras_cause"
check_eq "$P reset: -j: the dump's name and size, as the kernel's" \
	"$(jrows "$S/aj.out" incident 'select(.event == "COREDUMP") | "\(.dump) \(.dump_bytes)"')" \
	"$kept $(printf 'job=none\n' | wc -c)"
check_eq "$P reset: -j: the RAS reset's recorder (-n 2), the reset's none" \
	"$(jrows "$S/aj.out" recorded '"\(.incident) \(.ring) \(.comm) \(.state)"' | paste -sd,)" \
	"1 gfx resetter running,2 gfx resetter error:ECANCELED"
check "$P reset: --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$S/a.prom'"
check_eq "$P reset: --prometheus: resets per process name, recoveries per ring and device" \
	"$(grep -E '^gpubpf_gpuhang_(incidents|recoveries)_total' "$S/a.prom" | sort)" \
	'gpubpf_gpuhang_incidents_total{kind="coredump",driver="amdgen",device="amdgen",ring="-",comm="-"} 1
gpubpf_gpuhang_incidents_total{kind="reset",driver="amdgen",device="amdgen",ring="-",comm="-"} 1
gpubpf_gpuhang_incidents_total{kind="reset",driver="amdgen",device="amdgen",ring="-",comm="resetter"} 1
gpubpf_gpuhang_incidents_total{kind="timeout",driver="amdgen",device="amdgen",ring="gfx",comm="resetter"} 1
gpubpf_gpuhang_recoveries_total{driver="amdgen",device="amdgen",ring="-"} 2
gpubpf_gpuhang_recoveries_total{driver="amdgen",device="amdgen",ring="gfx"} 1'
check_eq "$P reset: --timeline: the resets as slices on the device's track" \
	"$(jq -r '(map(select(.ph == "M" and .name == "thread_name")) | map({("\(.pid)/\(.tid)"): .args.name}) | add) as $t |
		.[] | select(.ph == "X") | "\($t["\(.pid)/\(.tid)"]) \(.name) \(.args.incident)"' "$S/atl.json")" \
	"gfx recovery 1
device gpu-reset 1
device gpu-reset 2"
# An amdgpu GPU VM fault (6.12+: amdgpu_vm_update_fault_cache()): amdgen
# plays the GMC's interrupt handler for the writer's PASID (the process
# looked up, the fault logged, then kept): a PAGEFAULT of its own on the
# device, naming the process and the address the driver's log names.
if [ "$K" != 6.1 ]; then
	start "$S/v.out" -n 0
	v_pid=$tool_pid
	start "$S/vj.out" -j -c faulter
	vj_pid=$tool_pid
	start "$S/vo.out" -j -c other
	vo_pid=$tool_pid
	dmesg -C
	write_as faulter $gen "vm_fault pasid=42 addr=0x7f0012345000 status=0x841051 hub=0" ||
		fail "$P VM fault: amdgen's vm_fault"
	stop_tools "$P VM fault" $v_pid $vj_pid $vo_pid
	faulter=$(pid_of faulter)
	check_eq "$P VM fault: the driver's log line" "$(dmesg | grep -o 'page fault.*')" \
		"page fault (pasid:42, for process faulter pid $faulter) at address 0x00007f0012345000"
	check_eq "$P VM fault: text: the process and address the log names" \
		"$(awk '$2 == "PAGEFAULT" { print $3, $4, $5, $6, $8, $9, $NF }' "$S/v.out")" \
		"1 amdgen amdgen - $faulter faulter 0x7f0012345000"
	check_eq "$P VM fault: -j -c: the fault's address, VM hub and status" \
		"$(jrows "$S/vj.out" incident '"\(.event) \(.pid) \(.comm) \(.address) \(.vmhub) \(.status)"')" \
		"PAGEFAULT $faulter faulter 0x7f0012345000 0 0x841051"
	check_eq "$P VM fault: -c of another process: nothing" "$(jrows "$S/vo.out" incident .event | wc -l)" 0
fi
unload_module amdgen

# ---------------------------------------------------------------------------
# 8. i915, which has no DRM scheduler: gemgen (tests/kmod, on no device)
#    plays its hang handling: an engine reset (__intel_engine_reset_bh)
#    that resets the writer's request on rcs0 as guilty
#    (__i915_request_reset): a TIMEOUT naming the request as its fence
#    does and the owner of its context, ended by a RESET with its time;
#    then the same reset by a GT reset (intel_gt_reset): a RESET
#    gpu-reset of the device; then a GT reset that fails, wedging the GT
#    (intel_gt_set_wedged): gpu-reset:EIO, and where drm has no wedged
#    event (6.1) a WEDGED line, as i915 names it from 6.14; then a GT
#    wedged with no reset, as i915's unload does: no line.
load_module "${GEMGEN_KO:?}" || exit 1
start "$S/i.out" -n 0
i_pid=$tool_pid
start "$S/ij.out" -j --prometheus "$S/i.prom" --timeline "$S/itl.json"
ij_pid=$tool_pid
write_as i915user /proc/gemgen "hang
gt_reset
gt_reset_fail
gt_wedge" || fail "$P i915: gemgen's hang, gt_reset, gt_reset_fail, gt_wedge"
stop_tools "$P i915" $i_pid $ij_pid
i915user=$(pid_of i915user)
if [ "$K" = 6.1 ]; then
	wedged="
WEDGED 3 - - - - - rebind,bus-reset" wedged_j="
WEDGED 3 null true - false" wedged_c="- - WEDGED - 1
" wedged_p='
gpubpf_gpuhang_incidents_total{kind="wedged",driver="-",device="-",ring="-",comm="-"} 1'
else
	wedged= wedged_j= wedged_c= wedged_p=
fi
check_eq "$P i915: text: the requests blamed, their owner; the engine and GT resets" \
	"$(awk '$2 ~ /^(TIMEOUT|RESET|RECOVERED|WEDGED)$/ { print $2, $3, $4, $5, $6, $8, $9, $(NF - 1) }' "$S/i.out")" \
	"TIMEOUT 1 - - rcs0 $i915user i915user -
RESET 1 - - rcs0 - - engine-reset
TIMEOUT 2 - - rcs0 $i915user i915user -
RESET 2 - - - - - gpu-reset
TIMEOUT 3 - - rcs0 $i915user i915user -$wedged
RESET 3 - - - - - gpu-reset:EIO"
check_eq "$P i915: text: summary per engine, GT and process blamed" \
	"$(awk '$1 == "-" && NF == 10 { $9 = $10 = "T"; print }; $1 == "-" && NF == 5 { $1 = $1; print }' "$S/i.out")" \
	"- - - 0 0 2 0 0 T T
- - rcs0 3 0 1 0 0 T T
$wedged_c- rcs0 TIMEOUT i915user 3"
check_eq "$P i915: text: on stderr only what the kernel lacks" "$(cat "$S/i.out.err")" "$lacks"
check_eq "$P i915: -j: the request by its fence (context:seqno), the resets' time" \
	"$(jrows "$S/ij.out" incident '"\(.event) \(.incident) \(.ring) \((.job // "-") | test("^[0-9]+:1$") or . == "-") \(.pid // "-") \(.out_us != null)"')" \
	"TIMEOUT 1 rcs0 true $i915user false
RESET 1 rcs0 true - true
TIMEOUT 2 rcs0 true $i915user false
RESET 2 null true - true
TIMEOUT 3 rcs0 true $i915user false$wedged_j
RESET 3 null true - true"
check_eq "$P i915: --prometheus: the incidents, the engine's and GT's recoveries" \
	"$(grep -E '^gpubpf_gpuhang_(incidents|recoveries)_total' "$S/i.prom" | sort)" \
	"gpubpf_gpuhang_incidents_total{kind=\"timeout\",driver=\"-\",device=\"-\",ring=\"rcs0\",comm=\"i915user\"} 3$wedged_p
gpubpf_gpuhang_recoveries_total{driver=\"-\",device=\"-\",ring=\"-\"} 2
gpubpf_gpuhang_recoveries_total{driver=\"-\",device=\"-\",ring=\"rcs0\"} 1"
check_eq "$P i915: --timeline: the resets as slices, the engine's on its track, the GT's on the device's" \
	"$(jq -r '(map(select(.ph == "M" and .name == "thread_name")) | map({("\(.pid)/\(.tid)"): .args.name}) | add) as $t |
		.[] | select(.ph == "X") | "\($t["\(.pid)/\(.tid)"]) \(.name) \(.args.incident)"' "$S/itl.json")" \
	"rcs0 engine-reset 1
device gpu-reset 2
device gpu-reset 3"

# ---------------------------------------------------------------------------
# 9. xe's reports of an exec queue's incidents (xe: 6.8+, sid here):
#    gemgen plays them for the writer's queue, named rcs0 as its
#    scheduler is, on no device: the GuC reset its engine
#    (xe_exec_queue_reset), then a bad access of its memory
#    (xe_exec_queue_memory_cat_error), then a job's timeout xe found
#    real (xe_sched_job_timedout; the job never queued through the
#    scheduler: the queue's process blamed); each an incident naming the
#    queue's process. -c filters by it. Before them, schedgen as a driver
#    named xe: a job that hangs on its ring xering; the scheduler's timer
#    fires and the recovery runs, but on an xe ring only xe's own report
#    is a timeout (xe lets a job the GuC has not yet run for its time go
#    on): no incident, a recovery of none, the incidents after it 1, 2, 3.
if [ "$K" != 6.1 ]; then
	load_module "$SCHEDGEN_KO" rings=xering timeout_ms=1000 driver=xe || exit 1
	start "$S/x.out" -n 0
	x_pid=$tool_pid
	start "$S/xj.out" -j --prometheus "$S/x.prom"
	xj_pid=$tool_pid
	start "$S/xc.out" -j -c xeuser
	xc_pid=$tool_pid
	start "$S/xo.out" -j -c other
	xo_pid=$tool_pid
	write_as xehang /proc/schedgen "submit ring=xering jobs=1 hang=1" ||
		fail "$P xe: schedgen's hung job on xering"
	echo "wait timeout_ms=30000" >/proc/schedgen
	# (one process, one queue: both in one write)
	write_as xeuser /proc/gemgen "xe_queue_reset
xe_queue_cat_error
xe_job_timedout" || fail "$P xe: gemgen's xe_queue_reset, xe_queue_cat_error, xe_job_timedout"
	stop_tools "$P xe" $x_pid $xj_pid $xc_pid $xo_pid
	unload_module schedgen
	xeuser=$(pid_of xeuser)
	check_eq "$P xe: schedgen's ring of driver xe: its timer's timeout no incident, the recovery of none" \
		"$(awk '$6 == "xering" { print $2, $3, $4, $5 }' "$S/x.out")" "RECOVERED 0 xe xe"
	check_eq "$P xe: text: an engine reset, a page fault and a timeout of xeuser's queue" \
		"$(awk '$2 ~ /^(RESET|PAGEFAULT|TIMEOUT)$/ { if ($7 ~ /^[0-9]+:1$/) $7 = "C:1"; $1 = ""; sub(/^ +/, ""); print }' "$S/x.out")" \
		"RESET 1 - - rcs0 - $xeuser xeuser - - - - - engine-reset -
PAGEFAULT 2 - - rcs0 - $xeuser xeuser - - - - - - -
TIMEOUT 3 - - rcs0 C:1 $xeuser xeuser - - - - - - -"
	check_eq "$P xe: text: summary per process blamed" \
		"$(awk '$2 == "rcs0" && NF == 5 { $1 = $1; print }' "$S/x.out")" \
		"- rcs0 TIMEOUT xeuser 1
- rcs0 RESET xeuser 1
- rcs0 PAGEFAULT xeuser 1"
	check_eq "$P xe: text: on stderr nothing" "$(cat "$S/x.out.err")" ""
	check_eq "$P xe: -j: the incidents" \
		"$(jrows "$S/xj.out" incident '"\(.event) \(.incident) \(.ring) \(.pid) \(.comm) \(.recovery // "-")"')" \
		"RECOVERED 0 xering null null -
RESET 1 rcs0 $xeuser xeuser engine-reset
PAGEFAULT 2 rcs0 $xeuser xeuser -
TIMEOUT 3 rcs0 $xeuser xeuser -"
	check_eq "$P xe: -c: the queue's process, and another's" \
		"$(jrows "$S/xc.out" incident .event | paste -sd,) $(jrows "$S/xo.out" incident .event | wc -l)" \
		"RESET,PAGEFAULT,TIMEOUT 0"
	check_eq "$P xe: --prometheus: per kind" \
		"$(grep '^gpubpf_gpuhang_incidents_total' "$S/x.prom" | sort)" \
		'gpubpf_gpuhang_incidents_total{kind="pagefault",driver="-",device="-",ring="rcs0",comm="xeuser"} 1
gpubpf_gpuhang_incidents_total{kind="reset",driver="-",device="-",ring="rcs0",comm="xeuser"} 1
gpubpf_gpuhang_incidents_total{kind="timeout",driver="-",device="-",ring="rcs0",comm="xeuser"} 1'
fi
unload_module gemgen
rmdir "$cg/A" "$cg/B" "$cg"

echo "gpuhang: $failures failures"
[ "$failures" -eq 0 ]
