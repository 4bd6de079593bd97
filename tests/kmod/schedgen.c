// SPDX-License-Identifier: GPL-2.0
/*
 * schedgen: a job generator on the kernel's real DRM GPU scheduler.
 *
 * The test ground of drmsched: no machine here has a GPU, so this module
 * plays the driver. It creates one drm_gpu_scheduler ("ring") per name in
 * rings=, each with one entity, and takes commands on /proc/schedgen:
 *
 *   submit ring=NAME jobs=N [exec_us=U] [deps=none|chain|ring:OTHER|gate]
 *          [client=ID] [entity=E] [hang=1]
 *   wait [timeout_ms=T]        (until the jobs are done and no recovery runs)
 *   fault ring=NAME
 *   gate close|open
 *   wedge recovery=none|rebind|bus-reset|vendor[,...]
 *
 * Jobs are pushed from the writer's own context, like an ioctl would, and
 * "execute" for U microseconds: run_job returns a hardware fence that an
 * hrtimer signals. Everything else - queueing, dependencies, run, done and
 * every gpu_scheduler tracepoint - is the kernel's own scheduler code.
 * With timeout_ms= set, a job submitted with hang=1 never signals: the
 * scheduler's timeout handler calls timedout_job, which recovers as amdgpu
 * does (stop with the bad job, karma, resubmit, start; with recovery=ring,
 * as amdgpu's ring reset and xe do, only the work queue stopped and
 * started, the bad job's fence force-completed); "fault" reports a
 * fault on the ring (drm_sched_fault(), as amdgpu's illegal-instruction
 * interrupt does), which runs that handler at once. deps=gate makes jobs
 * wait for the gate, a fence "gate close" makes and "gate open" signals:
 * jobs of several writers queued before any runs, whatever the writers'
 * speed. With wedged=1 (kernels with drm_dev_wedged_event(), 6.14+) the
 * module registers a DRM device (a card) on its platform device, and each
 * recovery ends as amdgpu's does: drm_dev_wedged_event() with recovery
 * "none" and the bad job's submitter; "wedge" raises one as xe and i915
 * do, with the methods given and no task.
 * Reading /proc/schedgen prints
 * "ring=NAME dev=DEV submitted=N completed=M timeouts=T".
 * tests/kmod/README.md has the details.
 *
 * The drm_sched API differs between kernels: features.sh (run by Kbuild)
 * reads the target's gpu_scheduler.h and defines SG_*; without it, the
 * upstream version that introduced each change decides.
 */
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/proc_fs.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/wait.h>
#include <drm/gpu_scheduler.h>
#if SG_WEDGED_EVENT
#include <drm/drm_device.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#endif

#ifndef SG_FEATURES
/* struct drm_sched_init_args: 6.15 (and backports, e.g. Debian's 6.1.1xx). */
#define SG_INIT_ARGS (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0))
#define SG_INIT_ARGS_NUM_RQS SG_INIT_ARGS
/* drm_sched_init(sched, ops, submit_wq, num_rqs, credit_limit, ...): 6.7. */
#define SG_INIT_POS_NUM_RQS (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0))
/* drm_sched_job_init(job, entity, credits, owner[, client_id]): 6.7, 6.17. */
#define SG_JOB_INIT_CREDITS (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 7, 0))
#define SG_JOB_INIT_CLIENT_ID (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0))
/* DRM_GPU_SCHED_STAT_NO_HANG (and NOMINAL renamed RESET): 6.17. */
#define SG_STAT_NO_HANG (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0))
/*
 * 5.16: drm_sched_job_arm() (before, drm_sched_job_init() armed the job),
 * drm_sched_job_add_dependency() (before, the backend's dependency()
 * callback handed the dependencies over), push_job() without the entity.
 */
#define SG_JOB_ARM (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0))
#define SG_JOB_ADD_DEPENDENCY SG_JOB_ARM
#define SG_PUSH_JOB_ENTITY (!SG_JOB_ARM)
/* timedout_job() returns enum drm_gpu_sched_stat: 5.13. */
#define SG_TIMEDOUT_STAT (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 13, 0))
/* Positional drm_sched_init()'s score (5.11), timeout_wq (5.17), dev (6.0). */
#define SG_INIT_POS_SCORE (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 11, 0))
#define SG_INIT_POS_TIMEOUT_WQ (LINUX_VERSION_CODE >= KERNEL_VERSION(5, 17, 0))
#define SG_INIT_POS_DEV (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 0, 0))
/*
 * drm_sched_start(sched, full_recovery) before 6.12 (SG_START_ARG 1),
 * (sched) in 6.12 (0), (sched, errno) from 6.13 (2).
 */
#define SG_START_ARG (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0) ? 2 : \
		      LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0) ? 0 : 1)
#endif
#ifndef SG_WQUEUE
/* drm_sched_wqueue_stop() and drm_sched_wqueue_start(): 6.8. */
#define SG_WQUEUE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0))
#endif
#ifndef SG_WEDGED_EVENT
/* drm_dev_wedged_event(dev, method, struct drm_wedge_task_info *): 6.17 (Kbuild reads drm_drv.h). */
#define SG_WEDGED_EVENT 0
#endif

#define MAX_RINGS 8
#define MAX_JOBS_PER_SUBMIT 100000
#define MAX_EXEC_US (10 * USEC_PER_SEC)
#define MAX_CREDITS 1024
#define MAX_CMD_LEN 4096
#define MAX_TIMEOUT_MS (3600 * MSEC_PER_SEC)
#ifndef SG_ENTITIES
#define SG_ENTITIES 4	/* entities per ring: contexts of their own, as a driver's per file */
#endif

static char *rings = "gfx";
module_param(rings, charp, 0444);
MODULE_PARM_DESC(rings, "comma-separated ring (scheduler) names, at most 8 (default gfx)");
static unsigned int credits = 1;
module_param(credits, uint, 0444);
MODULE_PARM_DESC(credits, "jobs each ring runs at once: the hw submission/credit limit (default 1)");
static unsigned int timeout_ms;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "the scheduler's job timeout (default 0: none); hang=1 needs one");
static char *recovery = "full";
module_param(recovery, charp, 0444);
MODULE_PARM_DESC(recovery, "a timeout's recovery: full (stop, karma, resubmit, start; default) "
		 "or ring (the work queue stopped and started: 6.8+)");
/* recovery=ring */
static bool sg_ring_reset;
static bool wedged;
module_param(wedged, bool, 0444);
MODULE_PARM_DESC(wedged, "register a DRM device; recoveries raise drm_dev_wedged_event (6.17+)");

/*
 * A module that plays a driver on top of this generator (amdgen.c) includes
 * this file: it names the module (SG_NAME), brings ring and job structs of
 * its own shape with this file's members (SG_OWN_TYPES), and hooks in where
 * its driver fires events.
 */
#ifndef SG_NAME
#define SG_NAME "schedgen"
#define SG_DESCRIPTION "Job generator on the DRM GPU scheduler, for gpu-bpf-tools tests"
#endif
static char *driver = SG_NAME;
module_param(driver, charp, 0444);
MODULE_PARM_DESC(driver, "the name of the driver bound to the device, and of the device "
		 "(default the module's): tools tell drivers apart by it, as gpuhang does xe");
/* A job armed and about to be pushed to its entity (an ioctl's submit). */
#ifndef sg_on_push
#define sg_on_push(job) do { } while (0)
#endif
/* run_job: the job is handed to the hardware. */
#ifndef sg_on_run
#define sg_on_run(job) do { } while (0)
#endif
/* rmmod: after the generator's own teardown. */
#ifndef sg_on_exit
#define sg_on_exit() do { } while (0)
#endif
/* A timeout's full recovery (recovery=full): a driver's own around sg_recover_full(). */
#ifndef sg_recover
#define sg_recover(job) sg_recover_full(job)
#endif
/* A "submit" command begins: its own arguments back to their defaults. */
#ifndef sg_submit_begin
#define sg_submit_begin() do { } while (0)
#endif
/* A "submit" key=value this file does not know: 1 taken, 0 unknown, < 0 bad. */
#ifndef sg_submit_arg
#define sg_submit_arg(key, val) 0
#endif
/* A command this file does not know: its result, or -ENOENT for unknown. */
#ifndef sg_extra_command
#define sg_extra_command(cmd, line) (-ENOENT)
#endif

#ifndef SG_OWN_TYPES
struct sg_ring {
	char name[32];
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entity[SG_ENTITIES];
	bool sched_ready;
	int nr_entities;		/* initialised */
	u64 hw_context;			/* timeline of the "hardware" fences */
	atomic64_t hw_seqno;
	spinlock_t fence_lock;
	atomic_t submitted, completed;	/* completed: freed by free_job */
	atomic_t timeouts;		/* timedout_job calls */
	struct mutex submit_lock;	/* arm + push in order: one producer at a time */
	struct dma_fence *last_finished;	/* for deps=ring:THIS, under submit_lock */
};

struct sg_job {
	struct drm_sched_job base;
	struct sg_ring *ring;
	u64 exec_ns;
	struct dma_fence *dep;		/* !SG_JOB_ADD_DEPENDENCY: for sg_dependency() */
	bool hang;			/* its first run's hardware fence never signals */
	unsigned int runs;		/* run_job calls: more than one after a reset */
	struct sg_hw_fence *hw;		/* its last run's hardware fence, a reference */
	pid_t pid;			/* its submitter (a thread), as amdgpu's task info */
	char comm[TASK_COMM_LEN];
};
#endif /* SG_OWN_TYPES */

/* What run_job returns: signalled by its timer after the job's exec time. */
struct sg_hw_fence {
	struct dma_fence base;		/* first: dma_fence_free() kfrees the whole */
	struct hrtimer timer;
	bool timed;			/* the timer started (not a hang) */
};

static struct sg_ring sg_rings[MAX_RINGS];
static int nr_rings;
static struct platform_device *sg_pdev;
static bool sg_driver_registered;
static struct proc_dir_entry *sg_proc;
static DECLARE_WAIT_QUEUE_HEAD(sg_done_wq);
/* Timeout handlers running: "wait" returns once their recoveries are over too. */
static atomic_t sg_recovering = ATOMIC_INIT(0);
/* rmmod under way: no new submissions, and jobs not yet run execute in 0 µs. */
static bool sg_dying;

#if SG_WEDGED_EVENT
/* wedged=1: a DRM device (no ioctls, no memory) for drm_dev_wedged_event(). */
static struct drm_device *sg_drm;

static const struct file_operations sg_drm_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.llseek = noop_llseek,
};

static const struct drm_driver sg_drm_driver = {
	.name = SG_NAME,
	.desc = SG_DESCRIPTION,
	.fops = &sg_drm_fops,
};

static int sg_drm_register(void)
{
	int err;

	sg_drm = drm_dev_alloc(&sg_drm_driver, &sg_pdev->dev);
	if (IS_ERR(sg_drm)) {
		err = PTR_ERR(sg_drm);
		sg_drm = NULL;
		return err;
	}
	err = drm_dev_register(sg_drm, 0);
	if (err) {
		drm_dev_put(sg_drm);
		sg_drm = NULL;
	}
	return err;
}

static void sg_drm_unregister(void)
{
	if (!sg_drm)
		return;
	drm_dev_unregister(sg_drm);
	drm_dev_put(sg_drm);
	sg_drm = NULL;
}

/* amdgpu's after a recovery: "none" needed, the guilty job's task named. */
static void sg_wedged_recovered(pid_t pid, const char *comm)
{
	struct drm_wedge_task_info info = { .pid = pid };

	if (!sg_drm)
		return;
	strscpy(info.comm, comm, sizeof(info.comm));
	drm_dev_wedged_event(sg_drm, DRM_WEDGE_RECOVERY_NONE, &info);
}

/* "wedge recovery=M[,M...]": the event as xe and i915 raise it, without a task. */
static int sg_wedge(char *args)
{
	static const char *const names[] = { "none", "rebind", "bus-reset", "vendor" };
	unsigned long method = 0;
	char *tok = args ? strim(args) : "", *name;
	size_t i;

	if (!sg_drm) {
		pr_warn(SG_NAME ": wedge: load the module with wedged=1\n");
		return -EINVAL;
	}
	if (strncmp(tok, "recovery=", 9) || strpbrk(tok, " \t"))
		goto bad;
	tok += 9;
	while ((name = strsep(&tok, ","))) {
		for (i = 0; i < ARRAY_SIZE(names) && strcmp(name, names[i]); i++)
			;
		if (i == ARRAY_SIZE(names))
			goto bad;
		method |= BIT(i);	/* DRM_WEDGE_RECOVERY_NONE, _REBIND, _BUS_RESET, _VENDOR */
	}
	return drm_dev_wedged_event(sg_drm, method, NULL);
bad:
	pr_warn(SG_NAME ": wedge: want recovery=none|rebind|bus-reset|vendor[,...]\n");
	return -EINVAL;
}
#else
static int sg_drm_register(void)
{
	pr_err(SG_NAME ": wedged=1: this kernel has no drm_dev_wedged_event() with a task (6.17+)\n");
	return -EOPNOTSUPP;
}

static void sg_drm_unregister(void)
{
}

static void sg_wedged_recovered(pid_t pid, const char *comm)
{
}

static int sg_wedge(char *args)
{
	pr_warn(SG_NAME ": wedge: this kernel has no drm_dev_wedged_event() with a task\n");
	return -EOPNOTSUPP;
}
#endif

static const char *sg_fence_driver_name(struct dma_fence *f)
{
	return SG_NAME;
}

static const char *sg_fence_timeline_name(struct dma_fence *f)
{
	return SG_NAME "-hw";
}

static const struct dma_fence_ops sg_fence_ops = {
	.get_driver_name = sg_fence_driver_name,
	.get_timeline_name = sg_fence_timeline_name,
};

static enum hrtimer_restart sg_hw_fence_expire(struct hrtimer *t)
{
	struct sg_hw_fence *hw = container_of(t, struct sg_hw_fence, timer);

	/* The scheduler's done callback runs from here: the job is done now. */
	dma_fence_signal(&hw->base);
	dma_fence_put(&hw->base);	/* the timer's reference */
	return HRTIMER_NORESTART;
}

/*
 * The job's last hardware fence, if any, let go: signalled with `error` if
 * it has not signalled (a hang, or a run a reset ended), its timer stopped
 * (none is left running once the job is freed).
 */
static void sg_retire_hw(struct sg_job *job, int error)
{
	struct sg_hw_fence *hw = job->hw;

	if (!hw)
		return;
	job->hw = NULL;
	/* hrtimer_cancel(): 0 if it fired (and signalled), waiting for it if it is firing. */
	if (!hw->timed || hrtimer_cancel(&hw->timer)) {
		dma_fence_set_error(&hw->base, error);
		dma_fence_signal(&hw->base);
		if (hw->timed)
			dma_fence_put(&hw->base);	/* the timer's reference */
	}
	dma_fence_put(&hw->base);	/* the job's */
}

static struct dma_fence *sg_run_job(struct drm_sched_job *sched_job)
{
	struct sg_job *job = container_of(sched_job, struct sg_job, base);
	struct sg_ring *ring = job->ring;
	bool dying = READ_ONCE(sg_dying), rerun = job->runs++;
	struct sg_hw_fence *hw;

	/* Resubmitted after a reset that cancelled it: nothing to run (amdgpu_job_run()). */
	if (sched_job->s_fence->finished.error)
		return NULL;
	/* A run before this one ended with the reset that resubmits it. */
	sg_retire_hw(job, -ECANCELED);
	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return ERR_PTR(-ENOMEM);
	dma_fence_init(&hw->base, &sg_fence_ops, &ring->fence_lock, ring->hw_context,
		       atomic64_inc_return(&ring->hw_seqno));
	/* One reference for the scheduler (returned), one for the job, one for the timer. */
	job->hw = hw;
	dma_fence_get(&hw->base);
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&hw->timer, sg_hw_fence_expire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&hw->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hw->timer.function = sg_hw_fence_expire;
#endif
	sg_on_run(job);
	/* A hang: only recovery (sg_timeout()) or the job's end signals the fence. */
	if (job->hang && !rerun && !dying)
		return &hw->base;
	hw->timed = true;
	dma_fence_get(&hw->base);
	/* Run again after a reset, or unloading: the "hardware" finishes it at once. */
	hrtimer_start(&hw->timer, ns_to_ktime(dying || rerun ? 0 : job->exec_ns),
		      HRTIMER_MODE_REL);
	return &hw->base;
}

/*
 * A full recovery, as amdgpu's amdgpu_device_gpu_recover() up to 6.12: the
 * scheduler stopped with `bad` as its bad job, its karma raised (past
 * hang_limit 0: guilty, so resubmitting cancels it and its entity's jobs
 * behind it), the hardware "reset" (its fence force-completed), the jobs
 * on the hardware run again, the scheduler started.
 */
static void sg_recover_full(struct sg_job *job)
{
	struct drm_sched_job *bad = &job->base;
	struct drm_gpu_scheduler *sched = bad->sched;

	drm_sched_stop(sched, bad);
	drm_sched_increase_karma(bad);
	sg_retire_hw(job, -ETIME);
	drm_sched_resubmit_jobs(sched);
#if SG_START_ARG == 2
	drm_sched_start(sched, 0);
#elif SG_START_ARG == 1
	drm_sched_start(sched, true);
#else
	drm_sched_start(sched);
#endif
}

/*
 * A ring reset, as amdgpu's from 6.17 and xe's: only the scheduler's work
 * queue stopped, the bad job put back on the pending list (the scheduler
 * took it off, and frees only what is there), its hardware fence
 * force-completed, the other jobs on the hardware emitted again (amdgpu
 * re-emits them after the reset; here they finish at once, as a job run
 * again does), the queue started.
 */
static void sg_reset_ring(struct sg_job *job)
{
#if SG_WQUEUE
	struct drm_sched_job *bad = &job->base, *s_job;
	struct drm_gpu_scheduler *sched = bad->sched;

	drm_sched_wqueue_stop(sched);
	spin_lock(&sched->job_list_lock);
	list_add(&bad->list, &sched->pending_list);
	list_for_each_entry(s_job, &sched->pending_list, list) {
		struct sg_job *other = container_of(s_job, struct sg_job, base);

		/* Only a timer still pending (1): one that fired has dropped its reference. */
		if (other != job && other->hw && other->hw->timed &&
		    hrtimer_try_to_cancel(&other->hw->timer) == 1)
			hrtimer_start(&other->hw->timer, 0, HRTIMER_MODE_REL);
	}
	spin_unlock(&sched->job_list_lock);
	sg_retire_hw(job, -ETIME);
	drm_sched_wqueue_start(sched);
#endif
}

/*
 * The scheduler's timeout handler found `bad` first on the ring past its
 * time: its error set as amdgpu's amdgpu_job_timedout() sets it, then
 * recovered as recovery= says; with wedged=1, drm told after.
 */
static void sg_timeout(struct drm_sched_job *bad)
{
	struct sg_job *job = container_of(bad, struct sg_job, base);
	char comm[TASK_COMM_LEN];
	pid_t pid = job->pid;

	/* The job may be freed once the scheduler runs again. */
	memcpy(comm, job->comm, sizeof(comm));
	atomic_inc(&sg_recovering);
	atomic_inc(&job->ring->timeouts);
	dma_fence_set_error(&bad->s_fence->finished, -ETIME);
	if (sg_ring_reset)
		sg_reset_ring(job);
	else
		sg_recover(job);
	sg_wedged_recovered(pid, comm);
	atomic_dec(&sg_recovering);
	wake_up_all(&sg_done_wq);
}

#if SG_TIMEDOUT_STAT
static enum drm_gpu_sched_stat sg_timedout_job(struct drm_sched_job *sched_job)
{
	sg_timeout(sched_job);
#if SG_STAT_NO_HANG
	return DRM_GPU_SCHED_STAT_RESET;
#else
	return DRM_GPU_SCHED_STAT_NOMINAL;
#endif
}
#else
static void sg_timedout_job(struct drm_sched_job *sched_job)
{
	sg_timeout(sched_job);
}
#endif

#if !SG_JOB_ADD_DEPENDENCY
/*
 * Kernels without drm_sched_job_add_dependency() ask the backend for a
 * job's dependencies until it returns NULL (each one traced as
 * drm_sched_job_wait_dep, as on newer kernels): the job's one dependency,
 * the reference handed over.
 */
static struct dma_fence *sg_dependency(struct drm_sched_job *sched_job,
				       struct drm_sched_entity *entity)
{
	struct sg_job *job = container_of(sched_job, struct sg_job, base);
	struct dma_fence *dep = job->dep;

	job->dep = NULL;
	return dep;
}
#endif

static void sg_free_job(struct drm_sched_job *sched_job)
{
	struct sg_job *job = container_of(sched_job, struct sg_job, base);
	struct sg_ring *ring = job->ring;

	dma_fence_put(job->dep);	/* (none left once it ran) */
	sg_retire_hw(job, -ECANCELED);
	drm_sched_job_cleanup(sched_job);
	kfree(job);
	atomic_inc(&ring->completed);
	wake_up_all(&sg_done_wq);
}

static const struct drm_sched_backend_ops sg_sched_ops = {
#if !SG_JOB_ADD_DEPENDENCY
	.dependency = sg_dependency,
#endif
	.run_job = sg_run_job,
	.timedout_job = sg_timedout_job,
	.free_job = sg_free_job,
};

static struct sg_ring *sg_find_ring(const char *name)
{
	int i;

	for (i = 0; i < nr_rings; i++)
		if (!strcmp(sg_rings[i].name, name))
			return &sg_rings[i];
	return NULL;
}

/* A reference to the finished fence of the last job submitted on `ring` (or NULL). */
static struct dma_fence *sg_last_fence(struct sg_ring *ring)
{
	struct dma_fence *f;

	mutex_lock(&ring->submit_lock);
	f = dma_fence_get(ring->last_finished);
	mutex_unlock(&ring->submit_lock);
	return f;
}

enum sg_deps { DEPS_NONE, DEPS_CHAIN, DEPS_RING, DEPS_GATE };

/* The gate (deps=gate): a fence "gate close" makes and "gate open" signals; NULL: open. */
static struct dma_fence *sg_gate;
static DEFINE_SPINLOCK(sg_gate_lock);	/* the fence's lock; sg_gate's too */
static u64 sg_gate_context;
static atomic64_t sg_gate_seqno;

/* A reference to the gate, or NULL when it is open. */
static struct dma_fence *sg_gate_get(void)
{
	struct dma_fence *f;

	spin_lock_irq(&sg_gate_lock);
	f = dma_fence_get(sg_gate);
	spin_unlock_irq(&sg_gate_lock);
	return f;
}

/* The gate set to `f` (NULL: open); the one it replaces, if any, signalled. */
static void sg_gate_set(struct dma_fence *f)
{
	spin_lock_irq(&sg_gate_lock);
	swap(f, sg_gate);
	spin_unlock_irq(&sg_gate_lock);
	if (f) {
		dma_fence_signal(f);
		dma_fence_put(f);
	}
}

static int sg_gate_command(char *args)
{
	char *what = args ? strim(args) : "";
	struct dma_fence *f;

	if (!strcmp(what, "open")) {
		sg_gate_set(NULL);
		return 0;
	}
	if (strcmp(what, "close")) {
		pr_warn(SG_NAME ": gate: want close or open\n");
		return -EINVAL;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	dma_fence_init(f, &sg_fence_ops, &sg_gate_lock, sg_gate_context,
		       atomic64_inc_return(&sg_gate_seqno));
	sg_gate_set(f);
	return 0;
}

static int sg_job_init(struct sg_job *job, struct drm_sched_entity *entity, u64 client)
{
#if SG_JOB_INIT_CLIENT_ID
	return drm_sched_job_init(&job->base, entity, 1, NULL, client);
#elif SG_JOB_INIT_CREDITS
	return drm_sched_job_init(&job->base, entity, 1, NULL);
#else
	return drm_sched_job_init(&job->base, entity, NULL);
#endif
}

/* What a submit asks beyond its ring and jobs. */
struct sg_submit_args {
	unsigned long exec_us;
	enum sg_deps deps;
	struct sg_ring *dep_ring;
	u64 client;
	unsigned long entity;
	bool hang;
};

static int sg_submit(struct sg_ring *ring, unsigned long jobs, const struct sg_submit_args *a)
{
	struct drm_sched_entity *entity = &ring->entity[a->entity];
	enum sg_deps deps = a->deps;
	struct dma_fence *prev = NULL, *dep, *ring_dep = NULL;
	unsigned long i;
	int err = 0;

	/* Taken before our own lock: two rings depending on each other cannot deadlock. */
	if (deps == DEPS_RING)
		ring_dep = sg_last_fence(a->dep_ring);
	else if (deps == DEPS_GATE)
		ring_dep = sg_gate_get();
	mutex_lock(&ring->submit_lock);
	for (i = 0; i < jobs; i++) {
		struct sg_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

		if (!job) {
			err = -ENOMEM;
			break;
		}
		job->ring = ring;
		job->exec_ns = (u64)a->exec_us * NSEC_PER_USEC;
		job->hang = a->hang;
		job->pid = current->pid;
		get_task_comm(job->comm, current);
		err = sg_job_init(job, entity, a->client);
		if (err) {
			kfree(job);
			break;
		}
		dep = NULL;
		if (deps == DEPS_CHAIN)
			dep = dma_fence_get(prev);
		else if (deps == DEPS_RING || deps == DEPS_GATE)
			dep = dma_fence_get(ring_dep);
		if (dep) {
#if SG_JOB_ADD_DEPENDENCY
			/* Consumes the reference, also on failure. */
			err = drm_sched_job_add_dependency(&job->base, dep);
			if (err) {
				drm_sched_job_cleanup(&job->base);
				kfree(job);
				break;
			}
#else
			job->dep = dep;		/* for sg_dependency() */
#endif
		}
#if SG_JOB_ARM
		drm_sched_job_arm(&job->base);
#endif
		dma_fence_put(prev);
		prev = dma_fence_get(&job->base.s_fence->finished);
		dma_fence_put(ring->last_finished);
		ring->last_finished = dma_fence_get(prev);
		atomic_inc(&ring->submitted);
		sg_on_push(job);
		/* From here the job belongs to the scheduler (and may be freed at once). */
#if SG_PUSH_JOB_ENTITY
		drm_sched_entity_push_job(&job->base, entity);
#else
		drm_sched_entity_push_job(&job->base);
#endif
	}
	dma_fence_put(prev);
	mutex_unlock(&ring->submit_lock);
	dma_fence_put(ring_dep);
	if (err)
		pr_warn(SG_NAME ": submit on %s stopped after %lu of %lu jobs: error %d\n",
			ring->name, i, jobs, err);
	return err;
}

/* Every ring has completed at least target[ring] jobs (all submitted ones: NULL). */
static bool sg_done(const int *target)
{
	int i;

	if (atomic_read(&sg_recovering))
		return false;
	for (i = 0; i < nr_rings; i++) {
		int want = target ? target[i] : atomic_read(&sg_rings[i].submitted);

		if (atomic_read(&sg_rings[i].completed) < want)
			return false;
	}
	return true;
}

/* Waits for the jobs submitted so far (not for those submitted meanwhile). */
static int sg_wait(unsigned long timeout_ms)
{
	int target[MAX_RINGS], i;
	long left;

	for (i = 0; i < nr_rings; i++)
		target[i] = atomic_read(&sg_rings[i].submitted);
	left = wait_event_interruptible_timeout(sg_done_wq,
						sg_done(target) || READ_ONCE(sg_dying),
						msecs_to_jiffies(timeout_ms));
	if (left < 0)
		return left;
	if (!sg_done(target)) {
		if (READ_ONCE(sg_dying))
			return -ENODEV;
		pr_warn(SG_NAME ": wait timed out after %lu ms\n", timeout_ms);
		return -ETIMEDOUT;
	}
	return 0;
}

static int sg_parse_ulong(const char *key, const char *val, unsigned long min, unsigned long max,
			  unsigned long *out)
{
	if (kstrtoul(val, 10, out) || *out < min || *out > max) {
		pr_warn(SG_NAME ": %s=%s: want a number %lu..%lu\n", key, val, min, max);
		return -EINVAL;
	}
	return 0;
}

static struct sg_ring *sg_ring_arg(const char *key, const char *name)
{
	struct sg_ring *ring = sg_find_ring(name);

	if (!ring)
		pr_warn(SG_NAME ": %s: no ring '%s' (rings=%s)\n", key, name, rings);
	return ring;
}

/* "fault ring=NAME": the ring's timeout handler runs now (drm_sched_fault()). */
static int sg_fault(char *args)
{
	struct sg_ring *ring;
	char *tok = args ? strim(args) : "";

	if (strncmp(tok, "ring=", 5) || strpbrk(tok, " \t")) {
		pr_warn(SG_NAME ": fault: want ring=NAME\n");
		return -EINVAL;
	}
	ring = sg_ring_arg("ring", tok + 5);
	if (!ring)
		return -EINVAL;
	drm_sched_fault(&ring->sched);
	return 0;
}

/* One command: "submit key=value...", "wait [timeout_ms=T]" or "fault ring=NAME". */
static int sg_command(char *line)
{
	unsigned long jobs = 0, wait_ms = 30000, hang = 0;
	struct sg_submit_args a = { .deps = DEPS_NONE };
	struct sg_ring *ring = NULL;
	bool submit;
	char *cmd, *tok, *val;
	int taken;

	line = skip_spaces(line);
	cmd = strsep(&line, " \t");
	if (!strcmp(cmd, "fault"))
		return sg_fault(line);
	if (!strcmp(cmd, "gate"))
		return sg_gate_command(line);
	if (!strcmp(cmd, "wedge"))
		return sg_wedge(line);
	if (!strcmp(cmd, "submit")) {
		submit = true;
		sg_submit_begin();
	} else if (!strcmp(cmd, "wait")) {
		submit = false;
	} else {
		int err = sg_extra_command(cmd, line);

		if (err != -ENOENT)
			return err;
		pr_warn(SG_NAME ": unknown command '%s'\n", cmd);
		return -EINVAL;
	}
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val) {
			pr_warn(SG_NAME ": %s: '%s' is not key=value\n", cmd, tok);
			return -EINVAL;
		}
		*val++ = '\0';
		if (submit && !strcmp(tok, "ring")) {
			ring = sg_ring_arg("ring", val);
			if (!ring)
				return -EINVAL;
		} else if (submit && !strcmp(tok, "jobs")) {
			if (sg_parse_ulong(tok, val, 1, MAX_JOBS_PER_SUBMIT, &jobs))
				return -EINVAL;
		} else if (submit && !strcmp(tok, "exec_us")) {
			if (sg_parse_ulong(tok, val, 0, MAX_EXEC_US, &a.exec_us))
				return -EINVAL;
		} else if (submit && !strcmp(tok, "client")) {
			unsigned long client;

			if (sg_parse_ulong(tok, val, 0, ULONG_MAX, &client))
				return -EINVAL;
			a.client = client;
		} else if (submit && !strcmp(tok, "entity")) {
			if (sg_parse_ulong(tok, val, 0, SG_ENTITIES - 1, &a.entity))
				return -EINVAL;
		} else if (submit && !strcmp(tok, "hang")) {
			if (sg_parse_ulong(tok, val, 0, 1, &hang))
				return -EINVAL;
			a.hang = hang;
		} else if (submit && !strcmp(tok, "deps")) {
			if (!strcmp(val, "none")) {
				a.deps = DEPS_NONE;
			} else if (!strcmp(val, "chain")) {
				a.deps = DEPS_CHAIN;
			} else if (!strcmp(val, "gate")) {
				a.deps = DEPS_GATE;
			} else if (!strncmp(val, "ring:", 5)) {
				a.dep_ring = sg_ring_arg("deps=ring:", val + 5);
				if (!a.dep_ring)
					return -EINVAL;
				a.deps = DEPS_RING;
			} else {
				pr_warn(SG_NAME ": deps=%s: want none, chain, ring:NAME or gate\n", val);
				return -EINVAL;
			}
		} else if (submit && (taken = sg_submit_arg(tok, val)) != 0) {
			if (taken < 0)
				return -EINVAL;
		} else if (!submit && !strcmp(tok, "timeout_ms")) {
			if (sg_parse_ulong(tok, val, 0, MAX_TIMEOUT_MS, &wait_ms))
				return -EINVAL;
		} else {
			pr_warn(SG_NAME ": %s: unknown argument '%s'\n", cmd, tok);
			return -EINVAL;
		}
	}
	if (READ_ONCE(sg_dying))
		return -ENODEV;
	if (!submit)
		return sg_wait(wait_ms);
	if (!ring || !jobs) {
		pr_warn(SG_NAME ": submit needs ring=NAME and jobs=N (1..%d)\n", MAX_JOBS_PER_SUBMIT);
		return -EINVAL;
	}
	if (a.hang && !timeout_ms) {
		pr_warn(SG_NAME ": hang=1 needs the module's timeout_ms= (none would end it)\n");
		return -EINVAL;
	}
	return sg_submit(ring, jobs, &a);
}

/* A write is one command, or several on separate lines (run in order; the first error stops). */
static ssize_t sg_proc_write(struct file *file, const char __user *ubuf, size_t len,
			     loff_t *ppos)
{
	char *buf, *cursor, *line;
	int err = 0;

	if (len > MAX_CMD_LEN)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	for (cursor = buf; !err && (line = strsep(&cursor, "\n"));)
		if (*skip_spaces(line))
			err = sg_command(line);
	kfree(buf);
	return err ? err : len;
}

static int sg_proc_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < nr_rings; i++)
		seq_printf(m, "ring=%s dev=%s submitted=%d completed=%d timeouts=%d\n",
			   sg_rings[i].name, dev_name(&sg_pdev->dev),
			   atomic_read(&sg_rings[i].submitted), atomic_read(&sg_rings[i].completed),
			   atomic_read(&sg_rings[i].timeouts));
	return 0;
}

static int sg_proc_open(struct inode *inode, struct file *file)
{
	return single_open(file, sg_proc_show, NULL);
}

static const struct proc_ops sg_proc_ops = {
	.proc_open = sg_proc_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = sg_proc_write,
};

static int sg_sched_init(struct sg_ring *ring)
{
	long timeout = timeout_ms ? msecs_to_jiffies(timeout_ms) : MAX_SCHEDULE_TIMEOUT;
#if SG_INIT_ARGS
	const struct drm_sched_init_args args = {
		.ops = &sg_sched_ops,
#if SG_INIT_ARGS_NUM_RQS
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
		.credit_limit = credits,
		.timeout = timeout,
		.name = ring->name,
		.dev = &sg_pdev->dev,
	};

	return drm_sched_init(&ring->sched, &args);
#elif SG_INIT_POS_NUM_RQS
	/* sched, ops, submit_wq, num_rqs, credit_limit, hang_limit, timeout, timeout_wq, score, name, dev */
	return drm_sched_init(&ring->sched, &sg_sched_ops, NULL, DRM_SCHED_PRIORITY_COUNT, credits,
			      0, timeout, NULL, NULL, ring->name, &sg_pdev->dev);
#else
	/* sched, ops, hw_submission, hang_limit, timeout, [timeout_wq,] [score,] name[, dev] */
	return drm_sched_init(&ring->sched, &sg_sched_ops, credits, 0, timeout,
#if SG_INIT_POS_TIMEOUT_WQ
			      NULL,
#endif
#if SG_INIT_POS_SCORE
			      NULL,
#endif
#if SG_INIT_POS_DEV
			      ring->name, &sg_pdev->dev);
#else
			      ring->name);
#endif
#endif
}

static int sg_ring_init(struct sg_ring *ring)
{
	int err;

	spin_lock_init(&ring->fence_lock);
	mutex_init(&ring->submit_lock);
	ring->hw_context = dma_fence_context_alloc(1);
	err = sg_sched_init(ring);
	if (err) {
		pr_err(SG_NAME ": drm_sched_init(%s): error %d\n", ring->name, err);
		return err;
	}
	ring->sched_ready = true;
	ring->sched_list[0] = &ring->sched;
	for (; ring->nr_entities < SG_ENTITIES; ring->nr_entities++) {
		err = drm_sched_entity_init(&ring->entity[ring->nr_entities],
					    DRM_SCHED_PRIORITY_NORMAL, ring->sched_list, 1, NULL);
		if (err) {
			pr_err(SG_NAME ": drm_sched_entity_init(%s): error %d\n", ring->name, err);
			return err;
		}
	}
	return 0;
}

/* A driver bound to the device, as a GPU's is: tools name it (dev->driver). */
static int sg_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver sg_driver = {
	.probe = sg_probe,
	.driver = { .name = SG_NAME },
};

static void sg_cleanup(void)
{
	int i;

	/* Jobs not yet run execute in 0 µs; a blocked "wait" returns; jobs behind the gate go. */
	WRITE_ONCE(sg_dying, true);
	wake_up_all(&sg_done_wq);
	sg_gate_set(NULL);
	/* Waits for writers in progress: a submit finishes pushing its jobs. */
	if (sg_proc)
		proc_remove(sg_proc);
	/* Jobs in flight finish within their exec time (at most MAX_EXEC_US). */
	while (!wait_event_timeout(sg_done_wq, sg_done(NULL), 10 * HZ))
		for (i = 0; i < nr_rings; i++)
			pr_info(SG_NAME ": unloading: ring %s waits for %d jobs\n", sg_rings[i].name,
				atomic_read(&sg_rings[i].submitted) -
				atomic_read(&sg_rings[i].completed));
	for (i = 0; i < nr_rings; i++) {
		struct sg_ring *ring = &sg_rings[i];

		while (ring->nr_entities)
			drm_sched_entity_destroy(&ring->entity[--ring->nr_entities]);
		if (ring->sched_ready)
			drm_sched_fini(&ring->sched);
		dma_fence_put(ring->last_finished);
		ring->last_finished = NULL;
	}
	/*
	 * A timer callback may still be returning from dma_fence_signal() and
	 * dma_fence_put() (our code) after its job was freed: hrtimer callbacks
	 * run with interrupts off, so a grace period waits for them.
	 */
	synchronize_rcu();
	sg_drm_unregister();
	if (sg_pdev)
		platform_device_unregister(sg_pdev);
	if (sg_driver_registered)
		platform_driver_unregister(&sg_driver);
}

static int __init sg_init(void)
{
	char *names, *cursor, *name;
	int err = 0;

	sg_gate_context = dma_fence_context_alloc(1);
	if (credits < 1 || credits > MAX_CREDITS) {
		pr_err(SG_NAME ": credits=%u: want 1..%d\n", credits, MAX_CREDITS);
		return -EINVAL;
	}
	if (timeout_ms > MAX_TIMEOUT_MS) {
		pr_err(SG_NAME ": timeout_ms=%u: want 0..%lu\n", timeout_ms, MAX_TIMEOUT_MS);
		return -EINVAL;
	}
	sg_ring_reset = !strcmp(recovery, "ring");
	if ((!sg_ring_reset && strcmp(recovery, "full")) || (sg_ring_reset && !SG_WQUEUE)) {
		pr_err(SG_NAME ": recovery=%s: want full%s\n", recovery,
		       SG_WQUEUE ? " or ring" : " (no drm_sched_wqueue_stop() here for ring)");
		return -EINVAL;
	}
	sg_driver.driver.name = driver;
	err = platform_driver_register(&sg_driver);
	if (err)
		return err;
	sg_driver_registered = true;
	/* A real device: >= 6.17 trace events record dev_name(sched->dev). */
	sg_pdev = platform_device_register_simple(driver, -1, NULL, 0);
	if (IS_ERR(sg_pdev)) {
		err = PTR_ERR(sg_pdev);
		sg_pdev = NULL;
		goto fail;
	}
	if (wedged) {
		err = sg_drm_register();
		if (err)
			goto fail;
	}
	names = kstrdup(rings, GFP_KERNEL);
	if (!names) {
		err = -ENOMEM;
		goto fail;
	}
	for (cursor = names; !err && (name = strsep(&cursor, ","));) {
		if (!*name)
			continue;
		if (nr_rings == MAX_RINGS || strlen(name) >= sizeof(sg_rings[0].name) ||
		    sg_find_ring(name) || strpbrk(name, " \t\n=")) {
			pr_err(SG_NAME ": bad ring list '%s' (at most %d distinct names of at most %zu characters)\n",
			       rings, MAX_RINGS, sizeof(sg_rings[0].name) - 1);
			err = -EINVAL;
			break;
		}
		strscpy(sg_rings[nr_rings].name, name, sizeof(sg_rings[0].name));
		err = sg_ring_init(&sg_rings[nr_rings++]);
	}
	kfree(names);
	if (!err && !nr_rings) {
		pr_err(SG_NAME ": rings= names no ring\n");
		err = -EINVAL;
	}
	if (err)
		goto fail;
	sg_proc = proc_create(SG_NAME, 0600, NULL, &sg_proc_ops);
	if (!sg_proc) {
		err = -ENOMEM;
		goto fail;
	}
	return 0;
fail:
	sg_cleanup();
	return err;
}

static void __exit sg_exit(void)
{
	sg_cleanup();
	sg_on_exit();
}

module_init(sg_init);
module_exit(sg_exit);
MODULE_DESCRIPTION(SG_DESCRIPTION);
MODULE_LICENSE("GPL");
