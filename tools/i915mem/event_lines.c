// SPDX-License-Identifier: GPL-2.0
/* i915mem -e: one line per event (event_lines.h). */
#include <stdio.h>
#include <unistd.h>

#include "i915mem.h"
#include "cgroup.h"
#include "opts.h"
#include "output.h"
#include "table.h"
#include "i915mem/event_lines.h"
#include "i915mem/leaks.h"
#include "i915mem/names.h"

/* Text: DETAIL says in words what JSON gives as fields (null where they do not apply). */
enum {
	EC_TIME, EC_DRIVER, EC_EVENT, EC_PID, EC_COMM, EC_OBJECT, EC_BYTES, EC_DETAIL,
	EC_CREATOR, EC_LIFE, EC_VM, EC_OFFSET, EC_FLAGS, EC_REBIND, EC_FAULT, EC_INDEX,
	EC_ADDRESS, EC_PLACEMENT, EC_FROM, EC_PAGES, EC_TARGET_BYTES, EC_CGROUP, NR_EC
};

static const struct column event_cols[NR_EC] = {
	[EC_TIME] = { "TIME(s)", "time_s", -11, 0 },
	[EC_DRIVER] = { "DRIVER", "driver", -6, 0 },
	[EC_EVENT] = { "EVENT", "event", -10, 0 },
	[EC_PID] = PID_COLUMN,		/* the process on the CPU */
	[EC_COMM] = { "COMM", "comm", -16, 0 },
	[EC_OBJECT] = { "OBJECT", "object", -18, 0 },
	[EC_BYTES] = { "BYTES", "bytes", 12, 0 },
	[EC_DETAIL] = { "DETAIL", "", 0, COL_TEXT_ONLY },
	[EC_CREATOR] = FIELD("creator"),		/* the object's creator, where known */
	[EC_LIFE] = { "", "life", 0, COL_JSON_ONLY | COL_TIME },	/* DESTROY */
	[EC_VM] = FIELD("vm"),				/* binds, evictions, VM_* */
	[EC_OFFSET] = FIELD("offset"),			/* GPU address of a binding; pread/pwrite */
	[EC_FLAGS] = FIELD("flags"),			/* BIND */
	[EC_REBIND] = FIELD("rebind"),			/* BIND: true if it had been unbound */
	[EC_FAULT] = FIELD("fault"),			/* FAULT: its kind */
	[EC_INDEX] = FIELD("index"),			/* FAULT (i915): page index */
	[EC_ADDRESS] = FIELD("address"),		/* FAULT (gpu): GPU address */
	[EC_PLACEMENT] = FIELD("placement"),		/* MOVE */
	[EC_FROM] = FIELD("from_placement"),
	[EC_PAGES] = FIELD("target_pages"),		/* SHRINK */
	[EC_TARGET_BYTES] = FIELD("target_bytes"),
	[EC_CGROUP] = CGROUP_COLUMN,			/* of the process on the CPU */
};
const struct table event_table = EVENT_TABLE("event", event_cols);

void print_event(const struct i915mem_event *e)
{
	char obj[24], vm[24], detail[96] = "";
	unsigned long long bytes;
	struct cell c[NR_EC];
	int i;

	for (i = 0; i < NR_EC; i++)
		c[i] = CELL_NONE;
	c[EC_TIME] = CELL_F(trace_seconds(e->ts_ns), 6);
	c[EC_DRIVER] = CELL_S(driver_names[e->driver % NR_DRIVERS]);
	c[EC_EVENT] = CELL_S(event_names[e->type]);
	c[EC_PID] = CELL_U(e->pid);
	c[EC_COMM] = CELL_S(e->comm);
	if (e->obj)
		c[EC_OBJECT] = cell_hex(obj, sizeof(obj), e->obj);
	c[EC_BYTES] = CELL_U_IF(e->size != SIZE_UNKNOWN, e->size);
	c[EC_CREATOR] = CELL_U_IF(e->creator, e->creator);
	c[EC_CGROUP] = cell_cgroup(e->cgroup_id);
	switch (e->type) {
	case EV_CREATE:
		break;
	case EV_DESTROY:
		snprintf(detail, sizeof(detail), "creator=%u life=%llu%s", e->creator,
			 (unsigned long long)e->arg, time_unit());
		c[EC_LIFE] = CELL_U(e->arg);
		break;
	case EV_BIND:
		snprintf(detail, sizeof(detail), "vm=0x%llx offset=0x%llx flags=0x%llx%s",
			 (unsigned long long)e->vm, (unsigned long long)e->offset,
			 (unsigned long long)e->arg, e->rebind ? " rebind" : "");
		c[EC_VM] = cell_hex(vm, sizeof(vm), e->vm);
		c[EC_OFFSET] = CELL_U(e->offset);
		c[EC_FLAGS] = CELL_U(e->arg);
		c[EC_REBIND] = CELL_B(e->rebind);
		break;
	case EV_UNBIND:
		snprintf(detail, sizeof(detail), "vm=0x%llx offset=0x%llx", (unsigned long long)e->vm,
			 (unsigned long long)e->offset);
		c[EC_VM] = cell_hex(vm, sizeof(vm), e->vm);
		c[EC_OFFSET] = CELL_U(e->offset);
		break;
	case EV_FAULT:
		if (e->fault_kind < NR_FAULT_KINDS && fault_names[e->fault_kind])
			c[EC_FAULT] = CELL_S(fault_names[e->fault_kind]);
		if (e->fault_kind == FAULT_GPU) {
			snprintf(detail, sizeof(detail), "gpu address=0x%llx",
				 (unsigned long long)e->offset);
			c[EC_ADDRESS] = CELL_U(e->offset);
		} else if (e->fault_kind == FAULT_CPU_ANY) {
			snprintf(detail, sizeof(detail), "cpu");
		} else {
			snprintf(detail, sizeof(detail), "%s %s index=%llu",
				 e->fault_kind & FAULT_GTT ? "gtt" : "cpu",
				 e->fault_kind & FAULT_WRITE ? "write" : "read",
				 (unsigned long long)e->offset);
			c[EC_INDEX] = CELL_U(e->offset);
		}
		break;
	case EV_MOVE:
		snprintf(detail, sizeof(detail), "placement=0x%llx from=0x%llx",
			 (unsigned long long)(e->arg >> 32), (unsigned long long)(e->arg & 0xffffffff));
		c[EC_PLACEMENT] = CELL_U(e->arg >> 32);
		c[EC_FROM] = CELL_U(e->arg & 0xffffffff);
		break;
	case EV_PREAD:
	case EV_PWRITE:
		snprintf(detail, sizeof(detail), "offset=%llu", (unsigned long long)e->offset);
		c[EC_OFFSET] = CELL_U(e->offset);
		break;
	case EV_SHRINK:
		bytes = e->arg * sysconf(_SC_PAGESIZE);
		snprintf(detail, sizeof(detail), "target=%llu pages (%llu bytes)",
			 (unsigned long long)e->arg, bytes);
		c[EC_PAGES] = CELL_U(e->arg);
		c[EC_TARGET_BYTES] = CELL_U(bytes);
		break;
	default:
		snprintf(detail, sizeof(detail), "vm=0x%llx", (unsigned long long)e->vm);
		c[EC_VM] = cell_hex(vm, sizeof(vm), e->vm);
	}
	if (detail[0])
		c[EC_DETAIL] = CELL_S(detail);
	table_event(stdout, &event_table, c, e->ts_ns);
}
