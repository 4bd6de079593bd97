// SPDX-License-Identifier: GPL-2.0
/*
 * gemgen's i915 hang: what i915 does when its heartbeat finds an engine
 * stuck on a request (intel_gt_handle_error()): the engine reset
 * (__intel_engine_reset_bh()), inside which each request on it is reset,
 * the one that hung as guilty (__i915_request_reset(rq, true)). The
 * functions have the real names and prototypes (gpuhang traces them;
 * i915mem.sh compares them with the real i915's); the request is the
 * writer's, in a context of its own named as i915 names one ("comm[pid]").
 */
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "gemgen.h"
#include "gemgen_types.h"

#define MAX_HANGS 64

static struct intel_engine_cs gh_engine = { .name = "rcs0" };
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

static void gh_free(struct i915_request *rq)
{
	put_pid(rq->context->gem_context->pid);
	kfree(rq->context->gem_context);
	kfree(rq->context);
	dma_fence_put(&rq->fence);
}

int gg_hang(struct drm_i915_private *i915)
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
	ctx->pid = get_task_pid(current, PIDTYPE_PID);
	snprintf(ctx->name, sizeof(ctx->name), "%s[%d]", current->comm, pid_nr(ctx->pid));
	ce->engine = &gh_engine;
	ce->gem_context = ctx;
	dma_fence_init(&rq->fence, &gh_fence_ops, &gh_fence_lock, dma_fence_context_alloc(1), 1);
	rq->engine = &gh_engine;
	rq->context = ce;
	gh_requests[gh_nr_requests++] = rq;
	return __intel_engine_reset_bh(&gh_engine, "gemgen: hang");
}

void gg_hang_exit(void)
{
	while (gh_nr_requests)
		gh_free(gh_requests[--gh_nr_requests]);
}
