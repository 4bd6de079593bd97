/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A call's state between its entry and its return, per thread: in the slot
 * of an array its thread id picks, where the kernel has compare-and-swap
 * (5.12) to take a slot from other CPUs; else, and when another thread's
 * call holds that slot, in the task's local storage where the kernel has it
 * (5.11), else in a hash by thread id. The slot is two array lookups the
 * verifier inlines; task storage is a helper call at entry and at return,
 * each finding the map's storage in the task (about 390 ns each under
 * qemu's TCG, where an array lookup is about 37), and the hash an insert,
 * a lookup and a delete, each under the bucket's lock.
 *
 *	INFLIGHT(ioctls, struct ioctl_state, 8192);	maps ioctls_slots,
 *							ioctls and ioctls_by_tid
 *	entry:	 if (INFLIGHT_SAVE(ioctls, id, &st))	(st filled on the stack)
 *			count it: no room
 *	return:	 st = INFLIGHT_GET(ioctls, id);		(NULL: no entry seen)
 *		 ... INFLIGHT_END(ioctls, id, st);
 *
 * The state's first member is a __u64 that is never 0 in a call (its start
 * time): 0 marks a slot of task storage as free. A slot's owner (the
 * thread's pid_tgid) is 0 when it is free; a thread whose return was missed
 * keeps its slot until its next call, and other threads' calls that pick it
 * meanwhile go to task storage or the hash. The frontend (tool.c's
 * fit_inflight()) shrinks the maps it does not use to one entry, and
 * retypes the task storage to a hash where the kernel lacks it.
 */
#ifndef GPU_BPF_INFLIGHT_BPF_H
#define GPU_BPF_INFLIGHT_BPF_H

#include "histogram.bpf.h"	/* has_atomic_fetch */

/* Set by tool_set_rodata(): the kernel has task storage for tracing programs. */
const volatile bool has_task_storage = false;

/* 4096 slots: a process's threads, numbered in a row, each have their own. */
#define INFLIGHT_SLOT_BITS 12

#define INFLIGHT(name, value_t, n)						\
	struct name##_slot {							\
		__u64 owner;	/* pid_tgid; 0: free */				\
		value_t v;							\
	};									\
	struct {								\
		__uint(type, BPF_MAP_TYPE_ARRAY);				\
		__uint(max_entries, 1 << INFLIGHT_SLOT_BITS);			\
		__type(key, __u32);						\
		__type(value, struct name##_slot);				\
	} name##_slots SEC(".maps");						\
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

/* The slot thread `id` picks, or NULL where there are no slots (before 5.12). */
#define INFLIGHT_SLOT(name, id)							\
	({									\
		__u32 idx_ = (__u32)(id) & ((1 << INFLIGHT_SLOT_BITS) - 1);	\
		has_atomic_fetch ? (struct name##_slot *)bpf_map_lookup_elem(&name##_slots, &idx_) \
				 : NULL;					\
	})

/*
 * Keep *val as this thread's call (id: bpf_get_current_pid_tgid()): 0, or
 * -1 when there is no room (the caller counts it). The slot is taken by
 * compare-and-swap (dead code before 5.12, rewritten by
 * tool_load()).
 */
#define INFLIGHT_SAVE(name, id, val)						\
	({									\
		struct name##_slot *sl_ = INFLIGHT_SLOT(name, id);		\
		typeof(*name##_by_tid.value) *st_;				\
		__u64 key_ = (id);						\
		int err_ = -1;							\
		if (sl_ && sl_->owner != key_ &&				\
		    __sync_val_compare_and_swap(&sl_->owner, 0, key_) != 0)	\
			sl_ = NULL;						\
		if (sl_) {							\
			sl_->v = *(val);					\
			err_ = 0;						\
		} else if (has_task_storage) {					\
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
		struct name##_slot *sl_ = INFLIGHT_SLOT(name, id);		\
		typeof(*name##_by_tid.value) *st_;				\
		__u64 key_ = (id);						\
		if (sl_ && sl_->owner == key_) {				\
			st_ = &sl_->v;						\
		} else if (has_task_storage) {					\
			st_ = bpf_task_storage_get(&name, bpf_get_current_task_btf(), 0, 0); \
			if (st_ && !*(__u64 *)st_)				\
				st_ = NULL;					\
		} else {							\
			st_ = bpf_map_lookup_elem(&name##_by_tid, &key_);	\
		}								\
		st_;								\
	})

/* After the call's state is read: its slot free for another thread. */
#define INFLIGHT_END(name, id, st)						\
	do {									\
		struct name##_slot *sl_ = INFLIGHT_SLOT(name, id);		\
		__u64 key_ = (id);						\
		if (sl_ && sl_->owner == key_)					\
			sl_->owner = 0;						\
		else if (has_task_storage)					\
			*(__u64 *)(st) = 0;					\
		else								\
			bpf_map_delete_elem(&name##_by_tid, &key_);		\
	} while (0)

#endif /* GPU_BPF_INFLIGHT_BPF_H */
