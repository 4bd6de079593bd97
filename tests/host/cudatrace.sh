#!/usr/bin/env bash
# cudatrace on the host, where uprobes work: its command line and bad input;
# the fake libcuda.so.1 / libcudart.so.13 (tests/cuda) driven by the
# workload through known calls, with exact expectations checked against
# what the fake libraries themselves received; and the real CUDA toolkit's
# libcudart (shared and static) and stub libcuda, where installed.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/cudatrace
D=build/tests/cuda
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

if [ ! -x $t ] || [ ! -x $D/workload ] || [ ! -x build/tests/test_cuda_helpers ]; then
	fail "cudatrace: $t or the test programs in $D are not built (make all unit-tests)"
	exit 1
fi

tmp=$(mktemp -d /tmp/cudatrace-test.XXXXXX)
wl_pid=
cleanup() {
	[ -n "$wl_pid" ] && kill "$wl_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# CUDATRACE_TESTS=kernel (for a guest run by hand, where each start takes
# seconds under TCG): only the sections whose outcome depends on how the
# kernel probes, counts and returns (attach, every call's arguments and result, summaries,
# errors, leaks, filters, intervals, cgroups, real libraries). The rest
# (--prometheus, hostile names, --timeline, -j, the result tables) is the
# frontend's, the same on every kernel: it runs on the host.
all_sections() { [ "${CUDATRACE_TESTS:-all}" = all ]; }

# ---- command line and bad input -------------------------------------------

check_common_options cudatrace
expect_error "cudatrace: empty comm" 64 "invalid COMM ''" $t -c ''
expect_error "cudatrace: comm too long" 64 "invalid COMM 'abcdefghijklmnopq' \(1 to 15 characters\)" \
	$t -c abcdefghijklmnopq
# libbpf-tools' -c is a cgroup path; here it is a name, and a path says so.
expect_error "cudatrace: -c with a path points at --cgroup" 64 \
	"-c takes a process name, not a path: for a cgroup use --cgroup /sys/fs/cgroup/x$" \
	$t -c /sys/fs/cgroup/x
expect_error "cudatrace: -r is no option (the runtime is -R)" 64 "invalid option -- 'r'" $t -r
expect_error "cudatrace: --stack without --leaks" 64 "^cudatrace: --stack needs --leaks" $t -s
expect_error "cudatrace: empty library path" 64 "invalid library path ''" $t -L ''
expect_error "cudatrace: too many libraries" 64 "too many --lib \(at most 8\)" \
	$t -L a -L b -L c -L d -L e -L f -L g -L h -L i
check "cudatrace: --help lists its options" sh -c "$t --help | grep -q -- '--leaks' && \
	$t --help | grep -q -- '--runtime' && $t --help | grep -q -- '--lib' && \
	$t --help | grep -q -- '--errors' && $t --help | grep -q -- '--comm'"

expect_error "cudatrace: a PID that does not exist" 1 "^cudatrace: no process with PID 999999999$" \
	$t -p 999999999
expect_error "cudatrace: a library that does not exist" 1 \
	"^cudatrace: /nonexistent/libcuda.so.1: No such file or directory$" $t -L /nonexistent/libcuda.so.1
expect_error "cudatrace: a file that is not ELF" 1 "^cudatrace: /etc/passwd: not an ELF file$" \
	$t -L /etc/passwd
libc=$(ldd /bin/sh | awk '/libc\.so/ { print $3 }')
# A driver on this host (the fake runtime would load it where ours is absent).
host_driver=
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 ' || [ -e /usr/lib/x86_64-linux-gnu/libcuda.so.1 ]; then
	host_driver=1
fi
expect_error "cudatrace: a library without CUDA symbols" 1 \
	"^cudatrace: $libc: no CUDA driver API symbols \(cuMemAlloc_v2, cuLaunchKernel, \.\.\.\)$" $t -L "$libc"
expect_error "cudatrace: a library without CUDA symbols, runtime too" 1 \
	"no CUDA driver or runtime API symbols \(cuMemAlloc_v2, cuLaunchKernel, cudaMalloc" $t -R -L "$libc"
expect_error "cudatrace: a runtime library without -R says to add it" 1 \
	"^cudatrace: $D/libcudart.so.13: no CUDA driver API symbols, but runtime API ones: add --runtime$" \
	$t -L $D/libcudart.so.13
if [ -n "$host_driver" ]; then
	skip "cudatrace: no-driver errors: this host has libcuda.so.1"
else
	expect_error "cudatrace: no driver installed says where it looked" 1 \
		"^cudatrace: no libcuda\.so\.1 in the ld\.so cache or the usual directories \(is the NVIDIA driver installed\?\): use --lib PATH or -p PID$" $t
	sleep 30 &
	sleeper=$!
	expect_error "cudatrace: a process without CUDA" 1 \
		"^cudatrace: PID $sleeper has no CUDA library mapped \(libcuda\.so\*, libcudart\.so\*\) and none was found" $t -p $sleeper
	kill $sleeper
	wait $sleeper 2>/dev/null
fi

# ---- helpers ---------------------------------------------------------------

# traced NAME "TRACER ARGS" WORKLOAD [ARGS...]: start WORKLOAD --wait, trace
# it with -p once it says it waits, let it go, and wait for both: the tracer
# ends by itself when its process exits. Leaves $tmp/NAME.out (stdout),
# .out.err, .wl (the workload's stdout), .log (the fake libraries' call log);
# traced_status is the tracer's exit status.
traced() {
	local name=$1 targs=$2 wl=$3
	shift 3
	rm -f "$tmp/go" "$tmp/$name.log"
	FAKE_CUDA_LOG=$tmp/$name.log "$wl" --wait "$tmp/go" "$@" >"$tmp/$name.wl" 2>&1 &
	wl_pid=$!
	for _ in $(seq 1 500); do
		grep -qs '^waiting' "$tmp/$name.wl" && break
		sleep 0.02
	done
	# shellcheck disable=SC2086
	if ! start_tool "$tmp/$name.out" $t $targs -p $wl_pid; then
		traced_status=start
		kill $wl_pid
		wait $wl_pid
		wl_pid=
		return 1
	fi
	touch "$tmp/go"
	wait $wl_pid
	wl_pid=
	for _ in $(seq 1 200); do
		kill -0 "$tool_pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$tool_pid" 2>/dev/null; then
		stop_tool KILL
		traced_status=hung
		return 1
	fi
	wait "$tool_pid"
	traced_status=$?
}

# calls OUT: the -e lines (after the header)
calls() { tail -n +2 "$1"; }
# call_results OUT: the -e lines' function and result, "FUNCTION RESULT|" each
call_results() { calls "$1" | awk '{ printf "%s %s|", $5, $8 }'; }

# field OUT FUNCTION N: field N of the FUNCTION row of a summary's table
field() { awk -v f="$2" -v n="$3" '$1 == f && NF == 6 { print $n; exit }' "$1"; }

# compare_calls OUT LOG: each -e line against the call the fake library
# logged, in order: function, result name, and every argument both show.
# Prints the first difference, nothing when all agree.
compare_calls() {
	[ -r "$2" ] || { printf 'no call log %s' "$2"; return; }
	awk '
	function rname(fn, v) {
		if (fn ~ /^cuda/)
			return (v in rt) ? rt[v] : "cudaError(" v ")"
		return (v in drv) ? drv[v] : "CUresult(" v ")"
	}
	BEGIN {
		drv[0] = "CUDA_SUCCESS"; drv[1] = "CUDA_ERROR_INVALID_VALUE"
		drv[2] = "CUDA_ERROR_OUT_OF_MEMORY"; drv[400] = "CUDA_ERROR_INVALID_HANDLE"
		drv[500] = "CUDA_ERROR_NOT_FOUND"; drv[719] = "CUDA_ERROR_LAUNCH_FAILED"
		rt[0] = "cudaSuccess"; rt[1] = "cudaErrorInvalidValue"; rt[2] = "cudaErrorMemoryAllocation"
		rt[21] = "cudaErrorInvalidMemcpyDirection"; rt[35] = "cudaErrorInsufficientDriver"
		rt[98] = "cudaErrorInvalidDeviceFunction"
		nk = split("ptr kernel handle grid block shmem stream kind", keys, " ")
	}
	FNR == NR { if (FNR > 1) tr[++nt] = $0; next }
	{ fk[++nf] = $0 }
	END {
		if (!nt) {
			printf "no calls traced, %d made", nf
			exit
		}
		if (nt != nf) {
			printf "%d calls traced, %d made", nt, nf
			exit
		}
		for (i = 1; i <= nt; i++) {
			n = split(tr[i], t, " ")
			m = split(fk[i], f, " ")
			delete fv
			delete tv
			for (j = 2; j <= m; j++)
				if (split(f[j], kv, "=") == 2)
					fv[kv[1]] = kv[2]
			for (j = 9; j <= n; j++)
				if (split(t[j], kv, "=") == 2)
					tv[kv[1]] = kv[2]
			if (t[5] != f[1]) {
				printf "call %d: traced %s, made %s", i, t[5], f[1]
				exit
			}
			if (t[8] != rname(f[1], fv["result"])) {
				printf "call %d (%s): result %s, the library returned %s", i, f[1], t[8], fv["result"]
				exit
			}
			ok = fv["result"] == 0
			if (("bytes" in fv) && t[6] != fv["bytes"]) {
				printf "call %d (%s): bytes %s, the library got %s", i, f[1], t[6], fv["bytes"]
				exit
			}
			for (k = 1; k <= nk; k++) {
				key = keys[k]
				if (!(key in fv) || fv[key] == "?" || ((key == "ptr" || key == "handle") && !ok))
					continue
				if (tv[key] != fv[key]) {
					printf "call %d (%s): %s=%s, the library got %s", i, f[1], key, tv[key], fv[key]
					exit
				}
			}
		}
	}' "$1" "$2"
}

# ---- the fake driver: one line per call, every argument right ---------------

drv_phases="batches 5 leak errors launch copies streams"
traced ev "-e" $D/workload $drv_phases
check_eq "cudatrace: -e ends by itself when the traced process exits" "$traced_status" 0
n=$tmp/ev.out
check "cudatrace: names the library it probes" \
	grep -q "^cudatrace: driver API in $PWD/$D/libcuda.so.1: 65 functions: cuMemAlloc_v2 cuMemAlloc " "$n.err"
check_eq "cudatrace: does not list the functions the library lacks on every start" \
	"$(grep -c ' lacks: ' "$n.err")" 0
check_eq "cudatrace: -e header" "$(head -1 $n)" \
	"$(printf '%-10s %-7s %-7s %-16s %-26s %12s %10s %-28s %s' 'TIME(s)' PID TID COMM FUNCTION BYTES 'LAT(us)' RESULT DETAIL)"
check_eq "cudatrace: -e one line per call (the fake logged $(wc -l <$tmp/ev.log))" \
	"$(calls $n | wc -l)" "$(wc -l <$tmp/ev.log)"
check_eq "cudatrace: -e every line agrees with what the library received" "$(compare_calls $n $tmp/ev.log)" ""
pid=$(awk '/^waiting/ { print $2 }' $tmp/ev.wl)
check_eq "cudatrace: -e PID, TID and COMM columns" "$(calls $n | awk '{ print $2, $3, $4 }' | sort -u)" \
	"$pid $pid workload"
check_eq "cudatrace: the seed's case: 1 GiB allocated and freed per batch" \
	"$(calls $n | awk '$5 ~ /^cuMem(Alloc|Free)_v2$/ && $6 == 1073741824 { printf "%s %s %s|", $5, $6, $8 }')" \
	"$(for _ in 1 2 3 4 5; do printf 'cuMemAlloc_v2 1073741824 CUDA_SUCCESS|cuMemFree_v2 1073741824 CUDA_SUCCESS|'; done)"
check_eq "cudatrace: failing calls by name" \
	"$(calls $n | awk '$8 != "CUDA_SUCCESS" { printf "%s %s|", $5, $8 }')" \
	"cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY|cuMemFree_v2 CUDA_ERROR_INVALID_VALUE|cuModuleGetFunction CUDA_ERROR_NOT_FOUND|cuLaunchKernel CUDA_ERROR_INVALID_HANDLE|cuStreamSynchronize CUDA_ERROR_LAUNCH_FAILED|"
check_eq "cudatrace: the out-of-memory request's size" \
	"$(calls $n | awk '$8 == "CUDA_ERROR_OUT_OF_MEMORY" { print $6 }')" 1099511627776
check_ge "cudatrace: a call the library made last 2 ms lasts >= 2000 us" \
	"$(calls $n | awk '$8 == "CUDA_ERROR_LAUNCH_FAILED" { printf "%d", $7 }')" 2000
check_ge "cudatrace: a successful call made to last 3 ms lasts >= 3000 us" \
	"$(calls $n | awk '$5 == "cuCtxSynchronize" { printf "%d\n", $7 }' | sort -n | tail -1)" 3000
# x86-64: gx..by in rsi, rdx, rcx, r8, r9; bz at sp+8, shmem at sp+16, stream
# at sp+24 - each 32-bit argument with junk in the upper half of its slot.
check_eq "cudatrace: cuLaunchKernel registers and stack arguments (sp+8, +16, +24), junk masked" \
	"$(calls $n | awk '$5 == "cuLaunchKernel" && /grid=3x5x7/ { print $5, $9, $10, $11, $12, $13 }' | sort | uniq -c | sed 's/^ *//')" \
	"2 cuLaunchKernel kernel=vecAdd grid=3x5x7 block=11x13x17 shmem=19 stream=0x5010"
check_eq "cudatrace: cuLaunchKernelEx reads its CUlaunchConfig, a CUkernel's name" \
	"$(calls $n | awk '$5 == "cuLaunchKernelEx" { print $9, $10, $11, $12, $13 }')" \
	"kernel=reduce grid=23x29x31 block=37x41x43 shmem=47 stream=0x5020"
check_eq "cudatrace: v1 functions: 32-bit sizes and pointers, junk masked" \
	"$(calls $n | awk '$5 ~ /^cuMem(Alloc|Free|cpyHtoD|cpyDtoHAsync)$/ { printf "%s %s %s|", $5, $6, $9 }')" \
	"cuMemAlloc 512 ptr=0x10000000|cuMemFree 512 ptr=0x10000000|cuMemcpyHtoD 1002 -|cuMemcpyDtoHAsync 5002 stream=0x5030|"
check_eq "cudatrace: frees show the size they free" \
	"$(calls $n | awk '$5 ~ /Free/ && $8 == "CUDA_SUCCESS" { printf "%s %s|", $5, $6 }' | sed 's/\(cuMemFree_v2 1073741824|\)\{5\}/5xFree1G|/')" \
	"5xFree1G|cuMemFreeHost 65536|cuMemFree 512|cuMemFreeAsync_ptsz 1048576|"

# ---- the summary ----------------------------------------------------------

traced sum "" $D/workload $drv_phases
check_eq "cudatrace: summary ends by itself when the traced process exits" "$traced_status" 0
n=$tmp/sum.out
check "cudatrace: summary says it traces" grep -q '^Tracing CUDA calls\.\.\. Hit Ctrl-C to end\.$' $n
check_eq "cudatrace: summary cuMemAlloc_v2 calls, errors, bytes" \
	"$(field $n cuMemAlloc_v2 2) $(field $n cuMemAlloc_v2 3) $(field $n cuMemAlloc_v2 6)" "7 1 5368713216"
check_eq "cudatrace: summary cuMemFree_v2 calls, errors, bytes" \
	"$(field $n cuMemFree_v2 2) $(field $n cuMemFree_v2 3) $(field $n cuMemFree_v2 6)" "6 1 5368709120"
check_eq "cudatrace: summary cuMemcpyHtoD_v2 calls, bytes" \
	"$(field $n cuMemcpyHtoD_v2 2) $(field $n cuMemcpyHtoD_v2 6)" "6 21480"
check_eq "cudatrace: summary cuLaunchKernel calls, errors" \
	"$(field $n cuLaunchKernel 2) $(field $n cuLaunchKernel 3)" "8 1"
check_eq "cudatrace: summary cuStreamSynchronize calls, errors" \
	"$(field $n cuStreamSynchronize 2) $(field $n cuStreamSynchronize 3)" "2 1"
check_eq "cudatrace: summary has every function called" \
	"$(awk 'NF == 6 && $2 ~ /^[0-9]+$/ { print $1 }' $n | sort | tr '\n' ' ')" \
	"$(awk '{ print $1 }' $tmp/sum.log | sort -u | tr '\n' ' ')"
check_eq "cudatrace: summary errors by name" \
	"$(awk '$2 ~ /^CUDA_ERROR/ && NF == 3 { printf "%s %s %s|", $1, $2, $3 }' $n)" \
	"cuLaunchKernel CUDA_ERROR_INVALID_HANDLE 1|cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY 1|cuMemFree_v2 CUDA_ERROR_INVALID_VALUE 1|cuModuleGetFunction CUDA_ERROR_NOT_FOUND 1|cuStreamSynchronize CUDA_ERROR_LAUNCH_FAILED 1|"
check_eq "cudatrace: summary kernel launches per name and shape" \
	"$(awk 'NF == 7 && $1 ~ /^[0-9]+$/ && $2 ~ /^cu/ { printf "%s %s %s %s %s %s|", $2, $3, $4, $5, $6, $7 }' $n)" \
	"cuLaunchKernel train_step 64x1x1 256x1x1 5 0|cuLaunchKernel vecAdd 3x5x7 11x13x17 2 0|cuLaunchKernel 0x0 1x1x1 1x1x1 0 1|cuLaunchKernel_ptsz vecAdd 2x1x1 256x1x1 1 0|cuLaunchKernelEx reduce 23x29x31 37x41x43 1 0|cuLaunchKernelEx_ptsz vecAdd 1x2x3 4x5x6 1 0|cuLaunchCooperativeKernel vecAdd 4x4x1 32x32x1 1 0|"
check_ge "cudatrace: summary histogram of cuStreamSynchronize reaches 2 ms" \
	"$(awk '/^cuStreamSynchronize latency:/ { getline; print $8 }' $n)" 2000

# ---- --prometheus ------------------------------------------------------------

# The counters through the real node_exporter and Prometheus (tests/lib.sh;
# on the host on ports of their own): exactly the calls and errors per
# function the fake library logged; totals since start (the calls before an
# 8 s pause and after it add up, the file rewritten every second between);
# the leaked allocations as gauges per comm while the process lives, gone
# with it.
expect_error "cudatrace: --prometheus: a directory that is not there" 1 \
	"^cudatrace: --prometheus /nonexistent/d.prom: cannot create a file beside it: No such file or directory$" \
	$t -L $D/libcuda.so.1 --prometheus /nonexistent/d.prom
if [ -z "${VM_SCRATCH:-}" ]; then
	PROM_DIR=$tmp/prom PROM_PORT=29090 PROM_NODE_PORT=29100
fi
if all_sections && prom_start; then
	prom=$PROM_FILES/cudatrace.prom
	rm -f "$tmp/go"
	# shellcheck disable=SC2086
	FAKE_CUDA_LOG=$tmp/prom.log $D/workload --wait "$tmp/go" $drv_phases sleep 8000 batches 2 \
		>"$tmp/prom.wl" 2>&1 &
	wl_pid=$!
	while ! grep -qs '^waiting' "$tmp/prom.wl"; do sleep 0.02; done
	start_tool "$tmp/prom.out" $t --prometheus "$prom" -p $wl_pid 1
	# (start_tool returns at the first line, maybe stderr's list of the
	# functions it probes: the file is written after it, before the banner.)
	wait_for_output "$tmp/prom.out" "$tool_pid"
	check "cudatrace: --prometheus: the file is there once attached" test -s "$prom"
	touch "$tmp/go"
	wait $wl_pid
	wl_pid=
	for _ in $(seq 1 100); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
	kill -0 "$tool_pid" 2>/dev/null && kill -KILL "$tool_pid"
	wait "$tool_pid"
	check_eq "cudatrace: --prometheus: ends with the process, status 0" "$?" 0
	check_prom "cudatrace: --prometheus: totals since start: the batches before and after the pause" \
		'gpubpf_cudatrace_calls_total{function=~"cuMemAlloc_v2|cuMemFree_v2|cuMemcpyHtoD_v2|cuLaunchKernel"}' \
		function "cuLaunchKernel 10;cuMemAlloc_v2 9;cuMemFree_v2 8;cuMemcpyHtoD_v2 8"
	# (Asked afterwards, of Prometheus' history: no race with the pause.)
	# (Seen at all is enough: the file at start has none, at exit 9. A loaded
	# VM, sid's, saw it for under 3 of the 8 s.)
	check_prom "cudatrace: --prometheus: written every interval: cuMemAlloc_v2's 7 calls seen in the pause" \
		'count_over_time((gpubpf_cudatrace_calls_total{function="cuMemAlloc_v2"} == 7)[10m:1s]) > bool 0' \
		"" 1
	check_prom "cudatrace: --prometheus: calls per function: the fake library's $(wc -l <"$tmp/prom.log")" \
		'gpubpf_cudatrace_calls_total' function \
		"$(awk '{ n[$1]++ } END { for (f in n) print f, n[f] }' "$tmp/prom.log" | sort | paste -sd';')"
	check_prom "cudatrace: --prometheus: errors per function and name" \
		'gpubpf_cudatrace_errors_total' "function error" \
		"cuLaunchKernel CUDA_ERROR_INVALID_HANDLE 1;cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY 1;cuMemFree_v2 CUDA_ERROR_INVALID_VALUE 1;cuModuleGetFunction CUDA_ERROR_NOT_FOUND 1;cuStreamSynchronize CUDA_ERROR_LAUNCH_FAILED 1"
	check_prom "cudatrace: --prometheus: ... the fake library's failing calls per function" \
		'sum by (function) (gpubpf_cudatrace_errors_total)' function \
		"$(awk '!/ result=0( |$)/ { n[$1]++ } END { for (f in n) print f, n[f] }' "$tmp/prom.log" | sort | paste -sd';')"
	check_prom "cudatrace: --prometheus: bytes allocated, freed, copied, since start" \
		'gpubpf_cudatrace_bytes_total{function=~"cuMemAlloc_v2|cuMemFree_v2|cuMemcpyHtoD_v2"}' function \
		"cuMemAlloc_v2 7516196864;cuMemFree_v2 7516192768;cuMemcpyHtoD_v2 29672"
	check_prom "cudatrace: --prometheus: a latency histogram per function counts its calls" \
		'gpubpf_cudatrace_call_seconds_count' function \
		"$(awk '{ n[$1]++ } END { for (f in n) print f, n[f] }' "$tmp/prom.log" | sort | paste -sd';')"
	check_prom "cudatrace: --prometheus: cuStreamSynchronize: one call under 1 ms, one of 2 ms" \
		'gpubpf_cudatrace_call_seconds_bucket{function="cuStreamSynchronize",le=~"0.001024|\\+Inf"}' le \
		"+Inf 2;0.001024 1"
	check_prom "cudatrace: --prometheus: the 4 leaked allocations were outstanding while it lived, per comm" \
		'max_over_time(gpubpf_cudatrace_outstanding_allocations[10m])' "comm pid" "workload - 4"
	check_prom "cudatrace: --prometheus: ... their 2110440 bytes" \
		'max_over_time(gpubpf_cudatrace_outstanding_bytes[10m])' "comm pid" "workload - 2110440"
	check_prom "cudatrace: --prometheus: nothing outstanding once the process exited" \
		'absent(gpubpf_cudatrace_outstanding_bytes)' "" 1
	check_prom "cudatrace: --prometheus: nothing dropped" \
		'gpubpf_cudatrace_dropped_total' table "allocations 0;inflight 0;notices 0;statistics 0"
	check_prom "cudatrace: --prometheus: nothing lost, by reason" \
		'gpubpf_cudatrace_events_lost_total' reason "recursion 0;ring_buffer_full 0;tracepoint_skipped 0"
	check_prom "cudatrace: --prometheus: node_exporter parsed the file" 'node_textfile_scrape_error' "" "0"
	check "cudatrace: --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$prom'"
	check "cudatrace: --prometheus: the text summaries still printed" grep -q "^FUNCTION " "$tmp/prom.out"
	prom_stop
fi

# ---- errors only -----------------------------------------------------------

traced err "-E" $D/workload $drv_phases
check_eq "cudatrace: --errors prints the failing calls only" \
	"$(call_results $tmp/err.out)" \
	"cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY|cuMemFree_v2 CUDA_ERROR_INVALID_VALUE|cuModuleGetFunction CUDA_ERROR_NOT_FOUND|cuLaunchKernel CUDA_ERROR_INVALID_HANDLE|cuStreamSynchronize CUDA_ERROR_LAUNCH_FAILED|"
check_eq "cudatrace: --errors names the kernel that was not found" \
	"$(calls $tmp/err.out | awk '$5 == "cuModuleGetFunction" { print $9 }')" "kernel=missing"

# ---- set-up calls: what fails first on a broken machine (issue 22) ----------

# cuInit, the device, contexts, modules and libraries: the workload's
# "setup" scripts the errors a machine without a working GPU gives (18
# calls, 4 failing). -E names each failing call's CUresult; the summary
# counts every call; -v names what the library lacks.
traced setup_err "-E" $D/workload setup
check_eq "cudatrace -E: the failing set-up calls with their CUresult names, in order" \
	"$(call_results $tmp/setup_err.out)" \
	"cuInit CUDA_ERROR_UNKNOWN|cuDevicePrimaryCtxRetain CUDA_ERROR_INVALID_DEVICE|cuModuleLoad CUDA_ERROR_FILE_NOT_FOUND|cuLibraryLoadData CUDA_ERROR_INVALID_PTX|"
# (-v: libbpf's debug lines come first, so wait for the list of functions.)
$t -v --lib "$PWD/$D/libcuda.so.1" >"$tmp/lacks.out" 2>"$tmp/lacks.err" &
lacks_pid=$!
for _ in $(seq 1 600); do grep -q ' functions: ' "$tmp/lacks.err" 2>/dev/null && break; sleep 0.05; done
kill -INT $lacks_pid; wait $lacks_pid
check "cudatrace -v: names the functions the library lacks" \
	grep -qx "cudatrace: $PWD/$D/libcuda.so.1 lacks: cuLaunchCooperativeKernel_ptsz cuCtxSynchronize_v2" "$tmp/lacks.err"
traced setup_sum "" $D/workload setup
check_eq "cudatrace: set-up calls per function: calls and errors, as the fake logged them" \
	"$(awk 'NF == 6 && $1 ~ /^cu/ { print $1, $2, $3 }' $tmp/setup_sum.out | sort)" \
	"$(sed -n 's/^\(cu[A-Za-z0-9_]*\):* .*/\1/p' $tmp/setup_sum.log | sort | uniq -c |
		awk '{ e = ($2 == "cuInit" || $2 == "cuDevicePrimaryCtxRetain" || $2 == "cuModuleLoad" ||
			    $2 == "cuLibraryLoadData") ? 1 : 0; print $2, $1, e }' | sort)"
check_eq "cudatrace: ... 18 calls in all, 4 errors, status 0" \
	"$(awk 'NF == 6 && $1 ~ /^cu/ { c += $2; e += $3 } END { print c, e }' $tmp/setup_sum.out) $traced_status" \
	"18 4 0"
check_eq "cudatrace: ... the errors table" \
	"$(awk 'NF == 3 && $2 ~ /^CUDA_ERROR/ { print $1, $2, $3 }' $tmp/setup_sum.out)" \
	"cuDevicePrimaryCtxRetain CUDA_ERROR_INVALID_DEVICE 1
cuInit CUDA_ERROR_UNKNOWN 1
cuLibraryLoadData CUDA_ERROR_INVALID_PTX 1
cuModuleLoad CUDA_ERROR_FILE_NOT_FOUND 1"

# ---- every exported function (issue 22) ---------------------------------------

# The fake libcuda exports two functions cudatrace reads no argument of,
# cuMemGetInfo_v2 and cuCtxGetDevice, and cuMemGetInfo at cuMemGetInfo_v2's
# address. Where multi-uprobe links make it cheap (6.6 on), every exported
# function is probed: the workload's "extra" phase (cuMemGetInfo_v2 twice,
# cuMemGetInfo once, cuCtxGetDevice failing then not) is 5 calls, the
# alias's under cuMemGetInfo_v2. Without them, the functions cudatrace
# reads, and the ones -f names.
multi=$(uname -r | awk -F. '{ print ($1 > 6 || ($1 == 6 && $2 >= 6)) ? 1 : 0 }')
extra_rows() { awk 'NF == 6 && ($1 == "cuMemGetInfo_v2" || $1 == "cuCtxGetDevice") { print $1, $2, $3 }' "$1" | sort; }
extra_want="cuCtxGetDevice 2 1
cuMemGetInfo_v2 3 0"
expect_error "cudatrace: -f with an empty pattern" 64 "invalid function pattern ''" $t -f ''
expect_error "cudatrace: -f more than 16 times" 64 "too many -f \(at most 16\)" \
	$t -f a -f b -f c -f d -f e -f f -f g -f h -f i -f j -f k -f l -f m -f n -f o -f p -f q
if [ "$multi" = 1 ]; then
	traced ex_all "" $D/workload extra
	check_eq "cudatrace: every exported function (multi-uprobe links): the other two counted, the alias once" \
		"$(extra_rows $tmp/ex_all.out)" "$extra_want"
	check "cudatrace: ... stderr says 2 more are counted" \
		grep -q "^cudatrace: driver API in $PWD/$D/libcuda.so.1: 65 functions: cuMemAlloc_v2 .*; 2 more counted$" \
		"$tmp/ex_all.out.err"
	check_eq "cudatrace: ... their error named" \
		"$(awk 'NF == 3 && $1 == "cuCtxGetDevice" { print $2, $3 }' $tmp/ex_all.out)" "CUDA_ERROR_INVALID_CONTEXT 1"
	traced ex_e "-e" $D/workload extra
	check_eq "cudatrace -e: every exported function: each call, in order" \
		"$(call_results $tmp/ex_e.out)" \
		"cuMemGetInfo_v2 CUDA_SUCCESS|cuMemGetInfo_v2 CUDA_SUCCESS|cuMemGetInfo_v2 CUDA_SUCCESS|cuCtxGetDevice CUDA_ERROR_INVALID_CONTEXT|cuCtxGetDevice CUDA_SUCCESS|"
	check_eq "cudatrace -e: ... as the library logged them" \
		"$(calls $tmp/ex_e.out | wc -l)" "$(wc -l <$tmp/ex_e.log)"
	pretend=uprobe_multi
else
	pretend=""
fi
# The path of kernels without multi-uprobe links (on this one too, made to
# pretend it has none).
GPU_BPF_PRETEND_MISSING=$pretend traced ex_def "" $D/workload extra
check_eq "cudatrace: without multi-uprobe links, only the functions it reads by default" \
	"$(extra_rows $tmp/ex_def.out)" ""
check "cudatrace: ... stderr says how many more there are, and -f" \
	grep -q "; 3 more exported, not probed (-f PATTERN probes them)$" "$tmp/ex_def.out.err"
GPU_BPF_PRETEND_MISSING=$pretend traced ex_f "-f cuMemGetInfo_v2 -f cuCtxGet*" $D/workload extra
check_eq "cudatrace -f: the functions named (a name, a glob), the alias once" \
	"$(extra_rows $tmp/ex_f.out)" "$extra_want"
check "cudatrace -f: ... stderr says 2 more are counted, none left" \
	grep -q "; 2 more counted$" "$tmp/ex_f.out.err"
GPU_BPF_PRETEND_MISSING=$pretend traced ex_f1 "-f cuMemGetInfo* -E" $D/workload extra
check_eq "cudatrace -f -E: cuCtxGetDevice not named: not probed, its error not shown" \
	"$(calls $tmp/ex_f1.out | wc -l) $(grep -c '; 1 more counted; 1 more exported, not probed' "$tmp/ex_f1.out.err")" "0 1"

# ---- hostile names (issue 23) -----------------------------------------------

# The workload under tests/lib.sh's HOSTILE name (a link to it), launching a
# kernel whose name has a space, a quote, a backslash, a newline, a byte
# that is not UTF-8 and a clear-screen, and leaking 4096 bytes: -e, -e -j
# a summary and -l. The text keeps one line per call, the names one
# column each (the kernel's space escaped where it is not the last column),
# and no control byte; -j keeps both names exactly.
if all_sections; then
ln -s "$PWD/$D/workload" "$tmp/$HOSTILE"
kernel_text='k\x20"\\\x0a\xff\x1b[2J'
traced hn "-e" "$tmp/$HOSTILE" hostile
traced hnj "-e -j" "$tmp/$HOSTILE" hostile
traced hns "" "$tmp/$HOSTILE" hostile
traced hnl "-l" "$tmp/$HOSTILE" hostile
pid=$(awk '/^waiting/ { print $2 }' $tmp/hnl.wl)
check_eq "cudatrace: hostile names -e: 3 calls, one line each, the name escaped in COMM" \
	"$(calls $tmp/hn.out | awk '{ print $4, $5, $8 }')" \
	"$HOSTILE_TEXT cuModuleGetFunction CUDA_SUCCESS
$HOSTILE_TEXT cuLaunchKernel CUDA_SUCCESS
$HOSTILE_TEXT cuMemAlloc_v2 CUDA_SUCCESS"
check "cudatrace: hostile names -e: the launch's kernel escaped, its space kept (DETAIL ends the line)" \
	grep -qF 'kernel=k "\\\x0a\xff\x1b[2J grid=1x1x1 block=1x1x1' $tmp/hn.out
check_no_control "cudatrace: hostile names: no control byte in the text outputs" $tmp/hn.out $tmp/hns.out $tmp/hnl.out
check_eq "cudatrace: hostile names summary: the launch row, the kernel one column" \
	"$(awk 'NF == 7 && $2 == "cuLaunchKernel" { print $3, $4, $5, $6 }' $tmp/hns.out)" "$kernel_text 1x1x1 1x1x1 1"
check "cudatrace: hostile names -l: the process's line" grep -qxF \
	"PID $pid ($HOSTILE_TEXT) exited: 1 allocations, 4096 bytes never freed" $tmp/hnl.out
check_hostile_json "cudatrace: hostile names -j: the process name exact, the bad byte U+FFFD" \
	"$(jq -r 'select(.type == "event") | .comm' $tmp/hnj.out | sort -u)"
check_eq "cudatrace: hostile names -j: the kernel name exact" \
	"$(jq -r 'select(.type == "event" and .function == "cuLaunchKernel") | .kernel' $tmp/hnj.out | od -An -c | tr -s ' ')" \
	"$(printf 'k "\\\n\357\277\275\033[2J\n' | od -An -c | tr -s ' ')"
fi

# ---- the runtime on the driver: nesting, dim3 ---------------------------------

traced rt "-e -R" $D/workload runtime
n=$tmp/rt.out
check "cudatrace: -R names the runtime library" \
	grep -q "^cudatrace: runtime API in $PWD/$D/libcudart.so.13: 11 functions: cudaMalloc cudaFree " "$n.err"
check_eq "cudatrace: -R one line per call, nested calls included" "$(calls $n | wc -l)" "$(wc -l <$tmp/rt.log)"
check_eq "cudatrace: -R every line agrees with what the libraries received" "$(compare_calls $n $tmp/rt.log)" ""
check_eq "cudatrace: cudaMalloc nests cuMemAlloc_v2 in the same thread" \
	"$(calls $n | awk 'NR <= 2 { printf "%s %s %s|", $5, $6, $8 }')" \
	"cuMemAlloc_v2 1048576 CUDA_SUCCESS|cudaMalloc 1048576 cudaSuccess|"
check_eq "cudatrace: runtime and driver results are different tables" \
	"$(calls $n | awk '$6 == 1099511627776 { printf "%s %s|", $5, $8 }')" \
	"cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY|cudaMalloc cudaErrorMemoryAllocation|"
# dim3 by value: x | y << 32 in one register, z in the next (junk above it);
# size_t shmem at sp+8 and the stream at sp+16.
check_eq "cudatrace: cudaLaunchKernel dim3 registers and stack arguments, host stub named" \
	"$(calls $n | awk '$5 == "cudaLaunchKernel" && $8 == "cudaSuccess" { print $9, $10, $11, $12, $13 }')" \
	"kernel=saxpy_kernel grid=5x6x7 block=8x9x10 shmem=1234 stream=0x5040"

# ---- --timeline ----------------------------------------------------------------

# The driver phases and the runtime's (-R), traced as -e lines and as a
# timeline by one tracer: a slice per line, in the same order, with its
# function, result and duration; failing calls marked; a runtime call's
# slice enclosing the driver calls it made; no two slices of a thread
# overlapping otherwise; the thread's track named by its command.
if all_sections; then
expect_error "cudatrace: --timeline in a directory that is not there" 1 \
	"^cudatrace: --timeline /nonexistent/t.json: No such file or directory$" $t --timeline /nonexistent/t.json
traced tl "-e -R --timeline $tmp/tl.json" $D/workload $drv_phases runtime
n=$tmp/tl.out tl=$tmp/tl.json
slices() { jq -r "[.[] | select(.ph == \"X\")] | .[] | $1" $tl; }
check_eq "cudatrace: --timeline: exit 0, the file is JSON (an array)" "$traced_status $(jq -r type $tl)" "0 array"
check_eq "cudatrace: --timeline: a slice per -e line: function and result, in order" \
	"$(slices '"\(.name) \(.args.result)"' | md5sum)" "$(calls $n | awk '{ print $5, $8 }' | md5sum)"
check_ge "cudatrace: --timeline: that is every call" "$(slices .name | wc -l)" 90
slices .dur >"$tmp/tl.durs"
calls $n | awk '{ print $7 }' >"$tmp/tl.lats"
check_eq "cudatrace: --timeline: each slice lasts its -e line's latency (pairs, differing)" \
	"$(paste "$tmp/tl.durs" "$tmp/tl.lats" | awk 'NF == 2 { n++ } NF != 2 || $1 - $2 > 0.0005 || $2 - $1 > 0.0005 { d++ } END { print n + 0, d + 0 }')" \
	"$(calls $n | wc -l) 0"
check_eq "cudatrace: --timeline: failing calls marked by their results, in order" \
	"$(jq -r '.[] | select(.ph == "i" and .cat == "error") | .name' $tl | paste -sd' ')" \
	"$(calls $n | awk '$8 != "CUDA_SUCCESS" && $8 != "cudaSuccess" { print $8 }' | paste -sd' ')"
check_eq "cudatrace: --timeline: launches carry the kernel and shape -e shows" \
	"$(slices 'select(.args.grid_x) | "kernel=\(.args.kernel) grid=\(.args.grid_x)x\(.args.grid_y)x\(.args.grid_z) block=\(.args.block_x)x\(.args.block_y)x\(.args.block_z)"' | md5sum)" \
	"$(calls $n | awk '$9 ~ /^kernel=/ && $10 ~ /^grid=/ { print $9, $10, $11 }' | md5sum)"
check_eq "cudatrace: --timeline: the first cudaMalloc encloses the cuMemAlloc_v2 it made" \
	"$(jq -r '[.[] | select(.ph == "X")] | (map(select(.name == "cudaMalloc")) | first) as $r |
		map(select(.name != "cudaMalloc" and .ts >= $r.ts and .ts + .dur <= $r.ts + $r.dur) | .name) | join(" ")' $tl)" \
	cuMemAlloc_v2
check_eq "cudatrace: --timeline: slices of a thread nest or follow each other, never cross" \
	"$(jq -r '[.[] | select(.ph == "X")] | group_by("\(.pid):\(.tid)") | map(sort_by(.ts) | . as $s |
		[range(length) as $i | range($i + 1; length) as $j |
		 select($s[$j].ts < $s[$i].ts + $s[$i].dur and $s[$j].ts + $s[$j].dur > $s[$i].ts + $s[$i].dur + 0.0005)] |
		length) | add' $tl)" 0
pid=$(awk '/^waiting/ { print $2 }' $tmp/tl.wl)
check_eq "cudatrace: --timeline: the process and its thread named by its command" \
	"$(jq -r --argjson p "$pid" '.[] | select(.ph == "M" and (.name == "process_name" or .name == "thread_name") and .pid == $p) | "\(.name) \(.tid) \(.args.name)"' $tl)" \
	"process_name $pid workload
thread_name $pid workload"

# The benchmark's burst (make bench): 20000 calls as fast as the fake
# library takes them, and the cuModuleGetFunction before them; every one a
# slice, nothing lost.
traced tlburst "--timeline $tmp/burst.json" $D/workload batches 5000
check_eq "cudatrace: --timeline at the benchmark's rate: 20001 slices, nothing lost" \
	"$traced_status $(jq '[.[] | select(.ph == "X")] | length' $tmp/burst.json)|$(grep -v -e ' functions: ' -e ' lacks: ' $tmp/tlburst.out.err)" \
	"0 20001|"
fi

# ---- a program on the runtime alone: no libcuda mapped ------------------------
# workload_rt is linked to libcudart.so.13 only; the fake runtime, like the
# real one, loads libcuda.so.1 at its first call. Before it (the tracer
# attaches then), or where no driver is installed at all, the process has
# the runtime and no driver: cudatrace traces the runtime, as with -R.

traced rtonly "-e" $D/workload_rt runtime
n=$tmp/rtonly.out
pid=$(awk '/^waiting/ { print $2 }' $tmp/rtonly.wl)
check_eq "cudatrace: runtime only, driver not loaded yet: -e without -R traces, ends with the process" \
	"$traced_status" 0
check "cudatrace: ... says in one line it traces the runtime instead" \
	grep -qx "cudatrace: PID $pid has no libcuda mapped; tracing the runtime API in $PWD/$D/libcudart.so.13 (as with -R)" "$n.err"
check "cudatrace: ... and names the runtime library and its functions" \
	grep -q "^cudatrace: runtime API in $PWD/$D/libcudart.so.13: 11 functions: cudaMalloc cudaFree " "$n.err"
# The driver the runtime loaded afterwards was not there to probe: the
# runtime's calls, exactly, are what is traced.
grep '^cuda' $tmp/rtonly.log >$tmp/rtonly.rtlog
check_eq "cudatrace: ... one line per runtime call (15 made)" \
	"$(calls $n | wc -l) $(wc -l <$tmp/rtonly.rtlog)" "15 15"
check_eq "cudatrace: ... every line agrees with what the runtime received" \
	"$(compare_calls $n $tmp/rtonly.rtlog)" ""

traced rtsum "" $D/workload_rt runtime
n=$tmp/rtsum.out
check_eq "cudatrace: runtime only: the summary counts the runtime's calls" \
	"$traced_status $(field $n cudaMalloc 2) $(field $n cudaMalloc 3) $(field $n cudaMalloc 6) $(field $n cudaLaunchKernel 2) $(field $n cudaLaunchKernel 3)" \
	"0 3 1 1051576 2 1"
check_eq "cudatrace: runtime only: the summary has every runtime function called, nothing else" \
	"$(awk 'NF == 6 && $2 ~ /^[0-9]+$/ { print $1 }' $n | sort | tr '\n' ' ')" \
	"cudaDeviceSynchronize cudaFree cudaLaunchKernel cudaLaunchKernel_ptsz cudaMalloc cudaMemcpy cudaMemcpyAsync cudaMemcpyAsync_ptsz cudaMemcpy_ptds cudaStreamSynchronize cudaStreamSynchronize_ptsz "

traced rtleak "-l" $D/workload_rt runtime
pid=$(awk '/^waiting/ { print $2 }' $tmp/rtleak.wl)
check_eq "cudatrace: runtime only: --leaks finds the runtime's leak" \
	"$(grep "^PID $pid " $tmp/rtleak.out) $(awk '/^  0x/ { print $1, $2, $4 }' $tmp/rtleak.out)" \
	"PID $pid (workload_rt) exited: 1 allocations, 3000 bytes never freed $(awk '/^leaked/ { print $2, $3 }' $tmp/rtleak.wl) cudaMalloc"

traced rtdrv "-e" $D/workload runtime
check_eq "cudatrace: libcuda mapped, no -R: the driver's calls only, not the runtime's" \
	"$(calls $tmp/rtdrv.out | awk '{ print $5 }' | sort | uniq -c | tr -s ' ' | tr '\n' '|')" \
	"$(awk '$1 !~ /^cuda/ { print $1 }' $tmp/rtdrv.log | sort | uniq -c | tr -s ' ' | tr '\n' '|')"

if [ -n "$host_driver" ]; then
	skip "cudatrace: runtime only, no driver installed: this host has libcuda.so.1"
else
	# The runtime alone in a directory of its own: it finds no libcuda.so.1.
	mkdir -p $tmp/nodriver
	cp $D/libcudart.so.13 $tmp/nodriver/
	LD_LIBRARY_PATH=$tmp/nodriver traced nodrv "-e" $D/workload_rt nodriver
	n=$tmp/nodrv.out
	pid=$(awk '/^waiting/ { print $2 }' $tmp/nodrv.wl)
	check_eq "cudatrace: runtime only, no driver installed: -e without -R traces, ends with the process" \
		"$traced_status" 0
	check_eq "cudatrace: ... says so in one line, after the line naming what it probes" \
		"$(sed 's/: cudaMalloc .*//' "$n.err")" \
		"cudatrace: runtime API in $tmp/nodriver/libcudart.so.13: 11 functions
cudatrace: PID $pid has no libcuda mapped; tracing the runtime API in $tmp/nodriver/libcudart.so.13 (as with -R)"
	check_eq "cudatrace: ... every call, cudaErrorInsufficientDriver" \
		"$(call_results $n)" \
		"cudaMalloc cudaErrorInsufficientDriver|cudaFree cudaErrorInsufficientDriver|cudaMemcpy cudaErrorInsufficientDriver|cudaMemcpyAsync cudaErrorInsufficientDriver|cudaLaunchKernel cudaErrorInsufficientDriver|cudaStreamSynchronize cudaErrorInsufficientDriver|cudaDeviceSynchronize cudaErrorInsufficientDriver|"
	check_eq "cudatrace: ... every line agrees with what the runtime received" \
		"$(compare_calls $n $tmp/nodrv.log)" ""
	check_eq "cudatrace: ... the launch's arguments" \
		"$(calls $n | awk '$5 == "cudaLaunchKernel" { print $9, $10, $11, $12, $13 }')" \
		"kernel=saxpy_kernel grid=5x6x7 block=8x9x10 shmem=1234 stream=0x77"
fi

# ---- leaks -----------------------------------------------------------------

traced leak "-l -R" $D/workload batches 2 leak errors runtime
n=$tmp/leak.out
check_eq "cudatrace: --leaks ends by itself when the process exits" "$traced_status" 0
pid=$(awk '/^waiting/ { print $2 }' $tmp/leak.wl)
check_eq "cudatrace: --leaks reports the process's exit" \
	"$(grep "^PID $pid " $n)" "PID $pid (workload) exited: 5 allocations, 2113440 bytes never freed"
check_eq "cudatrace: --leaks names exactly the leaked allocations" \
	"$(awk '/^  0x/ { print $1, $2 }' $n | sort)" "$(awk '/^leaked/ { print $2, $3 }' $tmp/leak.wl | sort)"
check_eq "cudatrace: --leaks names the allocating functions" \
	"$(awk '/^  0x/ { print $4 }' $n | tr '\n' ' ')" \
	"cuMemAlloc_v2 cuMemAllocManaged cuMemAllocAsync_ptsz cuMemAllocHost cudaMalloc "
check "cudatrace: --leaks forgets an exited process" grep -qx "no outstanding allocations" $n

traced stack "-l -s" $D/workload leak
check_eq "cudatrace: --stack: each leak's stack starts in the function that leaked it" \
	"$(awk '/^  0x/ { getline; print $1 }' $tmp/stack.out | sed 's/+0x[0-9a-f]*$//' | sort | uniq -c | sed 's/^ *//')" \
	"4 leak"

rm -f "$tmp/go"
$D/workload --wait "$tmp/go" leak sleep 2500 >"$tmp/live.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/live.wl"; do sleep 0.02; done
start_tool "$tmp/live.out" $t -l -p $wl_pid 1
touch "$tmp/go"
wait $wl_pid
wl_pid=
for _ in $(seq 1 100); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
stop_tool
check "cudatrace: --leaks every interval: outstanding while the process lives" \
	grep -q "^PID [0-9]* (workload): 4 allocations, 2110440 bytes outstanding$" $tmp/live.out
check "cudatrace: ... and never freed when it exits" \
	grep -q "^PID [0-9]* (workload) exited: 4 allocations, 2110440 bytes never freed$" $tmp/live.out

traced evleak "-e -l" $D/workload leak
check "cudatrace: -e --leaks: the exit report follows the process's last call" \
	awk 'NR > 1 && $1 ~ /^[0-9.]+$/ { last = NR } / exited: / { ex = NR } END { exit !(last > 1 && ex > last) }' \
	$tmp/evleak.out

# ---- calls in flight: one more than the table holds ---------------------------

# 16385 threads inside cuCtxSynchronize at once: 16384 followed to their
# return, the one that found no room said (an LRU table evicted live
# calls silently, 128 early on 2 CPUs).
traced infl "-j" $D/workload inflight 16385
check_eq "cudatrace: 16385 calls in flight: 16384 counted, 1 said not traced" \
	"$traced_status $(jq -r 'select(.type == "function" and .function == "cuCtxSynchronize") | .calls' $tmp/infl.out) $(jq -r 'select(.type == "lost") | "\(.what) \(.count) \(.limit)"' $tmp/infl.out) $(grep -c '^cudatrace: 1 calls not traced (more than 16384 in flight)$' $tmp/infl.out.err)" \
	"0 16384 inflight 1 16384 1"

# A free inside a free of the same function, on one thread (a signal
# handler's): each call kept to its own return, so both allocations are
# freed (one entry per thread and function left the outer free's return
# unseen, its allocation a false leak).
traced nest "-j" $D/workload nested
check_eq "cudatrace: a call inside a call of the same function: both frees counted, with their bytes" \
	"$traced_status $(jq -r 'select(.type == "function" and .function == "cuMemFree_v2") | "\(.calls) \(.bytes)"' $tmp/nest.out) $(grep -c 'scripted' $tmp/nest.log)" \
	"0 2 12288 1"

# ---- filters, intervals, signals, pipes --------------------------------------

start_tool "$tmp/comm.out" $t -e -c workload -L $D/libcuda.so.1
$D/workload batches 1 >/dev/null
sleep 0.3
stop_tool
check_eq "cudatrace: -c COMM, system-wide on --lib" \
	"$(calls $tmp/comm.out | awk '{ print $4, $5 }' | tr '\n' '|')" \
	"workload cuModuleGetFunction|workload cuMemAlloc_v2|workload cuMemcpyHtoD_v2|workload cuLaunchKernel|workload cuMemFree_v2|"
check_eq "cudatrace: Ctrl-C ends -e with status 0" "$tool_status" 0

start_tool "$tmp/nocomm.out" $t -c nomatch -L $D/libcuda.so.1
$D/workload batches 1 >/dev/null
stop_tool TERM
check_eq "cudatrace: -c of another command sees no calls; SIGTERM prints the summary" \
	"$(tail -1 $tmp/nocomm.out) $tool_status" "no CUDA calls 0"

start_tool "$tmp/iv.out" $t -c workload -L $D/libcuda.so.1 1 2
$D/workload batches 3 sleep 3500 >/dev/null &
wl_pid=$!
# By itself, not in a bound of time: without multi-uprobe links (5.10,
# 6.1) its exit detaches a uprobe and a uretprobe per function, each
# waiting for the kernel's RCU, seconds under qemu's TCG (6 s were once
# not enough for 65 functions).
for _ in $(seq 1 600); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
check "cudatrace: interval count: exits by itself after count summaries" sh -c "! kill -0 $tool_pid 2>/dev/null"
stop_tool
kill $wl_pid 2>/dev/null
wait $wl_pid 2>/dev/null
wl_pid=
check_eq "cudatrace: interval count: 2 summaries, status 0" \
	"$(grep -c -E '^(FUNCTION|no CUDA calls)' $tmp/iv.out) $tool_status" "2 0"
check_eq "cudatrace: interval: each call counted once" \
	"$(awk '$1 == "cuMemAlloc_v2" && NF == 6 { s += $2 } END { print s }' $tmp/iv.out)" 3

# Intervals lose nothing: the kernel side's counters only grow, and each
# summary prints what they gained since the one before (a lookup and then a
# delete would lose the calls counted in between). Calls as fast as the
# fake library takes them - failing ones too - for 3.5 s, across 3 interval
# switches: summed over the summaries (-j), exactly what the program made.
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" steady 3500 >"$tmp/steady.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/steady.wl"; do sleep 0.02; done
$t -j -p $wl_pid 1 >"$tmp/steady.json" 2>"$tmp/steady.err" &
tool_pid=$!
for _ in $(seq 1 100); do grep -q 'functions:' "$tmp/steady.err" 2>/dev/null && break; sleep 0.05; done
touch "$tmp/go"
wait $wl_pid
wl_pid=
for _ in $(seq 1 100); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$tool_pid" 2>/dev/null && kill -KILL "$tool_pid"
wait "$tool_pid"
steady_status=$?
r=$(sed -n 's/^steady \([0-9]*\)$/\1/p' "$tmp/steady.wl")
j=$tmp/steady.json
check_ge "cudatrace: lossless intervals: the program made its rounds of 7 calls" "${r:-0}" 1
check_eq "cudatrace: ... the tracer ended with it, status 0" "$steady_status" 0
check_ge "cudatrace: ... calls in 4 summaries or more (3 intervals, then the exit)" \
	"$(jq -r 'select(.type == "function") | .ts' $j | sort -u | wc -l)" 4
check_eq "cudatrace: ... per function, calls, errors and bytes add up to the program's ($r rounds)" \
	"$(jq -rs 'map(select(.type == "function")) | group_by(.function) | .[] |
		"\(.[0].function) \(map(.calls) | add) \(map(.errors) | add) \(map(.bytes // 0) | add)"' $j)" \
	"cuLaunchKernel $((2 * r)) $r 0
cuMemAlloc_v2 $((2 * r)) $r $((4096 * r))
cuMemFree_v2 $((2 * r)) $r $((4096 * r))
cuMemcpyHtoD_v2 $r 0 $((4096 * r))
cuModuleGetFunction 1 0 0"
check_eq "cudatrace: ... per error, the counts add up to the program's" \
	"$(jq -rs 'map(select(.type == "error")) | group_by(.function, .error) | .[] |
		"\(.[0].function) \(.[0].error) \(map(.count) | add)"' $j)" \
	"cuLaunchKernel CUDA_ERROR_INVALID_HANDLE $r
cuMemAlloc_v2 CUDA_ERROR_OUT_OF_MEMORY $r
cuMemFree_v2 CUDA_ERROR_INVALID_VALUE $r"
check_eq "cudatrace: ... per kernel, the launches and failures add up to the program's" \
	"$(jq -rs 'map(select(.type == "launch")) | group_by(.kernel) | .[] |
		"\(.[0].kernel) \(map(.launches) | add) \(map(.failed) | add)"' $j)" \
	"0x0 0 $r
train_step $r 0"
check_eq "cudatrace: ... the latency histograms count every call" \
	"$(jq -rs 'map(select(.type == "function_hist")) | group_by(.function) | .[] |
		"\(.[0].function) \(map(.count) | add)"' $j)" \
	"$(jq -rs 'map(select(.type == "function")) | group_by(.function) | .[] |
		"\(.[0].function) \(map(.calls) | add)"' $j)"
check_eq "cudatrace: ... a function not called in an interval has no row in its summary" \
	"$(jq -r 'select(.type == "function" and .calls == 0) | .function' $j)" ""
check_eq "cudatrace: ... nothing reported lost or dropped" \
	"$(grep -v -e ' functions: ' -e ' lacks: ' -e '^Tracing CUDA calls' $tmp/steady.err)" ""

# Calls that return while the tracer still attaches (a uprobe per function,
# one after another, as where there are no multi-uprobe links): their
# TIME(s) counts from when tracing began, never from before it (an unsigned
# difference read 18446744073.7 s).
$D/workload steady 1000 >"$tmp/early.wl" 2>&1 &
wl_pid=$!
sleep 0.2
GPU_BPF_PRETEND_MISSING=uprobe_multi $t -e -p $wl_pid >"$tmp/early.out" 2>"$tmp/early.err" &
tool_pid=$!
wait $wl_pid
wl_pid=
for _ in $(seq 1 300); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$tool_pid" 2>/dev/null && kill -INT "$tool_pid"
wait "$tool_pid"
check_ge "cudatrace: -e while attaching per function: calls traced" \
	"$(awk '$5 ~ /^cu/' "$tmp/early.out" | wc -l)" 100
check_eq "cudatrace: ... each TIME(s) from when tracing began, none before it" \
	"$(awk '$5 ~ /^cu/ && !($1 >= 0 && $1 < 600)' "$tmp/early.out" | head -3)" ""

# A process that never calls CUDA and exits mid-trace: the tracer ends with an empty summary.
rm -f "$tmp/go"
sh -c "echo waiting; while [ ! -e $tmp/go ]; do sleep 0.05; done" >"$tmp/quiet.wl" &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/quiet.wl"; do sleep 0.02; done
start_tool "$tmp/quiet.out" $t -p $wl_pid -L $D/libcuda.so.1
touch "$tmp/go"
wait $wl_pid
wl_pid=
for _ in $(seq 1 100); do kill -0 "$tool_pid" 2>/dev/null || break; sleep 0.1; done
check "cudatrace: a process exiting mid-trace ends tracing" sh -c "! kill -0 $tool_pid 2>/dev/null"
stop_tool
check_eq "cudatrace: ... with a clean summary, status 0" "$(tail -1 $tmp/quiet.out) $tool_status" \
	"no CUDA calls 0"

traced units "-e -T -m" $D/workload errors
check "cudatrace: -T puts the wall clock first" \
	awk 'NR == 1 { exit !($1 == "TIME" && $2 == "TIME(s)") } NR > 1 && $1 !~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/ { exit 1 }' \
	$tmp/units.out
check_ge "cudatrace: -m: latencies in milliseconds (a 2 ms call)" \
	"$(awk '$9 == "CUDA_ERROR_LAUNCH_FAILED" { printf "%d", $8 * 1000 }' $tmp/units.out)" 2000
check_le "cudatrace: -m: ... not microseconds" \
	"$(awk '$9 == "CUDA_ERROR_LAUNCH_FAILED" { printf "%d", $8 }' $tmp/units.out)" 100

rm -f "$tmp/go"
FAKE_CUDA_LOG=$tmp/term.log $D/workload --wait "$tmp/go" batches 2 sleep 5000 >"$tmp/term.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/term.wl"; do sleep 0.02; done
start_tool "$tmp/term.out" $t -p $wl_pid
touch "$tmp/go"
for _ in $(seq 1 100); do [ "$(wc -l 2>/dev/null <"$tmp/term.log")" = 9 ] && break; sleep 0.05; done
stop_tool TERM
kill $wl_pid
wait $wl_pid 2>/dev/null
wl_pid=
check_eq "cudatrace: SIGTERM mid-trace prints the summary so far" \
	"$tool_status $(field $tmp/term.out cuMemAlloc_v2 2)" "0 2"

# "At once": while the workload still lives (it stays 60 s after its
# calls), not when it exits; no bound on the time (a loaded machine, qemu's
# TCG: once 4 s were not enough).
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" batches 300 sleep 60000 >"$tmp/pipe.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/pipe.wl"; do sleep 0.02; done
( $t -e -p $wl_pid 2>"$tmp/pipe.err"; echo $? >"$tmp/pipe.status" ) | head -3 >"$tmp/pipe.out" &
for _ in $(seq 1 600); do grep -q 'functions:' "$tmp/pipe.err" 2>/dev/null && break; sleep 0.05; done
touch "$tmp/go"
for _ in $(seq 1 500); do [ -s "$tmp/pipe.status" ] && break; sleep 0.1; done
check_eq "cudatrace: a closed pipe ends -e, status 0, the traced process still running" \
	"$(cat $tmp/pipe.status 2>/dev/null) $(kill -0 $wl_pid 2>/dev/null && echo running)" "0 running"
check_eq "cudatrace: ... after the lines the reader took" "$(wc -l <$tmp/pipe.out)" 3
kill $wl_pid 2>/dev/null
wait $wl_pid 2>/dev/null
wl_pid=
wait

# Outputs that cannot be written. stdout on a full device: one line at once
# saying what was lost, tracing ends, exit 1 (a closed pipe, above, is a
# reader gone: quiet, exit 0). A --timeline that cannot be written: one
# line at once, the -e lines go on, exit 1. SIGHUP (a closed terminal):
# as SIGTERM, the summary written, exit 0.
lib=$D/libcuda.so.1
$t -L $lib -e >/dev/full 2>"$tmp/full.err"
check_eq "cudatrace -e >/dev/full: exit 1, one line naming stdout and the error" \
	"$? $(grep -v ' functions: ' "$tmp/full.err" | sed -E 's/: [0-9]+ bytes/: N bytes/')" \
	"1 cudatrace: stdout: cannot write: No space left on device: N bytes of output lost; tracing ends, the summary on stderr"
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" batches 2 sleep 5000 >"$tmp/faults.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/faults.wl"; do sleep 0.02; done
start_tool "$tmp/tlfull.out" $t -e -p $wl_pid --timeline /dev/full
tl_pid=$tool_pid
start_tool "$tmp/hup.json" $t -j -p $wl_pid
touch "$tmp/go"
for _ in $(seq 1 100); do [ "$(calls "$tmp/tlfull.out" | wc -l)" -ge 9 ] && break; sleep 0.05; done
stop_tool HUP
check_eq "cudatrace: SIGHUP: the summary, exit 0" \
	"$tool_status $(jq -r 'select(.type == "function" and .function == "cuMemAlloc_v2") | .calls' "$tmp/hup.json")" "0 2"
tool_pid=$tl_pid
stop_tool
check_eq "cudatrace --timeline /dev/full: exit 1, one line at once, the events it lost at the end, the -e lines all there" \
	"$tool_status $(grep -v ' functions: ' "$tmp/tlfull.out.err" | sed -E 's/: [1-9][0-9]* events/: N events/') $(calls "$tmp/tlfull.out" | awk '$5 == "cuMemAlloc_v2"' | wc -l)" \
	"1 cudatrace: --timeline /dev/full: cannot write: No space left on device: the timeline ends here
cudatrace: --timeline /dev/full: N events not written 2"
kill $wl_pid 2>/dev/null
wait $wl_pid 2>/dev/null
wl_pid=

# A summary the disk fills up: said, and written whole on stderr. The
# file ends 200 bytes below the file size limit (ulimit -f; SIGXFSZ
# ignored, a write past it fails with EFBIG as one on a full disk with
# ENOSPC): the banner fits, the summary does not.
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" batches 2 >"$tmp/fsize.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/fsize.wl"; do sleep 0.02; done
head -c $((256 * 1024 - 200)) /dev/zero >"$tmp/fsize.out"
(trap '' XFSZ; ulimit -f 256; exec $t -p $wl_pid) >>"$tmp/fsize.out" 2>"$tmp/fsize.err" &
tool_pid=$!
for _ in $(seq 1 600); do grep -q 'functions:' "$tmp/fsize.err" 2>/dev/null && break; sleep 0.05; done
touch "$tmp/go"
wait $tool_pid
check_eq "cudatrace: a summary past the file size limit: exit 1, one line, the summary whole on stderr" \
	"$? $(grep -c '^cudatrace: stdout: cannot write: File too large: [0-9]* bytes of output lost' "$tmp/fsize.err") $(field "$tmp/fsize.err" cuMemAlloc_v2 2) $(field "$tmp/fsize.err" cuMemFree_v2 2)" \
	"1 1 2 2"
wait $wl_pid 2>/dev/null
wl_pid=

# Start-up refuses, in one line: a PID not all digits, a second -p, a
# zombie, a kernel thread, a -L that is no regular file (a FIFO would block
# the ELF reader), two outputs on one file, a --prometheus directory; a
# 100 KB argument is quoted cut.
expect_error "cudatrace: -p +5: digits only" 64 "^cudatrace: invalid PID '\+5' \(expected 1\.\.[0-9]+\)$" $t -L $lib -p +5
expect_error "cudatrace: -p ' 5': digits only" 64 "^cudatrace: invalid PID ' 5' " $t -L $lib -p " 5"
expect_error "cudatrace: a second -p" 64 "^cudatrace: -p 2: one process at a time \(-c traces all of one name\)$" \
	$t -L $lib -p $$ -p 2
sh -c 'sleep 0.1 & echo $! >"$1"; exec sleep 60' sh "$tmp/zombie.pid" &
zparent=$!
for _ in $(seq 1 100); do [ -s "$tmp/zombie.pid" ] && grep -qs '^State:.Z' "/proc/$(cat "$tmp/zombie.pid")/status" && break; sleep 0.05; done
expect_error "cudatrace: -p of a zombie" 64 "^cudatrace: -p $(cat "$tmp/zombie.pid"): a zombie \(it has exited\)$" \
	$t -L $lib -p "$(cat "$tmp/zombie.pid")"
kill $zparent; wait $zparent 2>/dev/null
kthread=$(pgrep -x kthreadd | head -1)
if [ -n "$kthread" ]; then
	expect_error "cudatrace: -p of a kernel thread" 64 "^cudatrace: -p $kthread: a kernel thread$" $t -L $lib -p "$kthread"
else
	skip "cudatrace: -p of a kernel thread: no kthreadd in this PID namespace"
fi
mkfifo "$tmp/fifo"
expect_error "cudatrace: -L of a FIFO" 64 "^cudatrace: -L $tmp/fifo: not a regular file \(a library or an executable\)$" \
	$t -L "$tmp/fifo"
expect_error "cudatrace: --timeline and --prometheus on one file" 64 \
	"^cudatrace: --timeline and --prometheus name one file, $tmp/one: give each its own$" \
	$t -L $lib --timeline "$tmp/one" --prometheus "$tmp/./one"
expect_error "cudatrace: --prometheus of a directory" 1 "^cudatrace: --prometheus $tmp: a directory: give a file in it$" \
	$t -L $lib --prometheus "$tmp"
expect_error "cudatrace: a 100 KB argument quoted cut" 64 "^cudatrace: invalid PID '7{64}\.\.\.' " \
	$t -L $lib -p "$(head -c 100000 /dev/zero | tr '\0' 7)"

# -p of a process that ends without having mapped the library: the tool
# ends with it (exit 0, its summary), as with one that made calls.
mkfifo "$tmp/release"
sh -c 'read -r _ <"$1"' sh "$tmp/release" &
sl=$!
start_tool "$tmp/nocalls.out" $t -L $lib -p $sl
echo >"$tmp/release"
wait $sl
wait $tool_pid
check_eq "cudatrace -p: a process gone before any call ends the tool, exit 0, its summary" \
	"$? $(grep -c '^no CUDA calls$' "$tmp/nocalls.out")" "0 1"

# --prometheus: a temporary a writer killed between naming and renaming
# left (PATH.tmp-PID-N) is removed by the next start; a live writer's kept.
: >"$tmp/m.prom.tmp-2147483646-0"
: >"$tmp/m.prom.tmp-$$-0"
start_tool "$tmp/m.out" $t -L $lib --prometheus "$tmp/m.prom"
stop_tool
check_eq "cudatrace --prometheus: a dead writer's temporary removed at start, a live one's kept, none of its own" \
	"$(cd "$tmp" && ls m.prom* | paste -sd' ')" "m.prom m.prom.tmp-$$-0"

# The benchmark's rate (tests/bench/cudatrace.sh): bursts of 20001 calls as
# fast as the fake library takes them (about 100000 a second here), no call
# log to slow them. Read through a pipe, as `cudatrace | grep` is: -e prints
# every call, in order, and the summary counts every one; nothing is lost.
burst() {
	local name=$1
	shift
	rm -f "$tmp/go"
	$D/workload --wait "$tmp/go" batches 5000 >"$tmp/$name.wl" 2>&1 &
	wl_pid=$!
	while ! grep -qs '^waiting' "$tmp/$name.wl"; do sleep 0.02; done
	( $t "$@" -p $wl_pid 2>"$tmp/$name.err"; echo $? >"$tmp/$name.status" ) | cat >"$tmp/$name.out" &
	for _ in $(seq 1 100); do grep -q 'functions:' "$tmp/$name.err" 2>/dev/null && break; sleep 0.05; done
	touch "$tmp/go"
	wait
	wl_pid=
}
{
	echo cuModuleGetFunction
	for _ in $(seq 1 5000); do printf 'cuMemAlloc_v2\ncuMemcpyHtoD_v2\ncuLaunchKernel\ncuMemFree_v2\n'; done
} | md5sum >"$tmp/burst.want"
# Three rounds each, for a loss that comes and goes; one in the guests
# (CUDATRACE_TESTS=kernel), where each start takes seconds under TCG.
rounds="1 2 3"
all_sections || rounds=1
for round in $rounds; do
	burst burst$round -e
	n=$tmp/burst$round
	check_eq "cudatrace: -e at the benchmark's rate (round $round): every call printed (20001), status 0" \
		"$(calls $n.out | wc -l) $(cat $n.status)" "20001 0"
	check_eq "cudatrace: ... in the order they were made" \
		"$(calls $n.out | awk '{ print $5 }' | md5sum)" "$(cat $tmp/burst.want)"
	check_eq "cudatrace: ... nothing reported lost or dropped" \
		"$(grep -v -e ' functions: ' -e ' lacks: ' $n.err)" ""
done
for round in $rounds; do
	burst bsum$round
	n=$tmp/bsum$round
	check_eq "cudatrace: summary at the benchmark's rate (round $round): every call counted, status 0" \
		"$(for f in cuModuleGetFunction cuMemAlloc_v2 cuMemcpyHtoD_v2 cuLaunchKernel cuMemFree_v2; do printf '%s ' "$(field $n.out $f 2)"; done)$(cat $n.status)" \
		"1 5000 5000 5000 5000 0"
	check_eq "cudatrace: ... and the launches by kernel, the bytes" \
		"$(awk 'NF == 7 && $2 == "cuLaunchKernel" { print $3, $6 }' $n.out) $(field $n.out cuMemcpyHtoD_v2 6)" \
		"train_step 5000 20480000"
	check_eq "cudatrace: ... nothing reported lost or dropped" \
		"$(grep -v -e ' functions: ' -e ' lacks: ' $n.err)" ""
done

# A reader too slow for the calls - it reads nothing until the program has
# made them all: 80001 records of 192 bytes do not fit in the 4 MiB ring
# buffer - what the ring buffer could not hold is counted, and with what was
# printed makes every call.
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" batches 20000 >"$tmp/slow.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/slow.wl"; do sleep 0.02; done
( $t -e -p $wl_pid 2>"$tmp/slow.err"; echo $? >"$tmp/slow.status" ) |
	{ while kill -0 $wl_pid 2>/dev/null; do sleep 0.1; done; cat >"$tmp/slow.out"; } &
for _ in $(seq 1 100); do grep -q 'functions:' "$tmp/slow.err" 2>/dev/null && break; sleep 0.05; done
touch "$tmp/go"
wait
wl_pid=
lost=$(sed -n 's/^cudatrace: \([0-9]*\) events lost (ring buffer full)$/\1/p' "$tmp/slow.err")
check_ge "cudatrace: a slow reader: events are lost, and counted" "${lost:-0}" 1
check_eq "cudatrace: ... printed + lost = every call (80001), status 0" \
	"$(( $(calls $tmp/slow.out | wc -l) + ${lost:-0} )) $(cat $tmp/slow.status)" "80001 0"

# ---- -j: JSON lines, the same numbers as the text -----------------------------

if all_sections; then
# traced_pair NAME "TRACER ARGS" WORKLOAD [ARGS...]: as traced, with two
# tracers on the one run: TRACER ARGS (NAME.out) and TRACER ARGS -j
# (NAME.json), so the two outputs can be compared call for call (pointers
# from malloc, PIDs and stacks differ between runs). pair_status: the two
# exit statuses.
traced_pair() {
	local name=$1 targs=$2 wl=$3 text_pid
	shift 3
	rm -f "$tmp/go"
	FAKE_CUDA_LOG=$tmp/$name.log "$wl" --wait "$tmp/go" "$@" >"$tmp/$name.wl" 2>&1 &
	wl_pid=$!
	for _ in $(seq 1 500); do
		grep -qs '^waiting' "$tmp/$name.wl" && break
		sleep 0.02
	done
	# shellcheck disable=SC2086
	start_tool "$tmp/$name.out" $t $targs -p $wl_pid
	text_pid=$tool_pid
	# shellcheck disable=SC2086
	start_tool "$tmp/$name.json" $t $targs -j -p $wl_pid
	touch "$tmp/go"
	wait $wl_pid
	wl_pid=
	for _ in $(seq 1 200); do
		kill -0 "$text_pid" 2>/dev/null || kill -0 "$tool_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$text_pid" "$tool_pid" 2>/dev/null
	wait "$text_pid"
	pair_status=$?
	wait "$tool_pid"
	pair_status="$pair_status $?"
}

# The summary: functions, errors, launches, histograms.
traced_pair jsum "" $D/workload $drv_phases
n=$tmp/jsum.out j=$tmp/jsum.json
check_eq "cudatrace -j: summary: both tracers end with the process, status 0" "$pair_status" "0 0"
check_eq "cudatrace -j: summary: every line a JSON object with a type" "$(json_lines $j)" ok
check_eq "cudatrace -j: summary: the types of its tables" \
	"$(jq -r .type $j | sort -u | tr '\n' ' ')" "error function function_hist launch "
check "cudatrace -j: summary: the banner goes to stderr" \
	grep -qx 'Tracing CUDA calls\.\.\. Hit Ctrl-C to end\.' $j.err
check_eq "cudatrace -j: summary: function rows: calls, errors, bytes are the text's" \
	"$(jq -r 'select(.type == "function") | "\(.function) \(.calls) \(.errors) \(.bytes // "-")"' $j | sort)" \
	"$(awk 'NF == 6 && $2 ~ /^[0-9]+$/ { print $1, $2, $3, $6 }' $n | sort)"
check_eq "cudatrace -j: summary: ... every function the library was called for" \
	"$(jq -r 'select(.type == "function") | .function' $j | sort | tr '\n' ' ')" \
	"$(awk '{ print $1 }' $tmp/jsum.log | sort -u | tr '\n' ' ')"
check_eq "cudatrace -j: summary: times are numbers in us, avg_us = total_us / calls" \
	"$(jq -r 'select(.type == "function") | select((.total_us | type) != "number" or
		((.total_us / .calls - .avg_us) | fabs) > 0.002) | .function' $j)" ""
check_eq "cudatrace -j: summary: error rows are the text's, with the result's value" \
	"$(jq -r 'select(.type == "error") | "\(.function) \(.error) \(.count)"' $j)" \
	"$(awk '$2 ~ /^CUDA_ERROR/ && NF == 3 { print $1, $2, $3 }' $n)"
check_eq "cudatrace -j: summary: ... CUresult values" \
	"$(jq -r 'select(.type == "error") | "\(.error)=\(.code)"' $j | tr '\n' ' ')" \
	"CUDA_ERROR_INVALID_HANDLE=400 CUDA_ERROR_OUT_OF_MEMORY=2 CUDA_ERROR_INVALID_VALUE=1 CUDA_ERROR_NOT_FOUND=500 CUDA_ERROR_LAUNCH_FAILED=719 "
check_eq "cudatrace -j: summary: launch rows are the text's (7)" \
	"$(jq -r 'select(.type == "launch") | "\(.pid) \(.function) \(.kernel) \(.grid_x)x\(.grid_y)x\(.grid_z) \(.block_x)x\(.block_y)x\(.block_z) \(.launches) \(.failed)"' $j)" \
	"$(awk 'NF == 7 && $1 ~ /^[0-9]+$/ && $2 ~ /^cu/' $n | tr -s ' ')"
check_eq "cudatrace -j: summary: a latency histogram per function, count = calls = its buckets' sum" \
	"$(jq -r 'select(.type == "function_hist") | "\(.function) \(.hist) \(.count) \([.buckets[].count] | add) \(.unit)"' $j)" \
	"$(jq -r 'select(.type == "function") | "\(.function) latency \(.calls) \(.calls) us"' $j)"
check_eq "cudatrace -j: summary: one ts for the whole summary" "$(jq -r .ts $j | sort -u | wc -l)" 1

# -e: every call, the text's columns and DETAIL words as fields.
traced_pair jev "-e" $D/workload $drv_phases
n=$tmp/jev.out j=$tmp/jev.json
check_eq "cudatrace -e -j: both end with the process, status 0" "$pair_status" "0 0"
check_eq "cudatrace -e -j: every line a JSON object with a type" "$(json_lines $j)" ok
check "cudatrace -e -j: the banner goes to stderr, as there is no header" \
	grep -qx 'Tracing CUDA calls\.\.\. Hit Ctrl-C to end\.' $j.err
check_eq "cudatrace -e -j: one event per call (the fake logged $(wc -l <$tmp/jev.log))" \
	"$(jq -r .type $j | sort | uniq -c | sed 's/^ *//')" "$(wc -l <$tmp/jev.log) event"
# shellcheck disable=SC2016
ev_words='select(.type == "event") | [(.pid, .tid, .comm, .function, .bytes // "-", .result | tostring)] +
	(if .grid_x != null then ["kernel=\(.kernel)", "grid=\(.grid_x)x\(.grid_y)x\(.grid_z)",
		"block=\(.block_x)x\(.block_y)x\(.block_z)", "shmem=\(.shmem)", "stream=\(.stream)"]
	 else ([(.ptr | select(.) | "ptr=\(.)"), (.kind | select(.) | "kind=\(.)"),
		(.kernel | select(.) | "kernel=\(.)"), (.handle | select(.) | "handle=\(.)"),
		(.stream | select(.) | "stream=\(.)")] | if length == 0 then ["-"] else . end) end) | join(" ")'
check_eq "cudatrace -e -j: every event is the text's line: PID, TID, COMM, FUNCTION, BYTES, RESULT, DETAIL" \
	"$(jq -r "$ev_words" $j | md5sum)" \
	"$(calls $n | awk '{ s = $2; for (i = 3; i <= NF; i++) if (i != 7) s = s " " $i; print s }' | md5sum)"
# (As -e lines, a time and a latency of 0 put in, for compare_calls.)
{
	head -1 $n
	jq -r "$ev_words" $j | awk '{ s = "0"; for (i = 1; i <= NF; i++) s = s " " $i (i == 5 ? " 0" : ""); print s }'
} >$tmp/jev.cmp
check_eq "cudatrace -e -j: ... and agrees with what the library received" \
	"$(compare_calls $tmp/jev.cmp $tmp/jev.log)" ""
check_eq "cudatrace -e -j: result values as numbers" \
	"$(jq -r 'select(.code != 0) | "\(.function)=\(.code)"' $j | tr '\n' ' ')" \
	"cuMemAlloc_v2=2 cuMemFree_v2=1 cuModuleGetFunction=500 cuLaunchKernel=400 cuStreamSynchronize=719 "
check_ge "cudatrace -e -j: lat_us: a call the library made last 2 ms" \
	"$(jq -r 'select(.result == "CUDA_ERROR_LAUNCH_FAILED") | .lat_us | floor' $j)" 2000
check_eq "cudatrace -e -j: each event's ts is within a minute of now" \
	"$(jq -r --argjson now "$(date +%s)" 'select(.ts < $now - 60 or .ts > $now + 1) | .function' $j)" ""

# (-E's calls have the same arguments every run: compared with the -E run above.)
traced jerr "-E -j" $D/workload $drv_phases
check_eq "cudatrace -E -j: the failing calls, as the text's" \
	"$(jq -r "$ev_words" $tmp/jerr.out | cut -d' ' -f3-)" \
	"$(calls $tmp/err.out | awk '{ s = $4; for (i = 5; i <= NF; i++) if (i != 7) s = s " " $i; print s }')"
check_eq "cudatrace -E -j: ... every line JSON, 5 events, status 0" \
	"$(json_lines $tmp/jerr.out) $(jq -r .type $tmp/jerr.out | sort | uniq -c | sed 's/^ *//') $traced_status" "ok 5 event 0"

# -l -s: a process per object, an allocation per object with its stack.
traced_pair jleak "-l -s -R" $D/workload batches 2 leak errors runtime
n=$tmp/jleak.out j=$tmp/jleak.json
pid=$(awk '/^waiting/ { print $2 }' $tmp/jleak.wl)
check_eq "cudatrace -l -j: both end with the process, status 0" "$pair_status" "0 0"
check_eq "cudatrace -l -j: every line a JSON object with a type" "$(json_lines $j)" ok
check "cudatrace -l -j: the banner goes to stderr" \
	grep -qx 'Tracing CUDA allocations, counting from now\.\.\. Hit Ctrl-C to end\.' $j.err
check_eq "cudatrace -l -j: the process object is the text's heading" \
	"$(jq -r 'select(.type == "leak_process") | "PID \(.pid) (\(.comm)) \(.state): \(.allocations) allocations, \(.bytes) bytes never freed"' $j)" \
	"$(grep "^PID $pid " $n)"
check_eq "cudatrace -l -j: ... PID $pid exited with 5 allocations" \
	"$(jq -r 'select(.type == "leak_process") | "\(.pid) \(.state) \(.allocations)"' $j)" "$pid exited 5"
check_eq "cudatrace -l -j: the leak objects are the text's rows: address, bytes, function" \
	"$(jq -r 'select(.type == "leak") | "\(.pid) \(.address) \(.bytes) \(.function) \(.age_s | type)"' $j)" \
	"$(awk -v p=$pid '/^  0x/ { print p, $1, $2, $4, "number" }' $n)"
check_eq "cudatrace -l -s -j: each leak's stack is the text's, frames joined by ;" \
	"$(jq -r 'select(.type == "leak") | .stack // "[stack not recorded]"' $j)" \
	"$(awk '/^  0x/ { if (open) print s; s = ""; open = 1; next }
		/^      / { sub(/^ +/, ""); s = s (s == "" ? "" : ";") $0; next }
		{ if (open) print s; open = 0 } END { if (open) print s }' $n)"
check_eq "cudatrace -l -s -j: ... starting in the function that leaked" \
	"$(jq -r 'select(.type == "leak") | .stack | split(";")[0] | sub("\\+0x.*"; "")' $j | sort -u)" "leak
main"

# A reader too slow for the calls (as above): the events lost are an object too.
rm -f "$tmp/go"
$D/workload --wait "$tmp/go" batches 20000 >"$tmp/jslow.wl" 2>&1 &
wl_pid=$!
while ! grep -qs '^waiting' "$tmp/jslow.wl"; do sleep 0.02; done
( $t -e -j -p $wl_pid 2>"$tmp/jslow.err"; echo $? >"$tmp/jslow.status" ) |
	{ while kill -0 $wl_pid 2>/dev/null; do sleep 0.1; done; cat >"$tmp/jslow.out"; } &
for _ in $(seq 1 100); do grep -q 'functions:' "$tmp/jslow.err" 2>/dev/null && break; sleep 0.05; done
touch "$tmp/go"
wait
wl_pid=
lost=$(sed -n 's/^cudatrace: \([0-9]*\) events lost (ring buffer full)$/\1/p' "$tmp/jslow.err")
check_ge "cudatrace -e -j: a slow reader: events are lost, and counted" "${lost:-0}" 1
check_eq "cudatrace -e -j: ... every line JSON, the loss a \"lost\" object as stderr says" \
	"$(json_lines $tmp/jslow.out) $(jq -r 'select(.type == "lost") | "\(.what) \(.count) \(.limit)"' $tmp/jslow.out)" \
	"ok events ${lost:-0} 0"
check_eq "cudatrace -e -j: ... events + lost = every call (80001), status 0" \
	"$(( $(grep -c '"type":"event"' $tmp/jslow.out) + ${lost:-0} )) $(cat $tmp/jslow.status)" "80001 0"
fi

# ---- --cgroup and -C -------------------------------------------------------------

expect_error "cudatrace: --cgroup: no such directory" 64 \
	"^cudatrace: --cgroup /nonexistent: No such file or directory$" $t --cgroup /nonexistent
expect_error "cudatrace: --cgroup: not a cgroup" 64 \
	"^cudatrace: --cgroup /proc: not a cgroup v2 directory" $t --cgroup /proc
expect_error "cudatrace: --cgroup: a file" 64 \
	"^cudatrace: --cgroup /etc/passwd: Not a directory$" $t --cgroup /etc/passwd
cgv1=$(findmnt -n -t cgroup -o TARGET 2>/dev/null | head -1)
if [ -n "$cgv1" ]; then
	expect_error "cudatrace: --cgroup: a cgroup v1 hierarchy" 64 \
		"^cudatrace: --cgroup $cgv1: a cgroup v1 hierarchy: only cgroup v2" $t --cgroup "$cgv1"
else
	skip "cudatrace: --cgroup: a cgroup v1 hierarchy: none mounted here"
fi

# Workloads of known counts from three cgroups, on the fake library
# system-wide, traced at once unfiltered and by each: A a containerd
# container of a pod, A/sub a cgroup of its own below it, B a docker
# container (tests/lib.sh cg_names).
cgroot=$(findmnt -n -t cgroup2 -o TARGET 2>/dev/null | head -1)
cg=${cgroot:-/nonexistent}/cudatrace-test
cg_names "$cg" /cudatrace-test
lib=$D/libcuda.so.1
if [ -z "$cgroot" ] || ! mkdir -p "$cg_A/sub" "$cg_B" 2>/dev/null; then
	skip "cudatrace: --cgroup, -C: no cgroup v2 hierarchy to make cgroups in"
else
	start_tool "$tmp/cg-all.out" $t -L $lib
	p1=$tool_pid
	start_tool "$tmp/cg-A.out" $t -L $lib --pod "$CG_POD"
	p2=$tool_pid
	start_tool "$tmp/cg-sub.out" $t -L $lib --cgroup "$cg_A/sub" -C
	p3=$tool_pid
	start_tool "$tmp/cg-B.json" $t -L $lib --container "${CG_ID_B:0:12}" -j -C
	p4=$tool_pid
	start_tool "$tmp/cg-Be.out" $t -L $lib --container "${CG_ID_B:0:12}" -e -C
	p5=$tool_pid
	in_cgroup "$cg_A" $D/workload batches 3 >/dev/null
	in_cgroup "$cg_A/sub" $D/workload batches 2 >/dev/null
	in_cgroup "$cg_B" $D/workload batches 5 >/dev/null
	sleep 0.3
	for p in $p1 $p2 $p3 $p4 $p5; do kill -INT $p; wait $p; done
	check_eq "cudatrace --cgroup: unfiltered: all 10 batches" \
		"$(field $tmp/cg-all.out cuMemAlloc_v2 2) $(field $tmp/cg-all.out cuLaunchKernel 2)" "10 10"
	check_eq "cudatrace --pod: its container's 3 and the 2 of a cgroup below it" \
		"$(field $tmp/cg-A.out cuMemAlloc_v2 2) $(field $tmp/cg-A.out cuLaunchKernel 2)" "5 5"
	check_eq "cudatrace --cgroup A/sub: its 2" \
		"$(field $tmp/cg-sub.out cuMemAlloc_v2 2) $(field $tmp/cg-sub.out cuLaunchKernel 2)" "2 2"
	check "cudatrace -C: CONTAINER, POD and CGROUP columns in the launch table" \
		grep -qE '^PID +FUNCTION .* FAILED CONTAINER +POD +CGROUP$' $tmp/cg-sub.out
	check_eq "cudatrace --cgroup A/sub -C: the launch row names its container, pod and cgroup" \
		"$(awk 'NF == 10 && $1 ~ /^[0-9]+$/ { print $6, $8, $9, $10 }' $tmp/cg-sub.out)" "2 $cg_A_text/sub"
	check_eq "cudatrace --container -j -C: its 5, the container fields of the launch" \
		"$(json_lines $tmp/cg-B.json) $(jq -r 'select(.type == "function" and .function == "cuMemAlloc_v2") | .calls' $tmp/cg-B.json) $(jq -r "select(.type == \"launch\") | \"\\(.launches) $CG_JQ\"" $tmp/cg-B.json)" \
		"ok 5 5 $cg_B_json"
	check_eq "cudatrace --container -e -C: its 21 calls, each naming the container and cgroup last" \
		"$(head -1 $tmp/cg-Be.out | awk '{ print $(NF - 2), $(NF - 1), $NF }') $(calls $tmp/cg-Be.out | awk '{ print $(NF - 2), $(NF - 1), $NF }' | sort | uniq -c | sed 's/^ *//')" \
		"CONTAINER POD CGROUP 21 $cg_B_text"
	check_eq "cudatrace --cgroup: nothing on stderr but what is probed" \
		"$(cat $tmp/cg-*.err | grep -v -e ' functions: ' -e ' lacks: ' -e '^Tracing CUDA calls')" ""

	# -l: only B's leaks, the heading (or the object) naming the container.
	# --prometheus every second: B's outstanding bytes while it sleeps.
	start_tool "$tmp/cg-leak.out" $t -L $lib --container "${CG_ID_B:0:12}" -l -C
	p1=$tool_pid
	start_tool "$tmp/cg-leak.json" $t -L $lib --container "${CG_ID_B:0:12}" -l -C -j
	p2=$tool_pid
	start_tool "$tmp/cg-leak.prom.out" $t -L $lib --container "${CG_ID_B:0:12}" -C \
		--prometheus "$tmp/cg-leak.prom" 1
	p3=$tool_pid
	in_cgroup "$cg_A" $D/workload leak >/dev/null
	in_cgroup "$cg_B" $D/workload leak sleep 3000 >"$tmp/cg-leak.wl" &
	wl=$!
	series="gpubpf_cudatrace_outstanding_bytes{comm=\"workload\",container_id=\"docker://$CG_ID_B\",cgroup=\"${cg_B_text##* }\"} "
	for _ in $(seq 1 100); do grep -qF "$series" "$tmp/cg-leak.prom" && break; sleep 0.1; done
	check_eq "cudatrace --container -C --prometheus: B's outstanding bytes by container" \
		"$(grep -F "$series" "$tmp/cg-leak.prom" | awk '{ print $NF }')" 2110440
	wait $wl
	sleep 0.3
	for p in $p1 $p2 $p3; do kill -INT $p; wait $p; done
	check_eq "cudatrace --container -l -C: B's process only, its cgroup named" \
		"$(grep -c ' exited: ' $tmp/cg-leak.out) $(grep ' exited: ' $tmp/cg-leak.out | sed 's/^PID [0-9]* //')" \
		"1 (workload) exited: 4 allocations, 2110440 bytes never freed (cgroup ${cg_B_text##* })"
	check_eq "cudatrace --container -l -C -j: the same as objects, with the container" \
		"$(jq -r "select(.type == \"leak_process\") | \"\\(.allocations) \\(.bytes) $CG_JQ\"" $tmp/cg-leak.json) $(jq -r "select(.type == \"leak\") | \"$CG_JQ\"" $tmp/cg-leak.json | sort | uniq -c | sed 's/^ *//')" \
		"4 2110440 $cg_B_json 4 $cg_B_json"
	find "$cg" -depth -type d -exec rmdir {} +
fi

# ---- the real CUDA toolkit -----------------------------------------------------

if [ ! -x $D/rt_workload ] || [ ! -r "$CUDA_HOME/include/cuda.h" ]; then
	skip "cudatrace: real libcudart and stub libcuda: no CUDA toolkit in $CUDA_HOME"
	skip "cudatrace: CUDA result tables against the toolkit's headers: no CUDA toolkit in $CUDA_HOME"
	exit 0
fi

# rt_results OUT WL: the -e lines' function and result, and the workload's
# own account (cudaGetErrorName), side by side as "FUNC NAME|..."
rt_traced() { calls "$1" | awk '$5 ~ /^cuda/ { printf "%s %s|", $5, $8 }'; }
rt_own() { awk '$1 ~ /^cuda/ { printf "%s %s|", $1, $2 }' "$1"; }

rtlib=$(readlink -f "$CUDA_HOME/lib64/libcudart.so")
start_tool "$tmp/rtl.out" $t -e -R -c rt_workload -L "$rtlib"
$D/rt_workload >"$tmp/rtl.wl" 2>&1
sleep 0.3
stop_tool
check_eq "cudatrace: real libcudart (--lib): every call, its result as the runtime names it" \
	"$(rt_traced $tmp/rtl.out)" "$(rt_own $tmp/rtl.wl)"
check_eq "cudatrace: real libcudart: no driver, cudaErrorInsufficientDriver" \
	"$(calls $tmp/rtl.out | awk '{ print $8 }' | sort -u)" cudaErrorInsufficientDriver
check_eq "cudatrace: real libcudart: cudaLaunchKernel dim3 and stack arguments" \
	"$(calls $tmp/rtl.out | awk '$5 == "cudaLaunchKernel" { print $10, $11, $12, $13 }')" \
	"grid=5x6x7 block=8x9x10 shmem=1234 stream=0x77"

traced stub "-e -R" $D/rt_workload --stub "$CUDA_HOME/lib64/stubs/libcuda.so"
n=$tmp/stub.out
check "cudatrace: -p finds the process's libcudart in its maps" \
	grep -q "^cudatrace: runtime API in .*/libcudart\.so\.[0-9]*: 11 functions" "$n.err"
check "cudatrace: -p finds the stub libcuda it loaded, all its functions" \
	grep -q "^cudatrace: driver API in .*/stubs/libcuda\.so: 67 functions" "$n.err"
check_eq "cudatrace: stub libcuda: the runtime's results by the runtime's names" \
	"$(rt_traced $n)" "$(rt_own $tmp/stub.wl)"
# (Its first call of all is cuGetProcAddress_v2, probed where every
# exported function is; cuDriverGetVersion is the first cudatrace reads.)
first_rt_call=cuDriverGetVersion
[ "$multi" = 1 ] && first_rt_call=cuGetProcAddress_v2
check_eq "cudatrace: stub libcuda: why: the real runtime's first driver call, $first_rt_call, fails with CUDA_ERROR_STUB_LIBRARY" \
	"$(calls $n | head -1 | awk '{ print $5, $8 }')" "$first_rt_call CUDA_ERROR_STUB_LIBRARY"
check_eq "cudatrace: stub libcuda: cudaErrorStubLibrary" \
	"$(calls $n | awk '$5 ~ /^cuda/ { print $8 }' | sort -u)" cudaErrorStubLibrary
check_eq "cudatrace: stub libcuda: the driver's own CUDA_ERROR_STUB_LIBRARY (34)" \
	"$(calls $n | awk '$5 == "cuMemAlloc_v2" { print $6, $8 }') $(awk '/^cuMemAlloc_v2/ { print $2 }' $tmp/stub.wl)" \
	"4096 CUDA_ERROR_STUB_LIBRARY 34"
check_eq "cudatrace: -p names the launched host stub" \
	"$(calls $n | awk '$5 == "cudaLaunchKernel" { print $9 }')" "kernel=rt_kernel"

# A pip wheel's libcudart: the toolkit's, copied where nvidia-cuda-runtime puts it.
wheel=$tmp/venv/lib/python3/site-packages/nvidia/cuda_runtime/lib
mkdir -p "$wheel"
cp "$rtlib" "$wheel/libcudart.so.13"
LD_LIBRARY_PATH=$wheel traced wheel "-e -R" $D/rt_workload
check "cudatrace: -p finds a pip wheel's libcudart in the process's maps" \
	grep -q "^cudatrace: runtime API in $wheel/libcudart.so.13: 11 functions" "$tmp/wheel.out.err"
check_eq "cudatrace: pip wheel's libcudart: every call and result" \
	"$(rt_traced $tmp/wheel.out)" "$(rt_own $tmp/wheel.wl)"

# No -R, and no driver for the runtime to load: the runtime is traced.
if [ -n "$host_driver" ]; then
	skip "cudatrace: real libcudart without a driver, no -R: this host has libcuda.so.1"
else
	traced rtreal "-e" $D/rt_workload
	pid=$(awk '/^waiting/ { print $2 }' $tmp/rtreal.wl)
	check "cudatrace: real libcudart, no driver, no -R: says it traces the runtime" \
		grep -qx "cudatrace: PID $pid has no libcuda mapped; tracing the runtime API in $rtlib (as with -R)" \
		"$tmp/rtreal.out.err"
	check_eq "cudatrace: ... every call (7) and result" \
		"$(calls $tmp/rtreal.out | wc -l) $(rt_traced $tmp/rtreal.out)" "7 $(rt_own $tmp/rtreal.wl)"
fi

if [ -x $D/rt_workload_static ]; then
	traced static "-e -R" $D/rt_workload_static
	check "cudatrace: -p finds cudart linked statically into the executable" \
		grep -q "^cudatrace: runtime API in $PWD/$D/rt_workload_static: 11 functions" "$tmp/static.out.err"
	check_eq "cudatrace: static cudart: every call and result" \
		"$(rt_traced $tmp/static.out)" "$(rt_own $tmp/static.wl)"
	if [ -n "$host_driver" ]; then
		skip "cudatrace: static cudart without a driver, no -R: this host has libcuda.so.1"
	else
		traced static1 "-e" $D/rt_workload_static
		pid=$(awk '/^waiting/ { print $2 }' $tmp/static1.wl)
		check "cudatrace: static cudart, no driver, no -R: says it traces the runtime in the executable" \
			grep -qx "cudatrace: PID $pid has no libcuda mapped; tracing the runtime API in $PWD/$D/rt_workload_static (as with -R)" \
			"$tmp/static1.out.err"
		check_eq "cudatrace: ... every call (7) and result" \
			"$(calls $tmp/static1.out | wc -l) $(rt_traced $tmp/static1.out)" "7 $(rt_own $tmp/static1.wl)"
	fi
else
	skip "cudatrace: static cudart: no libcudart_static.a in $CUDA_HOME/lib64"
fi

if ldconfig -p | grep -q 'libcudart\.so'; then
	start_tool "$tmp/sys.out" $t -e -R -c rt_workload
	$D/rt_workload >"$tmp/sys.wl" 2>&1
	sleep 0.3
	stop_tool
	check "cudatrace: without -p or --lib, libcudart from the ld.so cache" \
		grep -q "^cudatrace: runtime API in .*/libcudart\.so" "$tmp/sys.out.err"
	check_eq "cudatrace: ... traces every call" "$(rt_traced $tmp/sys.out)" "$(rt_own $tmp/sys.wl)"
else
	skip "cudatrace: libcudart from the ld.so cache: not in this host's cache"
fi

all_sections || exit 0
# The runtime functions that return no cudaError_t, which cudatrace does
# not count (cuda_api.c's no_result), are every one the header declares.
check_eq "cudatrace: the runtime's functions without a cudaError_t are cuda_api.c's list" \
	"$(grep -hoE '^extern __host__[^;]*CUDARTAPI[^(]*\(' "$CUDA_HOME/include/cuda_runtime_api.h" |
		grep -v cudaError_t | sed 's/.*CUDARTAPI *//; s/($//' | sort -u | paste -sd' ')" \
	"$(sed -n '/^static const char \*const no_result\[\]/,/;$/p' tools/cudatrace/cuda_api.c |
		grep -o '"cuda[A-Za-z]*"' | tr -d '"' | sort | paste -sd' ')"

# The committed result tables against the installed headers, three ways:
# the generator's output, the C compiler's values, and libcudart's names.
build/tests/test_cuda_helpers --dump-errors >"$tmp/tables"
check_eq "cudatrace: CUDA result tables are what gen-cuda-errors makes from $CUDA_HOME" \
	"$(tests/cuda/gen-cuda-errors "$CUDA_HOME" | grep '^	{ ' | md5sum)" \
	"$(grep '^	{ ' tools/cudatrace/cuda_errors.c | md5sum)"
{
	echo '#include <cuda.h>'
	echo '#include <cuda_runtime_api.h>'
	awk '{ printf "_Static_assert(%s == %s, \"%s\");\n", $3, $2, $3 }' "$tmp/tables"
} >"$tmp/values.c"
check "cudatrace: CUDA result tables: every value as the compiler reads the headers" \
	${CC:-cc} -fsyntax-only -I"$CUDA_HOME/include" "$tmp/values.c"
check_eq "cudatrace: CUDA result tables: every enumerator of the headers" \
	"$(grep -cE '^\s*CUDA_(SUCCESS|ERROR_[A-Z0-9_]+)\s*=' $CUDA_HOME/include/cuda.h) $(grep -cE '^\s*cuda(Success|Error[A-Za-z0-9]+)\s*=' $CUDA_HOME/include/driver_types.h)" \
	"$(grep -c ^driver "$tmp/tables") $(grep -c ^runtime "$tmp/tables")"
cat >"$tmp/names.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <cuda_runtime_api.h>
int main(void)
{
	char api[16], name[128];
	int value, bad = 0;

	while (scanf("%15s %d %127s", api, &value, name) == 3)
		if (!strcmp(api, "runtime") && strcmp(cudaGetErrorName((cudaError_t)value), name)) {
			printf("%d: libcudart says %s, the table %s\n", value,
			       cudaGetErrorName((cudaError_t)value), name);
			bad = 1;
		}
	return bad;
}
EOF
if ${CC:-cc} -I"$CUDA_HOME/include" "$tmp/names.c" -L"$CUDA_HOME/lib64" -lcudart \
	-Wl,-rpath,"$CUDA_HOME/lib64" -o "$tmp/names" 2>"$tmp/names.err"; then
	check_eq "cudatrace: cudaError_t table: every name as libcudart's cudaGetErrorName says" \
		"$("$tmp/names" <"$tmp/tables")" ""
else
	fail "cudatrace: cannot build the cudaGetErrorName check: $(head -1 "$tmp/names.err")"
fi
