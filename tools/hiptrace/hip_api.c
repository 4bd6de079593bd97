// SPDX-License-Identifier: GPL-2.0
/*
 * HIP as the engine sees it (apitrace/api.h): AMD's runtime API in
 * libamdhip64 (ROCm's, and what PyTorch's ROCm build calls), the CUDA
 * runtime's twin: every function returns a hipError_t, its arguments laid
 * out as the CUDA functions' it mirrors, so the same classes read them.
 * The argument indexes below are hip_runtime_api.h's, 1-based.
 */
#include <stdio.h>

#include "hiptrace/hip_api.h"
#include "hiptrace/hip_errors.h"

#define F(name_, cls_, flags_, stream) \
	{ .name = name_, .cls = cls_, .flags = flags_, .stream_arg = stream }

static const struct api_func hip_funcs[] = {
	/* (void **ptr, size_t size, ...) */
	F("hipMalloc", CL_ALLOC, 0, 0),
	F("hipMallocManaged", CL_ALLOC, 0, 0),
	F("hipHostMalloc", CL_ALLOC, 0, 0),
	F("hipExtMallocWithFlags", CL_ALLOC, 0, 0),
	F("hipMallocAsync", CL_ALLOC, 0, 3),
	F("hipFree", CL_FREE, 0, 0),
	F("hipHostFree", CL_FREE, 0, 0),
	F("hipFreeAsync", CL_FREE, 0, 2),
	/* (dst, src, size, [kind,] ...) */
	F("hipMemcpy", CL_COPY, CF_KIND, 0),
	F("hipMemcpyAsync", CL_COPY, CF_KIND, 5),
	F("hipMemcpyWithStream", CL_COPY, CF_KIND, 5),
	F("hipMemcpyHtoD", CL_COPY, 0, 0),
	F("hipMemcpyDtoH", CL_COPY, 0, 0),
	F("hipMemcpyDtoD", CL_COPY, 0, 0),
	F("hipMemcpyHtoDAsync", CL_COPY, 0, 4),
	F("hipMemcpyDtoHAsync", CL_COPY, 0, 4),
	F("hipMemcpyDtoDAsync", CL_COPY, 0, 4),
	/* (dst, int value, size_t bytes, [stream]): the bytes set */
	{ .name = "hipMemset", .cls = CL_COPY, .size_arg = 3 },
	{ .name = "hipMemsetAsync", .cls = CL_COPY, .size_arg = 3, .stream_arg = 4 },
	/* cuLaunchKernel's layout, and cudaLaunchKernel's (dim3 by value) */
	F("hipModuleLaunchKernel", CL_LAUNCH, 0, 0),
	F("hipLaunchKernel", CL_RT_LAUNCH, 0, 0),
	F("hipLaunchCooperativeKernel", CL_RT_LAUNCH, CF_SIZE32, 0),	/* unsigned int shmem */
	F("hipModuleGetFunction", CL_GET_FUNC, 0, 0),
	F("hipStreamCreate", CL_STREAM_CREATE, 0, 0),
	F("hipStreamCreateWithFlags", CL_STREAM_CREATE, 0, 0),
	F("hipStreamCreateWithPriority", CL_STREAM_CREATE, 0, 0),
	F("hipStreamSynchronize", CL_STREAM, 0, 1),
	F("hipStreamDestroy", CL_STREAM, 0, 1),
	F("hipDeviceSynchronize", CL_SYNC, 0, 0),
	/* What fails first on a broken machine: counted, timed, named. */
	F("hipInit", CL_OTHER, 0, 0),
	F("hipDriverGetVersion", CL_OTHER, 0, 0),
	F("hipRuntimeGetVersion", CL_OTHER, 0, 0),
	F("hipGetDeviceCount", CL_OTHER, 0, 0),
	F("hipSetDevice", CL_OTHER, 0, 0),
	F("hipGetDevice", CL_OTHER, 0, 0),
	F("hipDeviceReset", CL_OTHER, 0, 0),
	F("hipModuleLoad", CL_OTHER, 0, 0),
	F("hipModuleLoadData", CL_OTHER, 0, 0),
	F("hipModuleUnload", CL_OTHER, 0, 0),
	F("hipGetLastError", CL_OTHER, 0, 0),
	F("hipPeekAtLastError", CL_OTHER, 0, 0),
};

#define NR_HIP_FUNCS (sizeof(hip_funcs) / sizeof(hip_funcs[0]))
_Static_assert(NR_HIP_FUNCS <= NR_FALLBACK, "a per-function program for every known function");

static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/opt/rocm/lib",
	"/opt/rocm/hip/lib", NULL,
};

/*
 * The exported functions that return no hipError_t (hip_runtime_api.h,
 * hip_ext.h): not probed, their "result" would be a pointer, a bool or a
 * struct; hiprtc's return a hiprtcResult, another table; __hip* are the
 * compiler's registration hooks. tests/host/hiptrace.sh holds the list
 * against the header.
 */
static const char *const no_result[] = {
	"hipApiName", "hipCreateChannelDesc", "hipEnableActivityCallback", "hipGetCmdName",
	"hipGetErrorName", "hipGetErrorString", "hipGetStreamDeviceId",
	"hipInitActivityCallback", "hipKernelNameRef*", "hiprtc*",
};

static const char *hip_result(int value, char *buf, size_t size)
{
	unsigned int i;

	for (i = 0; i < hip_error_count; i++)
		if (hip_error_names[i].value == value)
			return hip_error_names[i].name;
	snprintf(buf, size, "hipError_t(%d)", value);
	return buf;
}

static const struct api_lib hip_libs[] = {
	{ .short_name = "libamdhip64", .file_prefix = "libamdhip64.so", .soname = "libamdhip64.so",
	  .sym_prefix = "hip", .no_result = no_result,
	  .nr_no_result = sizeof(no_result) / sizeof(no_result[0]), .result_type = "hipError_t",
	  .result_name = hip_result },
};

const struct api_desc hip_api = {
	.tool = "hiptrace",
	.family = "HIP",
	.category = "hip",
	.libs = hip_libs,
	.nr_libs = 1,
	.funcs = hip_funcs,
	.nr_funcs = NR_HIP_FUNCS,
	.lib_dirs = lib_dirs,
	.examples = "hipMalloc, hipLaunchKernel",
	.install_hint = "is HIP installed? libamdhip64-5, or ROCm's",
};
