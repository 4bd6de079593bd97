#!/usr/bin/env bash
# vm-kernels: 6.1
# hiptrace on the real runtime (Debian 12's ROCm 5.2) and the real KFD of
# amdgpu, with no AMD GPU behind it, on 6.1: hipreal's calls, each result
# as hipreal saw it, or, when the runtime dies inside a call (hipclient.c
# has seen SIGSEGV in hipGetDeviceCount), that call named as the one it
# died in. On other kernels (run by hand) the checks of tests/host/hiptrace.sh
# on the fake runtime (HIPTRACE_TESTS=kernel). CI does not run those on
# 5.10: hiptrace's BPF object is cudatrace's and cltrace's (apitrace.bpf.c),
# attached the same way (a program per function, its decoding fixed at
# load), and cudatrace.sh and cltrace.sh run it there; CI's time is
# budgeted per kernel (tests/README.md).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
if [ "${VM_KERNEL:-}" != 6.1 ]; then
	HIPTRACE_TESTS=kernel exec bash tests/host/hiptrace.sh
fi
guest_init hiptrace

R=$PWD/build/tests/hip/hipreal
[ -x "$R" ] || { fail "$P $R is not built (make unit-tests)"; exit 1; }
load_module amdgpu || exit 1
check "$P the KFD is there" test -c /dev/kfd

"$R" --wait "$S/go" >"$S/real.out" 2>&1 &
rl=$!
while ! grep -qs '^waiting' "$S/real.out"; do nap 0.05; done
start "$S/e.out" -e -p $rl
touch "$S/go"
{ wait $rl; } 2>/dev/null
status=$?
wait "$tool_pid"
calls() { awk '$1 ~ /^[0-9]+\.[0-9]+$/ { print $5, $8 }' "$1"; }
died=$(awk '$1 == "DIED" { print $2, $3 }' "$S/real.out")
if [ -z "$died" ]; then
	check_eq "$P hipreal: every call returned" "$status" 0
	check_eq "$P -e: hipreal's calls and results, as hipreal saw them" \
		"$(calls "$S/e.out" | paste -sd,)" \
		"$(awk '$1 == "CALL" { print $2, $4 }' "$S/real.out" | paste -sd,)"
else
	# hipreal's handler exits 128 + N from inside the call.
	set -- $died
	check_eq "$P -e: the calls hipreal returned from, as it saw them" \
		"$(calls "$S/e.out" | paste -sd,)" \
		"$(awk '$1 == "CALL" { print $2, $4 }' "$S/real.out" | paste -sd,)"
	check_eq "$P -e: the call hipreal died in ($1, $2), and how it ended" \
		"$(grep -A2 '^PID' "$S/e.out" | awk 'NR == 1 { print $4, $5, $6, $7 } NR == 3 { print $2 }' | paste -sd' ')" \
		"exited with status $status $1"
fi
