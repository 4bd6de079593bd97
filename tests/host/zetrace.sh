#!/usr/bin/env bash
# zetrace on the host, where uprobes work: its command line and bad input;
# the fake libze_loader.so.1 (tests/ze) driven by zework through known
# calls, each call, size, result, launch shape and leak exact and held
# against what the fake itself received ($FAKE_ZE_LOG), and a process
# killed inside a call; the real loader (Debian's libze1, no driver
# here): zereal's calls and results as zereal saw them, and the result
# names as the compiler reads the header.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/zetrace
D=build/tests/ze

if [ ! -x $t ] || [ ! -x $D/zework ] || [ ! -x $D/zereal ]; then
	fail "zetrace: $t or the test programs in $D are not built (make all unit-tests)"
	exit 1
fi
check_common_options zetrace
expect_error "zetrace: a PID that does not exist" 1 "^zetrace: no process with PID 999999999$" \
	$t -p 999999999
expect_error "zetrace: a file that is not ELF" 1 "^zetrace: /etc/passwd: not an ELF file$" \
	$t -L /etc/passwd
libc=$(ldd /bin/sh | awk '/libc\.so/ { print $3 }')
expect_error "zetrace: a library without Level Zero symbols" 1 \
	"^zetrace: $libc: no Level Zero symbols \(zeMemAllocDevice, zeCommandListAppendLaunchKernel, \.\.\.\)$" \
	$t -L "$libc"

tmp=$(mktemp -d /tmp/zetrace-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# zework on the fake under four tracers at once: -e, -E, -j (summary) and
# -j -l (leaks); its last phase is killed inside zeCommandQueueSynchronize.
export FAKE_ZE_LOG=$tmp/fake.log
"$D/zework" --wait "$tmp/go" setup leak errors launch copies batches 3 die \
	>"$tmp/wl.out" 2>"$tmp/wl.err" &
wl=$!
while ! grep -qs '^waiting' "$tmp/wl.out"; do sleep 0.02; done
start_tool "$tmp/e.out" $t -e -p $wl; p1=$tool_pid
start_tool "$tmp/E.out" $t -E -p $wl; p2=$tool_pid
start_tool "$tmp/j.out" $t -j -p $wl; p3=$tool_pid
start_tool "$tmp/l.out" $t -j -l -p $wl; p4=$tool_pid
touch "$tmp/go"
{ wait $wl; } 2>/dev/null
check_eq "zetrace: zework was killed inside its last call" "$?" 137
for tool_pid in $p1 $p2 $p3 $p4; do wait "$tool_pid"; done
unset FAKE_ZE_LOG

# -e's lines of calls (TIME PID TID COMM FUNCTION BYTES LAT RESULT DETAIL).
calls() { awk '$1 ~ /^[0-9]+\.[0-9]+$/' "$1"; }
ev() { calls "$tmp/e.out" | awk -v f="$1" '$5 == f'; }
fake() { awk -v f="$1" '$1 == f' "$tmp/fake.log"; }
# FIELD=value of the fake's lines, by key.
field() { awk -v k="$1=" '{ for (i = 2; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }'; }
# Every call the fake returned from (it logs at the return: not the killed one).
check_eq "zetrace -e: a line per call, in the fake's order" \
	"$(calls "$tmp/e.out" | awk '{ print $5 }' | paste -sd' ')" \
	"$(awk '{ print $1 }' "$tmp/fake.log" | paste -sd' ')"
check_eq "zetrace -e: the failing calls' results, by name" \
	"$(calls "$tmp/e.out" | awk '$8 != "ZE_RESULT_SUCCESS" { print $5, $8 }' | paste -sd,)" \
	"zeMemAllocDevice ZE_RESULT_ERROR_UNSUPPORTED_SIZE,zeMemAllocDevice ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,zeMemFree ZE_RESULT_ERROR_INVALID_ARGUMENT,zeKernelCreate ZE_RESULT_ERROR_INVALID_KERNEL_NAME,zeCommandListAppendLaunchKernel ZE_RESULT_ERROR_INVALID_NULL_HANDLE,zeModuleCreate ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,zeCommandQueueSynchronize ZE_RESULT_ERROR_DEVICE_LOST"
check_eq "zetrace -E: the same, and nothing else" \
	"$(calls "$tmp/E.out" | awk '{ print $5, $8 }' | paste -sd,)" \
	"$(calls "$tmp/e.out" | awk '$8 != "ZE_RESULT_SUCCESS" { print $5, $8 }' | paste -sd,)"
check_eq "zetrace -e: the launches' kernels, group counts, group sizes and lists, as the fake received them" \
	"$(ev zeCommandListAppendLaunchKernel | awk '{ print $9, $10, $11, $13 }' | paste -sd,)" \
	"$(fake zeCommandListAppendLaunchKernel | awk '{ print $3, $5, $6, $2 }' |
		sed 's/kernel=? /kernel=0x0 /; s/groups=/grid=/; s/group_size=/block=/; s/list=/stream=/' | paste -sd,)"
check_eq "zetrace -e: zeKernelCreate's names (in the descriptor) and handles" \
	"$(ev zeKernelCreate | awk '{ print $9, $10 }' | sed 's/ $//' | paste -sd,)" \
	"$(fake zeKernelCreate | awk '{ print $3, $5 }' | sed 's/ handle=0x0$//' | paste -sd,)"
check_eq "zetrace -e: zeKernelSetGroupSize's kernels and sizes, as the fake received them" \
	"$(ev zeKernelSetGroupSize | awk '{ print $9, $10 }' | paste -sd,)" \
	"$(fake zeKernelSetGroupSize | awk '{ print $3, $4 }' | sed 's/group_size=/block=/' | paste -sd,)"
check_eq "zetrace -e: every copy's and fill's bytes" \
	"$(calls "$tmp/e.out" | awk '$5 ~ /^zeCommandListAppendMemory/ { print $6 }' | paste -sd,)" \
	"$(awk '$1 ~ /^zeCommandListAppendMemory/' "$tmp/fake.log" | field size | paste -sd,)"
check_eq "zetrace -e: allocations (the pointer written through the last argument, the 7th on the stack)" \
	"$(calls "$tmp/e.out" | awk '$5 ~ /^zeMemAlloc/ { print $5, $6, $9 }' | sed 's/ -$/ ptr=0x0/' | paste -sd,)" \
	"$(awk '$1 ~ /^zeMemAlloc/ { b = p = ""; for (i = 2; i <= NF; i++) { if ($i ~ /^bytes=/) b = substr($i, 7); if ($i ~ /^ptr=/) p = $i }
		print $1, b, p }' "$tmp/fake.log" | paste -sd,)"
check_eq "zetrace -e: frees (the pointer in the 2nd argument)" \
	"$(ev zeMemFree | awk '{ print $NF }' | paste -sd,)" "$(fake zeMemFree | field ptr | sed 's/^/ptr=/' | paste -sd,)"
check_eq "zetrace: the process killed inside zeCommandQueueSynchronize, named in -e and -E" \
	"$(grep -A2 '^PID' "$tmp/e.out" | awk 'NR == 1 { print $1, $2, $3, $4, $5, $6, $7 } NR == 3 { print $1 == p, $2 }' p=$wl | paste -sd' ') $(grep -c 'killed by SIGKILL inside' "$tmp/E.out")" \
	"PID $wl (zework) killed by SIGKILL inside: 1 zeCommandQueueSynchronize 1"
j=$tmp/j.out
check_eq "zetrace -j: the unfinished call" \
	"$(jq -r 'select(.type == "unfinished") | "\(.pid) \(.tid) \(.function) \(.ended) \(.in_call_s > 0)"' "$j")" \
	"$wl $wl zeCommandQueueSynchronize killed by SIGKILL true"
check_eq "zetrace -j: calls and errors per function, as the fake counted them" \
	"$(jq -r 'select(.type == "function") | "\(.function) \(.calls) \(.errors)"' "$j" | sort | paste -sd,)" \
	"$(awk '{ n[$1]++; if (!/ result=0( |$)/) e[$1]++ } END { for (f in n) print f, n[f], e[f] + 0 }' \
		"$tmp/fake.log" | sort | paste -sd,)"
check_eq "zetrace -j: each error's code, as the fake returned it" \
	"$(jq -r 'select(.type == "error") | "\(.function) \(.code)"' "$j" | sort | paste -sd,)" \
	"$(awk '!/ result=0( |$)/ { print $1 }' "$tmp/fake.log" | paste -d' ' - <(grep -v ' result=0\( \|$\)' "$tmp/fake.log" | field result) | sort | paste -sd,)"
check_eq "zetrace -j: the launch rows" \
	"$(jq -r 'select(.type == "launch" and .failed == 0) | "\(.kernel) \(.grid_x)x\(.grid_y)x\(.grid_z) \(.block_x)x\(.block_y)x\(.block_z) \(.launches)"' "$j" | sort | paste -sd,)" \
	"reduce 23x29x31 32x6x2 1,train_step 64x1x1 256x1x1 3,vecAdd 3x5x7 16x8x4 1"
check_eq "zetrace -j -l: at the kill, the allocations zework left, as it printed them" \
	"$(jq -r 'select(.type == "leak") | "\(.address) \(.bytes)"' "$tmp/l.out" | sort | paste -sd,)" \
	"$(awk '$1 == "leaked" { print $2, $3 }' "$tmp/wl.out" | sort | paste -sd,)"

# The real loader, where installed: zereal's calls as zereal saw them.
if ! ldconfig -p | grep -q 'libze_loader\.so\.1 '; then
	skip "zetrace: the real loader: not installed (libze1)"
else
	"$D/zereal" --wait "$tmp/rgo" >"$tmp/real.out" 2>&1 &
	rl=$!
	while ! grep -qs '^waiting' "$tmp/real.out"; do sleep 0.02; done
	start_tool "$tmp/re.out" $t -e -j -p $rl
	touch "$tmp/rgo"
	wait $rl
	check_eq "zetrace: zereal ran its calls on the real loader" "$?" 0
	wait "$tool_pid"
	check_eq "zetrace -e -j: zereal's calls and results, as zereal saw them" \
		"$(jq -r 'select(.type == "event") | "\(.function) \(.code)"' "$tmp/re.out" | paste -sd,)" \
		"$(awk '$1 == "CALL" { print $2, $3 }' "$tmp/real.out" | paste -sd,)"
fi

# The name table and no_result against the headers: the same on every
# kernel, not in the guests (ZETRACE_TESTS=kernel).
[ "${ZETRACE_TESTS:-all}" = all ] || exit 0
H=/usr/include/level_zero
if [ -r $H/ze_api.h ]; then
	# The committed name table: the generator's output, and every value as
	# the C compiler reads the header.
	check_eq "zetrace: ze_errors.c is what gen-ze-errors makes of the header" \
		"$(tools/zetrace/gen-ze-errors | md5sum)" "$(md5sum <tools/zetrace/ze_errors.c)"
	{
		echo '#include <level_zero/ze_api.h>'
		sed -n 's/^\t{ \(0x[0-9a-f]*\), "\(.*\)" },$/_Static_assert(\2 == \1, "\2");/p' \
			tools/zetrace/ze_errors.c
	} >"$tmp/values.c"
	check "zetrace: every name's value as the compiler reads the header" \
		cc -fsyntax-only "$tmp/values.c"
	# The loader's exported functions the headers do not declare are no_result's.
	lib=$(ldconfig -p | awk '/libze_loader\.so\.1 .*x86-64/ { print $NF; exit }')
	no_result=$(sed -n '/no_result\[\] = {/,/};/p' tools/zetrace/ze_api.c | grep -o '"[^"]*"' |
		tr -d '"' | sed 's/\*/.*/g' | paste -sd'|')
	check_eq "zetrace: the exported functions no header declares are no_result's" \
		"$(nm -D --defined-only "$lib" | awk '$3 ~ /^ze/ { print $3 }' | sort -u |
			while read -r f; do grep -rqE "^$f\($" $H/ || echo "$f"; done | grep -vcE "^($no_result)\$")" 0
else
		skip "zetrace: the name table and no_result against the headers: libze-dev not installed"
fi

