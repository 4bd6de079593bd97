#!/usr/bin/env bash
# The classic-tracepoint path (libbpf-tools-common/tp_format.h,
# tp_record.bpf.h) on a real kernel, run inside the VM by tests/run: the
# test program build/tests/tpformat reads gpu_scheduler's run event
# (drm_run_job on 6.1, drm_sched_job_run on sid) at offsets it loaded from
# tracefs, while schedgen (tests/kmod) runs known jobs on the real DRM
# scheduler.  Its lines must equal what the kernel's own trace buffer
# printed for the same jobs.  Then again with gpu-sched's BTF stripped
# (objcopy --remove-section=.BTF): no module BTF is needed.
#
# Environment (tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE,
# VM_MODDIR, SCHEDGEN_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

T=$PWD/build/tests/tpformat
S=${VM_SCRATCH:?}
K=${VM_KERNEL:?}
P="tpformat:"
TR=/sys/kernel/tracing

if [ ! -x "$T" ]; then
	fail "$P $T not built (make test-progs)"
	exit 1
fi
# The run event's name: drm_run_job up to 6.16 (5.10, 6.1, 6.12),
# drm_sched_job_run from 6.17 (sid); known once gpu-sched is loaded.
case "$K" in 5.*|6.*) EV=drm_run_job ;; *) EV=drm_sched_job_run ;; esac

# ---------------------------------------------------------------------------
# 1. No gpu-sched: its event does not exist, one line says so.
expect_error "$P no gpu-sched: no such tracepoint, one line" 1 \
	"^tpformat: no tracepoint gpu_scheduler/$EV: $TR/events/gpu_scheduler/$EV/format does not exist\$" \
	"$T" --event "$EV"

# trace_lines EVENT FILE: the kernel's trace lines of EVENT as the test
# program prints them ("run ring=R [dev=D] [id=I] [fence=C:S] job_count=J
# hw_job_count=H [client_id=X] pid=TID").
trace_lines() {
	grep " $1: " "$TR/trace" | awk -v ev="$1" '{
		task = $1; sub(/.*-/, "", task)
		rest = substr($0, index($0, " " ev ": ") + length(ev) + 3)
		n = split(rest, kv, ", ")
		ring = dev = id = fence = jc = hw = client = ""
		for (i = 1; i <= n; i++) {
			if (kv[i] ~ /^ring=/) ring = substr(kv[i], 6)
			else if (kv[i] ~ /^dev=/) dev = substr(kv[i], 5)
			else if (kv[i] ~ /^id=/) id = substr(kv[i], 4)
			else if (kv[i] ~ /^fence=[0-9]+:[0-9]+$/) fence = substr(kv[i], 7)
			else if (kv[i] ~ /^job count:/) jc = substr(kv[i], 11)
			else if (kv[i] ~ /^hw job count:/) hw = substr(kv[i], 14)
			else if (kv[i] ~ /^client_id:/) client = substr(kv[i], 11)
		}
		line = "run ring=" ring
		if (dev != "") line = line " dev=" dev
		if (id != "") line = line " id=" id
		if (fence != "") line = line " fence=" fence
		line = line " job_count=" jc " hw_job_count=" hw
		if (client != "") line = line " client_id=" client
		print line " pid=" task
	}' >"$2"
}

# run_jobs LABEL: tpformat during 7 jobs on gfx and 5 on compute, checked
# against the kernel's trace buffer; the sched_switch and sign checks.
run_jobs() {
	local L="$P $1:" out=$S/$1.out
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$TR/events/gpu_scheduler/$EV/enable"
	echo 1 >"$TR/tracing_on"
	if ! start_tool "$out" "$T"; then
		fail "$L did not start: $(cat "$out.err")"
		return
	fi
	check "$L attached to $EV" grep -q "^attached gpu_scheduler/$EV " "$out"
	echo "submit ring=gfx jobs=7 exec_us=500" >/proc/schedgen
	echo "submit ring=compute jobs=5 exec_us=500 deps=ring:gfx" >/proc/schedgen
	echo "wait" >/proc/schedgen
	sleep 0.5
	stop_tool
	echo 0 >"$TR/events/gpu_scheduler/$EV/enable"
	check_eq "$L exits 0 on SIGINT" "$tool_status" 0
	check "$L nothing on stderr" test ! -s "$out.err"
	check_eq "$L 7 jobs run on gfx" "$(grep -c '^run ring=gfx ' "$out")" 7
	check_eq "$L 5 jobs run on compute" "$(grep -c '^run ring=compute ' "$out")" 5
	check_eq "$L no other events" "$(grep -c '^run ' "$out")" 12
	check_eq "$L ring name lengths include the NUL (gfx: 4)" \
		"$(grep '^run ring=gfx ' "$out" | grep -vc ' name_len=4$')" 0
	if [ "$EV" = drm_run_job ]; then
		check "$L ids 1..7 on gfx" test "$(grep '^run ring=gfx ' "$out" | sed 's/.* id=\([0-9]*\) .*/\1/' | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 7 "
	else
		check_eq "$L dev is schedgen (a second __data_loc)" "$(grep '^run ' "$out" | grep -vc ' dev=schedgen ')" 0
		check "$L fence seqnos 1..7 on gfx" test "$(grep '^run ring=gfx ' "$out" | sed 's/.* fence=[0-9]*:\([0-9]*\) .*/\1/' | sort -n | tr '\n' ' ')" = "1 2 3 4 5 6 7 "
	fi
	trace_lines "$EV" "$S/$1.trace"
	sed 's/ name_len=[-0-9]*$//' "$out" | grep '^run ' | sort >"$S/$1.mine"
	sort -o "$S/$1.trace" "$S/$1.trace"
	check_eq "$L the kernel's trace buffer has the 12 jobs" "$(wc -l <"$S/$1.trace")" 12
	if cmp -s "$S/$1.mine" "$S/$1.trace"; then
		pass "$L every value equals the kernel's trace buffer's"
	else
		fail "$L values differ from the trace buffer: $(diff "$S/$1.mine" "$S/$1.trace" | head -6 | tr '\n' '|')"
	fi
	# sched_switch: prev_comm (char[16]) of the child it renamed
	child=$(sed -n 's/^child pid=//p' "$out")
	check "$L sched_switch prev_comm, a fixed char array" grep -q "^switch pid=$child comm=tpf-comm-check len=15 " "$out"
	check "$L tp_read_bytes of prev_comm: its 16 bytes, the string's" grep -qx "switch pid=$child comm=tpf-comm-check len=15 bytes_equal=1" "$out"
	# the same event read from one copy of the record (tp_record_copy, tp_get_u64)
	grep '^copy ' "$out" | sed 's/^copy /run /; s/ name_len=[-0-9]*$//' | sort >"$S/$1.copy"
	if cmp -s "$S/$1.mine" "$S/$1.copy"; then
		pass "$L tp_get_u64 on a record copy: the same 12 lines"
	else
		fail "$L the copy's values differ: $(diff "$S/$1.mine" "$S/$1.copy" | head -6 | tr '\n' '|')"
	fi
	grep '^cost ' "$out" | sed "s/^/    [$K $1] /"
	# sign extension on an 8-byte field's bytes
	read -r _ field checks mism neg lost <<<"$(grep "^sign " "$out")"
	check_eq "$L sign checks on every run event" "$checks" "checks=12"
	check_eq "$L s8/u8/s16/s32/u32 reads agree with the u64 ($field)" "$mism" "mismatches=0"
	if [ "$EV" = drm_run_job ]; then
		# field=fence: a kernel pointer, 0xffff... - every narrow signed read negative
		check_eq "$L sign-extended: the pointer's high bytes read negative" "$neg" "negative=12"
	fi
	check_eq "$L nothing lost" "$lost" "lost=0"
}

# ---------------------------------------------------------------------------
# 2. The real gpu-sched with its BTF.
if ! $VM_MODPROBE gpu-sched 2>"$S/modprobe.err"; then
	fail "$P modprobe gpu-sched: $(cat "$S/modprobe.err")"
	exit 1
fi
[ -e $TR/events/gpu_scheduler/drm_sched_job_run ] && EV=drm_sched_job_run || EV=drm_run_job
if [ -e /sys/kernel/btf/vmlinux ] && [ ! -e /sys/kernel/btf/gpu_sched ]; then
	echo "note: $K has no module BTF at all: the first run is without it too"
else
	check "$P gpu_sched has BTF (first run)" test -e /sys/kernel/btf/gpu_sched
fi

expect_error "$P a missing field is one line naming it" 1 \
	"^tpformat: gpu_scheduler/$EV has no field no_such_field \\($TR/events/gpu_scheduler/$EV/format\\)\$" \
	"$T" --want no_such_field
expect_error "$P alternatives missing: one line naming them all" 1 \
	"^tpformat: gpu_scheduler/$EV has none of the fields nope/nada \\(" "$T" --want "nope|nada"
expect_error "$P common_pid refused: BPF cannot read the first 8 bytes" 1 \
	"^tpformat: gpu_scheduler/$EV: field common_pid is in the record's first 8 bytes" "$T" --want common_pid
expect_error "$P tracefs missing under --root: one line" 1 \
	"^tpformat: tracefs is not mounted" "$T" --root "$S/nothing-here"

if [ -z "${SCHEDGEN_KO:-}" ]; then
	skip "$P btf: no schedgen.ko built for $K"
	# still: the programs load and attach on this kernel, the fixed char array reads
	if start_tool "$S/attach.out" "$T"; then
		sleep 1
		stop_tool
		check "$P attaches to $EV (no jobs)" grep -q "^attached gpu_scheduler/$EV " "$S/attach.out"
		check "$P sched_switch prev_comm, a fixed char array" grep -q "comm=tpf-comm-check len=15 bytes_equal=1" "$S/attach.out"
	else
		fail "$P did not start: $(cat "$S/attach.out.err")"
	fi
elif insmod "$SCHEDGEN_KO" rings=gfx,compute 2>"$S/insmod.err"; then
	run_jobs btf
	rmmod schedgen
else
	fail "$P insmod schedgen: $(cat "$S/insmod.err")"
fi

# ---------------------------------------------------------------------------
# 3. gpu-sched without BTF: what a DKMS-built driver looks like.
rmmod gpu_sched 2>"$S/rmmod.err" || fail "$P rmmod gpu_sched: $(cat "$S/rmmod.err")"
ko=$(module_file gpu-sched)
case "$ko" in
*.xz) xz -dc "$ko" >"$S/gpu-sched.ko" ;;
*.zst) zstd -qdc "$ko" >"$S/gpu-sched.ko" ;;
*) cp "$ko" "$S/gpu-sched.ko" ;;
esac
objcopy --remove-section=.BTF "$S/gpu-sched.ko" "$S/gpu-sched-nobtf.ko"
check "$P the stripped copy has no .BTF section" sh -c "! objdump -h '$S/gpu-sched-nobtf.ko' | grep -q ' \\.BTF '"
if $VM_MODPROBE drm && insmod "$S/gpu-sched-nobtf.ko" 2>"$S/insmod.err"; then
	check "$P stripped gpu_sched: no /sys/kernel/btf/gpu_sched" test ! -e /sys/kernel/btf/gpu_sched
	check "$P stripped gpu_sched: vmlinux BTF still there" test -e /sys/kernel/btf/vmlinux
	if [ -z "${SCHEDGEN_KO:-}" ]; then
		skip "$P nobtf: no schedgen.ko built for $K"
	elif insmod "$SCHEDGEN_KO" rings=gfx,compute 2>"$S/insmod.err"; then
		run_jobs nobtf
		rmmod schedgen
	else
		fail "$P insmod schedgen on the stripped gpu_sched: $(cat "$S/insmod.err")"
	fi
else
	fail "$P insmod the stripped gpu-sched: $(cat "$S/insmod.err")"
fi
