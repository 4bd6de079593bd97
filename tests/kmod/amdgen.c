// SPDX-License-Identifier: GPL-2.0
/*
 * amdgen: plays the amdgpu driver on the kernel's real DRM scheduler, for
 * amdgpucs's tests.
 *
 * It is schedgen (schedgen.c, included below: the same generator, rings
 * and command language) with amdgpu's ring and job shapes and amdgpu's own
 * events (amdgen_trace.h: system amdgpu, the real names and prototypes):
 * amdgpu_cs_ioctl as each job is pushed from the writer's process, as the
 * CS ioctl does, amdgpu_sched_run_job from the scheduler's run_job; queue,
 * run and done of the gpu_scheduler events are the kernel's own. Commands
 * on /proc/amdgen, besides schedgen's submit and wait:
 *
 *   submit ring=NAME jobs=N ... [ibs=K] [vmid=V] [pasid=P]
 *                             each job with K IBs (default 1)
 *   bo n=N size=S domain=D [prefer=D] [flags=F]
 *                             N buffers of S bytes (amdgpu_bo_create) placed
 *                             in AMDGPU_GEM_DOMAIN_* D (1 CPU, 2 GTT, 4 VRAM,
 *                             8 GDS, 16 GWS, 32 OA, 64 DOORBELL), preferring
 *                             D (or prefer=), with AMDGPU_GEM_CREATE_* flags F
 *                             (1: CPU access required), numbered 0, 1, ...
 *   move first=I n=N to=D     amdgpu_bo_move of those buffers to domain D
 *   iv n=N client=C src=S [ring=R] [vmid=V] [pasid=P]
 *                             N interrupts (amdgpu_iv)
 *   vm_flush ring=NAME [vmid=V] [n=N]
 *                             amdgpu_vm_flush on a ring
 *   map n=N size=S            N mappings of S bytes into the writer's VM
 *                             (amdgpu_vm_bo_map), one after the other
 *   unmap n=N size=S          amdgpu_vm_bo_unmap of as many
 *   update n=N                N page-table updates (amdgpu_vm_bo_update)
 *   bo_list first=I n=N       a BO list of buffers I..I+N-1 (amdgpu_bo_list_set
 *                             for each, then amdgpu_cs_bo_status)
 *   gpu_reset [src=S]         a GPU reset without a job (amdgpu_device_gpu_recover),
 *                             as RAS, the KFD or debugfs ask one: S the
 *                             enum AMDGPU_RESET_SRCS (default 0, unknown)
 *   vm_fault pasid=P addr=A [status=S] [hub=H]
 *                             a GPU VM fault of PASID P (the writer's) at
 *                             address A, as the GMC's interrupt handler
 *                             reports one: the PASID's process looked up
 *                             (amdgpu_vm_get_task_info_pasid), then, 6.12+,
 *                             amdgpu_vm_update_fault_cache(adev, pasid,
 *                             addr, status, vmhub)
 *
 * A timeout's recovery (schedgen's, recovery=full) runs inside
 * amdgpu_device_gpu_recover(adev, job, reset_context), as amdgpu's timeout
 * handler calls it up to 6.12; each reset takes a device coredump
 * (/sys/class/devcoredump), naming its job.
 */
#include <linux/devcoredump.h>
#include <linux/dma-fence.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include "amdgen_types.h"
#include "amdgpu_task_info.h"

#define CREATE_TRACE_POINTS
#include "amdgen_trace.h"

#define SG_NAME "amdgen"
#define SG_DESCRIPTION "Plays amdgpu on the DRM GPU scheduler, for gpu-bpf-tools tests"
#define SG_OWN_TYPES
#define sg_ring amdgpu_ring
#define sg_job amdgpu_job

/* The submit arguments of amdgpu's (reset by each submit). */
static struct { unsigned long ibs, vmid, pasid; } ag_submit;

static void ag_submit_begin(void)
{
	ag_submit.ibs = 1;
	ag_submit.vmid = 0;
	ag_submit.pasid = 0;
}

static int ag_submit_arg(const char *key, const char *val)
{
	unsigned long *dst;

	if (!strcmp(key, "ibs"))
		dst = &ag_submit.ibs;
	else if (!strcmp(key, "vmid"))
		dst = &ag_submit.vmid;
	else if (!strcmp(key, "pasid"))
		dst = &ag_submit.pasid;
	else
		return 0;
	return kstrtoul(val, 0, dst) || *dst > UINT_MAX ? -EINVAL : 1;
}

static void ag_on_push(struct amdgpu_job *job)
{
	job->num_ibs = ag_submit.ibs;
	job->vmid = ag_submit.vmid;
	job->pasid = ag_submit.pasid;
	trace_amdgpu_cs_ioctl(job);
}

static int ag_command(const char *cmd, char *line);
static void ag_free_bos(void);
static void ag_recover(struct amdgpu_job *job);

#define sg_submit_begin() ag_submit_begin()
#define sg_submit_arg(key, val) ag_submit_arg(key, val)
#define sg_on_push(job) ag_on_push(job)
#define sg_on_run(job) trace_amdgpu_sched_run_job(job)
#define sg_extra_command(cmd, line) ag_command(cmd, line)
#define sg_on_exit() ag_free_bos()
#define sg_recover(job) ag_recover(job)

#include "schedgen.c"

/* ---- GPU resets ------------------------------------------------------------- */

static struct amdgpu_device ag_adev;

/*
 * A coredump of the device, as amdgpu's reset takes one (devcoredump, 6.1+):
 * its text names the job reset ("job=CONTEXT:SEQNO", "job=none"), which
 * the tests compare with what gpuhang says. The kernel keeps it in
 * /sys/class/devcoredump until read, or discards it if the device's last
 * is still there.
 */
static void ag_coredump(struct device *dev, struct amdgpu_job *job)
{
	struct dma_fence *f = job ? &job->base.s_fence->finished : NULL;
	char *text = vmalloc(64);
	int len;

	if (!text)
		return;
	if (f)
		len = scnprintf(text, 64, "job=%llu:%llu\n", f->context, (unsigned long long)f->seqno);
	else
		len = scnprintf(text, 64, "job=none\n");
	dev_coredumpv(dev, text, len, GFP_KERNEL);
}

/*
 * amdgpu's full GPU reset, by its real name and prototype (gpuhang traces
 * it): every ring stopped, the ASIC reset, a coredump taken, the rings
 * started; here the bad job's ring only, as schedgen recovers it.
 */
int amdgpu_device_gpu_recover(struct amdgpu_device *adev, struct amdgpu_job *job,
			      struct amdgpu_reset_context *reset_context);
noinline int amdgpu_device_gpu_recover(struct amdgpu_device *adev, struct amdgpu_job *job,
				       struct amdgpu_reset_context *reset_context)
{
	/* The context is read, as amdgpu's: else the caller need not fill it in. */
	barrier_data(reset_context);
	ag_coredump(adev->dev, job);
	if (job)
		sg_recover_full(job);
	return 0;
}

static int ag_gpu_reset(struct amdgpu_job *job, unsigned long src)
{
	struct amdgpu_reset_context ctx = { .reset_req_dev = &ag_adev, .job = job };

#if AMDGEN_RESET_SRC
	ctx.src = src;
#endif
	ag_adev.dev = &sg_pdev->dev;
	return amdgpu_device_gpu_recover(&ag_adev, job, &ctx);
}

static void ag_recover(struct amdgpu_job *job)
{
	ag_gpu_reset(job, AMDGPU_RESET_SRC_JOB);
}

/* ---- buffers, interrupts, VM flushes --------------------------------------- */

#define MAX_BOS 100000

static struct amdgpu_bo **ag_bos;
static struct ttm_resource *ag_res;	/* one per buffer, in ag_bos' order */
static int ag_nr_bos;
static DEFINE_MUTEX(ag_lock);

/* AMDGPU_GEM_DOMAIN_* to TTM's placement (what bo_move records), as amdgpu maps them. */
static u32 ag_mem_type(unsigned long domain)
{
	switch (domain) {
	case 1: return 0;	/* CPU: TTM_PL_SYSTEM */
	case 2: return 1;	/* GTT: TTM_PL_TT */
	case 4: return 2;	/* VRAM: TTM_PL_VRAM */
	case 8: return 3;	/* GDS: AMDGPU_PL_GDS = TTM_PL_PRIV */
	case 16: return 4;	/* GWS: TTM_PL_PRIV + 1 */
	case 32: return 5;	/* OA: TTM_PL_PRIV + 2 */
	case 64: return 7;	/* DOORBELL: TTM_PL_PRIV + 4 (+ 3 is PREEMPT) */
	default: return ~0u;
	}
}

struct ag_args {
	unsigned long n, first, size, domain, prefer, flags, to, client, src, ring_id, vmid, pasid;
	unsigned long addr, status, hub;
	char ring[16];
};

static int ag_parse(char *line, struct ag_args *a)
{
	char *tok, *val;

	*a = (struct ag_args){ .n = 1, .first = ULONG_MAX, .domain = ULONG_MAX, .to = ULONG_MAX,
			       .client = ULONG_MAX, .src = ULONG_MAX };
	while ((tok = strsep(&line, " \t"))) {
		unsigned long *dst = NULL;

		if (!*tok)
			continue;
		val = strchr(tok, '=');
		if (!val)
			return -EINVAL;
		*val++ = '\0';
		if (!strcmp(tok, "ring") && !kstrtoul(val, 0, &a->ring_id))
			continue;
		if (!strcmp(tok, "ring")) {
			strscpy(a->ring, val, sizeof(a->ring));
			continue;
		}
		if (!strcmp(tok, "n"))
			dst = &a->n;
		else if (!strcmp(tok, "first"))
			dst = &a->first;
		else if (!strcmp(tok, "size"))
			dst = &a->size;
		else if (!strcmp(tok, "domain"))
			dst = &a->domain;
		else if (!strcmp(tok, "prefer"))
			dst = &a->prefer;
		else if (!strcmp(tok, "flags"))
			dst = &a->flags;
		else if (!strcmp(tok, "to"))
			dst = &a->to;
		else if (!strcmp(tok, "client"))
			dst = &a->client;
		else if (!strcmp(tok, "src"))
			dst = &a->src;
		else if (!strcmp(tok, "vmid"))
			dst = &a->vmid;
		else if (!strcmp(tok, "addr"))
			dst = &a->addr;
		else if (!strcmp(tok, "status"))
			dst = &a->status;
		else if (!strcmp(tok, "hub"))
			dst = &a->hub;
		else if (!strcmp(tok, "pasid"))
			dst = &a->pasid;
		if (!dst || kstrtoul(val, 0, dst)) {
			pr_warn(SG_NAME ": bad argument %s=%s\n", tok, val);
			return -EINVAL;
		}
	}
	return 0;
}

static int ag_bo_create(const struct ag_args *a)
{
	unsigned long i;

	if (ag_mem_type(a->domain) == ~0u || !a->size || !a->n || ag_nr_bos + a->n > MAX_BOS)
		return -EINVAL;
	if (!ag_bos) {
		ag_bos = kvcalloc(MAX_BOS, sizeof(*ag_bos), GFP_KERNEL);
		ag_res = kvcalloc(MAX_BOS, sizeof(*ag_res), GFP_KERNEL);
		if (!ag_bos || !ag_res)
			return -ENOMEM;
	}
	for (i = 0; i < a->n; i++) {
		struct amdgpu_bo *bo = kzalloc(sizeof(*bo), GFP_KERNEL);

		if (!bo)
			return -ENOMEM;
		bo->id = ag_nr_bos;
		bo->tbo.base.size = a->size;
		bo->preferred_domains = a->prefer ? a->prefer : a->domain;
		bo->allowed_domains = a->domain;
		bo->flags = a->flags;
		ag_res[ag_nr_bos].mem_type = ag_mem_type(a->domain);
#if AMDGEN_TTM_RESOURCE_PTR
		bo->tbo.resource = &ag_res[ag_nr_bos];
#else
		bo->tbo.mem = ag_res[ag_nr_bos];
#endif
		ag_bos[ag_nr_bos++] = bo;
		trace_amdgpu_bo_create(bo);
	}
	return 0;
}

static int ag_bo_move(const struct ag_args *a)
{
	u32 to = ag_mem_type(a->to);
	unsigned long i;

	if (to == ~0u || a->first == ULONG_MAX || a->first + a->n > ag_nr_bos)
		return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++) {
		struct amdgpu_bo *bo = ag_bos[i];

		trace_amdgpu_bo_move(bo, to, amdgen_bo_res(bo)->mem_type);
		amdgen_bo_res(bo)->mem_type = to;
	}
	return 0;
}

static int ag_iv(const struct ag_args *a)
{
	struct amdgpu_iv_entry iv = {
		.client_id = a->client, .src_id = a->src, .ring_id = a->ring_id,
		.vmid = a->vmid, .pasid = a->pasid,
	};
	unsigned long i;

	if (a->client == ULONG_MAX || a->src == ULONG_MAX)
		return -EINVAL;
	for (i = 0; i < a->n; i++) {
		iv.timestamp = ktime_get_ns();
		trace_amdgpu_iv(0, &iv);
	}
	return 0;
}

static int ag_vm_flush(const struct ag_args *a)
{
	struct amdgpu_ring *ring = sg_find_ring(a->ring);
	unsigned long i;

	if (!ring)
		return -EINVAL;
	for (i = 0; i < a->n; i++)
		trace_amdgpu_vm_flush(ring, a->vmid, 0x1000 * (i + 1));
	return 0;
}

/* map, unmap, update: mappings at consecutive GPU pages. */
static u64 ag_next_page = 0x1000;

static int ag_mapping(const char *cmd, const struct ag_args *a)
{
	struct amdgpu_bo_va bo_va = {};
	struct amdgpu_bo_va_mapping m = { .bo_va = &bo_va };
	unsigned long i, pages = (a->size + 4095) / 4096;

	if (strcmp(cmd, "update") && !pages)
		return -EINVAL;
	for (i = 0; i < a->n; i++) {
		m.start = ag_next_page;
		m.last = ag_next_page + (pages ? pages : 1) - 1;
		if (!strcmp(cmd, "map")) {
			trace_amdgpu_vm_bo_map(&bo_va, &m);
			ag_next_page += pages;
		} else if (!strcmp(cmd, "unmap")) {
			trace_amdgpu_vm_bo_unmap(&bo_va, &m);
		} else {
			trace_amdgpu_vm_bo_update(&m);
		}
	}
	return 0;
}

static int ag_bo_list(const struct ag_args *a)
{
	struct amdgpu_bo_list list = { .num_entries = a->n };
	unsigned long i;
	u64 total = 0;

	if (a->first == ULONG_MAX || a->first + a->n > ag_nr_bos)
		return -EINVAL;
	for (i = a->first; i < a->first + a->n; i++) {
		trace_amdgpu_bo_list_set(&list, ag_bos[i]);
		total += amdgpu_bo_size(ag_bos[i]);
	}
	trace_amdgpu_cs_bo_status(list.num_entries, total);
	return 0;
}

/* ---- GPU VM faults ---------------------------------------------------------- */

/* amdgpu_vm_update_fault_cache(): 6.12 has it, Debian's 6.1 not. */
#ifndef AMDGEN_FAULT_CACHE
#define AMDGEN_FAULT_CACHE (LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0))
#endif

#if AMDGEN_FAULT_CACHE
/* The fault kept for user space to query, by its real name and prototype (gpuhang traces it). */
void amdgpu_vm_update_fault_cache(struct amdgpu_device *adev, unsigned int pasid, uint64_t addr,
				  uint32_t status, unsigned int vmhub);
noinline __noclone void amdgpu_vm_update_fault_cache(struct amdgpu_device *adev, unsigned int pasid,
						     uint64_t addr, uint32_t status,
						     unsigned int vmhub)
{
	asm volatile("" : : "r"(adev), "r"(pasid), "r"(addr), "r"(status), "r"(vmhub) : "memory");
}
#endif

/* A VM fault as gmc_v9_0_process_interrupt() handles one: its process looked up, logged, kept. */
static int ag_vm_fault(const struct ag_args *a)
{
#if AMDGPU_TASK_INFO_PASID
	struct amdgpu_task_info *ti;
#else
	struct amdgpu_task_info info = {}, *ti = &info;
#endif

	if (!a->pasid || a->pasid > 0xffff || a->status > UINT_MAX || a->hub > 31)
		return -EINVAL;
	ag_adev.dev = &sg_pdev->dev;
#if AMDGPU_TASK_INFO_PASID
	ti = amdgpu_vm_get_task_info_pasid(&ag_adev, a->pasid);
#else
	amdgpu_vm_get_task_info(&ag_adev, a->pasid, ti);
#endif
	dev_err(ag_adev.dev, "[gfxhub] page fault (pasid:%lu, for process %s pid %d) at address 0x%016lx\n",
		a->pasid, ti ? ti->process_name : "-", ti ? ti->tgid : 0, a->addr);
#if AMDGPU_TASK_INFO_PASID
	amdgpu_vm_put_task_info(ti);
#endif
#if AMDGEN_FAULT_CACHE
	amdgpu_vm_update_fault_cache(&ag_adev, a->pasid, a->addr, a->status, a->hub);
#endif
	return 0;
}

static int ag_command(const char *cmd, char *line)
{
	struct ag_args a;
	int err;

	if (strcmp(cmd, "bo") && strcmp(cmd, "move") && strcmp(cmd, "iv") &&
	    strcmp(cmd, "vm_flush") && strcmp(cmd, "map") && strcmp(cmd, "unmap") &&
	    strcmp(cmd, "update") && strcmp(cmd, "bo_list") && strcmp(cmd, "gpu_reset") &&
	    strcmp(cmd, "vm_fault"))
		return -ENOENT;
	err = ag_parse(line, &a);
	if (err)
		return err;
	if (!strcmp(cmd, "gpu_reset"))
		return ag_gpu_reset(NULL, a.src == ULONG_MAX ? AMDGPU_RESET_SRC_UNKNOWN : a.src);
	if (!strcmp(cmd, "vm_fault"))
		return ag_vm_fault(&a);
	mutex_lock(&ag_lock);
	if (!strcmp(cmd, "bo"))
		err = ag_bo_create(&a);
	else if (!strcmp(cmd, "move"))
		err = ag_bo_move(&a);
	else if (!strcmp(cmd, "iv"))
		err = ag_iv(&a);
	else if (!strcmp(cmd, "vm_flush"))
		err = ag_vm_flush(&a);
	else if (!strcmp(cmd, "bo_list"))
		err = ag_bo_list(&a);
	else
		err = ag_mapping(cmd, &a);
	mutex_unlock(&ag_lock);
	return err;
}

static void ag_free_bos(void)
{
	int i;

	for (i = 0; i < ag_nr_bos; i++)
		kfree(ag_bos[i]);
	kvfree(ag_bos);
	kvfree(ag_res);
}
