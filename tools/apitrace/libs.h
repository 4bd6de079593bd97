/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Finding the files to probe: the family's libraries a process has mapped
 * (-p) and its secondary library linked statically into its executable
 * (cudart), the system's as ld.so would find them for a new process, or the
 * files given with --lib; and in each, the file offsets of the family's
 * known functions and of the other functions of its APIs it exports (cu*,
 * cuda*) that are wanted.
 */
#ifndef APITRACE_LIBS_H
#define APITRACE_LIBS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "apitrace/api.h"

#define MAX_LIBS	8	/* --lib */
#define MAX_PATTERNS	16	/* -f */
#define MAX_TARGETS	16	/* files probed */

/* What to look for. */
struct lib_search {
	pid_t pid;			/* -p: in its mappings first; 0: system-wide */
	bool secondary;			/* -r: the secondary library's API too (CUDA's runtime) */
	const char *const *libs;	/* --lib: these files, nothing else */
	int nr_libs;
	bool every_exported;		/* every exported function of the APIs, not
					   only funcs.h's (multi-uprobe links) */
	const char *const *patterns;	/* -f: and the exported ones these match */
	int nr_patterns;
};

/* A file to probe: a library, or an executable with one linked in (cudart). */
struct target {
	char path[PATH_MAX + 64];	/* opened and probed */
	char name[PATH_MAX];		/* as the user or the process names it, for
					   messages: escaped (untrusted.h) */
	bool api[NR_APIS];		/* which functions to look for */
	bool given;			/* --lib: problems are errors */
	struct elf_syms *syms;
	long off[MAX_FUNCS];		/* file offsets by function id, -1: absent */
	int found[NR_APIS];		/* the family's known functions it has */
	int added[NR_APIS];		/* other exported ones probed (func_add) */
	int unprobed[NR_APIS];		/* other exported ones not probed (no -f) */
};

struct api_libs {
	struct lib_search want;
	struct target targets[MAX_TARGETS];
	int nr_targets;
	char notes[4][PATH_MAX + 160];	/* said after attaching */
	int nr_notes;
	bool secondary_fallback;	/* -p: no primary mapped, the secondary traced instead */
};

/*
 * Find the files and their functions. 0, or -1 when there is nothing to
 * probe or a --lib file will not do, after saying why on stderr.
 */
int find_libs(struct api_libs *libs, const struct lib_search *want);

/* On stderr: which files and functions are probed, the notes; with verbose (-v), what each lacks. */
void print_libs(const struct api_libs *libs, bool verbose);

void free_libs(struct api_libs *libs);

#endif /* APITRACE_LIBS_H */
