/* SPDX-License-Identifier: GPL-2.0 */
/* i915mem: records and table layouts shared by i915mem.bpf.c and i915mem.c */
#ifndef I915MEM_H
#define I915MEM_H

#include "histogram.h"

#define COMM_LEN	16
#define OBJ_ROW_BITS	17
#define MAX_OBJECTS	(1 << OBJ_ROW_BITS)	/* GEM objects / BOs tracked at once */
#define PROC_ROW_BITS	12
#define MAX_PROCS	(1 << PROC_ROW_BITS)	/* (driver, process) rows, for the whole session */
#define NO_PROC		0xffffffffu	/* a gem_obj's proc when the table was full */
#define VM_ROW_BITS	12
#define MAX_VMS		(1 << VM_ROW_BITS)	/* address spaces, for the whole session */

enum gpu_driver {
	DRV_I915,
	DRV_XE,
	NR_DRIVERS,
};

enum i915mem_event_type {
	EV_CREATE,	/* i915_gem_object_create, xe_bo_create */
	EV_DESTROY,	/* i915_gem_object_destroy */
	EV_BIND,	/* i915_vma_bind, xe_vma_bind */
	EV_UNBIND,	/* i915_vma_unbind, xe_vma_unbind */
	EV_FAULT,	/* i915_gem_object_fault, xe_bo_cpu_fault */
	EV_PREAD,	/* i915_gem_object_pread */
	EV_PWRITE,	/* i915_gem_object_pwrite */
	EV_SHRINK,	/* i915_gem_shrink */
	EV_EVICT,	/* i915_gem_evict: make room for `size` bytes */
	EV_EVICT_NODE,	/* i915_gem_evict_node: clear one range */
	EV_EVICT_VM,	/* i915_gem_evict_vm: empty an address space */
	EV_VM_CREATE,	/* i915_ppgtt_create, xe_vm_create */
	EV_VM_FREE,	/* i915_ppgtt_release, xe_vm_free */
	EV_MOVE,	/* xe_bo_move: a BO moved between placements (VRAM, system) */
	NR_EVENT_TYPES,
};

/* fault kinds: i915's are GTT | WRITE bits; xe's CPU faults say neither */
#define FAULT_GTT	1	/* through the GTT aperture (else a CPU mmap) */
#define FAULT_WRITE	2
#define FAULT_CPU_ANY	4	/* xe_bo_cpu_fault: read or write, the driver does not say */
#define FAULT_GPU	5	/* xe_vma_pagefault */
#define NR_FAULT_KINDS	6

/*
 * The size of an object created before tracing, where nothing read said it:
 * the record path's unbind (its record has the binding's size, not the
 * object's). Printed as '-'.
 */
#define SIZE_UNKNOWN	((__u64)-1)

/* A GEM object (or xe BO) created while tracing, by its address. */
struct gem_obj {
	__u64 size;
	__u64 created_ns;
	__u32 pid;		/* the process that created it */
	__u32 proc;		/* its creator's row in `procs` (index), for the destroy */
	__u8 driver;
	__u8 preexisting;	/* created before tracing began: first seen unbound */
	__u8 unbound;		/* unbound since: its next bind is a rebind */
	__u8 pad[5];
};

struct proc_key {
	__u32 pid;
	__u32 driver;
};

/*
 * Per (driver, process). Counters only grow (the frontend prints the
 * difference since its last summary); peak is state. live and live_bytes
 * are the frontend's: created less destroyed (tools/i915mem.c, procs_live()).
 */
struct proc_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;	/* its cgroup when first seen (-C) */
	/* of the objects it created */
	__u64 created;
	__u64 created_bytes;
	__u64 destroyed;
	__u64 destroyed_bytes;
	__s64 live;
	__s64 live_bytes;
	__s64 peak_bytes;
	/* what it did (the process on the CPU when the event fired) */
	__u64 binds;
	__u64 unbinds;
	__u64 rebinds;		/* binds of objects that had been unbound before */
	__u64 faults[NR_FAULT_KINDS];	/* by fault kind */
	__u64 preads, pread_bytes;
	__u64 pwrites, pwrite_bytes;
};

/* Per address space (i915_address_space, xe_vm). */
struct vm_stats {
	char comm[COMM_LEN];	/* who created it (or first bound into it) */
	__u64 cgroup_id;	/* ... and its cgroup then (-C) */
	__u32 pid;
	__u32 driver;
	__u64 binds;
	__u64 unbinds;
	__u64 rebinds;
	__u64 bind_bytes;	/* bound, in all */
	__u64 evictions;	/* i915_gem_evict* on it */
	__u8 created_seen;	/* its creation was traced */
	__u8 freed;		/* its release was traced */
	__u16 pad;
	__u32 generation;	/* address spaces created at this address before it */
};

/* Per driver, for the whole session (the frontend prints differences). */
struct driver_stats {
	__u64 events[NR_EVENT_TYPES];	/* binds, unbinds: only those of no process row */
	__u64 evict_bytes;	/* i915_gem_evict: room asked for */
	__u64 evict_node_bytes;	/* i915_gem_evict_node: ranges cleared */
	__u64 shrink_pages;	/* i915_gem_shrink: target, in pages */
	__u64 move_bytes;	/* xe_bo_move: bytes of the BOs moved */
	__u64 untracked_destroys;	/* of objects created before tracing */
	/* __u64 like the rest: the frontend sums the CPUs' as __u64s (map_sum_percpu()) */
	__u64 size_slots[MAX_SLOTS];	/* created objects by log2(bytes) */
	__u64 life_slots[MAX_SLOTS];	/* create -> destroy, log2(us or ms) */
};

struct i915mem_event {
	__u64 ts_ns;
	__u64 obj;		/* object / BO (EV_SHRINK: 0) */
	__u64 vm;		/* address space (binds, evictions, vm events) */
	__u64 size;		/* bytes: object, binding, pread/pwrite, evict request */
	__u64 offset;		/* binding's GPU address, fault's page index, pread/pwrite offset */
	__u64 arg;		/* shrink: target pages; bind, evict: flags; move: new << 32 | old placement */
	__u32 pid;		/* the process on the CPU */
	__u32 creator;		/* the object's creator (0: unknown) */
	__u8 type;
	__u8 driver;
	__u8 fault_kind;
	__u8 rebind;		/* EV_BIND: the object had been unbound before */
	__u32 pad;
	__u64 cgroup_id;	/* of the process on the CPU (-C) */
	char comm[COMM_LEN];
};

#endif /* I915MEM_H */
