// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/btf.h>

#include "btf_targets.h"
#include "cgroup.h"
#include "maps.h"
#include "core_btf.h"
#include "opts.h"
#include "output.h"
#include "probe.h"
#include "runtime.h"
#include "timeline.h"
#include "tool.h"

/* The tool's description (tool_init()), for tool_load(). */
static const struct tool_desc *described;

/* A map's name ends with `suffix` (a skeleton's "NAME.rodata", a table's "NAME_claims"). */
static bool map_name_ends(const struct bpf_map *map, const char *suffix)
{
	const char *name = bpf_map__name(map);
	size_t len = strlen(name), n = strlen(suffix);

	return len >= n && !strcmp(name + len - n, suffix);
}

void tool_size_claims(struct bpf_map *claims)
{
	if (kernel_has_atomic_fetch())
		bpf_map__set_max_entries(claims, 1);
}

/* The tool's `events` ring buffer, as its description sizes it. */
static void size_ring(struct bpf_object *obj)
{
	struct bpf_map *ring = bpf_object__find_map_by_name(obj, "events");
	__u32 bytes;

	if (!ring || !described)
		return;
	bytes = tool_per_event() ? described->ring_bytes : described->quiet_ring_bytes;
	if (bytes)
		bpf_map__set_max_entries(ring, bytes);
}

/*
 * Every claims map (named NAME_claims) whose value is a plain integer: the
 * ones only kernels without compare-and-swap use. A struct value
 * (rows.bpf.h's ROWS_CLAIMED) marks claims needed everywhere.
 */
static void size_claims(struct bpf_object *obj)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_type *t;
	struct bpf_map *map;
	__u32 id;

	if (!btf)
		return;
	bpf_object__for_each_map(map, obj) {
		id = bpf_map__btf_value_type_id(map);
		if (!map_name_ends(map, "_claims") || !id)
			continue;
		t = btf__type_by_id(btf, btf__resolve_type(btf, id));
		if (t && btf_is_int(t))
			tool_size_claims(map);
	}
}

bool tool_choose_spares(struct bpf_object *obj)
{
	/*
	 * (Preemptible tracepoints came after 6.12; the compare-and-swap with
	 * 5.12. GPU_BPF_PRETEND_MISSING=spares: none, for make bench's cost.)
	 */
	bool spares = kernel_has_atomic_fetch() && kernel_release_at_least(6, 13) &&
		      !pretend_missing("spares");
	struct bpf_program *prog, *primary;
	char name[128];

	bpf_object__for_each_program(prog, obj) {
		if (!program_is_spare(prog))
			continue;
		/* The primary's name: the spare's without "_spare". */
		snprintf(name, sizeof(name), "%.*s", (int)(strlen(bpf_program__name(prog)) - strlen("_spare")),
			 bpf_program__name(prog));
		primary = bpf_object__find_program_by_name(obj, name);
		bpf_program__set_autoload(prog, spares && primary && bpf_program__autoload(primary));
	}
	return spares;
}

static int drop_fetch_atomics(struct bpf_object *obj)
{
	struct bpf_program *prog;

	if (kernel_has_atomic_fetch())
		return 0;
	bpf_object__for_each_program(prog, obj) {
		size_t i, n = bpf_program__insn_cnt(prog);
		struct bpf_insn *insns;
		int err;

		insns = malloc(n * sizeof(*insns));
		if (!insns)
			return -ENOMEM;
		memcpy(insns, bpf_program__insns(prog), n * sizeof(*insns));
		for (i = 0; i < n; i++) {
			struct bpf_insn *in = &insns[i];

			if (in->code == (BPF_STX | BPF_ATOMIC | BPF_DW) && in->imm == BPF_CMPXCHG) {
				/* r0 = cmpxchg(dst + off, r0, src) -> r0 = *(u64 *)(dst + off) */
				*in = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_DW,
							 .dst_reg = BPF_REG_0, .src_reg = in->dst_reg,
							 .off = in->off };
				continue;
			}
			if (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC &&
			    in->imm == (BPF_ADD | BPF_FETCH)) {
				/* src = fetch_add(dst + off, src) -> src = *(dst + off), same size */
				*in = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_SIZE(in->code),
							 .dst_reg = in->src_reg, .src_reg = in->dst_reg,
							 .off = in->off };
				continue;
			}
			/*
			 * Any other atomic but a plain add (or, xchg) would be refused at
			 * load, dead or not: say which program, before a kernel that has
			 * them (GPU_BPF_PRETEND_MISSING) hides it.
			 */
			if (BPF_CLASS(in->code) == BPF_STX && BPF_MODE(in->code) == BPF_ATOMIC &&
			    in->imm != BPF_ADD && bpf_program__autoload(prog)) {
				fprintf(stderr, "%s: BPF program %s holds an atomic operation (0x%x) "
					"that BPF before Linux 5.12 lacks\n",
					program_invocation_short_name, bpf_program__name(prog),
					(unsigned int)in->imm);
				free(insns);
				return -EOPNOTSUPP;
			}
		}
		err = bpf_program__set_insns(prog, insns, n);
		free(insns);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Where the kernel lacks BPF_FETCH/BPF_CMPXCHG (before 5.12), it rejects a
 * program holding one anywhere, even in code the verifier would prune. The
 * library's compare-and-swaps and fetch-and-adds are dead there
 * (has_atomic_fetch is false): each becomes a load of the same word, an
 * atomic that never stores. 0 or a negative errno, said in one line
 * (-EOPNOTSUPP: a program that loads holds another atomic the kernel lacks,
 * an atomic or or xchg, said naming it).
 */
static int prepare_atomics(struct bpf_object *obj)
{
	int err = drop_fetch_atomics(obj);

	if (err && err != -EOPNOTSUPP)
		report_bpf_error("prepare the BPF programs", err);
	return err;
}

void tool_set_rodata_bool(struct bpf_object *obj, const char *name, bool v)
{
	const struct btf *btf = bpf_object__btf(obj);
	const struct btf_var_secinfo *vs;
	const struct btf_type *sec;
	struct bpf_map *map;
	size_t size;
	char *data;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC) : -1;
	if (id < 0)
		return;
	sec = btf__type_by_id(btf, id);
	bpf_object__for_each_map(map, obj) {
		if (!bpf_map__is_internal(map) || !map_name_ends(map, ".rodata"))
			continue;
		/* The skeleton's own view of it: writable until load (libbpf 1.1 says const). */
		data = (char *)bpf_map__initial_value(map, &size);
		for (i = 0, vs = btf_var_secinfos(sec); data && i < btf_vlen(sec); i++, vs++)
			if (!strcmp(btf__name_by_offset(btf, btf__type_by_id(btf, vs->type)->name_off), name) &&
			    vs->offset + sizeof(bool) <= size)
				*(bool *)(data + vs->offset) = v;
	}
}

/*
 * Start-up, phase by phase, for -v: where the time from the command to the
 * banner goes (BTF, the tool's checks, verification, attaching).
 */
#define MAX_PHASES 8
static struct {
	const char *name;
	long long us;
} phases[MAX_PHASES];
static int nr_phases;
static long long phase_mark_us;

static long long monotonic_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

void tool_phase(const char *name)
{
	long long now = monotonic_us();

	if (nr_phases < MAX_PHASES)
		phases[nr_phases++] = (typeof(phases[0])){ name, now - phase_mark_us };
	phase_mark_us = now;
}

static void report_phases(void)
{
	long long total = 0;
	int i;

	if (!common_env.verbose)
		return;
	for (i = 0; i < nr_phases; i++)
		total += phases[i].us;
	fprintf(stderr, "%s: start-up %lld ms:", program_invocation_short_name, total / 1000);
	for (i = 0; i < nr_phases; i++)
		fprintf(stderr, "%s %s %lld", i ? "," : "", phases[i].name, phases[i].us / 1000);
	fputc('\n', stderr);
}

enum { OPT_TIMELINE = 0x400 };

static error_t kept_parse(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		common_env.events = true;
		break;
	case OPT_TIMELINE:
		common_env.timeline = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/*
 * The tool's argp: its options; then, as children, those of the engine it
 * runs on, the library's that it asked for (-e, --timeline with its help),
 * and the common ones (with --no-btf for a tool reading tracepoints).
 */
static int parse_command_line(const struct tool_desc *t, int argc, char **argv)
{
	struct argp_option kept[3] = {};
	struct argp kept_argp = { .options = kept, .parser = kept_parse };
	struct argp_child children[4] = {};
	struct argp argp = {
		.options = t->options, .parser = t->parser, .args_doc = "[interval [count]]",
		.doc = t->doc, .children = children,
	};
	int n = 0, k = 0;

	if (t->events)
		kept[k++] = (struct argp_option){ "events", 'e', NULL, 0, t->events, 0 };
	if (t->timeline)
		kept[k++] = (struct argp_option){ "timeline", OPT_TIMELINE, "FILE", 0, t->timeline, 0 };
	if (t->engine)
		children[n++] = (struct argp_child){ t->engine, 0, NULL, 0 };
	if (k)
		children[n++] = (struct argp_child){ &kept_argp, 0, NULL, 0 };
	children[n] = t->records ? records_argp_children[0] : common_argp_child[0];
	return argp_parse(&argp, argc, argv, 0, NULL, NULL);
}

bool tool_init(const struct tool_desc *tool, int argc, char **argv)
{
	unsigned int needs = tool->needs;

	phase_mark_us = monotonic_us();
	described = tool;
	if (parse_command_line(tool, argc, argv))
		return false;
	runtime_init(common_env.verbose);
	if (!runtime_preflight())
		return false;
	if (common_env.show_cgroup && !cgroup_v2_mounted())
		fprintf(stderr, "%s: -C: no cgroup v2 hierarchy is mounted (cgroup v1 alone): "
			"no process's cgroup or container can be named\n", program_invocation_short_name);
	if (btf_targets_register()) {
		fprintf(stderr, "%s: cannot register libbpf's section handlers\n",
			program_invocation_short_name);
		return false;
	}
	if (common_env.prometheus && !metrics_path_writable(common_env.prometheus))
		return false;
	if (common_env.timeline && timeline_open(common_env.timeline))
		return false;
	if ((needs & TOOL_TRACEFS) && !tracefs_path()) {
		fprintf(stderr, "%s: cannot find or mount tracefs at /sys/kernel/tracing: %s\n",
			program_invocation_short_name, strerror(errno));
		return false;
	}
	tool_phase("init");
	return true;
}

/*
 * inflight.bpf.h's maps: the slots NAME_slots where the kernel has
 * compare-and-swap; the task storage map NAME where the kernel has it, else
 * the hash NAME_by_tid. Those not used shrunk to one entry (the task
 * storage a hash: without it, the map type does not exist).
 */
bool tool_uses_task_storage(struct bpf_object *obj)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj)
		if (bpf_map__type(map) == BPF_MAP_TYPE_TASK_STORAGE)
			return kernel_has_task_storage();
	return false;
}

static int fit_inflight(struct bpf_object *obj)
{
	bool task = tool_uses_task_storage(obj);
	struct bpf_map *map, *by_tid, *slots;
	char name[128];
	int err = 0;

	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_TASK_STORAGE)
			continue;
		snprintf(name, sizeof(name), "%s_slots", bpf_map__name(map));
		slots = bpf_object__find_map_by_name(obj, name);
		if (slots && !kernel_has_atomic_fetch() &&
		    (err = bpf_map__set_max_entries(slots, 1)))
			break;
		snprintf(name, sizeof(name), "%s_by_tid", bpf_map__name(map));
		by_tid = bpf_object__find_map_by_name(obj, name);
		if (task && by_tid)
			err = bpf_map__set_max_entries(by_tid, 1);
		else if (!task)
			err = bpf_map__set_type(map, BPF_MAP_TYPE_HASH) ?:
			      bpf_map__set_map_flags(map, 0) ?: bpf_map__set_max_entries(map, 1);
		if (err)
			break;
	}
	return err;
}

/*
 * -v: the verifier's statistics for each program (time, instructions
 * processed, states), which libbpf prints after a load that asked for a
 * log: where "load" in the start-up line goes, program by program.
 */
#define VERIFIER_LOG_STATS 4	/* the kernel's BPF_LOG_STATS, not in its UAPI headers */

static void ask_verifier_stats(struct bpf_object *obj)
{
	struct bpf_program *prog;

	if (!common_env.verbose)
		return;
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_log_level(prog, VERIFIER_LOG_STATS);
}

const struct bpf_object_open_opts *tool_open_opts(void)
{
	return core_btf_open_opts();
}

int tool_load(struct bpf_object_skeleton *s, struct bpf_map *cgroup_map)
{
	int err;

	tool_phase("checks");
	/* After the tool chose its programs: the spares follow their primaries. */
	tool_set_rodata_bool(*s->obj, "with_spares", tool_choose_spares(*s->obj));
	size_claims(*s->obj);
	size_ring(*s->obj);
	err = prepare_atomics(*s->obj);
	if (err)
		return err;
	ask_verifier_stats(*s->obj);
	err = fit_inflight(*s->obj);
	if (err) {
		report_bpf_error("size the BPF maps", err);
		return err;
	}
	err = core_btf_write(s);
	if (err) {
		report_bpf_error("copy the kernel's BTF for CO-RE", err);
		return err;
	}
	/* The programs' targets found, the BTF files read for them dropped, before libbpf's. */
	btf_targets_resolve(*s->obj);
	err = bpf_object__load_skeleton(s);
	tool_phase("load");
	btf_targets_reset();

	if (err) {
		report_bpf_error("load BPF programs", err);
		return err;
	}
	map_snapshot_use_btf(bpf_object__btf(*s->obj));
	if (!cgroup_filter_apply(cgroup_map, common_env.cgroup, common_env.cgroup_fd))
		return -EINVAL;
	trace_clock_start();
	return 0;
}

int tool_attach(struct bpf_object_skeleton *s, const char *hooks)
{
	char what[128];
	int err = bpf_object__attach_skeleton(s);

	tool_phase("attach");
	if (err) {
		snprintf(what, sizeof(what), "attach to %s", hooks);
		report_bpf_error(what, err);
	}
	return err;
}

int tool_start(struct bpf_object_skeleton *s, struct bpf_map *cgroup_map, const char *hooks)
{
	int err = tool_load(s, cgroup_map);

	return err ? err : tool_attach(s, hooks);
}

int tool_close(struct trace_loop *loop, int err)
{
	/* The last summary written out: a full disk is said, and the exit status 1. */
	output_flush();
	if (output_error() && !err)
		err = -output_error();
	if (timeline_close() && !err)
		err = -EIO;
	trace_loop_free(loop);
	return err;
}

int tool_snapshot(struct bpf_map *const *maps, struct map_snapshot *now, size_t n)
{
	int err = map_snapshot_all(maps, now, n);

	if (err)
		fprintf(stderr, "%s: failed to read maps: %s\n", program_invocation_short_name,
			strerror(-err));
	return err;
}

static void vbanner(bool per_event_lines, const char *banner, va_list ap)
{
	FILE *f = json_output() ? stderr : stdout;

	tool_phase(nr_phases && !strcmp(phases[nr_phases - 1].name, "load") ? "attach" : "rest");
	report_phases();
	if (per_event_lines && !json_output())
		return;
	vfprintf(f, banner, ap);
	fputs("... Hit Ctrl-C to end.\n", f);
}

void tool_banner(bool per_event_lines, const char *banner, ...)
{
	va_list ap;

	va_start(ap, banner);
	vbanner(per_event_lines, banner, ap);
	va_end(ap);
}

int tool_trace(struct trace_loop *loop, const struct table *event_table,
	       int (*summary)(void *ctx), const char *banner, ...)
{
	va_list ap;
	int err;

	if (!common_env.events)
		event_table = NULL;
	if (event_table) {
		table_header(stdout, event_table);
		if (!loop->summary_with_events)
			summary = NULL;
	}
	loop->on_interval = summary;
	if (loop->metrics_path) {
		if (!loop->write_metrics) {
			fprintf(stderr, "%s: --prometheus: this tool has no metrics\n",
				program_invocation_short_name);
			return -EINVAL;
		}
		err = trace_loop_write_metrics(loop);
		if (err)
			return err;
	}
	va_start(ap, banner);
	vbanner(event_table != NULL, banner, ap);
	va_end(ap);
	err = trace_loop_finish(loop, trace_loop_run(loop), summary);
	records_report_skipped();
	return err;
}
