/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdkfd --timeline: per process, its KFD calls on their threads, each
 * queue from its creation to its destruction, its queues' evictions until
 * restore, SVM migrations and GPU page faults, each on a track of its own;
 * VM faults and resets as instants on a "GPU KFD" process.
 */
#ifndef AMDKFD_TIMELINE_H
#define AMDKFD_TIMELINE_H

#include "amdkfd.h"

/*
 * One record, with --timeline: `comm` the process's name as -e prints it,
 * `call` a call's name (NULL for the rest), `detail` -e's DETAIL.
 */
void amdkfd_timeline_event(const struct amdkfd_event *e, const char *comm, const char *call,
			   const char *detail);

/* At exit: the queues still alive drawn up to `end_ns`. */
void amdkfd_timeline_end(__u64 end_ns);

#endif /* AMDKFD_TIMELINE_H */
