// SPDX-License-Identifier: GPL-2.0
/* GPU jobs on their rings' tracks (jobs_timeline.h). */
#include <stdio.h>
#include <string.h>

#include "jobs_timeline.h"
#include "table.h"
#include "timeline.h"

#define JOB_TABLE_BITS	16	/* jobs remembered from queue to done, and after */
#define COMM_MAX	16

/* A job from its queue event on; kept after done for the jobs that waited on it. */
struct job_times {
	__u64 context, seqno;
	__u64 queued_ns, run_ns, done_ns;
	__u64 dep_context, dep_seqno;	/* the fence it waited on (one) */
	__u64 extra;
	__u32 pid;
	__u32 track_pid, track_tid;	/* its slice, once done */
	char comm[COMM_MAX];
	__u8 used, has_dep, drawn;
};

static struct job_times jobs[1 << JOB_TABLE_BITS];
static struct timeline_lanes lanes[JOBS_TIMELINE_MAX_RINGS];
static long long waiting[JOBS_TIMELINE_MAX_RINGS];	/* queued and not yet run, per ring */
static unsigned long long collisions, overlapped_jobs;
static __u64 next_flow = 1;
static const char *extra_key;

void jobs_timeline_init(const char *extra)
{
	extra_key = extra;
}

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

static __u32 ring_of(struct job_ring r)
{
	return r.index < JOBS_TIMELINE_MAX_RINGS ? r.index : JOBS_TIMELINE_MAX_RINGS - 1;
}

/* A ring's lane: its own track, tid = ring * lanes + lane + 1. */
static __u32 lane_tid(__u32 ring, int lane)
{
	return ring * TIMELINE_MAX_LANES + lane + 1;
}

static void count_waiting(struct job_ring r, __u64 ts_ns, int change)
{
	char what[64];

	snprintf(what, sizeof(what), "%s queued", r.name);
	waiting[ring_of(r)] += change;
	timeline_counter(timeline_gpu(r.dev), what, ts_ns, waiting[ring_of(r)]);
}

static void on_queued(const struct job_event *e)
{
	struct job_times *j = slot_of(e->context, e->seqno);
	char what[64];

	if (j->used && !j->done_ns)
		collisions++;	/* a job still in flight loses its slice */
	*j = (struct job_times){ .context = e->context, .seqno = e->seqno, .queued_ns = e->ts_ns,
				 .pid = e->pid, .extra = e->extra, .used = 1 };
	snprintf(j->comm, sizeof(j->comm), "%s", e->comm);
	timeline_task(e->pid, e->comm, e->pid, e->comm);
	/* 1 ns: a slice for the flow to start from, never overlapping the next. */
	snprintf(what, sizeof(what), "queue %s", e->ring.name);
	timeline_slice(e->pid, e->pid, what, "submit", e->ts_ns, 1, TIMELINE_NO_ARGS);
	count_waiting(e->ring, e->ts_ns, +1);
}

static void on_dep(const struct job_event *e)
{
	struct job_times *j = find(e->context, e->seqno);

	if (j && !j->has_dep) {
		j->has_dep = 1;
		j->dep_context = e->dep_context;
		j->dep_seqno = e->dep_seqno;
	}
}

static void on_ran(const struct job_event *e)
{
	struct job_times *j = find(e->context, e->seqno);

	if (!j || j->run_ns)
		return;		/* queued before tracing began */
	j->run_ns = e->ts_ns;
	count_waiting(e->ring, e->ts_ns, -1);
}

/* The job's track: the first lane of its ring free at its start, named when new. */
static __u32 job_track(struct job_ring r, const struct job_times *j, __u32 gpu)
{
	__u32 ring = ring_of(r);
	int lanes_before = lanes[ring].used, lane;
	bool overlapped = false;
	char track[80];

	lane = timeline_lane(&lanes[ring], j->run_ns, j->done_ns, &overlapped);
	overlapped_jobs += overlapped;
	if (lanes[ring].used > lanes_before) {
		if (lane)
			snprintf(track, sizeof(track), "%s #%d", r.name, lane + 1);
		else
			snprintf(track, sizeof(track), "%s", r.name);
		timeline_thread(gpu, lane_tid(ring, lane), track, ring * TIMELINE_MAX_LANES + lane);
	}
	return lane_tid(ring, lane);
}

static void on_done(const struct job_event *e)
{
	const char *keys[] = { "job", "pid", "wait_us", "exec_us", "waited_on", extra_key };
	struct job_times *j = find(e->context, e->seqno), *dep;
	char job[48], dep_name[48] = "";
	__u32 gpu;

	if (!j || !j->run_ns || j->drawn)
		return;
	j->done_ns = e->ts_ns;
	gpu = timeline_gpu(e->ring.dev);
	j->track_pid = gpu;
	j->track_tid = job_track(e->ring, j, gpu);
	j->drawn = 1;
	snprintf(job, sizeof(job), "%llu:%llu", (unsigned long long)j->context,
		 (unsigned long long)j->seqno);
	if (j->has_dep)
		snprintf(dep_name, sizeof(dep_name), "%llu:%llu", (unsigned long long)j->dep_context,
			 (unsigned long long)j->dep_seqno);
	timeline_slice(gpu, j->track_tid, j->comm, "job", j->run_ns, j->done_ns - j->run_ns,
		       (struct timeline_args){ keys, (const struct cell[]){
				CELL_S(job), CELL_U(j->pid),
				CELL_F((j->run_ns - j->queued_ns) / 1e3, 3),
				CELL_F((j->done_ns - j->run_ns) / 1e3, 3),
				j->has_dep ? CELL_S(dep_name) : CELL_NONE, CELL_U(j->extra) },
			       extra_key ? 6 : 5 });
	timeline_flow(next_flow++, j->pid, j->pid, j->queued_ns, gpu, j->track_tid, j->run_ns);
	/* The job it waited on, if that one was drawn: from its end to this start. */
	dep = j->has_dep ? find(j->dep_context, j->dep_seqno) : NULL;
	if (dep && dep->drawn && dep->done_ns > dep->run_ns)
		timeline_flow(next_flow++, dep->track_pid, dep->track_tid, dep->done_ns - 1, gpu,
			      j->track_tid, j->run_ns);
}

void jobs_timeline_step(enum job_step step, const struct job_event *e)
{
	static void (*const on[])(const struct job_event *) = {
		[JOB_QUEUED] = on_queued, [JOB_DEP] = on_dep, [JOB_RAN] = on_ran,
		[JOB_DONE] = on_done,
	};

	if (timeline_on() && step > JOB_NONE && step <= JOB_DONE)
		on[step](e);
}

void jobs_timeline_report(void)
{
	report_lost("timeline_jobs", collisions, 1 << JOB_TABLE_BITS, "--timeline: %llu jobs "
		    "not drawn (more than %d in flight)", collisions, 1 << JOB_TABLE_BITS);
	report_lost("timeline_overlaps", overlapped_jobs, TIMELINE_MAX_LANES, "--timeline: %llu "
		    "jobs drawn over others (more than %d at once on a ring)", overlapped_jobs,
		    TIMELINE_MAX_LANES);
}
