// SPDX-License-Identifier: GPL-2.0
/*
 * i915mem: Intel GPU memory (i915 and xe): objects created and destroyed,
 * charged to the process that created them, bindings into GPU address
 * spaces and rebinds after unbinds (eviction churn), evictions, the
 * shrinker's requests, CPU faults and pread/pwrite.
 *
 * BTF-typed raw tracepoints on the drivers' own events, fields read with
 * CO-RE (tests/btf/corepaths checks every path read here against the real
 * modules' BTF). Objects are tracked by address from their creation to
 * their destruction; what happened to objects created before tracing began
 * is counted where it can be told apart. Counters only grow: the frontend
 * prints what changed since its previous summary.
 */
#include "kernel_types.bpf.h"
#include "tool.bpf.h"
#include "i915mem.h"
#include "tp_record.bpf.h"
#include "maps.bpf.h"

const volatile int targ_driver = -1;

/* Tables that were full: what could not be tracked. */
__u64 dropped_objects = 0;
__u64 dropped_procs = 0;
__u64 dropped_vms = 0;

/*
 * Per driver and CPU, summed by the frontend (map_sum_percpu()): plain
 * adds, where one counter shared by the CPUs takes an atomic add per
 * event (a bus-locked add on hardware, a helper call under qemu's TCG).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, NR_DRIVERS);
	__type(key, __u32);
	__type(value, struct driver_stats);
} drivers SEC(".maps");

/*
 * Every event counts in its process's row and finds its object's, by
 * index, no hash map (rows.bpf.h); an object's row is freed at its destroy.
 */
ROWS(objects, __u64, struct gem_obj, OBJ_ROW_BITS);	/* key: the address */
ROWS_CLAIMED(procs, struct proc_key, struct proc_stats, PROC_ROW_BITS);
ROWS_CLAIMED(vms, __u64, struct vm_stats, VM_ROW_BITS);	/* key: the address */

/* ---- the drivers' types: only the members read ------------------------- */

/* include/drm/drm_gem.h */
struct drm_gem_object {
	u64 size;	
} __core;

/* include/drm/drm_mm.h */
struct drm_mm_node {
	u64 start;
	u64 size;
} __core;

/* drivers/gpu/drm/i915/gem/i915_gem_object_types.h (base: in a union) */
struct drm_i915_gem_object {
	struct drm_gem_object base;
} __core;

struct i915_address_space;

/* drivers/gpu/drm/i915/i915_vma_types.h; guard pages (>= 6.3) around the binding */
struct i915_vma {
	struct drm_mm_node node;
	struct i915_address_space *vm;
	struct drm_i915_gem_object *obj;
	u32 guard;
} __core;

/* include/drm/ttm/ttm_bo.h */
struct ttm_buffer_object {
	struct drm_gem_object base;
} __core;

/* drivers/gpu/drm/xe/xe_bo_types.h */
struct xe_bo {
	struct ttm_buffer_object ttm;
} __core;

/* include/drm/drm_gpuvm.h */
struct drm_gpuvm {
	const char *name;
} __core;

struct drm_gpuva {
	struct drm_gpuvm *vm;
	struct {
		u64 addr;
		u64 range;
	} va;
	struct {
		struct drm_gem_object *obj;
	} gem;
} __core;

/* drivers/gpu/drm/xe/xe_vm_types.h */
struct xe_vma {
	struct drm_gpuva gpuva;
} __core;

struct xe_vm {
	struct drm_gpuvm gpuvm;
} __core;

/* ---- helpers ----------------------------------------------------------- */

/*
 * The index of (pid, driver)'s row, made on first sight; NO_PROC when the
 * table is full. A global function: the verifier walks its probes once per
 * program, where a row pointer returned from each probe has it walk the
 * rest of the caller once per probe.
 */
__noinline __u32 proc_index(__u32 pid, __u32 driver)
{
	struct proc_key key = { .pid = pid, .driver = driver };
	struct procs_row *p;
	bool made;
	__u32 idx;

	p = ROWS_GET_CLAIMED(procs, key, &idx, &made, &dropped_procs);
	if (!p)
		return NO_PROC;
	if (made) {
		bpf_get_current_comm(p->s.comm, sizeof(p->s.comm));
		p->s.cgroup_id = bpf_get_current_cgroup_id();
	}
	return idx;
}

/* The index of tracked object `obj`'s row (a number: addr_value()); NO_ROW if it has none. */
__noinline __u32 obj_index(__u64 obj)
{
	__u32 idx = NO_ROW;

	ROWS_FIND_ADDR(objects, obj, &idx);
	return idx;
}

/* The row of object `obj`, its index in *idx; NULL when not tracked. */
static __always_inline struct objects_row *obj_find(__u64 obj, __u32 *idx)
{
	struct objects_row *s;

	if (!obj)
		return NULL;
	s = ROWS_FIRST_ADDR(objects, obj, idx);
	if (s)
		return s;
	*idx = obj_index(addr_value(obj));
	return bpf_map_lookup_elem(&objects, idx);
}

/*
 * A row for object `obj`, cleared. NULL: the table is full (counted).
 *
 * Not looked up first (every probe checked, for each new object): a row
 * that a destroy never seen (a lost event) left for this address is
 * either reached by the probes before a free slot, and reused, or lies
 * past the free slot taken, where lookups, probing in the same order,
 * find the new row first.
 */
static __always_inline struct objects_row *obj_new(__u64 obj, __u32 *idx)
{
	struct objects_row *s;
	bool made;

	s = ROWS_GET_ADDR(objects, obj, idx, &made, &dropped_objects);
	if (!s)
		return NULL;
	s->key = obj;
	s->s = (struct gem_obj){};
	return s;
}

/* The row at `idx` (a gem_obj's proc). */
static __always_inline struct proc_stats *proc_at(__u32 idx)
{
	struct procs_row *p = bpf_map_lookup_elem(&procs, &idx);

	return p && p->match ? &p->s : NULL;
}

/* The row of (pid, driver), made on first sight; its index in *idx. NULL: the table is full. */
static __always_inline struct proc_stats *proc_row(__u32 pid, __u32 driver, __u32 *idx)
{
	*idx = proc_index(pid, driver);
	return proc_at(*idx);
}

/*
 * The row of the process on the CPU (pid, driver), for an event of object
 * `o` (NULL: not tracked): by the object's index when that process
 * created it, as it most often does, else looked up (proc_row()).
 */
static __always_inline struct proc_stats *actor_row(const struct gem_obj *o, __u32 pid, __u32 driver)
{
	__u32 idx;

	if (o && o->pid == pid && o->driver == driver && o->proc != NO_PROC)
		return proc_at(o->proc);
	return proc_row(pid, driver, &idx);
}

/*
 * The index of address space `vm`'s row (a number: addr_value()), made on
 * first sight by the current process; NO_ROW when the table is full.
 */
__noinline __u32 vm_index(__u64 vm, __u32 driver, __u32 pid)
{
	struct vms_row *v;
	bool made;
	__u32 idx;

	v = ROWS_GET_ADDR_CLAIMED(vms, vm, &idx, &made, &dropped_vms);
	if (!v)
		return NO_ROW;
	if (made) {
		v->key = vm;
		v->s.pid = pid;
		v->s.driver = driver;
		bpf_get_current_comm(v->s.comm, sizeof(v->s.comm));
		v->s.cgroup_id = bpf_get_current_cgroup_id();
	}
	return idx;
}

/* Address space `vm`'s row, made on first sight by the current process. */
static __always_inline struct vms_row *vm_row(__u64 vm, __u32 driver, __u32 pid)
{
	struct vms_row *v;
	__u32 idx;

	if (!vm)
		return NULL;
	v = ROWS_FIRST_ADDR(vms, vm, &idx);
	if (v)
		return v;
	idx = vm_index(addr_value(vm), driver, pid);
	return bpf_map_lookup_elem(&vms, &idx);
}

/* Address space `vm`'s row if it has one. */
static __always_inline struct vms_row *vm_find(__u64 vm)
{
	__u32 idx;

	return vm ? ROWS_FIND_ADDR(vms, vm, &idx) : NULL;
}

static __always_inline bool driver_wanted(__u32 driver)
{
	return targ_driver < 0 || (__u32)targ_driver == driver;
}

static __always_inline struct driver_stats *driver_stats(__u32 driver)
{
	return bpf_map_lookup_elem(&drivers, &driver);
}

/* An event of `driver`'s counted; its counters, for what else the caller counts (NULL: none). */
static __always_inline struct driver_stats *count(__u32 driver, __u32 type)
{
	struct driver_stats *d = driver_stats(driver);

	if (d && type < NR_EVENT_TYPES)
		d->events[type]++;
	return d;
}

/*
 * -e's record. pid 0: the current task's, looked up here, once -e is known
 * to be on (an argument computed by the caller would cost every event).
 */
static __always_inline void emit(__u8 type, __u8 driver, __u32 pid, __u64 obj, __u64 vm,
				 __u64 size, __u64 offset, __u64 arg, __u32 creator, __u8 fault_kind,
				 __u8 rebind)
{
	struct i915mem_event *e;

	if (!emit_events)
		return;
	if (!pid)
		pid = bpf_get_current_pid_tgid() >> 32;
	e = event_reserve(sizeof(*e));
	if (!e)
		return;
	e->ts_ns = bpf_ktime_get_ns();
	e->obj = obj;
	e->vm = vm;
	e->size = size;
	e->offset = offset;
	e->arg = arg;
	e->pid = pid;
	e->creator = creator;
	e->type = type;
	e->driver = driver;
	e->fault_kind = fault_kind;
	e->rebind = rebind;
	e->pad = 0;
	e->cgroup_id = bpf_get_current_cgroup_id();
	bpf_get_current_comm(e->comm, sizeof(e->comm));
	event_submit(e);
}

/* ---- what the handlers of both drivers share ---------------------------- */

/*
 * p->created_bytes += size; the sum, less the bytes destroyed, is the
 * process's live bytes, for the peak (the frontend takes live and
 * live_bytes the same way: two counters fewer per create and destroy). By
 * compare-and-swap, which the kernel before 5.12 lacks and rejects even
 * where has_atomic_fetch makes it dead: the frontend rewrites it there
 * (tool_load()). There, and after 4 lost races, the sum is
 * read back after the add: another CPU's update of the same process may be
 * in it (the peak may miss an extreme only when its threads create at
 * once, or count one object being destroyed meanwhile).
 */
static __always_inline __s64 created_add(struct proc_stats *p, __u64 size)
{
	__u64 old;
	int i;

	for (i = 0; has_atomic_fetch && i < 4; i++) {
		old = p->created_bytes;
		if (__sync_val_compare_and_swap(&p->created_bytes, old, old + size) == old)
			return (__s64)(old + size - p->destroyed_bytes);
	}
	__sync_fetch_and_add(&p->created_bytes, size);
	return (__s64)(p->created_bytes - p->destroyed_bytes);
}

static __always_inline void on_create(__u32 driver, __u64 obj, __u64 size)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, idx, proc;
	struct driver_stats *d;
	struct proc_stats *p;
	struct objects_row *s;
	__s64 live;
	int i;

	if (!obj || !driver_wanted(driver) || !current_wanted(pid))
		return;
	s = obj_new(obj, &idx);
	if (!s)
		return;
	p = proc_row(pid, driver, &proc);
	s->s.size = size;
	s->s.created_ns = bpf_ktime_get_ns();
	s->s.pid = pid;
	s->s.driver = driver;
	s->s.proc = p ? proc : NO_PROC;
	d = count(driver, EV_CREATE);
	if (d)
		d->size_slots[log2_slot(size)]++;
	if (p) {
		__sync_fetch_and_add(&p->created, 1);
		live = created_add(p, size);
		if (!has_atomic_fetch && live > p->peak_bytes)
			p->peak_bytes = live;
		for (i = 0; has_atomic_fetch && i < 4; i++) {
			__s64 peak = p->peak_bytes;

			if (live <= peak || __sync_val_compare_and_swap(&p->peak_bytes, peak, live) == peak)
				break;
		}
	}
	emit(EV_CREATE, driver, pid, obj, 0, size, 0, 0, pid, 0, 0);
}

static __always_inline void on_destroy(__u32 driver, __u64 obj)
{
	struct driver_stats *d;
	struct proc_stats *p;
	struct objects_row *s;
	struct gem_obj *o;
	__u64 size, life;
	__u32 creator, idx;

	if (!obj || !driver_wanted(driver))
		return;
	s = obj_find(obj, &idx);
	if (!s || s->s.preexisting) {
		if (!process_filtered() && (d = driver_stats(driver)))
			d->untracked_destroys++;
		if (s)
			ROWS_FREE(objects, s, idx);
		return;
	}
	o = &s->s;
	size = o->size;
	creator = o->pid;
	life = to_units(bpf_ktime_get_ns() - o->created_ns);
	d = count(driver, EV_DESTROY);
	if (d)
		d->life_slots[log2_slot(life)]++;
	p = proc_at(o->proc);
	if (p) {
		__sync_fetch_and_add(&p->destroyed, 1);
		__sync_fetch_and_add(&p->destroyed_bytes, size);
	}
	emit(EV_DESTROY, driver, 0, obj, 0, size, 0, life, creator, 0, 0);
	ROWS_FREE(objects, s, idx);
}

static __always_inline void on_bind(__u32 driver, __u64 obj, __u64 vm, __u64 offset, __u64 size,
				    __u64 flags, bool is_rebind)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, idx;
	struct objects_row *s = obj_find(obj, &idx);
	struct gem_obj *o = s ? &s->s : NULL;
	struct proc_stats *p;
	struct vms_row *v;
	bool rebind;

	if (!driver_wanted(driver) || (!o && !current_wanted(pid)))
		return;
	rebind = is_rebind || (o && o->unbound);
	/* The driver's count of binds is its processes' (read_drivers()), but for those without a row. */
	p = actor_row(o, pid, driver);
	if (p) {
		__sync_fetch_and_add(&p->binds, 1);
		if (rebind)
			__sync_fetch_and_add(&p->rebinds, 1);
	} else {
		count(driver, EV_BIND);
	}
	v = vm_row(vm, driver, pid);
	if (v) {
		__sync_fetch_and_add(&v->s.binds, 1);
		__sync_fetch_and_add(&v->s.bind_bytes, size);
		if (rebind)
			__sync_fetch_and_add(&v->s.rebinds, 1);
	}
	emit(EV_BIND, driver, pid, obj, vm, size, offset, flags, o ? o->pid : 0, 0, rebind);
}

static __always_inline void on_unbind(__u32 driver, __u64 obj, __u64 vm, __u64 offset, __u64 size,
				      __u64 obj_size)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, idx;
	struct objects_row *s = obj_find(obj, &idx);
	struct gem_obj *o = s ? &s->s : NULL;
	struct proc_stats *p;
	struct vms_row *v;

	if (!driver_wanted(driver) || (!o && !current_wanted(pid)))
		return;
	if (o) {
		o->unbound = 1;
	} else if (obj && (s = obj_new(obj, &idx))) {
		/* Created before tracing: remember it was unbound, to know a rebind. */
		s->s.size = obj_size;
		s->s.proc = NO_PROC;
		s->s.driver = driver;
		s->s.preexisting = 1;
		s->s.unbound = 1;
	}
	p = actor_row(o, pid, driver);
	if (p)
		__sync_fetch_and_add(&p->unbinds, 1);
	else
		count(driver, EV_UNBIND);
	v = vm_row(vm, driver, pid);
	if (v)
		__sync_fetch_and_add(&v->s.unbinds, 1);
	emit(EV_UNBIND, driver, pid, obj, vm, size, offset, 0, o ? o->pid : 0, 0, 0);
}

static __always_inline void on_fault(__u32 driver, __u64 obj, __u64 index, __u8 kind)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, who = pid, idx, creator = 0, proc = NO_PROC;
	struct objects_row *s = obj_find(obj, &idx);
	struct proc_stats *p;
	__u64 size = 0;

	/* The object's values copied once: the verifier need not follow s's NULL test further. */
	if (s) {
		size = s->s.size;
		creator = s->s.pid;
		proc = s->s.proc;
		/*
		 * A GPU page fault is handled by a kernel worker (xe): charge it to
		 * the object's creator, where known, rather than to the worker.
		 */
		if (kind == FAULT_GPU && !s->s.preexisting)
			who = creator;
	}
	if (!driver_wanted(driver) || (who == pid && !current_wanted(pid)))
		return;
	count(driver, EV_FAULT);
	p = who == pid ? proc_row(pid, driver, &proc) : proc_at(proc);
	if (p && kind < NR_FAULT_KINDS)
		__sync_fetch_and_add(&p->faults[kind], 1);
	emit(EV_FAULT, driver, pid, obj, 0, size, index, 0, creator, kind, 0);
}

static __always_inline void on_rw(__u8 type, __u64 obj, __u64 offset, __u64 len)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32, idx;
	struct proc_stats *p;

	if (!driver_wanted(DRV_I915) || !current_wanted(pid))
		return;
	count(DRV_I915, type);
	p = proc_row(pid, DRV_I915, &idx);
	if (p && type == EV_PREAD) {
		__sync_fetch_and_add(&p->preads, 1);
		__sync_fetch_and_add(&p->pread_bytes, len);
	} else if (p) {
		__sync_fetch_and_add(&p->pwrites, 1);
		__sync_fetch_and_add(&p->pwrite_bytes, len);
	}
	emit(type, DRV_I915, pid, obj, 0, len, offset, 0, 0, 0, 0);
}

static __always_inline void on_evict(__u8 type, __u32 driver, __u64 vm, __u64 bytes, __u64 flags)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct driver_stats *d;
	struct vms_row *v;

	if (!driver_wanted(driver))
		return;
	d = count(driver, type);
	if (d && type == EV_EVICT)
		d->evict_bytes += bytes;
	else if (d && type == EV_EVICT_NODE)
		d->evict_node_bytes += bytes;
	v = vm_find(vm);
	if (v)
		__sync_fetch_and_add(&v->s.evictions, 1);
	emit(type, driver, pid, 0, vm, bytes, 0, flags, 0, 0, 0);
}

static __always_inline void on_shrink(__u64 target)
{
	struct driver_stats *d;

	if (!driver_wanted(DRV_I915))
		return;
	d = count(DRV_I915, EV_SHRINK);
	if (d)
		d->shrink_pages += target;
	emit(EV_SHRINK, DRV_I915, 0, 0, 0, 0, 0, target, 0, 0, 0);
}

static __always_inline void on_vm(__u8 type, __u32 driver, __u64 vm)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct vms_row *v;

	if (!vm || !driver_wanted(driver))
		return;
	count(driver, type);
	if (type == EV_VM_CREATE && current_wanted(pid)) {
		v = vm_row(vm, driver, pid);
		/*
		 * A new address space at a freed one's address: the row starts
		 * over, its generation telling the frontend not to subtract the
		 * old one's counts.
		 */
		if (v && (v->s.binds || v->s.unbinds || v->s.evictions || v->s.freed)) {
			__u32 generation = v->s.generation + 1;

			v->s = (struct vm_stats){ .pid = pid, .driver = driver, .generation = generation };
			bpf_get_current_comm(v->s.comm, sizeof(v->s.comm));
			v->s.cgroup_id = bpf_get_current_cgroup_id();
		}
		if (v)
			v->s.created_seen = 1;
	} else if (type == EV_VM_FREE) {
		v = vm_find(vm);
		if (v)
			v->s.freed = 1;
	}
	emit(type, driver, pid, 0, vm, 0, 0, 0, 0, 0, 0);
}

/* ---- i915 --------------------------------------------------------------- */

SEC("tp_btf/i915_gem_object_create")
int BPF_PROG(i915_create, struct drm_i915_gem_object *obj)
{
	if (obj)
		on_create(DRV_I915, (__u64)obj, obj->base.size);
	return 0;
}

SEC("tp_btf/i915_gem_object_destroy")
int BPF_PROG(i915_destroy, struct drm_i915_gem_object *obj)
{
	on_destroy(DRV_I915, (__u64)obj);
	return 0;
}

/* The binding's range as the tracepoint itself reports it: inside the guard pages. */
static __always_inline void vma_range(struct i915_vma *vma, __u64 *offset, __u64 *size)
{
	__u64 guard = 0;

	if (bpf_core_field_exists(vma->guard))
		guard = vma->guard;
	*offset = vma->node.start + guard;
	*size = vma->node.size - 2 * guard;
}

SEC("tp_btf/i915_vma_bind")
int BPF_PROG(i915_bind, struct i915_vma *vma, unsigned int flags)
{
	__u64 offset, size;

	if (!vma)
		return 0;
	vma_range(vma, &offset, &size);
	on_bind(DRV_I915, (__u64)vma->obj, (__u64)vma->vm, offset, size, flags, false);
	return 0;
}

SEC("tp_btf/i915_vma_unbind")
int BPF_PROG(i915_unbind, struct i915_vma *vma)
{
	struct drm_i915_gem_object *obj;
	__u64 offset, size;

	if (!vma)
		return 0;
	obj = vma->obj;
	vma_range(vma, &offset, &size);
	on_unbind(DRV_I915, (__u64)obj, (__u64)vma->vm, offset, size, obj ? obj->base.size : 0);
	return 0;
}

SEC("tp_btf/i915_gem_object_fault")
int BPF_PROG(i915_fault, struct drm_i915_gem_object *obj, u64 index, bool gtt, bool write)
{
	on_fault(DRV_I915, (__u64)obj, index, (gtt ? FAULT_GTT : 0) | (write ? FAULT_WRITE : 0));
	return 0;
}

SEC("tp_btf/i915_gem_object_pread")
int BPF_PROG(i915_pread, struct drm_i915_gem_object *obj, u64 offset, u64 len)
{
	on_rw(EV_PREAD, (__u64)obj, offset, len);
	return 0;
}

SEC("tp_btf/i915_gem_object_pwrite")
int BPF_PROG(i915_pwrite, struct drm_i915_gem_object *obj, u64 offset, u64 len)
{
	on_rw(EV_PWRITE, (__u64)obj, offset, len);
	return 0;
}

SEC("tp_btf/i915_gem_shrink")
int BPF_PROG(i915_shrink, void *i915, unsigned long target, unsigned int flags)
{
	on_shrink(target);
	return 0;
}

SEC("tp_btf/i915_gem_evict")
int BPF_PROG(i915_evict, struct i915_address_space *vm, u64 size, u64 align, unsigned int flags)
{
	on_evict(EV_EVICT, DRV_I915, (__u64)vm, size, flags);
	return 0;
}

SEC("tp_btf/i915_gem_evict_node")
int BPF_PROG(i915_evict_node, struct i915_address_space *vm, struct drm_mm_node *node,
	     unsigned int flags)
{
	on_evict(EV_EVICT_NODE, DRV_I915, (__u64)vm, node ? node->size : 0, flags);
	return 0;
}

SEC("tp_btf/i915_gem_evict_vm")
int BPF_PROG(i915_evict_vm, struct i915_address_space *vm)
{
	on_evict(EV_EVICT_VM, DRV_I915, (__u64)vm, 0, 0);
	return 0;
}

SEC("tp_btf/i915_ppgtt_create")
int BPF_PROG(i915_vm_create, struct i915_address_space *vm)
{
	on_vm(EV_VM_CREATE, DRV_I915, (__u64)vm);
	return 0;
}

SEC("tp_btf/i915_ppgtt_release")
int BPF_PROG(i915_vm_free, struct i915_address_space *vm)
{
	on_vm(EV_VM_FREE, DRV_I915, (__u64)vm);
	return 0;
}

/*
 * The record path: i915's events as classic tracepoints (SEC("tracepoint"),
 * attached by name at run time) reading the trace records through field
 * descriptors the frontend fills from tracefs (tp_format.h), for an i915
 * without BTF (DKMS backports, kernels < 5.11): no struct of i915's is
 * read. Every record has what the BTF path reads (object, address space,
 * sizes, the binding's range inside its guard pages, flags) but unbind's,
 * which has no object size: the object table's, SIZE_UNKNOWN for an object
 * created before tracing.
 */
TP_FIELD(f_create_obj);
TP_FIELD(f_create_size);
TP_FIELD(f_destroy_obj);
TP_FIELD(f_bind_obj);
TP_FIELD(f_bind_vm);
TP_FIELD(f_bind_offset);
TP_FIELD(f_bind_size);
TP_FIELD(f_bind_flags);
TP_FIELD(f_unbind_obj);
TP_FIELD(f_unbind_vm);
TP_FIELD(f_unbind_offset);
TP_FIELD(f_unbind_size);
TP_FIELD(f_fault_obj);
TP_FIELD(f_fault_index);
TP_FIELD(f_fault_gtt);
TP_FIELD(f_fault_write);
TP_FIELD(f_pread_obj);
TP_FIELD(f_pread_offset);
TP_FIELD(f_pread_len);
TP_FIELD(f_pwrite_obj);
TP_FIELD(f_pwrite_offset);
TP_FIELD(f_pwrite_len);
TP_FIELD(f_shrink_target);
TP_FIELD(f_evict_vm);
TP_FIELD(f_evict_size);
TP_FIELD(f_evict_flags);
TP_FIELD(f_evict_node_vm);
TP_FIELD(f_evict_node_size);
TP_FIELD(f_evict_node_flags);
TP_FIELD(f_evict_vm_vm);
TP_FIELD(f_vm_create_vm);
TP_FIELD(f_vm_free_vm);

/* What the kernel skips of the classic events (records.h). */
TP_RECORD_COUNTERS();

SEC("tracepoint")
int tp_i915_create(void *ctx)
{
	TP_RECORD_RAN();
	on_create(DRV_I915, tp_read_u64(ctx, &f_create_obj), tp_read_u64(ctx, &f_create_size));
	return 0;
}

SEC("tracepoint")
int tp_i915_destroy(void *ctx)
{
	TP_RECORD_RAN();
	on_destroy(DRV_I915, tp_read_u64(ctx, &f_destroy_obj));
	return 0;
}

SEC("tracepoint")
int tp_i915_bind(void *ctx)
{
	TP_RECORD_RAN();
	on_bind(DRV_I915, tp_read_u64(ctx, &f_bind_obj), tp_read_u64(ctx, &f_bind_vm),
		tp_read_u64(ctx, &f_bind_offset), tp_read_u64(ctx, &f_bind_size),
		tp_read_u64(ctx, &f_bind_flags), false);
	return 0;
}

SEC("tracepoint")
int tp_i915_unbind(void *ctx)
{
	TP_RECORD_RAN();
	on_unbind(DRV_I915, tp_read_u64(ctx, &f_unbind_obj), tp_read_u64(ctx, &f_unbind_vm),
		  tp_read_u64(ctx, &f_unbind_offset), tp_read_u64(ctx, &f_unbind_size),
		  SIZE_UNKNOWN);
	return 0;
}

SEC("tracepoint")
int tp_i915_fault(void *ctx)
{
	TP_RECORD_RAN();
	__u8 kind = (tp_read_u64(ctx, &f_fault_gtt) ? FAULT_GTT : 0) |
		    (tp_read_u64(ctx, &f_fault_write) ? FAULT_WRITE : 0);

	on_fault(DRV_I915, tp_read_u64(ctx, &f_fault_obj), tp_read_u64(ctx, &f_fault_index), kind);
	return 0;
}

SEC("tracepoint")
int tp_i915_pread(void *ctx)
{
	TP_RECORD_RAN();
	on_rw(EV_PREAD, tp_read_u64(ctx, &f_pread_obj), tp_read_u64(ctx, &f_pread_offset),
	      tp_read_u64(ctx, &f_pread_len));
	return 0;
}

SEC("tracepoint")
int tp_i915_pwrite(void *ctx)
{
	TP_RECORD_RAN();
	on_rw(EV_PWRITE, tp_read_u64(ctx, &f_pwrite_obj), tp_read_u64(ctx, &f_pwrite_offset),
	      tp_read_u64(ctx, &f_pwrite_len));
	return 0;
}

SEC("tracepoint")
int tp_i915_shrink(void *ctx)
{
	TP_RECORD_RAN();
	on_shrink(tp_read_u64(ctx, &f_shrink_target));
	return 0;
}

SEC("tracepoint")
int tp_i915_evict(void *ctx)
{
	TP_RECORD_RAN();
	on_evict(EV_EVICT, DRV_I915, tp_read_u64(ctx, &f_evict_vm), tp_read_u64(ctx, &f_evict_size),
		 tp_read_u64(ctx, &f_evict_flags));
	return 0;
}

SEC("tracepoint")
int tp_i915_evict_node(void *ctx)
{
	TP_RECORD_RAN();
	on_evict(EV_EVICT_NODE, DRV_I915, tp_read_u64(ctx, &f_evict_node_vm),
		 tp_read_u64(ctx, &f_evict_node_size), tp_read_u64(ctx, &f_evict_node_flags));
	return 0;
}

SEC("tracepoint")
int tp_i915_evict_vm(void *ctx)
{
	TP_RECORD_RAN();
	on_evict(EV_EVICT_VM, DRV_I915, tp_read_u64(ctx, &f_evict_vm_vm), 0, 0);
	return 0;
}

SEC("tracepoint")
int tp_i915_vm_create(void *ctx)
{
	TP_RECORD_RAN();
	on_vm(EV_VM_CREATE, DRV_I915, tp_read_u64(ctx, &f_vm_create_vm));
	return 0;
}

SEC("tracepoint")
int tp_i915_vm_free(void *ctx)
{
	TP_RECORD_RAN();
	on_vm(EV_VM_FREE, DRV_I915, tp_read_u64(ctx, &f_vm_free_vm));
	return 0;
}

/* ---- xe (>= 6.8) ---------------------------------------------------------- */

/*
 * A BO is known by the address of the GEM object inside it, an address
 * space by that of the drm_gpuvm inside the xe_vm: what the bindings'
 * events name. Both come first in their xe struct (tests/btf checks the
 * paths), so these are the BO's and the xe_vm's addresses too. Turning a
 * binding's pointers into the outer structs' addresses instead took a
 * branch on each (NULL stays NULL) that the verifier followed separately
 * through the rest of the program: xe_vma_bind verified 5176
 * instructions, i915_bind 3421.
 */

SEC("tp_btf/xe_bo_create")
int BPF_PROG(xe_create, struct xe_bo *bo)
{
	if (bo)
		on_create(DRV_XE, (__u64)&bo->ttm.base, bo->ttm.base.size);
	return 0;
}

/* xe has no destroy event: its TTM destroy callback, where every BO ends. */
SEC("fentry/xe_ttm_bo_destroy")
int BPF_PROG(xe_destroy, struct ttm_buffer_object *ttm_bo)
{
	if (ttm_bo)
		on_destroy(DRV_XE, (__u64)ttm_bo + bpf_core_field_offset(struct xe_bo, ttm.base) -
					   bpf_core_field_offset(struct xe_bo, ttm));
	return 0;
}

static __always_inline int xe_bind(struct xe_vma *vma, bool rebind)
{
	if (vma)
		on_bind(DRV_XE, (__u64)vma->gpuva.gem.obj, (__u64)vma->gpuva.vm,
			vma->gpuva.va.addr, vma->gpuva.va.range, 0, rebind);
	return 0;
}

SEC("tp_btf/xe_vma_bind")
int BPF_PROG(xe_vma_bind, struct xe_vma *vma)
{
	return xe_bind(vma, false);
}

/* Bindings restored after their BO was moved or their pages invalidated. */
SEC("tp_btf/xe_vma_rebind_worker")
int BPF_PROG(xe_vma_rebind_worker, struct xe_vma *vma)
{
	return xe_bind(vma, true);
}

SEC("tp_btf/xe_vma_rebind_exec")
int BPF_PROG(xe_vma_rebind_exec, struct xe_vma *vma)
{
	return xe_bind(vma, true);
}

SEC("tp_btf/xe_vma_unbind")
int BPF_PROG(xe_vma_unbind, struct xe_vma *vma)
{
	struct drm_gem_object *gem;

	if (!vma)
		return 0;
	gem = vma->gpuva.gem.obj;
	on_unbind(DRV_XE, (__u64)gem, (__u64)vma->gpuva.vm, vma->gpuva.va.addr,
		  vma->gpuva.va.range, gem ? gem->size : 0);
	return 0;
}

SEC("tp_btf/xe_vma_evict")
int BPF_PROG(xe_vma_evict, struct xe_vma *vma)
{
	if (vma)
		on_evict(EV_EVICT, DRV_XE, (__u64)vma->gpuva.vm, vma->gpuva.va.range, 0);
	return 0;
}

SEC("tp_btf/xe_vma_pagefault")
int BPF_PROG(xe_vma_pagefault, struct xe_vma *vma)
{
	if (vma)
		on_fault(DRV_XE, (__u64)vma->gpuva.gem.obj, vma->gpuva.va.addr, FAULT_GPU);
	return 0;
}

SEC("tp_btf/xe_bo_cpu_fault")
int BPF_PROG(xe_cpu_fault, struct xe_bo *bo)
{
	on_fault(DRV_XE, bo ? (__u64)&bo->ttm.base : 0, 0, FAULT_CPU_ANY);
	return 0;
}

SEC("tp_btf/xe_bo_move")
int BPF_PROG(xe_move, struct xe_bo *bo, u32 new_placement, u32 old_placement, bool lacks_source)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct driver_stats *d;
	__u64 size;

	if (!bo || !driver_wanted(DRV_XE))
		return 0;
	size = bo->ttm.base.size;
	d = count(DRV_XE, EV_MOVE);
	if (d)
		d->move_bytes += size;
	emit(EV_MOVE, DRV_XE, pid, (__u64)&bo->ttm.base, 0, size, 0,
	     (__u64)new_placement << 32 | old_placement, 0, 0, 0);
	return 0;
}

SEC("tp_btf/xe_vm_create")
int BPF_PROG(xe_vm_create, struct xe_vm *vm)
{
	on_vm(EV_VM_CREATE, DRV_XE, vm ? (__u64)&vm->gpuvm : 0);
	return 0;
}

SEC("tp_btf/xe_vm_free")
int BPF_PROG(xe_vm_free, struct xe_vm *vm)
{
	on_vm(EV_VM_FREE, DRV_XE, vm ? (__u64)&vm->gpuvm : 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
