// SPDX-License-Identifier: GPL-2.0
/* i915mem's names for its drivers, events and fault kinds (names.h). */
#include "i915mem/names.h"

const char *const driver_names[NR_DRIVERS] = { [DRV_I915] = "i915", [DRV_XE] = "xe" };

const char *const event_names[NR_EVENT_TYPES] = {
	[EV_CREATE] = "CREATE", [EV_DESTROY] = "DESTROY", [EV_BIND] = "BIND",
	[EV_UNBIND] = "UNBIND", [EV_FAULT] = "FAULT", [EV_PREAD] = "PREAD",
	[EV_PWRITE] = "PWRITE", [EV_SHRINK] = "SHRINK", [EV_EVICT] = "EVICT",
	[EV_EVICT_NODE] = "EVICT_NODE", [EV_EVICT_VM] = "EVICT_VM", [EV_VM_CREATE] = "VM_CREATE",
	[EV_VM_FREE] = "VM_FREE", [EV_MOVE] = "MOVE",
};

/* The JSON "fault" of each fault kind. */
const char *const fault_names[NR_FAULT_KINDS] = {
	[0] = "cpu_read", [FAULT_WRITE] = "cpu_write", [FAULT_GTT] = "gtt_read",
	[FAULT_GTT | FAULT_WRITE] = "gtt_write", [FAULT_CPU_ANY] = "cpu", [FAULT_GPU] = "gpu",
};
