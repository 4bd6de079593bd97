#!/usr/bin/env bash
# vm-options: --vga
# vblanklat on a real kernel, inside the VM (tests/run boots it with qemu's
# standard VGA, which the bochs DRM driver drives). Where the kernel emulates
# vblanks for bochs with a timer at the mode's refresh (sid), the workload
# vblwait asks for an exact number of vblank events and the test module
# stall freezes every CPU to make the kernel miss vblanks; elsewhere (5.10,
# 6.1, 6.12: the kernel refuses vblank events for bochs) the tool must say
# there are none. Decided by asking the kernel for a vblank event, not by
# its version. Both paths run: the BTF path (drm's BTF: the typed arguments
# and drm's structs) and the record path (--no-btf; chosen by the tool where
# drm has no BTF: 5.10, or drm's .BTF removed here), compared on the same
# workload.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

guest_init vblanklat
W=$PWD/build/tests/vblwait
F=$PWD/build/tests/vblflip
# Extra arguments of every run of the tool (--no-btf for the record path).
X=()
start() { start_tool "$1" "$T" "${X[@]}" "${@:2}"; }
# The CRTC row: "VBLANKS RATE MISSED RESUMED".
crtc_row() { awk -v c="$2" '$1 == c && NF >= 6 && $2 ~ /^[0-9]+$/ { print $2, $3, $4, $5; exit }' "$1"; }
# A client row by PID: "QUEUED DELIVERED FLIPS Q->D V->D".
# A client's row: PID COMM QUEUED DELIVERED FLIPS Q->D V->D C->F MISSED: "QUEUED ... V->D".
file_row() { awk -v p="$2" '$1 == p && NF == 9 { print $3, $4, $5, $6, $7; exit }' "$1"; }
# The stderr lines of the record path: "WHY" the path was taken.
announced() {
	printf "vblanklat: reading the tracepoint records (%s)\nvblanklat: not in the records, printed as '-': V->D\n" "$1"
}

# ---------------------------------------------------------------------------
expect_error "$P no display driver: names the module" 1 \
	"^vblanklat: no drm tracepoints: module drm is not loaded" "$T"

# 5.10's driver is the module bochs-drm.
drv=bochs
$VM_MODPROBE -n bochs >/dev/null 2>&1 || drv=bochs-drm
load_module $drv || exit 1
for i in $(seq 1 50); do [ -e /dev/dri/card0 ] && break; nap 0.1; done
check "$P $drv gives /dev/dri/card0" test -e /dev/dri/card0
tp=/sys/kernel/tracing/events/drm
check "$P the kernel's drm_vblank_event has crtc, seq, time, high_prec" sh -c \
	"grep -q 'int crtc' $tp/drm_vblank_event/format && grep -q 'unsigned int seq' $tp/drm_vblank_event/format &&
	 grep -q 'ktime_t time' $tp/drm_vblank_event/format && grep -q 'bool high_prec' $tp/drm_vblank_event/format"
check "$P the kernel's drm_vblank_event_delivered has file, crtc, seq" sh -c \
	"grep -q 'struct drm_file \\* file' $tp/drm_vblank_event_delivered/format"

have_btf=0
[ -e /sys/kernel/btf/drm ] && have_btf=1
# The default path's stderr: nothing with drm's BTF, else the record path said.
default_err() { [ "$have_btf" = 1 ] || announced "module drm has no BTF"; }
timeout 20 "$W" -n 1 >"$S/probe.out" 2>"$S/probe.err"
probe_status=$?
vblanks=0
[ "$probe_status" = 0 ] && vblanks=1
echo "note: $K: drm BTF $have_btf, vblanks $vblanks ($(cat "$S/probe.err"))"

# no_vblanks TAG ARGS...: the tool (ENV ARGS) where bochs has no vblanks:
# it explains in one line and prints no CRTC table; ERR its whole stderr.
no_vblanks() {
	local tag=$1 err=$2 out=$S/none-$1.out
	shift 2
	timeout 60 "$@" "$T" "${X[@]}" 2 1 >"$out" 2>"$out.err"
	check_eq "$P $tag: runs and exits 0" "$?" 0
	check "$P $tag: explains that no CRTC has vblanks, naming the driver" \
		grep -Eq "^no vblanks: no CRTC generated a vblank interrupt.*bochs(-drm)? \(card0\)" "$out"
	check_eq "$P $tag: the explanation is one line" "$(grep -c "^no vblanks" "$out")" 1
	check "$P $tag: no CRTC table" sh -c "! grep -q '^CRTC' '$out'"
	check_eq "$P $tag: stderr says which path, nothing else" "$(cat "$out.err")" "$err"
}

# kernel_deliveries OUT: -e's DELIVERED lines with DETAIL "kernel" are the
# kernel's deliveries to no file (the trace buffer's file=0 ones): "CRTC
# SEQ" each, both inside the vblanks the tool saw (exclusive, so that the
# tool's attach and detach do not matter), and at least one.
kernel_deliveries() {
	local first last
	read -r first last <<<"$(awk '$2 == "VBLANK" && $3 == 0 { if (f == "") f = $4; l = $4 } END { print f, l }' "$1")"
	check_eq "$P -e: the kernel's own deliveries (DETAIL kernel), each and no other, as its trace buffer has them" \
		"$(awk -v f="$first" -v l="$last" '$2 == "DELIVERED" && $NF == "kernel" && $4 > f && $4 < l { print $3, $4 }' "$1" | paste -sd,)" \
		"$(sed -n 's/.*drm_vblank_event_delivered: file=0000000000000000, crtc=\([0-9]*\), seq=\([0-9]*\).*/\1 \2/p' $trace/trace |
			awk -v f="$first" -v l="$last" '$2 > f && $2 < l' | paste -sd,)"
	check_ge "$P -e: the kernel delivered in that second (fbcon's cursor)" \
		"$(awk -v f="$first" -v l="$last" '$2 == "DELIVERED" && $NF == "kernel" && $4 > f && $4 < l' "$1" | wc -l)" 1
}

# ---------------------------------------------------------------------------
# exact TAG ARGS...: the checks on real vblanks, with the tool run with ARGS
# (none: the default path; --no-btf: the record path, whose V->D is '-').
exact() {
	local P="vblanklat: $1:" rec=0
	shift
	X=("$@")
	[ "$1" = --no-btf ] && rec=1
	[ "$have_btf" = 0 ] && rec=1

	# 1. Summary: exact event counts for a client asking for 30 vblank events;
	# the vblanks missed, against the kernel's own sequence in its trace
	# buffer (a TCG guest that falls behind bochs's 60 Hz skips some).
	echo >$trace/trace
	echo 1 >$trace/events/drm/drm_vblank_event/enable
	start "$S/sum.out"
	"$W" -n 30 >"$S/w1.out" &
	w1=$!
	wait "$w1"
	stop INT
	echo 0 >$trace/events/drm/drm_vblank_event/enable
	out=$S/sum.out
	check_eq "$P summary: exit 0 on Ctrl-C" "$tool_status" 0
	check "$P vblwait received its 30 events" grep -q "^received 30 events" "$S/w1.out"
	check_eq "$P client row: 30 queued, 30 delivered, 0 flips" \
		"$(file_row "$out" "$w1" | cut -d' ' -f1-3)" "30 30 0"
	check_eq "$P queued -> delivered histogram counts 30" "$(hist_stats "$out" "(pid $w1) queued -> delivered" | cut -d' ' -f1)" 30
	if [ "$rec" = 0 ]; then
		check_eq "$P vblank -> delivered histogram counts 30" "$(hist_stats "$out" "(pid $w1) vblank -> delivered" | cut -d' ' -f1)" 30
		check "$P stderr: nothing" test ! -s "$out.err"
	else
		check_eq "$P V->D is '-', no vblank -> delivered histogram" \
			"$(file_row "$out" "$w1" | cut -d' ' -f5) $(grep -c "(pid $w1) vblank -> delivered" "$out")" "- 0"
		check_eq "$P stderr: the path and what is '-', once" "$(cat "$out.err")" \
			"$(announced "$([ "$1" = --no-btf ] && echo --no-btf || echo "module drm has no BTF")")"
	fi
	read -r vblanks rate missed resumed <<<"$(crtc_row "$out" 0)"
	check_ge "$P CRTC 0: at least the 30 vblanks waited for" "$vblanks" 30
	# Within 1% of the mode's refresh.
	check "$P CRTC 0 rate $rate Hz is the mode's $refresh Hz (+-1%)" \
		awk -v r="$rate" -v m="$refresh" 'BEGIN { exit !(r >= m * 0.99 && r <= m * 1.01) }'
	# The kernel's gaps, "FROM->TO" of consecutive vblanks of CRTC 0 whose sequence skips.
	kgaps=$(sed -n 's/.*drm_vblank_event: crtc=0, seq=\([0-9]*\).*/\1/p' $trace/trace |
		awk 'NR > 1 && $1 != p + 1 { printf "%s->%s ", p, $1 } { p = $1 }')
	check_eq "$P CRTC 0: each missed vblank one the kernel's sequence skipped" \
		"$(awk -v k=" $kgaps" '/^Missed vblanks:/ { on = 1; next } on && $2 == 0 {
			split($3, s, "->"); n += s[2] - s[1] - 1; if (index(k, " " $3 " ") == 0) bad = bad " " $3 }
			END { print n + 0 bad }' "$out")" "$missed"
	check "$P CRTC 0: high-precision timestamps" grep -q "^0 .*high-precision" "$out"

	# 2. -e: one line per event, exact per type. A second more after the
	# client: the kernel's own deliveries (fbcon's cursor blink, every
	# 200 ms, through the fbdev emulation's commits: no file), against the
	# trace buffer's.
	echo >$trace/trace
	echo 1 >$trace/events/drm/drm_vblank_event_delivered/enable
	start "$S/ev.out" -e
	"$W" -n 5 -a 2 >/dev/null &
	w2=$!
	wait "$w2"
	sleep 1
	stop INT
	echo 0 >$trace/events/drm/drm_vblank_event_delivered/enable
	out=$S/ev.out
	kernel_deliveries "$out"
	check_eq "$P -e: header" "$(head -1 "$out" | awk '{print $1, $2, $3, $4, $5, $6}')" "TIME(s) EVENT CRTC SEQ PID COMM"
	check_eq "$P -e: 5 QUEUED lines for vblwait" "$(awk -v p="$w2" '$2 == "QUEUED" && $5 == p' "$out" | wc -l)" 5
	check_eq "$P -e: 5 DELIVERED lines for vblwait" "$(awk -v p="$w2" '$2 == "DELIVERED" && $5 == p' "$out" | wc -l)" 5
	check_eq "$P -e: each delivery 2 vblanks after the previous request's" \
		"$(awk -v p="$w2" '$2 == "DELIVERED" && $5 == p { if (prev && $4 - prev >= 2) c++; prev = $4 } END { print c + 0 }' "$out")" 4
	check "$P -e: VBLANK lines" grep -q " VBLANK " "$out"
	# V->D: a number, or '-' on the record path.
	vd='^[0-9]+$'
	[ "$rec" = 1 ] && vd='^-$'
	check_eq "$P -e: every delivery has its latencies (V->D $vd)" \
		"$(awk -v p="$w2" -v vd="$vd" '$2 == "DELIVERED" && $5 == p && $7 ~ /^[0-9]+$/ && $8 ~ vd' "$out" | wc -l)" 5
	# drm without BTF: what differs from --no-btf is the path chosen by the
	# tool itself, said above; the sections below are the record path's,
	# run with --no-btf.
	if [ "$P" = "vblanklat: stripped:" ]; then
		X=()
		return
	fi

	# 3. An induced stall: every CPU frozen 200 ms while a client waits.
	if [ -e /proc/stall ]; then
		start "$S/stall.out"
		"$W" -n 60 >/dev/null &
		w3=$!
		sleep 0.3
		echo 200 >/proc/stall
		wait "$w3"
		stop INT
		out=$S/stall.out
		read -r vblanks rate missed resumed <<<"$(crtc_row "$out" 0)"
		# 200 ms at the mode's refresh; the freeze's edges cost at most a frame each.
		want=$(awk -v m="$refresh" 'BEGIN { printf "%d", 0.2 * m - 2 }')
		check_ge "$P stall of 200 ms: at least $want missed vblanks" "$missed" "$want"
		check_le "$P stall of 200 ms: at most 0.5 s worth missed" "$missed" "$((refresh / 2))"
		check_eq "$P stall: the missed list adds up to the MISSED column" \
			"$(awk '/^Missed vblanks:/ { f = 1; next } f && NF == 0 { f = 0 } f && $2 == "0" { s += $NF } END { print s + 0 }' "$out")" "$missed"
		check_eq "$P stall: client still got its 60 events" "$(file_row "$out" "$w3" | cut -d' ' -f1-2)" "60 60"
	fi

	# 4. Filters.
	start "$S/pid.out" -p "$$"
	"$W" -n 4 >/dev/null
	bash -c "exec '$W' -n 6" >/dev/null
	stop INT
	check_eq "$P -p: only the filtered process (none of the vblwait clients)" \
		"$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ && $2 == "vblwait"' "$S/pid.out" | wc -l)" 0
	# The client waits for the tracer to attach before asking.
	rm -f "$S/go"
	(while [ ! -e "$S/go" ]; do nap 0.1; done; exec "$W" -n 4 >/dev/null) &
	wp=$!
	start "$S/pid2.out" -p "$wp"
	touch "$S/go"
	wait "$wp"
	"$W" -n 6 >/dev/null
	stop INT
	check_eq "$P -p PID: that client's 4 events only" "$(file_row "$S/pid2.out" "$wp" | cut -d' ' -f1-2)" "4 4"
	check_eq "$P -p PID: no other client rows" \
		"$(awk -v p="$wp" '$2 == "vblwait" && $1 != p' "$S/pid2.out" | wc -l)" 0

	start "$S/crtc.out" -P 1
	"$W" -n 3 >/dev/null
	stop INT
	check "$P -P 1: no vblanks on CRTC 1, and it says so" grep -q "^no vblanks: no CRTC matching -P" "$S/crtc.out"

	# 5. interval count.
	: >"$S/int.out"
	timeout 60 "$T" "${X[@]}" 1 2 >"$S/int.out" 2>&1 &
	int_pid=$!
	wait_for_output "$S/int.out" "$int_pid"
	"$W" -n 3 >/dev/null
	wait "$int_pid"
	check_eq "$P interval 1 count 2: exits 0 by itself" "$?" 0
	check_eq "$P interval: two summaries" "$(grep -c '^CRTC \|^no vblanks' "$S/int.out")" 2

	# 5b. Interval summaries lose nothing: a client asking for 150 events (2 s
	#     at 75 Hz) across several 1 s summaries; what they say it queued and
	#     got adds up to exactly 150 each, and every vblank is in one of them.
	start "$S/intj.out" -j 1
	"$W" -n 150 >/dev/null
	sleep 1.5	# the interval it ended in is printed
	stop INT
	read -r q d n <<<"$(client_sums "$S/intj.out" vblwait)"
	check_eq "$P 1 s intervals: the client's 150 events queued and delivered, summed over summaries" "$q $d" "150 150"
	check_ge "$P 1 s intervals: spread over several summaries" "$n" 2

	# 5c. -c COMM: only the clients of that name (a copy of vblwait is another name).
	cp "$W" "$S/otherwait"
	start "$S/comm.out" -j -c vblwait
	"$W" -n 3 >/dev/null
	"$S/otherwait" -n 2 >/dev/null
	stop INT
	check_eq "$P -c vblwait: its 3 events, not otherwait's" \
		"$(client_sums "$S/comm.out" vblwait) / $(client_sums "$S/comm.out" otherwait)" "3 3 1 / 0 0 0"

	# 6. -j: the same clients traced as text and as JSON lines at once.
	start "$S/txt.out"
	txt_pid=$tool_pid
	start "$S/json.out" -j
	"$W" -n 10 >/dev/null &
	wj=$!
	wait "$wj"
	stop INT
	kill -INT "$txt_pid"; wait "$txt_pid"
	j=$S/json.out
	check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
	check_eq "$P -j: the client row equals the text's" \
		"$(jq -r --argjson p "$wj" 'select(.type == "client" and .pid == $p) |
			"\(.queued) \(.delivered) \(.flips) \(.vblank_lat_avg_us | type)"' "$j")" \
		"$(file_row "$S/txt.out" "$wj" | cut -d' ' -f1-3) $([ "$rec" = 1 ] && echo null || echo number)"
	check_eq "$P -j: its queued -> delivered histogram counts 10" \
		"$(jq -r --argjson p "$wj" 'select(.type == "client_hist" and .pid == $p and
			.hist == "queued_to_delivered") | "\(.count) \([.buckets[].count] | add)"' "$j")" "10 10"
	check "$P -j: a crtc row for CRTC 0 with a rate near the mode's" \
		test "$(jq -r --argjson m "$refresh" 'select(.type == "crtc" and .crtc == 0 and
			.rate_hz > $m * 0.99 and .rate_hz < $m * 1.01) | .timestamps' "$j")" = high-precision
	start "$S/json-e.out" -e -j
	"$W" -n 3 >/dev/null &
	wj=$!
	wait "$wj"
	stop INT
	check_eq "$P -e -j: every line a JSON object" "$(json_lines "$S/json-e.out")" ok
	# The vblank's latency: a number, or null on the record path.
	vdj='.vblank_lat_us >= 0'
	[ "$rec" = 1 ] && vdj='.vblank_lat_us == null'
	check_eq "$P -e -j: 3 QUEUED and 3 DELIVERED events of the client, with latencies ($vdj)" \
		"$(jq -r --argjson p "$wj" "select(.pid == \$p and (.event == \"QUEUED\" or
			(.event == \"DELIVERED\" and .queue_lat_us >= 0 and $vdj))) | .event" \
			"$S/json-e.out" | sort | uniq -c | awk '{ print $2, $1 }' | tr '\n' ' ')" "DELIVERED 3 QUEUED 3 "

	# 6b. --prometheus, read back through the real node_exporter and
	#     Prometheus: two clients of one name an interval apart are one
	#     row (labels are never pids) whose counters add up.
	if prom_start; then
		start "$S/prom.out" --prometheus "$PROM_FILES/vblanklat.prom" 1
		cp "$W" "$S/promwait"
		"$S/promwait" -n 5 >/dev/null
		sleep 1.5
		"$S/promwait" -n 7 >/dev/null
		stop INT
		check_prom "$P --prometheus: promwait's 12 events queued and delivered, one row, no pid" \
			'{__name__=~"gpubpf_vblanklat_events_(queued|delivered)_total", comm="promwait"}' "__name__ pid" \
			"gpubpf_vblanklat_events_delivered_total - 12;gpubpf_vblanklat_events_queued_total - 12"
		check_prom "$P --prometheus: its queued -> delivered histogram counts 12" \
			'gpubpf_vblanklat_queue_to_delivery_seconds_count{comm="promwait"}' "" 12
		check_prom "$P --prometheus: vblank -> delivered only where drm's types are read" \
			'gpubpf_vblanklat_vblank_to_delivery_seconds_count{comm="promwait"}' "" "$([ "$rec" = 1 ] && echo 0 || echo 12)"
		check_prom "$P --prometheus: CRTC 0 had at least the 12 vblanks waited for" \
			'gpubpf_vblanklat_vblanks_total{crtc="0"} >= bool 12' "" 1
		check_prom "$P --prometheus: nothing lost" 'sum(gpubpf_vblanklat_events_lost_total)' "" 0
		check_prom "$P --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" 0
		check "$P --prometheus: promtool check metrics is clean" \
			sh -c "promtool check metrics <'$PROM_FILES/vblanklat.prom'"
		prom_stop
	fi

	# 7. --pod and --container: clients in two containers' cgroups
	#    (cg_names), traced unfiltered and filtered.
	cg=/sys/fs/cgroup/vblanklat-test
	cgroup_tracers_start "$cg"
	in_cgroup "$cg_A" "$W" -n 4 >/dev/null &
	wa=$!
	in_cgroup "$cg_B" "$W" -n 6 >/dev/null &
	wb=$!
	wait "$wa" "$wb"
	cgroup_tracers_stop
	check_eq "$P --cgroup: unfiltered sees both clients, 4 + 6 delivered" \
		"$(awk 'NF == 9 && $2 == "vblwait" { s += $4 } END { print s + 0 }' "$S/cg-all.out")" 10
	check_eq "$P --pod -C: its client only, named by container, pod and cgroup" \
		"$(awk 'NF == 12 && $2 == "vblwait" { print $3, $4, $10, $11, $12 }' "$S/cg-A.out")" "4 4 $cg_A_text"
	check_eq "$P --container -j -C: its client only" \
		"$(jq -r "select(.type == \"client\" and .comm == \"vblwait\") | \"\(.queued) $CG_JQ\"" "$S/cg-B.out")" \
		"6 $cg_B_json"
	X=()
}
client_sums() { jq -r --arg c "$2" 'select(.type == "client" and .comm == $c) | [.queued, .delivered] | @tsv' "$1" |
	awk '{ q += $1; d += $2; n++ } END { print q + 0, d + 0, n + 0 }'; }

# ev_client FILE PID: a client's -e lines "EVENT CRTC SEQ PID Q->D-or-not",
# and the VBLANK lines ("VBLANK CRTC SEQ") between its first and last.
ev_client() {
	awk -v p="$2" '$5 == p && ($2 == "QUEUED" || $2 == "DELIVERED") { if (!first) first = NR; last = NR }
		{ l[NR] = $0 } END { for (i = first; i <= last; i++) { split(l[i], f, " ")
			if (f[2] == "VBLANK") print f[2], f[3], f[4]
			else if (f[5] == p) print f[2], f[3], f[4], f[5], (f[7] ~ /^[0-9]+$/) } }' "$1"
}

# compare A B TAG [ENV...]: the default path (A) and B (--no-btf, or the
# default after drm lost its BTF) on one workload, traced at once: the same
# client rows and -e lines.
compare() {
	local a=$1 b=$2 tag=$3 pa pb ea eb
	shift 3
	X=()
	start "$S/$a.sum"; pa=$tool_pid
	start "$S/$a.ev" -e; ea=$tool_pid
	X=("${@}")
	start "$S/$b.sum"; pb=$tool_pid
	start "$S/$b.ev" -e; eb=$tool_pid
	"$W" -n 20 >/dev/null &
	wc=$!
	wait "$wc"
	"$W" -n 5 -a 3 >/dev/null
	for tool_pid in $eb $pb $ea $pa; do stop INT; done
	X=()
	check_eq "$P $tag: client rows (queued, delivered, flips, Q->D present)" \
		"$(file_row "$S/$b.sum" "$wc" | awk '{ print $1, $2, $3, ($4 ~ /^[0-9]+$/) }')" \
		"$(file_row "$S/$a.sum" "$wc" | awk '{ print $1, $2, $3, ($4 ~ /^[0-9]+$/) }')"
	check_eq "$P $tag: the BTF path's client row is 20 20 0" "$(file_row "$S/$a.sum" "$wc" | cut -d' ' -f1-3)" "20 20 0"
	check_eq "$P $tag -e: the client's events and the vblanks between, line by line" \
		"$(ev_client "$S/$b.ev" "$wc")" "$(ev_client "$S/$a.ev" "$wc")"
	check_eq "$P $tag -e: 20 QUEUED, 20 DELIVERED" \
		"$(ev_client "$S/$b.ev" "$wc" | awk '{ n[$1]++ } END { print n["QUEUED"] + 0, n["DELIVERED"] + 0 }')" "20 20"
	# each event is sent at the vblank after its request, before that vblank's own event
	check_ge "$P $tag -e: VBLANK lines between" "$(ev_client "$S/$b.ev" "$wc" | grep -c '^VBLANK')" 19
}

# unload_with_holders MODULE: MODULE after every module using it.
unload_with_holders() {
	local h
	for h in /sys/module/"$1"/holders/*; do
		[ -e "$h" ] && { unload_with_holders "$(basename "$h")" || return 1; }
	done
	[ ! -e /sys/module/"$1" ] || unload_module "$1"
}

# strip_drm: bochs reloaded over a copy of drm without its .BTF section
# (as an out-of-tree drm would be); 0 when it is in place.
strip_drm() {
	local ko
	unload_with_holders drm || return 1
	ko=$(module_file drm)
	case "$ko" in
	*.xz) xz -dc "$ko" >"$S/drm.ko" ;;
	*.zst) zstd -qdc "$ko" >"$S/drm.ko" ;;
	*) cp "$ko" "$S/drm.ko" ;;
	esac
	objcopy --remove-section=.BTF --remove-section=.BTF.base "$S/drm.ko" "$S/drm-nobtf.ko" &&
		load_module_deps "$S/drm-nobtf.ko" && load_module "$S/drm-nobtf.ko" && load_module $drv || return 1
	for i in $(seq 1 50); do [ -e /dev/dri/card0 ] && break; nap 0.1; done
	check "$P stripped drm: no /sys/kernel/btf/drm, $drv loaded over it" \
		sh -c "test ! -e /sys/kernel/btf/drm && test -e /dev/dri/card0"
}

# flips TAG ARGS...: page flips of two clients of our own, traced by the
# default path and with ARGS at once (summary and -e): vblflip flips 20
# times with legacy page flips, vblatomic (vblflip -a) 15 times with atomic
# commits, each asking for a flip event. The kernel delivers the events to
# their files with no queued event before them, from interrupt or worker
# context: each client's row has its own PID and name, its 20 or 15 FLIPS,
# and a commit -> flip latency for every flip (its histogram counts them);
# MISSED (flips that landed after their first chance) as -e's lines add it
# up; the same on both paths.
flip_row() { awk -v p="$2" '$1 == p && NF == 9 { print $2, $3, $4, $5; exit }' "$1"; }
flip_ev() { awk '$2 == "DELIVERED" && $9 == "flip" { print $2, $3, $5, $6, $10 }' "$1" | sed 's/[0-9]*us$//'; }
flips() {
	local tag=$1 pa ea pb eb fp ap
	shift
	X=()
	start "$S/fa.sum" --prometheus "$S/fa.prom"; pa=$tool_pid
	start "$S/fa.ev" -e; ea=$tool_pid
	X=("$@")
	start "$S/fb.sum"; pb=$tool_pid
	start "$S/fb.ev" -e; eb=$tool_pid
	X=()
	cp "$F" "$S/vblatomic"
	"$F" -n 20 >"$S/flip.out" 2>&1 &
	fp=$!
	wait $fp
	"$S/vblatomic" -a -n 15 >"$S/atomic.out" 2>&1 &
	ap=$!
	wait $ap
	for tool_pid in $eb $pb $ea $pa; do stop INT; done
	check "$P $tag: vblflip got its 20 flip events" grep -q "^flipped 20 times" "$S/flip.out"
	check "$P $tag: vblatomic got its 15 (atomic commits)" grep -q "^flipped 15 times" "$S/atomic.out"
	check_eq "$P $tag: each client's row: its name, 0 queued, 0 delivered, its flips" \
		"$(flip_row "$S/fa.sum" $fp) / $(flip_row "$S/fa.sum" $ap)" "vblflip 0 0 20 / vblatomic 0 0 15"
	check_eq "$P $tag: a commit -> flip latency for every flip" \
		"$(hist_stats "$S/fa.sum" "vblflip (pid $fp) commit -> flip" | cut -d' ' -f1) $(
		   hist_stats "$S/fa.sum" "vblatomic (pid $ap) commit -> flip" | cut -d' ' -f1)" "20 15"
	check_eq "$P $tag: MISSED as -e's flips add up (vblflip, vblatomic)" \
		"$(awk -v p=$fp '$1 == p && NF == 9 { print $9 }' "$S/fa.sum") $(awk -v p=$ap '$1 == p && NF == 9 { print $9 }' "$S/fa.sum")" \
		"$(awk -v p=$fp '$2 == "DELIVERED" && $5 == p && $NF ~ /^missed=[1-9]/' "$S/fa.ev" | wc -l) $(awk -v p=$ap '$2 == "DELIVERED" && $5 == p && $NF ~ /^missed=[1-9]/' "$S/fa.ev" | wc -l)"
	check_eq "$P $tag: no flip left to no one" "$(awk '$1 == "-" && $2 == "?"' "$S/fa.sum")" ""
	check_eq "$P $tag: the same rows with $*" \
		"$(flip_row "$S/fb.sum" $fp) / $(flip_row "$S/fb.sum" $ap)" "$(flip_row "$S/fa.sum" $fp) / $(flip_row "$S/fa.sum" $ap)"
	check_eq "$P $tag: --prometheus: flips and commit -> flip counts per comm" \
		"$(grep -E '^gpubpf_vblanklat_(flips_total|commit_to_flip_seconds_count)\{comm="vbl(flip|atomic)"\}' "$S/fa.prom" | sort | paste -sd' ')" \
		'gpubpf_vblanklat_commit_to_flip_seconds_count{comm="vblatomic"} 15 gpubpf_vblanklat_commit_to_flip_seconds_count{comm="vblflip"} 20 gpubpf_vblanklat_flips_total{comm="vblatomic"} 15 gpubpf_vblanklat_flips_total{comm="vblflip"} 20'
	check_eq "$P $tag -e: 35 flip deliveries, each with its client and its commit's latency" \
		"$(flip_ev "$S/fa.ev" | awk '{ print $4, $5 }' | sort | uniq -c | sed 's/^ *//')" \
		"15 vblatomic commit_to_flip=
20 vblflip commit_to_flip="
	check_eq "$P $tag -e: the same lines with $*" "$(flip_ev "$S/fb.ev")" "$(flip_ev "$S/fa.ev")"
}

# modetest_flips TAG: Debian's modetest (libdrm-tests), a KMS client no one
# here wrote, flipping with vsync (-v) for 3 s. It stops its flip loop as
# soon as its stdin is readable, so it gets a pipe that stays empty (with
# stdin at EOF it quits after the first flip: what looked like a stall).
# Every flip event the kernel delivers to a file - its trace buffer's
# count - is modetest's, under its PID and name, each with its commit's
# latency.
modetest_flips() {
	local P="vblanklat: $1:" conn mode sp mp n
	if ! command -v modetest >/dev/null; then
		skip "$P modetest: not installed (libdrm-tests)"
		return
	fi
	read -r conn mode <<<"$(modetest -M bochs-drm -c 2>/dev/null |
		awk '$3 == "connected" { c = $1 } c && $1 == "#0" { print c, $2; exit }')"
	echo >$trace/trace
	echo 1 >$trace/events/drm/drm_vblank_event_delivered/enable
	start "$S/mt.sum"; mp=$tool_pid
	start "$S/mt.ev" -e
	rm -f "$S/mt.in"; mkfifo "$S/mt.in"
	sleep 30 >"$S/mt.in" & sp=$!
	timeout -s INT 3 modetest -M bochs-drm -s "$conn:$mode" -v <"$S/mt.in" >"$S/mt.out" 2>&1 &
	wait $!
	kill $sp
	sleep 0.5
	stop INT; tool_pid=$mp; stop INT
	echo 0 >$trace/events/drm/drm_vblank_event_delivered/enable
	n=$(grep 'drm_vblank_event_delivered:' $trace/trace | grep -vc 'file=0000000000000000')
	check "$P modetest flipped at least 60 times (a freq: line)" grep -q '^freq: ' "$S/mt.out"
	check_eq "$P modetest's row: its FLIPS are the kernel's flip events to a file ($n)" \
		"$(awk '$2 == "modetest" && NF == 9 { print $3, $4, $5 }' "$S/mt.sum")" "0 0 $n"
	check_eq "$P modetest: a commit -> flip latency for every flip" \
		"$(hist_stats "$S/mt.sum" ") commit -> flip:" | cut -d' ' -f1)" "$n"
	check_ge "$P modetest: the shortest commit -> flip is a measured one (>= 1 us)" \
		"$(hist_stats "$S/mt.sum" ") commit -> flip:" | cut -d' ' -f3)" 1
	check_eq "$P modetest -e: a DELIVERED flip line per flip, under its name" \
		"$(awk '$2 == "DELIVERED" && $6 == "modetest" && $9 == "flip" && $10 ~ /^commit_to_flip=[0-9]+us$/' "$S/mt.ev" | wc -l)" "$n"
}

if [ "$vblanks" = 0 ]; then
	check "$P no vblanks for $drv here: the kernel refuses vblank events" \
		grep -q "Operation not supported" "$S/probe.err"
	no_vblanks default "$(default_err)"
	X=(--no-btf)
	no_vblanks --no-btf "$(announced --no-btf)"
	X=()
	no_vblanks "no atomic fetch, no cookies" "$(default_err)" env GPU_BPF_PRETEND_MISSING=atomic_fetch,attach_cookie
	flips "flips" --no-btf
	modetest_flips "no vblanks"
	if [ "$have_btf" = 1 ] && strip_drm; then
		no_vblanks "stripped drm" "$(announced "module drm has no BTF")"
		flips "stripped drm flips" --no-btf
		check_eq "$P stripped drm flips: the record path chosen, said once" \
			"$(cat "$S/fa.sum.err")" "$(announced "module drm has no BTF")"
	fi
	exit 0
fi

# ---------------------------------------------------------------------------
# Real vblanks.
# The mode's refresh, from the kernel's own atomic state.
refresh=$(grep -m1 -oE 'mode: "[^"]*": [0-9]+' /sys/kernel/debug/dri/0/state | awk '{print $NF}')
check "$P the active mode has a refresh rate" test -n "$refresh"
[ -n "${STALL_KO:-}" ] && load_module "$STALL_KO"

if [ "$have_btf" = 1 ]; then
	exact btf
	compare btf nobtf "--no-btf = BTF path" --no-btf
fi
exact records --no-btf

# A hostile process name (issue 23, tests/lib.sh's HOSTILE): vblwait under
# that name, traced as -e text and -e -j at once, and as a summary. The
# text keeps one line per event, the name one column,
# escaped (in the histograms' titles too), and no control byte; -j keeps
# the name exactly.
P="vblanklat: hostile name:"
cp "$W" "$S/$HOSTILE"
start "$S/hn.ev" -e; hn_ev=$tool_pid
start "$S/hn.evj" -e -j; hn_evj=$tool_pid
start "$S/hn.sum"
"$S/$HOSTILE" -n 5 >/dev/null &
h=$!
wait $h
for tool_pid in $hn_ev $hn_evj $tool_pid; do stop INT; done
check_eq "$P -e: 5 QUEUED and 5 DELIVERED lines, the name escaped in COMM" \
	"$(awk -v p=$h '$5 == p { print $2, $6 }' "$S/hn.ev" | sort | uniq -c | sed 's/^ *//' | paste -sd,)" \
	"5 DELIVERED $HOSTILE_TEXT,5 QUEUED $HOSTILE_TEXT"
check_eq "$P -e: every line but the header an event's: its time, 9 columns or more" \
	"$(awk 'NR > 1 && !($1 ~ /^[0-9]+\.[0-9]+$/ && NF >= 9)' "$S/hn.ev" | wc -l)" 0
check_no_control "$P no control byte in the text outputs" "$S/hn.ev" "$S/hn.sum"
check_eq "$P the client's row, the name one column" \
	"$(awk -v p=$h '$1 == p && NF == 9 { print $2, $3, $4 }' "$S/hn.sum")" "$HOSTILE_TEXT 5 5"
check_eq "$P the client's histogram, titled by the name escaped" \
	"$(hist_stats "$S/hn.sum" "$HOSTILE_TEXT (pid $h) queued -> delivered" | cut -d' ' -f1)" 5
check_hostile_json "$P -j: the name exact, the bad byte U+FFFD" \
	"$(jrows "$S/hn.evj" event "select(.pid == $h) | .comm" | sort -u)"
P="vblanklat:"
# Page flips where the display has real vblanks: MISSED is measured here.
flips "flips with vblanks" --no-btf
modetest_flips "vblanks"
# 5.10's BPF: no atomic fetch or compare-and-swap, no attach cookies.
P="vblanklat: no atomic fetch:"
start_tool "$S/noatomic.out" env GPU_BPF_PRETEND_MISSING=atomic_fetch,attach_cookie "$T"
"$W" -n 30 >"$S/w4.out" &
w4=$!
wait "$w4"
stop INT
check_eq "$P exit 0" "$tool_status" 0
check_eq "$P client row: 30 queued, 30 delivered, 0 flips" \
	"$(file_row "$S/noatomic.out" "$w4" | cut -d' ' -f1-3)" "30 30 0"
check_eq "$P both histograms count 30" \
	"$(hist_stats "$S/noatomic.out" "(pid $w4) queued -> delivered" | cut -d' ' -f1) $(
	   hist_stats "$S/noatomic.out" "(pid $w4) vblank -> delivered" | cut -d' ' -f1)" \
	"30 $([ "$have_btf" = 1 ] && echo 30)"
P="vblanklat:"
# drm without BTF: the record path chosen by the tool itself.
if [ "$have_btf" = 1 ] && strip_drm; then
	have_btf=0
	exact stripped
fi
