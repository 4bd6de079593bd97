#!/usr/bin/env bash
# vm-kernels: 6.1 sid 5.10
# (Not on trixie's 6.12: nvdrv attaches its kprobes there as on 6.1 and
# sid, one by one, and CI's time is budgeted per kernel, tests/README.md.)
# nvdrv on what NVIDIA's real driver cannot do without a GPU: interrupts and
# their bottom halves, p2p, Xid reports. tests/kmod/nvmock.c plays those
# functions with the real names and prototypes, in a module named "nvidia"
# (never loaded with the real driver: this test loads only the mock), fired
# through /proc/nvmock in known numbers. Proved here, with nvdrv's text
# summary, -e and -j at once:
#  1. interrupts per GPU (PCI location read from nv_state_t) and kind: the
#     top halves (MSI-X ones not counted twice: nvidia_isr_msix calls
#     nvidia_isr), the bottom halves (kthread, MSI-X kthread, unlocked) with
#     the top half that woke them, the top -> bottom latency present and
#     bounded (a bottom half delayed by 2 ms: at least that);
#  2. p2p calls per process and function, their errors and bytes (the length
#     asked for, or the page table's entries by its page size);
#  3. Xids from nv_printf (plain and both MIG formats) with their GPU,
#     number, meaning, pid and name strings and message; nv_log_error after
#     the same Xid's nv_printf not counted again, alone counted; ordinary
#     nv_printf messages not Xids;
#  4. -j equal to the text;
#  5. mappings through their lifecycle (the mock's mmap succeeds, the real
#     driver's needs a GPU): made, refused, copied by a split and a fork,
#     released by munmap and exit, live per process while held and after;
#  6. the mock built as 575 and later (nvmock-xidtp.ko): Xids from the
#     driver's tracepoint nvidia:nvidia_dev_xid, its record as NVIDIA's,
#     each Xid once, equal to the kernel's own trace buffer, with the pid
#     and name of the RM's nv_printf report before it.
# And gpuhang's Xid incidents, from both sources, equal to nvdrv's -e
# lines and the trace buffer: the process the report names, text, -j,
# --prometheus, --timeline, -p; an Xid of no process ('<unknown>').
#
# Environment (from tests/vm/run): VM_KERNEL, VM_SCRATCH, NVMOCK_KO, NVMOCK_XIDTP_KO.
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh

S=${VM_SCRATCH:?}
P="nvdrv mock:"
T=$PWD/bin/nvdrv
ctl=/proc/nvmock
trace=/sys/kernel/tracing

if [ -z "${NVMOCK_KO:-}" ]; then
	fail "$P no NVMOCK_KO (tests/kmod/build --kernel $VM_KERNEL)"
	exit 0
fi
if grep -q '^nvidia ' /proc/modules; then
	fail "$P a module named nvidia is already loaded: the mock never runs with the real driver"
	exit 0
fi
if ! insmod "$NVMOCK_KO" 2>"$S/insmod.err"; then
	fail "$P insmod: $(cat "$S/insmod.err")"
	exit 0
fi
check "$P the mock's module is named nvidia" grep -q '^nvidia ' /proc/modules
fns="nvidia_isr nvidia_isr_msix nvidia_isr_kthread_bh nvidia_isr_msix_kthread_bh nvidia_isr_bh_unlocked
     nvidia_p2p_get_pages nvidia_p2p_get_pages_persistent nvidia_p2p_put_pages
     nvidia_p2p_put_pages_persistent nvidia_p2p_dma_map_pages nvidia_p2p_dma_unmap_pages
     nv_printf nv_log_error nvidia_mmap nvidia_vma_open nvidia_vma_release
     nvidia_unlocked_ioctl nvidia_close"
# The module's lines of kallsyms, read once (a grep of it all: about 2 s under TCG).
grep -F '[nvidia]' /proc/kallsyms >"$S/ksyms"
missing=""
for f in $fns; do
	grep -q " $f\s*\[nvidia\]$" "$S/ksyms" || missing+=" $f"
done
check_eq "$P its functions are in kallsyms under [nvidia]" "${missing# }" ""

c() { printf '%s\n' "$*" >"$ctl" || fail "$P write '$*' to $ctl"; }
check "$P the control file refuses an unknown command" sh -c "! echo bogus 2>/dev/null >$ctl"

H=$PWD/bin/gpuhang
start_tool "$S/h.out" "$H" --timeline "$S/h.tl"; h_pid=$tool_pid
start_tool "$S/h.j" "$H" -j --prometheus "$S/h.prom"; hj_pid=$tool_pid
start_tool "$S/hp.out" "$H" -p 4321; hp_pid=$tool_pid
start_tool "$S/t.out" "$T"; t_pid=$tool_pid
start_tool "$S/e.out" "$T" -e --timeline "$S/mock.json"; e_pid=$tool_pid
start_tool "$S/j.out" "$T" -j

# Interrupts. GPU 0 (0000:3b:00) on a line interrupt, GPU 1 (0001:af:02) on
# MSI-X: "GPU KIND TOP BOTTOM" expected.
c isr n=50
c isr n=20 bh=1 delay_us=2000
c isr n=5 unlocked=1
c isr n=30 msix=1 bh=1 dev=1 irq=40
c isr n=7 msix=1 unlocked=1 dev=1 irq=41
want_irq="0000:3b:00 isr 75 25
0001:af:02 msix 37 37"

# p2p, from two processes: p2pA gets 4 x 2 MiB in 64 KiB pages (and fails
# twice, length 0), maps and unmaps them; p2pB gets 3 x 384 KiB persistent
# in 128 KiB pages, then puts everything back: 4 put_pages of p2pA's tables
# (their entries x 64 KiB) and 3 persistent ones.
write_as p2pA $ctl "p2p_get n=4 length=0x200000 page=1"
write_as p2pA $ctl "p2p_dma_map"
write_as p2pA $ctl "p2p_get n=2 length=0"
write_as p2pB $ctl "p2p_get n=3 length=0x60000 persistent=1 page=2"
write_as p2pA $ctl "p2p_dma_unmap"
write_as p2pB $ctl "p2p_put"
# "COMM FUNCTION CALLS ERRORS BYTES"
want_p2p="p2pA nvidia_p2p_dma_map_pages 4 0 8388608
p2pA nvidia_p2p_dma_unmap_pages 4 0 8388608
p2pA nvidia_p2p_get_pages 6 2 8388608
p2pB nvidia_p2p_get_pages_persistent 3 0 1179648
p2pB nvidia_p2p_put_pages 4 0 8388608
p2pB nvidia_p2p_put_pages_persistent 3 0 1179648"

# Xids: nv_printf then nv_log_error, as the RM reports them; the MIG formats
# (GPU-I, GPU-I and GPU-CI); nv_log_error alone; ordinary messages.
c xid xid=79 pid=1234 name=cudaapp msg=GPU has fallen off the bus.
c xid xid=31 pid=4321 name=trainer n=3 dev=1 msg=Ch 00000010, intr 00000000. MMU Fault
c xid xid=43 mig=1 pid=77 name=migapp msg=Ch 00000008
c xid xid=13 mig=2 pid=78 name=migci dev=1 msg=Graphics Exception
c log_error xid=48 n=2
c print n=5
# "GPU XID COUNT PID NAME MEANING"
want_xid="0000:3b:00 79 1 1234 cudaapp GPU has fallen off the bus
0001:af:02 31 3 4321 trainer GPU memory page fault
0000:3b:00 43 1 77 migapp GPU stopped processing (channel stopped)
0001:af:02 13 1 78 migci graphics engine exception
0000:3b:00 48 2 - - double bit ECC error (DBE)"

sleep 1	# the Xids' events read
stop_tool INT
j_status=$tool_status
kill -INT "$t_pid" "$e_pid"; wait "$t_pid"; t_status=$?; wait "$e_pid"; e_status=$?
check_eq "$P text, -e, -j: exit 0" "$t_status $e_status $j_status" "0 0 0"
stop_tools "gpuhang on nvmock" "$h_pid" "$hj_pid" "$hp_pid"
# The mock has no file operations but mmap, ioctl and close (550's
# names), and no power management: the real driver serves those (nvdrv.sh).
# Before it, the Xids' source: this mock plays 535 and 550, without the
# driver's tracepoint (section 6 plays 575).
nofile="nvdrv: nvidia.ko has no nvidia_frontend_open, nvidia_fault, nvidia_frontend_poll, nv_set_system_power_state: not shown: opens, faults, polls, suspends and resumes"
xids_kprobes="nvdrv: Xids from nv_printf and nv_log_error (kprobes): nvidia.ko has no tracepoint nvidia:nvidia_dev_xid (575 and later have it)"
check_eq "$P stderr: the Xids' source, the file operations the mock lacks (text)" \
	"$(cat "$S/t.out.err")" "$xids_kprobes
$nofile"
check_eq "$P stderr: the same (-e)" "$(cat "$S/e.out.err")" "$xids_kprobes
$nofile"

t=$S/t.out e=$S/e.out j=$S/j.out
# ---- 1. interrupts ---------------------------------------------------------
# Text rows: GPU KIND TOP RATE/s BOTTOM T->B-AVG T->B-MAX.
# (mawk: no {n} in its regular expressions)
gpu_re='^[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]$'
irq_rows() { awk -v g="$gpu_re" '$1 ~ g && ($2 == "isr" || $2 == "msix") && $3 ~ /^[0-9]+$/ && NF == 7 { print $1, $2, $3, $5 }' "$1"; }
check_eq "$P interrupts: top and bottom halves per GPU and kind, exact" "$(irq_rows "$t")" "$want_irq"
check_eq "$P interrupts: MSI-X top halves not counted again as nvidia_isr" \
	"$(awk '$1 == "0001:af:02" && $2 == "isr"' "$t")" ""
check_eq "$P T->B: 2 ms bottom halves: max >= 2000 us, < 1 s; avg <= max" \
	"$(awk '$1 == "0000:3b:00" && $2 == "isr" && $3 ~ /^[0-9]+$/ && NF == 7 { print ($7 >= 2000 && $7 < 1000000 && $6 <= $7 && $6 > 0) }' "$t")" 1
check_eq "$P T->B: MSI-X bottom halves bounded (< 1 s)" \
	"$(awk '$1 == "0001:af:02" && $2 == "msix" && $3 ~ /^[0-9]+$/ && NF == 7 { print ($7 < 1000000 && $6 <= $7) }' "$t")" 1
check_eq "$P T->B: a histogram per row, counting its bottom halves" \
	"$(awk '/top half -> bottom half:$/ { name = $1 " " $2; next } name != "" && $1 == "count" { print name, $2; name = "" }' "$t")" \
	"0000:3b:00 isr 25
0001:af:02 msix 37"
# -e: one line per half.
check_eq "$P -e: ISR lines per GPU and kind" \
	"$(awk '$2 == "ISR" { print $5, $6 }' "$e" | sort | uniq -c | awk '{ print $2, $3, $1 }')" \
	"gpu=0000:3b:00 kind=isr 75
gpu=0001:af:02 kind=msix 37"
check_eq "$P -e: BH lines per GPU and kind, each with its top -> bottom time" \
	"$(awk '$2 == "BH" { print $5, $6, ($8 ~ /^top_to_bottom=[0-9]+us$/) }' "$e" | sort | uniq -c | awk '{ print $2, $3, $4, $1 }')" \
	"gpu=0000:3b:00 kind=kthread 1 20
gpu=0000:3b:00 kind=unlocked 1 5
gpu=0001:af:02 kind=msix_kthread 1 30
gpu=0001:af:02 kind=unlocked 1 7"
# 1950: the BPF clock (ktime_get_mono_fast_ns) may be a little behind the
# sleep's timer at either end.
check_ge "$P -e: the delayed bottom halves: the shortest top -> bottom >= 1950 us" \
	"$(awk '$2 == "BH" && $6 == "kind=kthread" { sub(/^top_to_bottom=/, "", $8); sub(/us$/, "", $8)
		if (min == "" || $8 + 0 < min) min = $8 + 0 } END { print min }' "$e")" 1950
check_eq "$P -e: the irq numbers" \
	"$(awk '$2 == "ISR" { print $6, $7 }' "$e" | sort -u | tr '\n' ' ')" "kind=isr irq=16 kind=msix irq=40 kind=msix irq=41 "
check_eq "$P -j: interrupt rows equal the text's" \
	"$(jq -r 'select(.type == "interrupt") | "\(.gpu) \(.kind) \(.top) \(.bottom)"' "$j")" "$want_irq"
# (Each nvdrv times the halves itself: the latencies differ by a few us.)
check_eq "$P -j: T->B max: the line interrupt's >= 2000 us, both < 1 s" \
	"$(jq -r 'select(.type == "interrupt") | "\(.gpu) \((.kind != "isr" or .top_to_bottom_max_us >= 2000) and .top_to_bottom_max_us < 1000000)"' "$j")" \
	"0000:3b:00 true
0001:af:02 true"
check_eq "$P -j: T->B histograms count the bottom halves" \
	"$(jq -r 'select(.type == "interrupt_hist") | "\(.gpu) \(.kind) \(.count) \([.buckets[].count] | add)"' "$j")" \
	"0000:3b:00 isr 25 25
0001:af:02 msix 37 37"
check_eq "$P -j: the line interrupt's T->B histogram max >= 2000 us" \
	"$(jq -r 'select(.type == "interrupt_hist" and .kind == "isr") | .max >= 2000' "$j")" true

# ---- 2. p2p ----------------------------------------------------------------
# Text rows: PID COMM FUNCTION CALLS ERRORS BYTES.
# Each write_as is a process of its own: summed per name here.
p2p_sum() { awk '{ k = $1 " " $2; c[k] += $3; e[k] += $4; b[k] += $5 } END { for (k in c) print k, c[k], e[k], b[k] }' | sort; }
p2p_rows() { awk '$3 ~ /^nvidia_p2p_/ && NF == 6 { print $2, $3, $4, $5, $6 }' "$1" | p2p_sum; }
check_eq "$P p2p: calls, errors and bytes per process and function" "$(p2p_rows "$t")" "$want_p2p"
check_eq "$P p2p: a row per process: the last p2p_put's pid" \
	"$(awk '$3 == "nvidia_p2p_put_pages" && NF == 6 { print $1, $2, $4 }' "$t")" "$(pid_of p2pB) p2pB 4"
check_eq "$P -e: P2P lines per process and function, with their return" \
	"$(awk '$2 == "P2P" { print $4, $5, substr($0, index($0, " ret=") + 1) }' "$e" | sort | uniq -c |
		awk '{ n = $1; $1 = ""; print substr($0, 2), n }')" \
	"p2pA fn=nvidia_p2p_dma_map_pages ret=0 4
p2pA fn=nvidia_p2p_dma_unmap_pages ret=0 4
p2pA fn=nvidia_p2p_get_pages ret=-22 EINVAL 2
p2pA fn=nvidia_p2p_get_pages ret=0 4
p2pB fn=nvidia_p2p_get_pages_persistent ret=0 3
p2pB fn=nvidia_p2p_put_pages ret=0 4
p2pB fn=nvidia_p2p_put_pages_persistent ret=0 3"
check_eq "$P -e: get_pages' bytes and virtual addresses (64 KiB aligned)" \
	"$(awk '$2 == "P2P" && $5 == "fn=nvidia_p2p_get_pages" && $NF == "ret=0" { print $6, ($7 ~ /^va=0x[0-9a-f]*0000$/) }' "$e" | sort | uniq -c | awk '{ print $2, $3, $1 }')" \
	"bytes=2097152 1 4"
check_eq "$P -j: p2p rows equal the text's" \
	"$(jq -r 'select(.type == "p2p") | "\(.comm) \(.function) \(.calls) \(.errors) \(.bytes)"' "$j" | p2p_sum)" "$want_p2p"

# ---- 3. Xids ---------------------------------------------------------------
# Text rows: GPU XID COUNT PID NAME MEANING...
xid_rows() { awk -v g="$gpu_re" '$1 ~ g && $2 ~ /^[0-9]+$/ && NF >= 6 { print }' "$1" | sed 's/  */ /g'; }
check_eq "$P Xids: GPU, number, count, pid, name and meaning; MIG formats; nv_log_error once" \
	"$(xid_rows "$t")" "$want_xid"
check_eq "$P -e: one XID line per report (nv_log_error after nv_printf not repeated)" \
	"$(awk '$2 == "XID"' "$e" | wc -l)" 8
check_eq "$P -e: Xid lines decoded" \
	"$(awk '$2 == "XID" { $1 = $2 = $3 = $4 = ""; print }' "$e" | sed 's/^ *//' | sort -u)" \
	"gpu=0000:3b:00 xid=43 (GPU stopped processing (channel stopped)) pid=77 name=migapp msg=Ch 00000008
gpu=0000:3b:00 xid=48 (double bit ECC error (DBE)) pid=- name=- msg=-
gpu=0000:3b:00 xid=79 (GPU has fallen off the bus) pid=1234 name=cudaapp msg=GPU has fallen off the bus.
gpu=0001:af:02 xid=13 (graphics engine exception) pid=78 name=migci msg=Graphics Exception
gpu=0001:af:02 xid=31 (GPU memory page fault) pid=4321 name=trainer msg=Ch 00000010, intr 00000000. MMU Fault"
check_eq "$P -j: Xid rows equal the text's, with the message" \
	"$(jq -r 'select(.type == "xid") | "\(.gpu) \(.xid) \(.count) \(.pid) \(.name) \(.meaning)"' "$j")" \
	"${want_xid//- -/null null}"
check_eq "$P -j: the messages" \
	"$(jq -r 'select(.type == "xid") | .message' "$j")" \
	"GPU has fallen off the bus.
Ch 00000010, intr 00000000. MMU Fault
Ch 00000008
Graphics Exception
null"
check_eq "$P -j: every line a JSON object with a type" "$(json_lines "$j")" ok
check_eq "$P -j: only the banner on stderr besides the missing file operations" \
	"$(grep -vxF -e "$nofile" -e "$xids_kprobes" "$S/j.out.err")" "Tracing nvidia.ko 0.0-nvmock, counting from now... Hit Ctrl-C to end."

# ---- 3b. Xids as gpuhang's incidents -----------------------------------------
# Each Xid an incident of its own on its GPU (driver nvidia, no ring),
# naming the process the RM's report names: the same Xids, in the same
# order, as nvdrv's -e lines, numbered from 1. Without gpu_sched or drm
# loaded, gpuhang says nothing on stderr but its banner (-j).
P="gpuhang on nvmock (kprobes):"
xid_incidents() { awk '$2 == "XID" { x = $16; sub(/^xid=/, "", x); print $3, $4, $5, x, $8, $9 }' "$1"; }
check_eq "$P stderr: nothing (text, -p); -j: the banner" \
	"$(cat "$S/h.out.err" "$S/hp.out.err" "$S/h.j.err")" \
	"Tracing GPU job timeouts and recoveries (no DRM scheduler)... Hit Ctrl-C to end."
check_eq "$P XID incidents: number, GPU, driver, Xid, pid, comm; as nvdrv's -e lines" \
	"$(xid_incidents "$S/h.out")" \
	"$(awk '$2 == "XID"' "$e" | sed -E 's/.*gpu=([^ ]+) xid=([0-9]+) .* pid=([^ ]+) name=([^ ]+) msg=.*/\1 nvidia \2 \3 \4/' | awk '{ print NR, $0 }')"
check_eq "$P XID incidents: the numbers the Xids had" \
	"$(xid_incidents "$S/h.out" | awk '{ printf "%s ", $4 }')" "79 31 31 31 43 13 48 48 "
check_eq "$P DETAIL: the Xid, its meaning, the message" \
	"$(awk '$2 == "XID" && $3 <= 2 { sub(/.* xid=/, "xid="); print }' "$S/h.out")" \
	"xid=79 (GPU has fallen off the bus) msg=GPU has fallen off the bus.
xid=31 (GPU memory page fault) msg=Ch 00000010, intr 00000000. MMU Fault"
check_eq "$P -j: one incident per Xid, equal to the text's" \
	"$(jq -r 'select(.event == "XID") | "\(.incident) \(.dev) \(.driver) \(.xid) \(.pid // "-") \(.comm // "-") \(.ring) \(.job)"' "$S/h.j")" \
	"$(xid_incidents "$S/h.out" | sed 's/$/ null null/')"
check_eq "$P -j: the Xids' meanings" \
	"$(jq -r 'select(.event == "XID") | "\(.xid) \(.meaning)"' "$S/h.j" | sort -un)" \
	"13 graphics engine exception
31 GPU memory page fault
43 GPU stopped processing (channel stopped)
48 double bit ECC error (DBE)
79 GPU has fallen off the bus"
check_eq "$P -j: the messages as the RM wrote them (none from nv_log_error alone)" \
	"$(jq -r 'select(.event == "XID") | .message' "$S/h.j")" "GPU has fallen off the bus.
Ch 00000010, intr 00000000. MMU Fault
Ch 00000010, intr 00000000. MMU Fault
Ch 00000010, intr 00000000. MMU Fault
Ch 00000008
Graphics Exception
null
null"
check_eq "$P summary: incidents per GPU, kind and process" \
	"$(awk '$3 == "XID" && NF == 5' "$S/h.out" | sed 's/  */ /g')" \
	"0000:3b:00 - XID - 2
0000:3b:00 - XID cudaapp 1
0000:3b:00 - XID migapp 1
0001:af:02 - XID migci 1
0001:af:02 - XID trainer 3"
check_eq "$P --prometheus: incidents_total of kind xid (sorted)" \
	"$(grep '^gpubpf_gpuhang_incidents_total{kind="xid"' "$S/h.prom" | sort)" \
	'gpubpf_gpuhang_incidents_total{kind="xid",driver="nvidia",device="0000:3b:00",ring="-",comm="-"} 2
gpubpf_gpuhang_incidents_total{kind="xid",driver="nvidia",device="0000:3b:00",ring="-",comm="cudaapp"} 1
gpubpf_gpuhang_incidents_total{kind="xid",driver="nvidia",device="0000:3b:00",ring="-",comm="migapp"} 1
gpubpf_gpuhang_incidents_total{kind="xid",driver="nvidia",device="0001:af:02",ring="-",comm="migci"} 1
gpubpf_gpuhang_incidents_total{kind="xid",driver="nvidia",device="0001:af:02",ring="-",comm="trainer"} 3'
check "$P --prometheus: promtool check metrics is clean" sh -c "promtool check metrics <'$S/h.prom'"
check_eq "$P --timeline: an instant per Xid on its GPU's device track, with the process" \
	"$(jq -r '[.[] | select(.ph == "i" and .name == "XID")] | map("\(.args.incident) \(.args.pid) \(.args.comm)") | .[]' "$S/h.tl")" \
	"$(xid_incidents "$S/h.out" | awk '{ print $1, ($5 == "-" ? "null" : $5), ($6 == "-" ? "null" : $6) }')"
check_eq "$P -p 4321: its three Xids alone, numbered from 1" \
	"$(xid_incidents "$S/hp.out")" "1 0001:af:02 nvidia 31 4321 trainer
2 0001:af:02 nvidia 31 4321 trainer
3 0001:af:02 nvidia 31 4321 trainer"
P="nvdrv mock:"

# ---- --timeline (written with -e's lines) ----------------------------------
# The GPU's events as instants on its own process, "GPU <pci>": a track of
# interrupts, one of bottom halves, one of Xids, each as many as -e's lines.
tl=$S/mock.json
check_eq "$P --timeline: the file is JSON (an array)" "$(jq -r type "$tl")" array
check_eq "$P --timeline: a process per GPU, named by it" \
	"$(jq -r '.[] | select(.ph == "M" and .name == "process_name" and (.args.name | startswith("GPU "))) | .args.name' "$tl" | sort | paste -sd,)" \
	"GPU 0000:3b:00,GPU 0001:af:02"
gpu_events() {
	jq -r '(map(select(.ph == "M" and .name == "process_name")) | map({key: "\(.pid)", value: .args.name}) | from_entries) as $p |
		(map(select(.ph == "M" and .name == "thread_name")) | map({key: "\(.pid):\(.tid)", value: .args.name}) | from_entries) as $t |
		.[] | select(.ph == "i" and ($p["\(.pid)"] | startswith("GPU "))) |
		"\($p["\(.pid)"] | sub("^GPU "; "gpu=")) \($t["\(.pid):\(.tid)"]) \(.name)"' "$tl" | sort | uniq -c | awk '{ print $2, $3, $4, $5, $1 }'
}
check_eq "$P --timeline: interrupts and bottom halves per GPU and kind, as -e's lines" \
	"$(gpu_events | grep -v ' Xids ')" \
	"$( { awk '$2 == "ISR" { sub(/^kind=/, "", $6); print $5, "interrupts", $6 }' "$e"
		awk '$2 == "BH" { sub(/^kind=/, "", $6); print $5, "bottom halves", $6 }' "$e"; } | sort | uniq -c | awk '{ print $2, $3, $4, $5, $1 }')"
check_eq "$P --timeline: Xids per GPU, as -e's lines" \
	"$(gpu_events | grep ' Xids ' | awk '{ print $1, $4, $5 }')" \
	"$(awk '$2 == "XID" { x = $6; sub(/^xid=/, "", x); print $5, x }' "$e" | sort | uniq -c | awk '{ print $2, $3, $1 }')"
check_eq "$P --timeline: p2p calls as instants on their processes' tracks, as -e's lines" \
	"$(jq -r '.[] | select(.ph == "i" and .name == "P2P") | .args.function' "$tl" | sort | uniq -c | sed 's/^ *//' | paste -sd,)" \
	"$(awk '$2 == "P2P" { f = $5; sub(/^fn=/, "", f); print f }' "$e" | sort | uniq -c | sed 's/^ *//' | paste -sd,)"
check_eq "$P --timeline: an Xid's message and meaning as arguments" \
	"$(jq -r '.[] | select(.ph == "i" and .name == "Xid 79") | "\(.args.message)|\(.args.meaning)"' "$tl")" \
	"GPU has fallen off the bus.|GPU has fallen off the bus"

# ---- A hostile Xid (issue 23) -----------------------------------------------
# The RM's Xid report carries a process's name and a message text: a name
# with a quote, a backslash, a byte that is not UTF-8 and a clear-screen,
# and a message with a tab and the same. Text, -e and -j at once: the text
# keeps one row and one -e line, the name one column, no control byte; -j
# keeps both exactly.
hn=$(printf 'a"b\\c\377\033[2J') hm=$(printf 'x\ty\033[2J\377 z')
start_tool "$S/hx.out" "$T"; t_pid=$tool_pid
start_tool "$S/hx.ev" "$T" -e; e_pid=$tool_pid
start_tool "$S/hx.json" "$T" -j
c xid xid=62 pid=99 "name=$hn" "msg=$hm"
sleep 1	# the Xid's events read
for tool_pid in $t_pid $e_pid $tool_pid; do stop_tool INT; done
check_eq "$P hostile Xid: one row, the name one column, escaped" \
	"$(awk -v g="$gpu_re" '$1 ~ g && $2 == 62 { print NR, $3, $4, $5 }' "$S/hx.out" | cut -d' ' -f2-)" \
	'1 99 a"b\\c\xff\x1b[2J'
check_eq "$P hostile Xid -e: one line, the name and the message escaped" \
	"$(awk '$2 == "XID" { $1 = $2 = $3 = $4 = ""; print }' "$S/hx.ev" | sed 's/^ *//; s/ ([^)]*) / /')" \
	'gpu=0000:3b:00 xid=62 pid=99 name=a"b\\c\xff\x1b[2J msg=x\x09y\x1b[2J\xff z'
check_eq "$P hostile Xid -e: the header and that line alone" "$(wc -l <"$S/hx.ev")" 2
check_no_control "$P hostile Xid: no control byte in the text outputs" "$S/hx.out" "$S/hx.ev"
check_eq "$P hostile Xid -j: the name and the message exact, the bad bytes U+FFFD" \
	"$(jq -r 'select(.type == "xid") | .name, .message' "$S/hx.json" | od -An -c | tr -s ' ')" \
	"$(printf 'a"b\\c\357\277\275\033[2J\nx\ty\033[2J\357\277\275 z\n' | od -An -c | tr -s ' ')"
# ---- Mappings through their lifecycle (issue 17.1) ---------------------------
# nvctl --map on the mock's /dev/nvidiactl: three 8 KiB mmaps and one
# refused, one unmapped, a page of another (a split: one copy, released at
# once), a fork whose child inherits two mappings and exits (two copies,
# two releases, on the child's row), then two held for 3 s. One tracer
# stopped while nvctl holds them (LIVE 2), one after it exited (LIVE 0).
P="nvdrv mock mappings:"
W=$PWD/build/tests/nvctl
mknod -m 666 /dev/nvidiactl c 195 255
start_tool "$S/m.out" "$T"; m_pid=$tool_pid
start_tool "$S/m.j" "$T" -j; mj_pid=$tool_pid
start_tool "$S/m2.out" "$T"; m2_pid=$tool_pid
start_tool "$S/m.ev" "$T" -e
"$W" --map 3000 >"$S/map.out" 2>&1 &
w=$!
for i in $(seq 50); do grep -q '^NVCTL-MAP' "$S/map.out" && break; nap 0.1; done
sleep 0.5
kill -INT "$m_pid" "$mj_pid"; wait "$m_pid"; m_status=$?; wait "$mj_pid"; mj_status=$?
wait $w
check_eq "$P nvctl --map: its plan went through" "$(sed 's/pid=[0-9]* child=[0-9]* //' "$S/map.out")" \
	"NVCTL-MAP mapped=3 refused=1 live=2"
parent=$(sed -n 's/^NVCTL-MAP pid=\([0-9]*\) .*/\1/p' "$S/map.out")
child=$(sed -n 's/^NVCTL-MAP .* child=\([0-9]*\) .*/\1/p' "$S/map.out")
stop_tool INT
ev_status=$tool_status
kill -INT "$m2_pid"; wait "$m2_pid"; m2_status=$?
check_eq "$P the tracers exit 0" "$m_status $mj_status $m2_status $ev_status" "0 0 0 0"
# The mapping table: PID COMM DEVICE MAPPED COPIED UNMAPPED LIVE (7 columns;
# the device table has 12).
maprows() { awk -v p="$parent" -v c="$child" 'NF == 7 && $3 == "nvidiactl" && ($1 == p || $1 == c) {
	print ($1 == p ? "parent" : "child"), $4, $5, $6, $7 }' "$1"; }
check_eq "$P while held: 3 made, 1 copied, 2 released, 2 live; the child's 2 copies released" \
	"$(maprows "$S/m.out")" "parent 3 1 2 2
child 0 2 2 0"
check_eq "$P after nvctl exited: its last 2 released, none live" \
	"$(maprows "$S/m2.out")" "parent 3 1 4 0
child 0 2 2 0"
check_eq "$P the device row: 4 mmaps of 8 KiB, 1 refused" \
	"$(awk -v p="$parent" 'NF == 12 && $1 == p && $3 == "nvidiactl" { print $7, $8, $9 }' "$S/m.out")" "4 32768 1"
check_eq "$P -j: the mapping rows equal the text's" \
	"$(jq -r "select(.type == \"mapping\" and (.pid == $parent or .pid == $child)) |
		\"\(if .pid == $parent then \"parent\" else \"child\" end) \(.mapped) \(.copied) \(.unmapped) \(.live)\"" "$S/m.j")" \
	"$(maprows "$S/m.out")"
# -e: the copies (the split's page, then the fork's two) and the releases
# (A, the split's page, the child's two, the parent's two), with bytes.
# (A process's mappings are copied and released in address order, not
# the order they were made: compared sorted.)
check_eq "$P -e: VMCOPY lines with their bytes" \
	"$(awk '$2 == "VMCOPY" { print $NF }' "$S/m.ev" | sort | paste -sd' ')" "bytes=4096 bytes=4096 bytes=8192"
check_eq "$P -e: UNMAP lines with their bytes" \
	"$(awk '$2 == "UNMAP" { print $NF }' "$S/m.ev" | sort | paste -sd' ')" \
	"bytes=4096 bytes=4096 bytes=4096 bytes=8192 bytes=8192 bytes=8192"
check_eq "$P -e: the child's releases are its own" \
	"$(awk -v c="$child" '$2 == "UNMAP" && $3 == c' "$S/m.ev" | wc -l)" 2

# ---- 7. GPU memory per process from the RM (issue 17.3) ------------------------
# nvctl --rm-memory on the mock's ioctl (the real blocks and allocation
# parameters; the real driver refuses them all without a GPU: nvdrv.sh):
# a client C and device D; video memory M1 1 MiB and M2 3 MiB, system
# memory 256 KiB and 5000 bytes (the mock writes back 8192, as the RM
# writes the size it made), 1 GiB of GPU virtual address space, a 64 KiB OS
# descriptor, video memory of 0 bytes (refused, NV_ERR_INVALID_ARGUMENT);
# M1 freed; a second client's device's 2 MiB freed with the client; a
# second device of C's 512 KiB freed with the device; then C's held 3 s,
# freed when the exit closes the file. One tracer stopped while held (-l:
# each allocation alive), one after, -j of each.
P="nvdrv mock RM memory:"
start_tool "$S/r.out" "$T" -l; r_pid=$tool_pid
start_tool "$S/r.j" "$T" -j -l; rj_pid=$tool_pid
start_tool "$S/r2.out" "$T"; r2_pid=$tool_pid
start_tool "$S/r2.j" "$T" -j
"$W" --rm-memory 3000 >"$S/rm.out" 2>&1 &
w=$!
for i in $(seq 100); do grep -q '^NVCTL-RMMEM' "$S/rm.out" && break; nap 0.1; done
sleep 0.5
kill -INT "$r_pid" "$rj_pid"; wait "$r_pid"; r_status=$?; wait "$rj_pid"; rj_status=$?
wait $w
stop_tool INT
r2j_status=$tool_status
kill -INT "$r2_pid"; wait "$r2_pid"; r2_status=$?
check_eq "$P the tracers exit 0" "$r_status $rj_status $r2_status $r2j_status" "0 0 0 0"
rpid=$(sed -n 's/^NVCTL-RMMEM pid=\([0-9]*\).*/\1/p' "$S/rm.out")
check_eq "$P nvctl: every call as planned (the size-0 one refused, 5000 bytes made 8192)" \
	"$(sed -n 's/^NVCTL-MEM //p' "$S/rm.out" | sed 's/,handle:0x[0-9a-f]*//' | paste -sd'|')" \
	"class=0x40 size:1048576,got:1048576,status:0x0|class=0x40 size:3145728,got:3145728,status:0x0|class=0x3e size:262144,got:262144,status:0x0|class=0x3e size:5000,got:8192,status:0x0|class=0x50a0 size:1073741824,got:1073741824,status:0x0|class=0x71 size:65536,got:65536,status:0x0|class=0x40 size:0,got:0,status:0x1f|class=0x40 size:2097152,got:2097152,status:0x0|class=0x40 size:524288,got:524288,status:0x0"
# The memory table: PID COMM CLASS ALLOCS FREES FAILED FAILED_BYTES LIVE
# LIVE_BYTES PEAK_BYTES. Video memory: M1 + M2 = 4 MiB, then 3, then 5
# with the second client's (the peak), 3, 3.5, 3.
memrows() { awk -v p="$rpid" 'NF == 10 && $1 == p && $3 ~ /^NV/ { print $3, $4, $5, $6, $7, $8, $9, $10 }' "$1"; }
check_eq "$P while held: per class, allocations, frees, the refused one, what is live, the peak" \
	"$(memrows "$S/r.out")" "NV01_MEMORY_LOCAL_USER 4 3 1 0 1 3145728 5242880
NV01_MEMORY_SYSTEM 2 0 0 0 2 270336 270336
NV50_MEMORY_VIRTUAL 1 0 0 0 1 1073741824 1073741824
NV01_MEMORY_SYSTEM_OS_DESCRIPTOR 1 0 0 0 1 65536 65536"
check_eq "$P after the exit closed the file: everything freed, the peaks kept" \
	"$(memrows "$S/r2.out")" "NV01_MEMORY_LOCAL_USER 4 4 1 0 0 0 5242880
NV01_MEMORY_SYSTEM 2 2 0 0 0 0 270336
NV50_MEMORY_VIRTUAL 1 1 0 0 0 0 1073741824
NV01_MEMORY_SYSTEM_OS_DESCRIPTOR 1 1 0 0 0 0 65536"
check_eq "$P -l while held: each allocation alive, in order, with its handle and bytes" \
	"$(awk -v p="$rpid" 'NF == 6 && $1 == p && $3 ~ /^NV/ { print $3, $5, $6 }' "$S/r.out")" \
	"NV01_MEMORY_LOCAL_USER 0xa0000011 3145728
NV01_MEMORY_SYSTEM 0xa0000012 262144
NV01_MEMORY_SYSTEM 0xa0000013 8192
NV50_MEMORY_VIRTUAL 0xa0000014 1073741824
NV01_MEMORY_SYSTEM_OS_DESCRIPTOR 0xa0000015 65536"
jmem='select(.type == "memory" and .pid == '"$rpid"') | "\(.class) \(.allocs) \(.frees) \(.failed) \(.failed_bytes) \(.live_objects) \(.live_bytes) \(.peak_bytes)"'
check_eq "$P -j: the memory rows equal the text's (held)" "$(jq -r "$jmem" "$S/r.j")" "$(memrows "$S/r.out")"
check_eq "$P -j: the memory rows equal the text's (after)" "$(jq -r "$jmem" "$S/r2.j")" "$(memrows "$S/r2.out")"
check_eq "$P -j -l: the live allocations: 5, of one client, 1077223424 bytes" \
	"$(jq -s -r '[.[] | select(.type == "memory_live")] | "\(length) \(map(.client) | unique | length) \(map(.bytes) | add)"' "$S/r.j")" \
	"5 1 1077223424"
check_eq "$P the RM's refusal in the RM table: NV01_MEMORY_LOCAL_USER, NV_ERR_INVALID_ARGUMENT, once" \
	"$(jq -r 'select(.type == "rm" and .comm == "nvctl" and .status_name == "NV_ERR_INVALID_ARGUMENT") | "\(.object_name) \(.count)"' "$S/r2.j")" \
	"NV01_MEMORY_LOCAL_USER 1"
rm -f /dev/nvidiactl
P="nvdrv mock:"
check "$P rmmod" rmmod nvidia

# ---- 6. Xids from the driver's tracepoint (issue 17.2) ------------------------
# 575 and later define nvidia:nvidia_dev_xid and fire it from nv_log_error
# (nv_report_error): nvmock-xidtp plays that generation. The record's
# fields, as NVIDIA's nv-tracepoint.h has them (575.51.02 to 595.45.04):
# dev (pci_name, a string), error_code (u32), msg (a string); no Debian
# driver has the tracepoint yet (535, 550, 555), so this layout is the
# only one to check the mock against. nvdrv takes its Xids from there,
# says so, and leaves nv_log_error alone: each Xid counted once, with the
# whole message, and the pid and name of the line the RM printed with
# nv_printf just before it in the same thread (the record has neither);
# an Xid nv_log_error reports without a printed line has none: '-'.
P="nvdrv mock 575 (Xid tracepoint):"
if [ -z "${NVMOCK_XIDTP_KO:-}" ]; then
	fail "$P no NVMOCK_XIDTP_KO (tests/kmod/build --kernel $VM_KERNEL)"
	exit 0
fi
insmod "$NVMOCK_XIDTP_KO" 2>"$S/insmod.err" || { fail "$P insmod: $(cat "$S/insmod.err")"; exit 0; }
fmt=$trace/events/nvidia/nvidia_dev_xid/format
check_eq "$P the record: dev, error_code, msg, as the real driver's" \
	"$(sed -n 's/^[[:space:]]*field:\([^;]*\);.*/\1/p' "$fmt" 2>&1 | grep -v ' common_')" \
	"__data_loc char[] dev
u32 error_code
__data_loc char[] msg"
start_tool "$S/g6.j" "$H" -j; g6_pid=$tool_pid
start_tool "$S/x.out" "$T"; x_pid=$tool_pid
start_tool "$S/x.ev" "$T" -e; xe_pid=$tool_pid
start_tool "$S/x.j" "$T" -j
echo 1 >$trace/events/nvidia/nvidia_dev_xid/enable
echo >$trace/trace
long="Ch 00000010, intr 00000000. MMU Fault: ENGINE GRAPHICS GPC0"	# 59 bytes, whole
c xid xid=79 pid=1234 name=cudaapp msg=GPU has fallen off the bus.
c xid xid=31 pid=4321 name=trainer n=3 dev=1 "msg=$long"
c xid xid=43 mig=1 pid=77 name=migapp msg=Ch 00000008
c log_error xid=48 n=2
c print n=5
echo 0 >$trace/events/nvidia/nvidia_dev_xid/enable
sleep 1	# the Xids' events read
stop_tool INT
xj_status=$tool_status
kill -INT "$x_pid" "$xe_pid"; wait "$x_pid"; x_status=$?; wait "$xe_pid"; xe_status=$?
check_eq "$P text, -e, -j: exit 0" "$x_status $xe_status $xj_status" "0 0 0"
stop_tools "gpuhang on nvmock 575" "$g6_pid"
xids_tp="nvdrv: Xids from the driver's tracepoint nvidia:nvidia_dev_xid, their pid and name from nv_printf"
check_eq "$P stderr: the Xids' source, the tracepoint, then what the mock lacks (text, -e)" \
	"$(cat "$S/x.out.err" "$S/x.ev.err")" "$xids_tp
$nofile
$xids_tp
$nofile"
check_eq "$P -j: the same and the banner" "$(cat "$S/x.j.err")" "$xids_tp
$nofile
Tracing nvidia.ko 0.0-nvmock-xid-tracepoint, counting from now... Hit Ctrl-C to end."
# "GPU XID COUNT PID NAME MEANING": the GPU from the record's PCI name.
check_eq "$P Xids: GPU, number, count, pid, name, meaning; once each" \
	"$(xid_rows "$S/x.out")" "0000:3b:00 79 1 1234 cudaapp GPU has fallen off the bus
0001:af:02 31 3 4321 trainer GPU memory page fault
0000:3b:00 43 1 77 migapp GPU stopped processing (channel stopped)
0000:3b:00 48 2 - - double bit ECC error (DBE)"
check_eq "$P the kernel's own trace buffer: the same 7 Xids" \
	"$(grep -o 'nvidia_dev_xid: Xid (PCI:[^)]*): [0-9]*' $trace/trace | sort | uniq -c | awk '{ print $1, $NF }' | sort -k2n)" \
	"3 31
1 43
2 48
1 79"
check_eq "$P -e: one XID line per Xid, the whole message" \
	"$(awk '$2 == "XID"' "$S/x.ev" | sed 's/^.*gpu=/gpu=/' | sort)" \
	"gpu=0000:3b:00 xid=43 (GPU stopped processing (channel stopped)) pid=77 name=migapp msg=Ch 00000008
gpu=0000:3b:00 xid=48 (double bit ECC error (DBE)) pid=- name=- msg=mock
gpu=0000:3b:00 xid=48 (double bit ECC error (DBE)) pid=- name=- msg=mock
gpu=0000:3b:00 xid=79 (GPU has fallen off the bus) pid=1234 name=cudaapp msg=GPU has fallen off the bus.
gpu=0001:af:02 xid=31 (GPU memory page fault) pid=4321 name=trainer msg=$long
gpu=0001:af:02 xid=31 (GPU memory page fault) pid=4321 name=trainer msg=$long
gpu=0001:af:02 xid=31 (GPU memory page fault) pid=4321 name=trainer msg=$long"
check_eq "$P -j: Xid rows equal the text's; the message whole" \
	"$(jq -r 'select(.type == "xid") | "\(.gpu) \(.xid) \(.count) \(.pid) \(.name) \(.message)"' "$S/x.j")" \
	"0000:3b:00 79 1 1234 cudaapp GPU has fallen off the bus.
0001:af:02 31 3 4321 trainer $long
0000:3b:00 43 1 77 migapp Ch 00000008
0000:3b:00 48 2 null null mock"
# gpuhang: an incident per Xid the tracepoint reports, as many of each as
# the trace buffer has, each with the process of the report printed
# before it; then an Xid of no process and one after it.
check_eq "$P gpuhang: stderr: the banner alone" "$(cat "$S/g6.j.err")" \
	"Tracing GPU job timeouts and recoveries (no DRM scheduler)... Hit Ctrl-C to end."
check_eq "$P gpuhang: an XID incident per Xid, the process from nv_printf, the whole message" \
	"$(jq -r 'select(.event == "XID") | "\(.incident) \(.dev) \(.xid) \(.pid // "-") \(.comm // "-") \(.message)"' "$S/g6.j")" \
	"1 0000:3b:00 79 1234 cudaapp GPU has fallen off the bus.
2 0001:af:02 31 4321 trainer $long
3 0001:af:02 31 4321 trainer $long
4 0001:af:02 31 4321 trainer $long
5 0000:3b:00 43 77 migapp Ch 00000008
6 0000:3b:00 48 - - mock
7 0000:3b:00 48 - - mock"
check_eq "$P gpuhang: as many of each Xid as the kernel's trace buffer" \
	"$(jq -r 'select(.event == "XID") | .xid' "$S/g6.j" | sort -n | uniq -c | awk '{ print $1, $2 }')" \
	"$(grep -o 'nvidia_dev_xid: Xid (PCI:[^)]*): [0-9]*' $trace/trace | awk '{ print $NF }' | sort -n | uniq -c | awk '{ print $1, $2 }')"
start_tool "$S/g6u.out" "$H"
c xid xid=45 "pid='<unknown>'" "name=<unknown>" msg=Preemptive cleanup
c xid xid=79 pid=555 name=after msg=GPU has fallen off the bus.
sleep 1	# the Xids' events read
stop_tool INT
check_eq "$P gpuhang: pid='<unknown>': no process; the next Xid its own" \
	"$tool_status $(xid_incidents "$S/g6u.out" | tr '\n' ';')" \
	"0 1 0000:3b:00 nvidia 45 - -;2 0000:3b:00 nvidia 79 555 after;"
check "$P rmmod (575)" rmmod nvidia
