// SPDX-License-Identifier: GPL-2.0
/*
 * amdgpucs: AMD GPU command submissions per ring and process, from the CS
 * ioctl to the ring and to the fence; buffers created per domain, moves
 * between placements (VRAM -> GTT: evictions), VM flushes, interrupts.
 *
 * amdgpu's own events (BTF-typed raw tracepoints, fields by CO-RE) and the
 * DRM scheduler's done event: a submission is followed by its scheduler
 * fence (context:seqno of the finished fence), which every kernel's events
 * carry, rather than by the job id that 6.17 removed. Counters only grow:
 * the frontend prints what changed since its previous summary.
 *
 * A second set of programs, the record path (SEC("tracepoint"), at the
 * end), reads the same events' trace records for an amdgpu or gpu_sched
 * without BTF (DKMS builds, Linux < 5.11); both paths share the counting
 * below. The atomics BPF before 5.12 lacks, the histograms'
 * compare-and-swap and the rings' fetch-and-add (row_next()), are dead
 * code there, which the frontend rewrites (tool_load()).
 */
#include "drm_types.bpf.h"
#include "tool.bpf.h"
#include "amdgpucs.h"
#include "tp_record.bpf.h"
#include "sched_record.bpf.h"
#include "spare.bpf.h"
#include "maps.bpf.h"

const volatile char targ_ring[RING_NAME_LEN] = {};

__u64 dropped_jobs = 0;
__u64 dropped_rows = 0;
__u64 dropped_rings = 0;
__u32 nr_rings = 0;		/* ring_infos[] rows handed out (may pass MAX_RINGS) */
__u64 untracked_runs = 0;	/* run of a job submitted before tracing began */

struct ring_info ring_infos[MAX_RINGS] = {};
struct move_stats moves[NR_PLACEMENTS][NR_PLACEMENTS] = {};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u64);	/* struct drm_gpu_scheduler * */
	__type(value, __u32);
} ring_ids SEC(".maps");

/* ring_infos[] indices handed out before 5.12 (rows.bpf.h's row_next()). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, __u32);
	__type(value, __u8);
} ring_claims SEC(".maps");

ROWS(rows, struct row_key, struct row_stats, ROW_BITS);

/* What a CS ioctl's job in flight keeps, from its submission to its done: a row keyed by its fence. */
struct job {
	struct row_key row;
	__u32 row_idx;
	__u32 pad;
	__u64 submit_ns;
	__u64 run_ns;
};

JOB_ROWS(struct job);

ROWS(bo_rows, struct bo_key, struct bo_stats, BO_ROW_BITS);

/* An LRU: a buffer's creator; frees are not traced, so the least recent go. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, MAX_BOS);
	__type(key, __u64);
	__type(value, struct bo_owner);
} bo_owners SEC(".maps");

ROWS(ivs, struct iv_key, __u64, IV_ROW_BITS);	/* interrupts per source */
ROWS(vm_rows, __u32, struct vm_stats, ROW_BITS);	/* per pid */

/* pasid -> the process that submitted with it (interrupts name a pasid). */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, __u32);
} pasid_pids SEC(".maps");

/* ---- amdgpu's types: only the members read ------------------------------ */

/* drivers/gpu/drm/amd/amdgpu/amdgpu_ring.h */
struct amdgpu_ring {
	struct drm_gpu_scheduler sched;
	char name[16];
} __core;

/* amdgpu_job.h */
struct amdgpu_job {
	struct drm_sched_job base;
	unsigned int vmid;
	unsigned int pasid;
	u32 num_ibs;
} __core;

struct drm_gem_object {
	u64 size;
} __core;

/* ttm_resource.h: where a buffer is (TTM_PL_*) */
struct ttm_resource {
	u32 mem_type;
} __core;

struct ttm_buffer_object {
	struct drm_gem_object base;
	struct ttm_resource *resource;	/* 5.14 and later */
} __core;

/* amdgpu_object.h */
struct amdgpu_bo {
	u32 preferred_domains;
	u32 allowed_domains;
	struct ttm_buffer_object tbo;
	u64 flags;	/* AMDGPU_GEM_CREATE_* */
} __core;

/* amdgpu_irq.h */
struct amdgpu_iv_entry {
	unsigned int client_id;
	unsigned int src_id;
	unsigned int ring_id;
	unsigned int vmid;
	unsigned int pasid;
} __core;

/* amdgpu_vm.h */
struct amdgpu_bo_va_mapping {
	u64 start;
	u64 last;
} __core;

/* ---- helpers ----------------------------------------------------------- */

static __always_inline bool name_is(const char *name, const volatile char *want)
{
	int i;

	for (i = 0; i < RING_NAME_LEN; i++) {
		if (name[i] != want[i])
			return false;
		if (!name[i])
			return true;
	}
	return true;
}

/* A new ring's index; MAX_RINGS if all are taken (counted). */
static __always_inline __u32 ring_slot_new(void)
{
	__u32 idx = row_next(&nr_rings, &ring_claims, MAX_RINGS);

	if (idx >= MAX_RINGS)
		__sync_fetch_and_add(&dropped_rings, 1);
	return idx;
}

/* A new ring's name (ring_infos[idx].name, set) judged against -r. */
static __always_inline void ring_judge(__u32 idx)
{
	if (idx < MAX_RINGS && targ_ring[0] && !name_is(ring_infos[idx].name, targ_ring))
		ring_infos[idx].excluded = 1;
}

/* The ring of a scheduler, named on first sight; MAX_RINGS: none (table full). */
static __always_inline __u32 ring_of(struct drm_gpu_scheduler *sched)
{
	__u64 key = (__u64)sched;
	struct amdgpu_ring *ring;
	__u32 *id, idx;

	if (!sched)
		return MAX_RINGS;
	id = bpf_map_lookup_elem(&ring_ids, &key);
	if (id)
		return *id;
	idx = ring_slot_new();
	if (idx >= MAX_RINGS)
		return MAX_RINGS;
	ring = (void *)sched - bpf_core_field_offset(struct amdgpu_ring, sched);
	bpf_core_read_str(ring_infos[idx].name, sizeof(ring_infos[idx].name), &ring->name);
	ring_judge(idx);
	/* Another CPU named it first: its index stands (this one stays unused). */
	id = map_lookup_or_init(&ring_ids, &key, &idx, &dropped_rings);
	return id ? *id : MAX_RINGS;
}

static __always_inline bool ring_excluded(__u32 ring)
{
	return ring >= MAX_RINGS || ring_infos[ring].excluded;
}

/* The row of `key`, its index in *idx (NO_ROW: none, the table full). */
static __always_inline struct row_stats *row_of(struct row_key *key, __u32 *idx)
{
	struct rows_row *r;
	bool made;

	*idx = NO_ROW;
	r = ROWS_GET_NAMED(rows, *key, idx, &made, &dropped_rows);
	if (!r)
		return NULL;
	if (made) {
		r->s.submit_run.min = ~0ULL;
		r->s.run_done.min = ~0ULL;
	}
	return &r->s;
}

/*
 * An -e record. `comm`: the name of the process `pid` when the event runs
 * in another's context (a job's run in the scheduler's worker, its end in
 * an interrupt); NULL: the current process's.
 */
static __always_inline void emit(__u32 type, __u32 ring, __u32 pid, __u64 context, __u64 seqno,
				 __u64 value, __u32 a, __u32 b, __u32 c, __u32 d, __u32 e,
				 const char *comm)
{
	struct amdgpucs_event *ev;

	if (!emit_events)
		return;
	ev = event_reserve(sizeof(*ev));
	if (!ev)
		return;
	ev->ts_ns = bpf_ktime_get_ns();
	ev->type = type;
	ev->ring = ring;
	ev->pid = pid;
	ev->context = context;
	ev->seqno = seqno;
	ev->value = value;
	ev->a = a;
	ev->b = b;
	ev->c = c;
	ev->d = d;
	ev->e = e;
	if (comm)
		__builtin_memcpy(ev->comm, comm, sizeof(ev->comm));
	else
		bpf_get_current_comm(ev->comm, sizeof(ev->comm));
	event_submit(ev);
}

/* ---- submissions -------------------------------------------------------- */

/* The row at `idx` (a job's, from its submission); NULL for NO_ROW. */
static __always_inline struct row_stats *row_at(__u32 idx)
{
	struct rows_row *r = bpf_map_lookup_elem(&rows, &idx);

	return r ? &r->s : NULL;
}

/* A CS ioctl's job, by its finished fence, on `ring`, from the current process. */
static __always_inline void on_submit(__u32 pid, __u32 ring, __u64 context, __u64 seqno,
				      __u32 num_ibs, __u32 pasid)
{
	struct row_key row = { .ring = ring, .pid = pid };
	struct job_fence f = { .context = context, .seqno = seqno };
	struct jobs_row *job;
	bool made;
	__u32 idx;
	struct row_stats *r;
	__u32 row_idx;

	if (ring_excluded(ring))
		return;
	r = row_of(&row, &row_idx);
	job = ROWS_GET_AT(jobs, f, job_start(context, seqno, JOB_ROW_BITS), &idx, &made,
			  &dropped_jobs);
	if (job) {
		job->s.row = row;
		job->s.row_idx = row_idx;
		job->s.submit_ns = bpf_ktime_get_ns();
		job->s.run_ns = 0;
	}
	if (r) {
		__sync_fetch_and_add(&r->submits, 1);
		__sync_fetch_and_add(&r->ibs, num_ibs);
	}
	if (pasid)
		bpf_map_update_elem(&pasid_pids, &pasid, &pid, BPF_ANY);
	emit(EV_SUBMIT, ring, pid, context, seqno, 0, num_ibs, 0, 0, 0, 0, NULL);
}

/* `spare`: the hook's spare program (spare.bpf.h), which takes only a run the primary missed. */
static __always_inline void on_run(__u64 context, __u64 seqno, bool spare)
{
	struct jobs_row *st;
	__u32 idx;
	struct row_stats *r;
	__u64 now, lat;

	if (!spare_first(SPARE_RUN, context, seqno, spare))
		return;
	st = job_find(context, seqno, &idx);
	if (!st) {
		if (!spare && !process_filtered() && !targ_ring[0])
			__sync_fetch_and_add(&untracked_runs, 1);
		return;
	}
	if (spare && !spare_takes(!st->s.run_ns))
		return;
	now = bpf_ktime_get_ns();
	st->s.run_ns = now;
	lat = to_units(now - st->s.submit_ns);
	r = row_at(st->s.row_idx);
	if (r) {
		__sync_fetch_and_add(&r->runs, 1);
		lat_hist_add(&r->submit_run, lat);
	}
	emit(EV_RUN, st->s.row.ring, st->s.row.pid, context, seqno, lat, 0, 0, 0, 0, 0,
	     r ? r->comm : NULL);
}

/* `spare`: the spare program; a job still in its row is one whose done the primary missed. */
static __always_inline void on_done(__u64 context, __u64 seqno, bool spare)
{
	struct jobs_row *st;
	__u32 idx;
	struct row_stats *r;
	__u64 lat = 0;

	if (!spare_first(SPARE_DONE, context, seqno, spare))
		return;
	st = job_find(context, seqno, &idx);
	if (!st)	/* not a CS submission (or before tracing) */
		return;
	if (spare)
		spare_takes(true);
	r = row_at(st->s.row_idx);
	if (st->s.run_ns)
		lat = to_units(bpf_ktime_get_ns() - st->s.run_ns);
	if (r) {
		__sync_fetch_and_add(&r->dones, 1);
		if (st->s.run_ns)
			lat_hist_add(&r->run_done, lat);
	}
	emit(EV_DONE, st->s.row.ring, st->s.row.pid, context, seqno, lat, 0, 0, 0, 0, 0,
	     r ? r->comm : NULL);
	ROWS_FREE(jobs, st, idx);
}

SEC("tp_btf/amdgpu_cs_ioctl")
int BPF_PROG(cs_ioctl, struct amdgpu_job *job)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct drm_sched_fence *s_fence;

	if (!job || !current_wanted(pid))
		return 0;
	s_fence = job->base.s_fence;
	if (!s_fence)
		return 0;
	on_submit(pid, ring_of(job->base.sched), s_fence->finished.context,
		  s_fence->finished.seqno, job->num_ibs, job->pasid);
	return 0;
}

static __always_inline int on_run_job(struct amdgpu_job *job, bool spare)
{
	struct drm_sched_fence *s_fence;

	if (job && (s_fence = job->base.s_fence))
		on_run(s_fence->finished.context, s_fence->finished.seqno, spare);
	return 0;
}

SEC("tp_btf/amdgpu_sched_run_job")
int BPF_PROG(sched_run_job, struct amdgpu_job *job)
{
	return on_run_job(job, false);
}

SEC("tp_btf/amdgpu_sched_run_job")
int BPF_PROG(sched_run_job_spare, struct amdgpu_job *job)
{
	return on_run_job(job, true);
}

static __always_inline int on_done_fence(struct drm_sched_fence *s_fence, bool spare)
{
	if (s_fence)
		on_done(s_fence->finished.context, s_fence->finished.seqno, spare);
	return 0;
}

/* Linux <= 6.16 */
SEC("tp_btf/drm_sched_process_job")
int BPF_PROG(done_old, struct drm_sched_fence *s_fence)
{
	return on_done_fence(s_fence, false);
}

SEC("tp_btf/drm_sched_process_job")
int BPF_PROG(done_old_spare, struct drm_sched_fence *s_fence)
{
	return on_done_fence(s_fence, true);
}

/* Linux >= 6.17 */
SEC("tp_btf/drm_sched_job_done")
int BPF_PROG(done_new, struct drm_sched_fence *s_fence)
{
	return on_done_fence(s_fence, false);
}

SEC("tp_btf/drm_sched_job_done")
int BPF_PROG(done_new_spare, struct drm_sched_fence *s_fence)
{
	return on_done_fence(s_fence, true);
}

/* ---- buffers ------------------------------------------------------------ */

#define TTM_PL_SYSTEM	0
#define TTM_PL_TT	1
#define TTM_PL_VRAM	2
#define PLACEMENT_UNKNOWN	~0U
#define AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED	(1 << 0)

/* The AMDGPU_GEM_DOMAIN_* of a TTM placement, as amdgpu maps them (0: none). */
static __always_inline __u32 placement_domain(__u32 mem_type)
{
	switch (mem_type) {
	case 0: return 1;	/* SYSTEM: CPU */
	case 1: return 2;	/* TT: GTT */
	case 2: return 4;	/* VRAM */
	case 3: return 8;	/* GDS */
	case 4: return 16;	/* GWS */
	case 5: return 32;	/* OA */
	case 6: return 2;	/* PREEMPT: GTT */
	case 7: return 64;	/* DOORBELL */
	default: return 0;
	}
}

/*
 * A buffer created by `pid`: preferred `domain`, `allowed` domains, `size`
 * bytes, placed in TTM placement `placed` (PLACEMENT_UNKNOWN: not known),
 * with AMDGPU_GEM_CREATE_* `flags`.
 */
static __always_inline void on_bo_create(__u32 pid, __u64 addr, __u32 domain, __u32 allowed,
					 __u64 size, __u32 placed, __u64 flags)
{
	struct bo_owner owner = { .pid = pid, .domain = domain, .size = size };
	struct bo_key key = { .pid = pid, .domain = domain };
	struct bo_stats *s;

	bpf_map_update_elem(&bo_owners, &addr, &owner, BPF_ANY);
	s = ROWS_STATS(bo_rows, key, &dropped_rows);
	if (s) {
		__sync_fetch_and_add(&s->count, 1);
		__sync_fetch_and_add(&s->bytes, size);
		/*
		 * No atomic or before 5.12: a plain one, written only when a
		 * domain is new to the row, so only the first buffers of two
		 * threads allowing different domains, at once, could lose one.
		 */
		if ((s->allowed | allowed) != s->allowed)
			s->allowed |= allowed;
		/* CPU-visible VRAM is scarce (256 MiB on boards without resizable BAR). */
		if (placed == TTM_PL_VRAM && (flags & AMDGPU_GEM_CREATE_CPU_ACCESS_REQUIRED))
			__sync_fetch_and_add(&s->visible_bytes, size);
		if (placed != PLACEMENT_UNKNOWN && !(placement_domain(placed) & domain))
			__sync_fetch_and_add(&s->misplaced, 1);
	}
	emit(EV_BO_CREATE, MAX_RINGS, pid, addr, 0, size, domain, allowed, 0, 0, 0, NULL);
}

static __always_inline void on_bo_move(__u64 addr, __u64 size, __u32 new_placement,
				       __u32 old_placement)
{
	struct bo_owner *owner;
	struct bo_rows_row *r;
	struct bo_stats *s;
	struct bo_key key;
	__u32 idx;

	owner = bpf_map_lookup_elem(&bo_owners, &addr);
	/* With -p or -c, only the buffers of the processes traced. */
	if (!owner && process_filtered())
		return;
	if (new_placement < NR_PLACEMENTS && old_placement < NR_PLACEMENTS) {
		__u32 from = old_placement, to = new_placement;

		/* clang merges the two tests into one the verifier cannot use: mask. */
		barrier_var(from);
		barrier_var(to);
		from &= NR_PLACEMENTS - 1;
		to &= NR_PLACEMENTS - 1;

		__sync_fetch_and_add(&moves[from][to].count, 1);
		__sync_fetch_and_add(&moves[from][to].bytes, size);
	}
	if (owner && old_placement == TTM_PL_VRAM &&
	    (new_placement == TTM_PL_TT || new_placement == TTM_PL_SYSTEM)) {
		key.pid = owner->pid;
		key.domain = owner->domain;
		r = ROWS_FIND(bo_rows, key, &idx);
		s = r ? &r->s : NULL;
		if (s) {
			__sync_fetch_and_add(&s->evictions, 1);
			__sync_fetch_and_add(&s->evicted_bytes, size);
		}
	}
	emit(EV_BO_MOVE, MAX_RINGS, owner ? owner->pid : 0, addr, 0, size, old_placement,
	     new_placement, 0, 0, 0, NULL);
}

SEC("tp_btf/amdgpu_bo_create")
int BPF_PROG(bo_create, struct amdgpu_bo *bo)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, placed = PLACEMENT_UNKNOWN;
	struct ttm_resource *res;

	if (!bo || !current_wanted(pid))
		return 0;
	/* Before 5.14 the placement was embedded (tbo.mem): not read, the record path has it. */
	if (bpf_core_field_exists(bo->tbo.resource)) {
		res = BPF_CORE_READ(bo, tbo.resource);
		if (res)
			placed = BPF_CORE_READ(res, mem_type);
	}
	on_bo_create(pid, (__u64)bo, bo->preferred_domains, bo->allowed_domains,
		     bo->tbo.base.size, placed, BPF_CORE_READ(bo, flags));
	return 0;
}

SEC("tp_btf/amdgpu_bo_move")
int BPF_PROG(bo_move, struct amdgpu_bo *bo, u32 new_placement, u32 old_placement)
{
	if (bo)
		on_bo_move((__u64)bo, bo->tbo.base.size, new_placement, old_placement);
	return 0;
}

/* ---- VM flushes and interrupts -------------------------------------------- */

static __always_inline void on_vm_flush(__u32 idx, __u32 vmid, __u64 pd_addr)
{
	if (ring_excluded(idx))
		return;
	__sync_fetch_and_add(&ring_infos[idx & (MAX_RINGS - 1)].flushes, 1);
	/* (checked here: the pid, an argument, would be looked up at every flush) */
	if (emit_events)
		emit(EV_VM_FLUSH, idx, bpf_get_current_pid_tgid() >> 32, 0, 0, pd_addr, vmid, 0, 0,
		     0, 0, NULL);
}

static __always_inline void on_iv(struct iv_key *key)
{
	struct ivs_row *r;
	bool made;
	__u32 idx;

	r = ROWS_GET(ivs, *key, &idx, &made, &dropped_rows);
	if (r)
		__sync_fetch_and_add(&r->s, 1);
	emit(EV_IV, MAX_RINGS, 0, 0, 0, 0, key->client_id, key->src_id, key->ring_id, key->vmid,
	     key->pasid, NULL);
}

SEC("tp_btf/amdgpu_vm_flush")
int BPF_PROG(vm_flush, struct amdgpu_ring *ring, unsigned int vmid, u64 pd_addr)
{
	if (ring)
		on_vm_flush(ring_of(&ring->sched), vmid, pd_addr);
	return 0;
}

SEC("tp_btf/amdgpu_iv")
int BPF_PROG(iv, unsigned int ih, struct amdgpu_iv_entry *entry)
{
	struct iv_key key;

	if (!entry)
		return 0;
	key.client_id = entry->client_id;
	key.src_id = entry->src_id;
	key.ring_id = entry->ring_id;
	key.vmid = entry->vmid;
	key.pasid = entry->pasid;
	on_iv(&key);
	return 0;
}

/* ---- GPU virtual memory and BO lists, per process -------------------------- */

static __always_inline struct vm_stats *vm_row(__u32 pid)
{
	return ROWS_STATS(vm_rows, pid, &dropped_rows);
}

/* A mapping of GPU pages start..last (inclusive) made or removed by `pid`. */
static __always_inline void on_mapping(__u32 type, __u32 pid, __u64 start, __u64 last)
{
	__u64 bytes = (last - start + 1) * GPU_PAGE_SIZE;
	struct vm_stats *v;

	v = vm_row(pid);
	if (v && type == EV_VM_MAP) {
		__sync_fetch_and_add(&v->maps, 1);
		__sync_fetch_and_add(&v->mapped_bytes, bytes);
	} else if (v) {
		__sync_fetch_and_add(&v->unmaps, 1);
		__sync_fetch_and_add(&v->unmapped_bytes, bytes);
	}
	emit(type, MAX_RINGS, pid, start * GPU_PAGE_SIZE, 0, bytes, 0, 0, 0, 0, 0, NULL);
}

static __always_inline int on_mapping_btf(__u32 type, struct amdgpu_bo_va_mapping *mapping)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (mapping && current_wanted(pid))
		on_mapping(type, pid, mapping->start, mapping->last);
	return 0;
}

SEC("tp_btf/amdgpu_vm_bo_map")
int BPF_PROG(vm_bo_map, void *bo_va, struct amdgpu_bo_va_mapping *mapping)
{
	return on_mapping_btf(EV_VM_MAP, mapping);
}

SEC("tp_btf/amdgpu_vm_bo_unmap")
int BPF_PROG(vm_bo_unmap, void *bo_va, struct amdgpu_bo_va_mapping *mapping)
{
	return on_mapping_btf(EV_VM_UNMAP, mapping);
}

/* A page-table update, a buffer put on a BO list (its size), a BO list made. */
enum vm_count { VM_UPDATE, VM_LIST_ENTRY, VM_LIST };

static __always_inline int on_vm_count(enum vm_count what, __u64 bytes)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct vm_stats *v;

	if (!current_wanted(pid))
		return 0;
	v = vm_row(pid);
	if (!v)
		return 0;
	if (what == VM_UPDATE) {
		__sync_fetch_and_add(&v->updates, 1);
	} else if (what == VM_LIST_ENTRY) {
		__sync_fetch_and_add(&v->list_entries, 1);
		__sync_fetch_and_add(&v->list_bytes, bytes);
	} else {
		__sync_fetch_and_add(&v->lists, 1);
	}
	return 0;
}

SEC("tp_btf/amdgpu_vm_bo_update")
int BPF_PROG(vm_bo_update, struct amdgpu_bo_va_mapping *mapping)
{
	return on_vm_count(VM_UPDATE, 0);
}

SEC("tp_btf/amdgpu_bo_list_set")
int BPF_PROG(bo_list_set, void *list, struct amdgpu_bo *bo)
{
	return bo ? on_vm_count(VM_LIST_ENTRY, bo->tbo.base.size) : 0;
}

/* After a BO list's buffers (amdgpu_bo_list_set): one per list created. */
SEC("tp_btf/amdgpu_cs_bo_status")
int BPF_PROG(cs_bo_status, u64 total_bo, u64 total_size)
{
	return on_vm_count(VM_LIST, 0);
}

/*
 * ---- the record path -------------------------------------------------------
 *
 * Classic tracepoints reading the records through descriptors the frontend
 * fills from tracefs (tp_record.bpf.h), for an amdgpu or gpu_sched without
 * BTF: no amdgpu or drm_sched struct is read (the done event is a raw
 * tracepoint, its fences found by their place). What the records lack: the
 * ring's scheduler (rings are keyed by name: two GPUs' rings of one name
 * are one row) and the job's pasid (interrupts name no process). 6.1's
 * CS and run records keep context and seqno as 32 bits (sid's: 64).
 */
const volatile __u32 page_size = 4096;	/* amdgpu_bo_create's pages are CPU pages */

TP_FIELD(f_cs_ring);
TP_FIELD(f_cs_ctx);
TP_FIELD(f_cs_seqno);
TP_FIELD(f_cs_ibs);
TP_FIELD(f_run_ctx);
TP_FIELD(f_run_seqno);
TP_FIELD(f_bc_bo);
TP_FIELD(f_bc_pages);
TP_FIELD(f_bc_prefer);
TP_FIELD(f_bc_allow);
TP_FIELD(f_bc_type);	/* the TTM placement it was created in */
TP_FIELD(f_bc_visible);	/* bo->flags, whatever the name says */
TP_FIELD(f_bm_bo);
TP_FIELD(f_bm_size);
TP_FIELD(f_bm_new);
TP_FIELD(f_bm_old);
TP_FIELD(f_fl_ring);
TP_FIELD(f_fl_vmid);
TP_FIELD(f_fl_pd_addr);
TP_FIELD(f_iv_client);
TP_FIELD(f_iv_src);
TP_FIELD(f_iv_ring);
TP_FIELD(f_iv_vmid);
TP_FIELD(f_iv_pasid);
TP_FIELD(f_map_start);
TP_FIELD(f_map_last);
TP_FIELD(f_unmap_start);
TP_FIELD(f_unmap_last);
TP_FIELD(f_bl_size);

/* Ring name -> ring_infos[] index, on the record path. */
struct ring_name {
	char name[RING_NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_RINGS);
	__type(key, struct ring_name);
	__type(value, __u32);
} ring_names SEC(".maps");

/* The ring the record names, named and judged against -r on first sight; MAX_RINGS: none. */
static __always_inline __u32 ring_of_rec(void *ctx, const volatile struct tp_field *f_ring)
{
	struct ring_name key = {};
	__u32 *id, idx;

	if (tp_read_str(ctx, f_ring, key.name, sizeof(key.name)) <= 1)
		return MAX_RINGS;
	id = bpf_map_lookup_elem(&ring_names, &key);
	if (id)
		return *id;
	idx = ring_slot_new();
	if (idx >= MAX_RINGS)
		return MAX_RINGS;
	__builtin_memcpy(ring_infos[idx].name, key.name, sizeof(key.name));
	ring_judge(idx);
	id = map_lookup_or_init(&ring_names, &key, &idx, &dropped_rings);
	return id ? *id : MAX_RINGS;
}

/* What the kernel skips of the classic events (records.h). */
TP_RECORD_COUNTERS();

SEC("tracepoint")
int tp_cs_ioctl(void *ctx)
{
	TP_RECORD_RAN();
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 context;

	if (!current_wanted(pid))
		return 0;
	context = tp_read_u64(ctx, &f_cs_ctx);
	if (!context)
		return 0;
	on_submit(pid, ring_of_rec(ctx, &f_cs_ring), context, tp_read_u64(ctx, &f_cs_seqno),
		  tp_read_u64(ctx, &f_cs_ibs), 0);
	return 0;
}

SEC("tracepoint")
int tp_run_job(void *ctx)
{
	TP_RECORD_RAN();
	__u64 context = tp_read_u64(ctx, &f_run_ctx);

	if (context)
		on_run(context, tp_read_u64(ctx, &f_run_seqno), false);
	return 0;
}

SCHED_RAW_DONE_PROGRAMS(on_done)

SEC("tracepoint")
int tp_bo_create(void *ctx)
{
	TP_RECORD_RAN();
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	__u64 bo = tp_read_u64(ctx, &f_bc_bo);

	if (!bo || !current_wanted(pid))
		return 0;
	on_bo_create(pid, bo, tp_read_u64(ctx, &f_bc_prefer), tp_read_u64(ctx, &f_bc_allow),
		     tp_read_u64(ctx, &f_bc_pages) * page_size, tp_read_u64(ctx, &f_bc_type),
		     tp_read_u64(ctx, &f_bc_visible));
	return 0;
}

SEC("tracepoint")
int tp_bo_move(void *ctx)
{
	TP_RECORD_RAN();
	__u64 bo = tp_read_u64(ctx, &f_bm_bo);

	if (bo)
		on_bo_move(bo, tp_read_u64(ctx, &f_bm_size), tp_read_u64(ctx, &f_bm_new),
			   tp_read_u64(ctx, &f_bm_old));
	return 0;
}

SEC("tracepoint")
int tp_vm_flush(void *ctx)
{
	TP_RECORD_RAN();
	on_vm_flush(ring_of_rec(ctx, &f_fl_ring), tp_read_u64(ctx, &f_fl_vmid),
		    tp_read_u64(ctx, &f_fl_pd_addr));
	return 0;
}

SEC("tracepoint")
int tp_iv(void *ctx)
{
	TP_RECORD_RAN();
	struct iv_key key;

	key.client_id = tp_read_u64(ctx, &f_iv_client);
	key.src_id = tp_read_u64(ctx, &f_iv_src);
	key.ring_id = tp_read_u64(ctx, &f_iv_ring);
	key.vmid = tp_read_u64(ctx, &f_iv_vmid);
	key.pasid = tp_read_u64(ctx, &f_iv_pasid);
	on_iv(&key);
	return 0;
}

SEC("tracepoint")
int tp_vm_bo_map(void *ctx)
{
	TP_RECORD_RAN();
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (current_wanted(pid))
		on_mapping(EV_VM_MAP, pid, tp_read_u64(ctx, &f_map_start),
			   tp_read_u64(ctx, &f_map_last));
	return 0;
}

SEC("tracepoint")
int tp_vm_bo_unmap(void *ctx)
{
	TP_RECORD_RAN();
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (current_wanted(pid))
		on_mapping(EV_VM_UNMAP, pid, tp_read_u64(ctx, &f_unmap_start),
			   tp_read_u64(ctx, &f_unmap_last));
	return 0;
}

SEC("tracepoint")
int tp_vm_bo_update(void *ctx)
{
	TP_RECORD_RAN();
	return on_vm_count(VM_UPDATE, 0);
}

SEC("tracepoint")
int tp_bo_list_set(void *ctx)
{
	TP_RECORD_RAN();
	return on_vm_count(VM_LIST_ENTRY, tp_read_u64(ctx, &f_bl_size));
}

SEC("tracepoint")
int tp_cs_bo_status(void *ctx)
{
	TP_RECORD_RAN();
	return on_vm_count(VM_LIST, 0);
}

char LICENSE[] SEC("license") = "GPL";
