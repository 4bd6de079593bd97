// SPDX-License-Identifier: GPL-2.0
/*
 * schedgen: a job generator on the kernel's real DRM GPU scheduler.
 *
 * The test ground of drmsched: no machine here has a GPU, so this module
 * plays the driver. It creates one drm_gpu_scheduler ("ring") per name in
 * rings=, each with one entity, and takes commands on /proc/schedgen:
 *
 *   submit ring=NAME jobs=N exec_us=U [deps=none|chain|ring:OTHER] [client=ID]
 *   wait [timeout_ms=T]
 *
 * Jobs are pushed from the writer's own context, like an ioctl would, and
 * "execute" for U microseconds: run_job returns a hardware fence that an
 * hrtimer signals. Everything else - queueing, dependencies, run, done and
 * every gpu_scheduler tracepoint - is the kernel's own scheduler code.
 * Reading /proc/schedgen prints "ring=NAME dev=DEV submitted=N completed=M".
 */
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/wait.h>
#include <drm/gpu_scheduler.h>

#define MAX_RINGS 8
#define MAX_JOBS_PER_SUBMIT 100000

static char *rings = "gfx";
module_param(rings, charp, 0444);
MODULE_PARM_DESC(rings, "comma-separated ring (scheduler) names");
static unsigned int credits = 1;
module_param(credits, uint, 0444);
MODULE_PARM_DESC(credits, "jobs each ring runs at once (credit limit)");

struct sg_ring {
	char name[32];
	struct drm_gpu_scheduler sched;
	struct drm_gpu_scheduler *sched_list[1];
	struct drm_sched_entity entity;
	bool sched_ready, entity_ready;
	u64 hw_context;			/* timeline of the "hardware" fences */
	atomic64_t hw_seqno;
	spinlock_t fence_lock;
	atomic_t submitted, completed;
	struct mutex submit_lock;	/* an entity has a single producer */
	struct dma_fence *last_finished;	/* for deps=ring:THIS, under submit_lock */
};

struct sg_job {
	struct drm_sched_job base;
	struct sg_ring *ring;
	u64 exec_ns;
};

/* What run_job returns: signalled by its timer after the job's exec time. */
struct sg_hw_fence {
	struct dma_fence base;		/* first: dma_fence_free() kfrees the whole */
	struct hrtimer timer;
};

static struct sg_ring sg_rings[MAX_RINGS];
static int nr_rings;
static struct platform_device *sg_pdev;
static struct proc_dir_entry *sg_proc;
static DECLARE_WAIT_QUEUE_HEAD(sg_done_wq);

static const char *sg_fence_driver_name(struct dma_fence *f)
{
	return "schedgen";
}

static const char *sg_fence_timeline_name(struct dma_fence *f)
{
	return "schedgen-hw";
}

static const struct dma_fence_ops sg_fence_ops = {
	.get_driver_name = sg_fence_driver_name,
	.get_timeline_name = sg_fence_timeline_name,
};

static enum hrtimer_restart sg_hw_fence_expire(struct hrtimer *t)
{
	struct sg_hw_fence *hw = container_of(t, struct sg_hw_fence, timer);

	dma_fence_signal(&hw->base);
	dma_fence_put(&hw->base);	/* the timer's reference */
	return HRTIMER_NORESTART;
}

static struct dma_fence *sg_run_job(struct drm_sched_job *sched_job)
{
	struct sg_job *job = container_of(sched_job, struct sg_job, base);
	struct sg_ring *ring = job->ring;
	struct sg_hw_fence *hw;

	hw = kzalloc(sizeof(*hw), GFP_KERNEL);
	if (!hw)
		return ERR_PTR(-ENOMEM);
	dma_fence_init(&hw->base, &sg_fence_ops, &ring->fence_lock, ring->hw_context,
		       atomic64_inc_return(&ring->hw_seqno));
	dma_fence_get(&hw->base);	/* one for the timer, one for the scheduler */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(&hw->timer, sg_hw_fence_expire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
#else
	hrtimer_init(&hw->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hw->timer.function = sg_hw_fence_expire;
#endif
	hrtimer_start(&hw->timer, ns_to_ktime(job->exec_ns), HRTIMER_MODE_REL);
	return &hw->base;
}

static enum drm_gpu_sched_stat sg_timedout_job(struct drm_sched_job *sched_job)
{
	/* Jobs always finish; the timeout is infinite. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
	return DRM_GPU_SCHED_STAT_NO_HANG;
#else
	return DRM_GPU_SCHED_STAT_NOMINAL;
#endif
}

static void sg_free_job(struct drm_sched_job *sched_job)
{
	struct sg_job *job = container_of(sched_job, struct sg_job, base);

	drm_sched_job_cleanup(sched_job);
	atomic_inc(&job->ring->completed);
	wake_up_all(&sg_done_wq);
	kfree(job);
}

static const struct drm_sched_backend_ops sg_sched_ops = {
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

/* A reference to the finished fence of the last job submitted on `ring`. */
static struct dma_fence *sg_last_fence(struct sg_ring *ring)
{
	struct dma_fence *f;

	mutex_lock(&ring->submit_lock);
	f = dma_fence_get(ring->last_finished);
	mutex_unlock(&ring->submit_lock);
	return f;
}

enum sg_deps { DEPS_NONE, DEPS_CHAIN, DEPS_RING };

static int sg_submit(struct sg_ring *ring, unsigned long jobs, unsigned long exec_us,
		     enum sg_deps deps, struct sg_ring *dep_ring, u64 client)
{
	struct dma_fence *prev = NULL, *dep, *ring_dep = NULL;
	unsigned long i;
	int err = 0;

	/* Taken before our own lock: two rings waiting on each other must not deadlock. */
	if (deps == DEPS_RING)
		ring_dep = sg_last_fence(dep_ring);
	mutex_lock(&ring->submit_lock);
	for (i = 0; i < jobs; i++) {
		struct sg_job *job = kzalloc(sizeof(*job), GFP_KERNEL);

		if (!job) {
			err = -ENOMEM;
			break;
		}
		job->ring = ring;
		job->exec_ns = exec_us * NSEC_PER_USEC;
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 17, 0)
		err = drm_sched_job_init(&job->base, &ring->entity, 1, NULL, client);
#else
		err = drm_sched_job_init(&job->base, &ring->entity, NULL);
#endif
		if (err) {
			kfree(job);
			break;
		}
		dep = NULL;
		if (deps == DEPS_CHAIN)
			dep = dma_fence_get(prev);
		else if (deps == DEPS_RING)
			dep = dma_fence_get(ring_dep);
		if (dep) {
			/* Consumes the reference, also on failure. */
			err = drm_sched_job_add_dependency(&job->base, dep);
			if (err) {
				drm_sched_job_cleanup(&job->base);
				kfree(job);
				break;
			}
		}
		drm_sched_job_arm(&job->base);
		dma_fence_put(prev);
		prev = dma_fence_get(&job->base.s_fence->finished);
		dma_fence_put(ring->last_finished);
		ring->last_finished = dma_fence_get(prev);
		atomic_inc(&ring->submitted);
		drm_sched_entity_push_job(&job->base);
	}
	dma_fence_put(prev);
	mutex_unlock(&ring->submit_lock);
	dma_fence_put(ring_dep);
	return err;
}

static bool sg_all_done(void)
{
	int i;

	for (i = 0; i < nr_rings; i++)
		if (atomic_read(&sg_rings[i].completed) != atomic_read(&sg_rings[i].submitted))
			return false;
	return true;
}

static int sg_wait(unsigned long timeout_ms)
{
	long left = wait_event_interruptible_timeout(sg_done_wq, sg_all_done(),
						     msecs_to_jiffies(timeout_ms));

	if (left < 0)
		return left;
	return left ? 0 : -ETIMEDOUT;
}

static int sg_parse_ulong(const char *val, unsigned long max, unsigned long *out)
{
	if (kstrtoul(val, 10, out) || *out > max)
		return -EINVAL;
	return 0;
}

/* One command line: "submit key=value..." or "wait [timeout_ms=T]". */
static int sg_command(char *line)
{
	unsigned long jobs = 0, exec_us = 0, timeout_ms = 30000, client = 0;
	struct sg_ring *ring = NULL, *dep_ring = NULL;
	enum sg_deps deps = DEPS_NONE;
	char *cmd, *tok, *val;

	cmd = strsep(&line, " \t");
	if (!cmd || (strcmp(cmd, "submit") && strcmp(cmd, "wait"))) {
		pr_warn("schedgen: unknown command '%s' (submit, wait)\n", cmd ? cmd : "");
		return -EINVAL;
	}
	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			goto bad;
		*val++ = '\0';
		if (!strcmp(tok, "ring")) {
			ring = sg_find_ring(val);
			if (!ring)
				goto bad;
		} else if (!strcmp(tok, "jobs")) {
			if (sg_parse_ulong(val, MAX_JOBS_PER_SUBMIT, &jobs))
				goto bad;
		} else if (!strcmp(tok, "exec_us")) {
			if (sg_parse_ulong(val, 10 * USEC_PER_SEC, &exec_us))
				goto bad;
		} else if (!strcmp(tok, "client")) {
			if (kstrtoul(val, 10, &client))
				goto bad;
		} else if (!strcmp(tok, "timeout_ms")) {
			if (sg_parse_ulong(val, 3600 * MSEC_PER_SEC, &timeout_ms))
				goto bad;
		} else if (!strcmp(tok, "deps")) {
			if (!strcmp(val, "none")) {
				deps = DEPS_NONE;
			} else if (!strcmp(val, "chain")) {
				deps = DEPS_CHAIN;
			} else if (!strncmp(val, "ring:", 5) && (dep_ring = sg_find_ring(val + 5))) {
				deps = DEPS_RING;
			} else {
				goto bad;
			}
		} else {
			goto bad;
		}
	}
	if (!strcmp(cmd, "wait"))
		return sg_wait(timeout_ms);
	if (!ring || !jobs) {
		pr_warn("schedgen: submit needs ring=NAME and jobs=N (1..%d)\n", MAX_JOBS_PER_SUBMIT);
		return -EINVAL;
	}
	return sg_submit(ring, jobs, exec_us, deps, dep_ring, client);
bad:
	pr_warn("schedgen: bad argument '%s%s%s'\n", tok, val ? "=" : "", val ? val : "");
	return -EINVAL;
}

static ssize_t sg_proc_write(struct file *file, const char __user *ubuf, size_t len,
			     loff_t *ppos)
{
	char *buf, *nl;
	int err;

	if (len > 256)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	err = sg_command(buf);
	kfree(buf);
	return err ? err : len;
}

static int sg_proc_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < nr_rings; i++)
		seq_printf(m, "ring=%s dev=%s submitted=%d completed=%d\n", sg_rings[i].name,
			   dev_name(&sg_pdev->dev), atomic_read(&sg_rings[i].submitted),
			   atomic_read(&sg_rings[i].completed));
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

static int sg_ring_init(struct sg_ring *ring)
{
	/*
	 * Debian's 6.1 has the struct-argument drm_sched_init() of >= 6.14
	 * (backported with the credit limit); upstream 6.1 does not.
	 */
	struct drm_sched_init_args args = {
		.ops = &sg_sched_ops,
		.credit_limit = credits,
		.timeout = MAX_SCHEDULE_TIMEOUT,
		.name = ring->name,
		.dev = &sg_pdev->dev,
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
		.num_rqs = DRM_SCHED_PRIORITY_COUNT,
#endif
	};
	int err;

	spin_lock_init(&ring->fence_lock);
	mutex_init(&ring->submit_lock);
	ring->hw_context = dma_fence_context_alloc(1);
	err = drm_sched_init(&ring->sched, &args);
	if (err)
		return err;
	ring->sched_ready = true;
	ring->sched_list[0] = &ring->sched;
	err = drm_sched_entity_init(&ring->entity, DRM_SCHED_PRIORITY_NORMAL, ring->sched_list, 1,
				    NULL);
	if (err)
		return err;
	ring->entity_ready = true;
	return 0;
}

static void sg_cleanup(void)
{
	int i;

	if (sg_proc)
		proc_remove(sg_proc);
	/* Let jobs in flight finish: their fences signal within exec_us. */
	wait_event_timeout(sg_done_wq, sg_all_done(), 60 * HZ);
	for (i = 0; i < nr_rings; i++) {
		struct sg_ring *ring = &sg_rings[i];

		if (ring->entity_ready)
			drm_sched_entity_destroy(&ring->entity);
		if (ring->sched_ready)
			drm_sched_fini(&ring->sched);
		dma_fence_put(ring->last_finished);
	}
	if (sg_pdev)
		platform_device_unregister(sg_pdev);
}

static int __init sg_init(void)
{
	char *names, *cursor, *name;
	int err = 0;

	/* A real device: >= 6.17 trace events record dev_name(sched->dev). */
	sg_pdev = platform_device_register_simple("schedgen", -1, NULL, 0);
	if (IS_ERR(sg_pdev)) {
		err = PTR_ERR(sg_pdev);
		sg_pdev = NULL;
		return err;
	}
	names = kstrdup(rings, GFP_KERNEL);
	if (!names) {
		err = -ENOMEM;
		goto fail;
	}
	for (cursor = names; (name = strsep(&cursor, ",")) && !err;) {
		if (!*name)
			continue;
		if (nr_rings == MAX_RINGS || strlen(name) >= sizeof(sg_rings[0].name) ||
		    sg_find_ring(name)) {
			pr_err("schedgen: bad ring list '%s' (at most %d distinct names)\n", rings,
			       MAX_RINGS);
			err = -EINVAL;
			break;
		}
		strscpy(sg_rings[nr_rings].name, name, sizeof(sg_rings[0].name));
		err = sg_ring_init(&sg_rings[nr_rings++]);
	}
	kfree(names);
	if (err)
		goto fail;
	sg_proc = proc_create("schedgen", 0600, NULL, &sg_proc_ops);
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
}

module_init(sg_init);
module_exit(sg_exit);
MODULE_DESCRIPTION("Job generator on the DRM GPU scheduler, for gpu-bpf-tools tests");
MODULE_LICENSE("GPL");
