#!/usr/bin/env bash
# Every tool has a man page that renders without groff warnings, documents
# every option its --help lists, has its sections in the suite's order,
# shows its examples as they are typed, and agrees with --help on the
# options; and --help fits 79 columns.
#
#   tests/host/man.sh [MANDIR [BINDIR]]    (default man/man8 and bin)
#
# MANDIR, BINDIR: other pages (TOOL.8) and binaries, e.g. an older commit's.
mandir=${1:-}
bindir=${2:-}
[ -z "$mandir" ] || mandir=$(cd "$mandir" && pwd) || { echo "FAIL man: no directory $1"; exit 1; }
[ -z "$bindir" ] || bindir=$(cd "$bindir" && pwd) || { echo "FAIL man: no directory $2"; exit 1; }
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
mandir=${mandir:-$PWD/man/man8}
bindir=${bindir:-$PWD/bin}

# The checks of one page that read its source, its rendering and --help:
#   sections  the sections in the suite's order (ORDER below), the required
#             ones present, no EXAMPLE OUTPUT (tools/TOOL_example.txt has it);
#   examples  each command of EXAMPLES (a .B or .BR line, or a line of an .nf
#             block) appears in `man`'s output exactly as its source means it
#             (escapes undone by hand), and its source has no character that
#             groff renders as another glyph outside Debian's setup: a bare
#             - (a hyphen, U+2010), ' ` ^ ~ (curly quotes, modifier letters),
#             nor a " (troff takes it for argument quoting and drops it);
#             write \-, \(aq, \(ga, \(ha, \(ti and \(dq;
#   options   SYNOPSIS, the USAGE line(s) of --help and --help's option table
#             name the same options. argp's own -?/--help, --usage and
#             -V/--version, and our hidden -h, are in every tool and in none
#             of the three (OPTIONS documents them);
#   arguments an option's argument has one name: --help's (--pid=PID) in
#             SYNOPSIS, in USAGE and in the OPTIONS entry;
#   see also  SEE ALSO names gpu-bpf-tools(7), the suite's page made from
#             TOOLS (which renders without warnings and lists every tool of
#             TOOLS by its NAME line), and bpftrace(8); EXAMPLES or SEE ALSO
#             points at tools/TOOL_example.txt;
#   help      no line of --help is wider than 79 columns: argp breaks a line
#             of the doc text that does not fit and goes on at column 0, so
#             the doc text printed must be the doc text unbroken (with
#             ARGP_HELP_FMT=rmargin=1000). (The option table argp folds
#             itself, under the descriptions' column.)
# Prints PASS/FAIL lines.
page_checks() {
	python3 - "$@" <<'EOF'
import re, sys

tool, page, rendered_f, help_f, wide_f, suite = sys.argv[1:]
src = open(page, encoding="utf-8").read().split("\n")
rendered = open(rendered_f, encoding="utf-8").read()
helptext = open(help_f, encoding="utf-8").read().split("\n")
wide = open(wide_f, encoding="utf-8").read().split("\n")

def result(name, problems):
    name = "man: %s.8 %s" % (tool, name)
    if problems:
        print("FAIL %s: %s" % (name, "; ".join(problems)))
    else:
        print("PASS " + name)

# ---- sections ----
ORDER = ["NAME", "SYNOPSIS", "DESCRIPTION", "REQUIREMENTS", "OPTIONS", "EXAMPLES",
         "SUMMARY OUTPUT", "EVENT OUTPUT", None,  # None: the tool's own (LEAK REPORT...)
         "NAMES IN TEXT OUTPUT", "JSON OUTPUT", "METRICS", "TIMELINE",
         "KERNEL VERSIONS", "OVERHEAD", "LIMITS", "EXIT STATUS", "SEE ALSO", "AUTHORS"]
REQUIRED = ["NAME", "SYNOPSIS", "DESCRIPTION", "REQUIREMENTS", "OPTIONS", "EXAMPLES",
            "JSON OUTPUT", "EXIT STATUS", "SEE ALSO"]
secs = [re.sub(r'^"|"$', "", l[3:].strip()) for l in src if re.match(r"\.SH\s", l)]
probs = ["no " + s for s in REQUIRED if s not in secs]
probs += ["an EXAMPLE OUTPUT section (the output goes in tools/%s_example.txt)" % tool
          for s in secs if s == "EXAMPLE OUTPUT"]
rank = lambda s: ORDER.index(s) if s in ORDER else ORDER.index(None)
for a, b in zip(secs, secs[1:]):
    if rank(b) < rank(a) or (rank(b) == rank(a) and ORDER[rank(a)] is not None):
        probs.append("%s after %s" % (b, a))
result("has its sections in the suite's order", probs)

# ---- examples ----
def section(lines, name):
    out, on = [], False
    for l in lines:
        if re.match(r"\.SH\s", l):
            on = re.sub(r'^"|"$', "", l[3:].strip()) == name
        elif on:
            out.append(l)
    return out

ESC = re.compile(r"\\(\(..|\[[^]]*\]|f\(..|f\[[^]]*\]|f.|.)")
NAMED = {"dq": '"', "aq": "'", "ga": "`", "ha": "^", "ti": "~", "rs": "\\", "em": "--",
         "mi": "-", "hy": "-", "at": "@", "sl": "/", "lq": '"', "rq": '"'}
def unescape(s):
    def one(m):
        e = m.group(1)
        if e.startswith("f"):
            return ""
        if e.startswith("(") or e.startswith("["):
            n = e[1:3] if e.startswith("(") else e[1:-1]
            return NAMED.get(n, "\0")
        return {"-": "-", "e": "\\", "\\": "\\", "&": "", "~": " ", " ": " ", "|": "",
                "^": "", ".": ".", "%": ""}.get(e, "\0")
    return ESC.sub(one, s)

cmds, probs, nf = [], [], False
for l in section(src, "EXAMPLES"):
    m = re.match(r"\.(B|BR|RB|BI|IB|IR|RI)\s+(.*)$", l)
    if re.match(r"\.nf\b", l):
        nf = True
        continue
    if re.match(r"\.fi\b", l):
        nf = False
        continue
    if nf and not l.startswith(".") and not l.startswith("'"):
        text, meant = l, unescape(l)
    elif m and not nf:
        text = m.group(2)
        args = text.split() if m.group(1) != "B" else [text]
        meant = "".join(unescape(a) for a in args)
    else:
        continue
    bare = ESC.sub("", text)
    for c, esc in (("-", "\\-"), ('"', "\\(dq"), ("'", "\\(aq"), ("`", "\\(ga"),
                   ("^", "\\(ha"), ("~", "\\(ti")):
        if c in bare:
            probs.append("%r has a bare %s (write %s)" % (text, c, esc))
    if "\0" in meant:
        probs.append("%r has an escape this check does not know" % text)
    cmds.append(meant)
    if meant not in rendered:
        probs.append("man shows %r not as typed" % meant)
if not cmds:
    probs.append("no command in EXAMPLES")
result("shows its %d examples as they are typed" % len(cmds), probs)

# ---- options ----
# --help's option table: "  -p, --pid=PID", "      --cgroup=PATH", "  -x ARG".
table, short2long = {}, {}
for l in helptext:
    m = re.match(r"^  (?:(-[^-\s])(?:, (--[a-z0-9][a-z0-9-]*))?|    (--[a-z0-9][a-z0-9-]*))(\[?=[^\s\]]+\]?| [A-Z][A-Z_]+)?(?:\s|$)", l)
    if not m:
        continue
    short, long_ = m.group(1), m.group(2) or m.group(3)
    arg = re.sub(r"[][= ]", "", m.group(4) or "")
    key = long_ or short
    table[key] = arg
    if short and long_:
        short2long[short] = long_
OWN = {"-?", "--help", "--usage", "-V", "--version", "-h"}

def options_in(text):
    """Options named in a synopsis ({key: argument}) and the unknown ones."""
    found = {}
    for group in re.findall(r"\[([^][]*)", text):
        words = group.split()
        if not words or not words[0].startswith("-"):
            continue
        arg = words[1] if len(words) > 1 else ""
        w = words[0]
        if w.startswith("--"):
            names = [w.split("=")[0]]
            if "=" in w:
                arg = w.split("=", 1)[1]
        else:
            names = ["-" + c for c in w[1:]]
        for n in names:
            found[short2long.get(n, n)] = arg if len(names) == 1 else ""
    return {k: v for k, v in found.items() if k not in OWN}

# SYNOPSIS as man shows it; USAGE: from "USAGE:" to the blank line after it.
syn = re.search(r"^SYNOPSIS\n(.*?)^\S", rendered, re.M | re.S)
syn = options_in(syn.group(1)) if syn else None
usage, on = [], False
for l in helptext:
    on = on or l.startswith("USAGE:")
    if on and not l.strip():
        break
    if on:
        usage.append(l)
usage = options_in("\n".join(usage)) if usage else None
want = {k: v for k, v in table.items() if k not in OWN}

def compare(what, got):
    if got is None:
        return ["no " + what]
    p = []
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    if missing:
        p.append("%s lacks %s" % (what, " ".join(missing)))
    if extra:
        p.append("%s has %s, which --help's option table has not" % (what, " ".join(extra)))
    return p
probs = compare("SYNOPSIS", syn) + compare("--help's USAGE", usage)
if not want:
    probs.append("no option table in --help")
result("SYNOPSIS, --help's USAGE and its option table name the same options", probs)

# ---- arguments ----
probs = []
for what, got in (("SYNOPSIS", syn), ("--help's USAGE", usage)):
    for k, arg in sorted((got or {}).items()):
        if k in want and arg != want[k]:
            probs.append("%s: %s %s, --help: %s" % (what, k, arg or "(none)", want[k] or "(none)"))
# The OPTIONS entries' tags as man shows them: "-p, --pid PID", "--cgroup PATH".
tags = {}
opts = re.search(r"^OPTIONS\n(.*?)^\S", rendered, re.M | re.S)
for l in (opts.group(1) if opts else "").split("\n"):
    m = re.match(r"^ {7}(-\S.*)$", l)
    if not m:
        continue
    parts = [p.strip() for p in m.group(1).split(",")]
    last = parts[-1].split()
    arg = last[1] if len(last) > 1 else ""
    for p in parts[:-1] + last[:1]:
        tags[short2long.get(p, p)] = arg
for k, arg in sorted(want.items()):
    if k not in tags:
        probs.append("OPTIONS has no entry %s" % k)
    elif tags[k] != arg:
        probs.append("OPTIONS: %s %s, --help: %s" % (k, tags[k] or "(none)", arg or "(none)"))
result("names each option's argument as --help does", probs)

# ---- see also ----
refs = set()
for l in section(src, "SEE ALSO"):
    m = re.match(r"\.BR\s+(\S+)\s+\((\d)\)", l)
    if m:
        refs.add("%s(%s)" % (unescape(m.group(1)), m.group(2)))
probs = ["no " + r for r in ["gpu-bpf-tools(7)", "bpftrace(8)"] if r not in refs]
if not any("tools/%s_example.txt" % tool in l for l in section(src, "EXAMPLES") + section(src, "SEE ALSO")):
    probs.append("no pointer to tools/%s_example.txt in EXAMPLES or SEE ALSO" % tool)
result("SEE ALSO names the suite's page and bpftrace(8), and the example file", probs)

# ---- help ----
probs = ["--help line of %d columns: %r" % (len(l), l) for l in helptext if len(l) > 79]
def doc(lines):
    out = []
    for l in lines:
        if re.match(r"^  (-[^-\s]|    --[a-z])", l):
            break
        out.append(l)
    return out
printed, meant = doc(helptext), doc(wide)
if printed != meant:
    probs += ["argp broke a doc line of %d columns: %r" % (len(l), l)
              for l in meant if l not in printed]
result("--help fits 79 columns", probs)
EOF
}

# The Makefile's TOOLS: a tool registered there is checked here (MAKEFLAGS='':
# not the flags of a make running the tests, its jobserver among them).
tools=$(MAKEFLAGS='' make -s --no-print-directory print-tools)
[ -n "$tools" ] || { fail "man: make print-tools named no tool"; exit 1; }
tmp=$(mktemp -d /tmp/man-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
for t in $tools; do
	bin=$bindir/$t
	page=$mandir/$t.8
	if [ ! -f "$page" ]; then
		fail "man: $t has no $page"
		continue
	fi
	warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
	check_eq "man: $page renders without warnings" "$warnings" ""
	text=$(MANWIDTH=200 man -l "$page" 2>/dev/null)
	missing=""
	for opt in $("$bin" --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
		grep -qF -- "$opt" <<<"$text" || missing+=" $opt"
	done
	check_eq "man: $page documents every long option of --help" "${missing# }" ""
	LC_ALL=C.UTF-8 MANWIDTH=250 man -l "$page" >"$tmp/rendered" 2>/dev/null
	"$bin" --help >"$tmp/help"
	ARGP_HELP_FMT=rmargin=1000 "$bin" --help >"$tmp/wide"
	page_checks "$t" "$page" "$tmp/rendered" "$tmp/help" "$tmp/wide" "$tools"
done

# The template's page, in CONTRIBUTING.md, checked as an installed tool's:
# a tool copied from the template starts from its --help and page.
if [ -x "$bindir/template" ]; then
	awk '/^```roff$/ { on = 1; next } /^```$/ { on = 0 } on' CONTRIBUTING.md >"$tmp/template.8"
	check_eq "man: CONTRIBUTING.md's template page renders without warnings" \
		"$(MANWIDTH=80 man --warnings -l "$tmp/template.8" 2>&1 >/dev/null)" ""
	LC_ALL=C.UTF-8 MANWIDTH=250 man -l "$tmp/template.8" >"$tmp/rendered" 2>/dev/null
	"$bindir/template" --help >"$tmp/help"
	ARGP_HELP_FMT=rmargin=1000 "$bindir/template" --help >"$tmp/wide"
	page_checks template "$tmp/template.8" "$tmp/rendered" "$tmp/help" "$tmp/wide" "$tools"
else
	fail "man: no $bindir/template (make unit-tests)"
fi

# The suite's page, made from TOOLS: every tool by its NAME line, no other.
overview=build/man/gpu-bpf-tools.7
if [ -f "$overview" ]; then
	check_eq "man: $overview renders without warnings" \
		"$(MANWIDTH=80 man --warnings -l "$overview" 2>&1 >/dev/null)" ""
	check_eq "man: $overview lists every tool of TOOLS, and no other" \
		"$(awk 'tp && /^\.BR / { print $2 } { tp = $0 == ".TP" }' "$overview" | sort | paste -sd' ')" \
		"$(tr ' ' '\n' <<<"$tools" | sort | paste -sd' ')"
else
	fail "man: no $overview (make)"
fi
