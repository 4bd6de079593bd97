/* SPDX-License-Identifier: GPL-2.0 */
/*
 * amdgpu's lookup of a PASID's process, as kfdmock and amdgen play it:
 * amdgpu_vm_get_task_info_pasid() returning a counted struct
 * amdgpu_task_info (upstream 6.10, and Debian's 6.1), 5.10's
 * amdgpu_vm_get_task_info() filling one; from 6.17 its task's pid and comm
 * first, drm's struct drm_wedge_task_info. The struct is amdgpu_vm.h's,
 * member for member (kfdmock-check.sh compares the offsets with the real
 * amdgpu's). Every PASID is the current task's: the writer of the command
 * that asks. Included by one file of each module.
 */
#ifndef AMDGPU_TASK_INFO_H
#define AMDGPU_TASK_INFO_H

#include <linux/kref.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/version.h>

#ifndef AMDGPU_TASK_INFO_PASID
#define AMDGPU_TASK_INFO_PASID (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0))
#endif
#ifndef AMDGPU_WEDGE_TASK
#define AMDGPU_WEDGE_TASK (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0))
#endif
#if AMDGPU_WEDGE_TASK
#include <drm/drm_device.h>
#endif

struct amdgpu_device;

struct amdgpu_task_info {
#if AMDGPU_WEDGE_TASK
	struct drm_wedge_task_info task;
	char process_name[TASK_COMM_LEN];
#else
	char process_name[TASK_COMM_LEN];
	char task_name[TASK_COMM_LEN];
	pid_t pid;
#endif
	pid_t tgid;
#if AMDGPU_TASK_INFO_PASID
	struct kref refcount;
#endif
};

#if AMDGPU_TASK_INFO_PASID
struct amdgpu_task_info *amdgpu_vm_get_task_info_pasid(struct amdgpu_device *adev, u32 pasid);
void amdgpu_vm_put_task_info(struct amdgpu_task_info *task_info);
#else
void amdgpu_vm_get_task_info(struct amdgpu_device *adev, u32 pasid,
			     struct amdgpu_task_info *task_info);
#endif

static void task_info_fill(struct amdgpu_task_info *ti)
{
#if AMDGPU_WEDGE_TASK
	ti->task.pid = task_pid_nr(current);
	get_task_comm(ti->task.comm, current);
#else
	ti->pid = task_pid_nr(current);
	get_task_comm(ti->task_name, current);
#endif
	ti->tgid = task_tgid_nr(current);
	get_task_comm(ti->process_name, current->group_leader);
}

/*
 * Global, never inlined or cloned (a tracer attaches by the real name), the
 * arguments used (nothing for the compiler to drop).
 */
#if AMDGPU_TASK_INFO_PASID
noinline __noclone struct amdgpu_task_info *amdgpu_vm_get_task_info_pasid(struct amdgpu_device *adev,
									  u32 pasid)
{
	struct amdgpu_task_info *ti = kzalloc(sizeof(*ti), GFP_KERNEL);

	asm volatile("" : : "r"(adev), "r"(pasid) : "memory");
	if (!ti)
		return NULL;
	kref_init(&ti->refcount);
	task_info_fill(ti);
	return ti;
}

static void task_info_release(struct kref *ref)
{
	kfree(container_of(ref, struct amdgpu_task_info, refcount));
}

noinline __noclone void amdgpu_vm_put_task_info(struct amdgpu_task_info *task_info)
{
	if (task_info)
		kref_put(&task_info->refcount, task_info_release);
}
#else
noinline __noclone void amdgpu_vm_get_task_info(struct amdgpu_device *adev, u32 pasid,
						struct amdgpu_task_info *task_info)
{
	asm volatile("" : : "r"(adev), "r"(pasid) : "memory");
	task_info_fill(task_info);
}
#endif

#endif /* AMDGPU_TASK_INFO_H */
