// SPDX-License-Identifier: GPL-2.0
/* Per-call lines (calls.h). */
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "apitrace/builds.h"
#include "apitrace/calls.h"
#include "apitrace/funcs.h"
#include "opts.h"
#include "table.h"
#include "timeline.h"

static const char *memcpy_kind(__u32 kind, char *buf, size_t size)
{
	static const char *const kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default" };

	if (kind < sizeof(kinds) / sizeof(kinds[0]))
		return kinds[kind];
	snprintf(buf, size, "%u", kind);
	return buf;
}

/*
 * DETAIL's key=value words are fields of their own in JSON (null where the
 * call has none); addresses (ptr, handle, stream) are hex strings there as
 * in the text: JSON numbers are doubles to most readers, exact to 2^53 only.
 */
enum {
	EV_TIME, EV_PID, EV_TID, EV_COMM, EV_FUNC, EV_BYTES, EV_LAT, EV_RESULT, EV_CODE,
	EV_DETAIL, EV_PTR, EV_KERNEL, EV_HANDLE, EV_GRID_X, EV_GRID_Y, EV_GRID_Z, EV_BLOCK_X,
	EV_BLOCK_Y, EV_BLOCK_Z, EV_SHMEM, EV_STREAM, EV_KIND, EV_LOG, EV_CGROUP, NR_EV_COLS
};

static const struct column event_cols[NR_EV_COLS] = {
	[EV_TIME] = { "TIME(s)", "time_s", -10, 0 },
	[EV_PID] = PID_COLUMN,
	[EV_TID] = { "TID", "tid", -7, 0 },
	[EV_COMM] = { "COMM", "comm", -16, 0 },
	[EV_FUNC] = { "FUNCTION", "function", -26, 0 },
	[EV_BYTES] = { "BYTES", "bytes", 12, 0 },
	[EV_LAT] = { "LAT", "lat", 10, COL_TIME },
	[EV_RESULT] = { "RESULT", "result", -28, 0 },
	[EV_CODE] = { "", "code", 0, COL_JSON_ONLY },
	[EV_DETAIL] = { "DETAIL", "", 0, COL_TEXT_ONLY },
	[EV_PTR] = { "", "ptr", 0, COL_JSON_ONLY },
	[EV_KERNEL] = { "", "kernel", 0, COL_JSON_ONLY },
	[EV_HANDLE] = { "", "handle", 0, COL_JSON_ONLY },
	[EV_GRID_X] = { "", "grid_x", 0, COL_JSON_ONLY },
	[EV_GRID_Y] = { "", "grid_y", 0, COL_JSON_ONLY },
	[EV_GRID_Z] = { "", "grid_z", 0, COL_JSON_ONLY },
	[EV_BLOCK_X] = { "", "block_x", 0, COL_JSON_ONLY },
	[EV_BLOCK_Y] = { "", "block_y", 0, COL_JSON_ONLY },
	[EV_BLOCK_Z] = { "", "block_z", 0, COL_JSON_ONLY },
	[EV_SHMEM] = { "", "shmem", 0, COL_JSON_ONLY },
	[EV_STREAM] = { "", "stream", 0, COL_JSON_ONLY },
	[EV_KIND] = { "", "kind", 0, COL_JSON_ONLY },
	[EV_LOG] = { "", "log", 0, COL_JSON_ONLY },	/* a build log's first line */
	[EV_CGROUP] = CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

/* Strings the cells of one event point to. */
struct event_strs {
	char comm[COMM_LEN];
	char bytes[24];
	char res[32];
	char kernel[KNAME_LEN + 32];
	char ptr[24];
	char kind[16];
	char handle[24];
	char stream[24];
	char log[KNAME_LEN];
	char detail[256];
};

/* The arguments worth showing: JSON fields, and DETAIL's key=value words. */
static void event_detail(const struct call_event *e, const char *kernel, struct cell *c,
			 struct event_strs *b)
{
	const struct api_func *f = func_info(e->func);
	const struct call_args *a = &e->a;
	char *buf = b->detail;
	size_t size = sizeof(b->detail);
	int n = 0, i;

	buf[0] = '\0';
	switch (f->cls) {
	case CL_ALLOC:
		if (!e->result)
			c[EV_PTR] = cell_hex(b->ptr, sizeof(b->ptr), a->addr);
		break;
	case CL_FREE:
		c[EV_PTR] = cell_hex(b->ptr, sizeof(b->ptr), a->addr);
		break;
	case CL_COPY:
		if (f->flags & CF_KIND)
			c[EV_KIND] = CELL_S(memcpy_kind(a->kind, b->kind, sizeof(b->kind)));
		break;
	case CL_LAUNCH:
	case CL_LAUNCH_EX:
	case CL_RT_LAUNCH:
	case CL_LAUNCH_ND:
	case CL_LAUNCH_ZE:
		snprintf(b->kernel, sizeof(b->kernel), "%s", kernel ? kernel : "?");
		c[EV_KERNEL] = CELL_S(b->kernel);
		for (i = 0; i < 3; i++) {
			c[EV_GRID_X + i] = CELL_U(a->grid[i]);
			c[EV_BLOCK_X + i] = CELL_U(a->block[i]);
		}
		c[EV_SHMEM] = CELL_U(a->shmem);
		c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);
		break;
	case CL_GET_FUNC:
		snprintf(b->kernel, sizeof(b->kernel), "%.*s", KNAME_LEN, e->name);
		c[EV_KERNEL] = CELL_S(b->kernel);
		if (!e->result)
			c[EV_HANDLE] = cell_hex(b->handle, sizeof(b->handle), a->addr);
		break;
	case CL_STREAM_CREATE:
		if (!e->result)
			c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);
		break;
	case CL_RETAIN:
		c[EV_PTR] = cell_hex(b->ptr, sizeof(b->ptr), a->addr);
		break;
	case CL_SET_GROUP:
		c[EV_HANDLE] = cell_hex(b->handle, sizeof(b->handle), a->addr);
		for (i = 0; i < 3; i++)
			c[EV_BLOCK_X + i] = CELL_U(a->block[i]);
		break;
	case CL_BUILD_LOG:
		if (e->name[0])
			c[EV_LOG] = CELL_S(build_log_line(e->name, sizeof(e->name), b->log,
							  sizeof(b->log)));
		break;
	}
	/* An object made (OpenCL's clCreate*), as its release will name it. */
	if (f->errcode_arg && !e->result && f->cls != CL_ALLOC && f->cls != CL_GET_FUNC)
		c[EV_HANDLE] = cell_hex(b->handle, sizeof(b->handle), a->addr);
	if (f->stream_arg)
		c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);

	/* The text: in this order, as the tests and awk scripts read it. */
	if (func_launches(e->func)) {
		snprintf(buf, size, "kernel=%s grid=%ux%ux%u block=%ux%ux%u shmem=%llu stream=%s",
			 b->kernel, a->grid[0], a->grid[1], a->grid[2], a->block[0], a->block[1],
			 a->block[2], (unsigned long long)a->shmem, b->stream);
	} else {
		if (c[EV_PTR].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "ptr=%s", b->ptr);
		if (c[EV_KIND].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "kind=%s", c[EV_KIND].s);
		if (c[EV_KERNEL].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "kernel=%s", b->kernel);
		if (c[EV_HANDLE].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "%shandle=%s", n ? " " : "", b->handle);
		if (c[EV_BLOCK_X].kind == CELL_U64 && (size_t)n < size)
			n += snprintf(buf + n, size - n, " block=%ux%ux%u", a->block[0], a->block[1],
				      a->block[2]);
		if (c[EV_STREAM].kind == CELL_STR && (size_t)n < size)
			n += snprintf(buf + n, size - n, "%sstream=%s", n ? " " : "", b->stream);
		/* Last: words of its own follow. */
		if (c[EV_LOG].kind == CELL_STR && (size_t)n < size)
			snprintf(buf + n, size - n, "%slog=%s", n ? " " : "", b->log);
	}
	if (!buf[0])
		snprintf(buf, size, "-");
	c[EV_DETAIL] = CELL_S(buf);
}

const struct table *call_table(void)
{
	return &event_table;
}

/* The cells of one call (false: not a function we know). */
static bool call_cells(const struct call_event *e, double time_s, const char *kernel,
		       struct cell c[NR_EV_COLS], struct event_strs *b)
{
	__u8 cls;
	int i;

	if (!func_info(e->func))
		return false;
	for (i = 0; i < NR_EV_COLS; i++)
		c[i] = CELL_NONE;
	cls = func_class(e->func);
	snprintf(b->comm, sizeof(b->comm), "%.*s", COMM_LEN - 1, e->comm);
	c[EV_TIME] = CELL_F(time_s, 6);
	c[EV_PID] = CELL_U(e->pid);
	c[EV_TID] = CELL_U(e->tid);
	c[EV_COMM] = CELL_S(b->comm);
	c[EV_FUNC] = CELL_S(func_name(e->func));
	if ((cls == CL_ALLOC || cls == CL_COPY) || (cls == CL_FREE && e->a.size))
		c[EV_BYTES] = CELL_U(e->a.size);
	c[EV_LAT] = CELL_F(ns_in_time_unit(e->lat_ns), 3);
	c[EV_RESULT] = CELL_S(func_result_name(e->func, e->result, b->res, sizeof(b->res)));
	c[EV_CODE] = func_result_code(e->func, e->result);
	event_detail(e, kernel, c, b);
	c[EV_CGROUP] = cell_cgroup(e->cgroup_id);
	return true;
}

void print_call(FILE *f, const struct call_event *e, double time_s, const char *kernel)
{
	struct cell c[NR_EV_COLS];
	struct event_strs b;

	if (call_cells(e, time_s, kernel, c, &b))
		table_event(f, &event_table, c, e->ts_ns);
}

void apitrace_timeline_event(const struct call_event *e, const char *kernel)
{
	/* The arguments -j gives a call, those it has. */
	static const int arg_cols[] = { EV_BYTES, EV_RESULT, EV_CODE, EV_PTR, EV_KERNEL, EV_HANDLE,
					EV_GRID_X, EV_GRID_Y, EV_GRID_Z, EV_BLOCK_X, EV_BLOCK_Y,
					EV_BLOCK_Z, EV_SHMEM, EV_STREAM, EV_KIND, EV_LOG, EV_CGROUP };
	const char *keys[sizeof(arg_cols) / sizeof(arg_cols[0])];
	struct cell c[NR_EV_COLS], vals[sizeof(arg_cols) / sizeof(arg_cols[0])];
	struct event_strs b;
	__u64 start = e->ts_ns - e->lat_ns;	/* the record is made at the return */
	char cat[32];
	int i, n = 0;

	if (!timeline_on() || !call_cells(e, 0, kernel, c, &b))
		return;
	for (i = 0; i < (int)(sizeof(arg_cols) / sizeof(arg_cols[0])); i++) {
		if (c[arg_cols[i]].kind == CELL_NA)
			continue;
		keys[n] = event_cols[arg_cols[i]].key;
		vals[n++] = c[arg_cols[i]];
	}
	timeline_task(e->pid, b.comm, e->tid, b.comm);
	snprintf(cat, sizeof(cat), "%s%s", family->category, e->result ? ",error" : "");
	timeline_slice(e->pid, e->tid, c[EV_FUNC].s, cat, start,
		       e->lat_ns, (struct timeline_args){ keys, vals, n });
	/* A failing call is marked where it returned, by its error's name. */
	if (e->result)
		timeline_instant(e->pid, e->tid, c[EV_RESULT].s, "error", e->ts_ns,
				 TIMELINE_NO_ARGS);
}
