/* SPDX-License-Identifier: GPL-2.0 */
/* template: the rows and records template.bpf.c and template.c share */
#ifndef TEMPLATE_H
#define TEMPLATE_H

#include "histogram.h"

#define COMM_LEN	16
#define MAX_ROWS	10240	/* (process, command) pairs over a run */
#define ROW_BITS	14	/* their table: room for MAX_ROWS, probes to spare */
#define MAX_CALLS	10240	/* ioctls in flight: one per thread at most */

struct ioctl_key {
	__u32 pid;
	__u32 cmd;
};

/* Per (process, command), since the start: counters only grow. */
struct ioctl_stats {
	__u64 cgroup_id;
	__u64 calls;		/* returned while tracing */
	__u64 errors;		/* of them, returned < 0 */
	struct lat_hist lat;	/* entry -> return, in the -m unit */
	char comm[COMM_LEN];
};

/* -e and --timeline: one per call, at its return. */
struct template_event {
	__u64 ts_ns;
	__u64 cgroup_id;
	__u64 latency;		/* in the -m unit */
	__u64 lat_ns;		/* the same in ns: the timeline's slice */
	__s64 ret;
	__u32 pid;
	__u32 tid;
	__u32 cmd;
	__u32 fd;
	char comm[COMM_LEN];
};

#endif /* TEMPLATE_H */
