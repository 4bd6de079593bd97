# Shared by the VM harness scripts (sourced).
# shellcheck shell=bash

# Everything fetched or built for the VMs lives here, outside the repo.
CACHE=${GPU_BPF_CACHE:-$HOME/.cache/gpu-bpf-tools}

die() { echo "${0##*/}: $*" >&2; exit 1; }

# Install Debian packages that are missing (idempotent, quiet when all present).
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

# The Debian archive this machine uses, read from its own apt configuration
# (deb822 or one-line format), so no host name is written in the repo.
debian_mirror() {
	local uri
	uri=$(awk '/^URIs:/ && $2 ~ /debian\/?$/ && $2 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" && $2 ~ /debian\/?$/ && $2 !~ /security/ { print $2; exit }' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
	[ -n "$uri" ] || die "cannot find the Debian archive in /etc/apt"
	echo "$uri"
}

# apt-get/apt-cache against Debian sid, with state kept in the cache:
# the host's own apt configuration and package state stay untouched.
SID_APT=$CACHE/apt-sid
sid_apt_opts() {
	echo "-o Dir::Etc::SourceList=$SID_APT/sid.sources -o Dir::Etc::SourceParts=/dev/null" \
	     "-o Dir::State::Lists=$SID_APT/lists -o Dir::Cache=$SID_APT/cache" \
	     "-o Dir::State::status=/dev/null -o APT::Sandbox::User=root -o Debug::NoLocking=1"
}
sid_apt_update() {
	mkdir -p "$SID_APT/lists/partial" "$SID_APT/cache/archives/partial"
	cat >"$SID_APT/sid.sources" <<-SRC
	Types: deb
	URIs: $(debian_mirror)
	Suites: sid
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	SRC
	# Refresh at most once a day: sid moves, but not that fast.
	if [ -z "$(find "$SID_APT/lists" -name '*Packages*' -mtime -1 2>/dev/null | head -1)" ]; then
		# shellcheck disable=SC2046
		apt-get $(sid_apt_opts) update -qq
	fi
}
