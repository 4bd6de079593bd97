#!/usr/bin/env bash
# vm-kernels: 5.10
# zetrace on 5.10, which has neither multi-uprobe links nor BPF cookies (a
# program per function, its decoding fixed at load): the checks of
# tests/host/zetrace.sh on the fake loader, and the real one where the
# guest has it. The kernels with cookies and multi-uprobe links are the
# host's, and cudatrace's on 6.1 (tests/guest/nvclients.sh): the same engine.
cd "$(dirname "$0")/../.." || exit 1
ZETRACE_TESTS=kernel exec bash tests/host/zetrace.sh
