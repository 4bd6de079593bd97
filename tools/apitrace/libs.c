// SPDX-License-Identifier: GPL-2.0
/* Finding the family's libraries and their functions (libs.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apitrace/funcs.h"
#include "apitrace/libs.h"
#include "untrusted.h"
#include "uprobe_helpers.h"

/* "CUDA driver API", "CUDA driver or runtime API" (both), "OpenCL" (a family of one). */
static const char *api_what(bool both, char *buf, size_t size)
{
	const struct api_lib *l = family->libs;

	if (!l[API_PRIMARY].kind)
		return family->family;
	if (both)
		snprintf(buf, size, "%s %s or %s API", family->family, l[API_PRIMARY].kind,
			 l[API_SECONDARY].kind);
	else
		snprintf(buf, size, "%s %s API", family->family, l[API_PRIMARY].kind);
	return buf;
}

/* The family has a secondary library (CUDA's runtime). */
static bool has_secondary(void)
{
	return family->nr_libs > API_SECONDARY;
}

static void note(struct api_libs *libs, const char *fmt, const char *a, const char *b)
{
	if (libs->nr_notes < (int)(sizeof(libs->notes) / sizeof(libs->notes[0])))
		snprintf(libs->notes[libs->nr_notes++], sizeof(libs->notes[0]), fmt, a, b);
}

static struct target *add_target(struct api_libs *libs, const char *path, const char *name,
				 enum api api, bool given)
{
	struct target *t;
	int i;

	for (i = 0; i < libs->nr_targets; i++) {
		if (same_file(libs->targets[i].path, path)) {
			libs->targets[i].api[api] = true;
			libs->targets[i].given |= given;
			return &libs->targets[i];
		}
	}
	if (libs->nr_targets == MAX_TARGETS)
		return NULL;
	t = &libs->targets[libs->nr_targets++];
	snprintf(t->path, sizeof(t->path), "%s", path);
	/* A process's maps name any file it mapped: its path may hold any byte. */
	text_escape(t->name, sizeof(t->name), name, strlen(name), true);
	t->api[api] = true;
	t->given = given;
	return t;
}

/* What a library's file name says it is: libcuda.so* (the primary), libcudart.so*. */
static int lib_api(const char *path)
{
	const char *base = strrchr(path, '/');
	int api;

	base = base ? base + 1 : path;
	for (api = 0; api < family->nr_libs; api++) {
		const char *prefix = family->libs[api].file_prefix;

		if (!strncmp(base, prefix, strlen(prefix)))
			return api;
	}
	return -1;
}

/* The libraries on this system, as ld.so would find them for a new process. */
static int search_system(struct api_libs *libs, enum api api, const char **first)
{
	char found[MAX_TARGETS][PATH_MAX];
	struct target *t;
	int n, i;

	n = find_libraries(family->libs[api].soname, family->lib_dirs, found, MAX_TARGETS);
	for (i = 0; i < n; i++) {
		t = add_target(libs, found[i], found[i], api, false);
		if (t && first && i == 0)
			*first = t->name;
	}
	return n;
}

/* An executable with the secondary library linked in statically exports its functions. */
static bool has_static_secondary(const char *path)
{
	const char *marker = family->libs[API_SECONDARY].static_marker;
	struct elf_syms *s;
	bool found;

	if (!marker || elf_syms_load(path, &s))
		return false;
	found = elf_syms_offset(s, marker) >= 0;
	elf_syms_free(s);
	return found;
}

/*
 * The API a process's mapping provides: one of the family's libraries, or
 * (when the secondary is wanted and none was found yet) the executable with
 * it linked in (cudart).  -1: none.
 */
static int map_api(const struct proc_map *m, const char *exe, const char *open_path,
		   bool secondary, bool have_secondary)
{
	int api = lib_api(m->path);

	if (api >= 0 || !secondary)
		return api;
	if (!m->exec || strcmp(m->path, exe) || have_secondary || !has_static_secondary(open_path))
		return -1;
	return API_SECONDARY;
}

/* The family's libraries process `pid` has mapped, and its executable (a static secondary). */
static int search_process(struct api_libs *libs, pid_t pid)
{
	const struct api_lib *l = family->libs;
	char exe[PATH_MAX], link[64], open_path[PATH_MAX + 64], pidstr[16], fmt[256];
	bool have[NR_APIS] = {}, secondary = libs->want.secondary;
	const char *sys = NULL, *tool = family->tool;
	struct proc_map *maps;
	ssize_t len;
	size_t n, i;
	int err, api, nr_sec = 0, first_sec = -1;

	err = proc_maps_read(pid, &maps, &n);
	if (err) {
		fprintf(stderr, "%s: cannot read /proc/%d/maps: %s\n", tool, pid, strerror(-err));
		return err;
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	len = readlink(link, exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = '\0';

	/*
	 * A process with the secondary library and not the primary mapped
	 * calls the secondary's API: CUDA's runtime loads libcuda at its first
	 * call, or there is no driver to load.  Its calls are the runtime's, so
	 * those are traced, as with -r, whatever the system may have.
	 */
	for (i = 0; i < n && !secondary && has_secondary(); i++)
		have[API_PRIMARY] |= lib_api(maps[i].path) == API_PRIMARY;
	secondary |= has_secondary() && !have[API_PRIMARY];

	for (i = 0; i < n; i++) {
		if (lib_api(maps[i].path) == API_SECONDARY && !secondary)
			continue;
		proc_map_open_path(pid, &maps[i], open_path, sizeof(open_path));
		api = map_api(&maps[i], exe, open_path, secondary, have[API_SECONDARY]);
		if (api < 0)
			continue;
		if (add_target(libs, open_path, maps[i].path, api, false))
			have[api] = true;
	}
	proc_maps_free(maps, n);
	for (i = 0; i < (size_t)libs->nr_targets; i++) {
		if (!libs->targets[i].api[API_SECONDARY])
			continue;
		if (!nr_sec++)
			first_sec = i;
	}

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	if (!libs->want.secondary && nr_sec) {
		libs->secondary_fallback = true;
		snprintf(fmt, sizeof(fmt), "%s: PID %%s has no %s mapped; tracing the %s API in %%s%s%s "
			 "(as with -R)", tool, l[API_PRIMARY].short_name, l[API_SECONDARY].kind,
			 nr_sec > 1 ? " and its other " : "", nr_sec > 1 ? l[API_SECONDARY].short_name : "");
		note(libs, fmt, pidstr, libs->targets[first_sec].name);
	}
	/* Not loaded yet (cudart loads libcuda at its first call): the system's. */
	if (!have[API_PRIMARY] && search_system(libs, API_PRIMARY, &sys)) {
		snprintf(fmt, sizeof(fmt), "%s: PID %%s has no %s mapped yet: probing %%s, the system's",
			 tool, l[API_PRIMARY].short_name);
		note(libs, fmt, pidstr, sys);
	}
	if (libs->want.secondary && !have[API_SECONDARY] && search_system(libs, API_SECONDARY, &sys)) {
		snprintf(fmt, sizeof(fmt), "%s: PID %%s has no %s mapped: probing %%s, the system's",
			 tool, l[API_SECONDARY].short_name);
		note(libs, fmt, pidstr, sys);
	}
	return 0;
}

/* An exported function of the API's: cuXxx for CUDA's driver, cudaXxx for its runtime. */
static bool api_name(const char *name, enum api api)
{
	const struct api_lib *l = &family->libs[api];
	size_t n = strlen(l->sym_prefix);
	int i;

	if (strncmp(name, l->sym_prefix, n) || name[n] < 'A' || name[n] > 'Z')
		return false;
	for (i = 0; i < l->nr_no_result; i++)
		if (!fnmatch(l->no_result[i], name, 0))
			return false;
	return true;
}

static bool offset_taken(const struct target *t, long off)
{
	int i;

	for (i = 0; i < nr_funcs(); i++)
		if (t->off[i] == off)
			return true;
	return false;
}

/* A name the family versions (cuMemAlloc_v2): it names an alias pair. */
static bool versioned(const char *name)
{
	return family->versioned && family->versioned(name);
}

/*
 * The target's other exported functions of its APIs: probed (an id each)
 * when every one is wanted or a -f pattern matches, else only counted. One
 * at an offset already probed (an alias) is not probed twice: the versioned
 * names are taken first (pass 0), so an alias pair is named as the API's
 * header names it (cuda.h: cuMemAlloc_v2).
 */
static void add_exported_pass(const struct api_libs *libs, struct target *t, int pass)
{
	const char *name;
	unsigned long off;
	size_t pos = 0;
	int api, id, i;
	bool want;

	while ((name = elf_syms_next_global(t->syms, &pos, &off))) {
		for (api = 0; api < NR_APIS; api++)
			if (t->api[api] && api_name(name, api))
				break;
		if (api == NR_APIS || versioned(name) != (pass == 0))
			continue;
		for (i = 0; i < family->nr_funcs && strcmp(family->funcs[i].name, name); i++)
			;
		if (i < family->nr_funcs || offset_taken(t, (long)off))
			continue;
		want = libs->want.every_exported;
		for (i = 0; i < libs->want.nr_patterns && !want; i++)
			want = !fnmatch(libs->want.patterns[i], name, 0);
		id = want ? func_add(name, api) : -1;
		if (id < 0) {
			t->unprobed[api]++;
			continue;
		}
		t->off[id] = (long)off;
		t->added[api]++;
	}
}

/* Look up every function of the target's APIs; the one-line reason on failure. */
static int resolve_target(const struct api_libs *libs, struct target *t)
{
	const struct api_lib *l = family->libs;
	bool secondary = libs->want.secondary;
	char what[64];
	int err, i;

	err = elf_syms_load(t->path, &t->syms);
	if (err) {
		if (t->given)
			fprintf(stderr, "%s: %s: %s\n", family->tool, t->name, elf_syms_strerror(err));
		return err;
	}
	for (i = 0; i < MAX_FUNCS; i++)
		t->off[i] = -1;
	for (i = 0; i < family->nr_funcs; i++) {
		const struct api_func *f = &family->funcs[i];

		if (!t->api[f->api])
			continue;
		t->off[i] = elf_syms_offset(t->syms, f->name);
		if (t->off[i] >= 0)
			t->found[f->api]++;
	}
	if (t->found[API_PRIMARY] || t->found[API_SECONDARY]) {
		add_exported_pass(libs, t, 0);
		add_exported_pass(libs, t, 1);
	}
	if (t->given && !t->found[API_PRIMARY] && !t->found[API_SECONDARY]) {
		if (has_secondary() && !secondary && l[API_SECONDARY].static_marker &&
		    elf_syms_offset(t->syms, l[API_SECONDARY].static_marker) >= 0)
			fprintf(stderr, "%s: %s: no %s symbols, but %s API ones: add --runtime\n",
				family->tool, t->name, api_what(false, what, sizeof(what)),
				l[API_SECONDARY].kind);
		else
			fprintf(stderr, "%s: %s: no %s symbols (%s%s%s, ...)\n", family->tool, t->name,
				api_what(secondary, what, sizeof(what)), family->examples,
				secondary ? ", " : "", secondary ? l[API_SECONDARY].static_marker : "");
		return -ENOENT;
	}
	return 0;
}

int find_libs(struct api_libs *libs, const struct lib_search *want)
{
	const struct api_lib *l = family->libs;
	int i, nr_found = 0, api;

	libs->want = *want;
	if (want->nr_libs) {
		for (i = 0; i < want->nr_libs; i++) {
			if (access(want->libs[i], R_OK)) {
				fprintf(stderr, "%s: %s: %s\n", family->tool, want->libs[i],
					strerror(errno));
				return -errno;
			}
			add_target(libs, want->libs[i], want->libs[i], API_PRIMARY, true);
			if (want->secondary)
				add_target(libs, want->libs[i], want->libs[i], API_SECONDARY, true);
		}
	} else if (want->pid) {
		if (search_process(libs, want->pid))
			return -1;
	} else {
		search_system(libs, API_PRIMARY, NULL);
		if (want->secondary)
			search_system(libs, API_SECONDARY, NULL);
	}
	for (i = 0; i < libs->nr_targets; i++) {
		if (resolve_target(libs, &libs->targets[i]) && libs->targets[i].given)
			return -1;
		for (api = 0; api < NR_APIS; api++)
			nr_found += libs->targets[i].found[api];
	}
	if (nr_found)
		return 0;
	if (want->pid)
		fprintf(stderr, "%s: PID %d has no %s library mapped (%s*%s%s%s) and none was found "
			"in the ld.so cache or the usual directories: use --lib PATH\n", family->tool,
			want->pid, family->family, l[API_PRIMARY].file_prefix,
			has_secondary() ? ", " : "", has_secondary() ? l[API_SECONDARY].file_prefix : "",
			has_secondary() ? "*" : "");
	else
		fprintf(stderr, "%s: no %s%s%s in the ld.so cache or the usual directories (%s): "
			"use --lib PATH or -p PID\n", family->tool, l[API_PRIMARY].soname,
			want->secondary ? " or " : "", want->secondary ? l[API_SECONDARY].soname : "",
			family->install_hint);
	return -1;
}

/* "driver API" (one of two), or the family's name (a family of one). */
static const char *lib_label(enum api api, char *buf, size_t size)
{
	if (!family->libs[api].kind)
		return family->family;
	snprintf(buf, size, "%s API", family->libs[api].kind);
	return buf;
}

void print_libs(const struct api_libs *libs, bool verbose)
{
	const char *tool = family->tool;
	int i, j, api, primary = 0;
	char label[64];

	for (i = 0; i < libs->nr_targets; i++) {
		const struct target *t = &libs->targets[i];

		primary += t->found[API_PRIMARY];
		for (api = 0; api < NR_APIS; api++) {
			if (!t->found[api])
				continue;
			fprintf(stderr, "%s: %s in %s: %d functions:", tool,
				lib_label(api, label, sizeof(label)), t->name, t->found[api]);
			for (j = 0; j < family->nr_funcs; j++)
				if (family->funcs[j].api == (enum api)api && t->off[j] >= 0)
					fprintf(stderr, " %s", family->funcs[j].name);
			if (t->added[api])
				fprintf(stderr, "; %d more counted", t->added[api]);
			if (t->unprobed[api])
				fprintf(stderr, "; %d more exported, not probed (-f PATTERN probes them)",
					t->unprobed[api]);
			fputc('\n', stderr);
			if (verbose && t->added[api]) {
				fprintf(stderr, "%s: %s: also:", tool, t->name);
				for (j = family->nr_funcs; j < nr_funcs(); j++)
					if (func_info(j)->api == (enum api)api && t->off[j] >= 0)
						fprintf(stderr, " %s", func_name(j));
				fputc('\n', stderr);
			}
			/* Libraries of other versions lack some as a rule: not worth a line each start. */
			if (t->found[api] == nr_funcs_of(api) || !verbose)
				continue;
			fprintf(stderr, "%s: %s lacks:", tool, t->name);
			for (j = 0; j < family->nr_funcs; j++)
				if (family->funcs[j].api == (enum api)api && t->off[j] < 0)
					fprintf(stderr, " %s", family->funcs[j].name);
			fputc('\n', stderr);
		}
	}
	for (i = 0; i < libs->nr_notes; i++)
		fprintf(stderr, "%s\n", libs->notes[i]);
	/* (A fallback's note said it already.) */
	if (has_secondary() && !primary && !libs->want.nr_libs && !libs->secondary_fallback)
		fprintf(stderr, "%s: no %s found: tracing the %s API only\n", tool,
			family->libs[API_PRIMARY].short_name, family->libs[API_SECONDARY].kind);
}

void free_libs(struct api_libs *libs)
{
	int i;

	for (i = 0; i < libs->nr_targets; i++) {
		elf_syms_free(libs->targets[i].syms);
		libs->targets[i].syms = NULL;
	}
}
