// SPDX-License-Identifier: GPL-2.0
/*
 * OpenCL as the engine sees it (apitrace/api.h): the API of the ICD loader
 * libOpenCL.so.1, which every OpenCL program links against whatever the
 * implementation behind it (pocl, Intel's, ROCm's, rusticl, NVIDIA's).
 *
 * Most functions return a cl_int; the clCreate* ones return the object
 * they made and write their cl_int to an errcode_ret argument (which may be
 * NULL), read at the return (COOKIE_ARGS). The argument indexes below are
 * CL/cl.h's, 1-based.
 */
#include "cltrace/cl_api.h"
#include "cltrace/cl_errors.h"

#include <stdio.h>

#define F(name_, cls_) { .name = name_, .cls = cls_ }
/*
 * A function returning a new object of type `obj`, its result in
 * errcode_ret (argument `err`): tracked until its releases match its
 * retains (clRetainX and clReleaseX below), the rest reported by -l.
 */
#define H(name_, cls_, err, obj) { .name = name_, .cls = cls_, .errcode_arg = err, .object = obj }

static const struct api_func cl_funcs[] = {
	{ .name = "clCreateBuffer", .cls = CL_ALLOC, .size_arg = 3, .errcode_arg = 5,
	  .object = "buffer" },
	{ .name = "clCreateBufferWithProperties", .cls = CL_ALLOC, .size_arg = 4, .errcode_arg = 6,
	  .object = "buffer" },
	F("clReleaseMemObject", CL_FREE),
	F("clRetainMemObject", CL_RETAIN),
	{ .name = "clEnqueueReadBuffer", .cls = CL_COPY, .size_arg = 5, .stream_arg = 1 },
	{ .name = "clEnqueueWriteBuffer", .cls = CL_COPY, .size_arg = 5, .stream_arg = 1 },
	{ .name = "clEnqueueCopyBuffer", .cls = CL_COPY, .size_arg = 6, .stream_arg = 1 },
	F("clEnqueueNDRangeKernel", CL_LAUNCH_ND),
	{ .name = "clCreateKernel", .cls = CL_GET_FUNC, .name_arg = 2, .errcode_arg = 3,
	  .object = "kernel" },
	F("clReleaseKernel", CL_FREE),
	F("clRetainKernel", CL_RETAIN),
	H("clCreateContext", CL_OTHER, 6, "context"),
	H("clCreateContextFromType", CL_OTHER, 5, "context"),
	F("clReleaseContext", CL_FREE),
	F("clRetainContext", CL_RETAIN),
	H("clCreateCommandQueue", CL_OTHER, 4, "queue"),
	H("clCreateCommandQueueWithProperties", CL_OTHER, 4, "queue"),
	F("clReleaseCommandQueue", CL_FREE),
	F("clRetainCommandQueue", CL_RETAIN),
	H("clCreateSubBuffer", CL_OTHER, 5, "buffer"),
	H("clCreateImage", CL_OTHER, 6, "image"),
	H("clCreateSampler", CL_OTHER, 5, "sampler"),
	F("clReleaseSampler", CL_FREE),
	F("clRetainSampler", CL_RETAIN),
	H("clCreateProgramWithSource", CL_OTHER, 5, "program"),
	H("clCreateProgramWithIL", CL_OTHER, 4, "program"),
	F("clReleaseProgram", CL_FREE),
	F("clRetainProgram", CL_RETAIN),
	H("clCreateUserEvent", CL_OTHER, 2, "event"),
	/* (The events launches return are not tracked: released, they are not found.) */
	F("clReleaseEvent", CL_FREE),
	F("clRetainEvent", CL_RETAIN),
	F("clCreateKernelsInProgram", CL_OTHER),
	/* What fails first on a machine without a platform or device. */
	F("clGetPlatformIDs", CL_OTHER),
	F("clGetDeviceIDs", CL_OTHER),
	/* A failed build, and the start of its log when the program reads it. */
	F("clBuildProgram", CL_BUILD),
	F("clCompileProgram", CL_BUILD),
	F("clGetProgramBuildInfo", CL_BUILD_LOG),
	/* The device times of launches, when the program reads them of their events. */
	F("clGetEventProfilingInfo", CL_PROFILE),
	{ .name = "clFinish", .cls = CL_STREAM, .stream_arg = 1 },
};

#define NR_CL_FUNCS (sizeof(cl_funcs) / sizeof(cl_funcs[0]))
_Static_assert(NR_CL_FUNCS <= NR_FALLBACK, "a per-function program for every known function");

static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/opt/rocm/lib",
	"/opt/intel/oneapi/lib", "/usr/local/cuda/lib64", NULL,
};

/*
 * The other exported functions that return no cl_int, or write it past
 * the registers (clCreateImage2D's errcode_ret is its 8th argument): not
 * probed.
 */
static const char *const no_result[] = {
	"clCreate*", "clLinkProgram", "clEnqueueMap*", "clSVMAlloc", "clSVMFree",
	"clGetExtensionFunctionAddress*", "clIcd*",
};

static const char *cl_result(int value, char *buf, size_t size)
{
	unsigned int i;

	if (value == (int)RESULT_NO_ERRCODE)
		return "NULL";	/* no object, no errcode_ret to say why */
	for (i = 0; i < cl_error_count; i++)
		if (cl_error_names[i].value == value)
			return cl_error_names[i].name;
	snprintf(buf, size, "cl_int(%d)", value);
	return buf;
}

static const struct api_lib cl_libs[] = {
	{ .short_name = "libOpenCL", .file_prefix = "libOpenCL.so", .soname = "libOpenCL.so.1",
	  .sym_prefix = "cl", .no_result = no_result,
	  .nr_no_result = sizeof(no_result) / sizeof(no_result[0]), .result_type = "cl_int",
	  .signed_results = true,
	  .result_name = cl_result },
};

const struct api_desc cl_api = {
	.tool = "cltrace",
	.family = "OpenCL",
	.category = "opencl",
	.libs = cl_libs,
	.nr_libs = 1,
	.funcs = cl_funcs,
	.nr_funcs = NR_CL_FUNCS,
	.lib_dirs = lib_dirs,
	.examples = "clCreateBuffer, clEnqueueNDRangeKernel",
	.install_hint = "is an OpenCL ICD loader installed? ocl-icd-libopencl1",
};
