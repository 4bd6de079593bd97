// SPDX-License-Identifier: GPL-2.0
/*
 * Level Zero as the engine sees it (apitrace/api.h): the API of its loader
 * libze_loader.so.1, which every Level Zero program (SYCL's and oneAPI's
 * runtimes among them) calls whatever driver is behind it. Every function
 * returns a ze_result_t; what a call makes it writes through its last
 * argument. The argument indexes below are ze_api.h's, 1-based.
 */
#include <stdio.h>

#include "zetrace/ze_api.h"
#include "zetrace/ze_errors.h"

#define F(name_, cls_) { .name = name_, .cls = cls_ }

static const struct api_func ze_funcs[] = {
	/* (context, descs..., size_t size, size_t alignment, [device,] void **pptr) */
	{ .name = "zeMemAllocDevice", .cls = CL_ALLOC, .size_arg = 3, .ptr_arg = 6 },
	{ .name = "zeMemAllocHost", .cls = CL_ALLOC, .size_arg = 3, .ptr_arg = 5 },
	{ .name = "zeMemAllocShared", .cls = CL_ALLOC, .size_arg = 4, .ptr_arg = 7 },
	{ .name = "zeMemFree", .cls = CL_FREE, .ptr_arg = 2 },
	{ .name = "zeMemFreeExt", .cls = CL_FREE, .ptr_arg = 3 },
	/* (list, dst, src, size, ...), (list, ptr, pattern, pattern_size, size, ...) */
	{ .name = "zeCommandListAppendMemoryCopy", .cls = CL_COPY, .size_arg = 4, .stream_arg = 1 },
	{ .name = "zeCommandListAppendMemoryFill", .cls = CL_COPY, .size_arg = 5, .stream_arg = 1 },
	/* (list, kernel, const ze_group_count_t *, ...): the command list as the stream */
	F("zeCommandListAppendLaunchKernel", CL_LAUNCH_ZE),
	F("zeCommandListAppendLaunchCooperativeKernel", CL_LAUNCH_ZE),
	F("zeKernelSetGroupSize", CL_SET_GROUP),
	/* (module, const ze_kernel_desc_t *desc, ze_kernel_handle_t *out): desc->pKernelName */
	{ .name = "zeKernelCreate", .cls = CL_GET_FUNC, .flags = CF_ZE_DESC, .name_arg = 2,
	  .ptr_arg = 3 },
	/* (context, device, desc, handle *out) */
	{ .name = "zeCommandListCreate", .cls = CL_STREAM_CREATE, .ptr_arg = 4 },
	{ .name = "zeCommandListCreateImmediate", .cls = CL_STREAM_CREATE, .ptr_arg = 4 },
	{ .name = "zeCommandQueueCreate", .cls = CL_STREAM_CREATE, .ptr_arg = 4 },
	{ .name = "zeCommandQueueExecuteCommandLists", .cls = CL_STREAM, .stream_arg = 1 },
	{ .name = "zeCommandQueueSynchronize", .cls = CL_STREAM, .stream_arg = 1 },
	{ .name = "zeCommandListClose", .cls = CL_STREAM, .stream_arg = 1 },
	{ .name = "zeCommandListReset", .cls = CL_STREAM, .stream_arg = 1 },
	{ .name = "zeCommandListDestroy", .cls = CL_STREAM, .stream_arg = 1 },
	{ .name = "zeCommandQueueDestroy", .cls = CL_STREAM, .stream_arg = 1 },
	/* What fails first on a machine without a driver: counted, timed, named. */
	F("zeInit", CL_OTHER),
	F("zeDriverGet", CL_OTHER),
	F("zeDeviceGet", CL_OTHER),
	F("zeDeviceGetProperties", CL_OTHER),
	F("zeContextCreate", CL_OTHER),
	F("zeContextDestroy", CL_OTHER),
	F("zeModuleCreate", CL_OTHER),
	F("zeModuleDestroy", CL_OTHER),
	F("zeModuleBuildLogGetString", CL_OTHER),
	F("zeModuleBuildLogDestroy", CL_OTHER),
	F("zeKernelDestroy", CL_OTHER),
	F("zeEventHostSynchronize", CL_OTHER),
};

#define NR_ZE_FUNCS (sizeof(ze_funcs) / sizeof(ze_funcs[0]))
_Static_assert(NR_ZE_FUNCS <= NR_FALLBACK, "a per-function program for every known function");

static const char *const lib_dirs[] = {
	"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib64", "/opt/intel/oneapi/lib",
	NULL,
};

/*
 * The loader's exported functions that ze_api.h, zet_api.h and zes_api.h
 * do not declare: its internals (tests/host/zetrace.sh holds the list
 * against the headers). Every declared one returns a ze_result_t.
 */
static const char *const no_result[] = {
	"zeLoaderGetTracingHandle", "zeLoaderInit", "zelLoaderDriverCheck", "zelLoader*Internal",
};

static const char *ze_result(int value, char *buf, size_t size)
{
	unsigned int i;

	for (i = 0; i < ze_error_count; i++)
		if (ze_error_names[i].value == value)
			return ze_error_names[i].name;
	snprintf(buf, size, "ze_result_t(0x%x)", (unsigned int)value);
	return buf;
}

static const struct api_lib ze_libs[] = {
	{ .short_name = "libze_loader", .file_prefix = "libze_loader.so",
	  .soname = "libze_loader.so", .sym_prefix = "ze", .no_result = no_result,
	  .nr_no_result = sizeof(no_result) / sizeof(no_result[0]), .result_type = "ze_result_t",
	  .result_name = ze_result },
};

const struct api_desc ze_api = {
	.tool = "zetrace",
	.family = "Level Zero",
	.category = "level_zero",
	.libs = ze_libs,
	.nr_libs = 1,
	.funcs = ze_funcs,
	.nr_funcs = NR_ZE_FUNCS,
	.lib_dirs = lib_dirs,
	.examples = "zeMemAllocDevice, zeCommandListAppendLaunchKernel",
	.install_hint = "is the Level Zero loader installed? libze1",
};
