#!/usr/bin/env bash
# Every man page example that pipes a tool into jq, awk or grep works on
# what the tool really prints: the filter is run on a recorded output of the
# tool run with the example's options (tests/recorded, made by
# tests/recorded/record.sh on the VM kernels and on the host), and must exit 0 and
# select at least one line. A quote that troff ate, a field that does not
# exist, a column off by one: the filter errs or selects nothing.
#
#   tests/host/man-examples.sh [MANDIR]    (default man/man8; or MAN_EXAMPLES_DIR)
#
# MANDIR: another directory of the pages (TOOL.8), e.g. an older commit's.
# An example whose options have no recording fails, naming the file it
# wants: a new example needs a recording (record.sh).
mandir=${1:-${MAN_EXAMPLES_DIR:-}}
if [ -n "$mandir" ]; then
	mandir=$(cd "$mandir" && pwd) || { echo "FAIL man examples: no directory $1"; exit 1; }
fi
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
mandir=${mandir:-$PWD/man/man8}
rec=tests/recorded

# examples PAGE: the EXAMPLES section's commands (the lines at the tag's
# indent) that pipe into jq, awk or grep, as man renders them.
examples() {
	LC_ALL=C.UTF-8 MANWIDTH=250 man -l "$1" 2>/dev/null |
		awk '/^EXAMPLES/ { s = 1; next } s && /^[^ ]/ { s = 0 } s && /^       [^ ]/' |
		sed 's/^ *//' | grep -E '\| *(jq|awk|grep)( |$)'
}

# options TOOL: "SHORT LONG ARG" for each option bin/TOOL --help lists
# (SHORT - for a long option alone; ARG 1 when it takes an argument).
options() {
	# (mawk: no {n,m} in its regular expressions)
	"bin/$1" --help | awk 'match($0, /^ +-/) && RLENGTH <= 7 {
		l = $0; sub(/^ +/, "", l); s = "-"
		if (l ~ /^-[^-], /) { s = substr(l, 2, 1); l = substr(l, 5) }
		if (l !~ /^--[a-z]/) next
		n = substr(l, 3); sub(/[][ =].*/, "", n)
		print s, n, (l ~ /^--[a-z0-9-]+\[?=/) ? 1 : 0 }'
}

# key TOOL ARGS...: the recording's name for these options (record.sh says
# the same): the short options' letters, sorted; _NAME for each long option
# without a short one; _ARG for each argument that is no option's. The
# options' arguments are left out. An option --help does not list: status 1,
# and why on stdout.
key() {
	local tool=$1 opts letters="" longs=() pos=() w c s n a i
	shift
	opts=$(options "$tool")
	# optline NAME-OR-LETTER FIELD: the option's line of options(), or nothing.
	optline() { awk -v f="$2" -v v="$1" '$f == v' <<<"$opts"; }
	while [ $# -gt 0 ]; do
		w=$1
		shift
		case $w in
		--)
			for w; do pos+=("_$w"); done
			break
			;;
		--*=*|--*)
			n=${w#--}
			n=${n%%=*}
			read -r s _ a <<<"$(optline "$n" 2)"
			[ -n "$s" ] || { echo "option --$n is not one of bin/$tool --help's"; return 1; }
			[ "$a" = 1 ] && [ "$w" = "--$n" ] && shift
			if [ "$s" = - ]; then longs+=("_$n"); else letters+=$s; fi
			;;
		-?*)
			for ((i = 1; i < ${#w}; i++)); do
				c=${w:i:1}
				read -r s _ a <<<"$(optline "$c" 1)"
				[ -n "$s" ] || { echo "option -$c is not one of bin/$tool --help's"; return 1; }
				letters+=$c
				if [ "$a" = 1 ]; then
					[ $((i + 1)) -eq ${#w} ] && shift
					break
				fi
			done
			;;
		*) pos+=("_$w") ;;
		esac
	done
	letters=$(printf '%s' "$letters" | fold -w1 | LC_ALL=C sort -u | tr -d '\n')
	w=$letters$(printf '%s\n' "${longs[@]}" | LC_ALL=C sort -u | tr -d '\n')$(printf '%s' "${pos[@]}")
	echo "${w:-none}"
}

found=0
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "man examples: make print-tools named no tool"; exit 1; }
tmp=$(mktemp -d /tmp/man-examples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for t in $tools; do
	page=$mandir/$t.8
	[ -f "$page" ] || { skip "man examples: $t: no page $t.8 in $mandir"; continue; }
	while IFS= read -r ex <&3; do
		found=$((found + 1))
		name="man examples: $t: $ex"
		cmd=${ex%%|*}
		filter=${ex#*|}
		# A $(...) in the command (a PID looked up) is one argument.
		# shellcheck disable=SC2001,SC2016
		read -ra words <<<"$(sed 's/\$([^)]*)/PID/g' <<<"$cmd")"
		if [ "${words[0]}" != "$t" ]; then
			fail "$name: does not start with $t"
			continue
		fi
		if [ ! -x "bin/$t" ]; then
			fail "$name: bin/$t is not built (make all)"
			continue
		fi
		if ! k=$(key "${words[@]}"); then
			fail "$name: $k"
			continue
		fi
		file=$rec/$t/$k.out
		if [ ! -s "$file" ]; then
			fail "$name: no recording $file for these options (tests/recorded/record.sh)"
			continue
		fi
		timeout 30 sh -c "$filter" <"$file" >"$tmp/out" 2>"$tmp/err"
		status=$?
		lines=$(wc -l <"$tmp/out")
		if [ "$status" != 0 ]; then
			fail "$name: the filter exited with status $status on $file: $(head -2 "$tmp/err" | paste -sd' ' | tr -s ' ')"
		elif [ "$lines" = 0 ]; then
			fail "$name: the filter selected nothing of $file's $(wc -l <"$file") lines"
		else
			pass "$name"
		fi
	done 3< <(examples "$page")
done
check_ge "man examples: examples that pipe a tool into jq, awk or grep, in $(basename "$mandir")" "$found" 1
[ "$failures" = 0 ] && [ "$found" -ge 1 ]
