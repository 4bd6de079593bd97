#!/usr/bin/env bash
# vm-kernels: sid 5.10
# cltrace on the VM kernels: the checks of tests/host/cltrace.sh, since
# uprobes need no driver (pocl runs the kernels on the guest's CPU). 5.10
# has neither multi-uprobe links nor BPF cookies: a program per function,
# each with its arguments' decoding fixed at load; sid has multi-uprobe
# links. 6.1's path (a uprobe per function, with cookies) is cudatrace's
# on the real libcuda (tests/guest/nvclients.sh): the same engine.
cd "$(dirname "$0")/../.." || exit 1
exec bash tests/host/cltrace.sh
