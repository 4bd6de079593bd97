/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CUDA functions cudatrace probes, by API: every exported version of
 * each (cuMemAlloc_v2 and the legacy cuMemAlloc, cuLaunchKernel_ptsz, ...),
 * with how the kernel side reads its arguments (bpf/cudatrace.h: its class,
 * flags and stream argument, passed in the probe's BPF cookie).  A
 * function's id - in cookies, map keys and records - is its index in
 * cuda_funcs.
 */
#ifndef CUDATRACE_FUNCS_H
#define CUDATRACE_FUNCS_H

#include <stddef.h>
#include <linux/types.h>

#include "cudatrace.h"

/* The two APIs, in different libraries, with different result tables. */
enum api { API_DRIVER, API_RUNTIME, NR_APIS };

extern const char *const api_names[NR_APIS];	/* "driver API", "runtime API" */

struct cuda_func {
	const char *name;
	enum api api;
	__u8 cls;		/* enum call_class */
	__u8 flags;		/* CF_* */
	__u8 stream_arg;	/* 1-based index of a stream argument, 0: none */
};

/*
 * The functions whose arguments cudatrace reads (sizes, kernels, streams):
 * ids 0 .. NR_FUNCS - 1, the same on every run.
 */
#define NR_FUNCS 78
extern const struct cuda_func cuda_funcs[NR_FUNCS];

/*
 * Every other exported function of the APIs (cu* of libcuda, cuda* of
 * libcudart) that a run probes: counted, timed and its results named, its
 * arguments not read (CL_OTHER). Their ids follow, NR_FUNCS up to
 * MAX_FUNCS - 1, given as libs.c finds them: func_add() returns a name's
 * id (the same for the same name and API), -1 when MAX_FUNCS are taken.
 */
int func_add(const char *name, enum api api);

/* How many ids there are: NR_FUNCS and the ones added. */
int nr_funcs(void);

/* A function by id, known or added; NULL out of range. */
const struct cuda_func *func_info(__u32 func);

/* How many known functions (cuda_funcs) `api` has. */
int nr_funcs_of(enum api api);

/* The function's name, "?" for an id out of range. */
const char *func_name(__u32 func);

/* Its class (CL_OTHER for an id out of range). */
__u8 func_class(__u32 func);

/* A result of the function, by its API's table: "CUDA_ERROR_OUT_OF_MEMORY". */
const char *func_result_name(__u32 func, __u32 result, char *buf, size_t size);

#endif /* CUDATRACE_FUNCS_H */
