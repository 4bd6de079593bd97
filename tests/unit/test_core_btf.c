// SPDX-License-Identifier: GPL-2.0
/*
 * core_btf.c: the BTF it writes relocates an object exactly as libbpf's
 * own search of this machine's vmlinux BTF does (the same instructions
 * loaded), and holds the candidates libbpf would take from a made-up
 * vmlinux and two modules (a fake /sys/kernel/btf), by libbpf's rule.
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
#include "core_btf.h"
#include "probe.h"
#include "core_test.skel.h"

static char fake_root[] = "/tmp/gpu-bpf-core.XXXXXX";

/* Whether two loaded programs are the same but for the map fds in their ldimm64s. */
static bool same_insns(const struct bpf_program *a, const struct bpf_program *b, size_t *n)
{
	const struct bpf_insn *x = bpf_program__insns(a), *y = bpf_program__insns(b);
	size_t i;

	*n = bpf_program__insn_cnt(a);
	if (!x || !y || *n != bpf_program__insn_cnt(b))
		return false;
	for (i = 0; i < *n; i++) {
		bool map_fd = x[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
			      (x[i].src_reg == BPF_PSEUDO_MAP_FD || x[i].src_reg == BPF_PSEUDO_MAP_VALUE);

		if (x[i].code != y[i].code || x[i].dst_reg != y[i].dst_reg ||
		    x[i].src_reg != y[i].src_reg || x[i].off != y[i].off ||
		    (!map_fd && x[i].imm != y[i].imm))
			return false;
		if (map_fd)
			i++;	/* its second half: the value's offset, compared */
	}
	return true;
}

static void test_same_as_libbpf(void)
{
	struct core_test_bpf *own = NULL, *cut = NULL;
	const struct bpf_object_open_opts *opts = core_btf_open_opts();
	int err_own = -1, err_cut = -1, err_write = -1;
	size_t n = 0;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		printf("SKIP core_btf against libbpf: this kernel has no BTF\n");
		return;
	}
	own = core_test_bpf__open();
	cut = opts ? core_test_bpf__open_opts(opts) : NULL;
	if (own && cut) {
		bpf_program__set_autoload(own->progs.on_fake, false);
		bpf_program__set_autoload(cut->progs.on_fake, false);
		err_own = core_test_bpf__load(own);
		err_write = core_btf_write(cut->skeleton);
		err_cut = err_write ?: core_test_bpf__load(cut);
	}
	CHECK("core_btf: the object loads relocated by libbpf's search and by the BTF written",
	      !err_own && !err_cut, "libbpf's %d, written %d, loaded %d", err_own, err_write, err_cut);
	CHECK("core_btf: the same instructions, every relocation alike",
	      !err_own && !err_cut && same_insns(own->progs.on_switch, cut->progs.on_switch, &n),
	      "differ (%zu instructions)", n);
	btf_targets_reset();
	core_test_bpf__destroy(own);
	core_test_bpf__destroy(cut);
}

/* How many types named NAME of kind KIND BTF has; the first one's id in *id. */
static int count_named(const struct btf *btf, const char *name, int kind, int *id)
{
	int i, n = 0;

	for (i = btf__type_cnt(btf) - 1; i > 0; i--) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name)) {
			n++;
			*id = i;
		}
	}
	return n;
}

/*
 * gpu_bpf_shared: in vmlinux, and another in module aaa, which holds it by
 * value; gpu_bpf_modonly: in both modules only. libbpf takes vmlinux's
 * shared alone, and both modules' modonly.
 */
static void test_candidates(void)
{
	struct btf *base = btf__new_empty(), *aaa, *bbb, *cut = NULL;
	const struct bpf_object_open_opts *opts;
	struct core_test_bpf *skel = NULL;
	int i, shared, own_shared, ptr, id = 0, n, err = -1;
	const struct btf_type *t;

	i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	shared = btf__add_struct(base, "gpu_bpf_shared", 8);
	btf__add_field(base, "a", i, 0, 0);
	btf__add_field(base, "b", i, 32, 0);
	aaa = btf__new_empty_split(base);
	own_shared = btf__add_struct(aaa, "gpu_bpf_shared", 8);
	btf__add_field(aaa, "b", i, 0, 0);
	btf__add_field(aaa, "a", i, 32, 0);
	ptr = btf__add_ptr(aaa, shared);
	btf__add_struct(aaa, "gpu_bpf_modonly", 16);
	btf__add_field(aaa, "s", own_shared, 0, 0);
	btf__add_field(aaa, "p", ptr, 64, 0);
	bbb = btf__new_empty_split(base);
	btf__add_struct(bbb, "gpu_bpf_modonly", 12);
	btf__add_field(bbb, "x", i, 0, 0);
	btf__add_field(bbb, "s", shared, 32, 0);
	if (fake_btf_root(fake_root) ||
	    fake_btf_write(fake_root, base, "vmlinux") || fake_btf_write(fake_root, aaa, "aaa") ||
	    fake_btf_write(fake_root, bbb, "bbb")) {
		CHECK("core_btf: fake /sys/kernel/btf", 0, "%s", strerror(errno));
		return;
	}
	probe_set_root(fake_root);
	btf_targets_reset();
	opts = core_btf_open_opts();
	skel = opts ? core_test_bpf__open_opts(opts) : NULL;
	if (skel)
		err = core_btf_write(skel->skeleton);
	if (!err)
		cut = btf__parse(opts->btf_custom_path, NULL);
	CHECK("core_btf: written for the made-up kernel", cut, "write %d, parse %d", err, errno);
	if (!cut)
		goto out;

	n = count_named(cut, "gpu_bpf_shared", BTF_KIND_STRUCT, &id);
	t = btf__type_by_id(cut, id);
	CHECK("core_btf: a name vmlinux has: vmlinux's type alone, by that name",
	      n == 1 && btf_vlen(t) == 2 && !strcmp(btf__name_by_offset(cut, btf_members(t)[0].name_off), "a"),
	      "%d named, the first member %s", n,
	      n ? btf__name_by_offset(cut, btf_members(t)[0].name_off) : "-");
	n = count_named(cut, "gpu_bpf_modonly", BTF_KIND_STRUCT, &id);
	CHECK("core_btf: a name only modules have: every module's", n == 2, "%d named", n);

	/* aaa's modonly (16 bytes): its shared by value, anonymous; its pointer's target empty. */
	for (i = 1; i < (int)btf__type_cnt(cut); i++) {
		t = btf__type_by_id(cut, i);
		if (btf_is_struct(t) && t->size == 16 && btf_vlen(t) == 2 &&
		    !strcmp(btf__name_by_offset(cut, t->name_off), "gpu_bpf_modonly"))
			break;
	}
	if (i < (int)btf__type_cnt(cut)) {
		const struct btf_type *s = btf__type_by_id(cut, btf_members(t)[0].type);
		const struct btf_type *p = btf__type_by_id(cut, btf_members(t)[1].type);
		const struct btf_type *target = p && btf_is_ptr(p) ? btf__type_by_id(cut, p->type) : NULL;

		CHECK("core_btf: a struct held by value: whole, without its name",
		      s && btf_is_struct(s) && !s->name_off && btf_vlen(s) == 2 &&
		      !strcmp(btf__name_by_offset(cut, btf_members(s)[0].name_off), "b"),
		      "kind %d, name %u, %u members", btf_kind(s), s->name_off, btf_vlen(s));
		CHECK("core_btf: a struct pointed to: empty, without its name",
		      target && btf_is_struct(target) && !target->name_off && !btf_vlen(target),
		      "%s", target ? "named or with members" : "no pointer");
	} else {
		CHECK("core_btf: module aaa's gpu_bpf_modonly copied", 0, "not found");
	}
out:
	probe_set_root(NULL);
	btf_targets_reset();
	core_test_bpf__destroy(skel);
	btf__free(cut);
	btf__free(bbb);
	btf__free(aaa);
	btf__free(base);
	fake_btf_remove(fake_root);
}

/* A vmlinux BTF with a kind of type not known here: libbpf's own search instead. */
static void test_unknown_kind(void)
{
	struct btf *base = btf__new_empty();
	const struct btf_header *h;
	struct btf_type *t;
	__u32 size;
	char *raw;
	FILE *f;
	char path[PATH_MAX];

	strcpy(fake_root, "/tmp/gpu-bpf-core.XXXXXX");	/* test_candidates() had it */
	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(base, "gpu_bpf_new_kind", 0);
	h = btf__raw_data(base, &size);
	raw = malloc(size);
	if (!h || !raw) {
		CHECK("core_btf: a made-up BTF with a new kind", 0, "%s", strerror(errno));
		return;
	}
	memcpy(raw, h, size);
	h = (const void *)raw;
	/* the struct, after the int's 16 bytes: kind 31 */
	t = (void *)(raw + h->hdr_len + h->type_off + sizeof(*t) + sizeof(__u32));
	t->info = (t->info & ~(0x1fU << 24)) | 31U << 24;
	if (fake_btf_root(fake_root) ||
	    (snprintf(path, sizeof(path), "%s/sys/kernel/btf/vmlinux", fake_root), !(f = fopen(path, "w"))) ||
	    fwrite(raw, 1, size, f) != size || fclose(f)) {
		CHECK("core_btf: fake /sys/kernel/btf", 0, "%s", strerror(errno));
		return;
	}
	probe_set_root(fake_root);
	btf_targets_reset();
	CHECK("core_btf: a kind of BTF not known here: libbpf's own search",
	      core_btf_open_opts() == NULL, "options given");
	probe_set_root(NULL);
	btf_targets_reset();
	CHECK("core_btf: then this kernel's BTF again", core_btf_open_opts() != NULL, "none");
	fake_btf_remove(fake_root);
	free(raw);
	btf__free(base);
}

int main(void)
{
	test_same_as_libbpf();
	test_candidates();
	test_unknown_kind();
	return check_failures;
}
