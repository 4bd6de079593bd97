/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions probed, by id: the family's known functions (api.h: ids
 * 0 .. family->nr_funcs - 1, their arguments read by how the kernel side
 * decodes their class), then every other exported function of its
 * libraries that a run probes (counted, timed, its results named, its
 * arguments not read: CL_OTHER). A function's id - in cookies, map keys and
 * records - is the same for the same name on every run.
 */
#ifndef APITRACE_FUNCS_H
#define APITRACE_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "apitrace/api.h"
#include "table.h"

/*
 * An exported function found by libs.c: its id (the same for the same
 * name and API), -1 when MAX_FUNCS are taken.
 */
int func_add(const char *name, enum api api);

/* How many ids there are: the known ones and the ones added. */
int nr_funcs(void);

/* A function by id, known or added; NULL out of range. */
const struct api_func *func_info(__u32 func);

/* How many known functions `api` has. */
int nr_funcs_of(enum api api);

/* The function's name, "?" for an id out of range. */
const char *func_name(__u32 func);

/* Its class (CL_OTHER for an id out of range). */
__u8 func_class(__u32 func);

/* It launches a kernel (its class is one of the launches'). */
bool func_launches(__u32 func);

/* A result of the function, by its library's table: "CUDA_ERROR_OUT_OF_MEMORY". */
const char *func_result_name(__u32 func, __u32 result, char *buf, size_t size);
struct cell func_result_code(__u32 func, __u32 result);

#endif /* APITRACE_FUNCS_H */
