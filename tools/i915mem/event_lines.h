/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i915mem -e: one line per event, its DETAIL in words in text, its fields
 * by the event's kind in JSON (null where they do not apply).
 */
#ifndef I915MEM_EVENT_LINES_H
#define I915MEM_EVENT_LINES_H

#include "i915mem.h"
#include "table.h"

extern const struct table event_table;

/* The line of `e` on stdout, its time since tracing began. */
void print_event(const struct i915mem_event *e);

#endif /* I915MEM_EVENT_LINES_H */
