/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Xids, reported in user space from the driver's tracepoint (EV_XID_TP:
 * 575 and later), else from nv_printf's arguments (EV_XID_PRINT) or
 * nv_log_error's (EV_XID_LOG), counted per (GPU, Xid) in every mode.
 */
#ifndef NVDRV_XIDS_H
#define NVDRV_XIDS_H

#include <stdbool.h>

#include "nvdrv.h"

#define MAX_XIDS 256

/* One (GPU, Xid): its count, the count at the last summary, the last report's strings ("": none). */
struct xid_row {
	__u32 gpu, xid;
	unsigned long long count, prev;
	char pid[XID_STR_LEN], name[XID_STR_LEN], msg[XID_MSG_LEN];
};

extern struct xid_row xid_rows[MAX_XIDS];
extern int nr_xid_rows;
extern unsigned long long dropped_xids;	/* beyond MAX_XIDS rows */

/*
 * One Xid: the strings NULL when the report had none (nv_log_error's
 * never; the tracepoint's pid and name those of the thread's nv_printf of
 * the same Xid just before, where there was one).
 */
struct xid_report {
	__u32 gpu, xid;
	const char *pid, *name, *msg;
};

/*
 * Xids come from the driver's tracepoint (575 and later): nv_printf's
 * reports only lend it the pid and name they give, and are not counted.
 */
void xids_from_tracepoint(bool on);

/* The events that report an Xid. */
static inline bool is_xid_event(__u32 type)
{
	return type == EV_XID_PRINT || type == EV_XID_LOG || type == EV_XID_TP;
}

/*
 * An EV_XID_PRINT, EV_XID_LOG or EV_XID_TP event: counted, and *r filled (its strings
 * point into e), when it is an Xid of its own; false when it is not (a
 * message that is no Xid, or nv_log_error after the thread's nv_printf of
 * the same Xid).
 */
bool xid_event(const struct nvdrv_event *e, struct xid_report *r);

#endif /* NVDRV_XIDS_H */
