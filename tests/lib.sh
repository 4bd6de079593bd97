# Shell helpers for the tests (sourced): result lines in the format tests/run counts.
# shellcheck shell=bash

pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; }
skip() { echo "SKIP $*"; }

# check NAME COND-COMMAND... : PASS if the command succeeds.
check() {
	local name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name: '$*' is false"; fi
}

# check_eq NAME GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: got '$2', want '$3'"; fi
}

# check_ge NAME GOT MIN / check_le NAME GOT MAX (integers)
check_ge() {
	if [ -n "$2" ] && [ "$2" -ge "$3" ] 2>/dev/null; then pass "$1"; else fail "$1: got '$2', want >= $3"; fi
}
check_le() {
	if [ -n "$2" ] && [ "$2" -le "$3" ] 2>/dev/null; then pass "$1"; else fail "$1: got '$2', want <= $3"; fi
}

# expect_error NAME STATUS REGEX CMD...: CMD exits with STATUS, prints exactly
# one line on stderr matching REGEX, and nothing on stdout.
expect_error() {
	local name=$1 want_status=$2 regex=$3 out err status
	shift 3
	out=$(mktemp) err=$(mktemp)
	"$@" >"$out" 2>"$err"
	status=$?
	if [ "$status" != "$want_status" ]; then
		fail "$name: exit status $status, want $want_status; stderr: $(head -3 "$err")"
	elif [ "$(wc -l <"$err")" -ne 1 ] && ! { [ "$(wc -l <"$err")" -eq 2 ] && grep -q "^Try \`" "$err"; }; then
		fail "$name: stderr is not one line (plus argp's Try hint): $(cat "$err")"
	elif ! head -1 "$err" | grep -Eq -- "$regex"; then
		fail "$name: stderr '$(head -1 "$err")' does not match /$regex/"
	elif [ -s "$out" ]; then
		fail "$name: unexpected stdout: $(head -3 "$out")"
	else
		pass "$name"
	fi
	rm -f "$out" "$err"
}
