#!/usr/bin/env bash
# amdgpucs on the host: its command line, and the error for a kernel without
# amdgpu (these machines' kernels have no DRM).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/amdgpucs

check_common_options amdgpucs
expect_error "amdgpucs: RING too long" 64 "invalid RING '0123456789abcdefg' \(1 to 15 characters\)" \
	$t -r 0123456789abcdefg
expect_error "amdgpucs: empty COMM" 64 "invalid COMM ''" $t -c ''
check "amdgpucs: --help lists its options" sh -c \
	"$t --help | grep -q -- '--events' && $t --help | grep -q -- '--ring' && $t --help | grep -q -- '--comm'"

if [ -e /sys/kernel/tracing/events/amdgpu ]; then
	skip "amdgpucs: no-driver error: this host has amdgpu"
else
	expect_error "amdgpucs: no amdgpu names the module" 1 \
		"^amdgpucs: no amdgpu tracepoints: module amdgpu is not loaded: 'modprobe amdgpu'" $t
fi
