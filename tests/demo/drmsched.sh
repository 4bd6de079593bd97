#!/usr/bin/env bash
# `make demo`, inside the VM: drmsched on the real DRM scheduler, fed by the
# test module schedgen with a small mixed workload, as a newcomer would run
# it on a GPU machine.
set -u
cd "$(dirname "$0")/../.." || exit 1
$VM_MODPROBE gpu-sched
insmod "${SCHEDGEN_KO:?}" rings=gfx,compute,sdma

echo "# drmsched -e (one line per event), while schedgen submits 3 chained gfx jobs:"
bin/drmsched -e >"$VM_SCRATCH/ev.out" 2>&1 &
pid=$!
until [ -s "$VM_SCRATCH/ev.out" ]; do sleep 0.2; done
echo "submit ring=gfx jobs=3 exec_us=4000 deps=chain" >/proc/schedgen
echo wait >/proc/schedgen
kill -INT $pid; wait $pid
cat "$VM_SCRATCH/ev.out"

echo
echo "# drmsched (summary at Ctrl-C), while schedgen submits a mixed workload:"
bin/drmsched >"$VM_SCRATCH/sum.out" 2>&1 &
pid=$!
until [ -s "$VM_SCRATCH/sum.out" ]; do sleep 0.2; done
echo "submit ring=gfx jobs=20 exec_us=2000 deps=chain client=7" >/proc/schedgen
echo "submit ring=compute jobs=8 exec_us=10000 deps=ring:gfx" >/proc/schedgen
echo "submit ring=sdma jobs=12 exec_us=500" >/proc/schedgen
echo wait >/proc/schedgen
kill -INT $pid; wait $pid
cat "$VM_SCRATCH/sum.out"
