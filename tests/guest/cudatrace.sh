#!/usr/bin/env bash
# vm-options: --timeout 900
# vm-kernels: sid 5.10
# cudatrace on the VM kernels: the same checks as on the host
# (tests/host/cudatrace.sh), since uprobes need no driver. What this adds is
# the kernel: 5.10 has neither multi-uprobe links nor BPF cookies, so there
# cudatrace attaches a program per function, one uprobe each - the oldest
# path - and every check must still hold; sid has the newest kernel's
# multi-uprobe links. On 5.10 only the sections whose outcome depends on the
# kernel run (CUDATRACE_TESTS=kernel: 6 minutes under TCG, the whole script
# 9); the frontend's (Prometheus, timeline, -j, hostile names) run on the
# host and on sid. Not on 6.1 (11.5 minutes, 8 for the kernel's sections):
# its path, one uprobe per function with cookies, is chosen by the frontend
# as on the host made to pretend it has no multi-uprobe links (the -f
# sections of tests/host/cudatrace.sh), and 6.1's verifier and uprobes run
# cudatrace -E on the real libcuda in tests/guest/nvclients.sh, each failing
# call and its result exact. Trixie's 6.12 probes as sid does (multi-uprobe links since
# 6.6). CI's time is budgeted per kernel (tests/README.md).
cd "$(dirname "$0")/../.." || exit 1
case "${VM_KERNEL:-}" in 5.10) export CUDATRACE_TESTS=kernel ;; esac
exec bash tests/host/cudatrace.sh
