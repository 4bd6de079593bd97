/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the engine of the compute-API tracers (cudatrace, and the tools
 * written on it) needs to know of one API family, as data: its libraries
 * and how to find them, its functions and how the kernel side reads their
 * arguments (bpf/apitrace.h), and how its results are named. A tool is its
 * description, its options and its skeleton; the rest is the engine's.
 */
#ifndef APITRACE_API_H
#define APITRACE_API_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "apitrace.h"

/*
 * At most two libraries per family: the first always traced (CUDA's
 * driver API, libcuda), the second (CUDA's runtime, libcudart) with -r,
 * or by itself where a process has it mapped without the first.
 */
enum api { API_PRIMARY, API_SECONDARY, NR_APIS };

struct api_lib {
	const char *kind;		/* "driver": "CUDA driver API"; NULL for a family of one */
	const char *short_name;		/* "libcuda" */
	const char *file_prefix;	/* "libcuda.so": a mapped file's base name */
	const char *soname;		/* "libcuda.so.1": as ld.so would find it */
	const char *sym_prefix;		/* "cu": its functions are cuXxx */
	/* A function an executable exports when it has the library linked in; NULL: none. */
	const char *static_marker;
	/*
	 * Exported functions returning no status (a pointer, a struct), as shell
	 * globs: not probed, unless the known table says how to read them.
	 */
	const char *const *no_result;
	int nr_no_result;
	const char *result_type;	/* "CUresult": what its functions return */
	__u8 flags;			/* CF_* every function of it has */
	/* A result's name ("CUDA_ERROR_OUT_OF_MEMORY"), else "CUresult(N)" in buf. */
	const char *(*result_name)(int value, char *buf, size_t size);
	bool signed_results;		/* cl_int: errors are negative, JSON's code too */
};

struct api_func {
	const char *name;
	enum api api;
	__u8 cls;		/* enum call_class */
	__u8 flags;		/* CF_* */
	__u8 stream_arg;	/* 1-based index of a stream argument, 0: none */
	/* 1-based, 0: none or the class's (apitrace.h's COOKIE_ARGS) */
	__u8 errcode_arg;	/* cl_int *errcode_ret: the result there, the handle returned */
	__u8 size_arg;		/* an ALLOC's or COPY's size */
	__u8 name_arg;		/* a GET_FUNC's name */
	__u8 ptr_arg;		/* an ALLOC's out-pointer, a FREE's pointer... (COOKIE_ARGS) */
	const char *object;	/* with errcode_arg: the type of object it makes ("buffer") */
};

struct api_desc {
	const char *tool;		/* "cudatrace": the messages' prefix */
	const char *family;		/* "CUDA": "Tracing CUDA calls" */
	const char *category;		/* "cuda": the timeline's, and the metrics' api label
					   for a family of one library */
	const struct api_lib *libs;
	int nr_libs;			/* 1 or NR_APIS */
	/*
	 * The functions whose arguments the tool reads: ids 0 .. nr_funcs - 1,
	 * the same on every run, at most NR_FALLBACK (a program each where the
	 * kernel lacks BPF cookies).
	 */
	const struct api_func *funcs;
	int nr_funcs;
	const char *const *lib_dirs;	/* searched after the ld.so cache; NULL-terminated */
	const char *examples;		/* "cuMemAlloc_v2, cuLaunchKernel": what a file lacks */
	const char *install_hint;	/* "is the NVIDIA driver installed?" */
	/*
	 * A versioned name (cuMemAlloc_v2): where two exported names alias one
	 * function, the versioned one names it. NULL: no such names.
	 */
	bool (*versioned)(const char *name);
};

/* The family traced: set once, by apitrace_init(). */
extern const struct api_desc *family;

#endif /* APITRACE_API_H */
