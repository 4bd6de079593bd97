#!/usr/bin/env bash
# vm-kernels: 5.10
# cltrace on 5.10: the checks of tests/host/cltrace.sh that depend on the
# kernel (CLTRACE_TESTS=kernel: clwork's known calls, not clinfo's against
# bpftrace), since uprobes need no driver (pocl runs the kernels on the
# guest's CPU). 5.10 has neither multi-uprobe links nor BPF cookies: a
# small program per function, its cookie fixed at load, tail-calling one
# shared program. The newer paths of the same BPF object
# (bpf/apitrace.bpf.c) run cudatrace on the real libcuda in
# tests/guest/nvclients.sh: 6.1's (a uprobe per function, cookies) and
# sid's (multi-uprobe links, as on the host, where cltrace runs whole).
cd "$(dirname "$0")/../.." || exit 1
CLTRACE_TESTS=kernel exec bash tests/host/cltrace.sh
