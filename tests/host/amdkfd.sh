#!/usr/bin/env bash
# amdkfd on this machine: its command line, and, with no amdgpu module here
# (no AMD GPU, no module loading), the one line that says so with status 1.
# What it traces is proved in the guests (tests/guest/amdkfd.sh).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/amdkfd

check_common_options amdkfd
if [ -e /sys/module/amdgpu ]; then
	skip "amdkfd: amdgpu is loaded here: its absence is checked in the guests"
else
	expect_error "amdkfd: no amdgpu module" 1 \
		"^amdkfd: module amdgpu is not loaded .*'modprobe amdgpu'$" $t
fi
