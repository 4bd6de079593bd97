#!/usr/bin/env bash
# The build's promises: make install puts binaries and man pages under
# PREFIX; make static gives binaries that need no shared library at all.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# The Makefile's TOOLS: what install and static promise (MAKEFLAGS='': not the
# flags of a make running the tests, its jobserver among them).
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "install: make print-tools named no tool"; exit 1; }
dest=$(mktemp -d)
if make -s install DESTDIR="$dest" PREFIX=/usr/local >"$dest.log" 2>&1; then
	for t in $tools; do
		check "install: sbin/$t" test -x "$dest/usr/local/sbin/$t"
		check "install: man8/$t.8" test -f "$dest/usr/local/share/man/man8/$t.8"
	done
	check "install: man7/gpu-bpf-tools.7, the suite's page" \
		test -f "$dest/usr/local/share/man/man7/gpu-bpf-tools.7"
	check_eq "install: the tools alone (not the template)" \
		"$(find "$dest/usr/local/sbin" -mindepth 1 -printf '%f\n' | sort | paste -sd' ')" \
		"$(tr ' ' '\n' <<<"$tools" | sort | paste -sd' ')"
else
	fail "install: make install failed: $(tail -3 "$dest.log")"
fi
rm -rf "$dest" "$dest.log"

if make -s static >/tmp/static.log 2>&1; then
	for t in $tools; do
		check "static: bin/static/$t needs no shared library" \
			sh -c "file bin/static/$t | grep -q 'statically linked'"
		check_eq "static: bin/static/$t runs" "$(bin/static/$t -V)" "$t 0.1"
	done
else
	fail "static: make static failed: $(tail -3 /tmp/static.log)"
fi
