/* SPDX-License-Identifier: GPL-2.0 */
/* drmsched: records and map layouts shared by drmsched.bpf.c and drmsched.c */
#ifndef DRMSCHED_H
#define DRMSCHED_H

#include "histogram.h"

#define RING_NAME_LEN	32
#define DEV_NAME_LEN	32
#define COMM_LEN	16

#define MAX_JOBS	16384	/* jobs queued or running at once */
#define MAX_RINGS	256
#define MAX_PROCS	1024	/* (pid, ring, client) rows per interval */
#define MAX_DEPS	1024	/* (ring, blocking fence context) rows per interval */
#define MAX_CONTEXTS	1024	/* fence context -> ring, to name what a job waited on */

enum drmsched_event_type {
	EV_QUEUE,	/* pushed to its entity by the submitting process */
	EV_RUN,		/* handed to the hardware */
	EV_DONE,	/* finished fence signalled */
	EV_DEP,		/* a dependency (<= 6.16: wait_dep; >= 6.17: add_dep) */
	EV_BLOCKED,	/* >= 6.17: the scheduler found that dependency unsignalled */
};

/* Per scheduler (ring): kept for the whole session. */
struct ring_info {
	char name[RING_NAME_LEN];
	char dev[DEV_NAME_LEN];
	__u8 excluded;		/* filtered out by -r / -d */
};

/* Per ring, per interval. */
struct ring_stats {
	__u64 queued;
	__u64 run;
	__u64 done;
	__u64 deps;
	__u64 blocked;
	__u64 untracked;	/* ran or finished but queued before tracing began */
	struct lat_hist wait;	/* queue -> run */
	struct lat_hist exec;	/* run -> done */
};

/* A job in flight, keyed by its struct drm_sched_fence address. */
struct job_info {
	__u64 sched;
	__u64 queued_ns;
	__u64 run_ns;
	__u64 client_id;
	__u32 pid;
	char comm[COMM_LEN];
};

struct proc_key {
	__u64 sched;
	__u64 client_id;
	__u32 pid;
	__u32 pad;
};

struct proc_stats {
	char comm[COMM_LEN];
	__u64 queued;
	__u64 done;
	__u64 wait_sum;		/* hist units */
	__u64 exec_sum;
};

struct dep_key {
	__u64 sched;		/* the waiting ring */
	__u64 context;		/* the fence context waited on */
};

struct dep_stats {
	__u64 deps;
	__u64 blocked;
	__u64 last_seqno;
};

struct drmsched_event {
	__u64 ts_ns;
	__u64 sched;
	__u64 context;		/* the job's finished fence */
	__u64 seqno;
	__u64 dep_context;	/* EV_DEP, EV_BLOCKED */
	__u64 dep_seqno;
	__u64 latency;		/* EV_RUN: queue wait; EV_DONE: execution; hist units */
	__u64 client_id;
	__u32 pid;
	__u32 type;
	char comm[COMM_LEN];
};

#endif /* DRMSCHED_H */
