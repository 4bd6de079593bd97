# What tests/nvidia/build (nvidia.ko) and tests/nvidia/build-uvm (nvidia.ko
# with nvidia-uvm.ko) share: the driver's source unpacked and patched to
# load without a GPU, what 550 needs for Linux 7.x, and the driver's own
# Makefile run for a kernel, on the host (6.1) or in the kernel's build
# chroot. Sourced after tests/vm/lib.sh.
# shellcheck shell=bash

# nv_unpack DEB DIR: the kernel module source of the nvidia-kernel-source
# package DEB, unpacked afresh under DIR, with the no-GPU patch; prints the
# source tree (DIR/modules/nvidia-kernel).
#
# The no-GPU patch: nvidia_init_module (kernel/nvidia/nv.c) initialises the
# resource manager (nv_module_init), registers the PCI driver, then gives up
# with -ENODEV on three checks when no GPU was found, probed, or initialised
# (each "&& !is_nvswitch_present"). Those three become "if (0 && ...)": the
# module stays loaded with its resource manager up and serves /dev/nvidiactl
# (char major 195, minor 255), which is all the tests need. Exactly three
# checks must change.
nv_unpack() {
	local deb=$1 dir=$2 nv n
	rm -rf "$dir" && mkdir -p "$dir"
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/src/nvidia-kernel.tar.xz | tar -xJ -C "$dir"
	nv=$dir/modules/nvidia-kernel
	[ -f "$nv/nvidia/nv.c" ] || die "no nvidia/nv.c in $deb"
	sed -i -E 's/^([ \t]*)if \(\((count|num_probed_nv_devices|num_nv_devices) == 0\) && \(!is_nvswitch_present\)\)[ \t]*$/\1if (0 \&\& (\2 == 0) \&\& (!is_nvswitch_present)) \/* gpu-bpf-tools: load without a GPU *\//' \
		"$nv/nvidia/nv.c"
	n=$(grep -c 'gpu-bpf-tools: load without a GPU' "$nv/nvidia/nv.c" || true)
	[ "$n" = 3 ] || die "the no-GPU patch changed $n checks in nvidia_init_module, not 3 (nv.c changed?)"
	echo "$nv"
}

# sid_compat NV HEADERS: what 550 needs to build for Linux 7.x, whose
# headers (HEADERS: the -common tree) it predates. Each step is applied
# only where the headers need it.
sid_compat() {
	local nv=$1 hdrs=$2
	# strncpy() is gone from Linux 7.x (include/linux/string.h): an inline
	# one with its semantics (copy up to n bytes, pad with NULs), included
	# by the files that call it (nvidia's and nvidia-uvm's). Not through
	# ccflags: the driver's conftest compiles with those too, and then
	# detects the kernel's API wrongly.
	if ! grep -Eq '^[^ *].*[ *]strncpy\(' "$hdrs/include/linux/string.h"; then
		cat >"$nv/common/inc/nv-gbt-strncpy.h" <<-'EOF'
		/* gpu-bpf-tools, tests/nvidia: Linux 7.x has no strncpy(). */
		#include <linux/string.h>
		static inline char *nv_gbt_strncpy(char *dst, const char *src, size_t n)
		{
		    size_t len = strnlen(src, n);

		    memcpy(dst, src, len);
		    memset(dst + len, 0, n - len);
		    return dst;
		}
		#define strncpy nv_gbt_strncpy
		EOF
		grep -lw strncpy "$nv"/nvidia/*.c "$nv"/nvidia-uvm/*.c 2>/dev/null | while read -r f; do
			sed -i '1i #include "nv-gbt-strncpy.h"' "$f"
		done
	fi
}

# nv_make K KVER SRC LOG MODULES: the driver's own Makefile, as DKMS runs it,
# building MODULES ("nvidia", "nvidia nvidia-uvm") from SRC (nv_unpack's
# DIR) for kernel K, the output in LOG; status make's. SYSSRC is the
# headers' -common tree, SYSOUT the -amd64 one, CC the kernel's compiler.
# Calling kbuild directly (make -C HEADERS M=...) does not work: the
# driver's conftest.sh then finds no stdarg.h and mis-detects the kernel's
# API. No vmlinux is put beside the headers, as in a DKMS build on Debian:
# the modules get no BTF, like the ones users have.
#
# 6.1: bookworm's gcc-12 on the host, the headers unpacked into
#      $CACHE/nvidia/KVER/headers (tests/nvidia/build does that).
# sid, 5.10, 6.12: in the build chroot of the kernel's suite made by
#      tests/kmod/build (sid, bullseye, trixie: the kernel's gcc, its headers
#      unpacked in it), the source bind-mounted at /nvidia in a private mount
#      namespace; the chroot is held with tests/kmod/build's lock, so it is
#      not rebuilt under us. On Linux 7.x, sid_compat first.
nv_make() {
	local k=$1 kver=$2 src=$3 log=$4 modules=$5 hdr common root gcc status=0
	local kmake=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
		     LC_ALL=C.UTF-8 make -j"$(nproc)" NV_KERNEL_MODULES="$modules")
	if [ "$k" = 6.1 ]; then
		hdr=$CACHE/nvidia/$kver/headers
		[ -e "$hdr/.complete" ] || die "no kernel headers in $hdr (tests/nvidia/build --kernel $k)"
		common=$(compgen -G "$hdr/usr/src/linux-headers-*-common" | head -1)
		(cd "$src/modules/nvidia-kernel" && "${kmake[@]}" SYSSRC="$common" \
			SYSOUT="$hdr/usr/src/linux-headers-$kver" CC=gcc-12 modules) >"$log" 2>&1
		return
	fi
	root=$(chroot_dir "$k")
	[ "$(cat "$root/.kernel" 2>/dev/null)" = "$kver" ] || die "the chroot $root is not made for $kver"
	# Held while we build in it: tests/kmod/build makes it again when the kernel changes.
	exec 8>"$CACHE/kmod/.build-$k.lock"
	flock 8
	gcc=$(sed -n 's/^CC *=.*[)_-]\(gcc-[0-9][0-9]*\) *$/\1/p' \
		"$root/usr/src/linux-headers-$kver/.kernelvariables" | head -1)
	common=$(cd "$root" && compgen -G "usr/src/linux-headers-*-common" | head -1)
	sid_compat "$src/modules/nvidia-kernel" "$root/$common"
	mkdir -p "$root/nvidia"
	local make_nv=("${kmake[@]}" -C /nvidia/modules/nvidia-kernel SYSSRC="/$common"
		       SYSOUT="/usr/src/linux-headers-$kver" CC="${gcc:-gcc}" modules)
	# /proc for objtool and the source at /nvidia, in a mount namespace of
	# this build only (as tests/kmod/build; without one, mounted and unmounted here).
	if unshare -m --propagation private true 2>/dev/null; then
		unshare -m --propagation private sh -c \
			'mount -t proc proc "$1/proc" && mount --bind "$2" "$1/nvidia" && r=$1 && shift 2 && exec chroot "$r" "$@"' \
			sh "$root" "$src" "${make_nv[@]}" >"$log" 2>&1 || status=$?
	else
		mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
		mount --bind "$src" "$root/nvidia"
		chroot "$root" "${make_nv[@]}" >"$log" 2>&1 || status=$?
		umount "$root/proc" "$root/nvidia"
	fi
	exec 8>&-
	return "$status"
}

# nv_first_errors LOG: the first compiler errors, on one line (a reason).
nv_first_errors() {
	grep -E 'error:|Error [0-9]' "$1" | grep -v '^make' | head -3 | sed 's|.*/modules/nvidia-kernel/||' |
		tr '\n' ';' | sed 's/;$//; s/;/; /g'
}
