#!/usr/bin/env bash
# tests/kmod/kfdmock-check.sh: kfdmock's own checks, in a guest of tests/vm/run
# (as root, KFDMOCK_KO set; tests/kmod/build first):
#   flock /tmp/gpu-vm.lock tests/vm/run --kernel K -- bash tests/kmod/kfdmock-check.sh
# or only the mirror check, anywhere, on saved BTF (split BTF of module
# amdgpu, or a .ko with its .BTF, on the base BASE):
#   bash tests/kmod/kfdmock-check.sh --compare BASE REAL MOCK
#
# 1. The real amdgpu first ($VM_MODPROBE amdgpu; no GPU needed): its BTF is
#    saved, and tests/kmod/kfdmock-ioctl asks its /dev/kfd what needs no GPU.
#    Then it is unloaded and the mock loaded (never both: same name).
# 2. Mirror: each mocked function's prototype in the mock's BTF against the
#    real one's (same boot, same vmlinux): the return type and each
#    parameter, typedefs resolved (pointer to struct X, int, unsigned int,
#    _Bool, long unsigned int...); and the members and byte offsets of the
#    structs a tracer reads (amdgpu_task_info). One line per function
#    (and struct):
#      same NAME(PARAMETERS)          as the real one
#      DIFF NAME: real (...) mock (...)
#      none NAME                      in neither module (5.10's KFD has no SVM events)
#    Skipped where the kernel has no module BTF (5.10).
# 3. The mock's /dev/kfd: kfdmock-ioctl --mock gets the results the mock
#    promises (kfdmock.c's head), run under strace; the calls that need no
#    GPU answer as the real KFD's did in step 1.
# 4. Kprobes by name (tracefs kprobe_events, arguments by position as a
#    tracer reads them) on every mocked function: each fires as often as it
#    was called, with the arguments given to /proc/kfdmock or kfdmock-ioctl
#    (where a function takes a task, its tgid), the evict -> restore gap at
#    least the sleep asked for.
# Prints PASS/FAIL/SKIP lines and "N passed, N failed"; exits 1 when
# something failed.
# shellcheck disable=SC2016  # ($argN, $retval: tracefs's fetch arguments, not the shell's)
set -u
cd "$(dirname "$0")/../.." || exit 1

passed=0 failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
skip() { echo "SKIP $*"; }
check_eq() { if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi; }

# (MIRROR_FNS and MIRROR_STRUCTS name others for --compare: another mock
# of amdgpu's functions, amdgen's, is compared the same way.)
fns=${MIRROR_FNS-"kfd_ioctl kfd_open kfd_release kfd_smi_event_queue_eviction kfd_smi_event_queue_restore
     kfd_smi_event_migration_start kfd_smi_event_migration_end kfd_smi_event_page_fault_start
     kfd_smi_event_page_fault_end kfd_smi_event_update_vmfault kfd_smi_event_update_gpu_reset
     amdgpu_vm_get_task_info_pasid amdgpu_vm_put_task_info"}
# The structs whose members a tracer reads at their offsets: member@byte, in order.
structs=${MIRROR_STRUCTS-amdgpu_task_info}

# protos BASE BTF: "NAME<TAB>RETURN<TAB>PARAMETERS<TAB>RESOLVED" for each of
# $fns in BTF (split on BASE; BTF may be BASE itself), from bpftool's raw dump.
protos() {
	local base=$1 btf=$2 dump
	dump=$(bpftool -B "$base" btf dump file "$btf" format raw 2>/dev/null) || return 1
	{ bpftool btf dump file "$base" format raw; echo "$dump"; } | awk -v want="$fns" '
	function field(line, key) {
		if (match(line, " " key "=[^ ]*")) return substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
		return ""
	}
	# A type as C spells it; typedefs kept (resolve = 0) or followed (1).
	function render(id, resolve,    k) {
		if (id == 0) return "void"
		k = kind[id]
		if (k == "PTR") return render(tgt[id], resolve) " *"
		if (k == "CONST") return "const " render(tgt[id], resolve)
		if (k == "VOLATILE") return "volatile " render(tgt[id], resolve)
		if (k == "RESTRICT" || k == "TYPE_TAG") return render(tgt[id], resolve)
		if (k == "TYPEDEF") return resolve ? render(tgt[id], 1) : nm[id]
		if (k == "STRUCT" || (k == "FWD" && fwd[id] == "struct")) return "struct " nm[id]
		if (k == "UNION" || k == "FWD") return "union " nm[id]
		if (k == "ENUM" || k == "ENUM64") return "enum " nm[id]
		if (k == "FUNC_PROTO") return "function"
		return nm[id]
	}
	BEGIN { n = split(want, w, /[ \t\n]+/); for (i = 1; i <= n; i++) wanted[w[i]] = 1 }
	/^\[/ {
		id = substr($1, 2, length($1) - 2); cur = id
		kind[id] = $2
		match($0, /'"'"'[^'"'"']*'"'"'/); nm[id] = substr($0, RSTART + 1, RLENGTH - 2)
		tgt[id] = field($0, "type_id")
		if ($2 == "FUNC_PROTO") { ret[id] = field($0, "ret_type_id"); np[id] = 0 }
		if ($2 == "FWD") fwd[id] = field($0, "fwd_kind")
		if ($2 == "FUNC" && (nm[id] in wanted)) func_of[nm[id]] = tgt[id]
		next
	}
	/^\t'"'"'/ && kind[cur] == "FUNC_PROTO" { np[cur]++; par[cur, np[cur]] = field($0, "type_id") }
	END {
		for (f in func_of) {
			p = func_of[f]; s = ""; r = ""
			for (i = 1; i <= np[p]; i++) {
				s = s (i > 1 ? ", " : "") render(par[p, i], 0)
				r = r (i > 1 ? ", " : "") render(par[p, i], 1)
			}
			printf "%s\t%s\t%s\t%s\n", f, render(ret[p], 1), s, r
		}
	}'
}

# layout BASE BTF STRUCT: "NAME@BYTE ..." of struct STRUCT's members in BTF.
layout() {
	{ bpftool btf dump file "$1" format raw; bpftool -B "$1" btf dump file "$2" format raw; } 2>/dev/null |
		awk -v want="STRUCT '$3'" '
		index($0, want " ") { on = 1; next }
		on && /^\t/ { m = $1; gsub("\047", "", m); o = $NF; sub("bits_offset=", "", o)
			printf "%s%s@%d", n++ ? " " : "", m, o / 8; next }
		on { exit }'
}

# mirror BASE REAL MOCK: one line per function and struct; returns 1 on a mismatch.
mirror() {
	local base=$1 real mock f r m rc=0
	real=$(protos "$base" "$2") || { echo "cannot read the BTF in $2"; return 1; }
	mock=$(protos "$base" "$3") || { echo "cannot read the BTF in $3"; return 1; }
	for f in $fns; do
		r=$(awk -F'\t' -v f="$f" '$1 == f' <<<"$real")
		m=$(awk -F'\t' -v f="$f" '$1 == f' <<<"$mock")
		if [ -z "$r" ] && [ -z "$m" ]; then
			echo "none $f"
		elif [ -z "$m" ]; then
			echo "DIFF $f: the real module has it, the mock not"; rc=1
		elif [ -z "$r" ]; then
			echo "DIFF $f: the mock has it, the real module not"; rc=1
		elif [ "$(cut -f2,4 <<<"$r")" = "$(cut -f2,4 <<<"$m")" ]; then
			echo "same $(awk -F'\t' '{ printf "%s %s(%s)", $2, $1, $3 }' <<<"$m")"
		else
			echo "DIFF $f: real $(awk -F'\t' '{ printf "%s (%s)", $2, $4 }' <<<"$r")" \
				"mock $(awk -F'\t' '{ printf "%s (%s)", $2, $4 }' <<<"$m")"
			rc=1
		fi
	done
	for f in $structs; do
		r=$(layout "$base" "$2" "$f")
		m=$(layout "$base" "$3" "$f")
		if [ -n "$r" ] && [ "$r" = "$m" ]; then
			echo "same struct $f { $m }"
		else
			echo "DIFF struct $f: real { $r } mock { $m }"; rc=1
		fi
	done
	return $rc
}

if [ "${1:-}" = --compare ]; then
	[ $# -eq 4 ] || { echo "usage: kfdmock-check.sh --compare BASE REAL MOCK" >&2; exit 2; }
	mirror "$2" "$3" "$4"
	exit
fi

S=${VM_SCRATCH:-/tmp}/kfdmock-check
rm -rf "$S" && mkdir -p "$S" || exit 1
KO=${KFDMOCK_KO:?KFDMOCK_KO: kfdmock.ko built for this kernel (tests/kmod/build)}
MODPROBE=${VM_MODPROBE:-modprobe}
T=/sys/kernel/tracing
ctl=/proc/kfdmock
if grep -q '^amdgpu ' /proc/modules; then
	echo "FAIL a module named amdgpu is already loaded: the mock never runs with the real one"
	exit 1
fi
cc -O2 -Wall -o "$S/kfdmock-ioctl" tests/kmod/kfdmock-ioctl.c || { echo "FAIL cc kfdmock-ioctl.c"; exit 1; }
W=$S/kfdmock-ioctl

# ---- 1. the real amdgpu ---------------------------------------------------------
real_btf="" real_out=""
echo "== the real amdgpu"
if $MODPROBE amdgpu 2>"$S/modprobe.err"; then
	for _ in $(seq 50); do [ -e /sys/kernel/btf/amdgpu ] && [ -e /dev/kfd ] && break; sleep 0.2; done
	if [ -e /sys/kernel/btf/amdgpu ]; then
		cp /sys/kernel/btf/amdgpu "$S/real.btf" && real_btf=$S/real.btf
	fi
	if "$W" >"$S/real.out" 2>&1; then
		real_out=$S/real.out
		sed 's/^/  real: /' "$S/real.out"
	else
		echo "  real /dev/kfd: $(head -1 "$S/real.out")"
	fi
	$MODPROBE -r amdgpu || { fail "modprobe -r amdgpu"; exit 1; }
else
	echo "  modprobe amdgpu: $(head -1 "$S/modprobe.err")"
fi

# ---- 2. the mock, its BTF against the real one's -----------------------------------
echo "== kfdmock"
if ! insmod "$KO" 2>"$S/insmod.err"; then
	fail "insmod $KO: $(cat "$S/insmod.err")"
	exit 1
fi
check_eq "the mock's module is named amdgpu" "$(cat /sys/module/amdgpu/version 2>/dev/null)" "0.0-kfdmock"
for _ in $(seq 25); do [ -c /dev/kfd ] && break; sleep 0.2; done
check_eq "/dev/kfd is a char device of class kfd" \
	"$([ -c /dev/kfd ] && basename "$(readlink -f /sys/class/kfd/kfd)")" "kfd"
mocked=""
for f in $fns; do
	grep -q " $f\s*\[amdgpu\]$" /proc/kallsyms && mocked+=" $f"
done
mocked=${mocked# }
echo "mocked on $(uname -r): $mocked"
svm=0
[[ " $mocked " == *" kfd_smi_event_queue_eviction "* ]] && svm=1

echo "== mirror: the mock's prototypes against the real amdgpu's BTF"
mock_proto=""
if [ -e /sys/kernel/btf/amdgpu ]; then
	cp /sys/kernel/btf/amdgpu "$S/mock.btf"
	mock_proto=$(protos /sys/kernel/btf/vmlinux "$S/mock.btf")
fi
if [ -z "$real_btf" ] || [ ! -e "$S/mock.btf" ]; then
	skip "mirror: no module BTF on $(uname -r)"
elif mirror /sys/kernel/btf/vmlinux "$real_btf" "$S/mock.btf" >"$S/mirror.out"; then
	cat "$S/mirror.out"
	pass "mirror: every mocked prototype is the real one's"
else
	cat "$S/mirror.out"
	fail "mirror: prototypes differ"
fi

# ---- kprobes on every mocked function --------------------------------------------
# The second argument of the SMI functions: a pid_t, or a task whose tgid
# is read at its offset in this kernel's struct task_struct.
# param FUNCTION N: the mock's N-th parameter of FUNCTION (its BTF).
param() { awk -F'\t' -v f="$1" -v n="$2" '$1 == f { split($3, p, ", "); print p[n] }' <<<"$mock_proto"; }
who='pid=$arg2:s32'
if [ "$(param kfd_smi_event_queue_eviction 2)" = "struct task_struct *" ]; then
	off=$(bpftool btf dump file /sys/kernel/btf/vmlinux format raw | awk '
		/^\[/ { in_task = ($2 == "STRUCT" && $3 == "'"'"'task_struct'"'"'") ; next }
		in_task && $1 == "'"'"'tgid'"'"'" { sub(/.*bits_offset=/, ""); print $1 / 8; exit }')
	who="pid=+$off(\$arg2):s32"
fi
mend_extra=""
[ "$(param kfd_smi_event_migration_end 8)" = int ] && mend_extra=' error=$arg8:s32'
reset_extra=""
[ "$(param kfd_smi_event_update_gpu_reset 3)" = "struct amdgpu_reset_context *" ] && reset_extra=' ctx=$arg3:x64'
{
	echo 'p:kfdmock/ioctl kfd_ioctl cmd=$arg2:x32'
	echo 'r:kfdmock/ioctl_ret kfd_ioctl ret=$retval:s64'
	echo 'p:kfdmock/open kfd_open'
	echo 'p:kfdmock/release kfd_release'
	echo 'p:kfdmock/vmfault kfd_smi_event_update_vmfault pasid=$arg2:u16'
	echo "p:kfdmock/reset kfd_smi_event_update_gpu_reset post=\$arg2:u8$reset_extra"
	if [ $svm = 1 ]; then
		echo "p:kfdmock/evict kfd_smi_event_queue_eviction $who trigger=\$arg3:u32"
		echo "p:kfdmock/restore kfd_smi_event_queue_restore $who"
		echo "p:kfdmock/mstart kfd_smi_event_migration_start $who start=\$arg3:x64 end=\$arg4:x64 from=\$arg5:u32 to=\$arg6:u32 prefetch=\$arg7:u32 preferred=\$arg8:u32 trigger=\$arg9:u32"
		echo "p:kfdmock/mend kfd_smi_event_migration_end $who start=\$arg3:x64 end=\$arg4:x64 from=\$arg5:u32 to=\$arg6:u32 trigger=\$arg7:u32$mend_extra"
		echo "p:kfdmock/fstart kfd_smi_event_page_fault_start $who addr=\$arg3:x64 write=\$arg4:u8"
		echo "p:kfdmock/fend kfd_smi_event_page_fault_end $who addr=\$arg3:x64 migration=\$arg4:u8"
	fi
} >"$S/kprobe_events"
probes_ok=1
while read -r line; do
	if ! echo "$line" >>$T/kprobe_events 2>"$S/kprobe.err"; then
		fail "kprobe '$line': $(cat "$S/kprobe.err")"
		probes_ok=0
	fi
done <"$S/kprobe_events"
[ $probes_ok = 1 ] && pass "a kprobe by name on each of: $mocked"
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/kfdmock/enable
# trace_lines: "EVENT ARGS" of the kfdmock events traced since the last clear.
trace_lines() {
	echo 0 >$T/tracing_on
	grep -v '^#' $T/trace | sed -n 's/^.* \([0-9]*\.[0-9]*\): \([a-z_]*\): ([^)]*)\(.*\)$/\1 \2\3/p'
	echo >$T/trace
}

# ---- 3. /dev/kfd ------------------------------------------------------------------
echo "== /dev/kfd through the mock"
db() { printf '%#x' $(( (3 << 62) | (0x4d4f << 46) | $1 * 8 )); }
{
	echo "alloc gpu=0x1234 size=0x1000 -> EINVAL"
	echo "alloc gpu=0x1234 size=0 -> EINVAL"
	echo "create_queue gpu=0x1234 -> EINVAL"
	echo "free handle=0x123400000001 -> EINVAL"
	echo "destroy_queue queue_id=5 -> EINVAL"
	echo "ioctl nr=0x7f -> ENOTTY"
	echo "ioctl nr=0x00 -> ENOTTY"
	echo "child get_version -> EBADF"
	echo "alloc gpu=0x4d4f size=0x1000 -> 0 handle=0x4d4f00000001 mmap_offset=0x1000"
	echo "alloc gpu=0x4d4f size=0x100000 -> 0 handle=0x4d4f00000002 mmap_offset=0x2000"
	echo "alloc gpu=0x4d4f size=0x40000000 -> 0 handle=0x4d4f00000003 mmap_offset=0x3000"
	echo "alloc gpu=0x4d4f size=0x40000001 -> ENOMEM"
	echo "alloc gpu=0x4d4f size=0 -> EINVAL"
	echo "free handle=0x4d4f00000002 -> 0"
	echo "free handle=0x4d4f00000002 -> EINVAL"
	echo "alloc gpu=0x4d4f size=0x2000 -> 0 handle=0x4d4f00000002 mmap_offset=0x2000"
	echo "free handle=0x4d4f00000063 -> EINVAL"
	for q in 0 1 2 3 4 5 6 7; do echo "create_queue gpu=0x4d4f -> 0 queue_id=$q doorbell_offset=$(db $q)"; done
	echo "create_queue gpu=0x4d4f -> ENOMEM"
	echo "destroy_queue queue_id=3 -> 0"
	echo "destroy_queue queue_id=3 -> EINVAL"
	echo "destroy_queue queue_id=8 -> EINVAL"
	echo "create_queue gpu=0x4d4f -> 0 queue_id=3 doorbell_offset=$(db 3)"
	echo "ioctl nr=0x04 (not mocked) -> EINVAL"
	echo "second open"
	echo "alloc gpu=0x4d4f size=0x1000 -> 0 handle=0x4d4f00000001 mmap_offset=0x1000"
	echo "create_queue gpu=0x4d4f -> 0 queue_id=0 doorbell_offset=$(db 0)"
	echo "free handle=0x4d4f00000003 -> EINVAL"
} >"$S/want.out"
echo 1 >$T/tracing_on
if command -v strace >/dev/null; then
	strace -f -e trace=ioctl -o "$S/strace.out" "$W" --mock >"$S/mock.out" 2>&1
else
	"$W" --mock >"$S/mock.out" 2>&1
fi
echo "rc $?" >>"$S/mock.out"
trace_lines >"$S/ioctl.trace"
sed 's/^/  mock: /' "$S/mock.out"
version=$(grep '^get_version' "$S/mock.out")
check_eq "kfdmock-ioctl --mock: the results promised" \
	"$(grep -v '^get_version' "$S/mock.out")" "$(cat "$S/want.out"; echo "rc 0")"
if [ -n "$real_out" ]; then
	n=$(wc -l <"$real_out")
	check_eq "the calls that need no GPU answer as the real KFD's" "$(head -n "$n" "$S/mock.out")" \
		"$(cat "$real_out")"
else
	skip "no real /dev/kfd on $(uname -r) to compare with (mock's $version)"
fi
check_eq "all freed at release" "$(grep '^live_' $ctl | tr '\n' ' ')" "live_files 0 live_bos 0 live_queues 0 "
if [ -s "$S/strace.out" ]; then
	# strace's own count of each result against the workload's.
	# The calls on /dev/kfd's fds (3, and 4 for the second open).
	grep -E '^[0-9]+ +ioctl\([34],' "$S/strace.out" >"$S/strace.kfd"
	for re in 'ALLOC_MEMORY_OF_GPU.*= 0$' 'FREE_MEMORY_OF_GPU.*= 0$' 'CREATE_QUEUE.*= 0$' \
		'DESTROY_QUEUE.*= 0$' 'ALLOC_MEMORY_OF_GPU.*ENOMEM' 'CREATE_QUEUE.*ENOMEM' 'EBADF'; do
		grep -m1 -E "$re" "$S/strace.kfd"
	done | sed 's/^/  strace: /'
	st=$(grep -o ') = .*' "$S/strace.kfd" | sed 's/^) = \(-1 \)\?\([A-Z0-9]*\).*/\2/' | sort | uniq -c |
		awk '{ print $2 "=" $1 }' | tr '\n' ' ')
	wl=$(grep -- ' -> ' "$S/mock.out" | sed 's/.* -> \([A-Z0-9]*\).*/\1/' | sort | uniq -c |
		awk '{ print $2 "=" $1 }' | tr '\n' ' ')
	check_eq "strace shows the same results" "$st" "$wl"
fi
nioctl=$(grep -c -- ' -> ' "$S/mock.out")
check_eq "kprobe kfd_ioctl: once per call" "$(grep -c '^[0-9.]* ioctl ' "$S/ioctl.trace")" "$nioctl"
check_eq "kretprobe kfd_ioctl: the errors" \
	"$(sed -n 's/^[0-9.]* ioctl_ret ret=//p' "$S/ioctl.trace" | sort -n | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')" \
	"$(grep -- ' -> ' "$S/mock.out" | sed 's/.* -> \([A-Z0-9]*\).*/\1/' |
		sed 's/^0$/0/; s/ENOTTY/-25/; s/ENOMEM/-12/; s/EINVAL/-22/; s/EBADF/-9/' |
		sort -n | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' ')"
check_eq "kprobes kfd_open, kfd_release" \
	"$(grep -c '^[0-9.]* open$' "$S/ioctl.trace") $(grep -c '^[0-9.]* release$' "$S/ioctl.trace")" "2 2"

# ---- 4. the SMI events -------------------------------------------------------------
echo "== SMI events through $ctl"
c() { printf '%s\n' "$*" >$ctl 2>"$S/ctl.err" || fail "write '$*': $(cat "$S/ctl.err")"; }
c_err() { # c_err ERRNO-TEXT COMMAND...: the write must fail so
	local want=$1
	shift
	if printf '%s\n' "$*" >$ctl 2>"$S/ctl.err"; then
		fail "write '$*' succeeded, want $want"
	else
		if grep -q "$want" "$S/ctl.err"; then
			pass "write '$*': $want"
		else
			fail "write '$*': $(cat "$S/ctl.err"), want $want"
		fi
	fi
}
P=$$
echo >$T/trace
echo 1 >$T/tracing_on
c_err "Invalid argument" bogus 1
c_err "Invalid argument" vmfault 70000
c_err "Invalid argument" evict $P
c vmfault 0x8001
c reset
if [ $svm = 1 ]; then
	c_err "No such process" evict 4194303 0
	c evict $P 2
	c evict $P 2
	c evict $P 2
	c restore $P
	c restore $P
	c evict_restore $P 1 50
	c migrate $P 0x1000 0x1010 0 0x4d4f 1 0x4d4f 0 -12
	c fault $P 0x7f0000 1 0
	c fault $P 0x7f1000 0 1
else
	c_err "Operation not supported" evict $P 2
fi
trace_lines >"$S/smi.trace"
sed 's/^/  /' "$S/smi.trace"
got=$(cut -d' ' -f2- "$S/smi.trace" | sort | uniq -c | sed 's/^ *//')
ctx=""; [ -n "$reset_extra" ] && ctx=" ctx=0x0"
want=$(
	{
		echo "vmfault pasid=32769"
		echo "reset post=0$ctx"
		echo "reset post=1$ctx"
		if [ $svm = 1 ]; then
			for _ in 1 2 3; do echo "evict pid=$P trigger=2"; done
			for _ in 1 2 3; do echo "restore pid=$P"; done
			echo "evict pid=$P trigger=1"
			echo "mstart pid=$P start=0x1000 end=0x1010 from=0 to=19791 prefetch=19791 preferred=0 trigger=1"
			echo "mend pid=$P start=0x1000 end=0x1010 from=0 to=19791 trigger=1${mend_extra:+ error=-12}"
			echo "fstart pid=$P addr=0x7f0000 write=1"
			echo "fend pid=$P addr=0x7f0000 migration=0"
			echo "fstart pid=$P addr=0x7f1000 write=0"
			echo "fend pid=$P addr=0x7f1000 migration=1"
		fi
	} | sort | uniq -c | sed 's/^ *//'
)
check_eq "each SMI function's kprobe: its calls, with their arguments" "$got" "$want"
if [ $svm = 1 ]; then
	gap=$(awk '$2 == "evict" && $4 == "trigger=1" { t = $1 } $2 == "restore" && t { printf "%d", ($1 - t) * 1000; exit }' \
		"$S/smi.trace")
	if [ "${gap:-0}" -ge 50 ] && [ "$gap" -lt 5000 ]; then
		pass "evict_restore: restore ${gap} ms after the eviction (asked 50)"
	else
		fail "evict_restore: restore ${gap:-?} ms after the eviction, want >= 50"
	fi
fi
check_eq "$ctl counts the calls" \
	"$(grep -E '^(queue_eviction|queue_restore|migration_start|migration_end|page_fault_start|page_fault_end|update_vmfault|update_gpu_reset) ' $ctl | tr '\n' ' ')" \
	"queue_eviction $((svm * 4)) queue_restore $((svm * 3)) migration_start $svm migration_end $svm page_fault_start $((svm * 2)) page_fault_end $((svm * 2)) update_vmfault 1 update_gpu_reset 2 "

# ---- cleanup ---------------------------------------------------------------------------
echo 0 >$T/events/kfdmock/enable
while read -r line; do
	echo "-:${line#*:}" | cut -d' ' -f1 >>$T/kprobe_events
done <"$S/kprobe_events"
if rmmod amdgpu; then pass "rmmod"; else fail "rmmod"; fi
echo "$passed passed, $failed failed"
[ $failed = 0 ]
