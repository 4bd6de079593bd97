#!/usr/bin/env bash
# drmsched on the host: its command line, and the error for a kernel without
# DRM (these machines' kernels have none, so no gpu_scheduler events).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/drmsched

check_common_options drmsched
expect_error "drmsched: empty ring" 64 "invalid ring name ''" $t -r ''
expect_error "drmsched: ring name too long" 64 "invalid ring name" $t -r "$(printf 'r%.0s' {1..40})"
expect_error "drmsched: missing option argument" 64 "requires an argument" $t -d
check "drmsched: --help lists its options" sh -c \
	"$t --help | grep -q -- '--events' && $t --help | grep -q -- '--ring' && $t --help | grep -q -- '--milliseconds'"

if [ -e /sys/kernel/tracing/events/gpu_scheduler ] || [ -e /sys/module/gpu_sched ]; then
	skip "drmsched: no-driver error: this host has gpu_scheduler events"
else
	expect_error "drmsched: no driver names the module to load" 1 \
		"^drmsched: no gpu_scheduler tracepoints: module gpu-sched is not loaded.*modprobe amdgpu" $t
fi
