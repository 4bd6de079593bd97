// SPDX-License-Identifier: GPL-2.0
/*
 * btf_targets.c against libbpf's own lookup: the same type ids, in this
 * machine's vmlinux BTF and in a split module BTF made here (a fake
 * /sys/kernel/btf), including a module type named by one of vmlinux's
 * strings.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/btf.h>

#include "btf_targets.h"
#include "check.h"
#include "fake_btf.h"
#include "probe.h"
#include "targets_test.skel.h"

static char fake_root[] = "/tmp/gpu-bpf-btf.XXXXXX";

/* This machine's vmlinux: the walk crosses every kind the kernel emits. */
static void test_vmlinux(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	static const struct { const char *name; int kind; } names[] = {
		{ "btf_trace_sched_switch", BTF_KIND_TYPEDEF },
		{ "do_sys_openat2", BTF_KIND_FUNC },
		{ "btf_trace_sched_process_fork", BTF_KIND_TYPEDEF },
	};
	char mod[64];
	__u32 id;
	size_t i;

	if (!btf) {
		printf("SKIP btf_targets in vmlinux: this kernel has no BTF\n");
		return;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int want = btf__find_by_name_kind(btf, names[i].name, names[i].kind);
		int err = btf_target_find(names[i].name, names[i].kind, mod, sizeof(mod), &id);
		char title[128];

		snprintf(title, sizeof(title), "btf_target_find: %s in vmlinux as libbpf finds it",
			 names[i].name);
		CHECK(title, want > 0 && !err && id == (__u32)want && !strcmp(mod, "vmlinux"),
		      "libbpf %d, here %d: id %u in %s", want, err, id, err ? "-" : mod);
	}
	CHECK("btf_target_find: a missing name",
	      btf_target_find("btf_trace_no_such_event", BTF_KIND_TYPEDEF, mod, sizeof(mod), &id) == -ENOENT,
	      "found");
	btf__free(btf);
}

/* A made-up vmlinux and two modules, one of which defines the event. */
static void test_modules(void)
{
	struct btf *base = btf__new_empty(), *other, *gem, *parsed;
	char path[PATH_MAX], mod[64];
	int i, proto, want;
	__u32 id;

	i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(base, "vm_object", 8);
	btf__add_field(base, "gem_put", i, 0, 0);	/* a string both share */
	btf__add_typedef(base, "btf_trace_sched_switch", i);
	other = btf__new_empty_split(base);
	btf__add_struct(other, "other_state", 4);
	btf__add_field(other, "btf_trace_gem_create", i, 0, 0);	/* the name, not a typedef */
	gem = btf__new_empty_split(base);
	btf__add_struct(gem, "gem_object", 4);
	btf__add_field(gem, "size", i, 0, 0);
	proto = btf__add_func_proto(gem, i);
	btf__add_func_param(gem, "obj", i);
	btf__add_func(gem, "gem_put", BTF_FUNC_GLOBAL, proto);
	proto = btf__add_func_proto(gem, i);
	for (want = 0; want < 8; want++)
		btf__add_func_param(gem, "arg", i);
	btf__add_func(gem, "gem_end", BTF_FUNC_GLOBAL, proto);
	btf__add_typedef(gem, "btf_trace_gem_create", i);
	if (fake_btf_root(fake_root) ||
	    fake_btf_write(fake_root, base, "vmlinux") || fake_btf_write(fake_root, other, "aaa_other") ||
	    fake_btf_write(fake_root, gem, "gemmod")) {
		CHECK("btf_targets: fake /sys/kernel/btf", 0, "%s", strerror(errno));
		return;
	}
	probe_set_root(fake_root);
	btf_targets_reset();

	snprintf(path, sizeof(path), "%s/sys/kernel/btf/gemmod", fake_root);
	parsed = btf__parse_split(path, base);
	want = btf__find_by_name_kind(parsed, "btf_trace_gem_create", BTF_KIND_TYPEDEF);
	CHECK("btf_target_find: a module's typedef, numbered after vmlinux's types",
	      !btf_target_find("btf_trace_gem_create", BTF_KIND_TYPEDEF, mod, sizeof(mod), &id) &&
	      want > 0 && id == (__u32)want && !strcmp(mod, "gemmod"),
	      "libbpf %d, here %u in %s", want, id, mod);
	want = btf__find_by_name_kind(parsed, "gem_put", BTF_KIND_FUNC);
	CHECK("btf_target_find: a module's function named by a vmlinux string",
	      !btf_target_find("gem_put", BTF_KIND_FUNC, mod, sizeof(mod), &id) &&
	      want > 0 && id == (__u32)want && !strcmp(mod, "gemmod"),
	      "libbpf %d, here %u in %s", want, id, mod);
	want = btf__find_by_name_kind(base, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
	CHECK("btf_target_find: vmlinux's typedef in vmlinux",
	      !btf_target_find("btf_trace_sched_switch", BTF_KIND_TYPEDEF, mod, sizeof(mod), &id) &&
	      want > 0 && id == (__u32)want && !strcmp(mod, "vmlinux"),
	      "libbpf %d, here %u in %s", want, id, mod);
	CHECK("tracepoint_btf_module: the module whose BTF defines the event",
	      tracepoint_btf_module("gem_create", mod, sizeof(mod)) && !strcmp(mod, "gemmod"),
	      "wrong");
	CHECK("tracepoint_btf_module: not for vmlinux's events",
	      !tracepoint_btf_module("sched_switch", mod, sizeof(mod)), "found");
	CHECK("tracepoint_btf_module: not for a name no typedef has",
	      !tracepoint_btf_module("size", mod, sizeof(mod)), "found");
	CHECK("btf_func_params: a module's functions, 1 and 8 parameters",
	      btf_func_params("gemmod", "gem_put") == 1 && btf_func_params("gemmod", "gem_end") == 8,
	      "%d, %d", btf_func_params("gemmod", "gem_put"), btf_func_params("gemmod", "gem_end"));
	CHECK("btf_func_params: none in another module, none of a module without BTF",
	      btf_func_params("aaa_other", "gem_end") == -ENOENT &&
	      btf_func_params("nomod", "gem_end") == -ENOENT,
	      "%d, %d", btf_func_params("aaa_other", "gem_end"), btf_func_params("nomod", "gem_end"));

	probe_set_root(NULL);
	btf_targets_reset();
	btf__free(parsed);
	btf__free(gem);
	btf__free(other);
	btf__free(base);
	fake_btf_remove(fake_root);
}

/*
 * Through libbpf's load: a target found before it (the files read then
 * dropped) loads and runs; one found nowhere is left to the load, which
 * fails on it.
 */
static void test_resolve(void)
{
	libbpf_print_fn_t old_print;
	struct targets_test_bpf *skel;
	struct bpf_link *link;
	int found, err;

	if (btf_targets_register()) {
		CHECK("btf_targets_register", 0, "failed");
		return;
	}
	skel = targets_test_bpf__open();
	if (!skel) {
		CHECK("btf_targets_resolve: open the test object", 0, "%s", strerror(errno));
		return;
	}
	found = btf_targets_resolve(skel->obj);
	CHECK("btf_targets_resolve: both programs to load, one target found", found == 1,
	      "found %d", found);
	/* (libbpf's messages about it not printed: the failure is the point) */
	old_print = libbpf_set_print(NULL);
	err = targets_test_bpf__load(skel);
	libbpf_set_print(old_print);
	CHECK("btf_targets_resolve: a target not found fails the load", err != 0, "loaded");
	btf_targets_reset();
	targets_test_bpf__destroy(skel);

	skel = targets_test_bpf__open();
	if (!skel)
		return;
	bpf_program__set_autoload(skel->progs.on_nothing, false);
	found = btf_targets_resolve(skel->obj);
	/* No BTF files to read from here on: the load takes what was found. */
	probe_set_root("/nonexistent");
	err = targets_test_bpf__load(skel);
	probe_set_root(NULL);
	btf_targets_reset();
	link = err ? NULL : bpf_program__attach(skel->progs.on_switch);
	usleep(100000);
	CHECK("btf_targets_resolve: a program of vmlinux's event, found before load, loads and runs",
	      found == 1 && !err && link && skel->bss->switches > 0,
	      "found %d, load %d, link %p, runs %llu", found, err, (void *)link,
	      (unsigned long long)skel->bss->switches);
	bpf_link__destroy(link);
	targets_test_bpf__destroy(skel);
}

int main(void)
{
	test_vmlinux();
	test_modules();
	test_resolve();
	return check_failures;
}
