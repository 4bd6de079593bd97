// SPDX-License-Identifier: GPL-2.0
/* The functions probed, by id (funcs.h). */
#include <stdlib.h>
#include <string.h>

#include "apitrace/funcs.h"

const struct api_desc *family;

/* The functions added, ids family->nr_funcs on: their names are copies (the ELF's close). */
static struct api_func added[MAX_FUNCS];
static int nr_added;

int func_add(const char *name, enum api api)
{
	char *copy;
	int i;

	for (i = 0; i < nr_added; i++)
		if (added[i].api == api && !strcmp(added[i].name, name))
			return family->nr_funcs + i;
	if (family->nr_funcs + nr_added == MAX_FUNCS)
		return -1;
	copy = strdup(name);
	if (!copy)
		return -1;
	added[nr_added] = (struct api_func){ .name = copy, .api = api, .cls = CL_OTHER,
					      .flags = family->libs[api].flags };
	return family->nr_funcs + nr_added++;
}

int nr_funcs(void)
{
	return family->nr_funcs + nr_added;
}

const struct api_func *func_info(__u32 func)
{
	if (func < (__u32)family->nr_funcs)
		return &family->funcs[func];
	if (func < (__u32)nr_funcs())
		return &added[func - family->nr_funcs];
	return NULL;
}

int nr_funcs_of(enum api api)
{
	int i, n = 0;

	for (i = 0; i < family->nr_funcs; i++)
		n += family->funcs[i].api == api;
	return n;
}

const char *func_name(__u32 func)
{
	const struct api_func *f = func_info(func);

	return f ? f->name : "?";
}

__u8 func_class(__u32 func)
{
	const struct api_func *f = func_info(func);

	return f ? f->cls : CL_OTHER;
}

bool func_launches(__u32 func)
{
	__u8 cls = func_class(func);

	return cls == CL_LAUNCH || cls == CL_LAUNCH_EX || cls == CL_RT_LAUNCH || cls == CL_LAUNCH_ND ||
	       cls == CL_LAUNCH_ZE;
}

/* The library whose result table names a function's results. */
static const struct api_lib *result_lib(__u32 func)
{
	const struct api_func *f = func_info(func);

	return &family->libs[f ? f->api : API_PRIMARY];
}

/* A result as its library's type has it: cl_int's -11, not 4294967285. */
struct cell func_result_code(__u32 func, __u32 result)
{
	if (result_lib(func)->signed_results)
		return CELL_I((__s32)result);
	return CELL_U(result);
}

const char *func_result_name(__u32 func, __u32 result, char *buf, size_t size)
{
	return result_lib(func)->result_name((int)result, buf, size);
}
