// SPDX-License-Identifier: GPL-2.0
/* Lookups in the generated CUDA result tables (cuda_errors.c). */
#include <stdio.h>

#include "cuda_errors.h"

static const char *lookup(const struct cuda_error_name *t, unsigned int n, int value)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

const char *cuda_result_name(int value)
{
	return lookup(cuda_result_names, cuda_result_count, value);
}

const char *cuda_rt_error_name(int value)
{
	return lookup(cuda_rt_error_names, cuda_rt_error_count, value);
}

const char *cuda_result_str(int value, int runtime, char *buf, size_t size)
{
	const char *name = runtime ? cuda_rt_error_name(value) : cuda_result_name(value);

	if (name)
		return name;
	snprintf(buf, size, "%s(%d)", runtime ? "cudaError" : "CUresult", value);
	return buf;
}
