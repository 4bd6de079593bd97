#!/usr/bin/env bash
# vblanklat on the host: its command line, and the error for a kernel
# without DRM (these machines' kernels have none).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/vblanklat

check_common_options vblanklat
expect_error "vblanklat: CRTC out of range" 64 "invalid CRTC '16' \(expected 0\.\.15\)" $t -P 16
expect_error "vblanklat: CRTC not a number" 64 "invalid CRTC 'a'" $t -P a
# -c is a process name in every tool: a CRTC's number there is told to use -P.
expect_error "vblanklat: -c with a number says the CRTC is -P" 64 \
	"-c is the process name \(COMM\) in every tool; for CRTC 1 use -P 1" $t -c 1
check "vblanklat: --help lists its options" sh -c \
	"$t --help | grep -q -- '--events' && $t --help | grep -q -- '--crtc' && $t --help | grep -q -- '--milliseconds' &&
	 $t --help | grep -q -- '--no-btf'"

if [ -e /sys/kernel/tracing/events/drm ] || [ -e /sys/module/drm ]; then
	skip "vblanklat: no-driver error: this host has drm"
else
	expect_error "vblanklat: no display driver names the module to load" 1 \
		"^vblanklat: no drm tracepoints: module drm is not loaded" $t
fi
