#!/usr/bin/env bash
# vm-options: --timeout 900
# vm-kernels: sid 5.10
# cudatrace on the VM kernels: the checks of tests/host/cudatrace.sh whose
# outcome depends on how the kernel probes, counts and returns
# (CUDATRACE_TESTS=kernel), since uprobes need no driver. 5.10 has neither
# multi-uprobe links nor BPF cookies, so there cudatrace attaches a program
# per function, one uprobe each - the oldest path - and every check must
# still hold; sid has the newest kernel's multi-uprobe links. The
# frontend's sections (Prometheus, timeline, -j, hostile names) are the same
# on every kernel: they run on the host, whose kernel has multi-uprobe links
# too. Not on 6.1: its path, one uprobe per function with cookies, is
# chosen by the frontend as on the host made to pretend it has no
# multi-uprobe links (the -f sections of tests/host/cudatrace.sh), and
# 6.1's verifier and uprobes run cudatrace -E on the real libcuda in
# tests/guest/nvclients.sh, each failing call and its result exact. Trixie's
# 6.12 probes as sid does (multi-uprobe links since 6.6). CI's time is
# budgeted per kernel (tests/README.md).
cd "$(dirname "$0")/../.." || exit 1
export CUDATRACE_TESTS=kernel
exec bash tests/host/cudatrace.sh
