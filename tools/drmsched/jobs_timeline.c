// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "drmsched/jobs_timeline.h"
#include "table.h"
#include "timeline.h"

#define JOB_TABLE_BITS	16	/* jobs remembered from queue to done, and after */

/* A job from its queue event on; kept after done for the jobs that waited on it. */
struct job_times {
	__u64 context, seqno;
	__u64 queued_ns, run_ns, done_ns;
	__u64 dep_context, dep_seqno;	/* the fence it waited on (one) */
	__u32 pid;
	__u32 track_pid, track_tid;	/* its slice, once done */
	__u8 used, has_dep, drawn;
};

static struct job_times jobs[1 << JOB_TABLE_BITS];
static struct timeline_lanes lanes[MAX_RINGS];
static long long waiting[MAX_RINGS];	/* queued and not yet run, per ring */
static unsigned long long collisions, overlapped_jobs;
static __u64 next_flow = 1;

/* Sequential seqnos of one context take consecutive slots. */
static struct job_times *slot_of(__u64 context, __u64 seqno)
{
	return &jobs[(seqno + context * 0x9e3779b1ULL) & ((1 << JOB_TABLE_BITS) - 1)];
}

static struct job_times *find(__u64 context, __u64 seqno)
{
	struct job_times *j = slot_of(context, seqno);

	return j->used && j->context == context && j->seqno == seqno ? j : NULL;
}

/* A ring's lane: its own track, tid = ring * lanes + lane + 1. */
static __u32 lane_tid(__u32 ring, int lane)
{
	return ring * TIMELINE_MAX_LANES + lane + 1;
}

static void on_queue(const struct drmsched_event *e, struct job_names n, __u32 ring)
{
	struct job_times *j = slot_of(e->context, e->seqno);
	char what[64];

	if (j->used && !j->done_ns)
		collisions++;	/* a job still in flight loses its slice */
	*j = (struct job_times){ .context = e->context, .seqno = e->seqno,
				 .queued_ns = e->ts_ns, .pid = e->pid, .used = 1 };
	timeline_task(e->pid, n.comm, e->pid, n.comm);
	/* 1 ns: a slice for the flow to start from, never overlapping the next. */
	snprintf(what, sizeof(what), "queue %s", n.ring);
	timeline_slice(e->pid, e->pid, what, "submit", e->ts_ns, 1, TIMELINE_NO_ARGS);
	snprintf(what, sizeof(what), "%s queued", n.ring);
	timeline_counter(timeline_gpu(TIMELINE_DRMSCHED, n.dev), what, e->ts_ns, ++waiting[ring]);
}

static void on_run(const struct drmsched_event *e, struct job_names n, __u32 ring)
{
	struct job_times *j = find(e->context, e->seqno);
	char what[64];

	if (!j)
		return;		/* queued before tracing began */
	j->run_ns = e->ts_ns;
	snprintf(what, sizeof(what), "%s queued", n.ring);
	timeline_counter(timeline_gpu(TIMELINE_DRMSCHED, n.dev), what, e->ts_ns, --waiting[ring]);
}

static void on_done(const struct drmsched_event *e, struct job_names n, __u32 ring)
{
	static const char *const keys[] = { "job", "pid", "wait_us", "exec_us", "waited_on" };
	struct job_times *j = find(e->context, e->seqno), *dep;
	bool overlapped = false;
	char job[48], dep_name[48] = "";
	int lane, lanes_before;
	__u32 pid;

	if (!j || !j->run_ns || j->drawn)
		return;
	j->done_ns = e->ts_ns;
	pid = timeline_gpu(TIMELINE_DRMSCHED, n.dev);
	lanes_before = lanes[ring].used;
	lane = timeline_lane(&lanes[ring], j->run_ns, j->done_ns, &overlapped);
	overlapped_jobs += overlapped;
	if (lanes[ring].used > lanes_before) {	/* a new track: name it */
		char track[RING_NAME_LEN + 8];

		if (lane)
			snprintf(track, sizeof(track), "%s #%d", n.ring, lane + 1);
		else
			snprintf(track, sizeof(track), "%s", n.ring);
		timeline_thread(pid, lane_tid(ring, lane), track, ring * TIMELINE_MAX_LANES + lane);
	}
	j->track_pid = pid;
	j->track_tid = lane_tid(ring, lane);
	j->drawn = 1;
	snprintf(job, sizeof(job), "%llu:%llu", (unsigned long long)j->context,
		 (unsigned long long)j->seqno);
	if (j->has_dep)
		snprintf(dep_name, sizeof(dep_name), "%llu:%llu", (unsigned long long)j->dep_context,
			 (unsigned long long)j->dep_seqno);
	timeline_slice(pid, j->track_tid, n.comm, "job", j->run_ns, j->done_ns - j->run_ns,
		       TIMELINE_ARGS(keys, CELL_S(job), CELL_U(j->pid),
				     CELL_F((j->run_ns - j->queued_ns) / 1e3, 3),
				     CELL_F((j->done_ns - j->run_ns) / 1e3, 3),
				     j->has_dep ? CELL_S(dep_name) : CELL_NONE));
	timeline_flow(next_flow++, j->pid, j->pid, j->queued_ns, pid, j->track_tid, j->run_ns);
	/* The job it waited on, if that one was drawn: from its end to this start. */
	dep = j->has_dep ? find(j->dep_context, j->dep_seqno) : NULL;
	if (dep && dep->drawn && dep->done_ns > dep->run_ns)
		timeline_flow(next_flow++, dep->track_pid, dep->track_tid, dep->done_ns - 1, pid,
			      j->track_tid, j->run_ns);
}

void jobs_timeline_event(const struct drmsched_event *e, struct job_names names)
{
	__u32 ring = e->ring % MAX_RINGS;
	struct job_times *j;

	if (!timeline_on())
		return;
	switch (e->type) {
	case EV_QUEUE:
		on_queue(e, names, ring);
		break;
	case EV_RUN:
		on_run(e, names, ring);
		break;
	case EV_DONE:
		on_done(e, names, ring);
		break;
	case EV_DEP:
		j = find(e->context, e->seqno);
		if (j && !j->has_dep) {
			j->has_dep = 1;
			j->dep_context = e->dep_context;
			j->dep_seqno = e->dep_seqno;
		}
		break;
	}
}

void jobs_timeline_report(void)
{
	report_lost("timeline_jobs", collisions, 1 << JOB_TABLE_BITS, "--timeline: %llu jobs "
		    "not drawn (more than %d in flight)", collisions, 1 << JOB_TABLE_BITS);
	report_lost("timeline_overlaps", overlapped_jobs, TIMELINE_MAX_LANES, "--timeline: %llu "
		    "jobs drawn over others (more than %d at once on a ring)", overlapped_jobs,
		    TIMELINE_MAX_LANES);
}
