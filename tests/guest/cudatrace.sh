#!/usr/bin/env bash
# vm-options: --timeout 2400
# cudatrace on the VM kernels: the same checks as on the host
# (tests/host/cudatrace.sh), since uprobes need no driver. What this adds is
# the kernel: 6.1 has no multi-uprobe links, so there cudatrace attaches one
# uprobe per function - the fallback path - and every check must still hold.
cd "$(dirname "$0")/../.." || exit 1
exec bash tests/host/cudatrace.sh
