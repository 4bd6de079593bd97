// SPDX-License-Identifier: GPL-2.0
/*
 * gemgen: plays the i915 driver's memory management, for i915mem's tests.
 *
 * No machine here has an Intel GPU, and the real i915 fires no memory
 * event without one. This module fires the same events (gemgen_trace.h:
 * system i915, the real names and prototypes) over objects of known sizes,
 * from the process that writes a command to /proc/gemgen, as the real
 * driver does from its ioctls:
 *
 *   vm                              a new address space (i915_ppgtt_create),
 *                                   numbered 0, 1, ...
 *   create n=N size=S               N objects of S bytes, numbered on from the last
 *   bind first=I n=N [vm=V]         bind objects I..I+N-1 into address space V
 *   unbind first=I n=N
 *   fault first=I n=N [gtt=0|1] [write=0|1]
 *   pread first=I n=N bytes=B       (and pwrite) B bytes of each
 *   shrink pages=P                  the shrinker asked for P pages
 *   evict vm=V bytes=B              i915_gem_evict, then unbinds V's objects,
 *                                   lowest number first, until B bytes are unbound
 *   evict_node vm=V bytes=B         i915_gem_evict_node of a B-byte range
 *   evict_vm vm=V                   i915_gem_evict_vm, then unbinds all of V's objects
 *   destroy first=I n=N [async=1]   unbinds (if bound) and destroys them; async=1:
 *                                   from a kernel worker, as i915 frees objects
 *   release vm=V                    i915_ppgtt_release
 *
 * and, on kernels with xe (>= 6.8; gemgen_xe.c), the same for xe's events:
 *
 *   xe_vm                           xe_vm_create, numbered 0, 1, ...
 *   xe_create n=N size=S            N BOs of S bytes (xe_bo_create), numbered
 *                                   0, 1, ... apart from i915's objects
 *   xe_bind first=I n=N [vm=V]      xe_vma_bind
 *   xe_rebind first=I n=N           xe_vma_rebind_exec of bound BOs
 *   xe_unbind first=I n=N           xe_vma_unbind of bound BOs
 *   xe_evict first=I n=N            xe_vma_evict of bound BOs
 *   xe_move first=I n=N placement=P xe_bo_move to placement P
 *   xe_fault first=I n=N            xe_bo_cpu_fault
 *   xe_gpu_fault first=I n=N        xe_vma_pagefault of bound BOs
 *   xe_destroy first=I n=N [async=1]  unbinds, then frees them through a
 *                                   function named as xe's TTM destroy
 *                                   callback, xe_ttm_bo_destroy (xe has no
 *                                   destroy event; i915mem hooks that function)
 *   hang                            the writer's request hangs engine rcs0:
 *                                   its reset (__intel_engine_reset_bh),
 *                                   the request reset guilty inside
 *                                   (__i915_request_reset; gemgen_hang.c)
 *   gt_reset                        the same, reset by a GT reset (intel_gt_reset)
 *   gt_reset_fail                   the same, the GT reset failing: the GT
 *                                   wedged inside it (intel_gt_set_wedged)
 *   gt_wedge                        the GT wedged with no hang, as i915's
 *                                   unload and suspend do
 *   xe_release vm=V                 xe_vm_free
 *   xe_queue_reset                  xe_exec_queue_reset of the writer's exec
 *                                   queue (made at its first such command:
 *                                   rcs0, rcs1, ...; its scheduler named so)
 *   xe_queue_cat_error              xe_exec_queue_memory_cat_error of it
 *   xe_job_timedout                 xe_sched_job_timedout of a job of it
 *
 * Several commands may be written at once, one per line. A bad command
 * fails the write with EINVAL (and says why in the kernel log). Reading
 * /proc/gemgen prints "created=N alive=M bound=K vms=V". Objects left at
 * unload are freed silently. tests/README.md has the details.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "gemgen.h"

#define CREATE_TRACE_POINTS
#include "gemgen_trace.h"

#define MAX_OBJECTS	100000
#define MAX_VMS		16
#define MAX_CMD_LEN	4096
#define GUARD_BYTES	4096	/* on kernels whose i915_vma has guard pages */

struct gg_object {
	struct drm_i915_gem_object obj;
	struct i915_vma vma;
};

static struct drm_i915_private gg_i915;
static struct gg_object **gg_objects;	/* by number; NULL once destroyed */
static int gg_created;
static struct i915_address_space *gg_vms[MAX_VMS];
static int gg_nr_vms;
static DEFINE_MUTEX(gg_lock);
static struct proc_dir_entry *gg_proc;

static int gg_parse(char *line, struct gg_args *a)
{
	char *tok;

	*a = (struct gg_args){ .n = 1, .vm = 0, .first = -1, .size = -1, .bytes = -1, .pages = -1,
			       .placement = -1 };
	while ((tok = strsep(&line, " \t"))) {
		char *val = strchr(tok, '=');
		long *dst = NULL, v;

		if (!*tok)
			continue;
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "n"))
			dst = &a->n;
		else if (!strcmp(tok, "first"))
			dst = &a->first;
		else if (!strcmp(tok, "size"))
			dst = &a->size;
		else if (!strcmp(tok, "vm"))
			dst = &a->vm;
		else if (!strcmp(tok, "gtt"))
			dst = &a->gtt;
		else if (!strcmp(tok, "write"))
			dst = &a->write;
		else if (!strcmp(tok, "bytes"))
			dst = &a->bytes;
		else if (!strcmp(tok, "pages"))
			dst = &a->pages;
		else if (!strcmp(tok, "async"))
			dst = &a->async;
		else if (!strcmp(tok, "placement"))
			dst = &a->placement;
		if (!dst || kstrtol(val, 0, &v) || v < 0)
			return -EINVAL;
		*dst = v;
	}
	return 0;
}

/* Objects first..first+n-1 must all exist. */
static int gg_range(const struct gg_args *a)
{
	long i;

	if (a->first < 0 || a->n < 1 || a->first + a->n > gg_created)
		return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++)
		if (!gg_objects[i])
			return -ENOENT;
	return 0;
}

static struct i915_address_space *gg_vm(long id)
{
	return id >= 0 && id < gg_nr_vms ? gg_vms[id] : NULL;
}

static void gg_unbind(struct gg_object *o)
{
	if (!o->vma.bound)
		return;
	trace_i915_vma_unbind(&o->vma);
	o->vma.bound = false;
}

static void gg_destroy(struct gg_object *o)
{
	gg_unbind(o);
	trace_i915_gem_object_destroy(&o->obj);
	gg_objects[o->obj.id] = NULL;
	kfree(o);
}

/* destroy async=1: from a kernel worker, as i915 frees objects. */
struct gg_destroy_work {
	struct work_struct work;
	long first, n;
};

static void gg_destroy_fn(struct work_struct *work)
{
	struct gg_destroy_work *w = container_of(work, struct gg_destroy_work, work);
	long i;

	for (i = w->first; i < w->first + w->n; i++)
		gg_destroy(gg_objects[i]);
}

static int gg_create(const struct gg_args *a)
{
	long i;

	if (a->size < 1 || a->n < 1 || gg_created + a->n > MAX_OBJECTS)
		return -EINVAL;
	for (i = 0; i < a->n; i++) {
		struct gg_object *o = kzalloc(sizeof(*o), GFP_KERNEL);

		if (!o)
			return -ENOMEM;
		o->obj.base.size = a->size;
		o->obj.id = gg_created;
		o->vma.obj = &o->obj;
		gg_objects[gg_created++] = o;
		trace_i915_gem_object_create(&o->obj);
	}
	return 0;
}

static int gg_bind(const struct gg_args *a)
{
	struct i915_address_space *vm = gg_vm(a->vm);
	u64 guard = GEMGEN_HAS_GUARD ? GUARD_BYTES : 0;
	long i;
	int err = gg_range(a);

	if (err || !vm)
		return err ?: -EINVAL;
	for (i = a->first; i < a->first + a->n; i++) {
		struct gg_object *o = gg_objects[i];

		if (o->vma.bound)
			return -EBUSY;
		o->vma.vm = vm;
		o->vma.node.start = vm->next;
		o->vma.node.size = o->obj.base.size + 2 * guard;
#if GEMGEN_HAS_GUARD
		o->vma.guard = guard;
#endif
		vm->next += o->vma.node.size;
		o->vma.bound = true;
		trace_i915_vma_bind(&o->vma, 0);
	}
	return 0;
}

/* Unbind `vm`'s objects, lowest number first, until `bytes` are unbound (-1: all). */
static void gg_unbind_vm(struct i915_address_space *vm, long bytes)
{
	long i, freed = 0;

	for (i = 0; i < gg_created && (bytes < 0 || freed < bytes); i++) {
		struct gg_object *o = gg_objects[i];

		if (!o || !o->vma.bound || o->vma.vm != vm)
			continue;
		freed += o->obj.base.size;
		gg_unbind(o);
	}
}

static int gg_command(char *line)
{
	char *verb = strsep(&line, " \t");
	struct i915_address_space *vm;
	struct gg_args a;
	long i;
	int err;

	if (!verb || !*verb)
		return 0;
	err = gg_parse(line, &a);
	if (err)
		return err;
#ifdef GEMGEN_XE
	if (!strncmp(verb, "xe_", 3))
		return gg_xe_command(verb, &a);
#endif
	if (!strcmp(verb, "hang"))
		return gg_hang(&gg_i915, GG_ENGINE_RESET);
	if (!strcmp(verb, "gt_reset"))
		return gg_hang(&gg_i915, GG_GT_RESET);
	if (!strcmp(verb, "gt_reset_fail"))
		return gg_hang(&gg_i915, GG_GT_RESET_FAILS);
	if (!strcmp(verb, "gt_wedge"))
		return gg_hang(&gg_i915, GG_WEDGE);
	if (!strcmp(verb, "vm")) {
		if (gg_nr_vms == MAX_VMS)
			return -ENOSPC;
		vm = kzalloc(sizeof(*vm), GFP_KERNEL);
		if (!vm)
			return -ENOMEM;
		vm->i915 = &gg_i915;
		vm->next = 1 << 20;
		vm->id = gg_nr_vms;
		gg_vms[gg_nr_vms++] = vm;
		trace_i915_ppgtt_create(vm);
		return 0;
	}
	if (!strcmp(verb, "create"))
		return gg_create(&a);
	if (!strcmp(verb, "bind"))
		return gg_bind(&a);
	if (!strcmp(verb, "unbind") || !strcmp(verb, "fault") || !strcmp(verb, "pread") ||
	    !strcmp(verb, "pwrite") || !strcmp(verb, "destroy")) {
		err = gg_range(&a);
		if (err)
			return err;
		if ((!strcmp(verb, "pread") || !strcmp(verb, "pwrite")) && a.bytes < 0)
			return -EINVAL;
		if (!strcmp(verb, "destroy") && a.async) {
			struct gg_destroy_work w = { .first = a.first, .n = a.n };

			INIT_WORK_ONSTACK(&w.work, gg_destroy_fn);
			queue_work(system_unbound_wq, &w.work);
			flush_work(&w.work);
			destroy_work_on_stack(&w.work);
			return 0;
		}
		for (i = a.first; i < a.first + a.n; i++) {
			struct gg_object *o = gg_objects[i];

			if (!strcmp(verb, "unbind"))
				gg_unbind(o);
			else if (!strcmp(verb, "fault"))
				trace_i915_gem_object_fault(&o->obj, i - a.first, a.gtt, a.write);
			else if (!strcmp(verb, "pread"))
				trace_i915_gem_object_pread(&o->obj, 0, a.bytes);
			else if (!strcmp(verb, "pwrite"))
				trace_i915_gem_object_pwrite(&o->obj, 0, a.bytes);
			else
				gg_destroy(o);
		}
		return 0;
	}
	if (!strcmp(verb, "shrink")) {
		if (a.pages < 0)
			return -EINVAL;
		trace_i915_gem_shrink(&gg_i915, a.pages, 0);
		return 0;
	}
	vm = gg_vm(a.vm);
	if (!vm)
		return -EINVAL;
	if (!strcmp(verb, "evict")) {
		if (a.bytes < 0)
			return -EINVAL;
		trace_i915_gem_evict(vm, a.bytes, 4096, 0);
		gg_unbind_vm(vm, a.bytes);
		return 0;
	}
	if (!strcmp(verb, "evict_node")) {
		struct drm_mm_node node = { .start = vm->next, .size = a.bytes };

		if (a.bytes < 0)
			return -EINVAL;
		trace_i915_gem_evict_node(vm, &node, 0);
		return 0;
	}
	if (!strcmp(verb, "evict_vm")) {
		trace_i915_gem_evict_vm(vm);
		gg_unbind_vm(vm, -1);
		return 0;
	}
	if (!strcmp(verb, "release")) {
		trace_i915_ppgtt_release(vm);
		return 0;
	}
	return -EINVAL;
}

static ssize_t gg_write(struct file *file, const char __user *ubuf, size_t len, loff_t *pos)
{
	char *buf, *cursor, *line;
	int err = 0;

	if (len >= MAX_CMD_LEN)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	mutex_lock(&gg_lock);
	for (cursor = buf; !err && (line = strsep(&cursor, "\n"));) {
		err = gg_command(line);
		if (err)
			pr_err("gemgen: '%s': error %d\n", line, err);
	}
	mutex_unlock(&gg_lock);
	kfree(buf);
	return err ?: len;
}

static int gg_show(struct seq_file *m, void *v)
{
	int i, alive = 0, bound = 0;

	mutex_lock(&gg_lock);
	for (i = 0; i < gg_created; i++) {
		alive += !!gg_objects[i];
		bound += gg_objects[i] && gg_objects[i]->vma.bound;
	}
	seq_printf(m, "created=%d alive=%d bound=%d vms=%d\n", gg_created, alive, bound, gg_nr_vms);
#ifdef GEMGEN_XE
	i = gg_xe_show(&alive);
	seq_printf(m, "xe: created=%d alive=%d\n", i, alive);
#endif
	mutex_unlock(&gg_lock);
	return 0;
}

static int gg_open(struct inode *inode, struct file *file)
{
	return single_open(file, gg_show, NULL);
}

static const struct proc_ops gg_proc_ops = {
	.proc_open = gg_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
	.proc_write = gg_write,
};

static int __init gg_init(void)
{
	gg_objects = kvcalloc(MAX_OBJECTS, sizeof(*gg_objects), GFP_KERNEL);
	if (!gg_objects)
		return -ENOMEM;
	gg_proc = proc_create("gemgen", 0600, NULL, &gg_proc_ops);
	if (!gg_proc) {
		kvfree(gg_objects);
		return -ENOMEM;
	}
	return 0;
}

static void __exit gg_exit(void)
{
	int i;

	proc_remove(gg_proc);
	for (i = 0; i < gg_created; i++)
		kfree(gg_objects[i]);
	kvfree(gg_objects);
	for (i = 0; i < gg_nr_vms; i++)
		kfree(gg_vms[i]);
	gg_hang_exit();
#ifdef GEMGEN_XE
	gg_xe_exit();
#endif
}

module_init(gg_init);
module_exit(gg_exit);
MODULE_DESCRIPTION("Plays the i915 driver's memory events, for gpu-bpf-tools tests");
MODULE_LICENSE("GPL");
