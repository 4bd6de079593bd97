#!/bin/sh
# man/overview.sh TOOL...: gpu-bpf-tools(7) on stdout, the suite's page:
# every tool of the Makefile's TOOLS with the line its own page's NAME
# section gives it, so that a tool added to TOOLS is listed without more.
set -eu
cd "$(dirname "$0")/.."
date=$(for t in "$@"; do sed -n 's/^\.TH [^ ]* 8 "\([^"]*\)".*/\1/p' "man/man8/$t.8"; done |
       sort | tail -n 1)
cat <<PAGE
.TH GPU-BPF-TOOLS 7 "$date" "gpu-bpf-tools 0.1" "Miscellaneous Information Manual"
.SH NAME
gpu-bpf-tools \\- eBPF tracers of the GPU stack, seen from the Linux kernel
.SH DESCRIPTION
Small tools, each answering one question about what the GPU drivers, the
GPU scheduler and the compute APIs do, from a shell, for every vendor.
They share their options (\\fB\\-p\\fR, \\fB\\-c\\fR, \\fB\\-j\\fR,
\\fB\\-\\-cgroup\\fR, \\fB\\-\\-prometheus\\fR, \\fIinterval\\fR
[\\fIcount\\fR]...) and their ways of printing; each has a page of its own:
PAGE
for t in "$@"; do
	printf '.TP\n.BR %s (8)\n' "$t"
	sed -n '/^\.SH NAME/{n;s/^[^ ]* \\- //;p;q}' "man/man8/$t.8"
done
cat <<PAGE
.SH SEE ALSO
.BR bpftrace (8)
PAGE
