# Shell helpers for the tests (sourced): result lines in the format tests/run counts.
# shellcheck shell=bash

pass() { echo "PASS $*"; }
# (FAILs counted: a script run alone can end with [ "$failures" = 0 ];
# tests/run counts the lines.)
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
skip() { echo "SKIP $*"; }

# nap SECONDS: sleep without a process of its own (read's timeout on a
# pipe nothing writes to). Under qemu's TCG each program run costs 0.15 s
# before it does anything (sleep(1) included), 0.6 s for jq: the loops
# that poll for a tool's banner and the checks run hundreds a script.
exec {nap_fd}<> <(:)
nap() { read -rt "$1" -u "$nap_fd" || :; }

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
	local name=$1 want_status=$2 regex=$3 out err status lines
	shift 3
	# (Read with bash's own mapfile and =~, which is grep -E's regcomp:
	# no program run but the one tested, and rm.)
	out=${TMPDIR:-/tmp}/expect_error.$BASHPID.out err=${TMPDIR:-/tmp}/expect_error.$BASHPID.err
	"$@" >"$out" 2>"$err"
	status=$?
	mapfile -t lines <"$err"
	if [ "$status" != "$want_status" ]; then
		fail "$name: exit status $status, want $want_status; stderr: ${lines[*]:0:3}"
	elif [ "${#lines[@]}" -ne 1 ] && ! { [ "${#lines[@]}" -eq 2 ] && [[ ${lines[0]} == 'Try `'* || ${lines[1]} == 'Try `'* ]]; }; then
		fail "$name: stderr is not one line (plus argp's Try hint): ${lines[*]}"
	elif ! [[ ${lines[0]} =~ $regex ]]; then
		fail "$name: stderr '${lines[0]}' does not match /$regex/"
	elif [ -s "$out" ]; then
		fail "$name: unexpected stdout: $(head -3 "$out")"
	else
		pass "$name"
	fi
	rm -f "$out" "$err"
}

# check_common_options TOOL: what every tool's command line must do
# (bin/TOOL): argp errors exit 64 with one line, -V, --usage, --help, and
# one line asking for root when run unprivileged.
check_common_options() {
	local n=$1 t=bin/$1
	expect_error "$n: unknown option" 64 "invalid option -- 'x'" $t -x
	expect_error "$n: unknown long option" 64 "unrecognized option '--bogus'" $t --bogus
	expect_error "$n: interval 0" 64 "^$n: invalid interval '0' \(expected 1\.\." $t 0
	expect_error "$n: interval not a number" 64 "invalid interval '1s'" $t 1s
	expect_error "$n: count not a number" 64 "invalid count 'x'" $t 1 x
	expect_error "$n: extra argument" 64 "unexpected argument '3'" $t 1 2 3
	expect_error "$n: bad PID" 64 "invalid PID 'abc'" $t -p abc
	expect_error "$n: negative PID" 64 "invalid PID '-5'" $t -p -5
	check_eq "$n: -V" "$($t -V)" "$n 0.1"
	check "$n: --usage" sh -c "$t --usage | grep -q 'Usage: $n'"
	check "$n: --help lists the common options" sh -c \
		"$t --help | grep -q -- '--pid' && $t --help | grep -q -- '--timestamp' && $t --help | grep -q -- '--verbose'"
	if command -v setpriv >/dev/null && [ "$(id -u)" = 0 ]; then
		expect_error "$n: unprivileged user is told to run as root" 1 \
			"^$n: permission denied: run as root" \
			setpriv --reuid=65534 --regid=65534 --clear-groups $t
	else
		skip "$n: unprivileged run: needs root and setpriv to drop privileges"
	fi
}

# start_tool OUT CMD...: run a tracer in the background, stdout to OUT and
# stderr to OUT.err, and return once it has attached (its first line, the
# header, comes after attach); tool_pid is its PID. Fails after 60 s.
start_tool() {
	local out=$1
	shift
	# Emptied before the tool starts: its own redirections come later,
	# and a poll might first find the last run's output there.
	: >"$out"
	: >"$out.err"
	"$@" >"$out" 2>"$out.err" &
	tool_pid=$!
	# With -j the banner that says it attached goes to stderr.
	wait_for_output "$out" "$tool_pid" "$out.err" || { echo "$1 (output $out) did not start: $(cat "$out.err")" >&2; return 1; }
}

# wait_for_output FILE [PID [FILE2]]: until FILE is not empty (a tool's
# first line comes after attach), FILE2 (its stderr) has the banner -j
# sends there ("... Hit Ctrl-C to end."; a line before it says what the
# kernel lacks), PID is gone (status 0 if it said why on FILE2), or 60 s
# passed. The caller empties FILE before starting its writer (`: >FILE`):
# the last run's output left there would pass at once.
wait_for_output() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ -s "$1" ] && return 0
		[ -n "${3:-}" ] && grep -qs 'Hit Ctrl-C to end\.$' "$3" && return 0
		if [ -n "${2:-}" ] && ! kill -0 "$2" 2>/dev/null; then
			[ -n "${3:-}" ] && [ -s "$3" ]
			return
		fi
		nap 0.1
	done
	return 1
}

# stop_tool [SIGNAL]: end it as a user would (default SIGINT, Ctrl-C);
# tool_status is its exit status.
stop_tool() {
	kill -"${1:-INT}" "$tool_pid" 2>/dev/null
	wait "$tool_pid"
	tool_status=$?
}

# stop_tools WHAT PID...: end several at once, as stop_tool does; a
# failure "WHAT: tracer PID exit status N" for each that exits nonzero.
stop_tools() {
	local what=$1 p
	shift
	kill -INT "$@" 2>/dev/null
	for p; do wait "$p" || fail "$what: tracer $p exit status $?"; done
}

# stop_bpftrace PID: Ctrl-C for a bpftrace in the background, sent again
# every 2 s while it runs. bookworm's bpftrace 0.17 polls its perf buffers
# (epoll_wait, 100 ms) and ends only when a SIGINT interrupts that wait
# (EINTR): one that lands while it prints an event sets its flag, which no
# one reads, and it polls on forever (nvclients.sh on 6.1: 2 runs in 15
# here, and once in CI; the guest's report showed bpftrace alone, in
# do_epoll_wait). Killed after 60 s, said on stderr.
stop_bpftrace() {
	local i
	for i in $(seq 1 30); do
		kill -INT "$1" 2>/dev/null || break
		sleep 2
	done
	if kill -KILL "$1" 2>/dev/null; then
		echo "bpftrace (pid $1) did not end within 60 s of Ctrl-C: killed" >&2
	fi
	wait "$1"
}

# guest_init TOOL [PREFIX]: the preamble of a guest script (run from the
# top of the tree, after `. tests/lib.sh`): T=bin/TOOL, O=its BPF object,
# S=$VM_SCRATCH, K=$VM_KERNEL (the script stops here, outside the VM, when
# they are not set), P the prefix of its PASS/FAIL names (default
# "TOOL:"), trace=tracefs; and start OUT ARGS... / stop [SIGNAL]: start_tool
# and stop_tool of T.
guest_init() {
	T=$PWD/bin/$1
	O=$PWD/build/$1.bpf.o
	S=${VM_SCRATCH:?not in the VM: tests/vm/run sets VM_SCRATCH}
	K=${VM_KERNEL:?not in the VM: tests/vm/run sets VM_KERNEL}
	P=${2:-$1:}
	trace=/sys/kernel/tracing
	start() { start_tool "$1" "$T" "${@:2}"; }
	stop() { stop_tool "$@"; }
}

# load_module MODULE|FILE.ko [PARAM=VALUE]...: modprobe MODULE from this
# kernel's tree ($VM_MODPROBE), or insmod FILE.ko (a test module, a driver
# built here) with its parameters. On failure one line, "FAIL $P modprobe
# MODULE: ERROR" (or "insmod FILE.ko PARAMS: ERROR"), and status 1: the
# caller says what follows (`|| exit 1` when nothing after can run).
# unload_module MODULE: rmmod, the same way. load_module_deps FILE.ko: the
# modules FILE.ko depends on (modinfo), each with load_module.
load_module() {
	local err=${VM_SCRATCH:-/tmp}/load_module.err what
	case $1 in
	*.ko | */*) what="insmod $(basename "$1")${2:+ ${*:2}}"; insmod "$@" 2>"$err" ;;
	*) what="modprobe $*"; ${VM_MODPROBE:-modprobe} "$@" 2>"$err" ;;
	esac || { fail "${P:+$P }$what: $(paste -sd' ' "$err")"; return 1; }
}
# module_file NAME: the file of module NAME (NAME.ko, .ko.xz, ...) in the
# guest kernel's tree, as its modules.dep names it: a find over the tree
# takes up to 20 s over 9p under TCG.
module_file() {
	local dir=${VM_MODDIR:?}/lib/modules/${VM_KVER:?} f
	f=$(awk -F: -v n="$1.ko" '{ b = $1; sub(/.*\//, "", b) }
		b == n || index(b, n ".") == 1 { print $1; exit }' "$dir/modules.dep")
	[ -n "$f" ] && echo "$dir/$f"
}
unload_module() {
	local err=${VM_SCRATCH:-/tmp}/load_module.err
	rmmod "$1" 2>"$err" || { fail "${P:+$P }rmmod $1: $(paste -sd' ' "$err")"; return 1; }
}
# nvidia_generation: the loaded NVIDIA driver's major version (535, 550),
# from /proc/driver/nvidia/version; 0 when none is loaded. The driver's, not
# the kernel's: 5.10 and 6.1 build 535, sid 550.
nvidia_generation() {
	local gen
	gen=$(sed -n 's/.*Kernel Module  *\([0-9]*\)\..*/\1/p' /proc/driver/nvidia/version 2>/dev/null)
	echo "${gen:-0}"
}

load_module_deps() {
	local m
	for m in $(modinfo -F depends "$1" | tr , ' '); do load_module "$m" || return 1; done
}

# pair_start BASE ARGS...: the tracer twice on one workload, with the
# calling script's start (guest_init's): as text into BASE.txt and with -j
# into BASE.json (stderr in BASE.txt.err and BASE.json.err), so that the
# numbers are read from JSON (what each one is, by name) and the text, what
# users read, is compared with them. pair_stop [SIGNAL] ends both (default
# SIGINT, Ctrl-C): txt_status and json_status are their exit statuses.
pair_start() {
	local base=$1
	shift
	start "$base.txt" "$@" || return 1
	pair_txt_pid=$tool_pid
	start "$base.json" "$@" -j || return 1
	pair_json_pid=$tool_pid
}
pair_stop() {
	kill -"${1:-INT}" "$pair_txt_pid" "$pair_json_pid" 2>/dev/null
	wait "$pair_txt_pid"
	txt_status=$?
	wait "$pair_json_pid"
	json_status=$?
}

# hist_stats FILE TITLE: "count avg min max" of the first text histogram
# whose title line contains TITLE (the "count N  avg A  min M  max X" line
# under it; "0" alone for an empty one). TITLE through the environment:
# awk -v would undo the backslashes of an escaped name.
hist_stats() {
	t=$2 awk 'index($0, ENVIRON["t"]) { found = 1; next }
		found && $1 == "count" { print $2, $4, $6, $8; exit }' "$1"
}
# jhist_stats FILE JQ-CONDITION: the same of the JSON histogram object (-j)
# that matches, e.g. '.type == "ring_hist" and .ring == "gfx" and .hist == "exec"'.
jhist_stats() {
	jq -r "select($2) | \"\(.count) \(.avg) \(.min) \(.max)\"" "$1"
}
# jrows FILE TYPE JQ-EXPR: JQ-EXPR of each -j line of that type, e.g.
# jrows sum.json ring '"\(.ring) \(.queued)"'.
jrows() { jq -r --arg t "$2" "select(.type == \$t) | $3" "$1"; }

# write_as NAME FILE TEXT: write TEXT (and a newline) to FILE - a test
# module's control file - from a process called NAME (a copy of dash in
# $VM_SCRATCH), as a program's ioctl would come from it; its PID is left in
# $VM_SCRATCH/NAME.pid (pid_of NAME).
write_as() {
	local s=${VM_SCRATCH:?}
	# Another script may have left a program of its own under the name.
	cmp -s /bin/dash "$s/$1" || cp -f /bin/dash "$s/$1"
	"$s/$1" -c 'echo $$ >"$1"; printf "%s\n" "$2" >"$3"' "$1" "$s/$1.pid" "$3" "$2"
}
pid_of() { cat "${VM_SCRATCH:?}/$1.pid"; }

# Timeline files (--timeline: a JSON array of Trace Event Format events):
# tl_job_tracks FILE: "COUNT TRACK NAME [ARGS...]" of its job slices, each
# counted per track name and slice name (and the jq expression ARG's value,
# e.g. ' ibs=\(.args.ibs)'), joined by commas; tl_overlaps FILE: how many
# slices start before the one before them on their track ends (0 when they
# never overlap); tl_flows FILE: "STARTS ENDS UNPAIRED" of its flow arrows;
# tl_counters_end FILE: each counter's last value, "NAME=VALUE ...".
tl_job_tracks() {
	jq -r "(map(select(.ph == \"M\" and .name == \"thread_name\")) | map({key: \"\\(.pid):\\(.tid)\", value: .args.name}) | from_entries) as \$t |
		.[] | select(.ph == \"X\" and .cat == \"job\") | \"\\(\$t[\"\\(.pid):\\(.tid)\"]) \\(.name)${2:-}\"" "$1" |
		sort | uniq -c | sed 's/^ *//' | paste -sd,
}
tl_overlaps() {
	jq -r '[.[] | select(.ph == "X")] | group_by("\(.pid):\(.tid)") | map(sort_by(.ts) | . as $s |
		[range(1; length) | select($s[.].ts < $s[. - 1].ts + $s[. - 1].dur)] | length) | add' "$1"
}
tl_flows() {
	jq -r '"\([.[] | select(.ph == "s")] | length) \([.[] | select(.ph == "f")] | length) \([.[] | select(.ph == "s" or .ph == "f") | .id] | group_by(.) | map(select(length != 2)) | length)"' "$1"
}
tl_counters_end() {
	jq -r '[.[] | select(.ph == "C")] | group_by(.name) | map("\(.[0].name)=\(max_by(.ts).args.value)") | join(" ")' "$1"
}

# A hostile process name (issue 23): a quote, a backslash, a newline, a byte
# that is not UTF-8 and a terminal's clear-screen (HOSTILE, 11 bytes: it
# fits a comm). Text output shows it as HOSTILE_TEXT, one column; -j keeps
# it exactly, the bad byte as U+FFFD.
HOSTILE=$(printf 'a"b\\c\nd\377\033[2J')
HOSTILE_TEXT='a"b\\c\x0ad\xff\x1b[2J'
# check_no_control NAME FILE...: no control byte but newlines in the files.
check_no_control() {
	local name=$1
	shift
	check_eq "$name" "$(cat "$@" | tr -d '\n' | LC_ALL=C grep -c '[[:cntrl:]]')" 0
}
# check_hostile_json NAME VALUE: VALUE (one of jq -r's strings) is HOSTILE
# as -j writes it.
check_hostile_json() {
	check_eq "$1" "$(printf '%s\n' "$2" | od -An -c | tr -s ' ')" \
		"$(printf 'a"b\\c\nd\357\277\275\033[2J\n' | od -An -c | tr -s ' ')"
}

# corepaths_in OBJ MODULE: the struct member paths BPF object OBJ reads
# through CO-RE, as module MODULE's BTF has them (tests/btf/corepaths), the
# types MODULE does not define left out.
corepaths_in() {
	build/tests/corepaths "$1" /sys/kernel/btf/vmlinux "/sys/kernel/btf/$2" 2>&1 |
		grep -v ': absent ('
}

# json_lines FILE: "ok" when every line of FILE is one JSON object with a
# string "type" (what -j promises), else the first line that is not.
json_lines() {
	python3 -c '
import json, sys
for n, line in enumerate(open(sys.argv[1], "rb"), 1):
    try:
        o = json.loads(line)
        assert isinstance(o, dict) and isinstance(o.get("type"), str)
    except Exception:
        print("line %d: %r" % (n, line[:200])); sys.exit(0)
print("ok")' "$1"
}

# in_cgroup DIR CMD...: run CMD in cgroup v2 directory DIR (made if needed).
in_cgroup() {
	mkdir -p "$1"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@"
}

# Cgroups named as the container runtimes name them (container.c reads
# them): A a containerd container of a Kubernetes pod (the kubelet's systemd
# driver), B a docker container. cg_names CG [NAME] sets cg_A and cg_B,
# their directories under CG (NAME as the tools name it: by default CG
# below /sys/fs/cgroup), and what -C shows of each: cg_A_text and cg_B_text
# the text columns CONTAINER POD CGROUP, cg_B_json the JSON fields (CG_JQ),
# cg_A_labels the Prometheus labels.
CG_POD=7f3e1c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b
CG_ID_A=a3c1f09e7b2d4c5e8f6a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e
CG_ID_B=b7e2d1c0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2
cg_names() {
	local rel_a=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${CG_POD//-/_}.slice/cri-containerd-$CG_ID_A.scope
	local rel_b=/system.slice/docker-$CG_ID_B.scope name=${2:-/${1#/sys/fs/cgroup/}}
	cg_A=$1$rel_a cg_B=$1$rel_b
	cg_A_text="${CG_ID_A:0:12} $CG_POD $name$rel_a"
	cg_B_text="${CG_ID_B:0:12} - $name$rel_b"
	cg_B_json="$CG_ID_B docker null $name$rel_b"
	cg_A_labels="container_id=\"containerd://$CG_ID_A\",uid=\"$CG_POD\",cgroup=\"$name$rel_a\""
}
# The fields -C adds to a JSON row, as jq prints them for cg_B_json.
CG_JQ='\(.container) \(.runtime) \(.pod) \(.cgroup)'

# cg_prom_check P COMM SAMPLE VALUE: cgroup_tracers_start's cg-A.prom has
# the sample SAMPLE (its name and first labels, e.g. 'x_total{comm="a"'),
# A's container labels after them, of VALUE; and every sample of COMM
# there has A's labels.
cg_prom_check() {
	local f=${VM_SCRATCH:?}/cg-A.prom
	check_eq "$1 --pod -C --prometheus: $3 of A's container and pod" \
		"$(grep -F "$3,$cg_A_labels} " "$f" | awk '{ print $NF }')" "$4"
	check_eq "$1 --pod -C --prometheus: every sample of $2 names A's container and pod" \
		"$(grep -F "comm=\"$2\"" "$f" | grep -vcF "$cg_A_labels")" 0
}

# cgroup_tracers_start CG: the --cgroup test's three tracers, started with
# the calling script's `start OUT ARGS...`: $VM_SCRATCH/cg-all.out
# (unfiltered), cg-A.out (--pod CG_POD -C --prometheus cg-A.prom: A's pod)
# and cg-B.out (--container, B's id as docker ps shows it, -j -C), cg_A and
# cg_B (cg_names) made for them. cgroup_tracers_stop ends all three
# (Ctrl-C) and removes the cgroups (their workloads must have exited).
cgroup_tracers_start() {
	local s=${VM_SCRATCH:?}
	cg_dir=$1 cg_pids=()
	cg_names "$cg_dir"
	mkdir -p "$cg_A" "$cg_B"
	start "$s/cg-all.out" && cg_pids+=("$tool_pid")
	start "$s/cg-A.out" --pod "$CG_POD" -C --prometheus "$s/cg-A.prom" && cg_pids+=("$tool_pid")
	start "$s/cg-B.out" --container "${CG_ID_B:0:12}" -j -C && cg_pids+=("$tool_pid")
}
cgroup_tracers_stop() {
	local p
	for p in "${cg_pids[@]}"; do kill -INT "$p"; wait "$p"; done
	find "$cg_dir" -depth -type d -exec rmdir {} +
}

# frontend_checks WHAT: true where the checks of what the frontend alone
# does with what the kernel gave (-T, -j and -e -j against the text,
# interval counts, SIGTERM, a closed pipe, escaped names, --timeline) run:
# on the host, and in 6.1's guest, where every tool's script runs. They
# are the same C on every kernel and change nothing the BPF programs read;
# the options that do (-m, the filters, --cgroup, -e) run in every guest.
# Elsewhere: status 1, and a SKIP line.
frontend_checks() {
	[ -z "${VM_KERNEL:-}" ] || [ "$VM_KERNEL" = 6.1 ] && return 0
	skip "${P:+$P }$*: the frontend's alone, checked in 6.1's guest"
	return 1
}

# --prometheus against the real thing (Debian's prometheus and
# prometheus-node-exporter, installed by tests/install-deps): prom_start runs
# node_exporter with only its textfile collector, reading $PROM_FILES/*.prom,
# and Prometheus scraping it every second, both on loopback, their data in
# $VM_SCRATCH/prom. Fails (status 1, said) when either does not come up.
# On the host (a test that runs there too): PROM_DIR, and PROM_PORT and
# PROM_NODE_PORT, not the guest's, so as not to meet another run's.
# In a guest, only on sid: what Prometheus reads is what the frontend
# formats from the tool's maps, the same on every kernel, and bringing both
# up under TCG costs 10 to 25 s of CI's budgeted time per script and
# kernel. Elsewhere: status 1, and a SKIP line that says so.
prom_start() {
	if [ -n "${VM_KERNEL:-}" ] && [ "$VM_KERNEL" != sid ]; then
		skip "${P:-} --prometheus through Prometheus: checked in sid's guest"
		return 1
	fi
	local d=${PROM_DIR:-${VM_SCRATCH:?}/prom} i
	local port=${PROM_PORT:-19090} node=${PROM_NODE_PORT:-19100}
	PROM_FILES=$d/textfile PROM_API=http://127.0.0.1:$port/api/v1
	# Afresh each time: no series of an earlier run in the answers.
	rm -rf "$d"
	mkdir -p "$PROM_FILES" "$d/data"
	ip link set lo up 2>/dev/null
	cat >"$d/prometheus.yml" <<-EOC
	global: { scrape_interval: 1s, evaluation_interval: 1s }
	scrape_configs:
	  - job_name: node
	    static_configs: [ { targets: ['127.0.0.1:$node'] } ]
	EOC
	prometheus-node-exporter --web.listen-address=127.0.0.1:$node --collector.disable-defaults \
		--collector.textfile --collector.textfile.directory="$PROM_FILES" >"$d/node.log" 2>&1 &
	prom_pids=($!)
	prometheus --config.file="$d/prometheus.yml" --storage.tsdb.path="$d/data" \
		--web.listen-address=127.0.0.1:$port >"$d/prometheus.log" 2>&1 &
	prom_pids+=($!)
	for ((i = 0; i < 1200; i++)); do
		curl -sf "$PROM_API/query?query=up" 2>/dev/null | jq -e '.data.result[0].value[1] == "1"' \
			>/dev/null 2>&1 && return 0
		nap 0.1
	done
	echo "FAIL ${P:-} Prometheus did not come up: $(tail -2 "$d/prometheus.log" "$d/node.log")"
	return 1
}
prom_stop() { kill "${prom_pids[@]}" 2>/dev/null; wait "${prom_pids[@]}" 2>/dev/null; }

# prom_query EXPR [FIELDS]: Prometheus' answer to the instant query EXPR,
# one line per series, sorted: the values of the labels FIELDS (space
# separated, default none) and then the sample's value.
prom_query() {
	curl -sf --data-urlencode "query=$1" "$PROM_API/query" |
		jq -r --arg f "${2:-}" '.data.result[] | [(($f | split(" ") | map(select(. != ""))) as $ls |
			.metric as $m | $ls | map($m[.] // "-"))[], .value[1]] | join(" ")' | sort
}

# check_prom NAME EXPR FIELDS WANT: check_eq of prom_query EXPR FIELDS with
# WANT (lines joined by ";"), once Prometheus has it: scrapes lag the file
# by up to two seconds, so the answer is asked again for up to 30 s.
check_prom() {
	local got i
	for i in $(seq 1 60); do
		got=$(prom_query "$2" "$3" | paste -sd';')
		[ "$got" = "$4" ] && break
		sleep 0.5
	done
	check_eq "$1" "$got" "$4"
}
