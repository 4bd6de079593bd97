/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvdrv -e: one line per event, its DETAIL text and JSON fields by the
 * event's kind; and the same event on --timeline.
 */
#ifndef NVDRV_EVENT_LINES_H
#define NVDRV_EVENT_LINES_H

#include "nvdrv.h"
#include "table.h"
#include "xids.h"

extern const struct table event_table;

/*
 * The line of `e` on stdout, its time since tracing began; `xr` the Xid
 * of an EV_XID event (xid_event()'s).
 */
void print_event(const struct nvdrv_event *e, const struct xid_report *xr);

/*
 * --timeline: e on the timeline. A process's ioctls, opens and mmaps are
 * slices on its thread's track (an ioctl named by its escape and RM class
 * or command), closes, faults and p2p calls instants there; interrupts,
 * bottom halves and Xids instants on the GPU's tracks. -j's fields are the
 * arguments; a failing call is marked by an instant named by its RM status
 * or errno. Here rather than in a timeline.c: its names and arguments are
 * the -e line's cells, made by the same code.
 */
void nvdrv_timeline_event(const struct nvdrv_event *e, const struct xid_report *xr);

#endif /* NVDRV_EVENT_LINES_H */
