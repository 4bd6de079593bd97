// SPDX-License-Identifier: GPL-2.0
/*
 * The table of probed functions (funcs.h).
 *
 * cuda.h maps each driver function to its newest version (cuMemAlloc ->
 * cuMemAlloc_v2) and, with per-thread default streams, to _ptds / _ptsz
 * variants; the unversioned names are still exported for old binaries,
 * with 32-bit sizes and device pointers (CUdeviceptr_v1) where the _v2
 * takes size_t.
 */
#include <stdlib.h>
#include <string.h>

#include "cudatrace/cuda_errors.h"
#include "cudatrace/funcs.h"

const char *const api_names[NR_APIS] = { "driver API", "runtime API" };

#define D(name, cls, flags, stream) { name, API_DRIVER, cls, flags, stream }
#define R(name, cls, flags, stream) { name, API_RUNTIME, cls, (flags) | CF_RUNTIME, stream }
#define V1 (CF_SIZE32 | CF_PTR32)

const struct cuda_func cuda_funcs[] = {
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
	/*
	 * What fails first on a broken machine (no device, a driver that does
	 * not match, a module that does not load): counted, timed and their
	 * errors named; no argument is read.
	 */
	D("cuInit", CL_OTHER, 0, 0),
	D("cuDriverGetVersion", CL_OTHER, 0, 0),
	D("cuDeviceGet", CL_OTHER, 0, 0),
	D("cuDeviceGetCount", CL_OTHER, 0, 0),
	D("cuDeviceGetName", CL_OTHER, 0, 0),
	D("cuDeviceGetAttribute", CL_OTHER, 0, 0),
	D("cuDeviceTotalMem_v2", CL_OTHER, 0, 0),
	D("cuDevicePrimaryCtxRetain", CL_OTHER, 0, 0),
	D("cuDevicePrimaryCtxRelease_v2", CL_OTHER, 0, 0),
	D("cuCtxCreate_v2", CL_OTHER, 0, 0),
	D("cuCtxCreate_v3", CL_OTHER, 0, 0),
	D("cuCtxCreate_v4", CL_OTHER, 0, 0),
	D("cuCtxDestroy_v2", CL_OTHER, 0, 0),
	D("cuCtxSetCurrent", CL_OTHER, 0, 0),
	D("cuModuleLoad", CL_OTHER, 0, 0),
	D("cuModuleLoadData", CL_OTHER, 0, 0),
	D("cuModuleLoadDataEx", CL_OTHER, 0, 0),
	D("cuModuleLoadFatBinary", CL_OTHER, 0, 0),
	D("cuModuleUnload", CL_OTHER, 0, 0),
	D("cuLibraryLoadData", CL_OTHER, 0, 0),
	D("cuLibraryLoadFromFile", CL_OTHER, 0, 0),
	D("cuLibraryUnload", CL_OTHER, 0, 0),
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

_Static_assert(sizeof(cuda_funcs) / sizeof(cuda_funcs[0]) == NR_FUNCS, "NR_FUNCS: the size");
_Static_assert(NR_FUNCS <= MAX_FUNCS, "raise MAX_FUNCS");

/* The functions added, ids NR_FUNCS on: their names are copies (the ELF's close). */
static struct cuda_func added[MAX_FUNCS - NR_FUNCS];
static int nr_added;

int func_add(const char *name, enum api api)
{
	char *copy;
	int i;

	for (i = 0; i < nr_added; i++)
		if (added[i].api == api && !strcmp(added[i].name, name))
			return NR_FUNCS + i;
	if (nr_added == MAX_FUNCS - NR_FUNCS)
		return -1;
	copy = strdup(name);
	if (!copy)
		return -1;
	added[nr_added] = (struct cuda_func){ copy, api, CL_OTHER,
					      api == API_RUNTIME ? CF_RUNTIME : 0, 0 };
	return NR_FUNCS + nr_added++;
}

int nr_funcs(void)
{
	return NR_FUNCS + nr_added;
}

const struct cuda_func *func_info(__u32 func)
{
	if (func < NR_FUNCS)
		return &cuda_funcs[func];
	if (func < (__u32)nr_funcs())
		return &added[func - NR_FUNCS];
	return NULL;
}

int nr_funcs_of(enum api api)
{
	int i, n = 0;

	for (i = 0; i < NR_FUNCS; i++)
		n += cuda_funcs[i].api == api;
	return n;
}

const char *func_name(__u32 func)
{
	const struct cuda_func *f = func_info(func);

	return f ? f->name : "?";
}

__u8 func_class(__u32 func)
{
	const struct cuda_func *f = func_info(func);

	return f ? f->cls : CL_OTHER;
}

const char *func_result_name(__u32 func, __u32 result, char *buf, size_t size)
{
	const struct cuda_func *f = func_info(func);

	return cuda_result_str((int)result, f && (f->flags & CF_RUNTIME), buf, size);
}
