#!/usr/bin/env bash
# The template tool (tools/template.c, built by make unit-tests, never
# installed) on this machine's kernel: a workload doing exactly N
# ioctl(FIONREAD) calls on a pipe (tests/template/ioctls.c) is counted
# exactly, for its PID and that command, in the text summary, -j, -e and
# --prometheus, on both of the tool's paths; Ctrl-C ends it with status 0
# after its summary.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/template
W=build/tests/ioctls
N=1000
FIONREAD=0x541b		# x86 and arm64 (asm-generic/ioctls.h)

if [ ! -x $t ] || [ ! -x $W ]; then
	fail "template: $t or $W is not built (make unit-tests)"
	exit 1
fi
tmp=$(mktemp -d /tmp/template-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

check_common_options template

# -v: libbpf's messages, and where start-up went, phase by phase (in ms).
timeout 10 $t -v 1 1 >"$tmp/v.out" 2>"$tmp/v.err"
check_eq "template -v: exit 0 after its one interval" "$?" 0
check "template -v: start-up phase by phase, adding up to its total" awk -F'[:,]' '
	/^template: start-up [0-9]+ ms: init [0-9]+, checks [0-9]+, load [0-9]+, attach [0-9]+, rest [0-9]+$/ {
		split($2, t, " "); s = 0
		for (i = 3; i <= NF; i++) { split($i, p, " "); s += p[2] }
		ok = s <= t[2] && s >= t[2] - 5
	}
	END { exit !ok }' "$tmp/v.err"
check_eq "template -v: the verifier's statistics for each program loaded" \
	"$(awk "/^libbpf: prog '.*': -- BEGIN PROG LOAD LOG --/ { p = \$3 }
		/^processed [0-9]+ insns/ && p { print p; p = \"\" }" "$tmp/v.err" | paste -sd,)" \
	"'ioctl_enter':,'ioctl_exit':"

# text_row FILE: the summary row of the workload ($wl_pid) and FIONREAD,
# from its COMM on; jrow TYPE JQ: that of -j's rows of TYPE, through JQ.
text_row() {
	awk -v p="$wl_pid" -v c=$FIONREAD '$1 == p && $3 == c { $1 = $3 = ""; print }' "$1" | xargs
}
jrow() { jrows "$tmp/json.out" "$1" "select(.pid == $wl_pid and .cmd == \"$FIONREAD\") | $2"; }

# run_traced NAME TOOL-ARGS...: the tool until Ctrl-C, around one run of the
# workload ($wl_pid); $tmp/NAME.out and .err, $tool_status.
run_traced() {
	local name=$1
	shift
	start_tool "$tmp/$name.out" "$@" || { fail "template: $name: did not start"; return 1; }
	$W $N &
	wl_pid=$!
	wait $wl_pid	# its calls' returns were traced before it exited
	stop_tool INT
}

# Text: the summary at Ctrl-C, one row per process and command.
if run_traced text $t; then
	check_eq "template: Ctrl-C: exit 0" "$tool_status" 0
	check "template: Ctrl-C: a summary" grep -q '^PID  *COMM  *CMD  *CALLS  *ERRORS  *AVG(us)' \
		"$tmp/text.out"
	check_eq "template: text: exactly $N calls, no error, for the workload's PID and FIONREAD" \
		"$(text_row "$tmp/text.out" | cut -d' ' -f1-3)" "ioctls $N 0"
	check_eq "template: text: its latency histogram holds them" \
		"$(grep -A1 "^ioctls (pid $wl_pid) ioctl $FIONREAD:" "$tmp/text.out" |
		   awk '/count/ { print $2 }')" $N
fi

# -j and --prometheus, with -c: only the workload's rows.
if run_traced json $t -j -c ioctls --prometheus "$tmp/metrics.prom"; then
	check_eq "template: -j: exit 0" "$tool_status" 0
	check_eq "template: -j: exactly $N calls, no error, for the workload's PID and FIONREAD" \
		"$(jrow ioctl '"\(.calls) \(.errors)"')" "$N 0"
	check_eq "template: -j: its histogram's count" "$(jrow ioctl_hist .count)" $N
	check_eq "template: -c: only processes of that name" \
		"$(jrows "$tmp/json.out" ioctl .comm | sort -u)" ioctls
	check_eq "template: --prometheus: the calls per comm and command" \
		"$(grep "^gpubpf_template_ioctls_total{comm=\"ioctls\",cmd=\"$FIONREAD\"} " \
		   "$tmp/metrics.prom" | awk '{ print $2 }')" $N
fi

# -e with -p: one line per call of that process alone. The workload waits at
# its gate until the tool is attached to its PID.
mkfifo "$tmp/gate"
$W $N "$tmp/gate" &
wl_pid=$!
if start_tool "$tmp/events.out" $t -e -p $wl_pid; then
	echo >"$tmp/gate"
	wait $wl_pid
	sleep 0.3	# the ring buffer's last records read (the reader polls every 100 ms)
	stop_tool INT
	check_eq "template: -e: exit 0" "$tool_status" 0
	check_eq "template: -e -p: exactly $N lines, each the workload's FIONREAD returning 0" \
		"$(awk 'NR > 1 { print $2, $3, $5, $6 }' "$tmp/events.out" | sort | uniq -c |
		   xargs)" \
		"$N $wl_pid ioctls $FIONREAD 0"
else
	fail "template: -e: did not start"
	kill $wl_pid 2>/dev/null
fi

# --timeline: a slice per call, on the workload's thread, named by its
# command; its track named by the workload.
if run_traced tl $t -c ioctls --timeline "$tmp/tl.json"; then
	check_eq "template: --timeline: exit 0, the file is JSON (an array)" \
		"$tool_status $(jq -r type "$tmp/tl.json")" "0 array"
	check_eq "template: --timeline: exactly $N slices of the workload's FIONREAD, on its thread" \
		"$(jq "[.[] | select(.ph == \"X\" and .pid == $wl_pid and .tid == $wl_pid and
			 .name == \"ioctl $FIONREAD\" and .args.ret == 0)] | length" "$tmp/tl.json")" $N
	check_eq "template: --timeline: its track named by the workload" \
		"$(jq -r "[.[] | select(.ph == \"M\" and .pid == $wl_pid and .args.name) | .args.name] | unique | join(\" \")" \
		   "$tmp/tl.json")" ioctls
	check_eq "template: --timeline without -e: no event lines" \
		"$(grep -c '^TIME' "$tmp/tl.out")" 0
fi

# The calls in flight, where their slot is taken (inflight.bpf.h): by
# another thread's call (an owner that is not the workload's, put in its
# slot before its first call), and where there are no slots (before 5.12's
# compare-and-swap): in task storage, counted the same.
mkfifo "$tmp/gate2"
$W $N "$tmp/gate2" &
wl_pid=$!
if start_tool "$tmp/taken.out" $t -c ioctls; then
	slot=$(printf '%08x' $((wl_pid & 4095)) | sed 's/../& /g' |
	       awk '{ print $4, $3, $2, $1 }')		# the key, little-endian
	# This tool's map, by the ids it holds: an earlier run's maps of the
	# same name may outlive it a moment (their programs are freed after a
	# grace period).
	map=$(for id in $(sed -n 's/^map_id:\t*//p' /proc/$tool_pid/fdinfo/* 2>/dev/null | sort -u); do
		bpftool -j map show id "$id" | jq -r 'select(.name == "calls_slots") | .id'
	      done)
	size=$(bpftool -j map show id "$map" | jq '.bytes_value')
	owner="01 $(printf '00 %.0s' $(seq 2 "$size"))"
	check "template: another thread's call put in the workload's slot" \
		bpftool map update id "$map" key hex $slot value hex $owner
	echo >"$tmp/gate2"
	wait $wl_pid
	check_eq "template: that call's slot left to it" \
		"$(bpftool -j map lookup id "$map" key hex $slot | jq -c '.formatted.value.owner')" 1
	stop_tool INT
	check_eq "template: its slot another thread's: exit 0, exactly $N calls in task storage" \
		"$tool_status $(text_row "$tmp/taken.out" | cut -d' ' -f1-3)" "0 ioctls $N 0"
else
	fail "template: slot taken: did not start"
	kill $wl_pid 2>/dev/null
fi
if GPU_BPF_PRETEND_MISSING=atomic_fetch run_traced noslots $t -c ioctls; then
	check_eq "template: no compare-and-swap: exit 0, exactly $N calls in task storage" \
		"$tool_status $(text_row "$tmp/noslots.out" | cut -d' ' -f1-3)" "0 ioctls $N 0"
fi

# The other path: the records of syscalls:sys_*_ioctl (--no-btf), and the
# calls in flight kept by thread id, as before 5.11 (no task storage, no
# compare-and-swap); with -e, as the BTF path's lines.
if GPU_BPF_PRETEND_MISSING=task_storage,atomic_fetch run_traced rec $t -c ioctls --no-btf; then
	check_eq "template: --no-btf: the path said once on stderr, then the banner" \
		"$(cat "$tmp/rec.out.err") / $(grep -c '^Tracing ioctl(2) (syscalls:sys_\*_ioctl, their records)' "$tmp/rec.out")" \
		"template: reading the tracepoint records (--no-btf) / 1"
	check_eq "template: --no-btf: exit 0, exactly $N calls of the workload's FIONREAD" \
		"$tool_status $(text_row "$tmp/rec.out" | cut -d' ' -f1-3)" "0 ioctls $N 0"
fi
if run_traced recev $t -c ioctls --no-btf -e; then
	check_eq "template: --no-btf -e: exactly $N lines, each the workload's FIONREAD returning 0" \
		"$(awk 'NR > 1 { print $2, $3, $5, $6 }' "$tmp/recev.out" | sort | uniq -c | xargs)" \
		"$N $wl_pid ioctls $FIONREAD 0"
	check_eq "template: --no-btf -e: on one fd, its pipe's (read from the record)" \
		"$(awk 'NR > 1 { print ($4 > 2) }' "$tmp/recev.out" | sort -u)" 1
fi

# interval count: two summaries, then exit 0 by itself.
timeout 10 $t -c ioctls 1 2 >"$tmp/count.out" 2>&1
check_eq "template: 1 2: two summaries, exit 0" \
	"$? $(grep -c '^PID  *COMM' "$tmp/count.out")" "0 2"
