// SPDX-License-Identifier: GPL-2.0
/* The kernel's BTF cut to what an object's CO-RE relocations can match (core_btf.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_files.h"
#include "core_btf.h"
#include "core_relos.h"

static int target_fd = -1;
static char target_path[32];
static bool in_use;	/* the last skeleton opened was given target_path */

const struct bpf_object_open_opts *core_btf_open_opts(void)
{
	static struct bpf_object_open_opts opts;
	struct btf_file *vmlinux = btf_file_vmlinux();

	/* A kind of BTF not known here: libbpf's own search, which may know it. */
	in_use = vmlinux && !btf_file_index(vmlinux);
	if (in_use && target_fd < 0) {
		target_fd = memfd_create("core-btf", MFD_CLOEXEC);
		in_use = target_fd >= 0;
		snprintf(target_path, sizeof(target_path), "/proc/self/fd/%d", target_fd);
	}
	if (!in_use)
		return NULL;
	opts.sz = sizeof(opts);
	opts.btf_custom_path = target_path;
	return &opts;
}

/* ---- the types relocated ------------------------------------------------- */

/* A type the object relocates: its name up to a "___flavor", its kind. */
struct root {
	const char *name;
	size_t len;
	int kind;
	bool in_vmlinux;	/* vmlinux has a candidate: the modules' are not */
};

struct roots {
	struct root *r;
	int n;
	bool first_char[256];
};

/* libbpf's btf_kind_core_compat(): the same kind, or an enum of either width. */
static bool kinds_compat(int a, int b)
{
	bool enum_a = a == BTF_KIND_ENUM || a == BTF_KIND_ENUM64;
	bool enum_b = b == BTF_KIND_ENUM || b == BTF_KIND_ENUM64;

	return a == b || (enum_a && enum_b);
}

static int add_root(struct roots *roots, const char *name, int kind)
{
	const char *flavor = strstr(name, "___");
	size_t len = flavor ? (size_t)(flavor - name) : strlen(name);
	struct root *more;
	int i;

	if (!len)
		return 0;
	for (i = 0; i < roots->n; i++)
		if (roots->r[i].len == len && !strncmp(roots->r[i].name, name, len) &&
		    kinds_compat(roots->r[i].kind, kind))
			return 0;
	more = realloc(roots->r, (roots->n + 1) * sizeof(*more));
	if (!more)
		return -ENOMEM;
	roots->r = more;
	roots->r[roots->n++] = (struct root){ .name = name, .len = len, .kind = kind };
	roots->first_char[(unsigned char)name[0]] = true;
	return 0;
}

struct roots_of {
	const struct btf *local;
	struct roots *roots;
};

static int add_relo_root(const struct bpf_core_relo *r, void *ctx)
{
	struct roots_of *of = ctx;
	const struct btf_type *t = btf__type_by_id(of->local, r->type_id);

	if (r->kind == BPF_CORE_TYPE_ID_LOCAL || !t)
		return 0;
	/* What only the whole BTF answers: the kernel's ids, pointees compared. */
	if (r->kind == BPF_CORE_TYPE_ID_TARGET || r->kind == BPF_CORE_TYPE_MATCHES)
		return -EOPNOTSUPP;
	return add_root(of->roots, btf__name_by_offset(of->local, t->name_off) ?: "",
			BTF_INFO_KIND(t->info));
}

/* The root type of every CO-RE relocation in S's object but those of its own types' ids. */
static int find_roots(const struct bpf_object_skeleton *s, struct roots *roots)
{
	struct roots_of of = { .local = bpf_object__btf(*s->obj), .roots = roots };

	return of.local ? core_relos_foreach(s->data, s->data_sz, add_relo_root, &of) : 0;
}

/* ---- the kernel's files, walked ------------------------------------------ */

/* A BTF file of the kernel's with an index of its types. */
struct walked {
	const struct btf_file *f;
	const char *types;	/* its type section, indexed by f->type_off */
	__u32 first_id;		/* the kernel's id of its type 0: 1 for vmlinux */
	__u32 *deep;		/* each type's id where copied whole, or 0 */
	__u32 *shallow;		/* ... where copied as pointed to */
	bool *candidate;	/* a root's candidate: copied with its name */
};

static struct btf_file *vmlinux_file;

/* A type's name: a module's names follow vmlinux's strings. */
static const char *type_name(const struct walked *w, __u32 name_off)
{
	__u32 base_len = vmlinux_file->hdr->str_len;

	if (w->f == vmlinux_file || name_off < base_len)
		return name_off < base_len ? vmlinux_file->strs + name_off : "";
	name_off -= base_len;
	return name_off < w->f->hdr->str_len ? w->f->strs + name_off : "";
}

/* Whether NAME is ROOT's: its essential name, then nothing or a "___flavor". */
static bool name_is(const char *name, const struct root *root)
{
	return !strncmp(name, root->name, root->len) &&
	       (!name[root->len] || !strncmp(name + root->len, "___", 3));
}

/* W's types indexed, and the candidates of the roots not found before (in vmlinux) marked. */
static int walk(struct walked *w, struct btf_file *f, __u32 first_id, struct roots *roots)
{
	int i, err = btf_file_index(f);

	if (err)
		return err;
	w->f = f;
	w->first_id = first_id;
	w->types = f->data + f->hdr->hdr_len + f->hdr->type_off;
	w->deep = calloc(f->nr_types ?: 1, sizeof(*w->deep));
	w->shallow = calloc(f->nr_types ?: 1, sizeof(*w->shallow));
	w->candidate = calloc(f->nr_types ?: 1, sizeof(*w->candidate));
	if (!w->deep || !w->shallow || !w->candidate)
		return -ENOMEM;
	for (__u32 id = 0; id < f->nr_types; id++) {
		const struct btf_type *t = (const void *)(w->types + f->type_off[id]);
		const char *name;

		if (!t->name_off)
			continue;
		name = type_name(w, t->name_off);
		if (!roots->first_char[(unsigned char)name[0]])
			continue;
		for (i = 0; i < roots->n; i++) {
			struct root *r = &roots->r[i];

			if ((f != vmlinux_file && r->in_vmlinux) || !kinds_compat(BTF_INFO_KIND(t->info), r->kind) ||
			    !name_is(name, r))
				continue;
			w->candidate[id] = true;
			if (f == vmlinux_file)
				r->in_vmlinux = true;
		}
	}
	return 0;
}

static void walked_free(struct walked *w)
{
	free(w->deep);
	free(w->shallow);
	free(w->candidate);
}

/* ---- the copy ------------------------------------------------------------- */

struct out {
	char *types;
	size_t types_len, types_cap;
	char *strs;
	size_t strs_len, strs_cap;
	__u32 nr;		/* types written: the last one's id */
	__u32 standin[2];	/* the empty struct and union pointed to */
	struct walked *vmlinux;
};

static int grow(char **buf, size_t *cap, size_t need)
{
	char *more;

	if (need <= *cap)
		return 0;
	more = realloc(*buf, need * 2);
	if (!more)
		return -ENOMEM;
	*buf = more;
	*cap = need * 2;
	return 0;
}

/* S's offset in the new string section (0: the empty string). */
static long add_str(struct out *o, const char *s)
{
	size_t len = strlen(s) + 1;
	long off = o->strs_len;

	if (len == 1)
		return 0;
	if (grow(&o->strs, &o->strs_cap, o->strs_len + len))
		return -ENOMEM;
	memcpy(o->strs + o->strs_len, s, len);
	o->strs_len += len;
	return off;
}

/* A new type record of SIZE bytes, copied from T; its offset in o->types. */
static long add_type(struct out *o, const struct btf_type *t, long size)
{
	long pos = o->types_len;

	if (grow(&o->types, &o->types_cap, o->types_len + size))
		return -ENOMEM;
	memcpy(o->types + pos, t, size);
	o->types_len += size;
	o->nr++;
	return pos;
}

#define REC(o, pos) ((struct btf_type *)((o)->types + (pos)))

static int copy(struct out *o, struct walked *w, __u32 kernel_id, bool shallow, __u32 *new_id);

/* Copy the type the __u32 at byte AT of record POS refers to, and point it at the copy. */
static int copy_ref(struct out *o, struct walked *w, long pos, size_t at, bool shallow)
{
	__u32 id, *ref = (__u32 *)(o->types + pos + at);
	int err = copy(o, w, *ref, shallow, &id);

	if (err)
		return err;
	ref = (__u32 *)(o->types + pos + at);	/* o->types may have moved */
	*ref = id;
	return 0;
}

/* Name at byte AT of record POS, from W's strings into the new ones. */
static int copy_name(struct out *o, const struct walked *w, long pos, size_t at)
{
	__u32 *name_off = (__u32 *)(o->types + pos + at);
	long off = add_str(o, type_name(w, *name_off));

	if (off < 0)
		return off;
	name_off = (__u32 *)(o->types + pos + at);
	*name_off = off;
	return 0;
}

/* An empty struct or union with no name: what a pointer points to, where it does not matter. */
static int standin(struct out *o, int kind, __u32 *new_id)
{
	int i = kind == BTF_KIND_UNION;
	struct btf_type t = { .info = (__u32)kind << 24 };	/* no name, no members */

	if (!o->standin[i]) {
		if (add_type(o, &t, sizeof(t)) < 0)
			return -ENOMEM;
		o->standin[i] = o->nr;
	}
	*new_id = o->standin[i];
	return 0;
}

/*
 * Copy kernel type KERNEL_ID (of W, or of vmlinux under W) into O: whole
 * (what it holds by value), or SHALLOW, as pointed to (a struct or union
 * then empty). Only a root's candidate keeps a struct's, union's, enum's,
 * typedef's or forward declaration's name: libbpf takes any type of the
 * name as a candidate, and no other may become one.
 */
static int copy(struct out *o, struct walked *w, __u32 kernel_id, bool shallow, __u32 *new_id)
{
	struct walked *home = kernel_id < o->vmlinux->first_id + o->vmlinux->f->nr_types ? o->vmlinux : w;
	const struct btf_type *t;
	__u32 idx, *memo, i, vlen;
	int kind, err = 0;
	long pos, size;

	if (!kernel_id) {
		*new_id = 0;
		return 0;
	}
	idx = kernel_id - home->first_id;
	if (kernel_id < home->first_id || idx >= home->f->nr_types)
		return -EPROTO;
	memo = shallow ? &home->shallow[idx] : &home->deep[idx];
	if (*memo) {
		*new_id = *memo;
		return 0;
	}
	t = (const void *)(home->types + home->f->type_off[idx]);
	kind = BTF_INFO_KIND(t->info);
	vlen = BTF_INFO_VLEN(t->info);
	if (shallow && (kind == BTF_KIND_STRUCT || kind == BTF_KIND_UNION))
		return standin(o, kind, new_id);
	size = btf_file_type_size(t);
	pos = size < 0 ? -EPROTO : add_type(o, t, size);
	if (pos < 0)
		return pos;
	*new_id = *memo = o->nr;

	switch (kind) {
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_FWD:
		if (!home->candidate[idx])
			REC(o, pos)->name_off = 0;
		else
			err = copy_name(o, home, pos, offsetof(struct btf_type, name_off));
		break;
	default:
		err = copy_name(o, home, pos, offsetof(struct btf_type, name_off));
	}

	switch (kind) {
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_FWD:
		break;
	case BTF_KIND_PTR:
		err = err ?: copy_ref(o, home, pos, offsetof(struct btf_type, type), true);
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		err = err ?: copy_ref(o, home, pos, offsetof(struct btf_type, type), shallow);
		break;
	case BTF_KIND_ARRAY:
		err = err ?: copy_ref(o, home, pos, sizeof(*t) + offsetof(struct btf_array, type), shallow);
		err = err ?: copy_ref(o, home, pos, sizeof(*t) + offsetof(struct btf_array, index_type), false);
		break;
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; !err && i < vlen; i++) {
			size_t m = sizeof(*t) + i * sizeof(struct btf_member);

			err = copy_name(o, home, pos, m + offsetof(struct btf_member, name_off)) ?:
			      copy_ref(o, home, pos, m + offsetof(struct btf_member, type), false);
		}
		break;
	case BTF_KIND_ENUM:
		for (i = 0; !err && i < vlen; i++)
			err = copy_name(o, home, pos, sizeof(*t) + i * sizeof(struct btf_enum));
		break;
	case BTF_KIND_ENUM64:
		for (i = 0; !err && i < vlen; i++)
			err = copy_name(o, home, pos, sizeof(*t) + i * sizeof(struct btf_enum64));
		break;
	case BTF_KIND_FUNC_PROTO:
		err = err ?: copy_ref(o, home, pos, offsetof(struct btf_type, type), true);
		for (i = 0; !err && i < vlen; i++) {
			size_t p = sizeof(*t) + i * sizeof(struct btf_param);

			err = copy_name(o, home, pos, p + offsetof(struct btf_param, name_off)) ?:
			      copy_ref(o, home, pos, p + offsetof(struct btf_param, type), true);
		}
		break;
	default:	/* no struct holds a function, variable, section or tag */
		err = -EPROTO;
	}
	return err;
}

/* Every candidate in W, copied whole. */
static int copy_candidates(struct out *o, struct walked *w)
{
	__u32 idx, id;
	int err = 0;

	for (idx = 0; !err && idx < w->f->nr_types; idx++)
		if (w->candidate[idx])
			err = copy(o, w, w->first_id + idx, false, &id);
	return err;
}

static int write_target(const struct out *o)
{
	struct btf_header h = {
		.magic = BTF_MAGIC,
		.version = BTF_VERSION,
		.hdr_len = sizeof(h),
		.type_len = o->types_len,
		.str_off = o->types_len,
		.str_len = o->strs_len,
	};
	struct iovec iov[] = {
		{ &h, sizeof(h) }, { o->types, o->types_len }, { o->strs, o->strs_len },
	};
	ssize_t want = sizeof(h) + o->types_len + o->strs_len, n;

	if (ftruncate(target_fd, 0))
		return -errno;
	n = pwritev(target_fd, iov, 3, 0);
	if (n < 0)
		return -errno;
	/* Short: the file size limit (ulimit -f) or tmpfs's, its next write's error. */
	return n == want ? 0 : -EFBIG;
}

int core_btf_write(const struct bpf_object_skeleton *s)
{
	struct roots roots = {};
	struct out o = { .strs = calloc(1, 1), .strs_len = 1, .strs_cap = 1 };
	struct walked vml = {}, *mods = NULL;
	struct btf_file *modules;
	int err, m, nr_modules = 0;
	bool all_found = true;

	if (!in_use)
		return 0;
	if (!o.strs)
		return -ENOMEM;
	o.vmlinux = &vml;
	err = find_roots(s, &roots);
	if (!err && roots.n) {
		vmlinux_file = btf_file_vmlinux();
		err = vmlinux_file ? walk(&vml, vmlinux_file, 1, &roots) : -errno;
		err = err ?: copy_candidates(&o, &vml);
	}
	for (m = 0; m < roots.n; m++)
		all_found &= roots.r[m].in_vmlinux;
	if (!err && !all_found) {
		modules = btf_file_modules(&nr_modules);
		mods = calloc(nr_modules ?: 1, sizeof(*mods));
		err = mods ? 0 : -ENOMEM;
		for (m = 0; !err && m < nr_modules; m++)
			err = walk(&mods[m], &modules[m], vml.f->nr_types + 1, &roots) ?:
			      copy_candidates(&o, &mods[m]);
	}
	err = err ?: write_target(&o);

	for (m = 0; mods && m < nr_modules; m++)
		walked_free(&mods[m]);
	free(mods);
	walked_free(&vml);
	free(roots.r);
	free(o.types);
	free(o.strs);
	return err;
}
