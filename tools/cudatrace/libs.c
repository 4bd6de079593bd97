// SPDX-License-Identifier: GPL-2.0
/* Finding the CUDA libraries and their functions (libs.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cudatrace/libs.h"
#include "untrusted.h"
#include "uprobe_helpers.h"

static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64",
	"/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib",
	"/usr/lib/wsl/lib", "/usr/local/nvidia/lib64", NULL,
};

static void note(struct cuda_libs *libs, const char *fmt, const char *a, const char *b)
{
	if (libs->nr_notes < (int)(sizeof(libs->notes) / sizeof(libs->notes[0])))
		snprintf(libs->notes[libs->nr_notes++], sizeof(libs->notes[0]), fmt, a, b);
}

static struct target *add_target(struct cuda_libs *libs, const char *path, const char *name,
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

/* What a library's file name says it is: libcuda.so* or libcudart.so*. */
static int lib_api(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (!strncmp(base, "libcuda.so", 10))
		return API_DRIVER;
	if (!strncmp(base, "libcudart.so", 12))
		return API_RUNTIME;
	return -1;
}

/* The libraries on this system, as ld.so would find them for a new process. */
static int search_system(struct cuda_libs *libs, enum api api, const char **first)
{
	char found[MAX_TARGETS][PATH_MAX];
	struct target *t;
	int n, i;

	n = find_libraries(api == API_DRIVER ? "libcuda.so.1" : "libcudart.so", lib_dirs,
			   found, MAX_TARGETS);
	for (i = 0; i < n; i++) {
		t = add_target(libs, found[i], found[i], api, false);
		if (t && first && i == 0)
			*first = t->name;
	}
	return n;
}

/* An executable with the runtime linked in statically exports its functions. */
static bool has_static_cudart(const char *path)
{
	struct elf_syms *s;
	bool found;

	if (elf_syms_load(path, &s))
		return false;
	found = elf_syms_offset(s, "cudaMalloc") >= 0;
	elf_syms_free(s);
	return found;
}

/*
 * The API a process's mapping provides: a libcuda.so* or libcudart.so*,
 * or (when `runtime` is wanted and none was found yet) the executable
 * with cudart linked in.  -1: none.
 */
static int map_api(const struct proc_map *m, const char *exe, const char *open_path,
		   bool runtime, bool have_runtime)
{
	int api = lib_api(m->path);

	if (api >= 0 || !runtime)
		return api;
	if (!m->exec || strcmp(m->path, exe) || have_runtime || !has_static_cudart(open_path))
		return -1;
	return API_RUNTIME;
}

/* The CUDA libraries process `pid` has mapped, and its executable (static cudart). */
static int search_process(struct cuda_libs *libs, pid_t pid)
{
	char exe[PATH_MAX], link[64], open_path[PATH_MAX + 64], pidstr[16];
	bool have[NR_APIS] = {}, runtime = libs->want.runtime;
	const char *sys = NULL;
	struct proc_map *maps;
	ssize_t len;
	size_t n, i;
	int err, api, nr_rt = 0, first_rt = -1;

	err = proc_maps_read(pid, &maps, &n);
	if (err) {
		fprintf(stderr, "cudatrace: cannot read /proc/%d/maps: %s\n", pid, strerror(-err));
		return err;
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	len = readlink(link, exe, sizeof(exe) - 1);
	exe[len > 0 ? len : 0] = '\0';

	/*
	 * A process with the runtime and no driver mapped calls the runtime
	 * API: it has made no CUDA call yet (the runtime loads libcuda at its
	 * first), or there is no driver to load.  Its calls are the runtime's,
	 * so those are traced, as with -r, whatever the system may have.
	 */
	for (i = 0; i < n && !runtime; i++)
		have[API_DRIVER] |= lib_api(maps[i].path) == API_DRIVER;
	runtime |= !have[API_DRIVER];

	for (i = 0; i < n; i++) {
		if (lib_api(maps[i].path) == API_RUNTIME && !runtime)
			continue;
		proc_map_open_path(pid, &maps[i], open_path, sizeof(open_path));
		api = map_api(&maps[i], exe, open_path, runtime, have[API_RUNTIME]);
		if (api < 0)
			continue;
		if (add_target(libs, open_path, maps[i].path, api, false))
			have[api] = true;
	}
	proc_maps_free(maps, n);
	for (i = 0; i < (size_t)libs->nr_targets; i++) {
		if (!libs->targets[i].api[API_RUNTIME])
			continue;
		if (!nr_rt++)
			first_rt = i;
	}

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	if (!libs->want.runtime && nr_rt) {
		libs->runtime_fallback = true;
		note(libs, nr_rt > 1 ? "cudatrace: PID %s has no libcuda mapped; tracing the runtime "
				       "API in %s and its other libcudart (as with -r)"
				     : "cudatrace: PID %s has no libcuda mapped; tracing the runtime "
				       "API in %s (as with -r)", pidstr, libs->targets[first_rt].name);
	}
	/* Not loaded yet (cudart loads libcuda at its first call): the system's. */
	if (!have[API_DRIVER] && search_system(libs, API_DRIVER, &sys))
		note(libs, "cudatrace: PID %s has no libcuda mapped yet: probing %s, the system's",
		     pidstr, sys);
	if (libs->want.runtime && !have[API_RUNTIME] && search_system(libs, API_RUNTIME, &sys))
		note(libs, "cudatrace: PID %s has no libcudart mapped: probing %s, the system's",
		     pidstr, sys);
	return 0;
}

/*
 * The runtime's functions that return no cudaError_t (cuda_runtime_api.h;
 * every driver function returns a CUresult): not counted, their "result"
 * would be a pointer or a struct. tests/host/cudatrace.sh holds the list
 * against the toolkit's header.
 */
static const char *const no_result[] = { "cudaCreateChannelDesc", "cudaGetErrorName",
					  "cudaGetErrorString" };

/* An exported function of the API's: cuXxx for the driver, cudaXxx for the runtime. */
static bool api_name(const char *name, enum api api)
{
	const char *rest = api == API_RUNTIME ? "cuda" : "cu";
	size_t i, n = strlen(rest);

	if (strncmp(name, rest, n) || name[n] < 'A' || name[n] > 'Z')
		return false;
	for (i = 0; i < sizeof(no_result) / sizeof(no_result[0]); i++)
		if (!strcmp(name, no_result[i]))
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

/* cuMemGetInfo_v2, cuMemcpy_v2_ptds: a version suffix (cuda.h maps the plain name to it). */
static bool versioned(const char *name)
{
	const char *v = strstr(name, "_v");

	return v && v[2] >= '0' && v[2] <= '9';
}

/*
 * The target's other exported functions of its APIs: probed (an id each)
 * when every one is wanted or a -f pattern matches, else only counted. One
 * at an offset already probed (an alias) is not probed twice: the versioned
 * names are taken first (pass 0), so an alias pair is named as cuda.h
 * names it.
 */
static void add_exported_pass(const struct cuda_libs *libs, struct target *t, int pass)
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
		for (i = 0; i < NR_FUNCS && strcmp(cuda_funcs[i].name, name); i++)
			;
		if (i < NR_FUNCS || offset_taken(t, (long)off))
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
static int resolve_target(const struct cuda_libs *libs, struct target *t)
{
	bool runtime = libs->want.runtime;
	int err, i;

	err = elf_syms_load(t->path, &t->syms);
	if (err) {
		if (t->given)
			fprintf(stderr, "cudatrace: %s: %s\n", t->name, elf_syms_strerror(err));
		return err;
	}
	for (i = 0; i < MAX_FUNCS; i++)
		t->off[i] = -1;
	for (i = 0; i < NR_FUNCS; i++) {
		if (!t->api[cuda_funcs[i].api])
			continue;
		t->off[i] = elf_syms_offset(t->syms, cuda_funcs[i].name);
		if (t->off[i] >= 0)
			t->found[cuda_funcs[i].api]++;
	}
	if (t->found[API_DRIVER] || t->found[API_RUNTIME]) {
		add_exported_pass(libs, t, 0);
		add_exported_pass(libs, t, 1);
	}
	if (t->given && !t->found[API_DRIVER] && !t->found[API_RUNTIME]) {
		if (!runtime && elf_syms_offset(t->syms, "cudaMalloc") >= 0)
			fprintf(stderr, "cudatrace: %s: no CUDA driver API symbols, but runtime API "
				"ones: add --runtime\n", t->name);
		else
			fprintf(stderr, "cudatrace: %s: no CUDA %s symbols (cuMemAlloc_v2, "
				"cuLaunchKernel%s, ...)\n", t->name,
				runtime ? "driver or runtime API" : "driver API",
				runtime ? ", cudaMalloc" : "");
		return -ENOENT;
	}
	return 0;
}

int find_libs(struct cuda_libs *libs, const struct lib_search *want)
{
	int i, nr_found = 0, api;

	libs->want = *want;
	if (want->nr_libs) {
		for (i = 0; i < want->nr_libs; i++) {
			if (access(want->libs[i], R_OK)) {
				fprintf(stderr, "cudatrace: %s: %s\n", want->libs[i], strerror(errno));
				return -errno;
			}
			add_target(libs, want->libs[i], want->libs[i], API_DRIVER, true);
			if (want->runtime)
				add_target(libs, want->libs[i], want->libs[i], API_RUNTIME, true);
		}
	} else if (want->pid) {
		if (search_process(libs, want->pid))
			return -1;
	} else {
		search_system(libs, API_DRIVER, NULL);
		if (want->runtime)
			search_system(libs, API_RUNTIME, NULL);
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
		fprintf(stderr, "cudatrace: PID %d has no CUDA library mapped (libcuda.so*, "
			"libcudart.so*) and none was found in the ld.so cache or the usual "
			"directories: use --lib PATH\n", want->pid);
	else
		fprintf(stderr, "cudatrace: no libcuda.so.1%s in the ld.so cache or the usual "
			"directories (is the NVIDIA driver installed?): use --lib PATH or -p PID\n",
			want->runtime ? " or libcudart.so" : "");
	return -1;
}

void print_libs(const struct cuda_libs *libs, bool verbose)
{
	int i, j, api, driver = 0;

	for (i = 0; i < libs->nr_targets; i++) {
		const struct target *t = &libs->targets[i];

		driver += t->found[API_DRIVER];
		for (api = 0; api < NR_APIS; api++) {
			if (!t->found[api])
				continue;
			fprintf(stderr, "cudatrace: %s in %s: %d functions:", api_names[api], t->name,
				t->found[api]);
			for (j = 0; j < NR_FUNCS; j++)
				if (cuda_funcs[j].api == (enum api)api && t->off[j] >= 0)
					fprintf(stderr, " %s", cuda_funcs[j].name);
			if (t->added[api])
				fprintf(stderr, "; %d more counted", t->added[api]);
			if (t->unprobed[api])
				fprintf(stderr, "; %d more exported, not probed (-f PATTERN probes them)",
					t->unprobed[api]);
			fputc('\n', stderr);
			if (verbose && t->added[api]) {
				fprintf(stderr, "cudatrace: %s: also:", t->name);
				for (j = NR_FUNCS; j < nr_funcs(); j++)
					if (func_info(j)->api == (enum api)api && t->off[j] >= 0)
						fprintf(stderr, " %s", func_name(j));
				fputc('\n', stderr);
			}
			/* Libraries of other versions lack some as a rule: not worth a line each start. */
			if (t->found[api] == nr_funcs_of(api) || !verbose)
				continue;
			fprintf(stderr, "cudatrace: %s lacks:", t->name);
			for (j = 0; j < NR_FUNCS; j++)
				if (cuda_funcs[j].api == (enum api)api && t->off[j] < 0)
					fprintf(stderr, " %s", cuda_funcs[j].name);
			fputc('\n', stderr);
		}
	}
	for (i = 0; i < libs->nr_notes; i++)
		fprintf(stderr, "%s\n", libs->notes[i]);
	/* (A runtime fallback's note said it already.) */
	if (!driver && !libs->want.nr_libs && !libs->runtime_fallback)
		fprintf(stderr, "cudatrace: no libcuda found: tracing the runtime API only\n");
}

void free_libs(struct cuda_libs *libs)
{
	int i;

	for (i = 0; i < libs->nr_targets; i++) {
		elf_syms_free(libs->targets[i].syms);
		libs->targets[i].syms = NULL;
	}
}
