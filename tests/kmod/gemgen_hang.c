// SPDX-License-Identifier: GPL-2.0
/*
 * gemgen's i915 hang: what i915 does when its heartbeat finds an engine
 * stuck on a request (intel_gt_handle_error()): the engine reset
 * (__intel_engine_reset_bh()), inside which each request on it is reset,
 * the one that hung as guilty (__i915_request_reset(rq, true)); or, where
 * an engine reset is not possible, the whole GT's (intel_gt_reset()),
 * which wedges the GT (intel_gt_set_wedged()) if it fails. i915 wedges a
 * GT outside a reset too (unload, suspend, a failed init). The functions
 * have the real names and prototypes (gpuhang traces them; i915mem.sh
 * compares them with the real i915's); the request is the writer's, in a
 * context of its own named as i915 names one ("comm[pid]").
 */
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "gemgen.h"
#include "gemgen_types.h"

#define MAX_HANGS 64

static struct intel_gt gh_gt;
static struct intel_engine_cs gh_engine = { .gt = &gh_gt, .name = "rcs0" };
/* The GT reset under way fails. */
static bool gh_reset_fails;
static struct i915_request *gh_requests[MAX_HANGS];
static int gh_nr_requests;
static DEFINE_SPINLOCK(gh_fence_lock);

static const char *gh_fence_name(struct dma_fence *f)
{
	return "gemgen";
}

static const struct dma_fence_ops gh_fence_ops = {
	.get_driver_name = gh_fence_name,
	.get_timeline_name = gh_fence_name,
};

/* The request's reset: a guilty one's context is banned, its fence ends with -EIO. */
void __i915_request_reset(struct i915_request *rq, bool guilty);
noinline void __i915_request_reset(struct i915_request *rq, bool guilty)
{
	if (guilty)
		dma_fence_set_error(&rq->fence, -EIO);
	dma_fence_signal(&rq->fence);
}

/* The engine's reset: its request reset, guilty (it hung). */
int __intel_engine_reset_bh(struct intel_engine_cs *engine, const char *msg);
noinline int __intel_engine_reset_bh(struct intel_engine_cs *engine, const char *msg)
{
	barrier_data((void *)msg);
	__i915_request_reset(gh_requests[gh_nr_requests - 1], true);
	return 0;
}

/* The GT wedged: every request ends with -EIO, new ones are refused. */
void intel_gt_set_wedged(struct intel_gt *gt);
noinline void intel_gt_set_wedged(struct intel_gt *gt)
{
	barrier_data(gt);
}

/* The GT's reset: each engine's requests reset, the stalled engines' as guilty. */
void intel_gt_reset(struct intel_gt *gt, intel_engine_mask_t stalled_mask, const char *reason);
noinline void intel_gt_reset(struct intel_gt *gt, intel_engine_mask_t stalled_mask,
			     const char *reason)
{
	barrier_data((void *)reason);
	__i915_request_reset(gh_requests[gh_nr_requests - 1], stalled_mask != 0);
	if (gh_reset_fails)
		intel_gt_set_wedged(gt);
}

static void gh_free(struct i915_request *rq)
{
	put_pid(rq->context->gem_context->pid);
	kfree(rq->context->gem_context);
	kfree(rq->context);
	dma_fence_put(&rq->fence);
}

/* A request of the writer's on rcs0, in a context of its own. */
static int gh_request(struct drm_i915_private *i915)
{
	struct i915_gem_context *ctx;
	struct intel_context *ce;
	struct i915_request *rq;

	if (gh_nr_requests == MAX_HANGS)
		return -ENOSPC;
	rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	ce = kzalloc(sizeof(*ce), GFP_KERNEL);
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!rq || !ce || !ctx) {
		kfree(ctx);
		kfree(ce);
		kfree(rq);
		return -ENOMEM;
	}
	gh_engine.i915 = i915;
	gh_gt.i915 = i915;
	ctx->pid = get_task_pid(current, PIDTYPE_PID);
	snprintf(ctx->name, sizeof(ctx->name), "%s[%d]", current->comm, pid_nr(ctx->pid));
	ce->engine = &gh_engine;
	ce->gem_context = ctx;
	dma_fence_init(&rq->fence, &gh_fence_ops, &gh_fence_lock, dma_fence_context_alloc(1), 1);
	rq->engine = &gh_engine;
	rq->context = ce;
	gh_requests[gh_nr_requests++] = rq;
	return 0;
}

int gg_hang(struct drm_i915_private *i915, enum gg_hang_how how)
{
	int err;

	if (how == GG_WEDGE) {
		gh_gt.i915 = i915;
		intel_gt_set_wedged(&gh_gt);
		return 0;
	}
	err = gh_request(i915);
	if (err)
		return err;
	if (how == GG_ENGINE_RESET)
		return __intel_engine_reset_bh(&gh_engine, "gemgen: hang");
	gh_reset_fails = how == GG_GT_RESET_FAILS;
	intel_gt_reset(&gh_gt, BIT(0), "gemgen: hang");
	return 0;
}

void gg_hang_exit(void)
{
	while (gh_nr_requests)
		gh_free(gh_requests[--gh_nr_requests]);
}
