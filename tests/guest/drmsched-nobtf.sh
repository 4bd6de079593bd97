#!/usr/bin/env bash
# drmsched's record path (--no-btf, or gpu_sched without BTF) on a real
# kernel, run inside the VM by tests/run: the same schedgen workload traced
# at once through the BTF path and the record path must give the same rows
# (queued, run, done, deps per ring; processes; dependencies) and the same
# -e events by job; then gpu-sched's .BTF section is removed (objcopy on a
# copy, insmod'ed, as a DKMS build has it) and drmsched must pick the
# record path by itself and count the same.  On 5.10 (no module BTF at all)
# only the record path runs.  A third pair of tracers reads the records as
# on kernels before 5.12 (GPU_BPF_PRETEND_MISSING: job and table rows
# claimed without compare-and-swap or fetch-and-add): the same rows again.
#
# Environment (tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE,
# VM_MODDIR, SCHEDGEN_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

T=$PWD/bin/drmsched
S=${VM_SCRATCH:?}
K=${VM_KERNEL:?}
P="drmsched-nobtf:"
TR=/sys/kernel/tracing

start() { start_tool "$1" "$T" "${@:2}"; }

# A summary row for RING: "QUEUED RUN DONE DEPS BLOCKED".
ring_row() { awk -v r="$2" '$2 == r && NF == 9 && $3 ~ /^[0-9]+$/ { print $3, $4, $5, $6, $7; exit }' "$1"; }
# Process rows "COMM RING QUEUED DONE", sorted (pids differ between runs: not compared).
proc_rows() { awk 'NF == 9 && $1 ~ /^[0-9]+$/ { print $2, $5, $6, $7 }' "$1" | sort; }
# Dependency rows "RING OWNER DEPS".
dep_rows() { awk '/^DEV +RING +WAITED_ON/ { d = 1; next } d && NF >= 5 { print $2, $4, $5 }' "$1" | sort; }
# -e lines "EVENT RING JOB PID DEP", sorted.
ev_rows() { awk 'NR > 1 { print $2, $4, $5, $6, $9 }' "$1" | sort; }

if [ -z "${SCHEDGEN_KO:-}" ]; then
	skip "$P no schedgen.ko built for $K"
	exit 0
fi
if ! $VM_MODPROBE gpu-sched 2>"$S/modprobe.err"; then
	fail "$P modprobe gpu-sched: $(cat "$S/modprobe.err")"
	exit 1
fi
have_btf=0
[ -e /sys/kernel/btf/gpu_sched ] && have_btf=1
[ "$have_btf" = 0 ] && echo "note: $K: gpu_sched has no BTF: only the record path runs"

# workload TAG ARGS...: the same jobs traced by drmsched ARGS (summary and
# -e, two tracers at once): 10 chained jobs on gfx (client 42), 5 on
# compute; then 3 chained on gfx for -e.
workload() {
	local tag=$1 sum_pid
	shift
	start "$S/$tag.sum" "$@" || return 1
	sum_pid=$tool_pid
	start "$S/$tag.ev" -e "$@" || return 1
	sh -c 'echo "submit ring=gfx jobs=10 exec_us=2000 deps=chain client=42" >/proc/schedgen'
	sh -c 'echo "submit ring=compute jobs=5 exec_us=5000" >/proc/schedgen'
	echo wait >/proc/schedgen
	sh -c 'echo "submit ring=gfx jobs=3 exec_us=3000 deps=chain" >/proc/schedgen'
	echo wait >/proc/schedgen
	stop_tool INT
	check_eq "$P $tag -e: exit 0" "$tool_status" 0
	tool_pid=$sum_pid
	stop_tool INT
	check_eq "$P $tag: exit 0" "$tool_status" 0
}

# check_shape TAG: the counts the workload's shape sets.
check_shape() {
	local out=$S/$1.sum
	check_eq "$P $1: gfx 13 queued, run, done, 11 dependencies" "$(ring_row "$out" gfx | cut -d' ' -f1-4)" "13 13 13 11"
	check_eq "$P $1: compute 5 queued, run, done, 0 dependencies" "$(ring_row "$out" compute | cut -d' ' -f1-4)" "5 5 5 0"
	check_eq "$P $1: dependency row: gfx waited 11 times on gfx's fences" "$(dep_rows "$out")" "gfx gfx 11"
	for ev in QUEUE RUN DONE; do
		check_eq "$P $1 -e: 18 $ev lines" "$(awk -v e=$ev '$2 == e' "$S/$1.ev" | wc -l)" 18
	done
	check_eq "$P $1 -e: 11 DEP lines" "$(awk '$2 == "DEP"' "$S/$1.ev" | wc -l)" 11
	check_eq "$P $1 -e: each job's QUEUE, RUN, DONE share its context:seqno" \
		"$(awk '$2 ~ /QUEUE|RUN|DONE/ { n[$5]++ } END { for (j in n) if (n[j] == 3) c++; print c }' "$S/$1.ev")" 18
	check_eq "$P $1 -e: a DEP names the job before it in the chain" \
		"$(awk '$2 == "DEP" { split($5, j, ":"); split($9, d, ":"); if (d[2] == j[2] - 1) c++ } END { print c + 0 }' "$S/$1.ev")" 11
}

# check_same A B: the record path's rows equal the BTF path's.
check_same() {
	check_eq "$P $2 = $1: ring rows" "$(ring_row "$S/$2.sum" gfx; ring_row "$S/$2.sum" compute)" \
		"$(ring_row "$S/$1.sum" gfx; ring_row "$S/$1.sum" compute)"
	check_eq "$P $2 = $1: process rows" "$(proc_rows "$S/$2.sum")" "$(proc_rows "$S/$1.sum")"
	check_eq "$P $2 = $1: dependency rows" "$(dep_rows "$S/$2.sum")" "$(dep_rows "$S/$1.sum")"
}

if ! insmod "$SCHEDGEN_KO" rings=gfx,compute 2>"$S/insmod.err"; then
	fail "$P insmod schedgen: $(cat "$S/insmod.err")"
	exit 1
fi
# gpuhang traces the scheduler's recovery functions through their BTF: none, one line.
gpuhang_nobtf() {
	expect_error "gpuhang: $1: gpu_sched without BTF: one line" 1 \
		"^gpuhang: module gpu_sched has no BTF \(a kernel without CONFIG_DEBUG_INFO_BTF_MODULES\): its timeout handling cannot be traced$" \
		bin/gpuhang
}
[ "$have_btf" = 1 ] || gpuhang_nobtf "$K"

# ---------------------------------------------------------------------------
# 1. --no-btf next to the BTF path, on the same jobs.
if [ "$have_btf" = 1 ]; then
	start "$S/btf.sum" || exit 1
	btf_sum=$tool_pid
	start "$S/btf.ev" -e || exit 1
	btf_ev=$tool_pid
	export GPU_BPF_PRETEND_MISSING=atomic_fetch,attach_cookie
	start "$S/old.sum" --no-btf || exit 1
	old_sum=$tool_pid
	start "$S/old.ev" -e --no-btf || exit 1
	old_ev=$tool_pid
	unset GPU_BPF_PRETEND_MISSING
	workload nobtf --no-btf
	for tool_pid in $btf_ev $btf_sum $old_ev $old_sum; do stop_tool INT; done
	check_shape btf
	check_shape nobtf
	check_shape old
	check_same btf nobtf
	check_same btf old
	# EVENT RING JOB PID DEP (<= 6.16: the job's fence read through the record's pointer)
	check_eq "$P --no-btf -e: the same events by job as the BTF path" \
		"$(ev_rows "$S/nobtf.ev")" "$(ev_rows "$S/btf.ev")"
	check_eq "$P --no-btf -e as before 5.12: the same events by job as the BTF path" \
		"$(ev_rows "$S/old.ev")" "$(ev_rows "$S/btf.ev")"
	if [ -e $TR/events/gpu_scheduler/drm_run_job ]; then
		# <= 6.16: the record has no device
		check_eq "$P --no-btf: DEV is -" "$(awk '$2 == "gfx" && NF == 9 { print $1; exit }' "$S/nobtf.sum")" "-"
		check_eq "$P --no-btf: the missing field named once on stderr" \
			"$(grep -c "^drmsched: not in the records, printed as '-': DEV$" "$S/nobtf.sum.err")" 1
	else
		check_eq "$P --no-btf: the same DEV as the BTF path" \
			"$(awk '$2 == "gfx" && NF == 9 { print $1; exit }' "$S/nobtf.sum")" \
			"$(awk '$2 == "gfx" && NF == 9 { print $1; exit }' "$S/btf.sum")"
	fi
	check_eq "$P --no-btf: one line says which path" \
		"$(grep -c '^drmsched: reading the tracepoint records (--no-btf)$' "$S/nobtf.sum.err")" 1
	check "$P the BTF path says nothing on stderr" test ! -s "$S/btf.sum.err"
	timeout 60 "$T" -v 1 1 >"$S/v.out" 2>"$S/v.err"
	check "$P -v: the BTF path is named" grep -q "^drmsched: reading the structs of gpu_sched (module BTF)$" "$S/v.err"
else
	workload nobtf
	check_shape nobtf
	check_eq "$P no module BTF: the record path chosen, said once" \
		"$(grep -c '^drmsched: reading the tracepoint records (module gpu_sched has no BTF)$' "$S/nobtf.sum.err")" 1
fi
rmmod schedgen

# ---------------------------------------------------------------------------
# 2. gpu-sched stripped of its BTF: the record path by itself.
if [ "$have_btf" = 1 ]; then
	rmmod gpu_sched 2>"$S/rmmod.err" || fail "$P rmmod gpu_sched: $(cat "$S/rmmod.err")"
	ko=$(module_file gpu-sched)
	case "$ko" in
	*.xz) xz -dc "$ko" >"$S/gpu-sched.ko" ;;
	*.zst) zstd -qdc "$ko" >"$S/gpu-sched.ko" ;;
	*) cp "$ko" "$S/gpu-sched.ko" ;;
	esac
	objcopy --remove-section=.BTF "$S/gpu-sched.ko" "$S/gpu-sched-nobtf.ko"
	if $VM_MODPROBE drm && insmod "$S/gpu-sched-nobtf.ko" 2>"$S/insmod.err" &&
		insmod "$SCHEDGEN_KO" rings=gfx,compute 2>>"$S/insmod.err"; then
		check "$P stripped gpu_sched: no /sys/kernel/btf/gpu_sched" test ! -e /sys/kernel/btf/gpu_sched
		workload stripped
		check_shape stripped
		check_same btf stripped
		check_eq "$P stripped: the record path chosen by itself, said once" \
			"$(grep -c '^drmsched: reading the tracepoint records (module gpu_sched has no BTF)$' "$S/stripped.sum.err")" 1
		gpuhang_nobtf stripped
		rmmod schedgen
	else
		fail "$P insmod the stripped gpu-sched and schedgen: $(cat "$S/insmod.err")"
	fi
fi
