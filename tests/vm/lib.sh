# Shared by the VM harness scripts and tests/kmod/build (sourced).
# shellcheck shell=bash

# Everything fetched or built for the VMs lives here, outside the repo.
CACHE=${GPU_BPF_CACHE:-$HOME/.cache/gpu-bpf-tools}

die() { echo "${0##*/}: $*" >&2; exit 1; }

# has_btf KO: whether the module file has a .BTF section. Not `readelf |
# grep -q`: under pipefail, grep leaving at the match makes readelf's next
# write fail with SIGPIPE, and the pipeline with it (a 12 KB section list
# with .BTF before its last 4 KB: 15 false "no BTF" in 200).
has_btf() { readelf -S "$1" | grep ' \.BTF ' >/dev/null; }

# Install the Debian packages that are missing: quiet and quick when all are
# there; `apt-get update` only when something has to be installed.
need_packages() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "installing: ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# step LABEL CMD...: one set-up step, said on stdout as it starts
# ("setup: LABEL ...") and as it ends, with what it made (CMD's last line
# on stdout) and its time ("setup: LABEL: RESULT, N s"). What else CMD
# says goes to stderr. The status is CMD's; a failure ends the line with
# "failed (status N)".
step() {
	local label=$1 t0=$SECONDS out status=0
	shift
	echo "setup: $label ..."
	out=$("$@") || status=$?
	out=${out##*$'\n'}
	if [ "$status" -eq 0 ]; then
		echo "setup: $label: ${out:-done}, $((SECONDS - t0)) s"
	else
		echo "setup: $label: failed (status $status), $((SECONDS - t0)) s"
	fi
	return "$status"
}

# Take an exclusive lock on FILE for the rest of the calling script (the
# descriptor stays open until it exits): serializes concurrent fetches/builds.
lock() {
	mkdir -p "$(dirname "$1")"
	exec 9>"$1"
	flock 9
}

# This machine's main Debian apt source (not -security), as a deb822
# stanza printed verbatim, or a one-line "deb ..." entry. Read at run time,
# so no host name is written in the repo.
debian_source() {
	local f src=""
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		# Paragraph mode: the first stanza of binary packages whose URI and
		# suites are not the security archive's.
		src=$(awk 'BEGIN { RS = "" }
			/(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ && !/(^|\n)URIs:[^\n]*security/ &&
			!/(^|\n)Suites:[^\n]*-security/ { print; exit }' "$f")
		[ -n "$src" ] && break
	done
	if [ -z "$src" ]; then
		src=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" && !/security/ { print; exit }')
	fi
	[ -n "$src" ] || die "cannot find this machine's Debian archive in /etc/apt"
	printf '%s\n' "$src"
}

# This machine's Debian security archive source, like debian_source (the
# first stanza or line whose suites are -security), or nothing.
debian_security_source() {
	local f src=""
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		src=$(awk 'BEGIN { RS = "" }
			/(^|\n)Types:[^\n]*deb([ \t]|\n|$)/ && /(^|\n)Suites:[^\n]*-security/ { print; exit }' "$f")
		[ -n "$src" ] && break
	done
	if [ -z "$src" ]; then
		src=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			awk '$1 == "deb" && /-security/ { print; exit }')
	fi
	printf '%s' "$src"
}

# The Debian archive's URI (the first one), e.g. for debootstrap.
debian_mirror() {
	debian_source | awk '
		/^URIs:/ { print $2; exit }
		/^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }'
}

# apt-get/apt-cache against another suite or other components of this
# machine's Debian archive (Debian sid; bookworm's non-free), with all apt
# state kept in the cache, in $CACHE/apt-NAME: the host's own apt
# configuration, lists and package state stay untouched. The source is this
# machine's own (same URIs, same Signed-By keyring), with the suites and
# components replaced.
archive_apt_opts() { # NAME
	local d=$CACHE/apt-$1 f=$CACHE/apt-$1/$1.sources
	[ -e "$d/$1.list" ] && f=$d/$1.list    # the host uses one-line sources
	echo "-o Dir::Etc::SourceList=$f -o Dir::Etc::SourceParts=$d/empty" \
	     "-o Dir::State=$d/state -o Dir::Cache=$d/cache" \
	     "-o APT::Sandbox::User=root"
}
# SECURITY-SUITE...: suites of this machine's security archive too (e.g.
# bullseye-security), from its security source (debian_security_source).
archive_apt_update() { # NAME "SUITE..." "COMPONENT..." ["SECURITY-SUITE..."]
	local d=$CACHE/apt-$1 suites=$2 comps=$3 secsuites=${4:-} src sec="" f lockfd
	mkdir -p "$d/empty" "$d/state/lists/partial" "$d/cache/archives/partial"
	# One update at a time: tests/run's downloads run beside the builds,
	# and both may refresh the same configuration (apt-get update would
	# refuse a second time, as the lists are locked).
	exec {lockfd}>"$d/.update.lock"
	flock "$lockfd"
	touch "$d/state/status"
	src=$(debian_source)
	if [ -n "$secsuites" ]; then
		sec=$(debian_security_source)
		[ -n "$sec" ] || die "cannot find this machine's Debian security archive in /etc/apt (for $secsuites)"
	fi
	if [ "${src#deb }" != "$src" ]; then
		# One-line format: deb [options] URI SUITE COMPONENTS..., a line per suite.
		f=$d/$1.list
		{
			archive_list_lines "$suites" "$comps" <<<"$src"
			[ -z "$sec" ] || archive_list_lines "$secsuites" "$comps" <<<"$sec"
		} >"$f.tmp"
		rm -f "$d/$1.sources"
	else
		# deb822: the same stanza (URIs, Signed-By, ...) with these suites and components.
		f=$d/$1.sources
		{
			archive_stanza "$suites" "$comps" <<<"$src"
			[ -z "$sec" ] || { echo; archive_stanza "$secsuites" "$comps" <<<"$sec"; }
		} >"$f.tmp"
		rm -f "$d/$1.list"
	fi
	# A changed source (the host's, or what is asked of it) refreshes the lists.
	cmp -s "$f.tmp" "$f" || rm -f "$d"/state/lists/*Packages*
	mv "$f.tmp" "$f"
	# Refresh at most once a day: sid moves, but not that fast.
	if [ -z "$(find "$d/state/lists" -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
		# shellcheck disable=SC2046
		apt-get $(archive_apt_opts "$1") update -qq
	fi
	exec {lockfd}>&-
}

# A deb822 stanza (stdin) with these suites and components.
archive_stanza() { # "SUITE..." "COMPONENT..."
	awk -v suites="$1" -v comps="$2" '
	     /^Types:/      { print "Types: deb"; next }
	     /^Suites:/     { print "Suites: " suites; next }
	     /^Components:/ { print "Components: " comps; next }
	     { print }'
}
# A one-line entry (stdin): a line per suite, with these components.
archive_list_lines() { # "SUITE..." "COMPONENT..."
	awk -v suites="$1" -v comps="$2" '{ i = 2; o = ""
		if ($2 ~ /^\[/) { while ($i !~ /\]$/) o = o " " $(i++); o = o " " $(i++) }
		n = split(suites, s, " ")
		for (j = 1; j <= n; j++) print "deb" o, $i, s[j], comps }'
}

# The kernels of the test ground (tests/vm), all four by default (what
# tests/run and tests/vm/setup do without --kernel): Debian bookworm's 6.1,
# sid's newest, trixie's 6.12 and bullseye's 5.10 (no module BTF at all:
# the record path and the fallbacks for BPF features 5.10 lacks).
# shellcheck disable=SC2034  # (read by setup and tests/run)
KERNELS_DEFAULT="6.1 sid 6.12 5.10"
KERNELS_ALL="5.10 6.1 6.12 sid"
is_kernel() { case " $KERNELS_ALL " in *" $1 "*) [ -n "$1" ] ;; *) return 1 ;; esac; }

# kernel_suite K: the Debian release each kernel comes from, and where its
# packages are. Sets
#   suite      the Debian suite (the debootstrap of a build chroot)
#   apt_name   "" for this machine's own apt (bookworm: 6.1), else the name of
#              an apt configuration in the cache (archive_apt_update)
#   suites, security_suites   what that configuration lists (main)
# shellcheck disable=SC2034  # (read by the callers)
kernel_suite() {
	case "$1" in
	5.10) suite=bullseye apt_name=bullseye suites=bullseye security_suites=bullseye-security ;;
	6.1) suite=bookworm apt_name="" suites="" security_suites="" ;;
	6.12) suite=trixie apt_name=trixie suites="trixie trixie-updates" security_suites=trixie-security ;;
	sid) suite=sid apt_name=sid suites=sid security_suites="" ;;
	*) die "unknown kernel $1 (one of: $KERNELS_ALL)" ;;
	esac
}

# chroot_dir K: the Debian build chroot of kernel K's suite (tests/kmod/build
# makes it with debootstrap; tests/nvidia/build builds in it): for kernels
# whose compiler this machine lacks (all but 6.1).
chroot_dir() {
	kernel_suite "$1"
	if [ "$1" = sid ]; then echo "$CACHE/sid-chroot"; else echo "$CACHE/chroot-$suite"; fi
}

# Debian sid's main component (the sid kernel): $CACHE/apt-sid.
sid_apt_opts() { archive_apt_opts sid; }
sid_apt_update() {
	rm -rf "$CACHE/apt-sid/lists"    # an older layout of this directory
	archive_apt_update sid sid main
}

# extract_vmlinux KDIR: the plain vmlinux ELF inside KDIR/vmlinuz (the
# bzImage's compressed payload), unpacked once into KDIR/vmlinux: booted
# directly by tests/vm/run, and the BTF base of test modules built for the
# kernel (its .BTF section is kept). Status 1 when there is none.
extract_vmlinux() {
	local kdir=$1 z=$1/vmlinuz tmp=$1/vmlinux.tmp.$$ magic dec off
	[ -s "$kdir/vmlinux" ] && return 0
	for magic in '\xfd7zXZ\x00:xz -dcq' '\x28\xb5\x2f\xfd:zstd -dcq' '\x1f\x8b\x08:gzip -dcq'; do
		dec=${magic#*:}; magic=${magic%%:*}
		off=$(LC_ALL=C grep -obUaP "$magic" "$z" | head -1 | cut -d: -f1)
		[ -n "$off" ] || continue
		# The decompressors complain about the bytes after the payload.
		tail -c +$((off + 1)) "$z" | $dec >"$tmp" 2>/dev/null || true
		if cmp -s -n 4 "$tmp" <(printf '\177ELF'); then
			mv "$tmp" "$kdir/vmlinux"
			return 0
		fi
	done
	rm -f "$tmp"
	return 1
}
