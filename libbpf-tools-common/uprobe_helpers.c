// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>

#include "probe.h"
#include "uprobe_helpers.h"

struct sym {
	const char *name;	/* in the ELF's string table: valid while it is open */
	unsigned long off;	/* file offset */
	unsigned long size;
	int global;
};

struct elf_syms {
	int fd;
	Elf *elf;
	struct sym *syms;	/* by offset */
	struct sym **by_name;	/* by name, global before local */
	size_t n;
};

static unsigned int host_machine(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#else
	return EM_NONE;
#endif
}

/* A virtual address of the file as a file offset, through its PT_LOAD segments. */
static int vaddr_to_off(Elf *elf, size_t nphdr, GElf_Addr vaddr, unsigned long *off)
{
	GElf_Phdr ph;
	size_t i;

	for (i = 0; i < nphdr; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

static int cmp_off(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return y->global - x->global;
}

static int cmp_name(const void *a, const void *b)
{
	const struct sym *x = *(const struct sym *const *)a, *y = *(const struct sym *const *)b;
	int c = strcmp(x->name, y->name);

	return c ? c : y->global - x->global;
}

static int add_symtab(struct elf_syms *s, Elf_Scn *scn, const GElf_Shdr *sh, size_t nphdr,
		      size_t *cap)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, count;
	GElf_Sym sym;

	if (!data || !sh->sh_entsize)
		return 0;
	count = sh->sh_size / sh->sh_entsize;
	for (i = 0; i < count; i++) {
		const char *name;
		unsigned long off;
		int type;

		if (!gelf_getsym(data, i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_shndx == SHN_UNDEF ||
		    !sym.st_value)
			continue;
		name = elf_strptr(s->elf, sh->sh_link, sym.st_name);
		if (!name || !*name || vaddr_to_off(s->elf, nphdr, sym.st_value, &off))
			continue;
		if (s->n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 1024;
			struct sym *p = realloc(s->syms, ncap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			s->syms = p;
			*cap = ncap;
		}
		s->syms[s->n++] = (struct sym){
			.name = name,
			.off = off,
			.size = sym.st_size,
			.global = GELF_ST_BIND(sym.st_info) != STB_LOCAL,
		};
	}
	return 0;
}

int elf_syms_load(const char *path, struct elf_syms **out)
{
	struct elf_syms *s;
	Elf_Scn *scn = NULL;
	size_t nphdr, cap = 0, i;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	int err;

	*out = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		err = -errno;
		free(s);
		return err;
	}
	s->elf = elf_begin(s->fd, ELF_C_READ_MMAP, NULL);
	if (!s->elf || elf_kind(s->elf) != ELF_K_ELF) {
		err = -ENOEXEC;
		goto fail;
	}
	if (!gelf_getehdr(s->elf, &eh) || gelf_getclass(s->elf) != ELFCLASS64 ||
	    eh.e_machine != host_machine()) {
		err = -EINVAL;
		goto fail;
	}
	if (elf_getphdrnum(s->elf, &nphdr)) {
		err = -ENOEXEC;
		goto fail;
	}
	while ((scn = elf_nextscn(s->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		err = add_symtab(s, scn, &sh, nphdr, &cap);
		if (err)
			goto fail;
	}
	s->by_name = calloc(s->n + 1, sizeof(*s->by_name));
	if (!s->by_name) {
		err = -ENOMEM;
		goto fail;
	}
	qsort(s->syms, s->n, sizeof(*s->syms), cmp_off);
	for (i = 0; i < s->n; i++)
		s->by_name[i] = &s->syms[i];
	qsort(s->by_name, s->n, sizeof(*s->by_name), cmp_name);
	*out = s;
	return 0;
fail:
	elf_syms_free(s);
	return err;
}

void elf_syms_free(struct elf_syms *s)
{
	if (!s)
		return;
	free(s->by_name);
	free(s->syms);
	if (s->elf)
		elf_end(s->elf);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

const char *elf_syms_strerror(int err)
{
	switch (-err) {
	case ENOEXEC:
		return "not an ELF file";
	case EINVAL:
		return "not a 64-bit ELF object for this machine";
	default:
		return strerror(-err);
	}
}

long elf_syms_offset(const struct elf_syms *s, const char *name)
{
	size_t lo = 0, hi = s->n;

	/* The first entry of that name: a global one when there is one. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(s->by_name[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < s->n && strcmp(s->by_name[lo]->name, name) == 0)
		return (long)s->by_name[lo]->off;
	return -1;
}

const char *elf_syms_next_global(const struct elf_syms *s, size_t *pos, unsigned long *off)
{
	size_t j;

	/* by_name holds each name's global entry before its local ones. */
	for (j = *pos; j < s->n; j++) {
		if (!s->by_name[j]->global || (j && !strcmp(s->by_name[j]->name, s->by_name[j - 1]->name)))
			continue;
		*pos = j + 1;
		*off = s->by_name[j]->off;
		return s->by_name[j]->name;
	}
	*pos = s->n;
	return NULL;
}

const char *elf_syms_at(const struct elf_syms *s, unsigned long off, unsigned long *delta)
{
	size_t lo = 0, hi = s->n;
	const struct sym *sym;

	/* The last symbol starting at or below off. */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->syms[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	sym = &s->syms[lo - 1];
	/* Prefer the global name among aliases at the same address. */
	while (lo - 1 > 0 && s->syms[lo - 2].off == sym->off) {
		lo--;
		sym = &s->syms[lo - 1];
	}
	if (sym->size && off >= sym->off + sym->size)
		return NULL;
	*delta = off - sym->off;
	return sym->name;
}

int proc_maps_read(pid_t pid, struct proc_map **maps, size_t *n)
{
	char path[64], line[PATH_MAX + 128], perms[8];
	struct proc_map *v = NULL, *p;
	size_t cap = 0;
	FILE *f;

	*maps = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end, pgoff, inode;
		char *file, *nl;
		int pos = 0;

		if (sscanf(line, "%lx-%lx %7s %lx %*s %lu %n", &start, &end, perms, &pgoff,
			   &inode, &pos) < 5 || !pos)
			continue;
		file = line + pos;
		if (*file != '/')
			continue;
		nl = strchr(file, '\n');
		if (nl)
			*nl = '\0';
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			p = realloc(v, cap * sizeof(*v));
			if (!p)
				goto nomem;
			v = p;
		}
		v[*n] = (struct proc_map){ start, end, pgoff, inode, perms[2] == 'x', strdup(file) };
		if (!v[*n].path)
			goto nomem;
		(*n)++;
	}
	fclose(f);
	*maps = v;
	return 0;
nomem:
	fclose(f);
	proc_maps_free(v, *n);
	*n = 0;
	return -ENOMEM;
}

void proc_maps_free(struct proc_map *maps, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(maps[i].path);
	free(maps);
}

void proc_map_open_path(pid_t pid, const struct proc_map *m, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	size_t len = strlen(m->path);
	struct stat st;

	if (len > sizeof(deleted) - 1 && !strcmp(m->path + len - (sizeof(deleted) - 1), deleted)) {
		/* Replaced on disk (an upgrade): reach the mapped file itself. */
		snprintf(buf, size, "/proc/%d/map_files/%lx-%lx", (int)pid, m->start, m->end);
		return;
	}
	if (stat(m->path, &st) == 0 && st.st_ino == m->inode)
		snprintf(buf, size, "%s", m->path);
	else
		snprintf(buf, size, "/proc/%d/root%s", (int)pid, m->path);
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool add_found(const char *path, char (*out)[PATH_MAX], int *n, int max)
{
	struct stat st;
	int i;

	if (*n >= max || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	for (i = 0; i < *n; i++)
		if (same_file(out[i], path))
			return false;
	snprintf(out[(*n)++], PATH_MAX, "%s", path);
	return true;
}

/*
 * glibc's ld.so.cache, new format ("glibc-ld.so.cache1.1", the only one
 * since glibc 2.32): a header, then entries whose key (the soname) and
 * value (the path) are offsets of strings from the start of the file.
 */
#define LDCACHE_MAGIC "glibc-ld.so.cache1.1"

struct ldcache_header {
	char magic[sizeof(LDCACHE_MAGIC) - 1];
	uint32_t nlibs;
	uint32_t len_strings;
	uint8_t flags;
	uint8_t pad[3];
	uint32_t extension_offset;
	uint32_t unused[3];
};

struct ldcache_entry {
	int32_t flags;
	uint32_t key;
	uint32_t value;
	uint32_t osversion;
	uint64_t hwcap;
};

static void search_ldcache(const char *prefix, char (*out)[PATH_MAX], int *n, int max)
{
	const struct ldcache_header *h;
	const struct ldcache_entry *e;
	size_t size, plen = strlen(prefix);
	struct stat st;
	void *map;
	uint32_t i;
	int fd;

	fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return;
	}
	size = st.st_size;
	map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	h = map;
	if (memcmp(h->magic, LDCACHE_MAGIC, sizeof(h->magic)) ||
	    sizeof(*h) + (size_t)h->nlibs * sizeof(*e) > size)
		goto out;
	e = (const struct ldcache_entry *)(h + 1);
	for (i = 0; i < h->nlibs; i++) {
		const char *key = (const char *)map + e[i].key;
		const char *value = (const char *)map + e[i].value;

		if (e[i].key >= size || e[i].value >= size ||
		    !memchr(key, 0, size - e[i].key) || !memchr(value, 0, size - e[i].value))
			continue;
		if (!strncmp(key, prefix, plen))
			add_found(value, out, n, max);
	}
out:
	munmap(map, size);
}

int find_libraries(const char *prefix, const char *const *dirs, char (*out)[PATH_MAX], int max)
{
	size_t plen = strlen(prefix);
	char path[PATH_MAX];
	struct dirent *de;
	int n = 0;
	DIR *d;

	search_ldcache(prefix, out, &n, max);
	for (; dirs && *dirs; dirs++) {
		d = opendir(*dirs);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			if (strncmp(de->d_name, prefix, plen))
				continue;
			snprintf(path, sizeof(path), "%s/%s", *dirs, de->d_name);
			add_found(path, out, &n, max);
		}
		closedir(d);
	}
	return n;
}

/* The symbolizer's caches: a few processes and files, searched linearly. */
struct pid_maps {
	pid_t pid;
	struct proc_map *maps;
	char **open_paths;
	size_t n;
};

struct file_syms {
	char *path;
	struct elf_syms *syms;	/* NULL: could not be loaded */
};

struct syms_cache {
	struct pid_maps *pids;
	size_t npids;
	struct file_syms *files;
	size_t nfiles;
};

struct syms_cache *syms_cache_new(void)
{
	return calloc(1, sizeof(struct syms_cache));
}

static void pid_maps_clear(struct pid_maps *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		free(p->open_paths[i]);
	free(p->open_paths);
	proc_maps_free(p->maps, p->n);
	p->maps = NULL;
	p->open_paths = NULL;
	p->n = 0;
}

void syms_cache_free(struct syms_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->npids; i++)
		pid_maps_clear(&c->pids[i]);
	for (i = 0; i < c->nfiles; i++) {
		free(c->files[i].path);
		elf_syms_free(c->files[i].syms);
	}
	free(c->pids);
	free(c->files);
	free(c);
}

static struct pid_maps *find_pid(struct syms_cache *c, pid_t pid)
{
	size_t i;

	for (i = 0; i < c->npids; i++)
		if (c->pids[i].pid == pid)
			return &c->pids[i];
	return NULL;
}

int syms_cache_load(struct syms_cache *c, pid_t pid)
{
	struct pid_maps *p = find_pid(c, pid), *v;
	struct proc_map *maps;
	char buf[PATH_MAX + 64];
	size_t n, i;
	int err;

	err = proc_maps_read(pid, &maps, &n);
	if (err)
		return err;
	if (!n) {
		/* A zombie: its maps are gone, keep what we read while it lived. */
		free(maps);
		return -ESRCH;
	}
	if (!p) {
		v = realloc(c->pids, (c->npids + 1) * sizeof(*v));
		if (!v) {
			proc_maps_free(maps, n);
			return -ENOMEM;
		}
		c->pids = v;
		p = &c->pids[c->npids++];
		memset(p, 0, sizeof(*p));
		p->pid = pid;
	}
	pid_maps_clear(p);
	p->open_paths = calloc(n + 1, sizeof(*p->open_paths));
	if (!p->open_paths) {
		proc_maps_free(maps, n);
		return -ENOMEM;
	}
	/* Paths resolved now: /proc/PID/root is gone with the process. */
	for (i = 0; i < n; i++) {
		proc_map_open_path(pid, &maps[i], buf, sizeof(buf));
		p->open_paths[i] = strdup(buf);
	}
	p->maps = maps;
	p->n = n;
	return 0;
}

void syms_cache_forget(struct syms_cache *c, pid_t pid)
{
	struct pid_maps *p = find_pid(c, pid);

	if (!p)
		return;
	pid_maps_clear(p);
	*p = c->pids[--c->npids];
}

static struct elf_syms *file_syms(struct syms_cache *c, const char *path)
{
	struct file_syms *v;
	struct elf_syms *s = NULL;
	size_t i;

	for (i = 0; i < c->nfiles; i++)
		if (!strcmp(c->files[i].path, path))
			return c->files[i].syms;
	v = realloc(c->files, (c->nfiles + 1) * sizeof(*v));
	if (!v)
		return NULL;
	c->files = v;
	elf_syms_load(path, &s);
	c->files[c->nfiles].path = strdup(path);
	c->files[c->nfiles].syms = s;
	if (!c->files[c->nfiles].path) {
		elf_syms_free(s);
		return NULL;
	}
	c->nfiles++;
	return s;
}

static const struct proc_map *find_map(const struct pid_maps *p, unsigned long addr, size_t *idx)
{
	size_t i;

	for (i = 0; p && i < p->n; i++) {
		if (addr >= p->maps[i].start && addr < p->maps[i].end) {
			*idx = i;
			return &p->maps[i];
		}
	}
	return NULL;
}

const char *syms_cache_resolve(struct syms_cache *c, pid_t pid, unsigned long addr,
			       unsigned long *delta, const char **file)
{
	struct pid_maps *p = find_pid(c, pid);
	const struct proc_map *m;
	struct elf_syms *s;
	size_t i;

	m = find_map(p, addr, &i);
	if (!m) {
		/* First use, or a library loaded since: read the maps again. */
		if (syms_cache_load(c, pid))
			return NULL;
		p = find_pid(c, pid);
		m = find_map(p, addr, &i);
		if (!m)
			return NULL;
	}
	if (file)
		*file = m->path;
	if (!p->open_paths[i])
		return NULL;
	s = file_syms(c, p->open_paths[i]);
	if (!s)
		return NULL;
	return elf_syms_at(s, addr - m->start + m->pgoff, delta);
}

/*
 * BPF_LINK_CREATE for uprobe_multi, laid out by hand: the UAPI headers of
 * older distributions (and libbpf < 1.3) do not know it yet.
 */
struct link_create_uprobe_multi {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 multi_flags;	/* BPF_F_UPROBE_MULTI_RETURN */
	__u32 pid;
	__u32 pad[5];
};

#define UPROBE_MULTI_RETURN 1

static int link_create_uprobe_multi(int prog_fd, const char *path, const unsigned long *offsets,
				    const unsigned long long *cookies, unsigned int cnt,
				    bool retprobe, int pid)
{
	struct link_create_uprobe_multi attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = UPROBE_MULTI_ATTACH_TYPE;
	attr.path = (unsigned long)path;
	attr.offsets = (unsigned long)offsets;
	attr.cookies = (unsigned long)cookies;
	attr.cnt = cnt;
	attr.multi_flags = retprobe ? UPROBE_MULTI_RETURN : 0;
	attr.pid = pid;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

bool uprobe_multi_supported(void)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		.expected_attach_type = UPROBE_MULTI_ATTACH_TYPE);
	unsigned long offset = 0;
	int prog_fd, err;

	if (pretend_missing("uprobe_multi"))
		return false;
	prog_fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns,
				sizeof(insns) / sizeof(insns[0]), &opts);
	if (prog_fd < 0)
		return false;
	/* As libbpf probes it: a uprobe in "/" fails with EBADF where supported... */
	err = link_create_uprobe_multi(prog_fd, "/", &offset, NULL, 1, false, 0);
	if (err >= 0)
		close(err);
	if (err != -EBADF) {
		close(prog_fd);
		return false;
	}
	/* ...and with EINVAL for PID -1 once the PID filter is process-wide. */
	err = link_create_uprobe_multi(prog_fd, "/", &offset, NULL, 1, false, -1);
	if (err >= 0)
		close(err);
	close(prog_fd);
	return err == -EINVAL;
}

int uprobe_multi_attach(int prog_fd, const char *path, const unsigned long *offsets,
			const unsigned long long *cookies, unsigned int cnt, bool retprobe, pid_t pid)
{
	return link_create_uprobe_multi(prog_fd, path, offsets, cookies, cnt, retprobe, pid);
}
