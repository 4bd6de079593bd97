// SPDX-License-Identifier: GPL-2.0
/*
 * A fake libze_loader.so.1 (oneAPI Level Zero's loader) for zetrace's
 * tests: the API functions zetrace probes, under their real exported names
 * (unversioned, as the real loader's are) and with the prototypes of
 * level_zero/ze_api.h (fake_ze.h), with enough behaviour to give real
 * answers.  Checks follow each function's "@returns" list in ze_api.h, in
 * its order; the first that fails is the result.
 *
 *   init      every function but zeInit returns ZE_RESULT_ERROR_UNINITIALIZED
 *             until zeInit has succeeded once, as the real loader does;
 *             zeInit with flags above 0x3 is ZE_RESULT_ERROR_INVALID_ENUMERATION.
 *   handles   one driver, 0x64000010, and one device, 0x44000010.  The
 *             objects created get handles by kind, numbered from 1 in
 *             creation order and never reused:
 *                 context 0x63000000 + 0x10 n      module    0x6d000000 + 0x10 n
 *                 queue   0x71000000 + 0x10 n      kernel    0x6b000000 + 0x10 n
 *                 list    0x6c000000 + 0x10 n      build log 0x62000000 + 0x10 n
 *             (the ASCII of d D c q l m k b).  A handle that is NULL, of
 *             another kind, or destroyed is ZE_RESULT_ERROR_INVALID_NULL_HANDLE,
 *             as the validation layer's handle-lifetime checks say.  Events
 *             and fences are not created here: any non-NULL event handle
 *             is taken for a signalled event.
 *   memory    a device allocator with a capacity (16 GiB, or $FAKE_ZE_MEM
 *             bytes), which zeDeviceGetProperties reports as maxMemAllocSize,
 *             handing out distinct addresses from 0x7d8000000000 (below
 *             any base ASLR gives mmap, so no host mapping is there), 2 MiB
 *             apart at least, for zeMemAllocDevice and zeMemAllocShared;
 *             zeMemAllocHost is malloc (posix_memalign for an alignment
 *             above 8).
 *             As the spec says: a size of 0 is ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
 *             an alignment that is not 0 or a power of two
 *             ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT.  As Intel's driver
 *             (compute-runtime) does: a size above maxMemAllocSize is
 *             ZE_RESULT_ERROR_UNSUPPORTED_SIZE, one that fits but not in
 *             what is left ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, and
 *             zeMemFree of a pointer that is not a live allocation's
 *             ZE_RESULT_ERROR_INVALID_ARGUMENT (of NULL,
 *             ZE_RESULT_ERROR_INVALID_NULL_POINTER).  Allocations outlive
 *             their context.
 *   copies    and fills: sizes only (the device side is imaginary).
 *   modules   zeModuleCreate of inputSize 0 is ZE_RESULT_ERROR_INVALID_SIZE
 *             (the spec's check); a SPIR-V one (format
 *             ZE_MODULE_FORMAT_IL_SPIRV) that does not start with a SPIR-V
 *             header (the magic number 0x07230203, 20 bytes) fails to build:
 *             ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, with the build log
 *                 error: invalid SPIR-V module: magic number 0xWWWWWWWW, not 0x07230203
 *                 error: backend compiler failed build.
 *             (WWWWWWWW: its first 4 bytes, little-endian; for one with the
 *             magic number but shorter than 20 bytes the first line is
 *             "error: invalid SPIR-V module: N bytes, shorter than its
 *             20-byte header").  A native one (ZE_MODULE_FORMAT_NATIVE)
 *             always builds.  A module that builds has an empty log ("",
 *             size 1).  Whenever it builds, failing or not, and
 *             phBuildLog is not NULL, a build log handle is written there.
 *             zeModuleBuildLogGetString with no buffer (or *pSize 0)
 *             writes the size, its NUL included; with one, copies as much
 *             as *pSize holds, always terminated, and leaves *pSize.
 *   kernels   zeKernelCreate knows every name but "no_such_kernel" (and
 *             ""): ZE_RESULT_ERROR_INVALID_KERNEL_NAME.  Each call creates
 *             a kernel of its own, with its name and a group size of 0x0x0
 *             until zeKernelSetGroupSize sets one (a zero dimension is
 *             ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION).
 *             zeCommandListAppendLaunchKernel of a NULL (or unknown) kernel
 *             is ZE_RESULT_ERROR_INVALID_NULL_HANDLE; its log line names
 *             the kernel as created, with the group count passed and the
 *             group size last set.
 *   queues    lists and queues do nothing: zeCommandQueueSynchronize and
 *             zeEventHostSynchronize return ZE_RESULT_SUCCESS at once.
 *
 * Results and latencies can be scripted (fake_ze_script), and every call
 * is logged at its return with the arguments as received ($FAKE_ZE_LOG),
 * "FUNC key=value ... result=N", N in decimal; a scripted call's line is
 * "FUNC scripted result=N delay_us=D".
 *
 * Deliberately missing: zeCommandListAppendLaunchCooperativeKernel, which
 * the real loader exports, so zetrace has something to report as lacking.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fake_ze.h"
#define FAKE_LOG_ENV "FAKE_ZE_LOG"
#include "fake/fake_log.h"
#include "fake/fake_script.h"
#define FAKE_MEM_ENV "FAKE_ZE_MEM"
#include "fake/fake_mem.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- Scripted results (tests/fake/fake_script.h) ------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the fake's own state */

EXPORT void fake_ze_script(const char *func, ze_result_t result, unsigned int delay_us)
{
	script_push(func, result, delay_us);
}

#define SCRIPTED()                                   \
	do {                                         \
		int r_;                              \
		if (scripted(__func__, &r_))         \
			return r_;                   \
	} while (0)

/* The checks of a call, in order: the first that fails sets the result. */
#define FAIL_IF(cond, err)                           \
	do {                                         \
		if (r == ZE_RESULT_SUCCESS && (cond)) \
			r = (err);                   \
	} while (0)

static unsigned long addr(const void *p)
{
	return (unsigned long)(uintptr_t)p;
}

/* ---- Initialization ------------------------------------------------------ */

static int initialized;

/* Where every call but zeInit starts: uninitialized, or nothing wrong yet. */
static ze_result_t ready(void)
{
	return __atomic_load_n(&initialized, __ATOMIC_ACQUIRE) ? ZE_RESULT_SUCCESS :
								 ZE_RESULT_ERROR_UNINITIALIZED;
}

EXPORT ze_result_t zeInit(ze_init_flags_t flags)
{
	ze_result_t r = ZE_RESULT_SUCCESS;

	SCRIPTED();
	FAIL_IF(flags > (ZE_INIT_FLAG_GPU_ONLY | ZE_INIT_FLAG_VPU_ONLY),
		ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r)
		__atomic_store_n(&initialized, 1, __ATOMIC_RELEASE);
	fake_log(__func__, "flags=0x%x result=%d", flags, r);
	return r;
}

/* ---- Handles --------------------------------------------------------------- */

#define DRIVER_HANDLE	0x64000010UL
#define DEVICE_HANDLE	0x44000010UL
#define MAX_OBJS	256
#define HANDLE_STEP	0x10

enum kind { K_CONTEXT, K_QUEUE, K_LIST, K_MODULE, K_KERNEL, K_LOG, NR_KINDS };

static const uintptr_t kind_base[NR_KINDS] = {
	[K_CONTEXT] = 0x63000000, [K_QUEUE] = 0x71000000, [K_LIST] = 0x6c000000,
	[K_MODULE] = 0x6d000000, [K_KERNEL] = 0x6b000000, [K_LOG] = 0x62000000,
};
static unsigned char obj_live[NR_KINDS][MAX_OBJS + 1];	/* by number, from 1 */
static unsigned int obj_count[NR_KINDS];

/* A new object's number (its handle is base + 0x10 * number); 0: no room. */
static unsigned int obj_new(enum kind k)
{
	unsigned int n = 0;

	pthread_mutex_lock(&lock);
	if (obj_count[k] < MAX_OBJS) {
		n = ++obj_count[k];
		obj_live[k][n] = 1;
	}
	pthread_mutex_unlock(&lock);
	return n;
}

static void *obj_handle(enum kind k, unsigned int n)
{
	return n ? (void *)(kind_base[k] + HANDLE_STEP * n) : NULL;
}

/* The number of a live object of kind K with handle H; 0: none. */
static unsigned int obj_number(enum kind k, const void *h)
{
	uintptr_t v = (uintptr_t)h, n = (v - kind_base[k]) / HANDLE_STEP;
	unsigned int r = 0;

	if (v <= kind_base[k] || (v - kind_base[k]) % HANDLE_STEP || n > MAX_OBJS)
		return 0;
	pthread_mutex_lock(&lock);
	if (obj_live[k][n])
		r = n;
	pthread_mutex_unlock(&lock);
	return r;
}

/* Destroy a live object: its number, 0 if there was none. */
static unsigned int obj_del(enum kind k, const void *h)
{
	unsigned int n = obj_number(k, h);

	if (n) {
		pthread_mutex_lock(&lock);
		obj_live[k][n] = 0;
		pthread_mutex_unlock(&lock);
	}
	return n;
}

static int is_driver(const void *h)
{
	return (uintptr_t)h == DRIVER_HANDLE;
}

static int is_device(const void *h)
{
	return (uintptr_t)h == DEVICE_HANDLE;
}

/* ---- Drivers and devices: one of each ------------------------------------- */

/* zeDriverGet and zeDeviceGet: *pCount 0 or no array asks for the count. */
static void get_one(uint32_t *pCount, void **out, uintptr_t handle, uint32_t *count_in,
		    uintptr_t *given)
{
	*count_in = *pCount;
	if (*pCount && out) {
		out[0] = (void *)handle;
		*given = handle;
	}
	*pCount = 1;
}

EXPORT ze_result_t zeDriverGet(uint32_t *pCount, ze_driver_handle_t *phDrivers)
{
	uint32_t count_in = 0;
	uintptr_t given = 0;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!pCount, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!r)
		get_one(pCount, (void **)phDrivers, DRIVER_HANDLE, &count_in, &given);
	fake_log(__func__, "count_in=%u count=%u driver=0x%lx result=%d", count_in,
		 !r ? *pCount : 0, (unsigned long)given, r);
	return r;
}

EXPORT ze_result_t zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
			       ze_device_handle_t *phDevices)
{
	uint32_t count_in = 0;
	uintptr_t given = 0;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!is_driver(hDriver), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!pCount, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!r)
		get_one(pCount, (void **)phDevices, DEVICE_HANDLE, &count_in, &given);
	fake_log(__func__, "driver=0x%lx count_in=%u count=%u device=0x%lx result=%d", addr(hDriver),
		 count_in, !r ? *pCount : 0, (unsigned long)given, r);
	return r;
}

EXPORT ze_result_t zeDeviceGetProperties(ze_device_handle_t hDevice,
					 ze_device_properties_t *pDeviceProperties)
{
	static const ze_device_uuid_t uuid = { { 'f', 'a', 'k', 'e', '-', 'z', 'e', '-',
						 'd', 'e', 'v', 'i', 'c', 'e', '-', '0' } };
	ze_device_properties_t *p = pDeviceProperties;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!is_device(hDevice), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!p, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!r) {
		/* stype and pNext are the caller's. */
		p->type = ZE_DEVICE_TYPE_GPU;
		p->vendorId = 0x8086;
		p->deviceId = 0x56a0;
		p->flags = 0;
		p->subdeviceId = 0;
		p->coreClockRate = 2400;
		p->maxMemAllocSize = capacity();
		p->maxHardwareContexts = 65536;
		p->maxCommandQueuePriority = 0;
		p->numThreadsPerEU = 8;
		p->physicalEUSimdWidth = 8;
		p->numEUsPerSubslice = 16;
		p->numSubslicesPerSlice = 32;
		p->numSlices = 1;
		p->timerResolution = 1;
		p->timestampValidBits = 36;
		p->kernelTimestampValidBits = 32;
		p->uuid = uuid;
		snprintf(p->name, sizeof(p->name), "Fake Level Zero GPU");
	}
	fake_log(__func__, "device=0x%lx type=%d vendor=0x%x id=0x%x max_alloc=%llu result=%d",
		 addr(hDevice), !r ? (int)p->type : 0, !r ? p->vendorId : 0, !r ? p->deviceId : 0,
		 !r ? (unsigned long long)p->maxMemAllocSize : 0ULL, r);
	return r;
}

/* ---- Contexts -------------------------------------------------------------- */

EXPORT ze_result_t zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
				   ze_context_handle_t *phContext)
{
	void *h = NULL;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!is_driver(hDriver), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!desc || !phContext, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(desc->flags > 0x1, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r) {
		h = obj_handle(K_CONTEXT, obj_new(K_CONTEXT));
		FAIL_IF(!h, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
		if (!r)
			*phContext = h;
	}
	fake_log(__func__, "driver=0x%lx flags=0x%x context=0x%lx result=%d", addr(hDriver),
		 desc ? desc->flags : 0, addr(h), r);
	return r;
}

EXPORT ze_result_t zeContextDestroy(ze_context_handle_t hContext)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_del(K_CONTEXT, hContext), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	fake_log(__func__, "context=0x%lx result=%d", addr(hContext), r);
	return r;
}

/* ---- Command queues and lists --------------------------------------------- */

/* A queue descriptor's checks (zeCommandQueueCreate, zeCommandListCreateImmediate). */
static int bad_queue_desc(const ze_command_queue_desc_t *d)
{
	return d->flags > 0x1 || d->mode > ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS ||
	       d->priority > ZE_COMMAND_QUEUE_PRIORITY_PRIORITY_HIGH;
}

static ze_result_t queue_like_create(const char *func, enum kind k, ze_context_handle_t hContext,
				     ze_device_handle_t hDevice, const ze_command_queue_desc_t *desc,
				     void **out)
{
	void *h = NULL;
	ze_result_t r = ready();

	FAIL_IF(!obj_number(K_CONTEXT, hContext) || !is_device(hDevice),
		ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!desc || !out, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(bad_queue_desc(desc), ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r) {
		h = obj_handle(k, obj_new(k));
		FAIL_IF(!h, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
		if (!r)
			*out = h;
	}
	fake_log(func, "context=0x%lx device=0x%lx ordinal=%u index=%u flags=0x%x mode=%d "
		 "priority=%d %s=0x%lx result=%d", addr(hContext), addr(hDevice),
		 desc ? desc->ordinal : 0, desc ? desc->index : 0, desc ? desc->flags : 0,
		 desc ? (int)desc->mode : 0, desc ? (int)desc->priority : 0,
		 k == K_QUEUE ? "queue" : "list", addr(h), r);
	return r;
}

EXPORT ze_result_t zeCommandQueueCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
					const ze_command_queue_desc_t *desc,
					ze_command_queue_handle_t *phCommandQueue)
{
	SCRIPTED();
	return queue_like_create(__func__, K_QUEUE, hContext, hDevice, desc, (void **)phCommandQueue);
}

EXPORT ze_result_t zeCommandListCreateImmediate(ze_context_handle_t hContext,
						ze_device_handle_t hDevice,
						const ze_command_queue_desc_t *altdesc,
						ze_command_list_handle_t *phCommandList)
{
	SCRIPTED();
	return queue_like_create(__func__, K_LIST, hContext, hDevice, altdesc, (void **)phCommandList);
}

EXPORT ze_result_t zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				       const ze_command_list_desc_t *desc,
				       ze_command_list_handle_t *phCommandList)
{
	void *h = NULL;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_CONTEXT, hContext) || !is_device(hDevice),
		ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!desc || !phCommandList, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(desc->flags > 0x7, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r) {
		h = obj_handle(K_LIST, obj_new(K_LIST));
		FAIL_IF(!h, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
		if (!r)
			*phCommandList = h;
	}
	fake_log(__func__, "context=0x%lx device=0x%lx ordinal=%u flags=0x%x list=0x%lx result=%d",
		 addr(hContext), addr(hDevice), desc ? desc->commandQueueGroupOrdinal : 0,
		 desc ? desc->flags : 0, addr(h), r);
	return r;
}

/* Calls whose one argument is a handle of kind K: destroy it, or only check it. */
static ze_result_t one_handle(const char *func, const char *key, enum kind k, const void *h,
			      int destroy)
{
	ze_result_t r = ready();

	FAIL_IF(!(destroy ? obj_del(k, h) : obj_number(k, h)), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	fake_log(func, "%s=0x%lx result=%d", key, addr(h), r);
	return r;
}

EXPORT ze_result_t zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue)
{
	SCRIPTED();
	return one_handle(__func__, "queue", K_QUEUE, hCommandQueue, 1);
}

EXPORT ze_result_t zeCommandListClose(ze_command_list_handle_t hCommandList)
{
	SCRIPTED();
	return one_handle(__func__, "list", K_LIST, hCommandList, 0);
}

EXPORT ze_result_t zeCommandListReset(ze_command_list_handle_t hCommandList)
{
	SCRIPTED();
	return one_handle(__func__, "list", K_LIST, hCommandList, 0);
}

EXPORT ze_result_t zeCommandListDestroy(ze_command_list_handle_t hCommandList)
{
	SCRIPTED();
	return one_handle(__func__, "list", K_LIST, hCommandList, 1);
}

EXPORT ze_result_t zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue,
						     uint32_t numCommandLists,
						     ze_command_list_handle_t *phCommandLists,
						     ze_fence_handle_t hFence)
{
	char lists[8 * 20] = "";
	size_t used = 0;
	uint32_t i;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_QUEUE, hCommandQueue), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!phCommandLists, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(!numCommandLists, ZE_RESULT_ERROR_INVALID_SIZE);
	for (i = 0; phCommandLists && i < numCommandLists; i++) {
		FAIL_IF(!obj_number(K_LIST, phCommandLists[i]), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
		if (i < 8)
			used += snprintf(lists + used, sizeof(lists) - used, "%s0x%lx", i ? "," : "",
					 addr(phCommandLists[i]));
	}
	fake_log(__func__, "queue=0x%lx count=%u lists=%s fence=0x%lx result=%d", addr(hCommandQueue),
		 numCommandLists, used ? lists : "-", addr(hFence), r);
	return r;
}

EXPORT ze_result_t zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
					     uint64_t timeout)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_QUEUE, hCommandQueue), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	fake_log(__func__, "queue=0x%lx timeout=%llu result=%d", addr(hCommandQueue),
		 (unsigned long long)timeout, r);
	return r;
}

EXPORT ze_result_t zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!hEvent, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	fake_log(__func__, "event=0x%lx timeout=%llu result=%d", addr(hEvent),
		 (unsigned long long)timeout, r);
	return r;
}

/* ---- Copies and fills: the device side is imaginary, so only sizes matter. */

EXPORT ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList,
						 void *dstptr, const void *srcptr, size_t size,
						 ze_event_handle_t hSignalEvent,
						 uint32_t numWaitEvents,
						 ze_event_handle_t *phWaitEvents)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_LIST, hCommandList), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!dstptr || !srcptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(!phWaitEvents && numWaitEvents, ZE_RESULT_ERROR_INVALID_SIZE);
	fake_log(__func__, "list=0x%lx dst=0x%lx src=0x%lx size=%zu signal=0x%lx wait=%u result=%d",
		 addr(hCommandList), addr(dstptr), addr(srcptr), size, addr(hSignalEvent),
		 numWaitEvents, r);
	return r;
}

EXPORT ze_result_t zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList, void *ptr,
						 const void *pattern, size_t pattern_size,
						 size_t size, ze_event_handle_t hSignalEvent,
						 uint32_t numWaitEvents,
						 ze_event_handle_t *phWaitEvents)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_LIST, hCommandList), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!ptr || !pattern, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(!phWaitEvents && numWaitEvents, ZE_RESULT_ERROR_INVALID_SIZE);
	fake_log(__func__, "list=0x%lx ptr=0x%lx pattern_size=%zu size=%zu signal=0x%lx wait=%u "
		 "result=%d", addr(hCommandList), addr(ptr), pattern_size, size,
		 addr(hSignalEvent), numWaitEvents, r);
	return r;
}

/* ---- Memory ---------------------------------------------------------------- */

#define MEM_BASE	0x7d8000000000ULL	/* device pointers: no host mapping there */

enum mem_kind { MEM_DEVICE, MEM_SHARED, MEM_HOST };

/* The checks every allocation makes after its handles and pointers. */
static ze_result_t size_checks(size_t size, size_t alignment)
{
	if (!size)
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	if (alignment & (alignment - 1))
		return ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT;
	if (size > capacity())		/* above maxMemAllocSize */
		return ZE_RESULT_ERROR_UNSUPPORTED_SIZE;
	return ZE_RESULT_SUCCESS;
}

/* The allocation itself: *pptr is written on success only. */
static ze_result_t alloc(void **pptr, size_t size, size_t alignment, enum mem_kind kind)
{
	unsigned long long a = 0;

	if (kind == MEM_HOST) {
		void *p = NULL;

		if (alignment > sizeof(void *) ? posix_memalign(&p, alignment, size) :
						   !(p = malloc(size)))
			return ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
		mem_track_host(p, size);
		*pptr = p;
		return ZE_RESULT_SUCCESS;
	}
	/* Within the capacity (size_checks), but what is left may be less. */
	if (mem_alloc(MEM_BASE, size, alignment, &a))
		return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
	*pptr = (void *)(uintptr_t)a;
	return ZE_RESULT_SUCCESS;
}

/* What the call gave: the pointer on success, 0 otherwise. */
static unsigned long given(ze_result_t r, void **pptr)
{
	return !r && pptr ? addr(*pptr) : 0;
}

EXPORT ze_result_t zeMemAllocDevice(ze_context_handle_t hContext,
				    const ze_device_mem_alloc_desc_t *device_desc, size_t size,
				    size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_CONTEXT, hContext) || !is_device(hDevice),
		ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!device_desc || !pptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(device_desc->flags > 0x7, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r)
		r = size_checks(size, alignment);
	if (!r)
		r = alloc(pptr, size, alignment, MEM_DEVICE);
	fake_log(__func__, "context=0x%lx device=0x%lx bytes=%zu align=%zu flags=0x%x ordinal=%u "
		 "ptr=0x%lx result=%d", addr(hContext), addr(hDevice), size, alignment,
		 device_desc ? device_desc->flags : 0, device_desc ? device_desc->ordinal : 0,
		 given(r, pptr), r);
	return r;
}

EXPORT ze_result_t zeMemAllocHost(ze_context_handle_t hContext,
				  const ze_host_mem_alloc_desc_t *host_desc, size_t size,
				  size_t alignment, void **pptr)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_CONTEXT, hContext), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!host_desc || !pptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(host_desc->flags > 0xf, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r)
		r = size_checks(size, alignment);
	if (!r)
		r = alloc(pptr, size, alignment, MEM_HOST);
	fake_log(__func__, "context=0x%lx bytes=%zu align=%zu flags=0x%x ptr=0x%lx result=%d",
		 addr(hContext), size, alignment, host_desc ? host_desc->flags : 0, given(r, pptr), r);
	return r;
}

EXPORT ze_result_t zeMemAllocShared(ze_context_handle_t hContext,
				    const ze_device_mem_alloc_desc_t *device_desc,
				    const ze_host_mem_alloc_desc_t *host_desc, size_t size,
				    size_t alignment, ze_device_handle_t hDevice, void **pptr)
{
	ze_result_t r;

	SCRIPTED();
	r = ready();
	/* hDevice is optional: NULL associates the allocation with no device. */
	FAIL_IF(!obj_number(K_CONTEXT, hContext) || (hDevice && !is_device(hDevice)),
		ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!device_desc || !host_desc || !pptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(device_desc->flags > 0x7 || host_desc->flags > 0xf,
		ZE_RESULT_ERROR_INVALID_ENUMERATION);
	if (!r)
		r = size_checks(size, alignment);
	if (!r)
		r = alloc(pptr, size, alignment, MEM_SHARED);
	fake_log(__func__, "context=0x%lx device=0x%lx bytes=%zu align=%zu flags=0x%x "
		 "host_flags=0x%x ptr=0x%lx result=%d", addr(hContext), addr(hDevice), size,
		 alignment, device_desc ? device_desc->flags : 0, host_desc ? host_desc->flags : 0,
		 given(r, pptr), r);
	return r;
}

EXPORT ze_result_t zeMemFree(ze_context_handle_t hContext, void *ptr)
{
	ze_result_t r;
	int host;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_CONTEXT, hContext), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!ptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!r) {
		host = mem_forget((uintptr_t)ptr, -1);	/* either kind: one free for all */
		FAIL_IF(host < 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
		if (host == 1)
			free(ptr);
	}
	fake_log(__func__, "context=0x%lx ptr=0x%lx result=%d", addr(hContext), addr(ptr), r);
	return r;
}

/* ---- Modules and build logs ------------------------------------------------ */

#define SPIRV_MAGIC	0x07230203u
#define SPIRV_HEADER	20	/* 5 words: magic, version, generator, bound, schema */

static char log_text[MAX_OBJS + 1][160];	/* by build log number */

/* Build DESC: "" if it builds, else the first line of its log. */
static void build(const ze_module_desc_t *desc, char *err, size_t len)
{
	uint32_t word = 0;

	err[0] = 0;
	if (desc->format != ZE_MODULE_FORMAT_IL_SPIRV)
		return;
	memcpy(&word, desc->pInputModule, desc->inputSize < 4 ? desc->inputSize : 4);
	if (word != SPIRV_MAGIC)
		snprintf(err, len, "error: invalid SPIR-V module: magic number 0x%08x, not 0x%08x",
			 word, SPIRV_MAGIC);
	else if (desc->inputSize < SPIRV_HEADER)
		snprintf(err, len, "error: invalid SPIR-V module: %zu bytes, shorter than its "
			 "%d-byte header", desc->inputSize, SPIRV_HEADER);
}

EXPORT ze_result_t zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
				  const ze_module_desc_t *desc, ze_module_handle_t *phModule,
				  ze_module_build_log_handle_t *phBuildLog)
{
	void *module = NULL, *blog = NULL;
	char err[120];
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_CONTEXT, hContext) || !is_device(hDevice),
		ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!desc || !desc->pInputModule || !phModule, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(desc->format > ZE_MODULE_FORMAT_NATIVE, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	FAIL_IF(!desc->inputSize, ZE_RESULT_ERROR_INVALID_SIZE);
	if (!r) {
		build(desc, err, sizeof(err));
		FAIL_IF(err[0], ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
		if (phBuildLog) {
			unsigned int n = obj_new(K_LOG);

			if (n) {
				snprintf(log_text[n], sizeof(log_text[n]), "%s%s", err,
					 err[0] ? "\nerror: backend compiler failed build.\n" : "");
				blog = obj_handle(K_LOG, n);
			}
			*phBuildLog = blog;
		}
		if (!r) {
			module = obj_handle(K_MODULE, obj_new(K_MODULE));
			FAIL_IF(!module, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
			if (!r)
				*phModule = module;
		}
	}
	fake_log(__func__, "context=0x%lx device=0x%lx format=%d size=%zu module=0x%lx log=0x%lx "
		 "result=%d", addr(hContext), addr(hDevice), desc ? (int)desc->format : 0,
		 desc ? desc->inputSize : 0, addr(module), addr(blog), r);
	return r;
}

EXPORT ze_result_t zeModuleDestroy(ze_module_handle_t hModule)
{
	SCRIPTED();
	return one_handle(__func__, "module", K_MODULE, hModule, 1);
}

EXPORT ze_result_t zeModuleBuildLogGetString(ze_module_build_log_handle_t hModuleBuildLog,
					     size_t *pSize, char *pBuildLog)
{
	unsigned int n = obj_number(K_LOG, hModuleBuildLog);
	size_t size_in = 0, len = 0;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!n, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!pSize, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	if (!r) {
		len = strlen(log_text[n]) + 1;
		size_in = *pSize;
		if (pBuildLog && size_in) {
			/* As much as the buffer holds, always terminated. */
			size_t copy = len < size_in ? len : size_in;

			memcpy(pBuildLog, log_text[n], copy - 1);
			pBuildLog[copy - 1] = 0;
		} else {
			*pSize = len;
		}
	}
	fake_log(__func__, "log=0x%lx size_in=%zu size=%zu buffer=%d result=%d",
		 addr(hModuleBuildLog), size_in, !r ? *pSize : 0, pBuildLog != NULL, r);
	return r;
}

EXPORT ze_result_t zeModuleBuildLogDestroy(ze_module_build_log_handle_t hModuleBuildLog)
{
	SCRIPTED();
	return one_handle(__func__, "log", K_LOG, hModuleBuildLog, 1);
}

/* ---- Kernels --------------------------------------------------------------- */

static struct {
	char name[64];
	uint32_t x, y, z;	/* the group size last set; 0x0x0: none */
} kernels[MAX_OBJS + 1];	/* by kernel number */

/* The name a kernel handle was created with; "?" for none. */
static const char *kernel_name(unsigned int n)
{
	return n ? kernels[n].name : "?";
}

EXPORT ze_result_t zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
				  ze_kernel_handle_t *phKernel)
{
	const char *name = desc && desc->pKernelName ? desc->pKernelName : "(null)";
	unsigned int n = 0;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	FAIL_IF(!obj_number(K_MODULE, hModule), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!desc || !desc->pKernelName || !phKernel, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(desc->flags > 0x3, ZE_RESULT_ERROR_INVALID_ENUMERATION);
	/* A real module has a fixed set; "no_such_kernel" stands for a name it lacks. */
	FAIL_IF(!*name || !strcmp(name, "no_such_kernel"), ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
	if (!r) {
		n = obj_new(K_KERNEL);
		FAIL_IF(!n, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
		if (!r) {
			snprintf(kernels[n].name, sizeof(kernels[n].name), "%s", name);
			kernels[n].x = kernels[n].y = kernels[n].z = 0;
			*phKernel = obj_handle(K_KERNEL, n);
		}
	}
	fake_log(__func__, "module=0x%lx kernel=%s flags=0x%x handle=0x%lx result=%d", addr(hModule),
		 name, desc ? desc->flags : 0, addr(obj_handle(K_KERNEL, n)), r);
	return r;
}

EXPORT ze_result_t zeKernelDestroy(ze_kernel_handle_t hKernel)
{
	unsigned int n;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	n = obj_number(K_KERNEL, hKernel);
	FAIL_IF(!obj_del(K_KERNEL, hKernel), ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	fake_log(__func__, "kernel=%s handle=0x%lx result=%d", kernel_name(n), addr(hKernel), r);
	return r;
}

EXPORT ze_result_t zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t groupSizeX,
					uint32_t groupSizeY, uint32_t groupSizeZ)
{
	unsigned int n;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	n = obj_number(K_KERNEL, hKernel);
	FAIL_IF(!n, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!groupSizeX || !groupSizeY || !groupSizeZ,
		ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
	if (!r) {
		kernels[n].x = groupSizeX;
		kernels[n].y = groupSizeY;
		kernels[n].z = groupSizeZ;
	}
	fake_log(__func__, "kernel=%s handle=0x%lx group_size=%ux%ux%u result=%d", kernel_name(n),
		 addr(hKernel), groupSizeX, groupSizeY, groupSizeZ, r);
	return r;
}

EXPORT ze_result_t zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList,
						   ze_kernel_handle_t hKernel,
						   const ze_group_count_t *pLaunchFuncArgs,
						   ze_event_handle_t hSignalEvent,
						   uint32_t numWaitEvents,
						   ze_event_handle_t *phWaitEvents)
{
	const ze_group_count_t *g = pLaunchFuncArgs;
	unsigned int n;
	ze_result_t r;

	SCRIPTED();
	r = ready();
	n = obj_number(K_KERNEL, hKernel);
	FAIL_IF(!obj_number(K_LIST, hCommandList) || !n, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
	FAIL_IF(!g, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
	FAIL_IF(!phWaitEvents && numWaitEvents, ZE_RESULT_ERROR_INVALID_SIZE);
	fake_log(__func__, "list=0x%lx kernel=%s handle=0x%lx groups=%ux%ux%u group_size=%ux%ux%u "
		 "signal=0x%lx wait=%u result=%d", addr(hCommandList), kernel_name(n), addr(hKernel),
		 g ? g->groupCountX : 0, g ? g->groupCountY : 0, g ? g->groupCountZ : 0,
		 kernels[n].x, kernels[n].y, kernels[n].z, addr(hSignalEvent), numWaitEvents, r);
	return r;
}
