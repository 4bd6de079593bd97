#!/usr/bin/env bash
# drmsched on the host: option errors, and the error for a kernel without
# DRM (these machines' kernels have no DRM, so no gpu_scheduler events).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/drmsched

expect_error "drmsched: unknown option" 64 "invalid option -- 'x'" $t -x
expect_error "drmsched: unknown long option" 64 "unrecognized option '--bogus'" $t --bogus
expect_error "drmsched: interval 0" 64 "^drmsched: invalid interval '0' \(expected 1\.\." $t 0
expect_error "drmsched: interval not a number" 64 "invalid interval '1s'" $t 1s
expect_error "drmsched: count not a number" 64 "invalid count 'x'" $t 1 x
expect_error "drmsched: extra argument" 64 "unexpected argument '3'" $t 1 2 3
expect_error "drmsched: bad PID" 64 "invalid PID 'abc'" $t -p abc
expect_error "drmsched: negative PID" 64 "invalid PID '-5'" $t -p -5
expect_error "drmsched: empty ring" 64 "invalid ring name ''" $t -r ''
expect_error "drmsched: ring name too long" 64 "invalid ring name" $t -r "$(printf 'r%.0s' {1..40})"
expect_error "drmsched: missing option argument" 64 "requires an argument" $t -d

check "drmsched: --help lists every option" sh -c \
	"$t --help | grep -q -- '--events' && $t --help | grep -q -- '--pid' && $t --help | grep -q -- '--milliseconds'"
check_eq "drmsched: -V" "$($t -V)" "drmsched 0.1"
check "drmsched: --usage" sh -c "$t --usage | grep -q 'Usage: drmsched'"

if [ -e /sys/kernel/tracing/events/gpu_scheduler ] || [ -e /sys/module/gpu_sched ]; then
	skip "drmsched: no-driver error: this host has gpu_scheduler events"
else
	expect_error "drmsched: no driver names the module to load" 1 \
		"^drmsched: no gpu_scheduler tracepoints: module gpu-sched is not loaded.*modprobe amdgpu" $t
fi

if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
	expect_error "drmsched: unprivileged user is told to run as root" 1 \
		"^drmsched: permission denied: run as root" \
		setpriv --reuid=65534 --regid=65534 --clear-groups $t
else
	skip "drmsched: unprivileged run: needs root and setpriv to drop privileges"
fi
