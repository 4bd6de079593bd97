#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# (Not on trixie's 6.12, between 6.1 and sid: CI's 90 minutes are budgeted
# per kernel, and the refusals are the frontend's, on what it finds
# lacking; tests/README.md.)
# What every tool says when the kernel lacks what it needs, on a real
# kernel, run inside the VM by tests/run: one line on stderr and exit 1,
# never a libbpf dump. Each case runs in its own mount namespace (unshare
# -m), where a part of /sys is hidden the way a machine without it would
# look:
#   - no kernel BTF: an empty tmpfs over /sys/kernel/btf (a kernel built
#     without CONFIG_DEBUG_INFO_BTF);
#   - no tracefs: /sys/kernel/tracing gone and not mountable (an empty
#     tmpfs over /sys/kernel, the real BTF bound back in);
#   - a format file that cannot be parsed: garbage bound over each format
#     file a tool's record path (--no-btf) reads.
#
# Environment (tests/vm/run): VM_KERNEL, VM_SCRATCH, VM_MODPROBE.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
S=${VM_SCRATCH:?}
P="errors:"

# The tracepoint tools, the module each needs loaded and the event
# systems their record paths read.
tracepoint_tools="drmsched:gpu-sched:gpu_scheduler amdgpucs:amdgpu:amdgpu i915mem:i915:i915 vblanklat:drm:drm"
all_tools="drmsched vblanklat i915mem amdgpucs nvdrv cudatrace gpuhang"

# in_ns SETUP CMD...: CMD in a new mount namespace after the shell SETUP.
in_ns() {
	local setup=$1
	shift
	unshare -m sh -c "$setup"' && exec "$@"' sh "$@"
}

hide_btf='mount -t tmpfs none /sys/kernel/btf'
for t in $all_tools; do
	expect_error "$P $t: no kernel BTF: one line" 1 \
		"^$t: this kernel has no BTF \(/sys/kernel/btf/vmlinux\): it needs CONFIG_DEBUG_INFO_BTF=y$" \
		in_ns "$hide_btf" "bin/$t"
done

# No tracefs: /sys/kernel without tracing (or debug), the BTF kept.
mkdir -p "$S/btf"
hide_tracefs="mount --bind /sys/kernel/btf $S/btf && (umount -l /sys/kernel/tracing; umount -l /sys/kernel/debug; true) 2>/dev/null && mount -t tmpfs none /sys/kernel && mkdir /sys/kernel/btf && mount --bind $S/btf /sys/kernel/btf"
for spec in $tracepoint_tools; do
	t=${spec%%:*}
	expect_error "$P $t: no tracefs: one line" 1 \
		"^$t: cannot find or mount tracefs at /sys/kernel/tracing: " \
		in_ns "$hide_tracefs" "bin/$t"
done

# A format file that cannot be parsed: every format of the tool's systems.
printf 'name: garbage\nID: 1\nformat:\n\tfield:what is this;\n' >"$S/bad-format"
for spec in $tracepoint_tools; do
	IFS=: read -r t mod sys <<<"$spec"
	if ! $VM_MODPROBE "$mod" 2>"$S/modprobe.err"; then
		fail "$P modprobe $mod: $(cat "$S/modprobe.err")"
		continue
	fi
	bind=""
	for f in /sys/kernel/tracing/events/$sys/*/format; do
		bind+="mount --bind $S/bad-format $f && "
	done
	# The real i915 drives no device here: -D has it traced.
	opts=(--no-btf)
	[ "$t" != i915mem ] || opts+=(-D i915)
	expect_error "$P $t --no-btf: a format file that cannot be parsed: one line naming it" 1 \
		"^$t: /sys/kernel/tracing/events/$sys/[a-z0-9_]+/format:[0-9]+: cannot parse" \
		in_ns "${bind}true" "bin/$t" "${opts[@]}"
done
