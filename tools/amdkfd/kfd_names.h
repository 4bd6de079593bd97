/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names amdkfd prints for KFD's numbers, as linux/kfd_ioctl.h spells
 * them without their prefixes: ioctls (AMDKFD_IOC_GET_VERSION is
 * "GET_VERSION"), allocation flags, queue and event types, and the triggers
 * of the SMI events' evictions and migrations. The tables (kfd_names.c) are
 * generated from the newest header by tools/amdkfd/gen-names; the numbers
 * are ABI, so they name every older KFD's values too.
 */
#ifndef AMDKFD_KFD_NAMES_H
#define AMDKFD_KFD_NAMES_H

#include <stddef.h>

/* The highest ioctl number the tables know: AMDKFD_COMMAND_END - 1. */
extern const unsigned int kfd_ioctl_nr_max;

/* An ioctl by its _IOC_NR: "GET_VERSION" (0x01), "SVM" (0x20); NULL when unknown. */
const char *kfd_ioctl_name(unsigned int nr);

/*
 * KFD_IOC_ALLOC_MEM_FLAGS_* joined by '|' ("VRAM|WRITABLE"), unknown bits
 * last as one "0x...", "0" for none. Returns the length of the whole string,
 * as snprintf() does, even when buf (len bytes, always terminated) is shorter.
 */
int kfd_alloc_flags_str(char *buf, size_t len, unsigned int flags);

/* One KFD_IOC_ALLOC_MEM_FLAGS_* bit's name ("GTT"), or NULL. */
const char *kfd_alloc_flags_name(unsigned int bit);

/*
 * An allocation's memory kind: the first of the header's memory types
 * (VRAM, GTT, USERPTR, DOORBELL, MMIO_REMAP) set in flags, else "OTHER".
 */
const char *kfd_alloc_kind(unsigned int flags);

/* KFD_IOC_QUEUE_TYPE_*: "COMPUTE", "SDMA", "COMPUTE_AQL"...; NULL when unknown. */
const char *kfd_queue_type_name(unsigned int t);

/* KFD_IOC_EVENT_*: "SIGNAL", "NODECHANGE", "HW_EXCEPTION"...; NULL when unknown. */
const char *kfd_event_type_name(unsigned int t);

/*
 * enum KFD_QUEUE_EVICTION_TRIGGERS (kfd_smi_event_queue_eviction()'s
 * trigger): "SVM", "USERPTR", "TTM", "SUSPEND", "CRIU_CHECKPOINT",
 * "CRIU_RESTORE"; NULL when unknown.
 */
const char *kfd_eviction_trigger_name(unsigned int t);

/*
 * enum KFD_MIGRATE_TRIGGERS (the migration events' trigger): "PREFETCH",
 * "PAGEFAULT_GPU", "PAGEFAULT_CPU", "TTM_EVICTION"; NULL when unknown.
 */
const char *kfd_migrate_trigger_name(unsigned int t);

#endif /* AMDKFD_KFD_NAMES_H */
