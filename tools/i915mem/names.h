/* SPDX-License-Identifier: GPL-2.0 */
/* i915mem: its drivers, event types and fault kinds by name, as the text and JSON show them. */
#ifndef I915MEM_NAMES_H
#define I915MEM_NAMES_H

#include "i915mem.h"

extern const char *const driver_names[NR_DRIVERS];	/* "i915", "xe" */
extern const char *const event_names[NR_EVENT_TYPES];	/* "CREATE", ... */
extern const char *const fault_names[NR_FAULT_KINDS];	/* JSON's "fault": "cpu_read", ... */

#endif /* I915MEM_NAMES_H */
