// SPDX-License-Identifier: GPL-2.0
/*
 * cudatrace - the CUDA API seen through uprobes: calls, latencies, errors,
 * kernel launches and leaked allocations.
 *
 * Probes the driver API in libcuda (and with -r the runtime API in
 * libcudart, shared or linked into the executable) where the traced
 * process really has it mapped, every exported version of each function
 * (cuMemAlloc_v2 and the legacy cuMemAlloc, cuLaunchKernel_ptsz, ...).
 * The kernel side decodes the arguments and results and aggregates them
 * in maps; per-call lines are produced only with -e / -E.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "cudatrace/cuda_errors.h"
#include "cudatrace.h"
#include "cudatrace.skel.h"
#include "trace_loop.h"
#include "histogram.h"
#include "maps.h"
#include "opts.h"
#include "output.h"
#include "runtime.h"
#include "tool.h"
#include "uprobe_helpers.h"

#define MAX_LIBS	8	/* --lib */
#define MAX_TARGETS	16	/* files probed */

static struct env {
	bool events;
	bool errors;
	bool leaks;
	bool stacks;
	bool runtime;
	const char *libs[MAX_LIBS];
	int nr_libs;
} env;

/* The two APIs, in different libraries, with different result tables. */
enum api { API_DRIVER, API_RUNTIME, NR_APIS };

static const char *const api_names[NR_APIS] = { "driver API", "runtime API" };

/*
 * Every symbol probed, by API.  cuda.h maps each driver function to its
 * newest version (cuMemAlloc -> cuMemAlloc_v2) and, with per-thread
 * default streams, to _ptds / _ptsz variants; the unversioned names are
 * still exported for old binaries, with 32-bit sizes and device pointers
 * (CUdeviceptr_v1) where the _v2 takes size_t.  A function's id is its
 * index here.
 */
struct cuda_func {
	const char *name;
	enum api api;
	__u8 cls;
	__u8 flags;
	__u8 stream_arg;	/* 1-based index of a stream argument, 0: none */
};

#define D(name, cls, flags, stream) { name, API_DRIVER, cls, flags, stream }
#define R(name, cls, flags, stream) { name, API_RUNTIME, cls, (flags) | CF_RUNTIME, stream }
#define V1 (CF_SIZE32 | CF_PTR32)

static const struct cuda_func funcs[] = {
	D("cuMemAlloc_v2", CL_ALLOC, 0, 0),
	D("cuMemAlloc", CL_ALLOC, V1, 0),
	D("cuMemAllocManaged", CL_ALLOC, 0, 0),
	D("cuMemAllocHost_v2", CL_ALLOC, 0, 0),
	D("cuMemAllocHost", CL_ALLOC, CF_SIZE32, 0),
	D("cuMemAllocAsync", CL_ALLOC, 0, 3),
	D("cuMemAllocAsync_ptsz", CL_ALLOC, 0, 3),
	D("cuMemFree_v2", CL_FREE, 0, 0),
	D("cuMemFree", CL_FREE, CF_PTR32, 0),
	D("cuMemFreeHost", CL_FREE, 0, 0),
	D("cuMemFreeAsync", CL_FREE, 0, 2),
	D("cuMemFreeAsync_ptsz", CL_FREE, 0, 2),
	D("cuMemcpyHtoD_v2", CL_COPY, 0, 0),
	D("cuMemcpyHtoD_v2_ptds", CL_COPY, 0, 0),
	D("cuMemcpyHtoD", CL_COPY, V1, 0),
	D("cuMemcpyDtoH_v2", CL_COPY, 0, 0),
	D("cuMemcpyDtoH_v2_ptds", CL_COPY, 0, 0),
	D("cuMemcpyDtoH", CL_COPY, V1, 0),
	D("cuMemcpyDtoD_v2", CL_COPY, 0, 0),
	D("cuMemcpyDtoD_v2_ptds", CL_COPY, 0, 0),
	D("cuMemcpyDtoD", CL_COPY, V1, 0),
	D("cuMemcpyHtoDAsync_v2", CL_COPY, 0, 4),
	D("cuMemcpyHtoDAsync_v2_ptsz", CL_COPY, 0, 4),
	D("cuMemcpyHtoDAsync", CL_COPY, V1, 4),
	D("cuMemcpyDtoHAsync_v2", CL_COPY, 0, 4),
	D("cuMemcpyDtoHAsync_v2_ptsz", CL_COPY, 0, 4),
	D("cuMemcpyDtoHAsync", CL_COPY, V1, 4),
	D("cuMemcpyDtoDAsync_v2", CL_COPY, 0, 4),
	D("cuMemcpyDtoDAsync_v2_ptsz", CL_COPY, 0, 4),
	D("cuMemcpyDtoDAsync", CL_COPY, V1, 4),
	D("cuLaunchKernel", CL_LAUNCH, 0, 0),
	D("cuLaunchKernel_ptsz", CL_LAUNCH, 0, 0),
	D("cuLaunchKernelEx", CL_LAUNCH_EX, 0, 0),
	D("cuLaunchKernelEx_ptsz", CL_LAUNCH_EX, 0, 0),
	D("cuLaunchCooperativeKernel", CL_LAUNCH, 0, 0),
	D("cuLaunchCooperativeKernel_ptsz", CL_LAUNCH, 0, 0),
	D("cuModuleGetFunction", CL_GET_FUNC, 0, 0),
	D("cuLibraryGetKernel", CL_GET_FUNC, 0, 0),
	D("cuStreamCreate", CL_STREAM_CREATE, 0, 0),
	D("cuStreamDestroy_v2", CL_STREAM, 0, 1),
	D("cuStreamDestroy", CL_STREAM, 0, 1),
	D("cuStreamSynchronize", CL_STREAM, 0, 1),
	D("cuStreamSynchronize_ptsz", CL_STREAM, 0, 1),
	D("cuCtxSynchronize", CL_SYNC, 0, 0),
	D("cuCtxSynchronize_v2", CL_SYNC, 0, 0),
	R("cudaMalloc", CL_ALLOC, 0, 0),
	R("cudaFree", CL_FREE, 0, 0),
	R("cudaMemcpy", CL_COPY, CF_KIND, 0),
	R("cudaMemcpy_ptds", CL_COPY, CF_KIND, 0),
	R("cudaMemcpyAsync", CL_COPY, CF_KIND, 5),
	R("cudaMemcpyAsync_ptsz", CL_COPY, CF_KIND, 5),
	R("cudaLaunchKernel", CL_RT_LAUNCH, 0, 0),
	R("cudaLaunchKernel_ptsz", CL_RT_LAUNCH, 0, 0),
	R("cudaStreamSynchronize", CL_STREAM, 0, 1),
	R("cudaStreamSynchronize_ptsz", CL_STREAM, 0, 1),
	R("cudaDeviceSynchronize", CL_SYNC, 0, 0),
};

#define NR_FUNCS (int)(sizeof(funcs) / sizeof(funcs[0]))

static int nr_funcs_of(int api)
{
	int i, n = 0;

	for (i = 0; i < NR_FUNCS; i++)
		n += funcs[i].api == (enum api)api;
	return n;
}
_Static_assert(sizeof(funcs) / sizeof(funcs[0]) <= MAX_FUNCS, "raise MAX_FUNCS");

/* A file to probe: a library, or an executable with cudart linked in. */
struct target {
	char path[PATH_MAX + 64];	/* opened and probed */
	char name[PATH_MAX];		/* as the user or the process names it */
	bool api[NR_APIS];		/* which functions to look for */
	bool given;			/* --lib: problems are errors */
	struct elf_syms *syms;
	long off[NR_FUNCS];		/* file offsets, -1: absent */
	int found[NR_APIS];
};

static struct target targets[MAX_TARGETS];
static int nr_targets;
static char notes[4][PATH_MAX + 160];	/* said after attaching */
static int nr_notes;
static bool runtime_fallback;	/* -p: no libcuda mapped, the runtime traced instead */

static struct cudatrace_bpf *skel;
static bool multi;		/* one uprobe_multi link per file and direction */
static struct bpf_link **links;	/* else one perf-event link per probe */
static struct bpf_link *exit_link;
static int nr_links;
static int link_fds[2 * MAX_TARGETS];
static int nr_link_fds;
static struct syms_cache *syms;
static struct ring_buffer *drain_rb;	/* call records only (-e, -E) */
static struct ring_buffer *notices_rb;	/* the tracing loop's: notices (and records) */
static unsigned long long start_ns;
/* Processes gone since the last summary: their launch rows still name them. */
static struct exited_proc {
	__u32 pid;
	__u64 cgroup_id;
} exited[MAX_PROCS];
static int nr_exited;

const char *argp_program_version = "cudatrace 0.1";
static const char doc[] =
"Trace CUDA API calls: latency, errors, kernel launches and leaked allocations.\n"
"\n"
"USAGE: cudatrace [-eEjlmrsCTv] [-p PID] [-c COMM] [--cgroup PATH] [-L LIB]...\n"
"                 [interval [count]]\n"
"\n"
"EXAMPLES:\n"
"    cudatrace                # driver API summary per function at Ctrl-C\n"
"    cudatrace -p 1234        # ... of PID 1234, in the libraries it has mapped\n"
"    cudatrace -r -p 1234     # also the runtime API (libcudart)\n"
"    cudatrace -e -p 1234     # one line per call, for grep and awk\n"
"    cudatrace -E             # only failing calls, with their CUresult names\n"
"    cudatrace -l -p 1234     # allocations never freed, at exit or Ctrl-C\n"
"    cudatrace -ls -p 1234 10 # ... with allocating stacks, every 10 seconds\n"
"    cudatrace -c python3 5   # processes named python3, a summary every 5 s\n"
"    cudatrace -L /opt/app/lib/libcuda.so.1   # probe this library\n"
"    cudatrace -j -p 1234 | jq .  # JSON lines: one object per table row\n"
"    cudatrace -e -j -p 1234  # ... one per call\n"
"    cudatrace --cgroup /sys/fs/cgroup/gpu.slice -C -e  # one cgroup's calls, named\n";

static const struct argp_option opts[] = {
	{ "events", 'e', NULL, 0, "Print one line per call", 0 },
	{ "errors", 'E', NULL, 0, "Print one line per failing call only", 0 },
	{ "leaks", 'l', NULL, 0, "Report allocations not freed (at process exit, each interval, or the end)", 0 },
	{ "stack", 's', NULL, 0, "With --leaks: the user stack of each allocation", 0 },
	{ "runtime", 'r', NULL, 0, "Also trace the runtime API (libcudart, or cudart linked into the program)", 0 },
	{ "lib", 'L', "PATH", 0, "Probe this library or executable instead of looking for one (repeatable)", 0 },
	{},
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'e':
		env.events = true;
		break;
	case 'E':
		env.errors = true;
		break;
	case 'l':
		env.leaks = true;
		break;
	case 's':
		env.stacks = true;
		break;
	case 'r':
		env.runtime = true;
		break;
	case 'L':
		if (!*arg)
			argp_failure(state, argp_err_exit_status, 0, "invalid library path ''");
		if (env.nr_libs == MAX_LIBS)
			argp_failure(state, argp_err_exit_status, 0, "too many --lib (at most %d)",
				     MAX_LIBS);
		env.libs[env.nr_libs++] = arg;
		break;
	case ARGP_KEY_END:
		if (env.stacks && !env.leaks)
			argp_failure(state, argp_err_exit_status, 0, "--stack needs --leaks");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static double ns_to_unit(unsigned long long ns)
{
	return common_env.msecs ? ns / 1e6 : ns / 1e3;
}

/* ---- Finding the libraries ---------------------------------------------- */

static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64",
	"/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib",
	"/usr/lib/wsl/lib", "/usr/local/nvidia/lib64", NULL,
};

static void note(const char *fmt, const char *a, const char *b)
{
	if (nr_notes < (int)(sizeof(notes) / sizeof(notes[0])))
		snprintf(notes[nr_notes++], sizeof(notes[0]), fmt, a, b);
}

static struct target *add_target(const char *path, const char *name, enum api api, bool given)
{
	struct target *t;
	int i;

	for (i = 0; i < nr_targets; i++) {
		if (same_file(targets[i].path, path)) {
			targets[i].api[api] = true;
			targets[i].given |= given;
			return &targets[i];
		}
	}
	if (nr_targets == MAX_TARGETS)
		return NULL;
	t = &targets[nr_targets++];
	snprintf(t->path, sizeof(t->path), "%s", path);
	snprintf(t->name, sizeof(t->name), "%s", name);
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
static int search_system(enum api api, const char **first)
{
	char found[MAX_TARGETS][PATH_MAX];
	struct target *t;
	int n, i;

	n = find_libraries(api == API_DRIVER ? "libcuda.so.1" : "libcudart.so", lib_dirs,
			   found, MAX_TARGETS);
	for (i = 0; i < n; i++) {
		t = add_target(found[i], found[i], api, false);
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
static int search_process(pid_t pid)
{
	char exe[PATH_MAX], link[64], open_path[PATH_MAX + 64], pidstr[16];
	bool have[NR_APIS] = {}, runtime = env.runtime;
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
		if (add_target(open_path, maps[i].path, api, false))
			have[api] = true;
	}
	proc_maps_free(maps, n);
	for (i = 0; i < (size_t)nr_targets; i++) {
		if (!targets[i].api[API_RUNTIME])
			continue;
		if (!nr_rt++)
			first_rt = i;
	}

	snprintf(pidstr, sizeof(pidstr), "%d", pid);
	if (!env.runtime && nr_rt) {
		runtime_fallback = true;
		note(nr_rt > 1 ? "cudatrace: PID %s has no libcuda mapped; tracing the runtime API "
				 "in %s and its other libcudart (as with -r)"
			       : "cudatrace: PID %s has no libcuda mapped; tracing the runtime API "
				 "in %s (as with -r)", pidstr, targets[first_rt].name);
	}
	/* Not loaded yet (cudart loads libcuda at its first call): the system's. */
	if (!have[API_DRIVER] && search_system(API_DRIVER, &sys))
		note("cudatrace: PID %s has no libcuda mapped yet: probing %s, the system's",
		     pidstr, sys);
	if (env.runtime && !have[API_RUNTIME] && search_system(API_RUNTIME, &sys))
		note("cudatrace: PID %s has no libcudart mapped: probing %s, the system's",
		     pidstr, sys);
	return 0;
}

/* Look up every function of the target's APIs; the one-line reason on failure. */
static int resolve_target(struct target *t)
{
	int err, i;

	err = elf_syms_load(t->path, &t->syms);
	if (err) {
		if (t->given)
			fprintf(stderr, "cudatrace: %s: %s\n", t->name, elf_syms_strerror(err));
		return err;
	}
	for (i = 0; i < NR_FUNCS; i++) {
		t->off[i] = -1;
		if (!t->api[funcs[i].api])
			continue;
		t->off[i] = elf_syms_offset(t->syms, funcs[i].name);
		if (t->off[i] >= 0)
			t->found[funcs[i].api]++;
	}
	if (t->given && !t->found[API_DRIVER] && !t->found[API_RUNTIME]) {
		if (!env.runtime && elf_syms_offset(t->syms, "cudaMalloc") >= 0)
			fprintf(stderr, "cudatrace: %s: no CUDA driver API symbols, but runtime API "
				"ones: add --runtime\n", t->name);
		else
			fprintf(stderr, "cudatrace: %s: no CUDA %s symbols (cuMemAlloc_v2, "
				"cuLaunchKernel%s, ...)\n", t->name,
				env.runtime ? "driver or runtime API" : "driver API",
				env.runtime ? ", cudaMalloc" : "");
		return -ENOENT;
	}
	return 0;
}

static int find_targets(void)
{
	int i, nr_found = 0, api;

	if (env.nr_libs) {
		for (i = 0; i < env.nr_libs; i++) {
			if (access(env.libs[i], R_OK)) {
				fprintf(stderr, "cudatrace: %s: %s\n", env.libs[i], strerror(errno));
				return -errno;
			}
			add_target(env.libs[i], env.libs[i], API_DRIVER, true);
			if (env.runtime)
				add_target(env.libs[i], env.libs[i], API_RUNTIME, true);
		}
	} else if (common_env.pid) {
		if (search_process(common_env.pid))
			return -1;
	} else {
		search_system(API_DRIVER, NULL);
		if (env.runtime)
			search_system(API_RUNTIME, NULL);
	}
	for (i = 0; i < nr_targets; i++) {
		if (resolve_target(&targets[i]) && targets[i].given)
			return -1;
		for (api = 0; api < NR_APIS; api++)
			nr_found += targets[i].found[api];
	}
	if (nr_found)
		return 0;
	if (common_env.pid)
		fprintf(stderr, "cudatrace: PID %d has no CUDA library mapped (libcuda.so*, "
			"libcudart.so*) and none was found in the ld.so cache or the usual "
			"directories: use --lib PATH\n", common_env.pid);
	else
		fprintf(stderr, "cudatrace: no libcuda.so.1%s in the ld.so cache or the usual "
			"directories (is the NVIDIA driver installed?): use --lib PATH or -p PID\n",
			env.runtime ? " or libcudart.so" : "");
	return -1;
}

static int report_attach_error(const struct target *t, const char *func, int err)
{
	char what[PATH_MAX + 64];

	if (err == -ESRCH) {
		fprintf(stderr, "cudatrace: PID %d exited before tracing began\n", common_env.pid);
		return err;
	}
	snprintf(what, sizeof(what), "attach uprobes to %s in %s", func, t->name);
	report_bpf_error(what, err);
	return err;
}

/* Every function found in t: entry and return probes, with the function's cookie. */
static int attach_target(const struct target *t)
{
	unsigned long offsets[NR_FUNCS];
	unsigned long long cookies[NR_FUNCS];
	unsigned int n = 0;
	int i, ret, fd;

	for (i = 0; i < NR_FUNCS; i++) {
		if (t->off[i] < 0)
			continue;
		offsets[n] = t->off[i];
		cookies[n++] = COOKIE(i, funcs[i].cls, funcs[i].flags, funcs[i].stream_arg);
	}
	for (ret = 0; ret < 2 && n; ret++) {
		struct bpf_program *prog = ret ? skel->progs.cuda_exit : skel->progs.cuda_enter;

		if (multi) {
			fd = uprobe_multi_attach(bpf_program__fd(prog), t->path, offsets, cookies, n,
						 ret, common_env.pid);
			if (fd < 0)
				return report_attach_error(t, "its functions", fd);
			link_fds[nr_link_fds++] = fd;
			continue;
		}
		for (i = 0; i < (int)n; i++) {
			LIBBPF_OPTS(bpf_uprobe_opts, uo, .bpf_cookie = cookies[i], .retprobe = ret);
			struct bpf_link *link;

			link = bpf_program__attach_uprobe_opts(prog, common_env.pid ? common_env.pid : -1,
							       t->path, offsets[i], &uo);
			if (!link)
				return report_attach_error(t, funcs[COOKIE_FUNC(cookies[i])].name, -errno);
			links[nr_links++] = link;
		}
	}
	return 0;
}

/* Which files and functions are probed, and what each library lacks. */
static void print_attached(void)
{
	int i, j, api, driver = 0;

	for (i = 0; i < nr_targets; i++) {
		const struct target *t = &targets[i];

		driver += t->found[API_DRIVER];
		for (api = 0; api < NR_APIS; api++) {
			if (!t->found[api])
				continue;
			fprintf(stderr, "cudatrace: %s in %s: %d functions:", api_names[api], t->name,
				t->found[api]);
			for (j = 0; j < NR_FUNCS; j++)
				if (funcs[j].api == (enum api)api && t->off[j] >= 0)
					fprintf(stderr, " %s", funcs[j].name);
			fputc('\n', stderr);
			if (t->found[api] == nr_funcs_of(api))
				continue;
			fprintf(stderr, "cudatrace: %s lacks:", t->name);
			for (j = 0; j < NR_FUNCS; j++)
				if (funcs[j].api == (enum api)api && t->off[j] < 0)
					fprintf(stderr, " %s", funcs[j].name);
			fputc('\n', stderr);
		}
	}
	for (i = 0; i < nr_notes; i++)
		fprintf(stderr, "%s\n", notes[i]);
	/* (A runtime fallback's note said it already.) */
	if (!driver && !env.nr_libs && !runtime_fallback)
		fprintf(stderr, "cudatrace: no libcuda found: tracing the runtime API only\n");
}

/* ---- Names --------------------------------------------------------------- */

static const char *result_name(__u32 func, __u32 result, char *buf, size_t size)
{
	return cuda_result_str((int)result, funcs[func].flags & CF_RUNTIME, buf, size);
}

/* A launched kernel: its name from cuModuleGetFunction, or the host stub's symbol. */
static const char *kernel_name(__u32 pid, __u32 func, __u64 handle, char *buf, size_t size)
{
	struct kname_key k = { .pid = pid, .handle = handle };
	unsigned long delta = 0;
	struct kname kn;
	const char *sym;

	if (!bpf_map__lookup_elem(skel->maps.knames, &k, sizeof(k), &kn, sizeof(kn), 0) &&
	    kn.name[0]) {
		snprintf(buf, size, "%.*s", KNAME_LEN, kn.name);
		return buf;
	}
	if (funcs[func].cls == CL_RT_LAUNCH && handle) {
		sym = syms_cache_resolve(syms, pid, handle, &delta, NULL);
		if (sym && !delta)
			snprintf(buf, size, "%s", sym);
		else if (sym)
			snprintf(buf, size, "%s+0x%lx", sym, delta);
		if (sym)
			return buf;
	}
	snprintf(buf, size, "0x%llx", (unsigned long long)handle);
	return buf;
}

static const char *memcpy_kind(__u32 kind)
{
	static const char *const kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default" };
	static char buf[16];

	if (kind < sizeof(kinds) / sizeof(kinds[0]))
		return kinds[kind];
	snprintf(buf, sizeof(buf), "%u", kind);
	return buf;
}

static const char *proc_comm(__u32 pid, char *buf)
{
	struct proc_info pi;

	if (bpf_map__lookup_elem(skel->maps.procs, &pid, sizeof(pid), &pi, sizeof(pi), 0))
		return "?";
	snprintf(buf, COMM_LEN, "%.*s", COMM_LEN - 1, pi.comm);
	return buf;
}

/*
 * -C: the cgroup a process was in at its first call, while it lives or
 * until the summary after its exit; NULL when unknown (or without -C).
 */
static const char *pid_cgroup(__u32 pid)
{
	struct proc_info pi;
	int i;

	if (!common_env.show_cgroup)
		return NULL;
	if (!bpf_map__lookup_elem(skel->maps.procs, &pid, sizeof(pid), &pi, sizeof(pi), 0) &&
	    pi.cgroup_id)
		return cgroup_name(pi.cgroup_id);
	for (i = nr_exited - 1; i >= 0; i--)
		if (exited[i].pid == pid && exited[i].cgroup_id)
			return cgroup_name(exited[i].cgroup_id);
	return NULL;
}

static struct cell cgroup_cell(const char *name)
{
	return name ? CELL_S(name) : CELL_NONE;
}

/* ---- Per-call lines (-e, -E) ----------------------------------------------- */

/*
 * DETAIL's key=value words are fields of their own in JSON (null where the
 * call has none); addresses (ptr, handle, stream) are hex strings there as
 * in the text: JSON numbers are doubles to most readers, exact to 2^53 only.
 */
enum {
	EV_TIME, EV_PID, EV_TID, EV_COMM, EV_FUNC, EV_BYTES, EV_LAT, EV_RESULT, EV_CODE,
	EV_DETAIL, EV_PTR, EV_KERNEL, EV_HANDLE, EV_GRID_X, EV_GRID_Y, EV_GRID_Z, EV_BLOCK_X,
	EV_BLOCK_Y, EV_BLOCK_Z, EV_SHMEM, EV_STREAM, EV_KIND, EV_CGROUP, NR_EV_COLS
};

static const struct column event_cols[NR_EV_COLS] = {
	[EV_TIME] = { "TIME(s)", "time_s", -10, 0 },
	[EV_PID] = { "PID", "pid", -7, 0 },
	[EV_TID] = { "TID", "tid", -7, 0 },
	[EV_COMM] = { "COMM", "comm", -16, 0 },
	[EV_FUNC] = { "FUNCTION", "function", -26, 0 },
	[EV_BYTES] = { "BYTES", "bytes", 12, 0 },
	[EV_LAT] = { "LAT", "lat", 10, COL_TIME },
	[EV_RESULT] = { "RESULT", "result", -28, 0 },
	[EV_CODE] = { "", "code", 0, COL_JSON_ONLY },
	[EV_DETAIL] = { "DETAIL", "", 0, COL_TEXT_ONLY },
	[EV_PTR] = { "", "ptr", 0, COL_JSON_ONLY },
	[EV_KERNEL] = { "", "kernel", 0, COL_JSON_ONLY },
	[EV_HANDLE] = { "", "handle", 0, COL_JSON_ONLY },
	[EV_GRID_X] = { "", "grid_x", 0, COL_JSON_ONLY },
	[EV_GRID_Y] = { "", "grid_y", 0, COL_JSON_ONLY },
	[EV_GRID_Z] = { "", "grid_z", 0, COL_JSON_ONLY },
	[EV_BLOCK_X] = { "", "block_x", 0, COL_JSON_ONLY },
	[EV_BLOCK_Y] = { "", "block_y", 0, COL_JSON_ONLY },
	[EV_BLOCK_Z] = { "", "block_z", 0, COL_JSON_ONLY },
	[EV_SHMEM] = { "", "shmem", 0, COL_JSON_ONLY },
	[EV_STREAM] = { "", "stream", 0, COL_JSON_ONLY },
	[EV_KIND] = { "", "kind", 0, COL_JSON_ONLY },
	[EV_CGROUP] = CGROUP_COLUMN,
};
static const struct table event_table = EVENT_TABLE("event", event_cols);

/* Strings the cells of one event point to. */
struct event_strs {
	char comm[COMM_LEN];
	char bytes[24];
	char res[32];
	char kernel[KNAME_LEN + 32];
	char ptr[24];
	char handle[24];
	char stream[24];
	char detail[256];
};

/* The arguments worth showing: JSON fields, and DETAIL's key=value words. */
static void event_detail(const struct call_event *e, struct cell *c, struct event_strs *b)
{
	const struct cuda_func *f = &funcs[e->func];
	const struct call_args *a = &e->a;
	char *buf = b->detail;
	size_t size = sizeof(b->detail);
	int n = 0, i;

	buf[0] = '\0';
	switch (f->cls) {
	case CL_ALLOC:
		if (!e->result)
			c[EV_PTR] = cell_hex(b->ptr, sizeof(b->ptr), a->addr);
		break;
	case CL_FREE:
		c[EV_PTR] = cell_hex(b->ptr, sizeof(b->ptr), a->addr);
		break;
	case CL_COPY:
		if (f->flags & CF_KIND)
			c[EV_KIND] = CELL_S(memcpy_kind(a->kind));
		break;
	case CL_LAUNCH:
	case CL_LAUNCH_EX:
	case CL_RT_LAUNCH:
		c[EV_KERNEL] = CELL_S(kernel_name(e->pid, e->func, a->addr, b->kernel,
						  sizeof(b->kernel)));
		for (i = 0; i < 3; i++) {
			c[EV_GRID_X + i] = CELL_U(a->grid[i]);
			c[EV_BLOCK_X + i] = CELL_U(a->block[i]);
		}
		c[EV_SHMEM] = CELL_U(a->shmem);
		c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);
		break;
	case CL_GET_FUNC:
		snprintf(b->kernel, sizeof(b->kernel), "%.*s", KNAME_LEN, e->name);
		c[EV_KERNEL] = CELL_S(b->kernel);
		if (!e->result)
			c[EV_HANDLE] = cell_hex(b->handle, sizeof(b->handle), a->addr);
		break;
	case CL_STREAM_CREATE:
		if (!e->result)
			c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);
		break;
	}
	if (f->stream_arg)
		c[EV_STREAM] = cell_hex(b->stream, sizeof(b->stream), a->stream);

	/* The text: in this order, as the tests and awk scripts read it. */
	if (f->cls == CL_LAUNCH || f->cls == CL_LAUNCH_EX || f->cls == CL_RT_LAUNCH) {
		snprintf(buf, size, "kernel=%s grid=%ux%ux%u block=%ux%ux%u shmem=%llu stream=%s",
			 b->kernel, a->grid[0], a->grid[1], a->grid[2], a->block[0], a->block[1],
			 a->block[2], (unsigned long long)a->shmem, b->stream);
	} else {
		if (c[EV_PTR].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "ptr=%s", b->ptr);
		if (c[EV_KIND].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "kind=%s", c[EV_KIND].s);
		if (c[EV_KERNEL].kind == CELL_STR)
			n += snprintf(buf + n, size - n, "kernel=%s", b->kernel);
		if (c[EV_HANDLE].kind == CELL_STR)
			n += snprintf(buf + n, size - n, " handle=%s", b->handle);
		if (c[EV_STREAM].kind == CELL_STR && (size_t)n < size)
			snprintf(buf + n, size - n, "%sstream=%s", n ? " " : "", b->stream);
	}
	if (!buf[0])
		snprintf(buf, size, "-");
	c[EV_DETAIL] = CELL_S(buf);
}

static int handle_event(void *ctx, void *data, size_t size)
{
	const struct call_event *e = data;
	struct cell c[NR_EV_COLS];
	struct event_strs b;
	__u8 cls;
	int i;

	(void)ctx;
	if (size < sizeof(*e) || e->func >= (__u32)NR_FUNCS)
		return 0;
	for (i = 0; i < NR_EV_COLS; i++)
		c[i] = CELL_NONE;
	cls = funcs[e->func].cls;
	snprintf(b.comm, sizeof(b.comm), "%.*s", COMM_LEN - 1, e->comm);
	c[EV_TIME] = CELL_F((e->ts_ns - start_ns) / 1e9, 6);
	c[EV_PID] = CELL_U(e->pid);
	c[EV_TID] = CELL_U(e->tid);
	c[EV_COMM] = CELL_S(b.comm);
	c[EV_FUNC] = CELL_S(funcs[e->func].name);
	if ((cls == CL_ALLOC || cls == CL_COPY) || (cls == CL_FREE && e->a.size))
		c[EV_BYTES] = CELL_U(e->a.size);
	c[EV_LAT] = CELL_F(ns_to_unit(e->lat_ns), 3);
	c[EV_RESULT] = CELL_S(result_name(e->func, e->result, b.res, sizeof(b.res)));
	c[EV_CODE] = CELL_U(e->result);
	event_detail(e, c, &b);
	c[EV_CGROUP] = cell_cgroup(e->cgroup_id);
	table_event(stdout, &event_table, c, e->ts_ns);
	return 0;
}

/* ---- Leaks ---------------------------------------------------------------- */

struct leak {
	struct alloc_key k;
	struct alloc_info v;
};

static int cmp_leak(const void *a, const void *b)
{
	const struct leak *x = a, *y = b;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	return x->v.ts < y->v.ts ? -1 : x->v.ts > y->v.ts;
}

/*
 * --stack: the allocating stack of k, innermost first, one frame a line
 * in `text` (as printed under the allocation) and ';'-separated in
 * `joined` (the JSON field). false: no stack was recorded.
 */
static bool format_stack(const struct alloc_key *k, char *text, size_t tsize, char *joined,
			 size_t jsize)
{
	struct alloc_stack st;
	unsigned long delta;
	const char *sym, *file;
	size_t tn = 0, jn = 0;
	char frame[PATH_MAX + 160];
	int i;

	text[0] = joined[0] = '\0';
	if (bpf_map__lookup_elem(skel->maps.alloc_stacks, k, sizeof(*k), &st, sizeof(st), 0)) {
		snprintf(text, tsize, "      [stack not recorded]\n");
		return false;
	}
	for (i = 0; i < STACK_DEPTH && st.ips[i]; i++) {
		file = NULL;
		sym = syms_cache_resolve(syms, k->pid, st.ips[i], &delta, &file);
		if (sym)
			snprintf(frame, sizeof(frame), "%s+0x%lx (%s)", sym, delta, file);
		else
			snprintf(frame, sizeof(frame), "0x%llx (%s)", (unsigned long long)st.ips[i],
				 file ? file : "unknown");
		if (tn < tsize)
			tn += snprintf(text + tn, tsize - tn, "      %s\n", frame);
		if (jn < jsize)
			jn += snprintf(joined + jn, jsize - jn, "%s%s", i ? ";" : "", frame);
	}
	return true;
}

/* A process's allocations: one heading in the text, an object in JSON. */
enum { LP_PID, LP_COMM, LP_STATE, LP_ALLOCS, LP_BYTES, LP_CGROUP, NR_LP_COLS };

static const struct column leak_proc_cols[NR_LP_COLS] = {
	[LP_PID] = { "", "pid", 0, COL_JSON_ONLY },
	[LP_COMM] = { "", "comm", 0, COL_JSON_ONLY },
	[LP_STATE] = { "", "state", 0, COL_JSON_ONLY },	/* "exited" or "running" */
	[LP_ALLOCS] = { "", "allocations", 0, COL_JSON_ONLY },
	[LP_BYTES] = { "", "bytes", 0, COL_JSON_ONLY },
	[LP_CGROUP] = { "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },
};
static const struct table leak_proc_table = TABLE("leak_process", leak_proc_cols);

/* Its allocations, indented under the heading; with --stack each one's stack. */
enum {
	LK_PID, LK_COMM, LK_STATE, LK_INDENT, LK_ADDR, LK_BYTES, LK_AGE, LK_FUNC, LK_CGROUP,
	LK_STACK, NR_LK_COLS
};

static const struct column leak_cols[NR_LK_COLS] = {
	[LK_PID] = { "", "pid", 0, COL_JSON_ONLY },
	[LK_COMM] = { "", "comm", 0, COL_JSON_ONLY },
	[LK_STATE] = { "", "state", 0, COL_JSON_ONLY },
	[LK_INDENT] = { "", "", 1, COL_TEXT_ONLY },	/* and the separator: two spaces */
	[LK_ADDR] = { "ADDRESS", "address", -18, 0 },
	[LK_BYTES] = { "BYTES", "bytes", 14, 0 },
	[LK_AGE] = { "AGE(s)", "age_s", 10, 0 },
	[LK_FUNC] = { "FUNCTION", "function", 0, 0 },
	[LK_CGROUP] = { "", "cgroup", 0, COL_JSON_ONLY | COL_CGROUP },
	[LK_STACK] = { "", "stack", 0, COL_JSON_ONLY },	/* --stack only */
};
static const struct table leak_table = TABLE("leak", leak_cols);
/* Without --stack: no "stack" field. */
static const struct table leak_table_nostack = { "leak", leak_cols, NR_LK_COLS - 1, false };

static void print_leak_proc(FILE *f, __u32 pid, const char *comm, const char *state,
			    size_t allocs, unsigned long long bytes, const char *cgroup)
{
	char cg[PATH_MAX + 16] = "";

	if (json_output()) {
		table_row(f, &leak_proc_table, (struct cell[]){
			CELL_U(pid), CELL_S(comm), CELL_S(state), CELL_U(allocs), CELL_U(bytes),
			cgroup_cell(cgroup) });
		return;
	}
	if (cgroup)
		snprintf(cg, sizeof(cg), " (cgroup %s)", cgroup);
	if (!strcmp(state, "exited") && !allocs)
		fprintf(f, "PID %u (%s) exited: no allocations left%s\n", pid, comm, cg);
	else if (!strcmp(state, "exited"))
		fprintf(f, "PID %u (%s) exited: %zu allocations, %llu bytes never freed%s\n", pid,
			comm, allocs, bytes, cg);
	else
		fprintf(f, "PID %u (%s): %zu allocations, %llu bytes outstanding%s\n", pid, comm,
			allocs, bytes, cg);
}

/*
 * The allocations of one process (pid), or of all: a heading per process,
 * a row per allocation, oldest first.  `now` dates them; `exit_comm`
 * says the process exited, in cgroup `exit_cgroup`.
 */
static int print_leaks(__u32 pid, const char *exit_comm, __u64 exit_cgroup, __u64 now)
{
	static char stack_text[STACK_DEPTH * 256], stack_joined[STACK_DEPTH * 256];
	const struct table *lt = env.stacks ? &leak_table : &leak_table_nostack;
	const char *state = exit_comm ? "exited" : "running";
	FILE *f = summary_stream();
	struct map_snapshot s;
	struct leak *v;
	size_t i, j, n = 0;
	char comm[COMM_LEN], addr[24];
	const char *cgroup = NULL, *name;
	int err;

	err = map_snapshot(skel->maps.allocs, &s, 0);
	if (err)
		return err;
	v = calloc(s.n + 1, sizeof(*v));
	if (!v) {
		map_snapshot_free(&s);
		return -ENOMEM;
	}
	for (i = 0; i < s.n; i++) {
		memcpy(&v[n].k, snapshot_key(&s, i), sizeof(v[n].k));
		memcpy(&v[n].v, snapshot_value(&s, i), sizeof(v[n].v));
		if (!pid || v[n].k.pid == pid)
			n++;
	}
	map_snapshot_free(&s);
	qsort(v, n, sizeof(*v), cmp_leak);

	if (exit_comm && common_env.show_cgroup && exit_cgroup)
		cgroup = cgroup_name(exit_cgroup);
	if (exit_comm)
		summary_begin(f);
	if (exit_comm && !n)
		print_leak_proc(f, pid, exit_comm, state, 0, 0, cgroup);
	else if (!pid && !n)
		text_printf(f, "no outstanding allocations\n");
	for (i = 0; i < n; i = j) {
		unsigned long long bytes = 0;

		for (j = i; j < n && v[j].k.pid == v[i].k.pid; j++)
			bytes += v[j].v.size;
		name = exit_comm ? exit_comm : proc_comm(v[i].k.pid, comm);
		if (!exit_comm)
			cgroup = pid_cgroup(v[i].k.pid);
		print_leak_proc(f, v[i].k.pid, name, state, j - i, bytes, cgroup);
		table_header(f, lt);
		for (; i < j; i++) {
			bool have_stack = false;

			if (env.stacks)
				have_stack = format_stack(&v[i].k, stack_text, sizeof(stack_text),
							  stack_joined, sizeof(stack_joined));
			snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)v[i].k.addr);
			table_row(f, lt, (struct cell[]){
				CELL_U(v[i].k.pid), CELL_S(name), CELL_S(state), CELL_S(""),
				CELL_S(addr), CELL_U(v[i].v.size),
				CELL_F(now > v[i].v.ts ? (now - v[i].v.ts) / 1e9 : 0.0, 3),
				CELL_S(v[i].v.func < (__u32)NR_FUNCS ? funcs[v[i].v.func].name : "?"),
				cgroup_cell(cgroup), have_stack ? CELL_S(stack_joined) : CELL_NONE });
			if (env.stacks)
				text_printf(f, "%s", stack_text);
		}
	}
	fflush(f);
	free(v);
	return 0;
}

/* A process is gone: its allocations went with it. */
static void forget_allocs(__u32 pid)
{
	struct map_snapshot s;
	size_t i;

	if (map_snapshot(skel->maps.allocs, &s, 0))
		return;
	for (i = 0; i < s.n; i++) {
		struct alloc_key *k = snapshot_key(&s, i);

		if (k->pid != pid)
			continue;
		bpf_map__delete_elem(skel->maps.allocs, k, sizeof(*k), 0);
		if (env.stacks)
			bpf_map__delete_elem(skel->maps.alloc_stacks, k, sizeof(*k), 0);
	}
	map_snapshot_free(&s);
}

/* After a summary named their kernels: forget the processes that exited. */
static void forget_exited(void)
{
	struct map_snapshot s;
	size_t i;
	int j;

	if (!nr_exited || map_snapshot(skel->maps.knames, &s, 0))
		return;
	for (i = 0; i < s.n; i++) {
		struct kname_key *k = snapshot_key(&s, i);

		for (j = 0; j < nr_exited; j++)
			if (k->pid == exited[j].pid)
				bpf_map__delete_elem(skel->maps.knames, k, sizeof(*k), 0);
	}
	map_snapshot_free(&s);
	for (j = 0; j < nr_exited; j++)
		syms_cache_forget(syms, exited[j].pid);
	nr_exited = 0;
}

static int handle_notice(void *ctx, void *data, size_t size)
{
	const struct notice *n = data;
	char comm[COMM_LEN];

	(void)ctx;
	if (size < sizeof(*n))
		return 0;
	/* The calls the process made before this: printed first. */
	if (drain_rb)
		ring_buffer__consume(drain_rb);
	if (n->type == NOTICE_NEW) {
		/* Read its maps while it lives, to name its addresses later. */
		syms_cache_load(syms, n->pid);
		return 0;
	}
	snprintf(comm, sizeof(comm), "%.*s", COMM_LEN - 1, n->comm);
	if (env.leaks)
		print_leaks(n->pid, comm, n->cgroup_id, n->ts_ns);
	forget_allocs(n->pid);
	if (nr_exited < MAX_PROCS)
		exited[nr_exited++] = (struct exited_proc){ n->pid, n->cgroup_id };
	if (env.events || env.errors)
		forget_exited();
	if (common_env.pid && n->pid == (__u32)common_env.pid)
		exiting = 1;	/* the traced process is gone: summary, then exit */
	return 0;
}

/* ---- Summary -------------------------------------------------------------- */

struct func_row {
	__u32 func;
	struct func_stats st;
};

static int cmp_func_row(const void *a, const void *b)
{
	const struct func_row *x = a, *y = b;

	if (x->st.total_ns != y->st.total_ns)
		return x->st.total_ns > y->st.total_ns ? -1 : 1;
	return strcmp(funcs[x->func].name, funcs[y->func].name);
}

static const struct column func_cols[] = {
	{ "FUNCTION", "function", -26, 0 },
	{ "CALLS", "calls", 8, 0 },
	{ "ERRORS", "errors", 7, 0 },
	{ "TOTAL", "total", 13, COL_TIME },
	{ "AVG", "avg", 11, COL_TIME },
	{ "BYTES", "bytes", 16, 0 },	/* memory functions only */
};
static const struct table func_table = TABLE("function", func_cols);
static const struct table func_hist_table = { "function_hist", func_cols, 1, false };

static const char *func_name(__u32 func)
{
	return func < (__u32)NR_FUNCS ? funcs[func].name : "?";
}

/* The per-function rows, busiest first (by total time). */
static struct func_row *func_rows(struct map_snapshot *s)
{
	struct func_row *rows = calloc(s->n + 1, sizeof(*rows));
	size_t i;

	if (!rows)
		return NULL;
	for (i = 0; i < s->n; i++) {
		rows[i].func = *(__u32 *)snapshot_key(s, i);
		memcpy(&rows[i].st, snapshot_value(s, i), sizeof(rows[i].st));
	}
	qsort(rows, s->n, sizeof(*rows), cmp_func_row);
	return rows;
}

static void print_funcs(FILE *f, const struct func_row *rows, size_t n)
{
	size_t i;

	table_header(f, &func_table);
	for (i = 0; i < n; i++) {
		const struct func_stats *st = &rows[i].st;
		__u8 cls = rows[i].func < (__u32)NR_FUNCS ? funcs[rows[i].func].cls : CL_OTHER;
		bool mem = cls == CL_ALLOC || cls == CL_FREE || cls == CL_COPY;

		table_row(f, &func_table, (struct cell[]){
			CELL_S(func_name(rows[i].func)), CELL_U(st->calls), CELL_U(st->errors),
			CELL_F(ns_to_unit(st->total_ns), 3),
			CELL_F(st->calls ? ns_to_unit(st->total_ns) / st->calls : 0, 3),
			CELL_U_IF(mem, st->bytes) });
	}
}

/* The latency histograms, in the order of the table. */
static void print_hists(FILE *f, const struct func_row *rows, size_t n)
{
	char title[64];
	size_t i;

	for (i = 0; i < n; i++) {
		if (rows[i].func >= (__u32)NR_FUNCS)
			continue;
		snprintf(title, sizeof(title), "%s latency:", funcs[rows[i].func].name);
		table_lat_hist(f, &func_hist_table, (struct cell[]){ CELL_S(funcs[rows[i].func].name) },
			       "latency", title, &rows[i].st.lat, time_unit());
	}
}

struct err_row {
	struct err_key k;
	__u64 count;
};

static int cmp_err_row(const void *a, const void *b)
{
	const struct err_row *x = a, *y = b;
	int c = strcmp(funcs[x->k.func].name, funcs[y->k.func].name);

	if (c)
		return c;
	return x->count != y->count ? (x->count > y->count ? -1 : 1) : (int)x->k.result - (int)y->k.result;
}

static const struct column err_cols[] = {
	{ "FUNCTION", "function", -26, 0 },
	{ "ERROR", "error", -40, 0 },	/* the result's name */
	{ "", "code", 0, COL_JSON_ONLY },	/* its value */
	{ "COUNT", "count", 8, 0 },
};
static const struct table err_table = TABLE("error", err_cols);

static void print_errors(FILE *f, struct map_snapshot *s)
{
	struct err_row *rows;
	char res[32];
	size_t i;

	if (!s->n)
		return;
	rows = calloc(s->n, sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->n; i++) {
		memcpy(&rows[i].k, snapshot_key(s, i), sizeof(rows[i].k));
		rows[i].count = *(__u64 *)snapshot_value(s, i);
		if (rows[i].k.func >= (__u32)NR_FUNCS)
			rows[i].k.func = 0;
	}
	qsort(rows, s->n, sizeof(*rows), cmp_err_row);
	text_printf(f, "\n");
	table_header(f, &err_table);
	for (i = 0; i < s->n; i++)
		table_row(f, &err_table, (struct cell[]){
			CELL_S(funcs[rows[i].k.func].name),
			CELL_S(result_name(rows[i].k.func, rows[i].k.result, res, sizeof(res))),
			CELL_U(rows[i].k.result), CELL_U(rows[i].count) });
	free(rows);
}

struct launch_row {
	struct launch_key k;
	struct launch_stats st;
};

static int cmp_launch_row(const void *a, const void *b)
{
	const struct launch_row *x = a, *y = b;
	__u64 nx = x->st.ok + x->st.failed, ny = y->st.ok + y->st.failed;

	if (x->k.pid != y->k.pid)
		return x->k.pid < y->k.pid ? -1 : 1;
	if (nx != ny)
		return nx > ny ? -1 : 1;
	return memcmp(&x->k, &y->k, sizeof(x->k));
}

static const struct column launch_cols[] = {
	{ "PID", "pid", -7, 0 },
	{ "FUNCTION", "function", -26, 0 },
	{ "KERNEL", "kernel", -24, 0 },
	{ "GRID", "", -14, COL_TEXT_ONLY },	/* XxYxZ */
	{ "", "grid_x", 0, COL_JSON_ONLY },
	{ "", "grid_y", 0, COL_JSON_ONLY },
	{ "", "grid_z", 0, COL_JSON_ONLY },
	{ "BLOCK", "", -14, COL_TEXT_ONLY },
	{ "", "block_x", 0, COL_JSON_ONLY },
	{ "", "block_y", 0, COL_JSON_ONLY },
	{ "", "block_z", 0, COL_JSON_ONLY },
	{ "LAUNCHES", "launches", 8, 0 },	/* that succeeded */
	{ "FAILED", "failed", 6, 0 },
	CGROUP_COLUMN,
};
static const struct table launch_table = TABLE("launch", launch_cols);

static void print_launches(FILE *f, struct map_snapshot *s)
{
	struct launch_row *rows;
	char name[KNAME_LEN + 32], grid[40], block[40];
	size_t i;

	if (!s->n)
		return;
	rows = calloc(s->n, sizeof(*rows));
	if (!rows)
		return;
	for (i = 0; i < s->n; i++) {
		memcpy(&rows[i].k, snapshot_key(s, i), sizeof(rows[i].k));
		memcpy(&rows[i].st, snapshot_value(s, i), sizeof(rows[i].st));
		if (rows[i].k.func >= (__u32)NR_FUNCS)
			rows[i].k.func = 0;
	}
	qsort(rows, s->n, sizeof(*rows), cmp_launch_row);
	text_printf(f, "\n");
	table_header(f, &launch_table);
	for (i = 0; i < s->n; i++) {
		const struct launch_key *k = &rows[i].k;

		snprintf(grid, sizeof(grid), "%ux%ux%u", k->grid[0], k->grid[1], k->grid[2]);
		snprintf(block, sizeof(block), "%ux%ux%u", k->block[0], k->block[1], k->block[2]);
		table_row(f, &launch_table, (struct cell[]){
			CELL_U(k->pid), CELL_S(funcs[k->func].name),
			CELL_S(kernel_name(k->pid, k->func, k->handle, name, sizeof(name))),
			CELL_S(grid), CELL_U(k->grid[0]), CELL_U(k->grid[1]), CELL_U(k->grid[2]),
			CELL_S(block), CELL_U(k->block[0]), CELL_U(k->block[1]), CELL_U(k->block[2]),
			CELL_U(rows[i].st.ok), CELL_U(rows[i].st.failed),
			cgroup_cell(pid_cgroup(k->pid)) });
	}
	free(rows);
}

/* One summary: per function, errors, launches, histograms; then start over. */
static int print_summary(void)
{
	struct map_snapshot fs, es, ls;
	FILE *f = summary_stream();
	struct func_row *rows;
	int err;

	/* Exits not read yet: -C still names the cgroups of launches of processes gone. */
	if (notices_rb)
		ring_buffer__consume(notices_rb);
	err = map_snapshot(skel->maps.func_stats, &fs, 1);
	if (!err)
		err = map_snapshot(skel->maps.errors, &es, 1);
	if (!err)
		err = map_snapshot(skel->maps.launches, &ls, 1);
	if (err) {
		fprintf(stderr, "cudatrace: failed to read maps: %s\n", strerror(-err));
		return err;
	}
	summary_begin(f);
	if (!fs.n) {
		text_printf(f, "no CUDA calls\n");
	} else if ((rows = func_rows(&fs))) {
		print_funcs(f, rows, fs.n);
		print_errors(f, &es);
		print_launches(f, &ls);
		print_hists(f, rows, fs.n);
		free(rows);
	}
	fflush(f);
	map_snapshot_free(&fs);
	map_snapshot_free(&es);
	map_snapshot_free(&ls);
	forget_exited();
	return 0;
}

static int on_interval(void *ctx)
{
	(void)ctx;
	if (env.leaks) {
		summary_begin(summary_stream());
		return print_leaks(0, NULL, 0, monotonic_ns());
	}
	return print_summary();
}

/* ---- main ----------------------------------------------------------------- */

/* The traced process is known from the start, so its exit ends tracing. */
static int watch_target(void)
{
	struct proc_info pi = {};
	__u32 pid = common_env.pid;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(pi.comm, sizeof(pi.comm), f))
			pi.comm[strcspn(pi.comm, "\n")] = '\0';
		fclose(f);
	}
	syms_cache_load(syms, pid);
	return bpf_map__update_elem(skel->maps.procs, &pid, sizeof(pid), &pi, sizeof(pi), BPF_ANY);
}

/*
 * One ring buffer manager polls both rings; a second one over the call
 * records alone lets handle_notice() print a process's pending calls
 * before its exit (the kernel side wakes us only for batches of records).
 */
static struct ring_buffer *open_ring_buffers(void)
{
	int events = bpf_map__fd(skel->maps.events), notices = bpf_map__fd(skel->maps.notices);
	struct ring_buffer *rb;

	if (!env.events && !env.errors)
		return ring_buffer__new(notices, handle_notice, NULL, NULL);
	drain_rb = ring_buffer__new(events, handle_event, NULL, NULL);
	rb = ring_buffer__new(events, handle_event, NULL, NULL);
	if (!drain_rb || !rb || ring_buffer__add(rb, notices, handle_notice, NULL)) {
		ring_buffer__free(rb);
		return NULL;
	}
	return rb;
}

/* Open the BPF object, set it up for the options, load it. */
static int load_bpf(void)
{
	int err;

	skel = cudatrace_bpf__open();
	if (!skel) {
		err = -errno;
		report_bpf_error("open BPF object", err);
		return err;
	}
	tool_set_rodata(skel, env.events || env.errors);
	skel->rodata->errors_only = env.errors;
	skel->rodata->capture_stacks = env.stacks;
	/*
	 * A program can make 100000 calls a second: room for a burst of 20000
	 * (21000 records of 192 bytes) even if the reader fell behind (1 MiB
	 * lost some under qemu). 8 MiB cost 20 MB more of RSS than this.
	 */
	bpf_map__set_max_entries(skel->maps.events, env.events || env.errors ? 4 << 20 : 4096);
	if (!env.stacks)
		bpf_map__set_max_entries(skel->maps.alloc_stacks, 1);

	/* Where the kernel can: two links per file instead of two per function. */
	multi = uprobe_multi_supported();
	if (multi) {
		bpf_program__set_expected_attach_type(skel->progs.cuda_enter, UPROBE_MULTI_ATTACH_TYPE);
		bpf_program__set_expected_attach_type(skel->progs.cuda_exit, UPROBE_MULTI_ATTACH_TYPE);
	}
	return tool_load(skel->skeleton, skel->maps.cgroup_map);
}

/* The exit hook first (it ends tracing when -p's process exits), then the uprobes. */
static int attach_bpf(void)
{
	int err, i;

	links = calloc(MAX_TARGETS * NR_FUNCS * 2, sizeof(*links));
	if (!links)
		return -ENOMEM;
	exit_link = bpf_program__attach(skel->progs.cuda_proc_exit);
	if (!exit_link) {
		err = -errno;
		report_bpf_error("attach to the sched_process_exit tracepoint", err);
		return err;
	}
	if (common_env.pid && (err = watch_target())) {
		report_bpf_error("watch the traced process", err);
		return err;
	}
	for (i = 0; i < nr_targets; i++) {
		err = attach_target(&targets[i]);
		if (err)
			return err;
	}
	return 0;
}

/* What did not fit anywhere, so no count is silently short. */
static void report_drops(const struct trace_loop *loop)
{
	trace_loop_report_lost(loop);
	if (skel->bss->lost_notices)
		report_lost("notices", skel->bss->lost_notices, 0,
			    "%llu process notices lost (ring buffer full)",
			    (unsigned long long)skel->bss->lost_notices);
	if (skel->bss->dropped_allocs)
		report_lost("allocations", skel->bss->dropped_allocs, MAX_ALLOCS,
			    "%llu allocations not tracked (more than %d outstanding)",
			    (unsigned long long)skel->bss->dropped_allocs, MAX_ALLOCS);
	if (skel->bss->dropped_rows)
		report_lost("calls", skel->bss->dropped_rows, 0,
			    "%llu calls not counted (statistics maps full)",
			    (unsigned long long)skel->bss->dropped_rows);
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "[interval [count]]",
		.doc = doc,
		.children = common_argp_child,
	};
	struct trace_loop loop = {};
	int err, i;

	if (!tool_init(&argp, argc, argv, 0))
		return 1;
	if (common_env.pid && kill(common_env.pid, 0) && errno == ESRCH) {
		fprintf(stderr, "cudatrace: no process with PID %d\n", common_env.pid);
		return 1;
	}
	syms = syms_cache_new();
	if (!syms || find_targets()) {
		err = 1;
		goto cleanup;
	}
	err = load_bpf();
	if (err)
		goto cleanup;
	err = attach_bpf();
	if (err)
		goto cleanup;
	loop.rb = notices_rb = open_ring_buffers();
	if (!loop.rb) {
		err = -errno;
		report_bpf_error("open the ring buffers", err);
		goto cleanup;
	}
	print_attached();
	start_ns = monotonic_ns();

	loop.lost_events = &skel->bss->lost_events;
	loop.interval = common_env.interval;
	loop.count = common_env.count;
	loop.on_interval = on_interval;
	if (env.events || env.errors) {
		table_header(stdout, &event_table);
		if (!env.leaks)
			loop.on_interval = NULL;
	}
	/* With -j, on stderr: also for -e, whose JSON has no header to say it attached. */
	if ((!env.events && !env.errors) || json_output())
		print_banner("Tracing CUDA %s... Hit Ctrl-C to end.\n",
			     env.leaks && !env.events && !env.errors ? "allocations" : "calls");
	err = trace_loop_run(&loop);
	if (err) {
		fprintf(stderr, "cudatrace: tracing failed: %s\n", strerror(-err));
		goto cleanup;
	}
	/* Ctrl-C mid-interval, no interval at all, or the traced process exited. */
	if (!loop.count_reached) {
		if (env.leaks)
			err = on_interval(NULL);
		else if (!env.events && !env.errors)
			err = print_summary();
	}
	report_drops(&loop);
	report_recursion_misses(skel->obj);
cleanup:
	trace_loop_free(&loop);
	ring_buffer__free(drain_rb);
	for (i = 0; i < nr_link_fds; i++)
		close(link_fds[i]);
	for (i = 0; i < nr_links; i++)
		bpf_link__destroy(links[i]);
	free(links);
	bpf_link__destroy(exit_link);
	cudatrace_bpf__destroy(skel);
	for (i = 0; i < nr_targets; i++)
		elf_syms_free(targets[i].syms);
	syms_cache_free(syms);
	return err != 0;
}
