// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c, --timeline's writer: the file is a JSON array whatever was
 * written (even nothing), events carry exact microsecond timestamps,
 * names are escaped, flows come in pairs, and lanes keep slices of one
 * track from overlapping.
 */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "timeline.h"

static char *read_all(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static int python_ok(const char *path, const char *expr)
{
	char cmd[256];

	/* The expression through the environment: no quoting to get wrong. */
	setenv("TIMELINE_EXPR", expr, 1);
	snprintf(cmd, sizeof(cmd), "python3 -c 'import json, os, sys; e = json.load(open(sys.argv[1])); "
		 "sys.exit(0 if eval(os.environ[\"TIMELINE_EXPR\"]) else 1)' %s", path);
	return system(cmd) == 0;
}

static void test_lanes(void)
{
	struct timeline_lanes l = {};
	bool over = false;

	CHECK("lanes: the first slice takes lane 0", timeline_lane(&l, 10, 20, &over) == 0, "%s", "");
	CHECK("lanes: one overlapping it, lane 1", timeline_lane(&l, 15, 30, &over) == 1, "%s", "");
	CHECK("lanes: one after the first, lane 0 again", timeline_lane(&l, 20, 25, &over) == 0, "%s", "");
	CHECK("lanes: one overlapping both, lane 2", timeline_lane(&l, 24, 40, &over) == 2, "%s", "");
	CHECK_U64("lanes: three named", l.used, 3);
	CHECK("lanes: no overlap reported", !over, "%s", "");
}

/* GPU processes: one pid per device, outside real pids, the tool's byte in the middle. */
static void test_gpus(const char *path)
{
	__u32 a, b;

	timeline_open(path);
	a = timeline_gpu("card0");
	b = timeline_gpu("card1");
	CHECK("a GPU's pid is never a real pid", a >> 24 == 0x7f && (a >> 16 & 0xff) != 0,
	      "0x%x", a);
	CHECK("each GPU its own pid, in order", b == a + 1, "0x%x, 0x%x", a, b);
	CHECK("a GPU seen again, its pid again", timeline_gpu("card0") == a, "%s", "");
	timeline_close();
	CHECK("each GPU named once", python_ok(path, "[x['args']['name'] for x in e if x['name'] == 'process_name'] == "
					      "['GPU card0', 'GPU card1']"), "%s", read_all(path));
}

int main(void)
{
	char path[] = "/tmp/timeline-test.XXXXXX";
	static const char *const keys[] = { "job", "n" };
	int fd = mkstemp(path);

	close(fd);
	CHECK("open", timeline_open(path) == 0, "%s", "");
	CHECK("on once open", timeline_on(), "%s", "");
	CHECK("close", timeline_close() == 0, "%s", "");
	CHECK("nothing written: still a JSON array", python_ok(path, "e == []"), "%s", read_all(path));

	timeline_open(path);
	timeline_process(7, "a\"b\nc", 0);
	timeline_thread(7, 8, "t", 1);
	timeline_slice(7, 8, "job", "cat", 1234567, 2001, TIMELINE_ARGS(keys, CELL_S("1:2"), CELL_U(3)));
	timeline_instant(7, 8, "now", "cat", 5000, TIMELINE_NO_ARGS);
	timeline_counter(7, "queued", 6000, -1);
	timeline_flow(42, 7, 8, 1234567, 9, 9, 1236000);
	timeline_close();
	CHECK("a JSON array of 9 events", python_ok(path, "len(e) == 9"), "%s", read_all(path));
	CHECK("names escaped, exact", python_ok(path, "e[0]['args']['name'] == 'a\"b\\nc'"),
	      "%s", read_all(path));
	CHECK("a slice: ts and dur in microseconds, exact to the nanosecond; its args",
	      python_ok(path, "[x for x in e if x['ph'] == 'X'] == [{'ph': 'X', 'pid': 7, 'tid': 8, "
			"'name': 'job', 'cat': 'cat', 'ts': 1234.567, 'dur': 2.001, "
			"'args': {'job': '1:2', 'n': 3}}]"), "%s", read_all(path));
	CHECK("a flow: s and f with one id, f bound to the enclosing slice",
	      python_ok(path, "[(x['ph'], x['id'], x.get('bp')) for x in e if x['ph'] in 'sf'] == "
			"[('s', 42, None), ('f', 42, 'e')]"), "%s", read_all(path));
	CHECK("a counter", python_ok(path, "[x['args'] for x in e if x['ph'] == 'C'] == [{'value': -1}]"),
	      "%s", read_all(path));
	test_gpus(path);
	unlink(path);
	test_lanes();
	return check_failures;
}
