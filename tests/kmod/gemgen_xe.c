// SPDX-License-Identifier: GPL-2.0
/*
 * gemgen's xe part: the xe driver's memory events over BOs of known sizes
 * (the xe_* commands of /proc/gemgen; see gemgen_main.c).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "gemgen.h"

#define CREATE_TRACE_POINTS
#include "gemgen_xe_trace.h"

#define MAX_BOS		100000
#define MAX_VMS		16

static struct xe_bo **gx_bos;		/* by number; NULL once destroyed */
static int gx_created;
static struct xe_vm *gx_vms[MAX_VMS];
static int gx_nr_vms;

/*
 * Named as xe's TTM destroy callback, where every real xe BO ends: xe has
 * no destroy event, so i915mem attaches to this function (fentry).
 */
void xe_ttm_bo_destroy(struct ttm_buffer_object *ttm_bo);
noinline void xe_ttm_bo_destroy(struct ttm_buffer_object *ttm_bo)
{
	struct xe_bo *bo = container_of(ttm_bo, struct xe_bo, ttm);

	gx_bos[bo->id] = NULL;
	kfree(bo->vma);
	kfree(bo);
}

static int gx_range(const struct gg_args *a)
{
	long i;

	if (a->first < 0 || a->n < 1 || a->first + a->n > gx_created)
		return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++)
		if (!gx_bos[i])
			return -ENOENT;
	return 0;
}

static void gx_unbind(struct xe_bo *bo)
{
	if (!bo->vma->bound)
		return;
	trace_xe_vma_unbind(bo->vma);
	bo->vma->bound = false;
}

static void gx_destroy(struct xe_bo *bo)
{
	gx_unbind(bo);
	xe_ttm_bo_destroy(&bo->ttm);
}

struct gx_destroy_work {
	struct work_struct work;
	long first, n;
};

static void gx_destroy_fn(struct work_struct *work)
{
	struct gx_destroy_work *w = container_of(work, struct gx_destroy_work, work);
	long i;

	for (i = w->first; i < w->first + w->n; i++)
		gx_destroy(gx_bos[i]);
}

static int gx_create(const struct gg_args *a)
{
	long i;

	if (!gx_bos) {
		gx_bos = kvcalloc(MAX_BOS, sizeof(*gx_bos), GFP_KERNEL);
		if (!gx_bos)
			return -ENOMEM;
	}
	if (a->size < 1 || a->n < 1 || gx_created + a->n > MAX_BOS)
		return -EINVAL;
	for (i = 0; i < a->n; i++) {
		struct xe_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

		if (bo)
			bo->vma = kzalloc(sizeof(*bo->vma), GFP_KERNEL);
		if (!bo || !bo->vma) {
			kfree(bo);
			return -ENOMEM;
		}
		bo->ttm.base.size = a->size;
		bo->id = gx_created;
		bo->vma->gpuva.gem.obj = &bo->ttm.base;
		gx_bos[gx_created++] = bo;
		trace_xe_bo_create(bo);
	}
	return 0;
}

/* Each bound BO of the range, through `fire`; -EINVAL when one is not bound. */
static int gx_each_bound(const struct gg_args *a, void (*fire)(struct xe_vma *))
{
	long i;
	int err = gx_range(a);

	if (err)
		return err;
	for (i = a->first; i < a->first + a->n; i++)
		if (!gx_bos[i]->vma->bound)
			return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++)
		fire(gx_bos[i]->vma);
	return 0;
}

static void gx_fire_rebind(struct xe_vma *vma) { trace_xe_vma_rebind_exec(vma); }
static void gx_fire_evict(struct xe_vma *vma) { trace_xe_vma_evict(vma); }
static void gx_fire_gpu_fault(struct xe_vma *vma) { trace_xe_vma_pagefault(vma); }

static void gx_fire_unbind(struct xe_vma *vma)
{
	trace_xe_vma_unbind(vma);
	vma->bound = false;
}

/*
 * The writer's exec queue, made at its first incident command: owned by
 * its process (xe_file's pid and name, as xe_file_open() sets them), with
 * the scheduler xe would have made for it, named as the queue, on no
 * device (gemgen has none).
 */
#define MAX_QUEUES	16
static struct xe_exec_queue *gx_queues[MAX_QUEUES];
static int gx_nr_queues;

static struct xe_exec_queue *gx_queue_of_current(void)
{
	struct xe_guc_exec_queue *guc;
	struct xe_exec_queue *q;
	struct xe_file *xef;
	char *name;
	int i;

	for (i = 0; i < gx_nr_queues; i++)
		if (gx_queues[i]->xef->pid == current->tgid)
			return gx_queues[i];
	if (gx_nr_queues == MAX_QUEUES)
		return NULL;
	q = kzalloc(sizeof(*q), GFP_KERNEL);
	xef = kzalloc(sizeof(*xef), GFP_KERNEL);
	guc = kzalloc(sizeof(*guc), GFP_KERNEL);
	name = kstrdup(current->comm, GFP_KERNEL);
	if (!q || !xef || !guc || !name) {
		kfree(name);
		kfree(guc);
		kfree(xef);
		kfree(q);
		return NULL;
	}
	xef->process_name = name;
	xef->pid = current->tgid;
	q->xef = xef;
	q->guc = guc;
	snprintf(q->name, sizeof(q->name), "rcs%d", gx_nr_queues);
	q->guc->sched.base.name = q->name;
	gx_queues[gx_nr_queues++] = q;
	return q;
}

static const char *gx_fence_name(struct dma_fence *f)
{
	return "gemgen";
}

/* The fence is a drm_sched_fence's finished: free the whole. */
static void gx_fence_release(struct dma_fence *f)
{
	kfree(container_of(f, struct drm_sched_fence, finished));
}

static const struct dma_fence_ops gx_fence_ops = {
	.get_driver_name = gx_fence_name,
	.get_timeline_name = gx_fence_name,
	.release = gx_fence_release,
};
static DEFINE_SPINLOCK(gx_fence_lock);

/*
 * xe_sched_job_timedout of a job of the queue's, as xe's timeout handler
 * reports one it found past its time: the job named by its finished
 * fence, as the scheduler's are (never run here: freed at once).
 */
static int gx_job_timedout(struct xe_exec_queue *q)
{
	struct drm_sched_fence *s_fence = kzalloc(sizeof(*s_fence), GFP_KERNEL);
	struct xe_sched_job job = { .drm.sched = &q->guc->sched.base, .drm.s_fence = s_fence, .q = q };

	if (!s_fence)
		return -ENOMEM;
	dma_fence_init(&s_fence->finished, &gx_fence_ops, &gx_fence_lock, dma_fence_context_alloc(1), 1);
	trace_xe_sched_job_timedout(&job);
	dma_fence_signal(&s_fence->finished);
	dma_fence_put(&s_fence->finished);
	return 0;
}

/* xe_exec_queue_reset (the GuC reset the queue's engine), _memory_cat_error, a job's timeout. */
static int gx_queue_event(const char *verb)
{
	struct xe_exec_queue *q = gx_queue_of_current();

	if (!q)
		return -ENOMEM;
	if (!strcmp(verb, "xe_queue_reset"))
		trace_xe_exec_queue_reset(q);
	else if (!strcmp(verb, "xe_job_timedout"))
		return gx_job_timedout(q);
	else
		trace_xe_exec_queue_memory_cat_error(q);
	return 0;
}

int gg_xe_command(const char *verb, const struct gg_args *a)
{
	struct xe_vm *vm;
	long i;
	int err;

	if (!strcmp(verb, "xe_queue_reset") || !strcmp(verb, "xe_queue_cat_error") ||
	    !strcmp(verb, "xe_job_timedout"))
		return gx_queue_event(verb);

	if (!strcmp(verb, "xe_vm")) {
		if (gx_nr_vms == MAX_VMS)
			return -ENOSPC;
		vm = kzalloc(sizeof(*vm), GFP_KERNEL);
		if (!vm)
			return -ENOMEM;
		vm->next = 1 << 20;
		gx_vms[gx_nr_vms++] = vm;
		trace_xe_vm_create(vm);
		return 0;
	}
	if (!strcmp(verb, "xe_create"))
		return gx_create(a);
	if (!strcmp(verb, "xe_rebind"))
		return gx_each_bound(a, gx_fire_rebind);
	if (!strcmp(verb, "xe_unbind"))
		return gx_each_bound(a, gx_fire_unbind);
	if (!strcmp(verb, "xe_evict"))
		return gx_each_bound(a, gx_fire_evict);
	if (!strcmp(verb, "xe_gpu_fault"))
		return gx_each_bound(a, gx_fire_gpu_fault);
	if (!strcmp(verb, "xe_release")) {
		if (a->vm < 0 || a->vm >= gx_nr_vms)
			return -EINVAL;
		trace_xe_vm_free(gx_vms[a->vm]);
		return 0;
	}
	err = gx_range(a);
	if (err)
		return err;
	if (!strcmp(verb, "xe_bind")) {
		if (a->vm < 0 || a->vm >= gx_nr_vms)
			return -EINVAL;
		vm = gx_vms[a->vm];
		for (i = a->first; i < a->first + a->n; i++) {
			struct xe_bo *bo = gx_bos[i];

			if (bo->vma->bound)
				return -EBUSY;
			bo->vma->gpuva.vm = &vm->gpuvm;
			bo->vma->gpuva.va.addr = vm->next;
			bo->vma->gpuva.va.range = bo->ttm.base.size;
			vm->next += bo->ttm.base.size;
			bo->vma->bound = true;
			trace_xe_vma_bind(bo->vma);
		}
		return 0;
	}
	if (!strcmp(verb, "xe_destroy") && a->async > 0) {
		struct gx_destroy_work w = { .first = a->first, .n = a->n };

		INIT_WORK_ONSTACK(&w.work, gx_destroy_fn);
		queue_work(system_unbound_wq, &w.work);
		flush_work(&w.work);
		destroy_work_on_stack(&w.work);
		return 0;
	}
	if (!strcmp(verb, "xe_move") && a->placement < 0)
		return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++) {
		struct xe_bo *bo = gx_bos[i];

		if (!strcmp(verb, "xe_move")) {
			trace_xe_bo_move(bo, a->placement, bo->flags, false);
			bo->flags = a->placement;
		} else if (!strcmp(verb, "xe_fault")) {
			trace_xe_bo_cpu_fault(bo);
		} else if (!strcmp(verb, "xe_destroy")) {
			gx_destroy(bo);
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

int gg_xe_show(int *alive)
{
	int i;

	*alive = 0;
	for (i = 0; i < gx_created; i++)
		*alive += !!gx_bos[i];
	return gx_created;
}

void gg_xe_exit(void)
{
	int i;

	for (i = 0; i < gx_created; i++)
		if (gx_bos[i])
			xe_ttm_bo_destroy(&gx_bos[i]->ttm);
	kvfree(gx_bos);
	for (i = 0; i < gx_nr_vms; i++)
		kfree(gx_vms[i]);
	for (i = 0; i < gx_nr_queues; i++) {
		kfree(gx_queues[i]->xef->process_name);
		kfree(gx_queues[i]->xef);
		kfree(gx_queues[i]->guc);
		kfree(gx_queues[i]);
	}
}
