#!/usr/bin/env bash
# i915mem on the host: its command line, and the error for a kernel without
# an Intel GPU driver (these machines' kernels have none).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/i915mem

check_common_options i915mem
expect_error "i915mem: unknown driver" 64 "invalid DRIVER 'amdgpu' \(i915 or xe\)" $t -D amdgpu
expect_error "i915mem: COMM too long" 64 "invalid COMM '0123456789abcdefg' \(1 to 15 characters\)" \
	$t -c 0123456789abcdefg
expect_error "i915mem: empty COMM" 64 "invalid COMM ''" $t -c ''
expect_error "i915mem: --cgroup of no directory" 64 "^i915mem: --cgroup /nonexistent: No such file or directory" \
	$t --cgroup /nonexistent
check "i915mem: --help lists -j, --cgroup and -C" sh -c \
	"$t --help | grep -q -- '--json' && $t --help | grep -q -- '--cgroup' && $t --help | grep -q -- '--show-cgroup'"
check "i915mem: --help lists its options" sh -c \
	"$t --help | grep -q -- '--events' && $t --help | grep -q -- '--leaks' && $t --help | grep -q -- '--driver' && $t --help | grep -q -- '--comm'"

if [ -e /sys/kernel/tracing/events/i915 ] || [ -e /sys/kernel/tracing/events/xe ]; then
	skip "i915mem: no-driver error: this host has i915 or xe"
else
	expect_error "i915mem: no driver names the modules to load" 1 \
		"^i915mem: no Intel GPU driver loaded \(no i915 or xe trace events\): 'modprobe i915' or 'modprobe xe'" $t
	expect_error "i915mem: -D i915 without i915 names the module" 1 \
		"^i915mem: driver i915 is not loaded: 'modprobe i915'" $t -D i915
fi
