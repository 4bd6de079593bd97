/* SPDX-License-Identifier: GPL-2.0 */
/*
 * drmsched --timeline: the jobs as a Perfetto timeline (timeline.h). Per
 * device a GPU process, per ring one track (more, "RING #2"..., where jobs
 * overlap on a ring with room for several): a slice per job from run to
 * done, named by the process that submitted it, with its queue wait and
 * execution as arguments; a flow arrow from the submitting process's
 * track, where it queued the job, to the job's slice, and from a job to
 * the jobs that waited on its fence; a counter per ring of the jobs
 * queued and not yet run.
 */
#ifndef DRMSCHED_JOBS_TIMELINE_H
#define DRMSCHED_JOBS_TIMELINE_H

#include "drmsched.h"

/* The names of an event's ring and process, as the text shows them. */
struct job_names {
	const char *dev, *ring, *comm;
};

/* One -e record (any type), in the order the ring buffer hands them over. */
void jobs_timeline_event(const struct drmsched_event *e, struct job_names names);

/* At exit: what the timeline could not draw, said on stderr. */
void jobs_timeline_report(void);

#endif /* DRMSCHED_JOBS_TIMELINE_H */
