// SPDX-License-Identifier: GPL-2.0
/* nvdrv's Xids, counted (xids.h). */
#include <stdio.h>

#include "xids.h"

struct xid_row xid_rows[MAX_XIDS];
int nr_xid_rows;
unsigned long long dropped_xids;

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

void xid_event(const struct nvdrv_event *e, struct xid_report *r)
{
	nv_xid_report(&e->xid, r);
	xid_count(r);
}
