/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915mem --timeline: the GPU memory each process holds, as a counter track
 * of its process on the timeline (timeline.h): "DRIVER live bytes", raised
 * at each object it creates, lowered when one of its objects is destroyed
 * (by whoever), as -e's CREATE and DESTROY lines say. Objects created
 * before tracing began are not counted.
 */
#ifndef I915MEM_TIMELINE_H
#define I915MEM_TIMELINE_H

#include "i915mem.h"

/* One -e record (any type), in the order the ring buffer hands them over. */
void i915mem_timeline_event(const struct i915mem_event *e, const char *driver);

/* At exit: the processes not drawn (more than the table holds), on stderr. */
void i915mem_timeline_report(void);

#endif /* I915MEM_TIMELINE_H */
