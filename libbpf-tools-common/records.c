// SPDX-License-Identifier: GPL-2.0
/* The record path's frontend steps shared by the tracepoint tools (records.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "opts.h"
#include "probe.h"
#include "maps.h"
#include "records.h"
#include "runtime.h"
#include "table.h"
#include "tp_field.h"

bool records_forced;

static bool in_use;
static char why[96];		/* "--no-btf", "module amdgpu has no BTF" */
static char btf_modules[96];	/* "amdgpu gpu_sched": whose structs the BTF path reads */
static char missing[256];	/* "DEV, CLIENT" */
static struct bpf_link *links[64];
static size_t nr_links;
/* The classic events attached, for records_count_skipped(). */
static struct record_tp classic[32];
static size_t nr_classic;
static struct bpf_map *counts;	/* TP_RECORD_COUNTERS()'s, once counting */

#define OPT_NO_BTF 0x300

static const struct argp_option record_options[] = {
	{ "no-btf", OPT_NO_BTF, NULL, 0,
	  "Read the tracepoints' records (tracefs formats), not the driver's structs through "
	  "its BTF: the default when the driver module has no BTF (DKMS builds, Linux < 5.11)", 0 },
	{},
};

static error_t record_parse(int key, char *arg, struct argp_state *state)
{
	(void)arg;
	(void)state;
	if (key != OPT_NO_BTF)
		return ARGP_ERR_UNKNOWN;
	records_forced = true;
	return 0;
}

/* --no-btf, then the common options as its child: one list for tool_init() (tool.h). */
static const struct argp record_argp = {
	.options = record_options,
	.parser = record_parse,
	.children = common_argp_child,
};

const struct argp_child records_argp_children[] = {
	{ &record_argp, 0, NULL, 0 },
	{},
};

int records_get_fields(void *rodata, const struct record_field *fields, size_t n,
		       unsigned int flags)
{
	struct tp_format fmt = {};
	unsigned int fixed = 0;
	bool have = false;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct record_field *f = &fields[i];

		if (!f->event)
			continue;
		if (!have || strcmp(fmt.system, f->sys) || strcmp(fmt.event, f->event)) {
			have = false;
			if (tp_format_load(f->sys, f->event, &fmt)) {
				if ((flags & RECORDS_SKIP_ABSENT_EVENTS) &&
				    !tracepoint_exists(f->sys, f->event))
					continue;
				goto fail;
			}
			have = true;
			if (tp_format_fixed_size(&fmt) > fixed)
				fixed = tp_format_fixed_size(&fmt);
		}
		if (!tp_field_get(&fmt, f->names, f->want,
				  (struct tp_field *)((char *)rodata + f->rodata)))
			continue;
		if (!f->missing)
			goto fail;
		if (f->missing[0])
			records_missing(f->missing);
	}
	return fixed;
fail:
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, fmt.error);
	return -1;
}

bool records_wanted(const char *modules)
{
	char list[128], *save = NULL, *m;

	in_use = false;
	snprintf(btf_modules, sizeof(btf_modules), "%s", modules);
	if (records_forced) {
		snprintf(why, sizeof(why), "--no-btf");
		return in_use = true;
	}
	snprintf(list, sizeof(list), "%s", modules);
	for (m = strtok_r(list, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
		if (module_lacks_btf(m)) {
			snprintf(why, sizeof(why), "module %s has no BTF", m);
			return in_use = true;
		}
	}
	return false;
}

bool records_in_use(void)
{
	return in_use;
}

void records_missing(const char *what)
{
	size_t len = strlen(missing);
	const char *p = missing;

	/* a whole name already there: "CLIENT" in "DEV, CLIENT" but not in "CLIENTS" */
	while ((p = strstr(p, what))) {
		char end = p[strlen(what)];

		if ((p == missing || p[-1] == ' ') && (end == '\0' || end == ','))
			return;
		p++;
	}
	snprintf(missing + len, sizeof(missing) - len, "%s%s", len ? ", " : "", what);
}

int records_attach(const struct record_tp *tps, size_t n)
{
	char what[160];
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		/* (a program not chosen: a spare on a kernel without, tool.h) */
		if (!tps[i].event || !tps[i].prog || !bpf_program__autoload(tps[i].prog))
			continue;
		if (nr_links == sizeof(links) / sizeof(links[0])) {
			fprintf(stderr, "%s: too many tracepoints to attach (%zu)\n",
				program_invocation_short_name, n);
			return -E2BIG;
		}
		/* SEC("raw_tp") programs take the event's arguments, by its name alone. */
		if (bpf_program__type(tps[i].prog) == BPF_PROG_TYPE_RAW_TRACEPOINT)
			links[nr_links] = bpf_program__attach_raw_tracepoint(tps[i].prog,
									     tps[i].event);
		else
			links[nr_links] = bpf_program__attach_tracepoint(tps[i].prog, tps[i].sys,
									 tps[i].event);
		if (!links[nr_links]) {
			err = -errno;
			snprintf(what, sizeof(what), "attach to %s/%s", tps[i].sys, tps[i].event);
			report_bpf_error(what, err);
			return err;
		}
		nr_links++;
		if (bpf_program__type(tps[i].prog) == BPF_PROG_TYPE_TRACEPOINT &&
		    nr_classic < sizeof(classic) / sizeof(classic[0]))
			classic[nr_classic++] = tps[i];
	}
	return 0;
}

int records_count_skipped(struct bpf_object *obj)
{
	struct bpf_program *fired = bpf_object__find_program_by_name(obj, "records_fired");
	struct bpf_map *map = bpf_object__find_map_by_name(obj, "records_counts");
	char what[160];
	size_t i;
	int err;

	if (!fired || !map || bpf_program__fd(fired) < 0)
		return 0;
	for (i = 0; i < nr_classic; i++) {
		if (nr_links == sizeof(links) / sizeof(links[0]))
			return -E2BIG;
		links[nr_links] = bpf_program__attach_raw_tracepoint(fired, classic[i].event);
		if (!links[nr_links]) {
			err = -errno;
			snprintf(what, sizeof(what), "count the firings of %s/%s", classic[i].sys,
				 classic[i].event);
			report_bpf_error(what, err);
			return err;
		}
		nr_links++;
	}
	counts = nr_classic ? map : NULL;
	return 0;
}

/* One slot of TP_RECORD_COUNTERS()'s per-CPU array, summed over CPUs; false if unreadable. */
static bool count_sum(__u32 slot, unsigned long long *sum)
{
	__u64 n;

	if (map_sum_percpu(counts, slot, &n, 1))
		return false;
	*sum = n;
	return true;
}

unsigned long long records_skipped(void)
{
	unsigned long long fired, ran;

	/* fired first: a firing it counts already counted its program's run (see records.h) */
	if (!counts || !count_sum(TP_RECORD_FIRED, &fired) || !count_sum(TP_RECORD_RAN_SLOT, &ran))
		return 0;
	return fired > ran ? fired - ran : 0;
}

void records_report_skipped(void)
{
	unsigned long long n = records_skipped();

	report_lost("skipped", n, 0, "%llu tracepoint events not traced: the kernel skipped "
		    "their programs while another BPF program ran on their CPU (classic "
		    "tracepoints do not nest)", n);
}

void records_detach(void)
{
	while (nr_links)
		bpf_link__destroy(links[--nr_links]);
}

void records_announce(void)
{
	if (!in_use) {
		if (common_env.verbose)
			fprintf(stderr, "%s: reading the structs of %s (module BTF)\n",
				program_invocation_short_name, btf_modules);
		return;
	}
	fprintf(stderr, "%s: reading the tracepoint records (%s)\n", program_invocation_short_name,
		why);
	if (missing[0])
		fprintf(stderr, "%s: not in the records, printed as '-': %s\n",
			program_invocation_short_name, missing);
}
