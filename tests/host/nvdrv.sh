#!/usr/bin/env bash
# nvdrv on the host: its command line, and the error for a kernel without
# nvidia.ko (these machines have no NVIDIA driver).
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/nvdrv

check_common_options nvdrv
expect_error "nvdrv: COMM too long" 64 "invalid COMM '0123456789abcdefg' \(1 to 15 characters\)" \
	$t -c 0123456789abcdefg
expect_error "nvdrv: empty COMM" 64 "invalid COMM ''" $t -c ''
check "nvdrv: --help lists --leaks, not its old name --live" \
	sh -c "$t --help | grep -q -- '-l, --leaks' && ! $t --help | grep -q -- '--live'"
expect_error "nvdrv: --timeline in a directory that is not there" 1 \
	"^nvdrv: --timeline /nonexistent/t.json: No such file or directory$" $t --timeline /nonexistent/t.json
check "nvdrv: --help lists its options" sh -c "$t --help | grep -q -- '--events' && $t --help | grep -q -- '--comm'"

if [ -e /sys/module/nvidia ]; then
	skip "nvdrv: no-driver error: this host has nvidia.ko"
else
	expect_error "nvdrv: no nvidia.ko names the module" 1 \
		"^nvdrv: module nvidia is not loaded \(no /sys/module/nvidia\): 'modprobe nvidia'$" $t
fi
