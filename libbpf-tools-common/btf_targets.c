// SPDX-License-Identifier: GPL-2.0
/* The targets of tp_btf and fentry programs, found in one read of /sys/kernel/btf (btf_targets.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "btf_files.h"
#include "btf_targets.h"
#include "probe.h"

static struct btf_file vmlinux;
static struct btf_file *modules;
static int nr_modules = -1;	/* -1: not listed yet */

/* A program's target found before load (btf_targets_resolve()). */
struct resolved {
	const struct bpf_program *prog;
	int fd;			/* the module's BTF object; 0: vmlinux */
	__u32 id;
};
static struct resolved *resolved;
static int nr_resolved;

static void free_btf(struct btf_file *f)
{
	if (f->mapped)
		munmap(f->data, f->size);
	else
		free(f->data);
	f->data = NULL;
	free(f->type_off);
	f->type_off = NULL;
	f->nr_types = 0;
}

/*
 * Mapped where the kernel lets /sys/kernel/btf/vmlinux be (6.16 on): a read
 * copies it a page per call, 5 MB in 0.26 s under TCG.
 */
static int read_btf(struct btf_file *f, const char *name)
{
	char path[PATH_MAX];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd;

	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(path, sizeof(path), "%s/sys/kernel/btf/%s", probe_root(), name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		close(fd);
		return -errno;
	}
	f->data = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	f->mapped = f->data != MAP_FAILED;
	if (f->mapped) {
		got = st.st_size;
	} else if ((f->data = malloc(st.st_size + 1))) {
		while (got < (size_t)st.st_size && (n = read(fd, f->data + got, st.st_size - got)) > 0)
			got += n;
	}
	close(fd);
	if (!f->data)
		return -ENOMEM;
	f->size = got;
	f->hdr = (const void *)f->data;
	if (got < sizeof(*f->hdr) || f->hdr->magic != BTF_MAGIC ||
	    (size_t)f->hdr->hdr_len + f->hdr->str_off + f->hdr->str_len > got ||
	    (size_t)f->hdr->hdr_len + f->hdr->type_off + f->hdr->type_len > got) {
		free_btf(f);
		return -EPROTO;
	}
	f->strs = f->data + f->hdr->hdr_len + f->hdr->str_off;
	return 0;
}

static int read_vmlinux(void)
{
	return vmlinux.data ? 0 : read_btf(&vmlinux, "vmlinux");
}

static void read_modules(void)
{
	char dir[PATH_MAX];
	struct dirent *d;
	DIR *dp;
	int cap = 0;

	if (nr_modules >= 0)
		return;
	nr_modules = 0;
	snprintf(dir, sizeof(dir), "%s/sys/kernel/btf", probe_root());
	dp = opendir(dir);
	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || !strcmp(d->d_name, "vmlinux"))
			continue;
		if (nr_modules == cap) {
			struct btf_file *more = realloc(modules, (cap = cap ? 2 * cap : 64) * sizeof(*more));

			if (!more)
				break;
			modules = more;
		}
		memset(&modules[nr_modules], 0, sizeof(modules[0]));
		if (!read_btf(&modules[nr_modules], d->d_name))
			nr_modules++;
	}
	closedir(dp);
}

struct btf_file *btf_file_vmlinux(void)
{
	int err = read_vmlinux();

	if (err) {
		errno = -err;
		return NULL;
	}
	return &vmlinux;
}

struct btf_file *btf_file_modules(int *n)
{
	read_modules();
	*n = nr_modules;
	return modules;
}

int btf_file_index(struct btf_file *f)
{
	const char *types = f->data + f->hdr->hdr_len + f->hdr->type_off, *p;
	const char *end = types + f->hdr->type_len;
	__u32 cap = 0;
	long size;

	if (f->type_off)
		return 0;
	for (p = types; p + sizeof(struct btf_type) <= end; p += size) {
		__u32 *more = f->type_off;

		if ((size = btf_file_type_size((const void *)p)) < 0 ||
		    (f->nr_types == cap &&
		     !(more = realloc(f->type_off, (cap = cap ? 2 * cap : 4096) * sizeof(*more))))) {
			free(f->type_off);
			f->type_off = NULL;
			f->nr_types = 0;
			return size < 0 ? -EPROTO : -ENOMEM;
		}
		f->type_off = more;
		f->type_off[f->nr_types++] = p - types;
	}
	if (!f->type_off)	/* no types: an index of none */
		f->type_off = malloc(sizeof(*f->type_off));
	return f->type_off ? 0 : -ENOMEM;
}

/* The offset of string S in F's string section, or -1. */
static long string_offset(const struct btf_file *f, const char *s)
{
	size_t len = strlen(s);
	const char *p = f->strs, *end = f->strs + f->hdr->str_len;

	/* Every string but the first (empty) one follows another's NUL. */
	while ((p = memmem(p, end - p, s, len + 1))) {
		if (p > f->strs && p[-1] == '\0')
			return p - f->strs;
		p++;
	}
	return -1;
}

long btf_file_type_size(const struct btf_type *t)
{
	long vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
		return sizeof(*t) + sizeof(__u32);
	case BTF_KIND_ARRAY:
		return sizeof(*t) + sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return sizeof(*t) + vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return sizeof(*t) + vlen * sizeof(struct btf_enum);
	case BTF_KIND_ENUM64:
		return sizeof(*t) + vlen * sizeof(struct btf_enum64);
	case BTF_KIND_FUNC_PROTO:
		return sizeof(*t) + vlen * sizeof(struct btf_param);
	case BTF_KIND_VAR:
		return sizeof(*t) + sizeof(struct btf_var);
	case BTF_KIND_DATASEC:
		return sizeof(*t) + vlen * sizeof(struct btf_var_secinfo);
	case BTF_KIND_DECL_TAG:
		return sizeof(*t) + sizeof(struct btf_decl_tag);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return sizeof(*t);
	}
	return -1;
}

/*
 * The index (from 0) of F's first type of kind KIND whose name is at
 * name_off a or b. -ENOENT: none; -EPROTO: a kind not known here.
 */
static long find_type(struct btf_file *f, int kind, long a, long b)
{
	const char *types = f->data + f->hdr->hdr_len + f->hdr->type_off;
	int err = btf_file_index(f);
	__u32 i;

	if (err)
		return err;
	for (i = 0; i < f->nr_types; i++) {
		const struct btf_type *t = (const void *)(types + f->type_off[i]);

		if ((int)BTF_INFO_KIND(t->info) == kind && (t->name_off == a || t->name_off == b))
			return i;
	}
	return -ENOENT;
}

/* btf_target_find()'s search: the file that defines the type, in *file. */
static int find_target(const char *name, int kind, struct btf_file **file, __u32 *id)
{
	long in_base, in_mod, i;
	int err, m;

	err = read_vmlinux();
	if (err)
		return err;
	/* vmlinux first, as libbpf: its id numbering starts at 1 (0 is void). */
	in_base = string_offset(&vmlinux, name);
	if (in_base >= 0) {
		i = find_type(&vmlinux, kind, in_base, -1);
		if (i >= 0) {
			*file = &vmlinux;
			*id = i + 1;
			return 0;
		}
		if (i != -ENOENT)
			return i;
	}
	read_modules();
	for (m = 0; m < nr_modules; m++) {
		struct btf_file *f = &modules[m];

		/* A module's own strings follow vmlinux's; its names may be either. */
		in_mod = string_offset(f, name);
		if (in_mod < 0 && in_base < 0)
			continue;
		if (in_mod >= 0)
			in_mod += vmlinux.hdr->str_len;
		i = find_type(f, kind, in_base, in_mod);
		if (i == -ENOENT)
			continue;
		if (i < 0)
			return i;
		/* The modules' ids follow vmlinux's types. */
		err = btf_file_index(&vmlinux);
		if (err)
			return err;
		*file = f;
		*id = vmlinux.nr_types + 1 + i;
		return 0;
	}
	return -ENOENT;
}

int btf_target_find(const char *name, int kind, char *module, size_t len, __u32 *id)
{
	struct btf_file *f;
	int err = find_target(name, kind, &f, id);

	if (!err)
		snprintf(module, len, "%s", f->name);
	return err;
}

/* Type ID of the kernel's numbering: vmlinux's, or module F's after them. */
static const struct btf_type *type_by_id(struct btf_file *f, __u32 id)
{
	struct btf_file *in = id <= vmlinux.nr_types ? &vmlinux : f;
	__u32 i = id <= vmlinux.nr_types ? id - 1 : id - vmlinux.nr_types - 1;

	if (!id || i >= in->nr_types)
		return NULL;
	return (const void *)(in->data + in->hdr->hdr_len + in->hdr->type_off + in->type_off[i]);
}

/*
 * Type NAME of KIND in MODULE's BTF ("vmlinux" or a module; a module's
 * read into *own, freed by the caller with free_btf() when *f is own):
 * its index in *f, or a negative errno.
 */
static long module_type(const char *module, int kind, const char *name, struct btf_file *own,
			struct btf_file **f)
{
	long in_base, in_mod;
	int err = read_vmlinux() ?: btf_file_index(&vmlinux);

	*f = &vmlinux;
	if (err)
		return err;
	if (strcmp(module, "vmlinux")) {
		if ((err = read_btf(own, module)))
			return err;
		*f = own;
	}
	in_base = string_offset(&vmlinux, name);
	in_mod = *f == &vmlinux ? -1 : string_offset(*f, name);
	if (in_mod >= 0)
		in_mod += vmlinux.hdr->str_len;
	return in_base < 0 && in_mod < 0 ? -ENOENT : find_type(*f, kind, in_base, in_mod);
}

static const struct btf_type *type_at(const struct btf_file *f, long i)
{
	return (const void *)(f->data + f->hdr->hdr_len + f->hdr->type_off + f->type_off[i]);
}

int btf_func_params(const char *module, const char *func)
{
	struct btf_file own = {}, *f;
	const struct btf_type *t;
	long i = module_type(module, BTF_KIND_FUNC, func, &own, &f);
	int err;

	if (i < 0) {
		err = i;
	} else {
		t = type_by_id(f, type_at(f, i)->type);
		err = t && BTF_INFO_KIND(t->info) == BTF_KIND_FUNC_PROTO ? (int)BTF_INFO_VLEN(t->info)
									: -EPROTO;
	}
	if (f == &own)
		free_btf(&own);
	return err;
}

int btf_member_offset(const char *module, const char *type, const char *member)
{
	struct btf_file own = {}, *f;
	const struct btf_type *t;
	const struct btf_member *m;
	long i = module_type(module, BTF_KIND_STRUCT, type, &own, &f), in_base, in_mod;
	int err = -ENOENT;
	__u32 j;

	if (i < 0) {
		err = i;
		goto out;
	}
	t = type_at(f, i);
	m = (const void *)(t + 1);
	in_base = string_offset(&vmlinux, member);
	in_mod = f == &vmlinux ? -1 : string_offset(f, member);
	if (in_mod >= 0)
		in_mod += vmlinux.hdr->str_len;
	for (j = 0; j < BTF_INFO_VLEN(t->info); j++, m++) {
		if (m->name_off != in_base && m->name_off != in_mod)
			continue;
		/* With kind_flag, the low 24 bits are the bit offset (the rest a bitfield's size). */
		err = (BTF_INFO_KFLAG(t->info) ? m->offset & 0xffffff : m->offset) / 8;
		break;
	}
out:
	if (f == &own)
		free_btf(&own);
	return err;
}

bool tracepoint_btf_module(const char *event, char *module, size_t len)
{
	char name[256], found[64];
	__u32 id;

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	if (btf_target_find(name, BTF_KIND_TYPEDEF, found, sizeof(found), &id) ||
	    !strcmp(found, "vmlinux"))
		return false;
	snprintf(module, len, "%s", found);
	return true;
}

/* The kernel's BTF object of module F: an fd for the program's attach_btf_obj_fd. */
static int kernel_btf_fd(struct btf_file *f)
{
	__u32 id = 0;

	if (f->kernel_fd)
		return f->kernel_fd;
	while (!bpf_btf_get_next_id(id, &id)) {
		struct bpf_btf_info info = {};
		__u32 info_len = sizeof(info);
		char name[64] = "";
		int fd = bpf_btf_get_fd_by_id(id);

		if (fd < 0) {
			if (errno == ENOENT)	/* freed since listed */
				continue;
			return -errno;
		}
		info.name = (__u64)(unsigned long)name;
		info.name_len = sizeof(name);
		if (!bpf_obj_get_info_by_fd(fd, &info, &info_len) && info.kernel_btf &&
		    !strcmp(name, f->name))
			return f->kernel_fd = fd;
		close(fd);
	}
	return -ENOENT;
}

/*
 * The target of "tp_btf/EVENT" or "fentry/FUNCTION" (the kind: KIND): its
 * type id, and the module's BTF object in *fd (0: vmlinux's, the kernel's
 * own, no object), owned here.
 */
static int find_prog_target(const struct bpf_program *prog, long kind, int *fd, __u32 *id)
{
	const char *target = strchr(bpf_program__section_name(prog), '/');
	struct btf_file *f;
	char name[256];
	int err;

	if (!target)
		return -EINVAL;
	snprintf(name, sizeof(name), "%s%s", kind == BTF_KIND_TYPEDEF ? "btf_trace_" : "", target + 1);
	err = find_target(name, kind, &f, id);
	if (err)
		return err;
	*fd = f == &vmlinux ? 0 : kernel_btf_fd(f);
	return *fd < 0 ? *fd : 0;
}

/* The kind of BTF type a program's section names: -1 if not one of the handlers'. */
static long section_kind(const struct bpf_program *prog)
{
	const char *sec = bpf_program__section_name(prog);

	if (!strncmp(sec, "tp_btf/", 7))
		return BTF_KIND_TYPEDEF;
	if (!strncmp(sec, "fentry/", 7))
		return BTF_KIND_FUNC;
	return -1;
}

/*
 * libbpf's prog_prepare_load_fn: the target found before load, else now.
 * No program of these attaches to another program (resolved_mark()).
 */
static int prepare_load(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long kind)
{
	__u32 id;
	int i, err, fd;

	opts->attach_prog_fd = 0;
	for (i = 0; i < nr_resolved; i++) {
		if (resolved[i].prog == prog) {
			opts->attach_btf_obj_fd = resolved[i].fd;
			opts->attach_btf_id = resolved[i].id;
			return 0;
		}
	}
	err = find_prog_target(prog, kind, &fd, &id);
	if (err)
		return err;
	opts->attach_btf_obj_fd = fd;
	opts->attach_btf_id = id;
	return 0;
}

static int attach_trace(const struct bpf_program *prog, long cookie, struct bpf_link **link)
{
	*link = bpf_program__attach_trace(prog);
	return libbpf_get_error(*link);
}

int btf_targets_register(void)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, opts,
		    .prog_prepare_load_fn = prepare_load,
		    .prog_attach_fn = attach_trace);
	static bool done;
	int err;

	if (done)
		return 0;
	opts.cookie = BTF_KIND_TYPEDEF;
	err = libbpf_register_prog_handler("tp_btf+", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, &opts);
	if (err < 0)
		return err;
	opts.cookie = BTF_KIND_FUNC;
	err = libbpf_register_prog_handler("fentry+", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, &opts);
	if (err < 0)
		return err;
	done = true;
	return 0;
}

/* Whether one of the first `n` programs resolved holds module BTF object `fd`. */
static bool resolved_holds(int fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (resolved[i].fd == fd)
			return true;
	return false;
}

/* Drop the files read (megabytes) and the modules' objects, but those resolved keep. */
static void release_files(void)
{
	int m;

	free_btf(&vmlinux);
	memset(&vmlinux, 0, sizeof(vmlinux));
	for (m = 0; m < nr_modules; m++) {
		free_btf(&modules[m]);
		if (modules[m].kernel_fd > 0 && !resolved_holds(modules[m].kernel_fd, nr_resolved))
			close(modules[m].kernel_fd);
	}
	free(modules);
	modules = NULL;
	nr_modules = -1;
}

/*
 * libbpf (1.1) reads and parses vmlinux's BTF, 150 to 200 ms under TCG,
 * for any tracing program that does not attach to another program, only to
 * find its target: already found here. An attach_prog_fd tells it there is
 * nothing to find: any open fd, since prepare_load() clears it before the
 * kernel sees it. The CO-RE relocations, libbpf's other reason to read
 * vmlinux's BTF, have their own (core_btf.h).
 */
static void resolved_mark(struct bpf_program *prog, int fd)
{
	bpf_program__set_attach_target(prog, fd > 0 ? fd : STDERR_FILENO, NULL);
}

int btf_targets_resolve(struct bpf_object *obj)
{
	struct bpf_program *prog;
	struct resolved *more;
	long kind;
	int n = 0;

	bpf_object__for_each_program(prog, obj) {
		if (!bpf_program__autoload(prog) || (kind = section_kind(prog)) < 0)
			continue;
		more = realloc(resolved, (nr_resolved + 1) * sizeof(*more));
		if (!more)
			break;
		resolved = more;
		resolved[nr_resolved].prog = prog;
		/* Not found: left to the load, which says so as before. */
		if (!find_prog_target(prog, kind, &resolved[nr_resolved].fd, &resolved[nr_resolved].id)) {
			resolved_mark(prog, resolved[nr_resolved].fd);
			nr_resolved++;
			n++;
		}
	}
	release_files();
	return n;
}

void btf_targets_reset(void)
{
	int i;

	release_files();
	/* Each module's object once: several programs may hold the same. */
	for (i = 0; i < nr_resolved; i++)
		if (resolved[i].fd > 0 && !resolved_holds(resolved[i].fd, i))
			close(resolved[i].fd);
	free(resolved);
	resolved = NULL;
	nr_resolved = 0;
}
