// SPDX-License-Identifier: GPL-2.0
/* nvdrv -e: one line per event (event_lines.h), formatted by the event's kind. */
#include <stdarg.h>
#include <stdio.h>

#include "event_lines.h"
#include "nvidia_names.h"
#include "opts.h"
#include "output.h"
#include "timeline.h"

static const char *const event_names[NR_EVENT_TYPES] = {
	[EV_OPEN] = "OPEN", [EV_CLOSE] = "CLOSE", [EV_IOCTL] = "IOCTL", [EV_MMAP] = "MMAP",
	[EV_FAULT] = "FAULT", [EV_ISR] = "ISR", [EV_BH] = "BH", [EV_P2P] = "P2P",
	[EV_XID] = "XID", [EV_POWER] = "POWER",
	[EV_VMA_COPY] = "VMCOPY", [EV_VMA_RELEASE] = "UNMAP",
};

/* The DETAIL text holds what the JSON fields after it hold, for grep. */
static const struct column event_cols[] = {
	{ "TIME(s)", "time_s", -11, 0 },
	{ "EVENT", "event", -6, 0 },
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "DETAIL", "", 0, COL_TEXT_ONLY },
	{ "", "device", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "escape", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "esc", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xfer", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "size", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "object", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "status", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "status_name", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "ret", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "error", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "bytes", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "lat", 0, COL_JSON_ONLY | COL_SPARSE | COL_TIME },
	{ "", "gpu", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "kind", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "irq", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "function", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "va", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid_pid", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "xid_name", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "meaning", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "message", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "state", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "depth", 0, COL_JSON_ONLY | COL_SPARSE },
	{ "", "cycle", 0, COL_JSON_ONLY | COL_SPARSE | COL_TIME },
};
const struct table event_table = EVENT_TABLE("event", event_cols);

enum {
	F_DEVICE = 5, F_ESCAPE, F_ESC, F_XFER, F_SIZE, F_OBJECT, F_STATUS, F_STATUS_NAME, F_RET,
	F_ERROR, F_BYTES, F_LAT, F_GPU, F_KIND, F_IRQ, F_FUNCTION, F_VA, F_XID, F_XID_PID,
	F_XID_NAME, F_MEANING, F_MESSAGE, F_STATE, F_DEPTH, F_CYCLE, NR_F,
};

/* A line being made: its cells, its DETAIL text, and the strings they point to. */
struct line {
	struct cell c[NR_F];
	char detail[320];
	size_t len;
	char dev[64], esc[32], ebuf[16], gpu[32], fn[48];
};

static void detail(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void detail(struct line *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->detail))
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->detail + l->len, sizeof(l->detail) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += n;
}

/* "ret=-22 EINVAL" or "ret=0". */
static void put_ret(struct line *l, long long ret)
{
	l->c[F_RET] = CELL_I(ret);
	if (ret < 0 && ret > -4096) {
		l->c[F_ERROR] = CELL_S(errno_name(-ret, l->ebuf, sizeof(l->ebuf)));
		detail(l, " ret=%lld %s", ret, l->c[F_ERROR].s);
	} else {
		detail(l, " ret=%lld", ret);
	}
}

/* A latency (the event's nanoseconds) in the time unit, whole as the histograms count it. */
static void put_time(struct line *l, int field, const char *name, unsigned long long ns)
{
	unsigned long long t = ns / (common_env.msecs ? 1000000 : 1000);

	l->c[field] = CELL_U(t);
	detail(l, " %s=%llu%s", name, t, time_unit_short());
}

static void put_lat(struct line *l, const char *name, unsigned long long lat_ns)
{
	put_time(l, F_LAT, name, lat_ns);
}

/* " status=0x1f NV_ERR_INVALID_ARGUMENT": the RM's answer. */
static void put_status(struct line *l, __u32 status)
{
	const char *sname = nv_status_name(status);

	l->c[F_STATUS] = CELL_U(status);
	if (sname)
		l->c[F_STATUS_NAME] = CELL_S(sname);
	detail(l, " status=0x%x%s%s", status, sname ? " " : "", sname ? sname : "");
}

/* OPEN, CLOSE, MMAP, FAULT, VMCOPY, UNMAP: a device node's. */
static void file_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	l->c[F_DEVICE] = CELL_S(dev_name(e->file.dev, l->dev, sizeof(l->dev)));
	detail(l, "dev=%s", l->c[F_DEVICE].s);
	if (e->type == EV_MMAP || e->type == EV_VMA_COPY || e->type == EV_VMA_RELEASE) {
		l->c[F_BYTES] = CELL_U(e->file.bytes);
		detail(l, " bytes=%llu", (unsigned long long)e->file.bytes);
	}
	if (e->type == EV_OPEN || e->type == EV_MMAP) {
		put_ret(l, e->file.ret);
		put_lat(l, "lat", e->file.lat_ns);
	}
}

static void ioctl_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	l->c[F_DEVICE] = CELL_S(dev_name(e->ioctl.dev, l->dev, sizeof(l->dev)));
	l->c[F_ESCAPE] = CELL_S(nv_escape_str(e->ioctl.esc, l->esc, sizeof(l->esc)));
	l->c[F_ESC] = CELL_U(nv_escape_nr(e->ioctl.esc));
	if (e->ioctl.esc & NV_ESC_UVM) {
		/* A UVM command: its number is no _IOC, no size in it. */
		detail(l, "esc=%s(0x%x)", l->c[F_ESCAPE].s, nv_escape_nr(e->ioctl.esc));
	} else {
		l->c[F_XFER] = CELL_B(e->ioctl.xfer);
		l->c[F_SIZE] = CELL_U(e->ioctl.size);
		detail(l, "esc=%s(0x%x)%s size=%u", l->c[F_ESCAPE].s, e->ioctl.esc,
		       e->ioctl.xfer ? " xfer" : "", e->ioctl.size);
	}
	if (e->ioctl.has_obj && nv_escape_has_object(e->ioctl.esc)) {
		const char *oname = nv_object_name(e->ioctl.esc, e->ioctl.obj);

		l->c[F_OBJECT] = CELL_U(e->ioctl.obj);
		/* class=0xcb33(NV_CONFIDENTIAL_COMPUTE): one word, the name where known */
		detail(l, " %s=0x%x%s%s%s", e->ioctl.esc == NV_ESC_RM_ALLOC ? "class" : "cmd",
		       e->ioctl.obj, oname ? "(" : "", oname ? oname : "", oname ? ")" : "");
	}
	put_ret(l, e->ioctl.ret);
	if (e->ioctl.has_status)
		put_status(l, e->ioctl.status);
	put_lat(l, "lat", e->ioctl.lat_ns);
}

/* POWER: a transition of the whole driver, and the cycle a resume ends. */
static void power_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	l->c[F_STATE] = CELL_S(power_row_name(e->power.state));
	l->c[F_DEPTH] = CELL_S(pm_depth_name(e->power.depth));
	detail(l, "state=%s depth=%s", l->c[F_STATE].s, l->c[F_DEPTH].s);
	put_status(l, e->power.status);
	put_lat(l, "lat", e->power.lat_ns);
	if (e->power.cycle_ns)
		put_time(l, F_CYCLE, "cycle", e->power.cycle_ns);
}

/* ISR, BH: a top half, a bottom half. */
static void irq_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	l->c[F_GPU] = CELL_S(nv_gpu_name(e->irq.gpu, l->gpu, sizeof(l->gpu)));
	l->c[F_KIND] = CELL_S(e->type == EV_ISR ? irq_kind_name(e->irq.kind) : bh_kind_name(e->irq.kind));
	l->c[F_IRQ] = CELL_I((int)e->irq.irq);
	detail(l, "gpu=%s kind=%s irq=%d", l->gpu, l->c[F_KIND].s, (int)e->irq.irq);
	if (e->type == EV_BH && e->irq.lat_ns)
		put_lat(l, "top_to_bottom", e->irq.lat_ns);
}

static void p2p_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	snprintf(l->fn, sizeof(l->fn), "nvidia_p2p_%s", p2p_fn_name(e->p2p.fn));
	l->c[F_FUNCTION] = CELL_S(l->fn);
	l->c[F_BYTES] = CELL_U(e->p2p.bytes);
	detail(l, "fn=%s bytes=%llu", l->fn, (unsigned long long)e->p2p.bytes);
	if (e->p2p.va) {
		l->c[F_VA] = CELL_U(e->p2p.va);
		detail(l, " va=0x%llx", (unsigned long long)e->p2p.va);
	}
	put_ret(l, e->p2p.ret);
}

/* XID: the Xid the event reported. */
static void xid_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	const char *meaning = nv_xid_meaning(xr->xid);

	l->c[F_GPU] = CELL_S(nv_gpu_name(xr->gpu, l->gpu, sizeof(l->gpu)));
	l->c[F_XID] = CELL_U(xr->xid);
	if (xr->pid)
		l->c[F_XID_PID] = CELL_S(xr->pid);
	if (xr->name)
		l->c[F_XID_NAME] = CELL_S(xr->name);
	if (meaning)
		l->c[F_MEANING] = CELL_S(meaning);
	if (xr->msg)
		l->c[F_MESSAGE] = CELL_S(xr->msg);
	detail(l, "gpu=%s xid=%u (%s) pid=%s name=%s msg=%s", l->gpu, xr->xid, meaning ? meaning : "?",
	       xr->pid ? xr->pid : "-", xr->name ? xr->name : "-", xr->msg ? xr->msg : "-");
}

static void (*const line_of[NR_EVENT_TYPES])(struct line *, const struct nvdrv_event *,
					     const struct xid_report *) = {
	[EV_OPEN] = file_line, [EV_CLOSE] = file_line, [EV_MMAP] = file_line, [EV_FAULT] = file_line,
	[EV_IOCTL] = ioctl_line, [EV_ISR] = irq_line, [EV_BH] = irq_line, [EV_P2P] = p2p_line,
	[EV_XID] = xid_line, [EV_POWER] = power_line,
	[EV_VMA_COPY] = file_line, [EV_VMA_RELEASE] = file_line,
};

/* The cells of e's line. */
static void make_line(struct line *l, const struct nvdrv_event *e, const struct xid_report *xr)
{
	int i;

	for (i = 0; i < NR_F; i++)
		l->c[i] = CELL_NONE;
	l->detail[0] = '\0';
	l->len = 0;
	line_of[e->type](l, e, xr);
	l->c[0] = CELL_F(trace_seconds(e->ts_ns), 6);
	l->c[1] = CELL_S(event_names[e->type]);
	l->c[2] = CELL_U(e->pid);
	l->c[3] = CELL_S(e->comm);
	l->c[4] = CELL_S(l->detail);
}

void print_event(const struct nvdrv_event *e, const struct xid_report *xr)
{
	struct line l;

	make_line(&l, e, xr);
	table_event(stdout, &event_table, l.c, e->ts_ns);
}

/* ---- --timeline ---------------------------------------------------------------- */

/* The event's latency: a call's, from its entry; a bottom half's, from its top half. */
static __u64 lat_ns(const struct nvdrv_event *e)
{
	switch (e->type) {
	case EV_IOCTL:
		return e->ioctl.lat_ns;
	case EV_OPEN:
	case EV_MMAP:
		return e->file.lat_ns;
	case EV_BH:
		return e->irq.lat_ns;
	case EV_POWER:
		return e->power.lat_ns;
	default:
		return 0;
	}
}

static bool failed(const struct nvdrv_event *e)
{
	switch (e->type) {
	case EV_IOCTL:
		return e->ioctl.ret < 0 || (e->ioctl.has_status && e->ioctl.status);
	case EV_OPEN:
	case EV_MMAP:
		return e->file.ret < 0;
	case EV_P2P:
		return e->p2p.ret < 0;
	case EV_POWER:
		return e->power.status;
	default:
		return false;
	}
}

/* An ioctl by its escape and, for RM_ALLOC and RM_CONTROL, its class or command. */
static const char *ioctl_title(const struct nvdrv_event *e, const struct line *l, char *buf,
			       size_t size)
{
	const char *obj;

	if (!e->ioctl.has_obj || !nv_escape_has_object(e->ioctl.esc))
		return l->c[F_ESCAPE].s;
	obj = nv_object_name(e->ioctl.esc, e->ioctl.obj);
	if (obj)
		snprintf(buf, size, "%s %s", l->c[F_ESCAPE].s, obj);
	else
		snprintf(buf, size, "%s 0x%x", l->c[F_ESCAPE].s, e->ioctl.obj);
	return buf;
}

void nvdrv_timeline_event(const struct nvdrv_event *e, const struct xid_report *xr)
{
	const char *keys[NR_F];
	struct cell vals[NR_F];
	struct timeline_args args;
	char title[96];
	const char *name, *cat;
	/* A process's calls are slices; the GPU's events instants. */
	__u64 dur = e->type == EV_BH ? 0 : lat_ns(e);
	struct line l;
	__u32 pid, tid;
	int i, n = 0;

	if (!timeline_on())
		return;
	make_line(&l, e, xr);
	/* -j's fields of the event, those it has. */
	for (i = F_DEVICE; i < NR_F; i++) {
		if (l.c[i].kind == CELL_NA)
			continue;
		keys[n] = event_cols[i].key;
		vals[n++] = i == F_LAT ? CELL_F(lat_ns(e) / 1e3, 3) :
			    i == F_CYCLE ? CELL_F(e->power.cycle_ns / 1e3, 3) : l.c[i];
		if (i == F_LAT)
			keys[n - 1] = e->type == EV_BH ? "top_to_bottom_us" : "lat_us";
		if (i == F_CYCLE)
			keys[n - 1] = "cycle_us";
	}
	args = (struct timeline_args){ keys, vals, n };
	if (e->type == EV_IOCTL) {
		name = ioctl_title(e, &l, title, sizeof(title));
	} else if (e->type == EV_POWER) {
		snprintf(title, sizeof(title), "power %s", l.c[F_STATE].s);
		name = title;
	} else {
		name = event_names[e->type];
	}
	cat = failed(e) ? "nvidia,error" : "nvidia";
	switch (e->type) {
	case EV_ISR:
	case EV_BH:
	case EV_XID:
		/* The GPU's: on its own process, a track per kind of event. */
		pid = timeline_gpu(l.c[F_GPU].s);
		tid = e->type == EV_ISR ? 1 : e->type == EV_BH ? 2 : 3;
		timeline_track(pid, tid, e->type == EV_ISR ? "interrupts" : e->type == EV_BH ?
			       "bottom halves" : "Xids", tid);
		if (e->type == EV_XID) {
			snprintf(title, sizeof(title), "Xid %u", xr->xid);
			name = title;
		} else {
			name = l.c[F_KIND].s;
		}
		timeline_instant(pid, tid, name, cat, e->ts_ns, args);
		return;
	default:
		break;
	}
	timeline_task(e->pid, e->comm, e->tid, e->comm);
	if (dur)
		timeline_slice(e->pid, e->tid, name, cat, e->ts_ns - dur, dur, args);
	else
		timeline_instant(e->pid, e->tid, name, cat, e->ts_ns, args);
	/* A failing call is marked where it returned, by its error or RM status. */
	if (failed(e) && dur)
		timeline_instant(e->pid, e->tid, l.c[F_STATUS_NAME].kind == CELL_STR ?
				 l.c[F_STATUS_NAME].s : l.c[F_ERROR].kind == CELL_STR ?
				 l.c[F_ERROR].s : "error", "error", e->ts_ns, TIMELINE_NO_ARGS);
}
