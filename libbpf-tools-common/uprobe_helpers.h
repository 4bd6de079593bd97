/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding user-space code to probe, and naming user-space addresses:
 * function symbols of ELF files as file offsets (what a uprobe attaches
 * to), the objects a process has mapped (/proc/PID/maps), libraries by
 * name the way ld.so would find them (its cache, then the usual
 * directories), and a per-process symbolizer built on those.
 */
#ifndef GPU_BPF_UPROBE_HELPERS_H
#define GPU_BPF_UPROBE_HELPERS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The function symbols (.symtab and .dynsym) of one ELF file. */
struct elf_syms;

/*
 * Load the function symbols of the ELF file at `path` into *out.  Returns
 * 0, or a negative errno: -ENOEXEC when it is not an ELF file, -EINVAL
 * when it is one for another class or machine, else the open error.
 */
int elf_syms_load(const char *path, struct elf_syms **out);
void elf_syms_free(struct elf_syms *s);

/* A one-line reason for an elf_syms_load() error ("not an ELF file"). */
const char *elf_syms_strerror(int err);

/* File offset of the function `name` (for a uprobe), or -1 when absent. */
long elf_syms_offset(const struct elf_syms *s, const char *name);

/*
 * The global functions, in order of name (a name once): from *pos (0 at
 * first, advanced past the one returned), the next one's name, its file
 * offset in *off; NULL past the last. For probing every exported function
 * of a library whose names follow a pattern.
 */
const char *elf_syms_next_global(const struct elf_syms *s, size_t *pos, unsigned long *off);

/*
 * The function containing file offset `off`, or NULL; *delta is the
 * distance from its start.
 */
const char *elf_syms_at(const struct elf_syms *s, unsigned long off, unsigned long *delta);

/* One line of /proc/PID/maps that maps a file. */
struct proc_map {
	unsigned long start, end, pgoff;
	unsigned long inode;
	bool exec;
	char *path;
};

/*
 * The file mappings of process `pid`, in address order.  Returns 0 or a
 * negative errno (-ESRCH: no such process).  Free with proc_maps_free().
 */
int proc_maps_read(pid_t pid, struct proc_map **maps, size_t *n);
void proc_maps_free(struct proc_map *maps, size_t n);

/*
 * A path this process can open for a file `pid` has mapped: the path
 * itself when it is the same file here, else through /proc/PID/root (the
 * target lives in another mount namespace, e.g. a container).
 */
void proc_map_open_path(pid_t pid, const struct proc_map *m, char *buf, size_t size);

/*
 * Libraries whose file name starts with `prefix` ("libcuda.so.1",
 * "libcudart.so."): the ld.so cache first, then `dirs` (NULL-terminated),
 * each real file once.  Returns how many were written to out[0..max).
 */
int find_libraries(const char *prefix, const char *const *dirs, char (*out)[PATH_MAX],
		   int max);

/* Real path and identity of a file, to tell two names of one file apart. */
bool same_file(const char *a, const char *b);

/*
 * A symbolizer for addresses in processes: caches each process's maps and
 * each file's symbols.  A process's maps are read on first use and again
 * when an address is not found (it loaded a library since); forget a
 * process when it is gone.
 */
struct syms_cache;

struct syms_cache *syms_cache_new(void);
void syms_cache_free(struct syms_cache *c);
/* Read (or re-read) the maps of `pid` now, while it is alive. */
int syms_cache_load(struct syms_cache *c, pid_t pid);
void syms_cache_forget(struct syms_cache *c, pid_t pid);

/*
 * The function containing `addr` in process `pid`, or NULL; *delta is the
 * offset into it, *file (optional) the object's path.
 */
const char *syms_cache_resolve(struct syms_cache *c, pid_t pid, unsigned long addr,
			       unsigned long *delta, const char **file);

/*
 * Many uprobes as one link (BPF_TRACE_UPROBE_MULTI, Linux >= 6.6, once its
 * PID filter matched whole processes rather than one thread).  Besides
 * fewer file descriptors, this matters at exit: each perf-event uprobe
 * waits for an RCU grace period when detached, under a global mutex, so a
 * hundred of them take ~10 s to go; a multi link pays that once.
 */
#define UPROBE_MULTI_ATTACH_TYPE	48	/* BPF_TRACE_UPROBE_MULTI */

/* Multi-uprobe links with process-wide PID filtering, probed as libbpf does. */
bool uprobe_multi_supported(void);

/*
 * Attach `prog_fd` (loaded with expected_attach_type
 * UPROBE_MULTI_ATTACH_TYPE) to `cnt` file offsets of `path`, each with its
 * BPF cookie; return probes with `retprobe`; only in process `pid` when
 * nonzero.  Returns the link's fd, or a negative errno.
 */
int uprobe_multi_attach(int prog_fd, const char *path, const unsigned long *offsets,
			const unsigned long long *cookies, unsigned int cnt, bool retprobe, pid_t pid);

#endif /* GPU_BPF_UPROBE_HELPERS_H */
