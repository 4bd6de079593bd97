// SPDX-License-Identifier: GPL-2.0
/*
 * kfdmock: the parts of amdgpu's KFD (/dev/kfd, ROCm's compute path) that
 * need a GPU, played with the real functions' names and prototypes so that
 * kprobes by name, and a tracer's reads of their arguments, work as on the
 * real module. Built as amdgpu.o: the module is named "amdgpu" (a tracer
 * resolves its hooks under [amdgpu] in /proc/kallsyms); tests/kmod/build
 * installs it as kfdmock.ko. Never load it with the real amdgpu.
 *
 * /dev/kfd: a class "kfd" and a char device of a dynamic major, as the real
 * KFD's (devtmpfs makes the node). kfd_open, kfd_release and kfd_ioctl are
 * the real ones' names and prototypes (kfd_ioctl is static in the real
 * kfd_chardev.c; here it is global, for kallsyms and BTF). kfd_ioctl does
 * what the real one does around its handlers (6.1's kfd_chardev.c): a
 * number outside the table is ENOTTY (upstream returned EINVAL before
 * 57af162bfc8c, which the stable kernels took); an fd used by another
 * process than the one that opened it is EBADF; the argument is copied in
 * for IOC_IN (_IOC_SIZE of the number's own command), zeroed for IOC_OUT
 * only, and copied back for IOC_OUT even when the handler failed; the
 * result is the handler's. The handlers:
 *   GET_VERSION         KFD_IOCTL_MAJOR_VERSION.KFD_IOCTL_MINOR_VERSION of
 *                       the header built against (1.11 on 6.1)
 *   ALLOC_MEMORY_OF_GPU size 0: EINVAL; gpu_id other than KFDMOCK_GPU_ID:
 *                       EINVAL; size > KFDMOCK_MEM_LIMIT (1 GiB): ENOMEM;
 *                       else handle = (u64)gpu_id << 32 | index (1, 2, ...;
 *                       the lowest free index, per open file) and
 *                       mmap_offset = index << PAGE_SHIFT
 *   FREE_MEMORY_OF_GPU  by handle; one not allocated on this file: EINVAL
 *   CREATE_QUEUE        gpu_id other than KFDMOCK_GPU_ID: EINVAL; beyond
 *                       KFDMOCK_MAX_QUEUES (8) live queues: ENOMEM; else
 *                       queue_id = the lowest free one (0, 1, ...; per
 *                       open file), doorbell_offset as the real one's,
 *                       KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(gpu_id),
 *                       plus the doorbell's offset in the process's
 *                       doorbell page: queue_id * 8 here
 *   DESTROY_QUEUE       by queue_id; one not live on this file: EINVAL
 *   anything else       EINVAL (the argument copied by the caller's command)
 * Memory and queues are per open file and freed at kfd_release, as the real
 * KFD frees a process's buffers and queues when it goes. Nothing is mapped.
 *
 * The SMI event functions (kfd_smi_events.h): their bodies count calls and
 * do nothing else. Their prototypes follow the target kernel:
 *   - queue_eviction, queue_restore, migration_start/end,
 *     page_fault_start/end exist where the uapi header has
 *     KFD_SMI_EVENT_QUEUE_EVICTION (not on 5.10); KFDMOCK_SVM_EVENTS.
 *   - the first argument is struct kfd_node * from upstream 6.5 ("Update
 *     SMI events for GFX9.4.3"), struct kfd_dev * before; KFDMOCK_NODE.
 *   - update_gpu_reset takes a struct amdgpu_reset_context * from upstream
 *     6.11 ("add reset cause in gpu pre-reset smi event"); it is NULL here;
 *     KFDMOCK_RESET_CONTEXT.
 *   - migration_end takes an int error_code where the uapi header's
 *     KFD_EVENT_FMT_MIGRATE_END has one (the same commit); KFDMOCK_MIGRATE_ERROR.
 *   - the second argument is struct task_struct * instead of pid_t from
 *     "Fix SMI event PID reporting for containers": upstream 7.3
 *     (amd-drm-next-7.3), taken by the 7.2 stable kernels (Debian's 7.2.13
 *     has it); 7.2 here; KFDMOCK_SMI_TASK.
 * Kbuild sets the header-tested ones; each can be given with -D.
 * tests/kmod/kfdmock-check.sh compares these prototypes with the real
 * amdgpu's BTF in the same boot.
 *
 * Control: write one command per write to /proc/kfdmock (EINVAL for a bad
 * one; ESRCH for a PID that does not exist; EOPNOTSUPP for an event the
 * kernel's KFD does not have). Numbers are decimal, or hex with 0x.
 *   evict PID TRIGGER            kfd_smi_event_queue_eviction
 *   restore PID                  kfd_smi_event_queue_restore
 *   evict_restore PID TRIGGER MS eviction, MS ms of sleep, restore
 *   migrate PID START END FROM TO TRIGGER [PREFETCH PREFERRED [ERROR]]
 *                                kfd_smi_event_migration_start then _end
 *                                (PREFETCH, PREFERRED, ERROR: 0 if not given)
 *   fault PID ADDR WRITE MIGRATED
 *                                kfd_smi_event_page_fault_start (WRITE: 0|1,
 *                                ts: ktime_get_boottime()) then _end
 *                                (MIGRATED: 0|1)
 *   fault_start PID ADDR WRITE   _start alone: a fault that never ends (the
 *                                KFD's when its migration fails)
 *   vmfault PASID                kfd_smi_event_update_vmfault (PASID < 65536),
 *                                which asks amdgpu for the PASID's process:
 *                                the writer's (amdgpu_vm_get_task_info_pasid,
 *                                5.10's amdgpu_vm_get_task_info)
 *   reset                        kfd_smi_event_update_gpu_reset, pre
 *                                (post_reset false) then post (true)
 * PID is looked up in the writer's pid namespace; where the functions take a
 * task, the PID's task is passed (its tgid is PID for a process's PID).
 * Reading /proc/kfdmock gives "NAME COUNT" lines: the calls of each
 * function, and the live open files, buffers and queues.
 */
#include <linux/bitmap.h>
#include <linux/compat.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <uapi/linux/kfd_ioctl.h>
#include "amdgpu_task_info.h"

#ifndef KFDMOCK_SVM_EVENTS
#define KFDMOCK_SVM_EVENTS 0
#endif
#ifndef KFDMOCK_MIGRATE_ERROR
#define KFDMOCK_MIGRATE_ERROR 0
#endif
#ifndef KFDMOCK_NODE
#define KFDMOCK_NODE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0))
#endif
#ifndef KFDMOCK_RESET_CONTEXT
#define KFDMOCK_RESET_CONTEXT (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0))
#endif
#ifndef KFDMOCK_SMI_TASK
#define KFDMOCK_SMI_TASK (LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0))
#endif

#define KFDMOCK_GPU_ID		0x4d4f		/* "MO" */
#define KFDMOCK_MEM_LIMIT	(1ULL << 30)
#define KFDMOCK_MAX_QUEUES	8

/* kfd_priv.h's mmap offset encoding of a doorbell page. */
#define KFD_MMAP_TYPE_DOORBELL	(0x3ULL << 62)
#define KFD_MMAP_GPU_ID_SHIFT	46
#define KFD_MMAP_GPU_ID_MASK	(((1ULL << 16) - 1) << KFD_MMAP_GPU_ID_SHIFT)
#define KFD_MMAP_GPU_ID(gpu_id)	((((u64)(gpu_id)) << KFD_MMAP_GPU_ID_SHIFT) & KFD_MMAP_GPU_ID_MASK)

/*
 * The device the SMI functions take. Only the name is the real one's (the
 * BTF check compares pointed-to type names); nothing reads its members.
 */
#if KFDMOCK_NODE
struct kfd_node {
	u32 id;
};
#define kfdmock_dev_t struct kfd_node
#else
struct kfd_dev {
	u32 id;
};
#define kfdmock_dev_t struct kfd_dev
#endif
static kfdmock_dev_t mock_dev = { .id = KFDMOCK_GPU_ID };

/* Macros, not typedefs: the BTF names the real types, as the real one's. */
#if KFDMOCK_SMI_TASK
#define kfdmock_who_t struct task_struct *
#else
#define kfdmock_who_t pid_t
#endif

struct amdgpu_reset_context;

/*
 * The driver's functions: global, never inlined, never cloned (a .constprop
 * or .isra copy would take the calls, and the kprobe on the real name would
 * not fire), and each uses all its arguments (nothing for the compiler to
 * drop, nothing for pahole to call optimized).
 */
#define KFD_FN noinline __noclone

long kfd_ioctl(struct file *filep, unsigned int cmd, unsigned long arg);
int kfd_open(struct inode *inode, struct file *filep);
int kfd_release(struct inode *inode, struct file *filep);
#if KFDMOCK_SVM_EVENTS
void kfd_smi_event_queue_eviction(kfdmock_dev_t *node, kfdmock_who_t who, uint32_t trigger);
void kfd_smi_event_queue_restore(kfdmock_dev_t *node, kfdmock_who_t who);
void kfd_smi_event_migration_start(kfdmock_dev_t *node, kfdmock_who_t who,
				   unsigned long start, unsigned long end,
				   uint32_t from, uint32_t to,
				   uint32_t prefetch_loc, uint32_t preferred_loc,
				   uint32_t trigger);
void kfd_smi_event_migration_end(kfdmock_dev_t *node, kfdmock_who_t who,
				 unsigned long start, unsigned long end,
				 uint32_t from, uint32_t to, uint32_t trigger
#if KFDMOCK_MIGRATE_ERROR
				 , int error_code
#endif
				 );
void kfd_smi_event_page_fault_start(kfdmock_dev_t *node, kfdmock_who_t who,
				    unsigned long address, bool write_fault, ktime_t ts);
void kfd_smi_event_page_fault_end(kfdmock_dev_t *node, kfdmock_who_t who,
				  unsigned long address, bool migration);
#endif
void kfd_smi_event_update_vmfault(kfdmock_dev_t *dev, uint16_t pasid);
void kfd_smi_event_update_gpu_reset(kfdmock_dev_t *dev, bool post_reset
#if KFDMOCK_RESET_CONTEXT
				    , struct amdgpu_reset_context *reset_context
#endif
				    );

/* ---- the SMI event functions ------------------------------------------------- */

enum {
	C_QUEUE_EVICTION, C_QUEUE_RESTORE, C_MIGRATION_START, C_MIGRATION_END,
	C_PAGE_FAULT_START, C_PAGE_FAULT_END, C_UPDATE_VMFAULT, C_UPDATE_GPU_RESET,
	C_IOCTL, C_OPEN, C_RELEASE, NR_COUNTS
};
static const char *const count_names[NR_COUNTS] = {
	"queue_eviction", "queue_restore", "migration_start", "migration_end",
	"page_fault_start", "page_fault_end", "update_vmfault", "update_gpu_reset",
	"ioctl", "open", "release",
};
static atomic_long_t counts[NR_COUNTS];
/* Where the arguments go: written, never read. */
static unsigned long sink;

static void use(int counter, unsigned long mix)
{
	atomic_long_inc(&counts[counter]);
	WRITE_ONCE(sink, READ_ONCE(sink) ^ mix);
}

#if KFDMOCK_SMI_TASK
#define WHO(who) ((unsigned long)(who))
#else
#define WHO(who) ((unsigned long)(long)(who))
#endif

#if KFDMOCK_SVM_EVENTS
KFD_FN void kfd_smi_event_queue_eviction(kfdmock_dev_t *node, kfdmock_who_t who, uint32_t trigger)
{
	use(C_QUEUE_EVICTION, (unsigned long)node ^ WHO(who) ^ trigger);
}

KFD_FN void kfd_smi_event_queue_restore(kfdmock_dev_t *node, kfdmock_who_t who)
{
	use(C_QUEUE_RESTORE, (unsigned long)node ^ WHO(who));
}

KFD_FN void kfd_smi_event_migration_start(kfdmock_dev_t *node, kfdmock_who_t who,
					  unsigned long start, unsigned long end,
					  uint32_t from, uint32_t to,
					  uint32_t prefetch_loc, uint32_t preferred_loc,
					  uint32_t trigger)
{
	use(C_MIGRATION_START, (unsigned long)node ^ WHO(who) ^ start ^ end ^ from ^ to ^
	    prefetch_loc ^ preferred_loc ^ trigger);
}

KFD_FN void kfd_smi_event_migration_end(kfdmock_dev_t *node, kfdmock_who_t who,
					unsigned long start, unsigned long end,
					uint32_t from, uint32_t to, uint32_t trigger
#if KFDMOCK_MIGRATE_ERROR
					, int error_code
#endif
					)
{
	unsigned long mix = (unsigned long)node ^ WHO(who) ^ start ^ end ^ from ^ to ^ trigger;

#if KFDMOCK_MIGRATE_ERROR
	mix ^= (unsigned long)error_code;
#endif
	use(C_MIGRATION_END, mix);
}

KFD_FN void kfd_smi_event_page_fault_start(kfdmock_dev_t *node, kfdmock_who_t who,
					   unsigned long address, bool write_fault, ktime_t ts)
{
	use(C_PAGE_FAULT_START, (unsigned long)node ^ WHO(who) ^ address ^ write_fault ^
	    (unsigned long)ts);
}

KFD_FN void kfd_smi_event_page_fault_end(kfdmock_dev_t *node, kfdmock_who_t who,
					 unsigned long address, bool migration)
{
	use(C_PAGE_FAULT_END, (unsigned long)node ^ WHO(who) ^ address ^ migration);
}
#endif /* KFDMOCK_SVM_EVENTS */

/* As the KFD's: the fault reported with its process, when amdgpu names one. */
KFD_FN void kfd_smi_event_update_vmfault(kfdmock_dev_t *dev, uint16_t pasid)
{
#if AMDGPU_TASK_INFO_PASID
	struct amdgpu_task_info *ti = amdgpu_vm_get_task_info_pasid(NULL, pasid);

	use(C_UPDATE_VMFAULT, (unsigned long)dev ^ pasid ^ (ti ? ti->tgid : 0));
	amdgpu_vm_put_task_info(ti);
#else
	struct amdgpu_task_info ti = {};

	amdgpu_vm_get_task_info(NULL, pasid, &ti);
	use(C_UPDATE_VMFAULT, (unsigned long)dev ^ pasid ^ ti.tgid);
#endif
}

KFD_FN void kfd_smi_event_update_gpu_reset(kfdmock_dev_t *dev, bool post_reset
#if KFDMOCK_RESET_CONTEXT
					   , struct amdgpu_reset_context *reset_context
#endif
					   )
{
	unsigned long mix = (unsigned long)dev ^ post_reset;

#if KFDMOCK_RESET_CONTEXT
	mix ^= (unsigned long)reset_context;
#endif
	use(C_UPDATE_GPU_RESET, mix);
}

/* ---- /dev/kfd ----------------------------------------------------------------- */

/* One open file: the real KFD's process, as far as the mock plays it. */
struct mock_file {
	struct mutex lock;
	struct task_struct *leader;	/* the opener's group leader */
	struct idr mem;			/* index -> struct mock_bo */
	DECLARE_BITMAP(queues, KFDMOCK_MAX_QUEUES);
};

struct mock_bo {
	u64 size;
};

static atomic_t live_files, live_bos, live_queues;

static int get_version(struct mock_file *mf, void *data)
{
	struct kfd_ioctl_get_version_args *args = data;

	args->major_version = KFD_IOCTL_MAJOR_VERSION;
	args->minor_version = KFD_IOCTL_MINOR_VERSION;
	return 0;
}

static int alloc_memory(struct mock_file *mf, void *data)
{
	struct kfd_ioctl_alloc_memory_of_gpu_args *args = data;
	struct mock_bo *bo;
	int idx;

	if (args->size == 0)
		return -EINVAL;
	if (args->gpu_id != KFDMOCK_GPU_ID)
		return -EINVAL;
	if (args->size > KFDMOCK_MEM_LIMIT)
		return -ENOMEM;
	bo = kzalloc(sizeof(*bo), GFP_KERNEL);
	if (!bo)
		return -ENOMEM;
	bo->size = args->size;
	mutex_lock(&mf->lock);
	idx = idr_alloc(&mf->mem, bo, 1, 0, GFP_KERNEL);
	mutex_unlock(&mf->lock);
	if (idx < 0) {
		kfree(bo);
		return idx;
	}
	atomic_inc(&live_bos);
	args->handle = (u64)args->gpu_id << 32 | idx;
	args->mmap_offset = (u64)idx << PAGE_SHIFT;
	return 0;
}

static int free_memory(struct mock_file *mf, void *data)
{
	struct kfd_ioctl_free_memory_of_gpu_args *args = data;
	struct mock_bo *bo = NULL;
	u32 idx = (u32)args->handle;

	if (args->handle >> 32 != KFDMOCK_GPU_ID || idx > INT_MAX)
		return -EINVAL;
	mutex_lock(&mf->lock);
	bo = idr_remove(&mf->mem, idx);
	mutex_unlock(&mf->lock);
	if (!bo)
		return -EINVAL;
	kfree(bo);
	atomic_dec(&live_bos);
	return 0;
}

static int create_queue(struct mock_file *mf, void *data)
{
	struct kfd_ioctl_create_queue_args *args = data;
	unsigned int id;

	if (args->gpu_id != KFDMOCK_GPU_ID)
		return -EINVAL;
	mutex_lock(&mf->lock);
	id = find_first_zero_bit(mf->queues, KFDMOCK_MAX_QUEUES);
	if (id < KFDMOCK_MAX_QUEUES)
		__set_bit(id, mf->queues);
	mutex_unlock(&mf->lock);
	if (id >= KFDMOCK_MAX_QUEUES)
		return -ENOMEM;
	atomic_inc(&live_queues);
	args->queue_id = id;
	args->doorbell_offset = KFD_MMAP_TYPE_DOORBELL | KFD_MMAP_GPU_ID(args->gpu_id) |
				(u64)id * sizeof(u64);
	return 0;
}

static int destroy_queue(struct mock_file *mf, void *data)
{
	struct kfd_ioctl_destroy_queue_args *args = data;
	bool was = false;

	mutex_lock(&mf->lock);
	if (args->queue_id < KFDMOCK_MAX_QUEUES)
		was = __test_and_clear_bit(args->queue_id, mf->queues);
	mutex_unlock(&mf->lock);
	if (!was)
		return -EINVAL;
	atomic_dec(&live_queues);
	return 0;
}

static int not_mocked(struct mock_file *mf, void *data)
{
	return -EINVAL;
}

struct mock_ioctl {
	unsigned int cmd;
	int (*func)(struct mock_file *mf, void *data);
};

#define MOCK_IOCTL(ioctl, _func) [_IOC_NR(ioctl)] = { .cmd = ioctl, .func = _func }
static const struct mock_ioctl mock_ioctls[AMDKFD_COMMAND_END] = {
	MOCK_IOCTL(AMDKFD_IOC_GET_VERSION, get_version),
	MOCK_IOCTL(AMDKFD_IOC_CREATE_QUEUE, create_queue),
	MOCK_IOCTL(AMDKFD_IOC_DESTROY_QUEUE, destroy_queue),
	MOCK_IOCTL(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, alloc_memory),
	MOCK_IOCTL(AMDKFD_IOC_FREE_MEMORY_OF_GPU, free_memory),
};

KFD_FN long kfd_ioctl(struct file *filep, unsigned int cmd, unsigned long arg)
{
	struct mock_file *mf = filep->private_data;
	unsigned int nr = _IOC_NR(cmd);
	int (*func)(struct mock_file *mf, void *data) = not_mocked;
	char stack_kdata[128];
	char *kdata = NULL;
	unsigned int usize, asize;
	int retcode;

	atomic_long_inc(&counts[C_IOCTL]);
	if (nr < AMDKFD_COMMAND_START || nr >= AMDKFD_COMMAND_END)
		return -ENOTTY;
	usize = asize = _IOC_SIZE(cmd);
	if (mock_ioctls[nr].func) {
		/* As the real table: the number's own size and direction. */
		if (_IOC_SIZE(mock_ioctls[nr].cmd) > asize)
			asize = _IOC_SIZE(mock_ioctls[nr].cmd);
		cmd = mock_ioctls[nr].cmd;
		func = mock_ioctls[nr].func;
	}

	/* Only the process that opened /dev/kfd can use the file. */
	if (mf->leader != current->group_leader)
		return -EBADF;

	if (cmd & (IOC_IN | IOC_OUT)) {
		if (asize <= sizeof(stack_kdata)) {
			kdata = stack_kdata;
		} else {
			kdata = kmalloc(asize, GFP_KERNEL);
			if (!kdata)
				return -ENOMEM;
		}
		if (asize > usize)
			memset(kdata + usize, 0, asize - usize);
	}
	if (cmd & IOC_IN) {
		if (copy_from_user(kdata, (void __user *)arg, usize)) {
			retcode = -EFAULT;
			goto out;
		}
	} else if (cmd & IOC_OUT) {
		memset(kdata, 0, usize);
	}

	retcode = func(mf, kdata);

	if (cmd & IOC_OUT)
		if (copy_to_user((void __user *)arg, kdata, usize))
			retcode = -EFAULT;
out:
	if (kdata != stack_kdata)
		kfree(kdata);
	return retcode;
}

KFD_FN int kfd_open(struct inode *inode, struct file *filep)
{
	struct mock_file *mf;

	atomic_long_inc(&counts[C_OPEN]);
	if (iminor(inode) != 0)
		return -ENODEV;
	if (in_compat_syscall())
		return -EPERM;	/* 32-bit processes are not supported by amdkfd */
	mf = kzalloc(sizeof(*mf), GFP_KERNEL);
	if (!mf)
		return -ENOMEM;
	mutex_init(&mf->lock);
	idr_init(&mf->mem);
	mf->leader = current->group_leader;
	filep->private_data = mf;
	atomic_inc(&live_files);
	return 0;
}

KFD_FN int kfd_release(struct inode *inode, struct file *filep)
{
	struct mock_file *mf = filep->private_data;
	struct mock_bo *bo;
	int idx;

	atomic_long_inc(&counts[C_RELEASE]);
	if (!mf)
		return 0;
	idr_for_each_entry(&mf->mem, bo, idx) {
		kfree(bo);
		atomic_dec(&live_bos);
	}
	idr_destroy(&mf->mem);
	atomic_sub(bitmap_weight(mf->queues, KFDMOCK_MAX_QUEUES), &live_queues);
	mutex_destroy(&mf->lock);
	kfree(mf);
	atomic_dec(&live_files);
	return 0;
}

static const struct file_operations kfd_fops = {
	.owner = THIS_MODULE,
	.unlocked_ioctl = kfd_ioctl,
	.compat_ioctl = kfd_ioctl,
	.open = kfd_open,
	.release = kfd_release,
};

/* ---- /proc/kfdmock ------------------------------------------------------------ */

#if KFDMOCK_SMI_TASK
/* The PID's task, with a reference (put_who() drops it). */
static int get_who(pid_t nr, kfdmock_who_t *who)
{
	struct pid *pid = find_get_pid(nr);

	*who = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	put_pid(pid);
	return *who ? 0 : -ESRCH;
}

static void put_who(kfdmock_who_t who)
{
	put_task_struct(who);
}
#else
static int get_who(pid_t nr, kfdmock_who_t *who)
{
	struct pid *pid = find_get_pid(nr);

	put_pid(pid);
	*who = nr;
	return pid ? 0 : -ESRCH;
}

static void put_who(kfdmock_who_t who)
{
}
#endif

/*
 * The numbers after the verb, at most max of them: their count, or EINVAL
 * for a word that is not one (decimal, or hex with 0x).
 */
static int parse_numbers(char *args, long long *v, int max)
{
	char *word;
	int n = 0;

	while ((word = strsep(&args, " \t")) != NULL) {
		if (!*word)
			continue;
		if (n == max || kstrtoll(word, 0, &v[n]))
			return -EINVAL;
		n++;
	}
	return n;
}

static bool between(long long v, long long min, long long max)
{
	return v >= min && v <= max;
}

static int run_command(char *cmd)
{
	char *args = strim(cmd);
	char *verb = strsep(&args, " \t");
	long long v[9] = { 0 };
	int n = parse_numbers(args ? args : "", v, ARRAY_SIZE(v));
	enum { EVICT, EVICT_RESTORE, RESTORE, MIGRATE, FAULT, FAULT_START } op __maybe_unused;
	kfdmock_who_t who;
	bool ok;
	int err, i;

	if (n < 0)
		return n;

	if (!strcmp(verb, "reset")) {
		if (n != 0)
			return -EINVAL;
#if KFDMOCK_RESET_CONTEXT
		kfd_smi_event_update_gpu_reset(&mock_dev, false, NULL);
		kfd_smi_event_update_gpu_reset(&mock_dev, true, NULL);
#else
		kfd_smi_event_update_gpu_reset(&mock_dev, false);
		kfd_smi_event_update_gpu_reset(&mock_dev, true);
#endif
		return 0;
	}
	if (!strcmp(verb, "vmfault")) {
		if (n != 1 || !between(v[0], 0, U16_MAX))
			return -EINVAL;
		kfd_smi_event_update_vmfault(&mock_dev, v[0]);
		return 0;
	}

	/* The others: PID first; TRIGGER, FROM, TO, PREFETCH, PREFERRED: u32. */
	if (!strcmp(verb, "evict")) {
		op = EVICT;
		ok = n == 2 && between(v[1], 0, U32_MAX);
	} else if (!strcmp(verb, "evict_restore")) {
		op = EVICT_RESTORE;
		ok = n == 3 && between(v[1], 0, U32_MAX) && between(v[2], 0, 60000);
	} else if (!strcmp(verb, "restore")) {
		op = RESTORE;
		ok = n == 1;
	} else if (!strcmp(verb, "migrate")) {
		op = MIGRATE;
		ok = (n == 6 || n == 8 || n == 9) && between(v[1], 0, LONG_MAX) &&
		     between(v[2], 0, LONG_MAX) && between(v[8], INT_MIN, INT_MAX);
		for (i = 3; i < 8; i++)
			ok = ok && between(v[i], 0, U32_MAX);
	} else if (!strcmp(verb, "fault")) {
		op = FAULT;
		ok = n == 4 && between(v[1], 0, LONG_MAX) && between(v[2], 0, 1) &&
		     between(v[3], 0, 1);
	} else if (!strcmp(verb, "fault_start")) {
		op = FAULT_START;
		ok = n == 3 && between(v[1], 0, LONG_MAX) && between(v[2], 0, 1);
	} else {
		return -EINVAL;
	}
	if (!ok || !between(v[0], 1, PID_MAX_LIMIT))
		return -EINVAL;
	if (!KFDMOCK_SVM_EVENTS)
		return -EOPNOTSUPP;
	err = get_who(v[0], &who);
	if (err)
		return err;
#if KFDMOCK_SVM_EVENTS
	switch (op) {
	case EVICT:
	case EVICT_RESTORE:
		kfd_smi_event_queue_eviction(&mock_dev, who, v[1]);
		if (op == EVICT)
			break;
		msleep(v[2]);
		fallthrough;
	case RESTORE:
		kfd_smi_event_queue_restore(&mock_dev, who);
		break;
	case MIGRATE:	/* PID START END FROM TO TRIGGER [PREFETCH PREFERRED [ERROR]] */
		kfd_smi_event_migration_start(&mock_dev, who, v[1], v[2], v[3], v[4], v[6], v[7],
					      v[5]);
#if KFDMOCK_MIGRATE_ERROR
		kfd_smi_event_migration_end(&mock_dev, who, v[1], v[2], v[3], v[4], v[5], v[8]);
#else
		kfd_smi_event_migration_end(&mock_dev, who, v[1], v[2], v[3], v[4], v[5]);
#endif
		break;
	case FAULT:	/* PID ADDR WRITE MIGRATED */
	case FAULT_START:	/* PID ADDR WRITE */
		kfd_smi_event_page_fault_start(&mock_dev, who, v[1], v[2], ktime_get_boottime());
		if (op == FAULT)
			kfd_smi_event_page_fault_end(&mock_dev, who, v[1], v[3]);
		break;
	}
#endif
	put_who(who);
	return 0;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf, size_t len, loff_t *off)
{
	char buf[160];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	err = run_command(buf);
	return err ? err : len;
}

static int ctl_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < NR_COUNTS; i++)
		seq_printf(m, "%s %ld\n", count_names[i], atomic_long_read(&counts[i]));
	seq_printf(m, "live_files %d\nlive_bos %d\nlive_queues %d\n", atomic_read(&live_files),
		   atomic_read(&live_bos), atomic_read(&live_queues));
	return 0;
}

static int ctl_open(struct inode *inode, struct file *file)
{
	return single_open(file, ctl_show, NULL);
}

static const struct proc_ops ctl_ops = {
	.proc_open = ctl_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = ctl_write,
};

/* ---- module ------------------------------------------------------------------- */

static int kfd_major;
static struct class *kfd_class;
static struct device *kfd_device;
static struct proc_dir_entry *ctl;

static int __init kfdmock_init(void)
{
	int err;

	kfd_major = register_chrdev(0, "kfd", &kfd_fops);
	if (kfd_major < 0)
		return kfd_major;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	kfd_class = class_create("kfd");
#else
	kfd_class = class_create(THIS_MODULE, "kfd");
#endif
	if (IS_ERR(kfd_class)) {
		err = PTR_ERR(kfd_class);
		goto err_class;
	}
	kfd_device = device_create(kfd_class, NULL, MKDEV(kfd_major, 0), NULL, "kfd");
	if (IS_ERR(kfd_device)) {
		err = PTR_ERR(kfd_device);
		goto err_device;
	}
	ctl = proc_create("kfdmock", 0600, NULL, &ctl_ops);
	if (!ctl) {
		err = -ENOMEM;
		goto err_proc;
	}
	return 0;

err_proc:
	device_destroy(kfd_class, MKDEV(kfd_major, 0));
err_device:
	class_destroy(kfd_class);
err_class:
	unregister_chrdev(kfd_major, "kfd");
	return err;
}

static void __exit kfdmock_exit(void)
{
	proc_remove(ctl);
	device_destroy(kfd_class, MKDEV(kfd_major, 0));
	class_destroy(kfd_class);
	unregister_chrdev(kfd_major, "kfd");
}

module_init(kfdmock_init);
module_exit(kfdmock_exit);
MODULE_DESCRIPTION("kfdmock: amdgpu's KFD functions that need a GPU, for tests");
MODULE_VERSION("0.0-kfdmock");
MODULE_LICENSE("GPL");
