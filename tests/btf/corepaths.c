// SPDX-License-Identifier: GPL-2.0
/*
 * corepaths: every struct member path a BPF object reads through CO-RE, and
 * what it is in a kernel module's BTF.
 *
 *   corepaths OBJ.bpf.o BASE_BTF [MODULE_BTF]
 *
 * OBJ's field relocations (.BTF.ext) name a root type and the members
 * walked from it (obj->base.size: struct drm_i915_gem_object, base, size).
 * Each is looked up the way libbpf does at load time, by name, in MODULE_BTF
 * (split on BASE_BTF) and then BASE_BTF: either /sys/kernel/btf/vmlinux and
 * /sys/kernel/btf/MODULE, or a vmlinux ELF and a MODULE.ko. One line per
 * distinct path, sorted:
 *
 *   struct drm_i915_gem_object.base.size: size_t
 *   struct xe_bo.size: absent (no struct xe_bo)
 *   struct i915_vma.guard: missing (struct i915_vma has no guard)
 *
 * with the type of the last member as the target declares it (typedef
 * names kept: size_t and u64 are different claims). Two modules that define
 * the same types print the same lines exactly when every path the object
 * reads has the same member names and types in both: the tests compare a
 * test module that plays a driver with the real driver this way.
 * Exit status: 0, or 1 on a usage or parse error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "core_relos.h"

#define MAX_LINES 1024

static char *lines[MAX_LINES];
static int nr_lines;

static int skip_mods(const struct btf *btf, int id, const struct btf_type **t)
{
	*t = btf__type_by_id(btf, id);
	while (*t && (btf_is_mod(*t) || btf_is_typedef(*t))) {
		id = (*t)->type;
		*t = btf__type_by_id(btf, id);
	}
	return id;
}

/* A member's type as C spells it, typedef names kept. */
static void type_str(const struct btf *btf, int id, char *buf, size_t size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *name;

	if (!id || !t) {
		snprintf(buf, size, "void");
		return;
	}
	name = btf__name_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: {
		char inner[200];

		type_str(btf, t->type, inner, sizeof(inner));
		snprintf(buf, size, "%s *", inner);
		return;
	}
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		type_str(btf, t->type, buf, size);
		return;
	case BTF_KIND_ARRAY: {
		char inner[200];

		type_str(btf, btf_array(t)->type, inner, sizeof(inner));
		snprintf(buf, size, "%s[%u]", inner, btf_array(t)->nelems);
		return;
	}
	case BTF_KIND_STRUCT:
		snprintf(buf, size, "struct %s", name[0] ? name : "(anon)");
		return;
	case BTF_KIND_UNION:
		snprintf(buf, size, "union %s", name[0] ? name : "(anon)");
		return;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		snprintf(buf, size, "enum %s", name[0] ? name : "(anon)");
		return;
	case BTF_KIND_FUNC_PROTO:
		snprintf(buf, size, "function");
		return;
	default:
		snprintf(buf, size, "%s", name);
	}
}

/* Member `name` of composite `t` (in anonymous members too); -1: none. */
static int find_member(const struct btf *btf, const struct btf_type *t, const char *name,
		       int *member_type)
{
	const struct btf_member *m = btf_members(t);
	const struct btf_type *inner;
	int i;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		const char *n = btf__name_by_offset(btf, m->name_off);

		if (n && !strcmp(n, name)) {
			*member_type = m->type;
			return 0;
		}
		if (n && n[0])
			continue;
		skip_mods(btf, m->type, &inner);
		if (inner && btf_is_composite(inner) && !find_member(btf, inner, name, member_type))
			return 0;
	}
	return -1;
}

/* A local type's name without a "___flavor" suffix, as libbpf matches it. */
static void essential_name(const char *name, char *buf, size_t size)
{
	const char *flavor = strstr(name, "___");
	size_t len = flavor ? (size_t)(flavor - name) : strlen(name);

	if (len >= size)
		len = size - 1;
	memcpy(buf, name, len);
	buf[len] = '\0';
}

static void add_line(const char *s)
{
	int i;

	for (i = 0; i < nr_lines; i++)
		if (!strcmp(lines[i], s))
			return;
	if (nr_lines < MAX_LINES)
		lines[nr_lines++] = strdup(s);
}

/* One field relocation: walk its access string in OBJ's BTF and the target's. */
static void resolve(const struct btf *local, const struct bpf_core_relo *r, const struct btf *target)
{
	const struct btf_type *lt, *tt = NULL;
	char path[512], root[128], what[320] = "", line[1024];
	const char *access = btf__name_by_offset(local, r->access_str_off);
	const char *kw, *p;
	int tid, kind, member_type = 0;
	size_t len;

	skip_mods(local, r->type_id, &lt);
	if (!lt || !btf_is_composite(lt))
		return;
	kind = btf_kind(lt);
	kw = kind == BTF_KIND_UNION ? "union" : "struct";
	essential_name(btf__name_by_offset(local, lt->name_off), root, sizeof(root));
	if (!root[0])
		return;
	len = snprintf(path, sizeof(path), "%s %s", kw, root);
	tid = btf__find_by_name_kind(target, root, kind);
	if (tid > 0)
		tt = btf__type_by_id(target, tid);
	else
		snprintf(what, sizeof(what), "absent (no %s %s)", kw, root);

	/* "0:1:2": the first index is into the root pointer, members follow. */
	for (p = strchr(access, ':'); p; p = strchr(p + 1, ':')) {
		int idx = atoi(p + 1);
		const struct btf_member *m;
		const char *name;

		if (btf_is_array(lt)) {	/* an array index: the same in every kernel */
			skip_mods(local, btf_array(lt)->type, &lt);
			len += snprintf(path + len, sizeof(path) - len, "[%d]", idx);
			if (tt && btf_is_array(tt)) {
				member_type = btf_array(tt)->type;
				skip_mods(target, member_type, &tt);
			}
			continue;
		}
		if (!btf_is_composite(lt) || idx >= btf_vlen(lt))
			return;
		m = btf_members(lt) + idx;
		name = btf__name_by_offset(local, m->name_off);
		skip_mods(local, m->type, &lt);
		if (!name || !name[0])	/* an anonymous member: not in the path */
			continue;
		len += snprintf(path + len, sizeof(path) - len, ".%s", name);
		if (!tt)
			continue;
		if (!btf_is_composite(tt) || find_member(target, tt, name, &member_type)) {
			char owner[200];

			type_str(target, btf__find_by_name_kind(target, btf__name_by_offset(target,
				 tt->name_off), btf_kind(tt)), owner, sizeof(owner));
			snprintf(what, sizeof(what), "missing (%s has no %s)", owner, name);
			tt = NULL;
			continue;
		}
		skip_mods(target, member_type, &tt);
	}
	if (tt)
		type_str(target, member_type, what, sizeof(what));
	snprintf(line, sizeof(line), "%s: %s", path, what);
	add_line(line);
}

/* OBJ's ELF file, mapped. */
static void *map_file(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	void *p;

	if (fd < 0)
		return NULL;
	p = fstat(fd, &st) || !st.st_size ? MAP_FAILED :
	    mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	*size = st.st_size;
	return p == MAP_FAILED ? NULL : p;
}

struct targets {
	const struct btf *local, *target;
	int n;
};

/* Each field relocation's path. */
static int resolve_relo(const struct bpf_core_relo *r, void *ctx)
{
	struct targets *t = ctx;

	if (r->kind <= BPF_CORE_FIELD_RSHIFT_U64)
		resolve(t->local, r, t->target);
	t->n++;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	struct targets t = {};
	struct btf *base;
	size_t size = 0;
	void *obj;
	int i, err;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: corepaths OBJ.bpf.o BASE_BTF [MODULE_BTF]\n");
		return 1;
	}
	libbpf_set_print(NULL);
	t.local = btf__parse_elf(argv[1], NULL);
	obj = map_file(argv[1], &size);
	if (!t.local || !obj) {
		fprintf(stderr, "corepaths: %s: no BTF and .BTF.ext\n", argv[1]);
		return 1;
	}
	base = btf__parse(argv[2], NULL);
	if (!base) {
		fprintf(stderr, "corepaths: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	t.target = argc == 4 ? btf__parse_split(argv[3], base) : base;
	if (!t.target) {
		fprintf(stderr, "corepaths: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	err = core_relos_foreach(obj, size, resolve_relo, &t);
	if (err || !t.n) {
		fprintf(stderr, "corepaths: %s: %s\n", argv[1],
			err ? strerror(-err) : "no CO-RE relocations");
		return 1;
	}
	qsort(lines, nr_lines, sizeof(lines[0]), cmp_str);
	for (i = 0; i < nr_lines; i++)
		printf("%s\n", lines[i]);
	return 0;
}
