/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A call's state between its entry and its return, per thread: in the
 * task's local storage where the kernel has it (5.11), else in a hash by
 * thread id. Task storage costs a lookup in the task at entry and return,
 * where the hash costs an insert, a lookup and a delete, each under the
 * bucket's lock; and a thread that dies inside a call leaves nothing
 * behind.
 *
 *	INFLIGHT(ioctls, struct ioctl_state, 8192);	maps ioctls and ioctls_by_tid
 *	entry:	 if (INFLIGHT_SAVE(ioctls, id, &st))	(st filled on the stack)
 *			count it: no room
 *	return:	 st = INFLIGHT_GET(ioctls, id);		(NULL: no entry seen)
 *		 ... INFLIGHT_END(ioctls, id, st);
 *
 * The state's first member is a __u64 that is never 0 in a call (its start
 * time): 0 marks a slot of task storage as free. The frontend's
 * tool_fit_inflight() (tool.h) keeps one of the two maps: the other is
 * sized to one entry, and retyped to a hash where task storage is missing.
 */
#ifndef GPU_BPF_INFLIGHT_BPF_H
#define GPU_BPF_INFLIGHT_BPF_H

/* Set by tool_set_rodata(): the kernel has task storage for tracing programs. */
const volatile bool has_task_storage = false;

#define INFLIGHT(name, value_t, n)						\
	struct {								\
		__uint(type, BPF_MAP_TYPE_TASK_STORAGE);			\
		__uint(map_flags, BPF_F_NO_PREALLOC);				\
		__type(key, int);						\
		__type(value, value_t);						\
	} name SEC(".maps");							\
	struct {								\
		__uint(type, BPF_MAP_TYPE_HASH);				\
		__uint(max_entries, n);						\
		__type(key, __u64);						\
		__type(value, value_t);						\
	} name##_by_tid SEC(".maps")

/*
 * Keep *val as this thread's call (id: bpf_get_current_pid_tgid()): 0, or
 * -1 when there is no room (the caller counts it).
 */
#define INFLIGHT_SAVE(name, id, val)						\
	({									\
		typeof(*name##_by_tid.value) *st_;				\
		__u64 key_ = (id);						\
		int err_ = -1;							\
		if (has_task_storage) {						\
			st_ = bpf_task_storage_get(&name, bpf_get_current_task_btf(), 0, \
						   BPF_LOCAL_STORAGE_GET_F_CREATE); \
			if (st_) {						\
				*st_ = *(val);					\
				err_ = 0;					\
			}							\
		} else {							\
			err_ = bpf_map_update_elem(&name##_by_tid, &key_, (val), BPF_ANY) ? -1 : 0; \
		}								\
		err_;								\
	})

#define INFLIGHT_GET(name, id)							\
	({									\
		typeof(*name##_by_tid.value) *st_;				\
		__u64 key_ = (id);						\
		if (has_task_storage) {						\
			st_ = bpf_task_storage_get(&name, bpf_get_current_task_btf(), 0, 0); \
			if (st_ && !*(__u64 *)st_)				\
				st_ = NULL;					\
		} else {							\
			st_ = bpf_map_lookup_elem(&name##_by_tid, &key_);	\
		}								\
		st_;								\
	})

#define INFLIGHT_END(name, id, st)						\
	do {									\
		__u64 key_ = (id);						\
		if (has_task_storage)						\
			*(__u64 *)(st) = 0;					\
		else								\
			bpf_map_delete_elem(&name##_by_tid, &key_);		\
	} while (0)

#endif /* GPU_BPF_INFLIGHT_BPF_H */
