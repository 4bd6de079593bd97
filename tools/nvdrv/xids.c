// SPDX-License-Identifier: GPL-2.0
/* nvdrv's Xids: nv_printf's reports parsed, and counted (xids.h). */
#include <stdio.h>
#include <string.h>

#include "xids.h"

struct xid_row xid_rows[MAX_XIDS];
int nr_xid_rows;
unsigned long long dropped_xids;

/*
 * The last Xid nv_printf reported, per thread: nv_log_error's (and the
 * tracepoint's, which it fires) of the same Xid follow it. Its pid and
 * name kept: the tracepoint's report has neither.
 */
static struct {
	__u32 tid, xid;
	bool matched;
	bool has_pid, has_name;
	char pid[XID_STR_LEN], name[XID_STR_LEN];
} last_print;

static bool from_tracepoint;

void xids_from_tracepoint(bool on)
{
	from_tracepoint = on;
}

/* The thread's nv_printf of this Xid, not yet matched: its pid and name into *r. */
static bool match_print(__u32 tid, __u32 xid, struct xid_report *r)
{
	if (last_print.tid != tid || last_print.xid != xid || last_print.matched)
		return false;
	last_print.matched = true;
	if (r) {
		r->pid = last_print.has_pid ? last_print.pid : NULL;
		r->name = last_print.has_name ? last_print.name : NULL;
	}
	return true;
}

/*
 * Which argument of nv_printf's format is which: the first three
 * conversions are the PCI domain, bus and device; the one after "): " the
 * Xid; then pid=%s, name=%s and the message. Argument i (after the format)
 * is in an integer register for i < 4, else in stack slot i - 4.
 */
static bool parse_xid_print(const struct nvdrv_event *e, struct xid_report *r)
{
	const char *p = e->xid.fmt, *conv_start;
	__u64 val;
	int arg = 0, pci = 0;
	bool got_xid = false;

	memset(r, 0, sizeof(*r));
	while ((p = strchr(p, '%')) && arg < 4 + XID_SLOTS) {
		conv_start = p++;
		if (*p == '%') {
			p++;
			continue;
		}
		while (*p && strchr("0123456789.-+ #lhzjt", *p))
			p++;
		if (!*p)
			break;
		val = arg < 4 ? e->xid.regs[arg] : e->xid.slots[arg - 4];
		if (*p == 's') {
			const char *s = arg >= 4 ? e->xid.str[arg - 4] : "?";

			if (conv_start - e->xid.fmt >= 4 && !strncmp(conv_start - 4, "pid=", 4))
				r->pid = s;
			else if (conv_start - e->xid.fmt >= 5 && !strncmp(conv_start - 5, "name=", 5))
				r->name = s;
			else if (r->name)
				r->msg = s;
		} else if (conv_start - e->xid.fmt >= 3 && !strncmp(conv_start - 3, "): ", 3)) {
			r->xid = (__u32)val;
			got_xid = true;
		} else if (pci < 3 && !got_xid) {
			r->gpu |= pci == 0 ? ((__u32)val & 0xffff) << 16 : ((__u32)val & 0xff) << (pci == 1 ? 8 : 0);
			pci++;
		}
		p++;
		arg++;
	}
	return got_xid;
}

static void xid_count(const struct xid_report *r)
{
	struct xid_row *x = NULL;
	int i;

	for (i = 0; i < nr_xid_rows; i++)
		if (xid_rows[i].gpu == r->gpu && xid_rows[i].xid == r->xid)
			x = &xid_rows[i];
	if (!x) {
		if (nr_xid_rows == MAX_XIDS) {
			dropped_xids++;
			return;
		}
		x = &xid_rows[nr_xid_rows++];
		x->gpu = r->gpu;
		x->xid = r->xid;
	}
	x->count++;
	/* "" when the report had none: '-' in the text, null in JSON. */
	snprintf(x->pid, sizeof(x->pid), "%s", r->pid ? r->pid : "");
	snprintf(x->name, sizeof(x->name), "%s", r->name ? r->name : "");
	snprintf(x->msg, sizeof(x->msg), "%s", r->msg ? r->msg : "");
}

/*
 * The tracepoint's dev, pci_name() of the GPU: "DDDD:BB:SS.F", into the
 * (domain, bus, slot) nv_printf's reports give. 0 for a name of another form.
 */
static __u32 gpu_of_pci_name(const char *name)
{
	unsigned int domain, bus, slot, fn;

	if (sscanf(name, "%x:%x:%x.%x", &domain, &bus, &slot, &fn) != 4)
		return 0;
	return (domain & 0xffff) << 16 | (bus & 0xff) << 8 | (slot & 0xff);
}

bool xid_event(const struct nvdrv_event *e, struct xid_report *r)
{
	if (e->type == EV_XID_TP) {
		memset(r, 0, sizeof(*r));
		r->gpu = gpu_of_pci_name(e->xtp.dev);
		r->xid = e->xtp.xid;
		r->msg = e->xtp.msg;
		/* After the thread's nv_printf of it: the pid and name that line gave. */
		match_print(e->tid, r->xid, r);
	} else if (e->type == EV_XID_PRINT) {
		if (!parse_xid_print(e, r))
			return false;
		last_print.tid = e->tid;
		last_print.xid = r->xid;
		last_print.matched = false;
		last_print.has_pid = r->pid;
		last_print.has_name = r->name;
		snprintf(last_print.pid, sizeof(last_print.pid), "%s", r->pid ? r->pid : "");
		snprintf(last_print.name, sizeof(last_print.name), "%s", r->name ? r->name : "");
		/* The tracepoint reports it: counted there. */
		if (from_tracepoint)
			return false;
	} else {
		/* nv_log_error after the thread's nv_printf of the same Xid: counted. */
		if (match_print(e->tid, e->xlog.xid, NULL))
			return false;
		memset(r, 0, sizeof(*r));
		r->gpu = e->xlog.gpu;
		r->xid = e->xlog.xid;
	}
	xid_count(r);
	return true;
}
