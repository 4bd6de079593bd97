// SPDX-License-Identifier: GPL-2.0
/* Calls a process never returned from (unfinished.h). */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "apitrace.h"
#include "apitrace/funcs.h"
#include "apitrace/unfinished.h"
#include "maps.h"
#include "output.h"
#include "table.h"
#include "untrusted.h"

/* How it ended: "killed by SIGSEGV (core dumped)", "exited with status 1". */
static const char *how_ended(__u32 code, char *buf, size_t size)
{
	int sig = code & 0x7f;
	const char *name = sig ? sigabbrev_np(sig) : NULL;

	if (!sig)
		snprintf(buf, size, "exited with status %u", (code >> 8) & 0xff);
	else if (name)
		snprintf(buf, size, "killed by SIG%s%s", name, code & 0x80 ? " (core dumped)" : "");
	else
		snprintf(buf, size, "killed by signal %d%s", sig, code & 0x80 ? " (core dumped)" : "");
	return buf;
}

enum { UF_PID, UF_COMM, UF_ENDED, UF_INDENT, UF_TID, UF_FUNC, UF_IN_CALL, NR_UF_COLS };

static const struct column unfinished_cols[NR_UF_COLS] = {
	[UF_PID] = { "", "pid", 0, COL_JSON_ONLY },
	[UF_COMM] = { "", "comm", 0, COL_JSON_ONLY },
	[UF_ENDED] = { "", "ended", 0, COL_JSON_ONLY },
	[UF_INDENT] = { "", "", 1, COL_TEXT_ONLY },
	[UF_TID] = { "TID", "tid", -7, 0 },
	[UF_FUNC] = { "FUNCTION", "function", -26, 0 },
	[UF_IN_CALL] = { "IN CALL(s)", "in_call_s", 10, 0 },	/* entry -> the process's end */
};
/* Lines of an event, the process's end: JSON's "ts" is its time, not a summary's. */
static const struct table unfinished_table = EVENT_TABLE("unfinished", unfinished_cols);

void report_unfinished(struct bpf_map *inflight, __u32 pid, const char *comm, __u32 exit_code,
		       __u64 now)
{
	FILE *f = summary_stream();
	struct map_snapshot s;
	char ended[64];
	size_t i, n = 0;

	if (map_snapshot(inflight, &s))
		return;
	how_ended(exit_code, ended, sizeof(ended));
	for (i = 0; i < s.n; i++) {
		const struct inflight_key *k = snapshot_key(&s, i);
		const struct inflight *c = snapshot_value(&s, i);

		if (c->pid != pid)
			continue;
		if (!n++) {
			text_printf(f, "PID %u (%s) %s inside:\n", pid, text_safe(comm), ended);
			table_header(f, &unfinished_table);
		}
		table_event(f, &unfinished_table, (struct cell[]){
			CELL_U(pid), CELL_S(comm), CELL_S(ended), CELL_S(""), CELL_U(k->tid),
			CELL_S(func_name(k->func)),
			CELL_F(seconds_since(c->ts, now), 3) }, now);
		bpf_map__delete_elem(inflight, k, sizeof(*k), 0);
	}
	map_snapshot_free(&s);
	if (n)
		fflush(f);
}
