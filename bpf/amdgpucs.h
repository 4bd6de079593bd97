/* SPDX-License-Identifier: GPL-2.0 */
/* amdgpucs: records and table layouts shared by amdgpucs.bpf.c and amdgpucs.c */
#ifndef AMDGPUCS_H
#define AMDGPUCS_H

#include "histogram.h"

#define COMM_LEN	16
#define RING_NAME_LEN	16	/* amdgpu_ring.name */
#define JOB_ROW_BITS	16
#define MAX_JOBS	(1 << JOB_ROW_BITS)	/* submissions between their CS ioctl and their fence */
/* Rows for the whole session, in tables of twice as many (rows.bpf.h: probes to spare) */
#define MAX_ROWS	4096	/* (ring, process) rows; as many process rows */
#define ROW_BITS	13
#define MAX_BO_ROWS	1024	/* (process, domain) rows */
#define BO_ROW_BITS	11
#define MAX_BOS		65536	/* buffers whose creator is remembered (least recent go) */
#define MAX_IV_ROWS	1024	/* interrupt sources */
#define IV_ROW_BITS	11
#define MAX_RINGS	64
#define NR_PLACEMENTS	8	/* TTM placements amdgpu uses: system, tt, vram, priv, gds, gws, oa, doorbell */

enum amdgpucs_event_type {
	EV_SUBMIT,	/* amdgpu_cs_ioctl */
	EV_RUN,		/* amdgpu_sched_run_job */
	EV_DONE,	/* the gpu_scheduler done event of a submitted job */
	EV_BO_CREATE,	/* amdgpu_bo_create */
	EV_BO_MOVE,	/* amdgpu_bo_move */
	EV_VM_FLUSH,	/* amdgpu_vm_flush */
	EV_IV,		/* amdgpu_iv */
	EV_VM_MAP,	/* amdgpu_vm_bo_map */
	EV_VM_UNMAP,	/* amdgpu_vm_bo_unmap */
	NR_EVENT_TYPES,
};

/* A ring (its drm_gpu_scheduler), by index in the order first seen. */
struct ring_info {
	char name[RING_NAME_LEN];
	__u64 flushes;		/* amdgpu_vm_flush on it */
	__u8 excluded;		/* -r */
	__u8 pad[7];
};

struct row_key {
	__u32 ring;
	__u32 pid;
};

/* Per (ring, process): counters only grow; the frontend prints differences. */
struct row_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;	/* of the process, when its row was made */
	__u64 submits;
	__u64 ibs;
	__u64 runs;
	__u64 dones;
	struct lat_hist submit_run;	/* CS ioctl -> handed to the ring */
	struct lat_hist run_done;	/* handed to the ring -> fence signalled */
};

struct bo_key {
	__u32 pid;
	__u32 domain;	/* AMDGPU_GEM_DOMAIN_* preferred */
};

struct bo_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;	/* of the process, when its row was made */
	__u64 count;
	__u64 bytes;
	__u32 allowed;	/* AMDGPU_GEM_DOMAIN_* allowed, or-ed */
	__u32 pad;
	__u64 evictions;	/* of its buffers: VRAM -> GTT or system */
	__u64 evicted_bytes;
	__u64 visible_bytes;	/* created in VRAM with CPU access required: CPU-visible VRAM */
	__u64 misplaced;	/* created outside the preferred domain */
};

struct bo_owner {
	__u32 pid;
	__u32 domain;
	__u64 size;
};

/* Per process: its GPU virtual memory and BO lists. */
struct vm_stats {
	char comm[COMM_LEN];
	__u64 cgroup_id;	/* of the process, when its row was made */
	__u64 maps, mapped_bytes;	/* amdgpu_vm_bo_map */
	__u64 unmaps, unmapped_bytes;	/* amdgpu_vm_bo_unmap */
	__u64 updates;			/* amdgpu_vm_bo_update: page-table updates */
	__u64 lists;			/* amdgpu_cs_bo_status: BO lists created */
	__u64 list_entries, list_bytes;	/* amdgpu_bo_list_set: buffers put on BO lists */
};

#define GPU_PAGE_SIZE	4096	/* AMDGPU_GPU_PAGE_SIZE: mappings' start and last */

struct iv_key {
	__u32 client_id;
	__u32 src_id;
	__u32 ring_id;
	__u32 vmid;
	__u32 pasid;
};

struct move_stats {
	__u64 count;
	__u64 bytes;
};

struct amdgpucs_event {
	__u64 ts_ns;
	__u64 context;		/* job's fence; bo: its address */
	__u64 seqno;
	__u64 value;		/* latency (hist units), bytes, or pd_addr */
	__u32 type;
	__u32 ring;
	__u32 pid;
	__u32 a, b, c, d, e;	/* num_ibs; domains; placements; iv client/src/ring/vmid/pasid */
	char comm[COMM_LEN];
};

#endif /* AMDGPUCS_H */
