#!/usr/bin/env bash
# Every tool has a man page that renders without groff warnings and
# documents every option its --help lists.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

# The Makefile's TOOLS: a tool registered there is checked here (MAKEFLAGS='':
# not the flags of a make running the tests, its jobserver among them).
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "man: make print-tools named no tool"; exit 1; }
for t in $tools; do
	bin=bin/$t
	page=man/man8/$t.8
	if [ ! -f "$page" ]; then
		fail "man: $t has no $page"
		continue
	fi
	warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	check_eq "man: $page renders without warnings" "$warnings" ""
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
	missing=""
	for opt in $("$bin" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "$opt" <<<"$text" || missing+=" $opt"
	done
	check_eq "man: $page documents every long option of --help" "${missing# }" ""
done
