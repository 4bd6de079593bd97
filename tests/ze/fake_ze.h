/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slice of oneAPI Level Zero's API (the loader, libze_loader.so.1) that
 * zetrace probes, as level_zero/ze_api.h of Debian's libze-dev 1.8.12 (API
 * version 1.4) declares it: the same type names, struct layouts, function
 * prototypes and enum values, written out so the fake loader and its
 * workload build without libze-dev.  Only what the fake and zework use is
 * here; each enum keeps its FORCE_UINT32 member, so it has the real one's
 * size and type (unsigned int).
 *
 * The ze_result_t values below are the header's own, each checked against
 * it (a file including <level_zero/ze_api.h> and asserting NAME == VALUE
 * for every one, and redeclaring every function below with these
 * prototypes: no conflicting types).  In decimal, as the log and the tools
 * print them:
 *
 *   ZE_RESULT_SUCCESS                       0x00000000  0
 *   ZE_RESULT_NOT_READY                     0x00000001  1
 *   ZE_RESULT_ERROR_DEVICE_LOST             0x70000001  1879048193
 *   ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY      0x70000002  1879048194
 *   ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY    0x70000003  1879048195
 *   ZE_RESULT_ERROR_MODULE_BUILD_FAILURE    0x70000004  1879048196
 *   ZE_RESULT_ERROR_UNINITIALIZED           0x78000001  2013265921
 *   ZE_RESULT_ERROR_INVALID_ARGUMENT        0x78000004  2013265924
 *   ZE_RESULT_ERROR_INVALID_NULL_HANDLE     0x78000005  2013265925
 *   ZE_RESULT_ERROR_INVALID_NULL_POINTER    0x78000007  2013265927
 *   ZE_RESULT_ERROR_INVALID_SIZE            0x78000008  2013265928
 *   ZE_RESULT_ERROR_UNSUPPORTED_SIZE        0x78000009  2013265929
 *   ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT   0x7800000a  2013265930
 *   ZE_RESULT_ERROR_INVALID_ENUMERATION     0x7800000c  2013265932
 *   ZE_RESULT_ERROR_INVALID_KERNEL_NAME     0x78000011  2013265937
 *   ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION 0x78000013  2013265939
 *   ZE_RESULT_ERROR_UNKNOWN                 0x7ffffffe  2147483646
 *
 * The fake adds two things of its own:
 *   fake_ze_script(FUNC, RESULT, DELAY_US)  the next call of FUNC sleeps
 *       DELAY_US and returns RESULT instead of doing its work;
 *   $FAKE_ZE_LOG  a file that gets one line per call, with the arguments
 *       as the library received them (key=value), for the tests to compare.
 */
#ifndef FAKE_ZE_H
#define FAKE_ZE_H

#include <stddef.h>
#include <stdint.h>

/* ze_api.h: typedef enum _ze_result_t { ... } ze_result_t; */
typedef enum _ze_result_t {
	ZE_RESULT_SUCCESS = 0,
	ZE_RESULT_NOT_READY = 1,
	ZE_RESULT_ERROR_DEVICE_LOST = 0x70000001,
	ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY = 0x70000002,
	ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY = 0x70000003,
	ZE_RESULT_ERROR_MODULE_BUILD_FAILURE = 0x70000004,
	ZE_RESULT_ERROR_UNINITIALIZED = 0x78000001,
	ZE_RESULT_ERROR_INVALID_ARGUMENT = 0x78000004,
	ZE_RESULT_ERROR_INVALID_NULL_HANDLE = 0x78000005,
	ZE_RESULT_ERROR_INVALID_NULL_POINTER = 0x78000007,
	ZE_RESULT_ERROR_INVALID_SIZE = 0x78000008,
	ZE_RESULT_ERROR_UNSUPPORTED_SIZE = 0x78000009,
	ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT = 0x7800000a,
	ZE_RESULT_ERROR_INVALID_ENUMERATION = 0x7800000c,
	ZE_RESULT_ERROR_INVALID_KERNEL_NAME = 0x78000011,
	ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION = 0x78000013,
	ZE_RESULT_ERROR_UNKNOWN = 0x7ffffffe,
	ZE_RESULT_FORCE_UINT32 = 0x7fffffff
} ze_result_t;

typedef enum _ze_structure_type_t {
	ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES = 0x3,
	ZE_STRUCTURE_TYPE_CONTEXT_DESC = 0xd,
	ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC = 0xe,
	ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC = 0xf,
	ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC = 0x15,
	ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC = 0x16,
	ZE_STRUCTURE_TYPE_MODULE_DESC = 0x1b,
	ZE_STRUCTURE_TYPE_KERNEL_DESC = 0x1d,
	ZE_STRUCTURE_TYPE_FORCE_UINT32 = 0x7fffffff
} ze_structure_type_t;

/* Handles */
typedef struct _ze_driver_handle_t *ze_driver_handle_t;
typedef struct _ze_device_handle_t *ze_device_handle_t;
typedef struct _ze_context_handle_t *ze_context_handle_t;
typedef struct _ze_command_queue_handle_t *ze_command_queue_handle_t;
typedef struct _ze_command_list_handle_t *ze_command_list_handle_t;
typedef struct _ze_fence_handle_t *ze_fence_handle_t;
typedef struct _ze_event_handle_t *ze_event_handle_t;
typedef struct _ze_module_handle_t *ze_module_handle_t;
typedef struct _ze_module_build_log_handle_t *ze_module_build_log_handle_t;
typedef struct _ze_kernel_handle_t *ze_kernel_handle_t;

/* Initialization */
typedef uint32_t ze_init_flags_t;
typedef enum _ze_init_flag_t {
	ZE_INIT_FLAG_GPU_ONLY = 1 << 0,
	ZE_INIT_FLAG_VPU_ONLY = 1 << 1,
	ZE_INIT_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_init_flag_t;

/* Devices */
typedef enum _ze_device_type_t {
	ZE_DEVICE_TYPE_GPU = 1,
	ZE_DEVICE_TYPE_CPU = 2,
	ZE_DEVICE_TYPE_FPGA = 3,
	ZE_DEVICE_TYPE_MCA = 4,
	ZE_DEVICE_TYPE_VPU = 5,
	ZE_DEVICE_TYPE_FORCE_UINT32 = 0x7fffffff
} ze_device_type_t;

#define ZE_MAX_DEVICE_UUID_SIZE	16
#define ZE_MAX_DEVICE_NAME	256

typedef struct _ze_device_uuid_t {
	uint8_t id[ZE_MAX_DEVICE_UUID_SIZE];
} ze_device_uuid_t;

typedef uint32_t ze_device_property_flags_t;

typedef struct _ze_device_properties_t {
	ze_structure_type_t stype;
	void *pNext;
	ze_device_type_t type;
	uint32_t vendorId;
	uint32_t deviceId;
	ze_device_property_flags_t flags;
	uint32_t subdeviceId;
	uint32_t coreClockRate;
	uint64_t maxMemAllocSize;
	uint32_t maxHardwareContexts;
	uint32_t maxCommandQueuePriority;
	uint32_t numThreadsPerEU;
	uint32_t physicalEUSimdWidth;
	uint32_t numEUsPerSubslice;
	uint32_t numSubslicesPerSlice;
	uint32_t numSlices;
	uint64_t timerResolution;
	uint32_t timestampValidBits;
	uint32_t kernelTimestampValidBits;
	ze_device_uuid_t uuid;
	char name[ZE_MAX_DEVICE_NAME];
} ze_device_properties_t;

/* Contexts */
typedef uint32_t ze_context_flags_t;

typedef struct _ze_context_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_context_flags_t flags;
} ze_context_desc_t;

/* Command queues */
typedef uint32_t ze_command_queue_flags_t;
typedef enum _ze_command_queue_flag_t {
	ZE_COMMAND_QUEUE_FLAG_EXPLICIT_ONLY = 1 << 0,
	ZE_COMMAND_QUEUE_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_command_queue_flag_t;

typedef enum _ze_command_queue_mode_t {
	ZE_COMMAND_QUEUE_MODE_DEFAULT = 0,
	ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS = 1,
	ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS = 2,
	ZE_COMMAND_QUEUE_MODE_FORCE_UINT32 = 0x7fffffff
} ze_command_queue_mode_t;

typedef enum _ze_command_queue_priority_t {
	ZE_COMMAND_QUEUE_PRIORITY_NORMAL = 0,
	ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_LOW = 1,
	ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH = 2,
	ZE_COMMAND_QUEUE_PRIORITY_FORCE_UINT32 = 0x7fffffff
} ze_command_queue_priority_t;

typedef struct _ze_command_queue_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	uint32_t ordinal;
	uint32_t index;
	ze_command_queue_flags_t flags;
	ze_command_queue_mode_t mode;
	ze_command_queue_priority_t priority;
} ze_command_queue_desc_t;

/* Command lists */
typedef uint32_t ze_command_list_flags_t;
typedef enum _ze_command_list_flag_t {
	ZE_COMMAND_LIST_FLAG_RELAXED_ORDERING = 1 << 0,
	ZE_COMMAND_LIST_FLAG_MAXIMIZE_THROUGHPUT = 1 << 1,
	ZE_COMMAND_LIST_FLAG_EXPLICIT_ONLY = 1 << 2,
	ZE_COMMAND_LIST_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_command_list_flag_t;

typedef struct _ze_command_list_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	uint32_t commandQueueGroupOrdinal;
	ze_command_list_flags_t flags;
} ze_command_list_desc_t;

/* Memory */
typedef uint32_t ze_device_mem_alloc_flags_t;
typedef enum _ze_device_mem_alloc_flag_t {
	ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_CACHED = 1 << 0,
	ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_UNCACHED = 1 << 1,
	ZE_DEVICE_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT = 1 << 2,
	ZE_DEVICE_MEM_ALLOC_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_device_mem_alloc_flag_t;

typedef struct _ze_device_mem_alloc_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_device_mem_alloc_flags_t flags;
	uint32_t ordinal;
} ze_device_mem_alloc_desc_t;

typedef uint32_t ze_host_mem_alloc_flags_t;
typedef enum _ze_host_mem_alloc_flag_t {
	ZE_HOST_MEM_ALLOC_FLAG_BIAS_CACHED = 1 << 0,
	ZE_HOST_MEM_ALLOC_FLAG_BIAS_UNCACHED = 1 << 1,
	ZE_HOST_MEM_ALLOC_FLAG_BIAS_WRITE_COMBINED = 1 << 2,
	ZE_HOST_MEM_ALLOC_FLAG_BIAS_INITIAL_PLACEMENT = 1 << 3,
	ZE_HOST_MEM_ALLOC_FLAG_FORCE_UINT32 = 0x7fffffff
} ze_host_mem_alloc_flag_t;

typedef struct _ze_host_mem_alloc_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_host_mem_alloc_flags_t flags;
} ze_host_mem_alloc_desc_t;

/* Modules and kernels */
typedef enum _ze_module_format_t {
	ZE_MODULE_FORMAT_IL_SPIRV = 0,
	ZE_MODULE_FORMAT_NATIVE = 1,
	ZE_MODULE_FORMAT_FORCE_UINT32 = 0x7fffffff
} ze_module_format_t;

typedef struct _ze_module_constants_t {
	uint32_t numConstants;
	const uint32_t *pConstantIds;
	const void **pConstantValues;
} ze_module_constants_t;

typedef struct _ze_module_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_module_format_t format;
	size_t inputSize;
	const uint8_t *pInputModule;
	const char *pBuildFlags;
	const ze_module_constants_t *pConstants;
} ze_module_desc_t;

typedef uint32_t ze_kernel_flags_t;

typedef struct _ze_kernel_desc_t {
	ze_structure_type_t stype;
	const void *pNext;
	ze_kernel_flags_t flags;
	const char *pKernelName;
} ze_kernel_desc_t;

typedef struct _ze_group_count_t {
	uint32_t groupCountX;
	uint32_t groupCountY;
	uint32_t groupCountZ;
} ze_group_count_t;

/* Drivers and devices */
ze_result_t zeInit(ze_init_flags_t flags);
ze_result_t zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers);
ze_result_t zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
			ze_device_handle_t *phDevices);
ze_result_t zeDeviceGetProperties(ze_device_handle_t hDevice,
				  ze_device_properties_t *pDeviceProperties);

/* Contexts */
ze_result_t zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
			    ze_context_handle_t *phContext);
ze_result_t zeContextDestroy(ze_context_handle_t hContext);

/* Command queues */
ze_result_t zeCommandQueueCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				 const ze_command_queue_desc_t *desc,
				 ze_command_queue_handle_t *phCommandQueue);
ze_result_t zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue);
ze_result_t zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue,
					      uint32_t numCommandLists,
					      ze_command_list_handle_t *phCommandLists,
					      ze_fence_handle_t hFence);
ze_result_t zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue, uint64_t timeout);

/* Command lists */
ze_result_t zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				const ze_command_list_desc_t *desc,
				ze_command_list_handle_t *phCommandList);
ze_result_t zeCommandListCreateImmediate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
					 const ze_command_queue_desc_t *altdesc,
					 ze_command_list_handle_t *phCommandList);
ze_result_t zeCommandListClose(ze_command_list_handle_t hCommandList);
ze_result_t zeCommandListReset(ze_command_list_handle_t hCommandList);
ze_result_t zeCommandListDestroy(ze_command_list_handle_t hCommandList);

/* Copies and fills */
ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList, void *dstptr,
					  const void *srcptr, size_t size,
					  ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					  ze_event_handle_t *phWaitEvents);
ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void *ptr,
					  const void *pattern, size_t pattern_size, size_t size,
					  ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					  ze_event_handle_t *phWaitEvents);

/* Launches */
ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList,
					    ze_kernel_handle_t hKernel,
					    const ze_group_count_t *pLaunchFuncArgs,
					    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
					    ze_event_handle_t *phWaitEvents);
/* Not in the fake: zeCommandListAppendLaunchCooperativeKernel (a library lacking it). */

/* Modules and kernels */
ze_result_t zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
			   const ze_module_desc_t *desc, ze_module_handle_t *phModule,
			   ze_module_build_log_handle_t *phBuildLog);
ze_result_t zeModuleDestroy(ze_module_handle_t hModule);
ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog, size_t *pSize,
				      char *pBuildLog);
ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog);
ze_result_t zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
			   ze_kernel_handle_t *phKernel);
ze_result_t zeKernelDestroy(ze_kernel_handle_t hKernel);
ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX,
				 uint32_t groupSizeY, uint32_t groupSizeZ);

/* Memory */
ze_result_t zeMemAllocDevice(ze_context_handle_t hContext,
			     const ze_device_mem_alloc_desc_t *device_desc, size_t size,
			     size_t alignment, ze_device_handle_t hDevice, void **pptr);
ze_result_t zeMemAllocHost(ze_context_handle_t hContext, const ze_host_mem_alloc_desc_t *host_desc,
			   size_t size, size_t alignment, void **pptr);
ze_result_t zeMemAllocShared(ze_context_handle_t hContext,
			     const ze_device_mem_alloc_desc_t *device_desc,
			     const ze_host_mem_alloc_desc_t *host_desc, size_t size,
			     size_t alignment, ze_device_handle_t hDevice, void **pptr);
ze_result_t zeMemFree(ze_context_handle_t hContext, void *ptr);

/* Events */
ze_result_t zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout);

void fake_ze_script(const char *func, ze_result_t result, unsigned int delay_us);

#endif /* FAKE_ZE_H */
