#!/usr/bin/env bash
# gpuhang on the host: its command line, and the error for a kernel without
# DRM (these machines' kernels have none, so no gpu_scheduler events).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/gpuhang

check_common_options gpuhang
expect_error "gpuhang: -n beyond the recorder" 64 "invalid number of jobs '65'" $t -n 65
expect_error "gpuhang: -n not a number" 64 "invalid number of jobs 'x'" $t -n x
check "gpuhang: --help lists its options" sh -c \
	"$t --help | grep -q -- '--jobs' && $t --help | grep -q -- '--events'"

if [ -e /sys/kernel/tracing/events/gpu_scheduler ] || [ -e /sys/module/gpu_sched ]; then
	skip "gpuhang: no-driver error: this host has gpu_scheduler events"
else
	expect_error "gpuhang: no driver names the module to load" 1 \
		"^gpuhang: no gpu_scheduler tracepoints: module gpu-sched is not loaded.*modprobe amdgpu" $t
fi
