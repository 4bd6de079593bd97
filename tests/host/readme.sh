#!/usr/bin/env bash
# The user's documents: README.md short, every relative link of README.md
# and doc/*.md to a file that exists (and to a heading that exists, for an
# anchor), the README's kernel table true to the VM tests, and no words
# meant for the project's developers in README.md, doc/*.md and the man
# pages.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

docs=(README.md doc/*.md)

# The Makefile's TOOLS (MAKEFLAGS='': not the flags of a make running the
# tests, its jobserver among them).
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "readme: make print-tools named no tool"; exit 1; }

# ---- (a) README.md is a page, not a book -------------------------------------
check_le "readme: README.md is at most 250 lines" "$(wc -l <README.md)" 250

# ---- (b) links ---------------------------------------------------------------
# md_links FILE: "LINE<TAB>TARGET" for each inline link [text](target) outside
# fenced code blocks and code spans.
md_links() {
	awk '
		/^[ \t]*```/ { code = !code; next }
		code { next }
		{
			s = $0
			gsub(/`[^`]*`/, "", s)
			while (match(s, /\]\([^) \t]+\)/)) {
				printf "%d\t%s\n", NR, substr(s, RSTART + 2, RLENGTH - 3)
				s = substr(s, RSTART + RLENGTH)
			}
		}' "$1"
}
# md_anchors FILE: the anchors of its headings, as GitHub makes them
# (lower case, punctuation but '-' and '_' dropped, spaces as '-').
md_anchors() {
	awk '
		/^[ \t]*```/ { code = !code; next }
		code || !/^#+ / { next }
		{
			h = tolower($0)
			sub(/^#+ +/, "", h)
			gsub(/[^a-z0-9 _-]/, "", h)
			gsub(/ /, "-", h)
			print h
		}' "$1"
}
for f in "${docs[@]}"; do
	[ -f "$f" ] || continue
	dir=$(dirname "$f")
	bad=""
	while IFS=$'\t' read -r line target; do
		case "$target" in
		http://* | https://* | mailto:*) continue ;;
		esac
		path=${target%%#*}
		anchor=""
		[[ "$target" == *"#"* ]] && anchor=${target#*#}
		if [ -z "$path" ]; then
			file=$f
		else
			file=$dir/$path
		fi
		if [ ! -e "$file" ]; then
			bad+=" $f:$line:$target(no such file)"
		elif [ -n "$anchor" ] && [[ "$file" == *.md ]] &&
			! md_anchors "$file" | grep -qxF -- "$anchor"; then
			bad+=" $f:$line:$target(no such heading)"
		fi
	done < <(md_links "$f")
	check_eq "readme: every relative link of $f points at what exists" "${bad# }" ""
done
# Every tool's man page and example file linked from the README (the files
# themselves are checked above, as links).
missing=""
links=$(md_links README.md | cut -f2)
for t in $tools; do
	for want in "man/man8/$t.8" "tools/${t}_example.txt"; do
		grep -qxF -- "$want" <<<"$links" || missing+=" $want"
	done
done
check_eq "readme: README.md links every tool's man page and example file" "${missing# }" ""

# ---- (c) the kernel table: what the VM tests run -----------------------------
# The kernels a tool is tested on are those of the guest scripts that test
# it: tests/guest/TOOL.sh, and the scripts `more` names. A script's kernels
# are its "# vm-kernels: K..." line; a script without one runs on every
# kernel of KERNELS_DEFAULT (tests/vm/lib.sh), as tests/run reads it.
declare -A more=(
	[drmsched]="drmsched-nobtf"     # the record path beside the BTF path
	[nvdrv]="nvmock nvclients"      # what the driver cannot do without a GPU; NVIDIA's own clients
	[cudatrace]="nvclients"         # the real libcuda (6.1's path: a uprobe per function, cookies)
)
# Scripts that count for no tool's kernels, and why:
#   errors        every tracepoint tool's one-line refusal when the kernel
#                 lacks BTF or tracefs: not tracing;
#   tpformat      the record path's library on its own, no tool;
#   i915selftest  it runs only where a selftest i915 is built (6.1), and
#                 i915mem.sh runs on 6.1 too.
# (drmsched.sh's one cudatrace section, a timeline merged with drmsched's,
# does not make cudatrace tested on drmsched.sh's kernels either.)
# Every tests/guest/*.sh is a tool's, in `more`, or here: a new script is a
# decision made in this file.
not_counted="errors tpformat i915selftest"

kernels_default=$(sed -n 's/^KERNELS_DEFAULT="\(.*\)"$/\1/p' tests/vm/lib.sh)
kernels_all=$(sed -n 's/^KERNELS_ALL="\(.*\)"$/\1/p' tests/vm/lib.sh)
if [ -z "$kernels_default" ] || [ -z "$kernels_all" ]; then
	fail "readme: no KERNELS_DEFAULT or KERNELS_ALL in tests/vm/lib.sh"
	exit 1
fi
# in_order WORDS: the kernels among WORDS (separated by anything but letters,
# digits and dots), once each, in KERNELS_ALL's order.
in_order() {
	local k out="" words
	words=" $(tr -cs '0-9A-Za-z.' ' ' <<<"$*") "
	for k in $kernels_all; do
		[[ "$words" == *" $k "* ]] && out+=" $k"
	done
	echo "${out# }"
}
script_kernels() {
	local only
	only=$(sed -n 's/^# vm-kernels: //p' "$1")
	echo "${only:-$kernels_default}"
}

accounted=" $not_counted "
for t in $tools; do accounted+=" $t ${more[$t]:-} "; done
stray=""
for s in tests/guest/*.sh; do
	n=$(basename "$s" .sh)
	[[ "$accounted" == *" $n "* ]] || stray+=" $s"
done
check_eq "readme: every guest script is a tool's, or said in readme.sh not to count" "${stray# }" ""

# The README's table whose header has a "tested on" column: TOOL -> its kernels.
declare -A table=()
while IFS=$'\t' read -r tool cell; do
	table[$tool]=$(in_order "$cell")     # "5.10, 6.1, sid" -> "5.10 6.1 sid"
done < <(awk -F'|' '
	function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); return s }
	!in_table && /^\|/ {
		for (i = 2; i < NF; i++)
			if (tolower(trim($i)) == "tested on") { col = i; in_table = 1 }
		next
	}
	in_table && !/^\|/ { exit }
	in_table && /^[|: -]+$/ { next }
	in_table {
		name = trim($2)
		gsub(/[`*]/, "", name)
		sub(/^\[/, "", name); sub(/\].*$/, "", name)
		printf "%s\t%s\n", name, trim($col)
	}' README.md)
if [ ${#table[@]} -eq 0 ]; then
	fail "readme: README.md has no table with a 'tested on' column"
else
	for t in $tools; do
		want=""
		for s in "$t" ${more[$t]:-}; do
			[ -f "tests/guest/$s.sh" ] && want+=" $(script_kernels "tests/guest/$s.sh")"
		done
		want=$(in_order "$want")
		if [ -z "$want" ]; then
			fail "readme: $t: no guest script tests it (tests/guest/$t.sh, or readme.sh's map)"
		elif [ -z "${table[$t]+set}" ]; then
			fail "readme: $t: no row in README.md's kernel table"
		else
			check_eq "readme: kernel table: $t is tested on its guest scripts' kernels" \
				"${table[$t]}" "$want"
		fi
	done
	extra="" all=" $(tr -s ' \n' '  ' <<<"$tools") "
	for t in "${!table[@]}"; do
		[[ "$all" == *" $t "* ]] || extra+=" $t"
	done
	check_eq "readme: kernel table: no row but the tools'" "${extra# }" ""
fi

# ---- (d) words for users -----------------------------------------------------
# What the project's developers say among themselves has no place in what
# users read: the tutorial the project started from, issue numbers, the
# developers' paths and machines.
for f in "${docs[@]}" man/man8/*.8; do
	[ -f "$f" ] || continue
	hits=$(grep -inE 'seed|issue [0-9]|/work/|/home/|this machine|this host' "$f" |
		cut -c1-120 | sed "s|^|$f:|" | paste -sd';' -)
	check_eq "readme: $f has no words meant for the developers" "$hits" ""
done
