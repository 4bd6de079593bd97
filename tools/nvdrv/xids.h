/* SPDX-License-Identifier: GPL-2.0 */
/* Xids (EV_XID, nv_xid.h), counted per (GPU, Xid) in every mode. */
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

/* An EV_XID event: counted, and *r filled (its strings point into e). */
void xid_event(const struct nvdrv_event *e, struct xid_report *r);

#endif /* NVDRV_XIDS_H */
