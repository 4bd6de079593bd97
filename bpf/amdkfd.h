/* SPDX-License-Identifier: GPL-2.0 */
/* amdkfd: the rows and records amdkfd.bpf.c and amdkfd.c share */
#ifndef AMDKFD_H
#define AMDKFD_H

#include "histogram.h"

#define COMM_LEN	16
#define MAX_ROWS	10240	/* (process, call) pairs; also errno rows */
#define ROW_BITS	14	/* their tables (rows.bpf.h): room, probes to spare */
#define MAX_PROCS	4096	/* processes with memory, queues, evictions or faults */
#define PROC_ROW_BITS	13
#define MAX_CALLS	10240	/* calls in flight: one per thread at most */
#define MAX_BOS		131072	/* allocations alive at once */
#define MAX_QUEUES	16384	/* queues alive at once */
#define MAX_PENDING	4096	/* evictions, migrations and faults not yet ended */

/*
 * The ioctl argument structs amdkfd decodes, as include/uapi/linux/kfd_ioctl.h
 * has them (a stable ABI; tests/unit/test_kfd_names.c checks every offset
 * against the header). Declared here so that neither side needs that header,
 * which includes libdrm's <drm/drm.h>.
 */
#define KFD_IOCTL_TYPE	'K'		/* AMDKFD_IOCTL_BASE */
#define KFD_NR_GET_VERSION	0x01
#define KFD_NR_CREATE_QUEUE	0x02
#define KFD_NR_DESTROY_QUEUE	0x03
#define KFD_NR_CREATE_EVENT	0x08
#define KFD_NR_DESTROY_EVENT	0x09
#define KFD_NR_SET_EVENT	0x0A
#define KFD_NR_RESET_EVENT	0x0B
#define KFD_NR_WAIT_EVENTS	0x0C
#define KFD_NR_ALLOC_MEMORY	0x16
#define KFD_NR_FREE_MEMORY	0x17
#define KFD_NR_MAP_MEMORY	0x18
#define KFD_NR_UNMAP_MEMORY	0x19
#define KFD_NR_IMPORT_DMABUF	0x1D
#define KFD_NR_SVM		0x20
#define KFD_NR_SET_XNACK_MODE	0x21

struct kfd_alloc_args {			/* ALLOC_MEMORY_OF_GPU */
	__u64 va_addr;
	__u64 size;
	__u64 handle;			/* out */
	__u64 mmap_offset;
	__u32 gpu_id;
	__u32 flags;
};

struct kfd_handle_args {		/* FREE_MEMORY_OF_GPU */
	__u64 handle;
};

struct kfd_map_args {			/* MAP/UNMAP_MEMORY_TO/FROM_GPU */
	__u64 handle;
	__u64 device_ids_array_ptr;
	__u32 n_devices;
	__u32 n_success;		/* out */
};

struct kfd_create_queue_args {		/* CREATE_QUEUE */
	__u64 ring_base_address;
	__u64 write_pointer_address;
	__u64 read_pointer_address;
	__u64 doorbell_offset;		/* out */
	__u32 ring_size;
	__u32 gpu_id;
	__u32 queue_type;
	__u32 queue_percentage;
	__u32 queue_priority;
	__u32 queue_id;			/* out */
	__u64 eop_buffer_address;
	__u64 eop_buffer_size;
	__u64 ctx_save_restore_address;
	__u32 ctx_save_restore_size;
	__u32 ctl_stack_size;
};

struct kfd_id_args {			/* DESTROY_QUEUE; DESTROY/SET/RESET_EVENT */
	__u32 id;
	__u32 pad;
};

struct kfd_create_event_args {		/* CREATE_EVENT */
	__u64 event_page_offset;
	__u32 event_trigger_data;
	__u32 event_type;
	__u32 auto_reset;
	__u32 node_id;
	__u32 event_id;			/* out */
	__u32 event_slot_index;
};

struct kfd_wait_events_args {		/* WAIT_EVENTS */
	__u64 events_ptr;
	__u32 num_events;
	__u32 wait_for_all;
	__u32 timeout;			/* ms */
	__u32 wait_result;		/* out: 0 complete, 1 timeout, 2 fail */
};

struct kfd_version_args {		/* GET_VERSION */
	__u32 major_version;
	__u32 minor_version;
};

struct kfd_import_dmabuf_args {		/* IMPORT_DMABUF */
	__u64 va_addr;
	__u64 handle;			/* out */
	__u32 gpu_id;
	__u32 dmabuf_fd;
};

struct kfd_svm_args {			/* SVM, its attributes not read */
	__u64 start_addr;
	__u64 size;
	__u32 op;
	__u32 nattr;
};

/* KFD_IOC_ALLOC_MEM_FLAGS_*: the kind of an allocation is its first such bit. */
#define KFD_MEM_FLAG_VRAM	(1u << 0)
#define KFD_MEM_FLAG_GTT	(1u << 1)
#define KFD_MEM_FLAG_USERPTR	(1u << 2)
#define KFD_MEM_FLAG_DOORBELL	(1u << 3)
#define KFD_MEM_FLAG_MMIO_REMAP	(1u << 4)

enum mem_kind { KIND_VRAM, KIND_GTT, KIND_USERPTR, KIND_DOORBELL, KIND_MMIO, KIND_OTHER,
		NR_KINDS };

/* The largest argument struct copied into a -e record; larger ones are cut. */
#define ARGS_MAX	96

/* ---- calls: ioctls, opens and closes of /dev/kfd ------------------------- */

enum call_op { OP_IOCTL, OP_OPEN, OP_CLOSE };

/*
 * Every key starts with a process: its pid, and when it started (STARTED()
 * of the kernel's start_time; 0 for a process only ever named by an SMI
 * event), which tells apart two processes the same pid served. 32 bits of
 * microseconds, so that the keys of every call stay 16 bytes.
 */
#define STARTED(start_time_ns) ((__u32)((start_time_ns) >> 10))

struct call_key {
	__u32 pid;
	__u16 op;
	__u16 raw;	/* 1: cmd is a raw command of another type */
	__u32 cmd;	/* OP_IOCTL: _IOC_NR for the KFD's own type 'K', else the raw cmd */
	__u32 started;
};

/* Per (process, call), since the start: counters only grow. */
struct call_stats {
	__u64 cgroup_id;
	__u64 calls;		/* returned while tracing */
	__u64 errors;		/* of them, returned < 0 */
	struct lat_hist lat;	/* entry -> return, in the -m unit */
	char comm[COMM_LEN];
};

struct err_key {
	struct call_key call;
	__u32 err;		/* the errno returned */
	__u32 pad;
};

struct err_stats {
	__u64 cgroup_id;
	__u64 count;
	char comm[COMM_LEN];
};

/* ---- memory, per (process, GPU, kind) ------------------------------------ */

struct mem_key {
	__u32 pid;
	__u32 gpu_id;
	__u32 kind;	/* enum mem_kind */
	__u32 started;
};

struct mem_stats {
	__u64 cgroup_id;
	__u64 allocs, alloc_bytes;	/* succeeded */
	__u64 frees, freed_bytes;	/* of allocations seen made */
	__u64 failed, failed_bytes;	/* allocations refused */
	__s64 live, live_bytes;		/* allocated while tracing, not freed */
	__u64 peak_bytes;
	char comm[COMM_LEN];
};

/* One allocation alive: by its handle, which the KFD gives per process. */
struct bo_key {
	__u32 pid;
	__u32 started;
	__u64 handle;
};

struct bo {
	__u64 size;
	__u64 ts_ns;
	__u32 gpu_id;
	__u32 flags;
};

/* ---- queues, per (process, GPU, type) ------------------------------------ */

struct queue_key {
	__u32 pid;
	__u32 gpu_id;
	__u32 type;	/* KFD_IOC_QUEUE_TYPE_* */
	__u32 started;
};

struct queue_stats {
	__u64 cgroup_id;
	__u64 created, destroyed, failed;
	__s64 alive;	/* created while tracing, not destroyed */
	char comm[COMM_LEN];
};

struct queue_id_key {
	__u32 pid;
	__u32 queue_id;
	__u32 started;
};

struct queue {
	__u32 gpu_id;
	__u32 type;
	__u64 ts_ns;
};

/* ---- what the KFD does to a process: evictions, SVM, faults --------------- */

#define NR_TRIGGERS	8	/* KFD_QUEUE_EVICTION_TRIGGER_*, the last one "other" */

struct proc_key {
	__u32 pid;
	__u32 started;
};

/*
 * Per process. comm: the task's, or where the kernel gives a pid only
 * (<= 6.12) the one it called the KFD with; empty if it never did.
 */
struct proc_stats {
	__u64 evictions, restores;
	__u64 evictions_by[NR_TRIGGERS];
	struct lat_hist restore_lat;	/* evict -> restore, in the -m unit */
	__u64 migrations, migrated_pages;	/* those that succeeded */
	__u64 migrations_failed;
	struct lat_hist migrate_lat;	/* migration start -> end */
	__u64 faults, write_faults, faults_migrated;
	struct lat_hist fault_lat;	/* GPU page fault start -> end */
	char comm[COMM_LEN];
};

/* An eviction, migration or fault not yet ended; the value is its start. */
struct pending_key {
	__u32 pid;
	__u32 kind;	/* PENDING_* */
	__u64 id;	/* the device (evictions), start page, faulting address */
	__u32 started;
	__u32 pad;
};
enum { PENDING_EVICT, PENDING_MIGRATE, PENDING_FAULT };

/* ---- -e records ----------------------------------------------------------- */

enum event_type {
	EV_IOCTL, EV_OPEN, EV_CLOSE,
	EV_EVICT, EV_RESTORE, EV_MIGRATE, EV_FAULT, EV_VMFAULT, EV_RESET,
	EV_EXIT,	/* a process followed exited (v[0]: its start time): no -e line */
};

struct amdkfd_event {
	__u64 ts_ns;
	__u64 cgroup_id;
	__u64 latency;		/* in the -m unit: the call, restore, migration, fault */
	__u64 dur_ns;		/* the same in ns, for --timeline; 0: not timed */
	__s64 ret;		/* a call's result */
	__u64 v[4];		/* by type: see amdkfd.bpf.c's emitters */
	__u32 type;		/* enum event_type */
	__u32 pid;
	__u32 tid;		/* the calling thread (calls) */
	__u32 pad;
	__u32 cmd;		/* EV_IOCTL: the raw command */
	__u32 args_len;		/* EV_IOCTL: bytes of args, the argument struct at return */
	char comm[COMM_LEN];	/* of the process concerned, when known */
	__u8 args[ARGS_MAX];
};

#endif /* AMDKFD_H */
