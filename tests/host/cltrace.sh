#!/usr/bin/env bash
# cltrace on the host, where uprobes work: its command line and bad input;
# the real OpenCL ICD loader (ocl-icd) and pocl's CPU device driven by
# tests/opencl/clwork through known calls, each call, size, error name,
# launch shape, reference and leak exact, its build log and device times as
# clwork itself read them; and clinfo, a client no one here wrote, its
# calls counted per function as bpftrace counts them on the same uprobes.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t=bin/cltrace
W=build/tests/opencl/clwork

if [ ! -x $t ] || [ ! -x $W ]; then
	fail "cltrace: $t or $W is not built (make all unit-tests)"
	exit 1
fi
check_common_options cltrace
expect_error "cltrace: a PID that does not exist" 1 "^cltrace: no process with PID 999999999$" \
	$t -p 999999999
expect_error "cltrace: a file that is not ELF" 1 "^cltrace: /etc/passwd: not an ELF file$" \
	$t -L /etc/passwd
libc=$(ldd /bin/sh | awk '/libc\.so/ { print $3 }')
expect_error "cltrace: a library without OpenCL symbols" 1 \
	"^cltrace: $libc: no OpenCL symbols \(clCreateBuffer, clEnqueueNDRangeKernel, \.\.\.\)$" $t -L "$libc"

if ! clinfo -l 2>/dev/null | grep -q 'Device #0'; then
	skip "cltrace: pocl's workload and clinfo: no OpenCL device here (pocl-opencl-icd, clinfo)"
	exit 0
fi
tmp=$(mktemp -d /tmp/cltrace-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export POCL_CACHE_DIR=$tmp/pocl

# clwork under four tracers at once: -e, -E, -j (summary) and -j -l (leaks).
"$W" --wait "$tmp/go" >"$tmp/wl.out" 2>"$tmp/wl.err" &
wl=$!
while ! grep -qs '^waiting' "$tmp/wl.out"; do sleep 0.02; done
start_tool "$tmp/e.out" $t -e -p $wl; p1=$tool_pid
start_tool "$tmp/E.out" $t -E -p $wl; p2=$tool_pid
start_tool "$tmp/j.out" $t -j -p $wl; p3=$tool_pid
start_tool "$tmp/l.out" $t -j -l -p $wl; p4=$tool_pid
touch "$tmp/go"
wait $wl
check_eq "cltrace: clwork did every call as said" "$?" 0
for tool_pid in $p1 $p2 $p3 $p4; do wait $tool_pid; done
# (-p's process exited: each tracer ends by itself, its summary printed.)
ev() { awk -v f="$2" '$5 == f' "$1"; }
check_eq "cltrace -e: clCreateBuffer 5 times: the sizes asked, the 0 refused by name" \
	"$(ev "$tmp/e.out" clCreateBuffer | awk '{ print $6, $8 }' | paste -sd,)" \
	"4096 CL_SUCCESS,8192 CL_SUCCESS,12288 CL_SUCCESS,16384 CL_SUCCESS,0 CL_INVALID_BUFFER_SIZE"
check_eq "cltrace -e: clBuildProgram: the broken source's failure, then the good one's" \
	"$(ev "$tmp/e.out" clBuildProgram | awk '{ print $8 }' | paste -sd,)" \
	"CL_BUILD_PROGRAM_FAILURE,CL_SUCCESS"
check_eq "cltrace -e: clCreateKernel: add1 made twice, nope refused, by name" \
	"$(ev "$tmp/e.out" clCreateKernel | awk '{ print $8, $9 }' | sed 's/ handle=.*//' | paste -sd,)" \
	"CL_SUCCESS kernel=add1,CL_SUCCESS kernel=add1,CL_INVALID_KERNEL_NAME kernel=nope"
check_eq "cltrace -e: 3 launches of add1 over 64 work-items in groups of 16" \
	"$(ev "$tmp/e.out" clEnqueueNDRangeKernel | awk '{ print $8, $9, $10, $11 }' | sort | uniq -c | sed 's/^ *//')" \
	"3 CL_SUCCESS kernel=add1 grid=64x1x1 block=16x1x1"
check_eq "cltrace -e: the copies' bytes (a write, a read of 256)" \
	"$(ev "$tmp/e.out" clEnqueueWriteBuffer | awk '{ print $6 }') $(ev "$tmp/e.out" clEnqueueReadBuffer | awk '{ print $6 }')" \
	"256 256"
check_eq "cltrace -e: the first buffer retained, its first release no bytes freed" \
	"$(ev "$tmp/e.out" clRetainMemObject | awk '{ print $9 }') $(ev "$tmp/e.out" clReleaseMemObject | awk 'NR <= 2 { print $9 }' | paste -sd' ')" \
	"$(ev "$tmp/e.out" clCreateBuffer | awk 'NR == 1 { print $9; print $9; print $9 }' | paste -sd' ')"
check_eq "cltrace -e: 4 releases, 3 buffers freed, each with its size" \
	"$(ev "$tmp/e.out" clReleaseMemObject | awk '{ print $6 }' | paste -sd,)" "-,4096,8192,12288"
log=$(sed -n 's/^build log: //p' "$tmp/wl.out")
check_eq "cltrace -e: the build log read, its first line's start" \
	"$(ev "$tmp/e.out" clGetProgramBuildInfo | sed -n 's/.* log=//p')" "${log:0:63}"
check_eq "cltrace -E: the 3 failing calls alone, by name" \
	"$(awk 'NR > 1 { print $5, $8 }' "$tmp/E.out" | paste -sd,)" \
	"clCreateBuffer CL_INVALID_BUFFER_SIZE,clBuildProgram CL_BUILD_PROGRAM_FAILURE,clCreateKernel CL_INVALID_KERNEL_NAME"
j=$tmp/j.out
check_eq "cltrace -j: calls per function" \
	"$(jq -r 'select(.type == "function") | "\(.function) \(.calls) \(.errors)"' "$j" |
		grep -E '^(clCreateBuffer|clBuildProgram|clCreateKernel|clEnqueueNDRangeKernel|clReleaseMemObject) ' | sort | paste -sd,)" \
	"clBuildProgram 2 1,clCreateBuffer 5 1,clCreateKernel 3 1,clEnqueueNDRangeKernel 3 0,clReleaseMemObject 4 0"
check_eq "cltrace -j: the launch row: add1, 64x1x1 by 16x1x1, 3" \
	"$(jq -r 'select(.type == "launch") | "\(.kernel) \(.grid_x) \(.block_x) \(.launches) \(.failed)"' "$j")" \
	"add1 64 16 3 0"
check_eq "cltrace -j: the failed build, with its log's first line as clwork read it" \
	"$(jq -r 'select(.type == "build_failure") | "\(.failures) \(.result) \(.log)"' "$j")" \
	"1 CL_BUILD_PROGRAM_FAILURE $log"
check_eq "cltrace -j: results as cl_int has them, negative (CL/cl.h's values)" \
	"$(jq -r 'select(.type == "error" or .type == "build_failure") | "\(.type) \(.result // .error) \(.code)"' "$j" | sort | paste -sd,)" \
	"build_failure CL_BUILD_PROGRAM_FAILURE -11,error CL_BUILD_PROGRAM_FAILURE -11,error CL_INVALID_BUFFER_SIZE -61,error CL_INVALID_KERNEL_NAME -46"
read -r run wait < <(sed -n 's/^device times: run \([0-9]*\) wait \([0-9]*\)$/\1 \2/p' "$tmp/wl.out")
check_eq "cltrace -j: add1's device times, as clwork summed them (ns; its queued wait an average)" \
	"$(jq -r --argjson w "${wait:-0}" 'select(.type == "kernel_time") |
		"\(.kernel) \(.runs) \(.total_us * 1000 | round) \((.queued_avg_us * 3000 - $w) | fabs <= 3)"' "$j")" \
	"add1 3 $run true"
check_eq "cltrace -j -l: at exit, what was never released: the last buffer (16384 bytes), a kernel" \
	"$(jq -r 'select(.type == "leak") | "\(.bytes) \(.function) \(.object)"' "$tmp/l.out" | paste -sd,)" \
	"16384 clCreateBuffer buffer,0 clCreateKernel kernel"

# The rest on the host only: in a guest (CLTRACE_TESTS=kernel) clwork's
# exact calls above are the kernel's part, and bpftrace's start and
# pocl's compiles for clinfo took 100 of cltrace.sh's 228 s on 5.10.
[ "${CLTRACE_TESTS:-all}" = all ] || exit 0

# clinfo, every call it makes per function, against bpftrace's count of
# the entries of the functions cltrace probes: the known ones, and where
# the kernel has multi-uprobe links ("more counted") every other exported
# one but those returning no cl_int (cl_api.c's no_result globs, unless known).
lib=$(ldconfig -p | awk '/libOpenCL\.so\.1 .*x86-64/ { print $NF; exit }')
start_tool "$tmp/ci.out" $t -j -c clinfo
known=$(grep -E '^cltrace: OpenCL in .*: [0-9]+ functions:' "$tmp/ci.out.err" |
	sed 's/;.*//; s/^.* functions: *//' | tr ' ' '\n' | grep '^cl' | paste -sd'|')
if grep -q 'more counted' "$tmp/ci.out.err"; then
	probes="uprobe:$lib:cl*"
else
	probes=$(tr '|' '\n' <<<"$known" | while read -r f; do printf 'uprobe:%s:%s,' "$lib" "$f"; done)
	probes=${probes%,}
fi
# cl_api.c's no_result globs, as one extended regex.
no_result=$(sed -n '/no_result\[\] = {/,/};/p' tools/cltrace/cl_api.c | grep -o '"[^"]*"' |
	tr -d '"' | sed 's/\*/.*/g' | paste -sd'|')
# (BEGIN runs once every probe is attached: on a busy 2-CPU host, with
# the glob's hundred uprobes, that took more than 2 minutes once.)
timeout 600 bpftrace -e "BEGIN { printf(\"ready\\n\"); } $probes /comm == \"clinfo\"/ { @[probe] = count(); }" \
	>"$tmp/bt.out" 2>&1 &
bt=$!
for _ in $(seq 1 3000); do grep -qs '^ready' "$tmp/bt.out" && break; sleep 0.1; done
grep -qs '^ready' "$tmp/bt.out" ||
	fail "cltrace: bpftrace did not attach to libOpenCL's functions within 300 s: $(tail -2 "$tmp/bt.out")"
clinfo >/dev/null 2>&1
stop_tool INT
stop_bpftrace $bt
check_eq "cltrace: clinfo's calls per function, as bpftrace counts them" \
	"$(jq -r 'select(.type == "function") | "\(.function) \(.calls)"' "$tmp/ci.out" | sort | paste -sd,)" \
	"$(awk -F'[][]' '/^@/ { n = split($2, p, ":"); split($3, v, ": "); print p[n], v[2] }' "$tmp/bt.out" |
		awk -v nr="^($no_result)\$" -v kn="^($known)\$" '$1 !~ nr || $1 ~ kn' | sort | paste -sd,)"
