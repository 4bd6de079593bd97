/* SPDX-License-Identifier: GPL-2.0 */
/* drmsched: records and table layouts shared by drmsched.bpf.c and drmsched.c */
#ifndef DRMSCHED_H
#define DRMSCHED_H

#include "histogram.h"

#define RING_NAME_LEN	32
#define DEV_NAME_LEN	32
#define COMM_LEN	16

#define JOB_ROW_BITS	16
#define MAX_JOBS	(1 << JOB_ROW_BITS)	/* job rows: jobs queued or running at once */
#define MAX_RINGS	256	/* schedulers, for the whole session */
#define MAX_PROCS	4096	/* (pid, ring, client) rows, for the whole session */
#define MAX_DEPS	1024	/* (ring, fence context) rows, for the whole session */
#define DEP_ROW_BITS	11	/* their table (rows.bpf.h): room, probes to spare */
#define MAX_CONTEXTS	1024	/* fence context -> ring, to name what a job waited on */
#define NO_PROC		0xffffffffu	/* the process table was full */

enum drmsched_event_type {
	EV_QUEUE,	/* pushed to its entity by the submitting process */
	EV_RUN,		/* handed to the hardware */
	EV_DONE,	/* finished fence signalled */
	EV_DEP,		/* a dependency (<= 6.16: wait_dep; >= 6.17: add_dep) */
	EV_BLOCKED,	/* >= 6.17: the scheduler found that dependency unsignalled */
};

/* A scheduler (ring), by its index; named on first sight, kept for the session. */
struct ring_info {
	char name[RING_NAME_LEN];
	char dev[DEV_NAME_LEN];
	__u64 sched;		/* struct drm_gpu_scheduler address */
	__u8 excluded;		/* filtered out by -r / -d */
	__u8 pad[7];
};

/*
 * Per ring, per interval. The queue, run and done events of one ring fire
 * on different CPUs at the same time (the submitting process, the
 * scheduler's thread, the fence's signaller): each group of counters has
 * cache lines of its own, or every CPU's atomic adds would wait for the
 * others' (false sharing; run cost twice queue and five times done).
 */
#define CACHE_LINE	64

struct ring_stats {
	/* written where jobs are queued (and, <= 6.16, their dependencies checked) */
	__u64 queued;
	__u64 deps;
	__u64 blocked;
	/* written where jobs are run */
	__u64 run __attribute__((aligned(CACHE_LINE)));
	__u64 untracked;	/* ran or finished but queued before tracing began */
	struct lat_hist wait;	/* queue -> run */
	/*
	 * Queue depth as each job ran, what the events record (job_count,
	 * hw_job_count): the jobs still queued behind it in its entity, and
	 * the jobs on the hardware (credits from 6.7), itself included.
	 */
	struct lat_hist waiting;
	struct lat_hist on_hw;
	/* written where jobs complete */
	__u64 done __attribute__((aligned(CACHE_LINE)));
	struct lat_hist exec;	/* run -> done */
} __attribute__((aligned(CACHE_LINE)));

/* A submitting process on one ring, by its index; kept for the session. */
struct proc_info {
	__u64 client_id;	/* DRM client (>= 6.17; 0 before) */
	__u64 cgroup_id;	/* at its first job */
	__u32 pid;
	__u32 ring;
	char comm[COMM_LEN];	/* at its first job */
};

/*
 * Per process row. The kernel side keeps each counter in an
 * array of its own (proc_queued[], proc_wait_sum[], proc_done[]: written on
 * different CPUs, see ring_stats); the frontend sums them up here.
 */
struct proc_stats {
	__u64 queued;
	__u64 done;
	__u64 wait_sum;		/* hist units */
	__u64 exec_sum;
};

struct proc_done_stats {
	__u64 done;
	__u64 exec_sum;
};

/*
 * Counters only grow: the frontend prints what they gained since the
 * summary before, so an update landing while it reads is counted in the
 * next summary, never lost.
 */
struct dep_key {
	__u32 ring;		/* the waiting ring */
	__u32 pad;
	__u64 context;		/* the fence context waited on */
};

struct dep_stats {
	__u64 deps;
	__u64 blocked;
	__u64 last_seqno;
};

/* -e records: 64 bytes, so a burst of 20000 jobs (4 records each) fits in 8 MiB. */
struct drmsched_event {
	__u64 ts_ns;
	__u64 context;		/* the job's finished fence */
	__u64 seqno;
	__u64 dep_context;	/* EV_DEP, EV_BLOCKED */
	__u64 dep_seqno;
	__u64 latency;		/* EV_RUN: queue wait; EV_DONE: execution; hist units */
	__u32 pid;
	__u32 proc;		/* proc_infos[] index (comm, client), or NO_PROC */
	__u16 ring;		/* ring_infos[] index */
	__u8 type;
	__u8 pad[5];
};

#endif /* DRMSCHED_H */
