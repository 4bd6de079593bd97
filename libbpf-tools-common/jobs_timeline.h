/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --timeline for the tools that follow GPU jobs through a scheduler
 * (drmsched, amdgpucs): the jobs as a timeline (timeline.h). Per device a
 * GPU process, per ring one track (more, "RING #2"..., where jobs overlap
 * on a ring with room for several): a slice per job from run to done,
 * named by the process that submitted it, with its queue wait and
 * execution as arguments; a short slice on the submitting process's track
 * where it queued the job, and a flow arrow from there to the job's slice;
 * another from a job to the jobs that waited on its fence; a counter per
 * ring of the jobs queued and not yet run.
 *
 * Jobs are named by their finished fence, context:seqno, as the kernel's
 * trace shows them. Each call takes the event's time (CLOCK_MONOTONIC ns).
 */
#ifndef GPU_BPF_JOBS_TIMELINE_H
#define GPU_BPF_JOBS_TIMELINE_H

#include <linux/types.h>

#define JOBS_TIMELINE_MAX_RINGS 256	/* rings drawn; beyond, they share the last one's */

/* A ring: its index in the tool's ring table, its name and its device's. */
struct job_ring {
	__u32 index;
	const char *name, *dev;
};

/*
 * `extra`: the name of a number each job may carry from its queueing to
 * its slice's arguments (amdgpucs: "ibs"), or NULL.
 */
void jobs_timeline_init(const char *extra);

/* What a tool's record says of a job. */
enum job_step {
	JOB_NONE,	/* nothing the timeline draws */
	JOB_QUEUED,	/* queued by a process */
	JOB_DEP,	/* waits on a fence (the first one given is kept) */
	JOB_RAN,	/* handed to its ring */
	JOB_DONE,	/* its fence signalled: its slice is drawn */
};

struct job_event {
	__u64 context, seqno;	/* the job's finished fence */
	__u64 ts_ns;
	__u64 dep_context, dep_seqno;	/* JOB_DEP: the fence waited on */
	__u64 extra;		/* JOB_QUEUED: the job's number named at init */
	__u32 pid;		/* JOB_QUEUED: the process, and its name */
	const char *comm;
	struct job_ring ring;
};

void jobs_timeline_step(enum job_step step, const struct job_event *e);

/* At exit: what the timeline could not draw, said on stderr (and -j). */
void jobs_timeline_report(void);

#endif /* GPU_BPF_JOBS_TIMELINE_H */
