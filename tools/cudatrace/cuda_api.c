// SPDX-License-Identifier: GPL-2.0
/*
 * The CUDA APIs as the engine sees them (apitrace/api.h): the driver API
 * in libcuda, the runtime API in libcudart (or linked into the program),
 * and the functions whose arguments cudatrace reads.
 *
 * cuda.h maps each driver function to its newest version (cuMemAlloc ->
 * cuMemAlloc_v2) and, with per-thread default streams, to _ptds / _ptsz
 * variants; the unversioned names are still exported for old binaries,
 * with 32-bit sizes and device pointers (CUdeviceptr_v1) where the _v2
 * takes size_t.
 */
#include <string.h>

#include "cudatrace/cuda_api.h"
#include "cudatrace/cuda_errors.h"

#define D(name_, cls_, flags_, stream) \
	{ .name = name_, .api = API_PRIMARY, .cls = cls_, .flags = flags_, .stream_arg = stream }
#define R(name_, cls_, flags_, stream) \
	{ .name = name_, .api = API_SECONDARY, .cls = cls_, .flags = (flags_) | CF_RUNTIME, .stream_arg = stream }
#define V1 (CF_SIZE32 | CF_PTR32)

static const struct api_func cuda_funcs[] = {
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

#define NR_CUDA_FUNCS (sizeof(cuda_funcs) / sizeof(cuda_funcs[0]))
_Static_assert(NR_CUDA_FUNCS <= NR_FALLBACK, "a per-function program for every known function");


static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64",
	"/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/usr/local/cuda/targets/x86_64-linux/lib",
	"/usr/lib/wsl/lib", "/usr/local/nvidia/lib64", NULL,
};

/*
 * The runtime's functions that return no cudaError_t (cuda_runtime_api.h;
 * every driver function returns a CUresult): not counted, their "result"
 * would be a pointer or a struct. tests/host/cudatrace.sh holds the list
 * against the toolkit's header.
 */
static const char *const no_result[] = { "cudaCreateChannelDesc", "cudaGetErrorName",
					  "cudaGetErrorString" };

static const char *driver_result(int value, char *buf, size_t size)
{
	return cuda_result_str(value, 0, buf, size);
}

static const char *runtime_result(int value, char *buf, size_t size)
{
	return cuda_result_str(value, 1, buf, size);
}

/* cuMemGetInfo_v2, cuMemcpy_v2_ptds: a version suffix (cuda.h maps the plain name to it). */
static bool versioned(const char *name)
{
	const char *v = strstr(name, "_v");

	return v && v[2] >= '0' && v[2] <= '9';
}

static const struct api_lib cuda_libs[NR_APIS] = {
	[API_PRIMARY] = { "driver", "libcuda", "libcuda.so", "libcuda.so.1", "cu", NULL,
			  NULL, 0, "CUresult", 0, driver_result },
	[API_SECONDARY] = { "runtime", "libcudart", "libcudart.so", "libcudart.so", "cuda",
			    "cudaMalloc", no_result, sizeof(no_result) / sizeof(no_result[0]),
			    "cudaError_t", CF_RUNTIME, runtime_result },
};

const struct api_desc cuda_api = {
	.tool = "cudatrace",
	.family = "CUDA",
	.category = "cuda",
	.libs = cuda_libs,
	.nr_libs = NR_APIS,
	.funcs = cuda_funcs,
	.nr_funcs = NR_CUDA_FUNCS,
	.lib_dirs = lib_dirs,
	.examples = "cuMemAlloc_v2, cuLaunchKernel",
	.install_hint = "is the NVIDIA driver installed?",
	.versioned = versioned,
};
