// SPDX-License-Identifier: GPL-2.0
/* amdkfd --timeline (timeline.h). */
#include <stdio.h>
#include <linux/ioctl.h>

#include "amdkfd/kfd_names.h"
#include "amdkfd/timeline.h"
#include "output.h"
#include <timeline.h>

/*
 * The tracks of a process beside its threads: tids above any real one
 * (<= 2^22), one per queue id and one per kind of event.
 */
#define TRACK_QUEUE(id)	(0x7e000000u + (id))
#define TRACK_EVICTED	0x7e100000u
#define TRACK_SVM	0x7e100001u
#define TRACK_FAULTS	0x7e100002u

/* Queues alive, for their slices: created, not yet destroyed. */
#define MAX_OPEN_QUEUES 1024
static struct open_queue {
	__u32 pid, queue_id, gpu_id, type;
	__u64 start_ns;
	bool used;
} queues[MAX_OPEN_QUEUES];

static const char *const arg_keys[] = { "ret", "detail" };
static const char *const detail_key[] = { "detail" };

static void queue_slice(const struct open_queue *q, __u64 end_ns, const char *how)
{
	static const char *const keys[] = { "gpu", "type", "end" };
	const char *type = kfd_queue_type_name(q->type);
	char name[32];

	snprintf(name, sizeof(name), "queue %u", q->queue_id);
	timeline_track(q->pid, TRACK_QUEUE(q->queue_id), name, 10 + q->queue_id);
	timeline_slice(q->pid, TRACK_QUEUE(q->queue_id), type ? type : "queue", "queue",
		       q->start_ns, end_ns - q->start_ns,
		       TIMELINE_ARGS(keys, CELL_U(q->gpu_id), CELL_S(type ? type : "?"),
				     CELL_S(how)));
}

static void queue_created(const struct amdkfd_event *e)
{
	const struct kfd_create_queue_args *a = (const void *)e->args;
	int i;

	if (e->ret || e->args_len < sizeof(*a))
		return;
	for (i = 0; i < MAX_OPEN_QUEUES; i++) {
		if (queues[i].used)
			continue;
		queues[i] = (struct open_queue){ e->pid, a->queue_id, a->gpu_id, a->queue_type,
						 e->ts_ns, true };
		return;
	}
}

/* Queue `id` of pid destroyed at ts_ns (id -1: all of them, at its close). */
static void queues_ended(__u32 pid, long long id, __u64 ts_ns, const char *how)
{
	int i;

	for (i = 0; i < MAX_OPEN_QUEUES; i++) {
		struct open_queue *q = &queues[i];

		if (!q->used || q->pid != pid || (id >= 0 && q->queue_id != id))
			continue;
		queue_slice(q, ts_ns, how);
		q->used = false;
	}
}

static void call_slice(const struct amdkfd_event *e, const char *call, const char *detail)
{
	char ret[24];

	if (e->ret < 0)
		errno_name(-e->ret, ret, sizeof(ret));
	else
		snprintf(ret, sizeof(ret), "%lld", (long long)e->ret);
	timeline_slice(e->pid, e->tid, call, "call", e->ts_ns - e->dur_ns, e->dur_ns,
		       TIMELINE_ARGS(arg_keys, CELL_S(ret), CELL_S(detail)));
}

void amdkfd_timeline_event(const struct amdkfd_event *e, const char *comm, const char *call,
			   const char *detail)
{
	__u32 gpu;

	if (e->pid)
		timeline_process(e->pid, comm, 0);
	switch (e->type) {
	case EV_IOCTL:
	case EV_OPEN:
		timeline_thread(e->pid, e->tid, comm, 0);
		call_slice(e, call, detail);
		if (e->type == EV_IOCTL && _IOC_TYPE(e->cmd) == KFD_IOCTL_TYPE) {
			if (_IOC_NR(e->cmd) == KFD_NR_CREATE_QUEUE)
				queue_created(e);
			else if (_IOC_NR(e->cmd) == KFD_NR_DESTROY_QUEUE && !e->ret &&
				 e->args_len >= sizeof(struct kfd_id_args))
				queues_ended(e->pid, ((const struct kfd_id_args *)e->args)->id,
					     e->ts_ns, "destroyed");
		}
		break;
	case EV_CLOSE:
		timeline_thread(e->pid, e->tid, comm, 0);
		timeline_instant(e->pid, e->tid, "close", "call", e->ts_ns, TIMELINE_NO_ARGS);
		/* The KFD destroys a process's queues with it. */
		queues_ended(e->pid, -1, e->ts_ns, "closed");
		break;
	case EV_RESTORE:
		timeline_track(e->pid, TRACK_EVICTED, "queues evicted", 1);
		if (e->dur_ns)
			timeline_slice(e->pid, TRACK_EVICTED, "evicted", "eviction",
				       e->ts_ns - e->dur_ns, e->dur_ns, TIMELINE_NO_ARGS);
		break;
	case EV_EVICT:
		timeline_track(e->pid, TRACK_EVICTED, "queues evicted", 1);
		timeline_instant(e->pid, TRACK_EVICTED, "evict", "eviction", e->ts_ns,
				 TIMELINE_ARGS(detail_key, CELL_S(detail)));
		break;
	case EV_MIGRATE:
		timeline_track(e->pid, TRACK_SVM, "SVM migrations", 2);
		timeline_slice(e->pid, TRACK_SVM, "migrate", "svm", e->ts_ns - e->dur_ns, e->dur_ns,
			       TIMELINE_ARGS(detail_key, CELL_S(detail)));
		break;
	case EV_FAULT:
		timeline_track(e->pid, TRACK_FAULTS, "GPU page faults", 3);
		timeline_slice(e->pid, TRACK_FAULTS, "page fault", "fault", e->ts_ns - e->dur_ns,
			       e->dur_ns, TIMELINE_ARGS(detail_key, CELL_S(detail)));
		break;
	case EV_VMFAULT:
	case EV_RESET:
		gpu = timeline_gpu("KFD");
		timeline_track(gpu, gpu, "VM faults and resets", 0);
		timeline_instant(gpu, gpu, e->type == EV_VMFAULT ? "vm_fault" : "gpu_reset", "gpu",
				 e->ts_ns, TIMELINE_ARGS(detail_key, CELL_S(detail)));
		break;
	}
}

void amdkfd_timeline_end(__u64 end_ns)
{
	int i;

	if (!timeline_on())
		return;
	for (i = 0; i < MAX_OPEN_QUEUES; i++)
		if (queues[i].used)
			queues_ended(queues[i].pid, queues[i].queue_id, end_ns, "alive");
}
