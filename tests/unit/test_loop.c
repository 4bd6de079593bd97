// SPDX-License-Identifier: GPL-2.0
/*
 * The event path of libbpf-tools-common against the host's real kernel: a
 * uprobe on a function of this test fills a one-page ring buffer, and
 * trace_loop must deliver or count as lost every single record.  Also
 * map_snapshot() on a real hash map, and the one way every tool takes
 * interval differences, under load. Needs root (CAP_BPF, CAP_PERFMON).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "trace_loop.h"
#include "histogram.h"
#include "maps.h"
#include "runtime.h"
#include "probe.h"
#include "rows.h"
#include "tool.h"
#include "loop_test.skel.h"

#define CALLS 100

static unsigned long received;
static unsigned long long last_seq;
static int in_order = 1;

/* The probed function: noinline and used, so it has a symbol to attach to. */
__attribute__((noinline, used)) int workload_call(int i)
{
	__asm__ volatile("" ::: "memory");
	return i;
}

/* Counted per key by on_counted. */
__attribute__((noinline, used)) int counted_call(unsigned int key)
{
	__asm__ volatile("" ::: "memory");
	return key;
}

/* An address and what on_addr does with its row. */
__attribute__((noinline, used)) int addr_call(unsigned long long addr, int op)
{
	/* Both used: the compiler would otherwise drop them in a clone of its own. */
	__asm__ volatile("" :: "r"(addr), "r"(op) : "memory");
	return op;
}

/* Handed the next row by on_next. */
__attribute__((noinline, used)) int next_call(void)
{
	__asm__ volatile("" ::: "memory");
	return 0;
}

static int on_event(void *ctx, void *data, size_t size)
{
	unsigned long long seq = *(unsigned long long *)data;

	(void)ctx;
	(void)size;
	if (received && seq <= last_seq)
		in_order = 0;
	last_seq = seq;
	received++;
	return 0;
}

static int stop_after_first(void *ctx)
{
	(void)ctx;
	return 0;
}

static void test_lost_events(struct loop_test_bpf *skel)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = "workload_call");
	struct trace_loop loop = {
		.events = skel->maps.events,
		.on_event = on_event,
		.lost_events = &skel->bss->lost_events,
		.on_interval = stop_after_first,
		.interval = 1,
		.count = 1,
	};
	struct bpf_link *link;
	int i, err;

	link = bpf_program__attach_uprobe_opts(skel->progs.on_call, 0, "/proc/self/exe", 0, &uopts);
	if (!link) {
		CHECK("uprobe attaches", 0, "%s", strerror(errno));
		return;
	}
	/* Nobody polls while these run: the page fills after 3 records. */
	for (i = 0; i < CALLS; i++)
		workload_call(i);
	err = trace_loop_run(&loop);
	CHECK("trace_loop_run stops after count intervals", err == 0 && loop.count_reached,
	      "err=%d count_reached=%d", err, loop.count_reached);
	CHECK_U64("every call reached the probe", skel->bss->calls, CALLS);
	CHECK("some records were lost", trace_loop_lost(&loop) > 0, "lost=0");
	CHECK("some records were delivered", received > 0, "received=0");
	CHECK_U64("delivered + lost == calls", received + trace_loop_lost(&loop), CALLS);
	CHECK("records arrive in order", in_order, "out of order");
	trace_loop_free(&loop);
	bpf_link__destroy(link);
}

static int cmp_key_desc(const void *a, const void *b)
{
	__u32 ka = *(const __u32 *)a, kb = *(const __u32 *)b;

	return ka < kb ? 1 : ka > kb ? -1 : 0;
}

static void test_map_snapshot(struct loop_test_bpf *skel)
{
	struct map_snapshot snap;
	__u32 key;
	__u64 val, sum = 0;
	size_t i;

	for (key = 0; key < 50; key++) {
		val = key * 10;
		bpf_map__update_elem(skel->maps.table, &key, sizeof(key), &val, sizeof(val), 0);
	}
	CHECK("map_snapshot reads a map", map_snapshot(skel->maps.table, &snap) == 0, "error");
	CHECK_U64("map_snapshot sees every entry", snap.n, 50);
	for (i = 0; i < snap.n; i++) {
		key = *(__u32 *)snapshot_key(&snap, i);
		val = *(__u64 *)snapshot_value(&snap, i);
		if (val != key * 10)
			break;
		sum += val;
	}
	CHECK("map_snapshot pairs keys with their values", i == snap.n, "entry %zu wrong", i);
	CHECK_U64("map_snapshot values", sum, 10 * (49 * 50 / 2));
	map_snapshot_sort(&snap, cmp_key_desc);
	for (i = 0; i < snap.n; i++) {
		key = *(__u32 *)snapshot_key(&snap, i);
		val = *(__u64 *)snapshot_value(&snap, i);
		if (key != 49 - i || val != key * 10)
			break;
	}
	CHECK("map_snapshot_sort orders keys and keeps values with them", i == snap.n,
	      "entry %zu: key %u value %llu", i, key, (unsigned long long)val);
	map_snapshot_free(&snap);
}

#define NR_KEYS		8
#define COUNTED_CALLS	(NR_KEYS * 5000)

static volatile int calling;

static void *call_counted(void *arg)
{
	int i;

	for (i = 0; i < COUNTED_CALLS; i++)
		counted_call(i % NR_KEYS);
	calling = 0;
	return arg;
}

/* One summary: add what each key's histogram gained since `prev` to the totals. */
static int take_interval(struct bpf_map *map, struct map_snapshot *prev, __u64 *calls,
			 __u64 *sums)
{
	struct map_snapshot now;
	size_t i;
	int err = map_snapshot_all(&map, &now, 1);

	if (err)
		return err;
	for (i = 0; i < now.n; i++) {
		__u32 key = *(__u32 *)snapshot_key(&now, i);
		struct lat_hist d;

		lat_hist_delta(&d, snapshot_value(&now, i), map_snapshot_find(prev, &key));
		if (key < NR_KEYS) {
			calls[key] += d.count;
			sums[key] += d.sum;
		}
	}
	map_snapshot_keep(prev, &now, 1);
	return 0;
}

/*
 * Interval differences lose nothing: calls land on the counters while
 * summaries are taken back to back, and what the summaries add up to must be
 * every call, per key, exactly (lookup-then-delete lost the updates that
 * landed between the two).
 */
static void test_interval_differences(struct loop_test_bpf *skel)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = "counted_call");
	__u64 calls[NR_KEYS] = {}, sums[NR_KEYS] = {};
	struct map_snapshot prev = {};
	struct bpf_link *link;
	unsigned int summaries = 0, i, exact = 0, wrong = 0;
	pthread_t thread;
	int err = 0;

	link = bpf_program__attach_uprobe_opts(skel->progs.on_counted, 0, "/proc/self/exe", 0,
					       &uopts);
	if (!link) {
		CHECK("uprobe on counted_call attaches", 0, "%s", strerror(errno));
		return;
	}
	calling = 1;
	pthread_create(&thread, NULL, call_counted, NULL);
	while (calling && !err) {
		err = take_interval(skel->maps.counts, &prev, calls, sums);
		summaries++;
	}
	pthread_join(thread, NULL);
	if (!err)
		err = take_interval(skel->maps.counts, &prev, calls, sums);	/* the last one */
	bpf_link__destroy(link);
	map_snapshot_free(&prev);

	CHECK("interval summaries read the map", err == 0, "%s", strerror(-err));
	CHECK("summaries were taken while the calls landed", summaries >= 10,
	      "only %u summaries", summaries);
	for (i = 0; i < NR_KEYS; i++) {
		if (calls[i] == COUNTED_CALLS / NR_KEYS &&
		    sums[i] == (__u64)(i + 1) * (COUNTED_CALLS / NR_KEYS))
			exact++;
		else
			wrong = i;
	}
	CHECK("interval differences add up to every call of every key, exactly", exact == NR_KEYS,
	      "key %u: %llu calls (sum %llu) of %d", wrong, (unsigned long long)calls[wrong],
	      (unsigned long long)sums[wrong], COUNTED_CALLS / NR_KEYS);
}

/* FN run by two threads at once, to their end. */
static void in_two_threads(void *(*fn)(void *))
{
	pthread_t threads[2];
	size_t i;

	for (i = 0; i < 2; i++)
		pthread_create(&threads[i], NULL, fn, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
}

/*
 * The test object loaded for a rows test: the kernel's compare-and-swap
 * or (has_fetch false, as before 5.12) the claims map, and the program
 * that makes the rows attached to FUNC in this binary (*link). NULL when
 * it could not be, said.
 */
static struct loop_test_bpf *rows_test_open(bool has_fetch, const char *func,
					    struct bpf_link **link)
{
	LIBBPF_OPTS(bpf_uprobe_opts, uopts, .func_name = func);
	struct loop_test_bpf *skel = loop_test_bpf__open();
	struct bpf_program *prog;
	struct bpf_map *claims;

	if (!skel) {
		CHECK("the test object opens", 0, "%s", strerror(errno));
		return NULL;
	}
	if (!strcmp(func, "addr_call")) {
		prog = skel->progs.on_addr;
		claims = skel->maps.addr_rows_claims;
	} else if (!strcmp(func, "next_call")) {
		prog = skel->progs.on_next;
		claims = skel->maps.next_claims;
	} else {
		prog = skel->progs.on_counted;
		claims = skel->maps.counted_rows_claims;
	}
	skel->rodata->has_atomic_fetch = has_fetch;
	if (has_fetch)
		tool_size_claims(claims);
	bpf_program__set_autoload(skel->progs.on_call, false);
	bpf_program__set_autoload(skel->progs.on_call_spare, false);
	bpf_program__set_autoload(skel->progs.orphan_spare, false);
	map_snapshot_use_btf(bpf_object__btf(skel->obj));
	*link = loop_test_bpf__load(skel) ? NULL :
		bpf_program__attach_uprobe_opts(prog, 0, "/proc/self/exe", 0, &uopts);
	if (!*link) {
		CHECK("rows: the uprobe attaches", 0, "%s: %s", func, strerror(errno));
		loop_test_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/*
 * Rows by index (rows.bpf.h) from two threads at once, 8 keys in 16 slots:
 * each key's row made once, by compare-and-swap or (has_fetch false, as
 * before 5.12) by the claims map, every call counted in it, and the array
 * read back by map_snapshot() as a hash map's keys and values.
 */
static void test_rows(bool has_fetch)
{
	const char *how = has_fetch ? "compare-and-swap" : "claims";
	unsigned int exact = 0, wrong = 0;
	struct map_snapshot s = {};
	struct loop_test_bpf *skel;
	struct bpf_link *link;
	int err;
	size_t i;

	skel = rows_test_open(has_fetch, "counted_call", &link);
	if (!skel)
		return;
	in_two_threads(call_counted);
	bpf_link__destroy(link);
	/* The key: key and pad (8 bytes, as a hash map's struct key would be). */
	err = map_snapshot(skel->maps.counted_rows, &s);
	CHECK("rows: map_snapshot reads the array as its rows", err == 0 && s.key_size == 8 &&
	      s.value_size == sizeof(struct lat_hist), "%s: key %zu, value %zu", strerror(-err),
	      s.key_size, s.value_size);
	CHECK("rows: one row per key", s.n == NR_KEYS, "%s: %zu rows", how, s.n);
	for (i = 0; i < s.n; i++) {
		__u32 key = *(__u32 *)snapshot_key(&s, i);
		const struct lat_hist *h = snapshot_value(&s, i);

		if (key < NR_KEYS && h->count == 2 * COUNTED_CALLS / NR_KEYS && h->min == key + 1 &&
		    h->max == key + 1)
			exact++;
		else
			wrong = i;
	}
	CHECK("rows: every call of every key counted in its row, exactly", exact == NR_KEYS,
	      "%s: row %u of %zu: key %u, %llu calls, min %llu, max %llu", how, wrong, s.n,
	      *(__u32 *)snapshot_key(&s, wrong),
	      (unsigned long long)((const struct lat_hist *)snapshot_value(&s, wrong))->count,
	      (unsigned long long)((const struct lat_hist *)snapshot_value(&s, wrong))->min,
	      (unsigned long long)((const struct lat_hist *)snapshot_value(&s, wrong))->max);
	CHECK_U64("rows: no key found the table full", skel->bss->rows_full, 0);
	map_snapshot_free(&s);
	/* The same calls by their row's address: a pointer in a key is hashed as a number. */
	err = map_snapshot(skel->maps.row_addrs, &s);
	for (i = 0, exact = 0; !err && i < s.n; i++)
		exact += *(__u64 *)snapshot_value(&s, i);
	CHECK("rows: a key holding a pointer: one row per address, every call counted",
	      !err && s.n == NR_KEYS && exact == 2 * COUNTED_CALLS, "%s: %zu rows, %u calls", how,
	      s.n, exact);
	map_snapshot_free(&s);
	loop_test_bpf__destroy(skel);
}

/*
 * A row another CPU is making as the frontend reads: its match word set,
 * its key not yet copied in. map_snapshot() leaves it for the next
 * summary, where it would read a row of key 0 (or of the slot's last key).
 */
static void test_half_made_rows(void)
{
	struct { __u64 match; __u32 key, pad; struct lat_hist h; } row = {};
	__u64 words[1] = { 7 };
	struct map_snapshot s = {};
	struct loop_test_bpf *skel;
	struct bpf_link *link;
	__u32 idx = 3;
	size_t n[2];

	skel = rows_test_open(true, "counted_call", &link);
	if (!skel)
		return;
	bpf_link__destroy(link);
	row.match = row_key_match(words, 1);
	row.h.count = 1;
	for (int i = 0; i < 2; i++) {
		row.key = i ? 7 : 0;
		bpf_map__update_elem(skel->maps.counted_rows, &idx, sizeof(idx), &row, sizeof(row), 0);
		n[i] = map_snapshot(skel->maps.counted_rows, &s) ? 99 : s.n;
		map_snapshot_free(&s);
	}
	CHECK("rows: a row whose key is not yet in is not read; then it is", n[0] == 0 && n[1] == 1,
	      "%zu rows, then %zu", n[0], n[1]);
	loop_test_bpf__destroy(skel);
}

enum { ADDR_MAKE, ADDR_FIND, ADDR_FREE };

static int addr_op(struct loop_test_bpf *skel, unsigned long long addr, int op)
{
	addr_call(addr, op);
	return skel->data->addr_idx;
}

/*
 * Rows freed and found by address (rows.bpf.h's _ADDR forms): three
 * addresses of the same low 32 bits start their probes at one slot and
 * take it and the two after; a freed row leaves a hole lookups look past,
 * and the next row made there. A row never freed (C's first) is left
 * behind its address's new one, which lookups find first.
 */
static void test_addr_rows(bool has_fetch)
{
	const unsigned long long a = 0x1000005040ULL, b = 0x2000005040ULL, c = 0x3000005040ULL;
	/* row_hash_addr(), 4 bits: page 5's hash, plus 0x40 / 64 */
	const int h = (int)(((5u * 0x9E3779B1u) >> (32 - 4)) + 1) % 16;
	const char *how = has_fetch ? "compare-and-swap" : "claims";
	struct loop_test_bpf *skel;
	struct bpf_link *link;
	int got[10];

	skel = rows_test_open(has_fetch, "addr_call", &link);
	if (!skel)
		return;
	got[0] = addr_op(skel, a, ADDR_MAKE);
	got[1] = addr_op(skel, b, ADDR_MAKE);
	got[2] = addr_op(skel, c, ADDR_MAKE);
	got[3] = addr_op(skel, b, ADDR_FREE);
	got[4] = addr_op(skel, b, ADDR_FIND);
	got[5] = addr_op(skel, c, ADDR_FIND);
	got[6] = addr_op(skel, b, ADDR_MAKE);
	got[7] = addr_op(skel, a, ADDR_FREE);
	got[8] = addr_op(skel, c, ADDR_MAKE);
	got[9] = addr_op(skel, c, ADDR_FIND);
	bpf_link__destroy(link);
	CHECK("addr rows: one start, consecutive slots", got[0] == h && got[1] == (h + 1) % 16 &&
	      got[2] == (h + 2) % 16, "%s: %d %d %d from %d", how, got[0], got[1], got[2], h);
	CHECK("addr rows: a freed row is not found; lookups look past its hole",
	      got[3] == got[1] && got[4] == -1 && got[5] == got[2] && got[2] >= 0, "%s: %d %d %d",
	      how, got[3], got[4], got[5]);
	CHECK("addr rows: a freed slot is taken again", got[6] == got[1] && got[1] >= 0,
	      "%s: %d, want %d", how, got[6], got[1]);
	CHECK("addr rows: a row made before an older one of its address is the one found",
	      got[7] == got[0] && got[8] == got[0] && got[9] == got[0] && got[0] >= 0,
	      "%s: %d %d %d, want %d", how, got[7], got[8], got[9], got[0]);
	CHECK_U64("addr rows: no address found the table full", skel->bss->rows_full, 0);
	loop_test_bpf__destroy(skel);
}

/*
 * The claims path's race, made to stand still: another CPU has claimed a
 * key's first free slot and not yet stored its key there (the claim is
 * in NAME_claims, the row still reads 0). A caller for the same key takes
 * that row; for another key, the next slot. (Before, a caller for the
 * same key made a second row for it.)
 */
static void test_claimed_rows(void)
{
	const unsigned long long a = 0x1000005040ULL, b = 0x2000005040ULL;
	const unsigned int h = (((5u * 0x9E3779B1u) >> (32 - 4)) + 1) % 16;
	struct loop_test_bpf *skel;
	struct bpf_map *claims;
	struct bpf_link *link;
	int got[2];

	skel = rows_test_open(false, "addr_call", &link);
	if (!skel)
		return;
	claims = skel->maps.addr_rows_claims;
	/* The winner's claim, its key as wide as the claims hold it. */
	bpf_map__update_elem(claims, &h, sizeof(h), &a, bpf_map__value_size(claims), BPF_NOEXIST);
	got[0] = addr_op(skel, a, ADDR_MAKE);
	got[1] = addr_op(skel, b, ADDR_MAKE);
	bpf_link__destroy(link);
	CHECK("claimed rows: a row claimed for the key and not yet keyed is its row",
	      got[0] == (int)h, "%d, want %u", got[0], h);
	CHECK("claimed rows: another key goes past it", got[1] == (int)(h + 1) % 16,
	      "%d, want %u", got[1], (h + 1) % 16);
	loop_test_bpf__destroy(skel);
}

/*
 * Spare programs follow their primary (tool_choose_spares()), and the
 * misses reported are the primaries' less what the spares took: never
 * below zero, the spares' own never counted.
 */
static void test_spares(void)
{
	struct loop_test_bpf *skel = loop_test_bpf__open();
	struct trace_loop loop = {};
	__u64 rescues = 5;

	if (!skel) {
		CHECK("the test object opens", 0, "%s", strerror(errno));
		return;
	}
	bpf_program__set_autoload(skel->progs.on_call, false);
	tool_choose_spares(skel->obj);
	CHECK("a spare does not load where its primary does not",
	      !bpf_program__autoload(skel->progs.on_call_spare), "it loads");
	CHECK("a spare without a primary does not load",
	      !bpf_program__autoload(skel->progs.orphan_spare), "it loads");
	bpf_program__set_autoload(skel->progs.on_call, true);
	tool_choose_spares(skel->obj);
	CHECK("a spare loads with its primary where tracepoints are preemptible (after 6.12)",
	      bpf_program__autoload(skel->progs.on_call_spare) ==
	      (kernel_has_atomic_fetch() && kernel_release_at_least(6, 13)),
	      "autoload %d, atomic fetch %d, >= 6.13 %d",
	      bpf_program__autoload(skel->progs.on_call_spare), kernel_has_atomic_fetch(),
	      kernel_release_at_least(6, 13));
	tool_set_rodata_bool(skel->obj, "with_spares", true);
	CHECK("a .rodata bool set by its name, its neighbours left",
	      skel->rodata->with_spares && skel->rodata->before_spares == 7 &&
	      !skel->rodata->after_spares, "%d, %u, %d", skel->rodata->with_spares,
	      skel->rodata->before_spares, skel->rodata->after_spares);
	loop.obj = skel->obj;
	loop.spare_rescues = &rescues;
	CHECK("rescues beyond the misses read report nothing lost", recursion_misses(&loop) == 0,
	      "%llu", recursion_misses(&loop));
	loop_test_bpf__destroy(skel);
}

#define NEXT_CALLS 20

static void *call_next(void *arg)
{
	int i;

	for (i = 0; i < NEXT_CALLS / 2; i++)
		next_call();
	return arg;
}

/*
 * Rows handed out in order (rows.bpf.h's row_next()) to two threads at
 * once, more calls than rows: each row given once, the other calls told
 * the table is full, and the count handed out stopped at the table's size
 * (by fetch-and-add: past it by no more than the threads at it).
 */
static void test_next_rows(bool has_fetch)
{
	const char *how = has_fetch ? "fetch-and-add" : "claims";
	unsigned int once = 0, rows, i;
	struct loop_test_bpf *skel;
	struct bpf_link *link;

	skel = rows_test_open(has_fetch, "next_call", &link);
	if (!skel)
		return;
	in_two_threads(call_next);
	bpf_link__destroy(link);
	rows = sizeof(skel->bss->next_given) / sizeof(skel->bss->next_given[0]) - 1;
	for (i = 0; i < rows; i++)
		once += skel->bss->next_given[i] == 1;
	CHECK("next rows: each row handed out once", once == rows, "%s: %u of %u", how, once, rows);
	CHECK_U64("next rows: the other calls told the table is full", skel->bss->next_given[rows],
		  NEXT_CALLS - rows);
	CHECK("next rows: the count handed out stops at the table's size",
	      has_fetch ? skel->bss->nr_next >= rows && skel->bss->nr_next <= rows + 2 :
			  skel->bss->nr_next == rows, "%s: %u", how, skel->bss->nr_next);
	loop_test_bpf__destroy(skel);
}

int main(void)
{
	struct loop_test_bpf *skel;

	runtime_init(false);
	test_spares();
	skel = loop_test_bpf__open_and_load();
	if (!skel && errno == EPERM) {
		printf("SKIP event loop tests: cannot load BPF here (%s)\n", strerror(errno));
		return 0;
	}
	if (!skel) {
		CHECK("the test object loads (the verifier takes it)", 0, "%s", strerror(errno));
		return 1;
	}
	test_lost_events(skel);
	test_map_snapshot(skel);
	test_interval_differences(skel);
	loop_test_bpf__destroy(skel);
	test_rows(true);
	test_rows(false);
	test_half_made_rows();
	test_addr_rows(true);
	test_addr_rows(false);
	test_claimed_rows();
	test_next_rows(true);
	test_next_rows(false);
	return check_failures ? 1 : 0;
}
