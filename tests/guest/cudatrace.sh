#!/usr/bin/env bash
# vm-options: --timeout 1500
# vm-kernels: 6.1 sid 5.10
# cudatrace on the VM kernels: the same checks as on the host
# (tests/host/cudatrace.sh), since uprobes need no driver. What this adds is
# the kernel: 6.1 has no multi-uprobe links, so there cudatrace attaches one
# uprobe per function - the fallback path - and every check must still hold;
# 5.10 has no BPF cookies either (a program per function). On both only the
# sections whose outcome depends on the kernel run (CUDATRACE_TESTS=kernel:
# on 5.10 6 minutes under TCG, the whole script 9; on 6.1 the whole took
# 11.5); the frontend's (Prometheus, timeline, -j, hostile names) run on the
# host and on sid. Trixie's 6.12 probes as sid does (multi-uprobe links
# since 6.6), so it is not run there. CI's time is budgeted per kernel
# (tests/README.md).
cd "$(dirname "$0")/../.." || exit 1
case "${VM_KERNEL:-}" in 5.10|6.1) export CUDATRACE_TESTS=kernel ;; esac
exec bash tests/host/cudatrace.sh
