#!/usr/bin/env bash
# In a VM booted by tests/bench/run: what tracing Intel GEM memory costs per
# event, i915mem against empty programs on the same hooks (the limit:
# i915_gem_object_create, i915_vma_bind, i915_vma_unbind,
# i915_gem_object_destroy, tp_btf) and against bpftrace running the seed
# tutorial's intel_i915.bt in substance (a line per object created with its
# size and per bind with its address and size, the bytes allocated summed,
# binds, unbinds and destroys counted), in ROUNDS interleaved rounds of one
# burst each: gemgen (the test module firing i915's events with their real
# layouts) creating OBJECTS objects of 4 KiB, binding them into an address
# space, then unbinding and destroying them, from this shell: 4 x OBJECTS
# events. The classic tracepoints' record path (i915mem --no-btf) beside
# the BTF path. Prints one "ROUND ..." line per tracer and round under the
# kernel "KVER/i915mem" (tests/bench/summarize: a table of its own).
# i915mem runs with -D i915, as on a machine whose GPU i915 drives: there
# xe, loaded beside it or not at all, drives no device and is left out,
# where gemgen, no PCI driver, has i915mem load both drivers' programs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/bench/lib.sh
OBJECTS=${OBJECTS:-5000}
ROUNDS=${ROUNDS:-5}
K=$VM_KVER/i915mem
# gemgen with one address space; loaded again every round: it makes at
# most 100000 objects in its life, a round's six bursts 30000.
gemgen_fresh() {
	rmmod gemgen 2>/dev/null
	insmod "${GEMGEN_KO:?}" && echo vm >/proc/gemgen
}
gemgen_fresh || exit 1
bpf_stats_on

cat >"$BENCH_OUT/seed-i915.bt" <<'BT'
BEGIN { printf("ready\n"); }
tracepoint:i915:i915_gem_object_create {
	printf("%llu CREATE obj=%p size=%llu\n", nsecs / 1000000, args->obj, args->size);
	@total_alloc += args->size;
	@objects = count();
}
tracepoint:i915:i915_vma_bind {
	printf("%llu BIND obj=%p offset=0x%llx size=%llu flags=%x\n", nsecs / 1000000, args->obj,
	       args->offset, args->size, args->flags);
	@binds = count();
}
tracepoint:i915:i915_vma_unbind { @unbinds = count(); }
tracepoint:i915:i915_gem_object_destroy { @destroys = count(); }
BT

events=$((4 * OBJECTS))
# Objects are numbered on across rounds: each burst starts past the last.
workload() {
	local first
	first=$(sed -n '1s/.*created=\([0-9]*\).*/\1/p' /proc/gemgen)    # (a second line: xe's)
	printf 'create n=%d size=4096\nbind first=%d n=%d vm=0\ndestroy first=%d n=%d\n' \
		"$OBJECTS" "$first" "$OBJECTS" "$first" "$OBJECTS" >/proc/gemgen
}

# bench_one (lib.sh) around one burst each; what a summary counted:
# "summary" reads the CREATED column of i915mem's process rows; the others
# count a line per object created.
bench_counted() { awk '$1 == "i915" && $2 ~ /^[0-9]+$/ && NF == 10 { s += $7 } END { print s + 0 }' "$2"; }
BENCH_UNITS=$events BENCH_UNIT=event BENCH_WANT=$OBJECTS

# Its start-up's limit: empty programs on all the hooks i915mem loads
# programs for here, named as its programs are (the kernel keeps 15
# characters of a name). Its per-event limit is the four hot hooks' above.
tracer_start hooks Tracing bin/i915mem -D i915 || exit 1
loaded=$(bpftool prog show | sed -n 's/^[0-9]*: tracing  name \([^ ]*\) .*/\1/p')
tracer_stop hooks
all_hooks=()
for p in $(sed -n 's/^EMPTY(.*, \(.*\))$/\1/p' tests/bench/empty_i915mem.bpf.c); do
	grep -qx "${p:0:15}" <<<"$loaded" && all_hooks+=("$p")
done
echo "bench: i915mem's hooks: ${#all_hooks[@]}" >&2

# The limit, also beside every tracer in its burst (lib.sh).
BENCH_BESIDE=("$BENCH_BIN/empty" "$BENCH_BIN/empty_i915mem.bpf.o" create bind unbind destroy)

for r in $(seq 1 "$ROUNDS"); do
	[ "$r" = 1 ] || gemgen_fresh || exit 1
	bench_one "no tracer" ready "" sh -c 'echo ready; exec sleep 3600'
	bench_one empty ready "" "${BENCH_BESIDE[@]}"
	bench_one "empty, all its hooks" ready "" "$BENCH_BIN/empty" "$BENCH_BIN/empty_i915mem.bpf.o" \
		"${all_hooks[@]}"
	bench_one i915mem Tracing summary bin/i915mem -D i915
	bench_one "i915mem --no-btf" Tracing summary bin/i915mem -D i915 --no-btf
	bench_one "i915mem -e" "TIME(s)" " CREATE " bin/i915mem -D i915 -e
	bench_one "bpftrace (the script replaced)" ready " CREATE " bpftrace "$BENCH_OUT/seed-i915.bt"
done
