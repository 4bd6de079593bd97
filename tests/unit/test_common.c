// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of libbpf-tools-common: parsing, histograms, probing. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "histogram.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "table.h"
#include "untrusted.h"

static void test_parse_long(void)
{
	long v = 7;

	CHECK("parse_long accepts 1", parse_long("1", 1, 10, &v) == 0 && v == 1, "v=%ld", v);
	CHECK("parse_long accepts max", parse_long("10", 1, 10, &v) == 0 && v == 10, "v=%ld", v);
	v = 7;
	CHECK("parse_long rejects below min", parse_long("0", 1, 10, &v) == -EINVAL && v == 7,
	      "v=%ld", v);
	CHECK("parse_long rejects above max", parse_long("11", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects empty", parse_long("", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects trailing junk", parse_long("5s", 1, 10, &v) == -EINVAL,
	      "accepted");
	CHECK("parse_long rejects hex", parse_long("0x5", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects overflow",
	      parse_long("99999999999999999999999", 1, LONG_MAX, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects negative", parse_long("-3", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects a plus sign", parse_long("+5", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long rejects a leading space", parse_long(" 5", 1, 10, &v) == -EINVAL, "accepted");
	CHECK("parse_long takes a negative where the range has them",
	      parse_long("-3", -5, 10, &v) == 0 && v == -3, "v=%ld", v);
	CHECK_STR("arg_shown: a long argument cut, and said so", arg_shown(
		  "77777777777777777777777777777777777777777777777777777777777777777777777777777777"),
		  "7777777777777777777777777777777777777777777777777777777777777777...");
	CHECK_STR("arg_shown: control bytes escaped", arg_shown("a\nb"), "a\\x0ab");
}

static void test_log2_slots(void)
{
	unsigned long long lo, hi, bad = 0;
	unsigned int bad_slot = 0;	/* the slot wanted + 1 */

	CHECK_U64("log2_slot(0)", log2_slot(0), 0);
	CHECK_U64("log2_slot(1)", log2_slot(1), 0);
	CHECK_U64("log2_slot(2)", log2_slot(2), 1);
	CHECK_U64("log2_slot(3)", log2_slot(3), 1);
	CHECK_U64("log2_slot(4)", log2_slot(4), 2);
	CHECK_U64("log2_slot(2047)", log2_slot(2047), 10);
	CHECK_U64("log2_slot(2048)", log2_slot(2048), 11);
	CHECK_U64("log2_slot(2^31)", log2_slot(1ULL << 31), 31);
	CHECK_U64("log2_slot(2^40) clamps to last", log2_slot(1ULL << 40), MAX_SLOTS - 1);
	/* Around every power of two: the slot of its highest bit, clamped. */
	for (int b = 0; b < 64 && !bad_slot; b++) {
		unsigned long long p = 1ULL << b, vs[] = { p - 1, p, p + 1, p | (p >> 1), p | (p - 1) };

		for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
			unsigned int want = vs[i] ? 63 - __builtin_clzll(vs[i]) : 0;

			if (want > MAX_SLOTS - 1)
				want = MAX_SLOTS - 1;
			if (log2_slot(vs[i]) != want) {
				bad = vs[i];
				bad_slot = want + 1;
				break;
			}
		}
	}
	CHECK("log2_slot around every power of two", !bad_slot, "v=0x%llx: %u, not %u", bad,
	      log2_slot(bad), bad_slot - 1);
	/* Every value lands in a slot whose printed range contains it. */
	for (unsigned long long v = 0; v < 70000; v++) {
		log2_slot_range(log2_slot(v), &lo, &hi);
		if (v < lo || v > hi) {
			CHECK("log2 slot ranges contain their values", 0, "v=%llu in [%llu, %llu]",
			      v, lo, hi);
			return;
		}
	}
	CHECK("log2 slot ranges contain their values", 1, "ok");
}

static char *print_to_string(void (*fn)(FILE *, const void *), const void *arg)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	fn(f, arg);
	fclose(f);
	return buf;
}

static void print_hist_usecs(FILE *f, const void *h)
{
	print_lat_hist(f, h, "usecs");
}

static void test_hist_printing(void)
{
	struct lat_hist h = { .count = 5, .sum = 5 * 2100, .min = 2050, .max = 2200 };
	struct lat_hist empty = {};

	h.slots[11] = 4;
	h.slots[2] = 1;
	CHECK_STR("print_lat_hist layout", print_to_string(print_hist_usecs, &h),
		  "    count 5  avg 2100  min 2050  max 2200  (usecs)\n"
		  "          usecs          : count    distribution\n"
		  "         4 -> 7          : 1        |**********                              |\n"
		  "         8 -> 15         : 0        |                                        |\n"
		  "        16 -> 31         : 0        |                                        |\n"
		  "        32 -> 63         : 0        |                                        |\n"
		  "        64 -> 127        : 0        |                                        |\n"
		  "       128 -> 255        : 0        |                                        |\n"
		  "       256 -> 511        : 0        |                                        |\n"
		  "       512 -> 1023       : 0        |                                        |\n"
		  "      1024 -> 2047       : 0        |                                        |\n"
		  "      2048 -> 4095       : 4        |****************************************|\n");
	CHECK_STR("print_lat_hist empty", print_to_string(print_hist_usecs, &empty),
		  "    count 0\n");
}

/* A fake /sys and /proc under a temporary root. */
static char fake_root[] = "/tmp/gpu-bpf-unit.XXXXXX";

static void put_file(const char *rel, const char *content)
{
	char path[PATH_MAX], dir[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (slash = dir + strlen(fake_root) + 1; (slash = strchr(slash, '/')); slash++) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	fputs(content, f);
	fclose(f);
}

/* The release compared as numbers, from this machine's uname. */
static void test_kernel_release(void)
{
	unsigned int major = 0, minor = 0;
	struct utsname u;

	uname(&u);
	sscanf(u.release, "%u.%u", &major, &minor);
	CHECK("kernel_release_at_least: its own release", kernel_release_at_least(major, minor),
	      "%s", u.release);
	CHECK("kernel_release_at_least: a later minor is not", !kernel_release_at_least(major, minor + 1),
	      "%s", u.release);
	CHECK("kernel_release_at_least: the major counts first",
	      kernel_release_at_least(major - 1, minor + 10) && !kernel_release_at_least(major + 1, 0),
	      "%s", u.release);
}

static void test_probe(void)
{
	if (!mkdtemp(fake_root)) {
		CHECK("probe: fake root", 0, "mkdtemp: %s", strerror(errno));
		return;
	}
	put_file("sys/kernel/tracing/available_events", "");
	put_file("sys/kernel/tracing/events/gpu_scheduler/drm_run_job/format", "name: drm_run_job\n");
	put_file("sys/module/gpu_sched/initstate", "live\n");
	put_file("sys/module/drm/initstate", "live\n");
	put_file("sys/module/i915/parameters/x", "");
	put_file("sys/kernel/btf/drm", "");
	/* kallsyms as the kernel prints it: module symbols after a tab, data too */
	put_file("proc/kallsyms",
		 "ffffffff81000000 T _stext\n"
		 "ffffffff81001000 t vfs_read\n"
		 "ffffffffc0a00000 t nvidia_open\t[nvidia]\n"
		 "ffffffffc0a00100 T nv_printf\t[nvidia]\n"
		 "ffffffffc0a00200 d nv_data\t[nvidia]\n"
		 "ffffffffc0b00000 t uvm_open_entry\t[nvidia_uvm]\n"
		 "ffffffffc0c00000 t nvidia_opener\t[nvidia_modeset]\n"
		 "ffffffffc0a00300 t nvidia_isr\t[nvidia]\n");
	probe_set_root(fake_root);

	CHECK("tracepoint_exists finds drm_run_job",
	      tracepoint_exists("gpu_scheduler", "drm_run_job"), "not found");
	CHECK("tracepoint_exists rejects a missing event",
	      !tracepoint_exists("gpu_scheduler", "drm_sched_job_queue"), "found");
	{
		char mod[64] = "";

		put_file("proc/kallsyms",
			 "ffffffff81000000 T _stext\n"
			 "ffffffff82000000 D __tracepoint_sched_switch\n"
			 "ffffffffc0a00000 d __tracepoint_i915_gem_object_create_x\t[gemgen]\n"
			 "ffffffffc0a00100 d __tracepoint_i915_gem_object_create\t[i915]\n");
		CHECK("tracepoint_module: the module defining the event",
		      tracepoint_module("i915_gem_object_create", mod, sizeof(mod)) && !strcmp(mod, "i915"),
		      "wrong");
		CHECK("tracepoint_module: not for an event of the kernel's own",
		      !tracepoint_module("sched_switch", mod, sizeof(mod)), "found");
		CHECK("tracepoint_module: not for a missing event",
		      !tracepoint_module("i915_gem_object", mod, sizeof(mod)), "found");
	}
	CHECK("module_loaded", module_loaded("gpu_sched") && !module_loaded("amdgpu"), "wrong");
	CHECK("module_lacks_btf: loadable module without BTF", module_lacks_btf("gpu_sched"),
	      "not detected");
	CHECK("module_lacks_btf: module with BTF", !module_lacks_btf("drm"), "wrong");
	CHECK("module_lacks_btf: built-in code", !module_lacks_btf("i915"), "wrong");
	CHECK("btf_exists", btf_exists("drm") && !btf_exists("vmlinux"), "wrong");
	put_file("sys/bus/pci/drivers/i915/0000:00:02.0/vendor", "0x8086\n");
	put_file("sys/bus/pci/drivers/i915/bind", "");
	put_file("sys/bus/pci/drivers/xe/bind", "");
	put_file("sys/bus/pci/drivers/xe/new_id", "");
	CHECK("pci_driver_bound: a device bound", pci_driver_bound("i915") == 1, "%d",
	      pci_driver_bound("i915"));
	CHECK("pci_driver_bound: a PCI driver with no device", pci_driver_bound("xe") == 0, "%d",
	      pci_driver_bound("xe"));
	CHECK("pci_driver_bound: no such PCI driver", pci_driver_bound("gemgen") == -1, "%d",
	      pci_driver_bound("gemgen"));

	probe_set_root(NULL);
	{
		char cmd[PATH_MAX + 16];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", fake_root);
		if (system(cmd))
			fprintf(stderr, "warning: could not remove %s\n", fake_root);
	}
}

/* A reader that goes away is noticed without writing anything. */
static void test_reader_gone(void)
{
	int fds[2], saved = dup(STDOUT_FILENO);
	bool open_ok, closed_seen;

	fflush(stdout);
	if (pipe(fds) || saved < 0) {
		CHECK("output_broken: pipe", 0, "%s", strerror(errno));
		return;
	}
	dup2(fds[1], STDOUT_FILENO);
	open_ok = !output_broken();
	close(fds[0]);
	closed_seen = output_broken();
	dup2(saved, STDOUT_FILENO);
	close(fds[1]);
	close(saved);
	CHECK("output_broken: false while the pipe's reader is there", open_ok, "broken");
	CHECK("output_broken: true once the reader closed, before any write", closed_seen,
	      "not noticed");
}

/* An event's TIME(s), an allocation's age: never a wrapped difference. */
static void test_trace_seconds(void)
{
	unsigned long long before = monotonic_ns(), start;
	double early, later;

	trace_clock_start();
	start = monotonic_ns();
	early = trace_seconds(before);
	later = trace_seconds(start + 2500000000ULL);
	CHECK("trace_seconds: a stamp before the start is 0", early == 0.0, "got %f", early);
	CHECK("trace_seconds: 2.5 s after the start", later >= 2.5 && later < 2.6, "got %f", later);
	CHECK("seconds_since: an age", seconds_since(1000, 1500001000) == 1.5, "got %f",
	      seconds_since(1000, 1500001000));
	CHECK("seconds_since: a stamp made after now was read is 0",
	      seconds_since(start + 1, start) == 0.0, "got %f", seconds_since(start + 1, start));
}

/* What `print` wrote to a FILE, as a string (static: valid until the next call). */
static const char *printed(void (*print)(FILE *f, const void *arg), const void *arg)
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	f = open_memstream(&buf, &len);
	print(f, arg);
	fclose(f);
	return buf;
}

static void put_string(FILE *f, const void *s)
{
	json_put_string(f, s, 64);
}

static const struct column test_cols[] = {
	{ "PID", "pid", -5, 0 },
	{ "NAME", "name", 6, 0 },
	{ "WAIT", "wait", 8, COL_TIME },
	{ "JOB", "", -6, COL_TEXT_ONLY },
	{ "", "seqno", 0, COL_JSON_ONLY },
	CGROUP_COLUMN,
};
static const struct table test_table = TABLE("thing", test_cols);

static void put_header(FILE *f, const void *arg)
{
	(void)arg;
	table_header(f, &test_table);
}

static void put_row(FILE *f, const void *arg)
{
	(void)arg;
	table_row(f, &test_table, (struct cell[]){ CELL_U(42), CELL_S("a\"b"), CELL_NONE,
		CELL_S("1:2"), CELL_U(2), CELL_S("/x") });
}

#define CONTAINER_ID "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define POD_CGROUP "/kubepods.slice/kubepods-burstable.slice/" \
	"kubepods-burstable-pod7f3e1c2a_5b6d_4e8f_9a0b_1c2d3e4f5a6b.slice/" \
	"cri-containerd-" CONTAINER_ID ".scope"

static void put_pod_row(FILE *f, const void *arg)
{
	(void)arg;
	table_row(f, &test_table, (struct cell[]){ CELL_U(42), CELL_S("a\"b"), CELL_NONE,
		CELL_S("1:2"), CELL_U(2), CELL_S(POD_CGROUP) });
}

/* The forged name of issue 23: quote, backslash, newline, bad byte, ESC[2J. */
#define HOSTILE "a\"b\\c\nd\xff\x1b[2J"

static void put_hostile_row(FILE *f, const void *arg)
{
	table_row(f, &test_table, (struct cell[]){ CELL_U(42), CELL_S(HOSTILE), CELL_NONE,
		CELL_S("1 2"), CELL_U(2), CELL_S(arg) });
}

static void test_untrusted_text(void)
{
	char out[64];
	const char *row;
	int fields = 0;
	const char *p;

	CHECK_STR("text escape: backslash doubled; newline, bad byte and ESC as \\xNN",
		  text_escape(out, sizeof(out), HOSTILE, 64, false), "a\"b\\\\c\\x0ad\\xff\\x1b[2J");
	CHECK_STR("text escape: a space in a column", text_escape(out, sizeof(out), "Web Content", 64, false),
		  "Web\\x20Content");
	CHECK_STR("text escape: spaces kept where the string ends the line",
		  text_escape(out, sizeof(out), "Web Content\t", 64, true), "Web Content\\x09");
	CHECK_STR("text escape: C1 controls (CSI U+009B) escaped, other UTF-8 kept",
		  text_escape(out, sizeof(out), "\xc2\x9b" "2J caf\xc3\xa9\x7f", 64, true),
		  "\\xc2\\x9b2J caf\xc3\xa9\\x7f");
	CHECK_STR("text escape: cut at a whole escape", text_escape(out, 6, "ab\x1b", 64, true), "ab");
	CHECK_STR("text escape: at most max bytes of the input", text_escape(out, sizeof(out), "abcdef", 3, true), "abc");

	common_env.json = false;
	common_env.show_cgroup = true;
	row = printed(put_hostile_row, "/x y");
	CHECK("table text row: a hostile name stays on its line", strchr(row, '\n') == row + strlen(row) - 1,
	      "%s", row);
	for (p = row; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n')
			break;
	CHECK("table text row: no control byte", !*p, "byte 0x%02x in %s", (unsigned char)*p, row);
	for (p = row; *p; p++)
		fields += (p == row || p[-1] == ' ') && *p != ' ' && *p != '\n';
	/* PID NAME WAIT JOB(2 words: '1 2' is the tool's own, escaped too) CGROUP(ends the line: kept) */
	CHECK_STR("table text row: the name one field; the last column keeps its spaces", row,
		  "42    a\"b\\\\c\\x0ad\\xff\\x1b[2J        - 1\\x202 -            -                                    /x y\n");
	CHECK("table text row: fields counted (CONTAINER and POD before CGROUP)", fields == 8,
	      "%d fields", fields);
	common_env.show_cgroup = false;
}

/* A process's name read back whole, its own newlines kept. */
static void test_proc_comm(void)
{
	char was[17], now[17];

	CHECK("proc_comm_read: this process", proc_comm_read(getpid(), was, sizeof(was)), "no comm");
	prctl(PR_SET_NAME, "a\nb\n");
	CHECK("proc_comm_read: again", proc_comm_read(getpid(), now, sizeof(now)), "no comm");
	CHECK_STR("proc_comm_read: newlines in the name kept, the kernel's last one dropped", now, "a\nb\n");
	prctl(PR_SET_NAME, "fifteen_chars_x");
	proc_comm_read(getpid(), now, sizeof(now));
	CHECK_STR("proc_comm_read: 15 bytes, the longest name", now, "fifteen_chars_x");
	proc_comm_read(getpid(), now, 8);
	CHECK_STR("proc_comm_read: cut to the buffer", now, "fifteen");
	prctl(PR_SET_NAME, was);
	CHECK("proc_comm_read: no such process", !proc_comm_read(0x7fffffff, now, sizeof(now)) && !*now,
	      "read '%s'", now);
}

static void test_table_output(void)
{
	/* Strings the kernel may hand over: quotes, control bytes, bad UTF-8. */
	CHECK_STR("json string: quote, backslash", printed(put_string, "a\"b\\c"), "\"a\\\"b\\\\c\"");
	CHECK_STR("json string: newline, tab, control", printed(put_string, "a\nb\tc\x01\x7f"),
		  "\"a\\nb\\tc\\u0001\\u007f\"");
	CHECK_STR("json string: valid UTF-8 kept", printed(put_string, "caf\xc3\xa9 \xe2\x82\xac"),
		  "\"caf\xc3\xa9 \xe2\x82\xac\"");
	CHECK_STR("json string: invalid bytes become U+FFFD", printed(put_string, "a\xff\xc3(b\xed\xa0\x80"),
		  "\"a\\ufffd\\ufffd(b\\ufffd\\ufffd\\ufffd\"");
	CHECK_STR("json string: a truncated sequence at the end", printed(put_string, "ab\xe2\x82"),
		  "\"ab\\ufffd\\ufffd\"");

	common_env.json = false;
	common_env.show_cgroup = false;
	CHECK_STR("table text header: widths, unit, no JSON-only or -C column",
		  printed(put_header, NULL), "PID     NAME WAIT(us) JOB   \n");
	CHECK_STR("table text row: '-' for a missing value", printed(put_row, NULL),
		  "42       a\"b        - 1:2   \n");
	common_env.msecs = true;
	common_env.show_cgroup = true;
	CHECK_STR("table text header: -m and -C", printed(put_header, NULL),
		  "PID     NAME WAIT(ms) JOB    CONTAINER    POD                                  CGROUP\n");
	CHECK_STR("table text row: -C, a pod's container by id and pod UID", printed(put_pod_row, NULL),
		  "42       a\"b        - 1:2    0123456789ab 7f3e1c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b "
		  POD_CGROUP "\n");
	common_env.json = true;
	CHECK_STR("table JSON header: none", printed(put_header, NULL), "");
	summary_begin(stdout);	/* with -j: sets the rows' "ts", prints nothing */
	CHECK("table JSON row: fields, units, null, -C field",
	      strstr(printed(put_row, NULL), ",\"pid\":42,\"name\":\"a\\\"b\",\"wait_ms\":null,"
		     "\"seqno\":2,") != NULL &&
	      !strncmp(printed(put_row, NULL), "{\"type\":\"thing\",\"ts\":", 20),
	      "got %s", printed(put_row, NULL));
	CHECK("table JSON row: -C, no container: null identities before the path",
	      strstr(printed(put_row, NULL), ",\"container\":null,\"runtime\":null,\"pod\":null,"
		     "\"unit\":null,\"cgroup\":\"/x\"}\n") != NULL, "got %s", printed(put_row, NULL));
	CHECK("table JSON row: -C, a pod's container: the whole id, runtime, pod UID, path",
	      strstr(printed(put_pod_row, NULL), ",\"container\":\"" CONTAINER_ID "\","
		     "\"runtime\":\"containerd\",\"pod\":\"7f3e1c2a-5b6d-4e8f-9a0b-1c2d3e4f5a6b\","
		     "\"unit\":null,\"cgroup\":\"" POD_CGROUP "\"}\n") != NULL,
	      "got %s", printed(put_pod_row, NULL));
	common_env.json = common_env.msecs = common_env.show_cgroup = false;
}

static const struct column pid_cols[] = { PID_COLUMN, { "COMM", "comm", -4, 0 } };
static const struct table pid_events = EVENT_TABLE("event", pid_cols);
static const struct table pid_rows = TABLE("process", pid_cols);
static unsigned int traced_pid;

static void put_pid_event(FILE *f, const void *arg)
{
	table_event(f, arg, (struct cell[]){ CELL_U(traced_pid), CELL_S("w") }, monotonic_ns());
}

static void put_pid_row(FILE *f, const void *arg)
{
	table_row(f, arg, (struct cell[]){ CELL_U(traced_pid), CELL_S("w") });
}

/* A process in a PID namespace of its own (a container's): PID 1 there. */
static void test_ns_pid(void)
{
	char want[64], pid_ns[32];
	int go[2];
	pid_t child;

	/* A fork whose child alone is in a new namespace (unshare() would take this process's next). */
	if (pipe(go) || (child = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0)) < 0) {
		printf("SKIP event lines: a PID namespace's number (clone: %s)\n", strerror(errno));
		return;
	}
	if (child == 0) {	/* PID 1 of the new namespace, until the pipe closes */
		char c;

		close(go[1]);
		_exit(read(go[0], &c, 1) < 0);
	}
	close(go[0]);
	traced_pid = child;
	common_env.json = false;
	snprintf(pid_ns, sizeof(pid_ns), "%u(1)", traced_pid);
	snprintf(want, sizeof(want), "%-7s w   \n", pid_ns);
	CHECK_STR("event line: PID(NSPID) of a process in a namespace of its own",
		  printed(put_pid_event, &pid_events), want);
	snprintf(want, sizeof(want), "%-7u w   \n", traced_pid);
	CHECK_STR("summary row: the host PID alone (a summary's process may be gone)",
		  printed(put_pid_row, &pid_rows), want);
	common_env.json = true;
	snprintf(want, sizeof(want), ",\"pid\":%u,\"ns_pid\":1,\"comm\":\"w\"}\n", traced_pid);
	CHECK("event JSON: ns_pid after pid", strstr(printed(put_pid_event, &pid_events), want) != NULL,
	      "got %s", printed(put_pid_event, &pid_events));
	traced_pid = getpid();
	CHECK("event JSON: no ns_pid for a process of the host's namespace",
	      !strstr(printed(put_pid_event, &pid_events), "ns_pid"), "got %s",
	      printed(put_pid_event, &pid_events));
	common_env.json = false;
	close(go[1]);
	waitpid(child, NULL, 0);
}

int main(void)
{
	test_parse_long();
	test_log2_slots();
	test_hist_printing();
	test_probe();
	test_kernel_release();
	test_reader_gone();
	test_trace_seconds();
	test_ns_pid();
	test_table_output();
	test_untrusted_text();
	test_proc_comm();
	return check_failures ? 1 : 0;
}
