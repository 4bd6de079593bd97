#!/usr/bin/env bash
# vm-options: --vga
# In a VM booted by tests/bench/run with a VGA display (--vga): what
# tracing display vblanks costs, vblanklat against empty programs on the
# same hooks (the limit: drm_vblank_event, drm_vblank_event_queued,
# drm_vblank_event_delivered, tp_btf) and against bpftrace running the seed
# tutorial's drm_vblank.bt in substance (a line per vblank, a queue time
# per event and its queue -> delivery latency, vblanks counted per CRTC),
# in ROUNDS interleaved rounds of EVENTS vblank events each: vblwait asking
# for them one at a time on bochs, whose vblanks the kernel emulates with a
# timer at the mode's refresh (sid; 6.1 gives bochs none: nothing to
# measure there). Each event is a vblank, a queued and a delivered event: 3
# x EVENTS, at the display's rate (60 a second), the highest the ground
# gives. Prints one "ROUND ..." line per tracer and round under the kernel
# "KVER/vblanklat" (tests/bench/summarize: a table of its own).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
EVENTS=${EVENTS:-300}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/vblanklat
drv=bochs
$VM_MODPROBE -n bochs >/dev/null 2>&1 || drv=bochs-drm
$VM_MODPROBE $drv || exit 1
for _ in $(seq 1 50); do [ -e /dev/dri/card0 ] && break; sleep 0.1; done
if ! build/tests/vblwait -n 1 >"$BENCH_OUT/vbl-probe.out" 2>&1; then
	echo "bench: no vblank events on $drv here ($VM_KVER): $(tail -1 "$BENCH_OUT/vbl-probe.out")" >&2
	exit 0
fi
bpf_stats_on

cat >"$BENCH_OUT/seed-vbl.bt" <<'BT'
BEGIN { printf("ready\n"); }
tracepoint:drm:drm_vblank_event {
	printf("%llu VBLANK crtc=%d seq=%u\n", nsecs / 1000000, args->crtc, args->seq);
	@vblanks[args->crtc] = count();
}
tracepoint:drm:drm_vblank_event_queued {
	@queued[args->seq] = nsecs;
}
tracepoint:drm:drm_vblank_event_delivered {
	$t = @queued[args->seq];
	if ($t) {
		printf("%llu DELIVERED crtc=%d seq=%u latency_us=%llu\n", nsecs / 1000000, args->crtc,
		       args->seq, (nsecs - $t) / 1000);
		delete(@queued[args->seq]);
	}
}
BT

units=$((3 * EVENTS))
workload() { build/tests/vblwait -n "$EVENTS" >"$BENCH_OUT/vblwait.out" 2>&1; }

# bench_one (lib.sh) around one run of vblwait each. "summary" reads the DELIVERED column of vblanklat's client row
# (vblwait's); the others count a line per event delivered: vblanklat -e's
# include the kernel's own (DETAIL "kernel": fbcon's cursor blink, 5 a
# second, through bochs's fbdev emulation), which the seed script, keeping
# only deliveries it saw queued, does not print.
bench_counted() { awk '$2 == "vblwait" && $4 ~ /^[0-9]+$/ { print $4; exit }' "$2"; }
# Per program run: the kernel keeps the vblank interrupt on for a while
# after each round's client, so a tracer also sees vblanks outside its
# workload (how many depends on how long it took to start): each firing of
# a hook is one run of its program, one event, for every tracer alike.
BENCH_UNITS=$units BENCH_UNIT=event BENCH_WANT=$EVENTS BENCH_PER_RUN=1

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_vblanklat.bpf.o" vblank queued delivered)

for r in $(seq 1 "$ROUNDS"); do
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one vblanklat Tracing summary bin/vblanklat
	bench_one "vblanklat -e" "TIME(s)" " DELIVERED " bin/vblanklat -e
	bench_one "bpftrace (the script replaced)" ready " DELIVERED " bpftrace "$BENCH_OUT/seed-vbl.bt"
done
