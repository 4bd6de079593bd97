// SPDX-License-Identifier: GPL-2.0
/* nvdrv: the RM's objects as a tree, and GPU memory per process (rm_memory.h). */
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "nvidia_names.h"
#include "rm_memory.h"
#include "table.h"

struct mem_row mem_rows[MAX_MEM_ROWS];
int nr_mem_rows;
unsigned long long dropped_rm_objects, dropped_mem_rows;

bool rm_memory_class(__u32 cls)
{
	switch (cls) {
#define MEM_CASE(c, off, p) case c: return true;
	NV_MEMORY_CLASSES(MEM_CASE)
#undef MEM_CASE
	}
	return false;
}

/* The RM's root classes (cl0000.h, cl0001.h, cl0041.h): a client, its handle hObjectNew. */
static bool root_class(__u32 cls)
{
	return cls == 0x0000 || cls == 0x0001 || cls == 0x0041;
}

#define NO_OBJ	(-1)
#define CLS_UNKNOWN 0xffffffffu	/* a client made before nvdrv started */

struct rm_object {
	__u32 client, handle, cls;
	int parent, first_child, next_sibling, prev_sibling;	/* pool indexes */
	int hash_next;
	int row;		/* its mem_rows entry: memory objects only, else NO_OBJ */
	__u64 size;
	__u64 file;		/* clients: the file they came through (0: unknown) */
	unsigned long long seq;	/* the order objects were made, for -l */
	bool used;
};

#define HASH_SIZE 131072	/* a power of two, twice the pool */

static struct rm_object pool[MAX_RM_OBJECTS];
static int buckets[HASH_SIZE];
static int free_head = NO_OBJ, nr_made;	/* pool entries never used are taken in order */
static unsigned long long next_seq;
static bool ready;

static void init(void)
{
	int i;

	for (i = 0; i < HASH_SIZE; i++)
		buckets[i] = NO_OBJ;
	ready = true;
}

static unsigned int bucket_of(__u32 client, __u32 handle)
{
	__u64 k = (__u64)client << 32 | handle;

	k *= 0x9e3779b97f4a7c15ULL;
	return (unsigned int)(k >> 32) & (HASH_SIZE - 1);
}

static int find(__u32 client, __u32 handle)
{
	int i;

	for (i = buckets[bucket_of(client, handle)]; i != NO_OBJ; i = pool[i].hash_next)
		if (pool[i].client == client && pool[i].handle == handle)
			return i;
	return NO_OBJ;
}

static struct mem_row *mem_row(const struct nvdrv_event *e, __u32 cls)
{
	struct mem_row *r;
	int i;

	for (i = 0; i < nr_mem_rows; i++)
		if (mem_rows[i].pid == e->pid && mem_rows[i].cls == cls)
			return &mem_rows[i];
	if (nr_mem_rows == MAX_MEM_ROWS) {
		dropped_mem_rows++;
		return NULL;
	}
	r = &mem_rows[nr_mem_rows++];
	memset(r, 0, sizeof(*r));
	r->pid = e->pid;
	r->cls = cls;
	r->cgroup_id = e->rm.cgroup_id;
	memcpy(r->comm, e->comm, sizeof(r->comm));
	return r;
}

/* A new object under `parent` (NO_OBJ: a root), in the hash; NO_OBJ when the pool is full. */
static int make(__u32 client, __u32 handle, __u32 cls, int parent)
{
	struct rm_object *o;
	unsigned int b;
	int i;

	if (free_head != NO_OBJ) {
		i = free_head;
		free_head = pool[i].next_sibling;
	} else if (nr_made < MAX_RM_OBJECTS) {
		i = nr_made++;
	} else {
		dropped_rm_objects++;
		return NO_OBJ;
	}
	o = &pool[i];
	memset(o, 0, sizeof(*o));
	o->client = client;
	o->handle = handle;
	o->cls = cls;
	o->parent = parent;
	o->first_child = o->prev_sibling = NO_OBJ;
	o->next_sibling = NO_OBJ;
	o->row = NO_OBJ;
	o->seq = next_seq++;
	o->used = true;
	if (parent != NO_OBJ) {
		o->next_sibling = pool[parent].first_child;
		if (o->next_sibling != NO_OBJ)
			pool[o->next_sibling].prev_sibling = i;
		pool[parent].first_child = i;
	}
	b = bucket_of(client, handle);
	o->hash_next = buckets[b];
	buckets[b] = i;
	return i;
}

/* Free object i and everything under it, as the RM does. */
static void release(int i)
{
	struct rm_object *o = &pool[i];
	unsigned int b;
	int *p;

	while (o->first_child != NO_OBJ)
		release(o->first_child);
	if (o->row != NO_OBJ) {
		struct mem_row *r = &mem_rows[o->row];

		r->frees++;
		r->live -= o->size;
		r->live_objects--;
	}
	/* Out of its parent's children and out of the hash. */
	if (o->prev_sibling != NO_OBJ)
		pool[o->prev_sibling].next_sibling = o->next_sibling;
	else if (o->parent != NO_OBJ)
		pool[o->parent].first_child = o->next_sibling;
	if (o->next_sibling != NO_OBJ)
		pool[o->next_sibling].prev_sibling = o->prev_sibling;
	b = bucket_of(o->client, o->handle);
	for (p = &buckets[b]; *p != NO_OBJ; p = &pool[*p].hash_next)
		if (*p == i) {
			*p = o->hash_next;
			break;
		}
	o->used = false;
	o->next_sibling = free_head;
	free_head = i;
}

/* The client's root: made when nvdrv did not see its RM_ALLOC (before it started). */
static int client_root(__u32 client)
{
	int i = find(client, client);

	return i != NO_OBJ ? i : make(client, client, CLS_UNKNOWN, NO_OBJ);
}

static void on_alloc(const struct nvdrv_event *e)
{
	bool memory = rm_memory_class(e->rm.cls);
	struct mem_row *r = NULL;
	int i, parent;

	if (memory) {
		r = mem_row(e, e->rm.cls);
		if (r && e->rm.status) {
			r->failed++;
			r->failed_bytes += e->rm.size;
		}
	}
	if (e->rm.status)
		return;
	/* A handle alive here that the RM gives again: its free was not seen. */
	i = find(e->rm.client, e->rm.handle);
	if (i != NO_OBJ)
		release(i);
	if (root_class(e->rm.cls)) {
		i = make(e->rm.handle, e->rm.handle, e->rm.cls, NO_OBJ);
		if (i != NO_OBJ)
			pool[i].file = e->rm.file;
		return;
	}
	parent = find(e->rm.client, e->rm.parent);
	if (parent == NO_OBJ)
		parent = client_root(e->rm.client);
	if (parent == NO_OBJ)
		return;	/* the pool is full: counted */
	i = make(e->rm.client, e->rm.handle, e->rm.cls, parent);
	if (i == NO_OBJ || !r)
		return;
	pool[i].row = r - mem_rows;
	pool[i].size = e->rm.size;
	r->allocs++;
	r->live += e->rm.size;
	r->live_objects++;
	if (r->live > r->peak)
		r->peak = r->live;
}

static void on_free(const struct nvdrv_event *e)
{
	int i = find(e->rm.client, e->rm.handle);

	if (i != NO_OBJ)
		release(i);
}

/* The file's clients die with it (the RM frees them at its last close). */
static void on_close(const struct nvdrv_event *e)
{
	int i;

	for (i = 0; i < nr_made; i++)
		if (pool[i].used && pool[i].parent == NO_OBJ && pool[i].file &&
		    pool[i].file == e->rm.file)
			release(i);
}

void rm_event(const struct nvdrv_event *e)
{
	if (!ready)
		init();
	switch (e->type) {
	case EV_RM_ALLOC:
		on_alloc(e);
		break;
	case EV_RM_FREE:
		on_free(e);
		break;
	case EV_RM_CLOSE:
		on_close(e);
		break;
	}
}

static int cmp_seq(const void *a, const void *b)
{
	const struct rm_object *x = *(const struct rm_object *const *)a;
	const struct rm_object *y = *(const struct rm_object *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void rm_for_each_live(void (*fn)(const struct rm_live *, void *), void *ctx)
{
	const struct rm_object **live;
	int i, n = 0;

	live = malloc(sizeof(*live) * (nr_made ? nr_made : 1));
	if (!live)
		return;
	for (i = 0; i < nr_made; i++)
		if (pool[i].used && pool[i].row != NO_OBJ)
			live[n++] = &pool[i];
	qsort(live, n, sizeof(*live), cmp_seq);
	for (i = 0; i < n; i++) {
		struct rm_live l = { &mem_rows[live[i]->row], live[i]->client, live[i]->handle,
				     live[i]->size };

		fn(&l, ctx);
	}
	free(live);
}

/* ---- output --------------------------------------------------------------------- */

/* A class's name ("NV01_MEMORY_LOCAL_USER"), or its number in hex. */
static const char *class_label(__u32 cls, char *buf, size_t size)
{
	const char *name = nv_object_name(NV_ESC_RM_ALLOC, cls);

	if (name)
		return name;
	snprintf(buf, size, "0x%x", cls);
	return buf;
}

static const struct column mem_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CLASS", "class", -32, 0 },	/* NV01_MEMORY_SYSTEM_OS_DESCRIPTOR */
	{ "ALLOCS", "allocs", 7, 0 },
	{ "FREES", "frees", 7, 0 },
	{ "FAILED", "failed", 7, 0 },
	{ "FAILED_BYTES", "failed_bytes", 13, 0 },
	{ "LIVE", "live_objects", 6, 0 },
	{ "LIVE_BYTES", "live_bytes", 14, 0 },
	{ "PEAK_BYTES", "peak_bytes", 14, 0 },
	CGROUP_COLUMN,
};
static const struct table mem_table = TABLE("memory", mem_cols);

static const struct column live_cols[] = {
	PID_COLUMN,
	{ "COMM", "comm", -16, 0 },
	{ "CLASS", "class", -32, 0 },
	{ "CLIENT", "client", -10, 0 },
	{ "HANDLE", "handle", -10, 0 },
	{ "BYTES", "bytes", 14, 0 },
	CGROUP_COLUMN,
};
static const struct table live_table = TABLE("memory_live", live_cols);

struct live_print {
	FILE *f;
	bool header;
};

static void print_live_one(const struct rm_live *l, void *ctx)
{
	struct live_print *p = ctx;
	char cls[16], client[16], handle[16];

	if (!p->header) {
		text_printf(p->f, "\n");
		table_header(p->f, &live_table);
		p->header = true;
	}
	snprintf(client, sizeof(client), "0x%08x", l->client);
	snprintf(handle, sizeof(handle), "0x%08x", l->handle);
	table_row(p->f, &live_table, (struct cell[]){
		CELL_U(l->row->pid), CELL_S(l->row->comm), CELL_S(class_label(l->row->cls, cls, sizeof(cls))),
		CELL_S(client), CELL_S(handle), CELL_U(l->size), cell_cgroup(l->row->cgroup_id) });
}

void print_rm_memory(FILE *f, bool live_list)
{
	struct live_print p = { f, false };
	bool header = false;
	char cls[16];
	int i;

	for (i = 0; i < nr_mem_rows; i++) {
		struct mem_row *r = &mem_rows[i];
		unsigned long long allocs = r->allocs - r->prev_allocs, frees = r->frees - r->prev_frees,
				   failed = r->failed - r->prev_failed,
				   failed_bytes = r->failed_bytes - r->prev_failed_bytes;

		if (!allocs && !frees && !failed && !r->live_objects)
			continue;
		table_header_once(f, &mem_table, &header);
		table_row(f, &mem_table, (struct cell[]){
			CELL_U(r->pid), CELL_S(r->comm), CELL_S(class_label(r->cls, cls, sizeof(cls))),
			CELL_U(allocs), CELL_U(frees), CELL_U(failed), CELL_U(failed_bytes), CELL_U(r->live_objects),
			CELL_U(r->live), CELL_U(r->peak), cell_cgroup(r->cgroup_id) });
		r->prev_allocs = r->allocs;
		r->prev_frees = r->frees;
		r->prev_failed = r->failed;
		r->prev_failed_bytes = r->failed_bytes;
	}
	if (live_list)
		rm_for_each_live(print_live_one, &p);
}

static const struct metrics_column rm_memory_families[] = {
	{ 0, "rm_memory_allocations_total", METRIC_COUNTER,
	  "RM_ALLOCs of memory classes the RM made, per class and process name" },
	{ 1, "rm_memory_frees_total", METRIC_COUNTER,
	  "Those freed (by RM_FREE, with a parent or client, or at the file's close)" },
	{ 2, "rm_memory_allocation_failures_total", METRIC_COUNTER,
	  "RM_ALLOCs of memory classes the RM refused" },
	{ 3, "rm_memory_live_bytes", METRIC_GAUGE,
	  "Bytes of memory objects held now, made while traced" },
	{ 4, "rm_memory_peak_bytes", METRIC_GAUGE,
	  "The most bytes held at once since tracing began" },
};

int rm_memory_metrics(struct metrics *m)
{
	struct metrics_rows rows = { .label_names = { "class", "comm", "cgroup" } };
	char cls[16];
	int i, err = 0;

	for (i = 0; i < nr_mem_rows && !err; i++) {
		const struct mem_row *r = &mem_rows[i];
		const unsigned long long v[] = { r->allocs, r->frees, r->failed, r->live, r->peak };

		err = metrics_rows_add(&rows, (const char *const[]){
			class_label(r->cls, cls, sizeof(cls)), r->comm, metrics_cgroup(r->cgroup_id) }, v, 5);
	}
	METRICS_ROWS_TABLE(m, &rows, rm_memory_families);
	metrics_rows_free(&rows);
	return err;
}
