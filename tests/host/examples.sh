#!/usr/bin/env bash
# Every tool has tools/NAME_example.txt, bcc's convention: narrated runs of
# the tool, ending with its usage message, "# NAME --help" and then exactly
# what bin/NAME --help prints; and its prose says nothing meant for us
# rather than for users.
#
#   tests/host/examples.sh            check every file
#   tests/host/examples.sh --update   rewrite each file's usage message (all
#                                     after its "# NAME --help" line) from
#                                     bin/NAME --help
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

update=0
case $# in
0) ;;
1) [ "$1" = --update ] && update=1 ;;
esac
if [ $# -gt 0 ] && [ "$update" = 0 ]; then
	echo "usage: tests/host/examples.sh [--update]" >&2
	exit 2
fi

# The Makefile's TOOLS (MAKEFLAGS='': not the flags of a make running the
# tests, its jobserver among them).
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "examples: make print-tools named no tool"; exit 1; }

tmp=$(mktemp -d /tmp/examples-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# help_line FILE TOOL: the number of the last line starting "# TOOL --help"
# (nothing when there is none).
help_line() { grep -n -- "^# $2 --help" "$1" | tail -1 | cut -d: -f1; }

if [ "$update" = 1 ]; then
	status=0
	for t in $tools; do
		f=tools/${t}_example.txt
		if [ ! -f "$f" ]; then
			echo "examples: $f is missing: write it first" >&2
			status=1
			continue
		fi
		if ! bin/"$t" --help >"$tmp/help" 2>/dev/null; then
			echo "examples: bin/$t --help failed: build it first" >&2
			status=1
			continue
		fi
		n=$(help_line "$f" "$t")
		if [ -n "$n" ]; then
			head -n "$n" "$f" >"$tmp/new"
		else
			# No usage message yet: it goes at the end.
			{ cat "$f"; printf '\nUSAGE message:\n\n# %s --help\n' "$t"; } >"$tmp/new"
		fi
		cat "$tmp/help" >>"$tmp/new"
		if cmp -s "$tmp/new" "$f"; then
			echo "examples: $f: up to date"
		else
			cat "$tmp/new" >"$f"
			echo "examples: $f: usage message rewritten from bin/$t --help"
		fi
	done
	exit $status
fi

for t in $tools; do
	f=tools/${t}_example.txt
	if [ ! -f "$f" ]; then
		fail "examples: $t has no $f"
		continue
	fi
	n=$(help_line "$f" "$t")
	if [ -z "$n" ]; then
		fail "examples: $f has no line '# $t --help' (its usage message, at the end)"
		continue
	fi
	if ! bin/"$t" --help >"$tmp/want" 2>"$tmp/want.err"; then
		fail "examples: bin/$t --help failed: $(head -1 "$tmp/want.err")"
		continue
	fi
	# Byte for byte: everything after that line, to the end of the file.
	tail -n +"$((n + 1))" "$f" >"$tmp/got"
	if cmp -s "$tmp/got" "$tmp/want"; then
		pass "examples: $f ends with bin/$t --help"
	else
		fail "examples: $f: its usage message is not bin/$t --help (run tests/host/examples.sh --update):"
		diff -u --label "$f (after line $n)" --label "bin/$t --help" "$tmp/got" "$tmp/want" |
			sed 's/^/    /'
		cmp -s <(tr -d '\n' <"$tmp/got") <(tr -d '\n' <"$tmp/want") &&
			echo "    (only line ends differ: the file must end with exactly one newline, as --help does)"
	fi
	check_eq "examples: $f: the usage message is headed 'USAGE message:'" \
		"$(sed -n "$((n > 2 ? n - 2 : 1))p" "$f")" "USAGE message:"
	# The prose (and the outputs) before the usage message: written for
	# users, nothing of ours.
	head -n "$((n - 1))" "$f" >"$tmp/prose"
	bad=$(grep -n -i -E 'seed|issue [0-9]|/work/|this machine|this host' "$tmp/prose" | head -5)
	check_eq "examples: $f says nothing meant for us (seed, issue N, /work/, this machine, this host)" \
		"$bad" ""
	check "examples: $f opens with 'Demonstrations of $t'" \
		grep -q "^Demonstrations of $t[,.]" <(head -1 "$f")
done
[ "$failures" = 0 ]
