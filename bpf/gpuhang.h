/* SPDX-License-Identifier: GPL-2.0 */
/* gpuhang: the incidents, rows and flight recorder gpuhang.bpf.c and gpuhang.c share */
#ifndef GPUHANG_H
#define GPUHANG_H

#include <linux/types.h>

#include "nv_xid.h"

#define COMM_LEN	16
#define NAME_LEN	32	/* a ring's, a device's, a driver's name */
#define MAX_RINGS	64	/* schedulers (rings) over a run */
#define RING_BITS	7
#define MAX_DEVS	16	/* devices, each with a flight recorder */
#define DEV_BITS	5
#define MAX_JOBS	8192	/* jobs in flight */
#define JOB_ROW_BITS	14
#define MAX_CULPRITS	1024	/* (ring, kind, comm) incident counts */
#define CULPRIT_BITS	11
#define RECORDER_SLOTS	64	/* a device's last jobs kept; -n at most this */
#define RECORDER_DEFAULT 16
/* Jobs on the hardware a recovery's count walks: more than any ring's credits. */
#define MAX_PENDING	256

/* What happened: an incident (the kinds before HANG_STOP), or a step of its recovery. */
enum hang_kind {
	HANG_TIMEOUT,		/* the scheduler's timer found a job past its time */
	HANG_FAULT,		/* the driver reported a fault (drm_sched_fault) */
	HANG_WEDGED,		/* the driver's wedged event (drm_dev_wedged_event) */
	HANG_RESET,		/* a GPU reset when done (amdgpu), an engine's (xe's GuC) */
	HANG_PAGEFAULT,		/* a GPU page fault: of a VM (amdgpu), killing a queue (xe) */
	HANG_COREDUMP,		/* a device coredump the kernel keeps (devcoredump) */
	HANG_XID,		/* an NVIDIA Xid: an error the GPU's resource manager reports */
	HANG_STOP,		/* recovery: the scheduler stopped, with its bad job */
	HANG_KARMA,		/* recovery: a job blamed (its karma raised) */
	HANG_RESUBMIT,		/* recovery: the jobs on the hardware run again */
	HANG_RECOVERED,		/* recovery: the scheduler started again */
	NR_HANG_KINDS,
};

/* What a RESET reset. */
enum reset_scope {
	RESET_GPU,		/* the whole device (amdgpu_device_gpu_recover), i915's GT */
	RESET_ENGINE,		/* the engine of one context (xe: its GuC did) */
};

/* A job: who submitted it and when it was queued, run and done (0: not yet). */
struct job_info {
	__u64 context;		/* its finished fence: the job's name, as drmsched's */
	__u64 seqno;
	__u64 queued_ns;
	__u64 run_ns;
	__u64 done_ns;
	__u64 cgroup_id;
	__u32 pid;
	__u32 ring;		/* the rings row of its scheduler */
	__s32 error;		/* its finished fence's error when done */
	__u32 wanted;		/* its submitter passes -p/-c/--cgroup */
	char comm[COMM_LEN];
};

/* A job in flight: its info and where the flight recorder holds its copy. */
struct job_row {
	struct job_info info;
	__u64 recorded;		/* its recorder position + 1 (0: none) */
	__u32 dev;		/* the devs row of that recorder */
	__u32 pad;
};

/* A ring (a drm_gpu_scheduler): its names, its device, its incidents so far. */
struct ring_state {
	char name[NAME_LEN];
	char dev_name[NAME_LEN];
	char driver[NAME_LEN];	/* its device's */
	__u32 dev;		/* its devs row (its recorder) */
	__u32 fault;		/* drm_sched_fault() since the last timeout */
	__u32 wanted;		/* its last incident passed -p/-c/--cgroup: so does its recovery */
	__u32 failed;		/* the reset under way failed (i915: its GT wedged) */
	__u64 stop_ns;		/* recovery under way since (0: none) */
	__u64 incident_ns;	/* its incident under way since (0: none) */
	__u32 incident;		/* the number of its last incident (of all rings') */
	__u32 pad;
	/* counters, for the summary and --prometheus */
	__u64 timeouts;
	__u64 faults;
	__u64 recoveries;
	__u64 resubmitted;
	__u64 lost;
	__u64 out_ns;		/* stop -> start, summed */
	__u64 out_max_ns;
};

/* A device's flight recorder: the last jobs queued on its rings. */
struct dev_state {
	__u64 head;		/* jobs recorded so far: the next goes to head % RECORDER_SLOTS */
	__u32 last_incident;	/* the number of its last incident (0: none) */
	__u32 wedged_incident;	/* the incident its last wedged event belonged to */
	__u32 dump_incident;	/* the incident its last coredump belonged to */
	__u32 pad;
	struct job_info reset_job;	/* the job of the GPU reset under way, as it was at its start */
	struct job_info recorded[RECORDER_SLOTS];
};

/* Incidents per ring, kind and the comm of their guilty job's submitter. */
struct culprit_key {
	__u32 ring;
	__u32 kind;
	char comm[COMM_LEN];
};

struct culprit_stats {
	__u64 incidents;
};

/* One per incident and per recovery step; an incident's own carries the recorder. */
struct gpuhang_event {
	__u64 ts_ns;
	__u32 kind;
	__u32 ring;		/* its rings row */
	__u32 incident;		/* the incident this is or belongs to: 1, 2, ... */
	__u32 resubmitted;	/* RECOVERED: jobs run again */
	__u32 lost;		/* RECOVERED: jobs ended without running again */
	__u32 recovery;		/* WEDGED: the recovery the device needs, DRM_WEDGE_RECOVERY_* bits;
				 * RESET: its cause, enum AMDGPU_RESET_SRCS + 1 (0: not known) */
	__s32 result;		/* RESET: the reset's return (0, or -errno) */
	__u32 scope;		/* RESET: enum reset_scope */
	__u64 out_ns;		/* RECOVERED: stop (or the incident) -> start; RESET: its time */
	__u64 head;		/* TIMEOUT, FAULT, WEDGED: the recorder's position */
	__u64 dump_bytes;	/* COREDUMP: its size */
	char dump[16];		/* COREDUMP: its name in /sys/class/devcoredump ("devcd3") */
	__u64 address;		/* PAGEFAULT (amdgpu): the address faulted on */
	__u32 status;		/* ... the VM hub's fault status register */
	__u32 vmhub;		/* ... the VM hub + 1 (0: no address known) */
	struct job_info job;	/* the job blamed (context 0: none known); WEDGED: the task named;
				 * XID: the process the report names */
	union {
		/* TIMEOUT, FAULT, and the others when incidents of their own, only */
		struct job_info recorded[RECORDER_SLOTS];
		struct nv_xid xid;	/* XID */
	};
};

/* A rings row as the frontend looks one up by index (rows.bpf.h's struct rings_row). */
struct ring_row {
	__u64 match;
	__u64 sched;
	struct ring_state s;
};

/* The size of an event without the recorder; of an Xid's. */
#define GPUHANG_STEP_SIZE ((unsigned long)&((struct gpuhang_event *)0)->recorded)
#define GPUHANG_XID_SIZE (GPUHANG_STEP_SIZE + sizeof(struct nv_xid))

#endif /* GPUHANG_H */
