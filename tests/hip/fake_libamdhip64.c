// SPDX-License-Identifier: GPL-2.0
/*
 * A fake libamdhip64.so.5 (AMD's HIP runtime, ROCm 5.x) for hiptrace's
 * tests: the runtime functions hiptrace probes, under their real exported
 * names and with the prototypes of hip/hip_runtime_api.h (fake_hip.h),
 * with enough behaviour to give real answers:
 *
 *   memory    a device allocator with a capacity (16 GiB, or $FAKE_HIP_MEM
 *             bytes) handing out distinct addresses from 0x7e8000000000
 *             (below any base ASLR gives mmap, so no host mapping is at
 *             the same address) for hipMalloc, hipMallocManaged,
 *             hipExtMallocWithFlags and hipMallocAsync; hipHostMalloc is
 *             malloc.  Frees are checked against what is live: an unknown
 *             pointer is hipErrorInvalidValue (hipFree and hipFreeAsync
 *             take device pointers, hipHostFree host ones); a NULL one is
 *             hipSuccess and frees nothing, as the real hipFree.  A size
 *             of 0 allocates nothing and gives NULL, with hipSuccess, as
 *             the real hipMalloc.
 *   copies    sizes only (the device side is imaginary); a hipMemcpyKind
 *             above hipMemcpyDefault is hipErrorInvalidMemcpyDirection.
 *   modules   hipModuleLoad of a path that cannot be read is
 *             hipErrorFileNotFound; hipModuleUnload of a module it did not
 *             load is hipErrorInvalidResourceHandle.
 *   kernels   hipModuleGetFunction knows every name it is asked for except
 *             "no_such_kernel" (hipErrorNotFound); hipModuleLaunchKernel
 *             of a handle it did not give (NULL included) is
 *             hipErrorInvalidResourceHandle, hipLaunchKernel of a NULL
 *             host function hipErrorInvalidDeviceFunction, as the real
 *             runtime's ihipLaunchKernel says; any other host function is
 *             taken for a registered kernel.  A zero dimension is
 *             hipErrorInvalidValue / hipErrorInvalidConfiguration.
 *   streams   handles from 0x5010 up; hipStreamDestroy of one it did not
 *             create is hipErrorInvalidResourceHandle.
 *   devices   one: hipSetDevice of any other is hipErrorInvalidDevice;
 *             hipInit with flags is hipErrorInvalidValue; the versions are
 *             HIP_VERSION 5.2.21153, 50221153.  hipDeviceReset forgets
 *             nothing.
 *   errors    each failing call sets the thread's last error, which
 *             hipPeekAtLastError returns and hipGetLastError returns and
 *             resets to hipSuccess.  hipGetErrorName and hipGetErrorString
 *             give the names ROCm 5.2's own library gives (its
 *             hipGetErrorString returns the name too), "hipErrorUnknown"
 *             for a value the fake never returns.
 *
 * Results and latencies can be scripted (fake_hip_script), and every call
 * is logged with the arguments as received ($FAKE_HIP_LOG).  The exported
 * symbols carry the real library's versions (libamdhip64.map:
 * hipMallocAsync and hipFreeAsync hip_5.1, the rest hip_4.2).
 *
 * Deliberately missing: hipLaunchCooperativeKernel, which the real library
 * exports, so hiptrace has something to report as lacking.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fake_hip.h"
#define FAKE_LOG_ENV "FAKE_HIP_LOG"
#include "fake/fake_log.h"
#include "fake/fake_script.h"
#define FAKE_MEM_ENV "FAKE_HIP_MEM"
#include "fake/fake_mem.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- The last error, per thread as the real runtime keeps it ------------- */

static __thread hipError_t last_error;

/* Every result goes through here: a failure is remembered. */
static hipError_t ret(hipError_t r)
{
	if (r != hipSuccess)
		last_error = r;
	return r;
}

/* ---- Scripted results (tests/fake/fake_script.h) ------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the fake's own state */

EXPORT void fake_hip_script(const char *func, hipError_t result, unsigned int delay_us)
{
	script_push(func, result, delay_us);
}

#define SCRIPTED()                                   \
	do {                                         \
		int r_;                              \
		if (scripted(__func__, &r_))         \
			return ret(r_);              \
	} while (0)

static unsigned long addr(const void *p)
{
	return (unsigned long)(uintptr_t)p;
}

/* ---- Memory ------------------------------------------------------------- */

#define DEV_BASE	0x7e8000000000ULL	/* device pointers: no host mapping there */

enum mem_kind { MEM_DEVICE, MEM_MANAGED, MEM_HOST };

/* Forget a live allocation, host or not; hipErrorInvalidValue if there is none. */
static hipError_t untrack(unsigned long long a, int host)
{
	return mem_forget(a, host) < 0 ? hipErrorInvalidValue : hipSuccess;
}

/* The allocation functions' common part: *ptr is written on success only. */
static hipError_t alloc(void **ptr, unsigned long long size, enum mem_kind kind)
{
	unsigned long long a = 0;

	if (!ptr)
		return hipErrorInvalidValue;
	if (!size) {
		*ptr = NULL;
		return hipSuccess;
	}
	if (kind == MEM_HOST) {
		void *p = malloc(size);

		if (!p)
			return hipErrorOutOfMemory;
		mem_track_host(p, size);
		*ptr = p;
		return hipSuccess;
	}
	if (mem_alloc(DEV_BASE, size, 0, &a))
		return hipErrorOutOfMemory;
	*ptr = (void *)(uintptr_t)a;
	return hipSuccess;
}

/* What the call gave: the pointer on success, 0 otherwise. */
static unsigned long given(hipError_t r, void **ptr)
{
	return !r && ptr ? addr(*ptr) : 0;
}

EXPORT hipError_t hipMalloc(void **ptr, size_t size)
{
	hipError_t r;

	SCRIPTED();
	r = alloc(ptr, size, MEM_DEVICE);
	fake_log(__func__, "bytes=%zu ptr=0x%lx result=%d", size, given(r, ptr), r);
	return ret(r);
}

EXPORT hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags)
{
	hipError_t r;

	SCRIPTED();
	r = alloc(dev_ptr, size, MEM_MANAGED);
	fake_log(__func__, "bytes=%zu flags=0x%x ptr=0x%lx result=%d", size, flags,
		 given(r, dev_ptr), r);
	return ret(r);
}

EXPORT hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
	hipError_t r;

	SCRIPTED();
	r = alloc(ptr, size, MEM_HOST);
	fake_log(__func__, "bytes=%zu flags=0x%x ptr=0x%lx result=%d", size, flags, given(r, ptr), r);
	return ret(r);
}

EXPORT hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags)
{
	hipError_t r;

	SCRIPTED();
	r = alloc(ptr, sizeBytes, MEM_DEVICE);
	fake_log(__func__, "bytes=%zu flags=0x%x ptr=0x%lx result=%d", sizeBytes, flags,
		 given(r, ptr), r);
	return ret(r);
}

EXPORT hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream)
{
	hipError_t r;

	SCRIPTED();
	r = alloc(dev_ptr, size, MEM_DEVICE);
	fake_log(__func__, "bytes=%zu ptr=0x%lx stream=0x%lx result=%d", size, given(r, dev_ptr),
		 addr(stream), r);
	return ret(r);
}

EXPORT hipError_t hipFree(void *ptr)
{
	hipError_t r;

	SCRIPTED();
	r = ptr ? untrack(addr(ptr), 0) : hipSuccess;
	fake_log(__func__, "ptr=0x%lx result=%d", addr(ptr), r);
	return ret(r);
}

EXPORT hipError_t hipHostFree(void *ptr)
{
	hipError_t r;

	SCRIPTED();
	r = ptr ? untrack(addr(ptr), 1) : hipSuccess;
	if (ptr && !r)
		free(ptr);
	fake_log(__func__, "ptr=0x%lx result=%d", addr(ptr), r);
	return ret(r);
}

EXPORT hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream)
{
	hipError_t r;

	SCRIPTED();
	r = dev_ptr ? untrack(addr(dev_ptr), 0) : hipSuccess;
	fake_log(__func__, "ptr=0x%lx stream=0x%lx result=%d", addr(dev_ptr), addr(stream), r);
	return ret(r);
}

/* ---- Copies and sets: the device side is imaginary, so only sizes matter. */

static hipError_t check_kind(hipMemcpyKind kind)
{
	return (unsigned int)kind > hipMemcpyDefault ? hipErrorInvalidMemcpyDirection : hipSuccess;
}

EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
	hipError_t r;

	SCRIPTED();
	r = check_kind(kind);
	fake_log(__func__, "bytes=%zu kind=%d result=%d", sizeBytes, (int)kind, r);
	return ret(r);
}

EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
				 hipStream_t stream)
{
	hipError_t r;

	SCRIPTED();
	r = check_kind(kind);
	fake_log(__func__, "bytes=%zu kind=%d stream=0x%lx result=%d", sizeBytes, (int)kind,
		 addr(stream), r);
	return ret(r);
}

#define COPY(name, dst_t, src_t)                                                   \
	EXPORT hipError_t name(dst_t dst, src_t src, size_t sizeBytes)             \
	{                                                                          \
		SCRIPTED();                                                        \
		fake_log(__func__, "bytes=%zu result=0", sizeBytes);               \
		return hipSuccess;                                                 \
	}
#define COPY_ASYNC(name, dst_t, src_t)                                             \
	EXPORT hipError_t name(dst_t dst, src_t src, size_t sizeBytes, hipStream_t stream) \
	{                                                                          \
		SCRIPTED();                                                        \
		fake_log(__func__, "bytes=%zu stream=0x%lx result=0", sizeBytes, addr(stream)); \
		return hipSuccess;                                                 \
	}

COPY(hipMemcpyHtoD, hipDeviceptr_t, void *)
COPY(hipMemcpyDtoH, void *, hipDeviceptr_t)
COPY(hipMemcpyDtoD, hipDeviceptr_t, hipDeviceptr_t)
COPY_ASYNC(hipMemcpyHtoDAsync, hipDeviceptr_t, void *)
COPY_ASYNC(hipMemcpyDtoHAsync, void *, hipDeviceptr_t)
COPY_ASYNC(hipMemcpyDtoDAsync, hipDeviceptr_t, hipDeviceptr_t)

EXPORT hipError_t hipMemset(void *dst, int value, size_t sizeBytes)
{
	SCRIPTED();
	fake_log(__func__, "bytes=%zu value=%d result=0", sizeBytes, value);
	return hipSuccess;
}

EXPORT hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream)
{
	SCRIPTED();
	fake_log(__func__, "bytes=%zu value=%d stream=0x%lx result=0", sizeBytes, value,
		 addr(stream));
	return hipSuccess;
}

/* ---- Modules ------------------------------------------------------------- */

#define MAX_MODULES	32
#define MODULE_BASE	0x6d000000UL	/* hipModule_t handles */
#define HANDLE_STEP	0x40

static unsigned char module_live[MAX_MODULES];

static hipError_t module_new(hipModule_t *module)
{
	hipError_t r = hipErrorOutOfMemory;
	int i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_MODULES; i++) {
		if (!module_live[i]) {
			module_live[i] = 1;
			*module = (hipModule_t)(MODULE_BASE + i * HANDLE_STEP);
			r = hipSuccess;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return r;
}

EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *fname)
{
	hipError_t r;

	SCRIPTED();
	if (!module || !fname)
		r = hipErrorInvalidValue;
	else if (access(fname, R_OK))
		r = hipErrorFileNotFound;
	else
		r = module_new(module);
	fake_log(__func__, "file=%s module=0x%lx result=%d", fname ? fname : "(null)",
		 r ? 0 : addr(*module), r);
	return ret(r);
}

EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	hipError_t r;

	SCRIPTED();
	r = module && image ? module_new(module) : hipErrorInvalidValue;
	fake_log(__func__, "image=0x%lx module=0x%lx result=%d", addr(image),
		 r ? 0 : addr(*module), r);
	return ret(r);
}

EXPORT hipError_t hipModuleUnload(hipModule_t module)
{
	uintptr_t h = (uintptr_t)module;
	hipError_t r = hipErrorInvalidResourceHandle;

	SCRIPTED();
	pthread_mutex_lock(&lock);
	if (h >= MODULE_BASE && h < MODULE_BASE + MAX_MODULES * HANDLE_STEP &&
	    !((h - MODULE_BASE) % HANDLE_STEP) && module_live[(h - MODULE_BASE) / HANDLE_STEP]) {
		module_live[(h - MODULE_BASE) / HANDLE_STEP] = 0;
		r = hipSuccess;
	}
	pthread_mutex_unlock(&lock);
	fake_log(__func__, "module=0x%lx result=%d", (unsigned long)h, r);
	return ret(r);
}

/* ---- Kernels ------------------------------------------------------------ */

#define MAX_KERNELS	32
#define FUNC_BASE	0x6b000000UL	/* hipFunction_t handles */

static char kernel_names[MAX_KERNELS][64];

/* The handle of a kernel by name, a new one for a name not seen; 0: none. */
static uintptr_t kernel_handle(const char *name)
{
	uintptr_t h = 0;
	int i;

	/* A real module has a fixed set; "no_such_kernel" stands for a name it lacks. */
	if (!strcmp(name, "no_such_kernel"))
		return 0;
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_KERNELS; i++) {
		if (!kernel_names[i][0])
			snprintf(kernel_names[i], sizeof(kernel_names[i]), "%s", name);
		if (!strcmp(kernel_names[i], name)) {
			h = FUNC_BASE + i * HANDLE_STEP;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return h;
}

static const char *handle_name(uintptr_t h)
{
	if (h < FUNC_BASE || h >= FUNC_BASE + MAX_KERNELS * HANDLE_STEP || (h - FUNC_BASE) % HANDLE_STEP ||
	    !kernel_names[(h - FUNC_BASE) / HANDLE_STEP][0])
		return NULL;
	return kernel_names[(h - FUNC_BASE) / HANDLE_STEP];
}

EXPORT hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module,
				       const char *kname)
{
	uintptr_t h = 0;
	hipError_t r;

	SCRIPTED();
	if (!function || !kname || !*kname) {
		r = hipErrorInvalidValue;
	} else {
		h = kernel_handle(kname);
		r = h ? hipSuccess : hipErrorNotFound;
		if (h)
			*function = (hipFunction_t)h;
	}
	fake_log(__func__, "kernel=%s module=0x%lx handle=0x%lx result=%d", kname ? kname : "(null)",
		 addr(module), (unsigned long)h, r);
	return ret(r);
}

EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
					unsigned int gridDimY, unsigned int gridDimZ,
					unsigned int blockDimX, unsigned int blockDimY,
					unsigned int blockDimZ, unsigned int sharedMemBytes,
					hipStream_t stream, void **kernelParams, void **extra)
{
	const char *name;
	hipError_t r = hipSuccess;

	SCRIPTED();
	name = handle_name((uintptr_t)f);
	if (!name)
		r = hipErrorInvalidResourceHandle;
	else if (!gridDimX || !gridDimY || !gridDimZ || !blockDimX || !blockDimY || !blockDimZ)
		r = hipErrorInvalidValue;
	fake_log(__func__, "kernel=%s grid=%ux%ux%u block=%ux%ux%u shmem=%u stream=0x%lx result=%d",
		 name ? name : "?", gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
		 sharedMemBytes, addr(stream), r);
	return ret(r);
}

EXPORT hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
				  void **args, size_t sharedMemBytes, hipStream_t stream)
{
	hipError_t r = hipSuccess;

	SCRIPTED();
	if (!function_address)
		r = hipErrorInvalidDeviceFunction;
	else if (!numBlocks.x || !numBlocks.y || !numBlocks.z || !dimBlocks.x || !dimBlocks.y ||
		 !dimBlocks.z)
		r = hipErrorInvalidConfiguration;
	fake_log(__func__, "func=0x%lx grid=%ux%ux%u block=%ux%ux%u shmem=%zu stream=0x%lx result=%d",
		 addr(function_address), numBlocks.x, numBlocks.y, numBlocks.z, dimBlocks.x,
		 dimBlocks.y, dimBlocks.z, sharedMemBytes, addr(stream), r);
	return ret(r);
}

/* ---- Streams and synchronization ---------------------------------------- */

#define MAX_STREAMS	32
#define STREAM_BASE	0x5000UL

static unsigned char stream_live[MAX_STREAMS + 1];	/* by number: handle STREAM_BASE + 0x10 * n */
static unsigned int nr_streams;

static hipError_t stream_create(const char *func, hipStream_t *stream, unsigned int flags,
				int has_flags)
{
	uintptr_t s = 0;
	hipError_t r = hipSuccess;

	if (!stream) {
		r = hipErrorInvalidValue;
	} else {
		pthread_mutex_lock(&lock);
		if (nr_streams < MAX_STREAMS) {
			stream_live[++nr_streams] = 1;
			s = STREAM_BASE + 0x10 * nr_streams;
		} else {
			r = hipErrorOutOfMemory;
		}
		pthread_mutex_unlock(&lock);
		if (!r)
			*stream = (hipStream_t)s;
	}
	if (has_flags)
		fake_log(func, "flags=0x%x stream=0x%lx result=%d", flags, (unsigned long)s, r);
	else
		fake_log(func, "stream=0x%lx result=%d", (unsigned long)s, r);
	return ret(r);
}

EXPORT hipError_t hipStreamCreate(hipStream_t *stream)
{
	SCRIPTED();
	return stream_create(__func__, stream, 0, 0);
}

EXPORT hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags)
{
	SCRIPTED();
	return stream_create(__func__, stream, flags, 1);
}

EXPORT hipError_t hipStreamDestroy(hipStream_t stream)
{
	uintptr_t s = (uintptr_t)stream, n = (s - STREAM_BASE) / 0x10;
	hipError_t r = hipErrorInvalidResourceHandle;

	SCRIPTED();
	pthread_mutex_lock(&lock);
	if (s > STREAM_BASE && !(s % 0x10) && n <= MAX_STREAMS && stream_live[n]) {
		stream_live[n] = 0;
		r = hipSuccess;
	}
	pthread_mutex_unlock(&lock);
	fake_log(__func__, "stream=0x%lx result=%d", (unsigned long)s, r);
	return ret(r);
}

EXPORT hipError_t hipStreamSynchronize(hipStream_t stream)
{
	SCRIPTED();
	fake_log(__func__, "stream=0x%lx result=0", addr(stream));
	return hipSuccess;
}

EXPORT hipError_t hipDeviceSynchronize(void)
{
	SCRIPTED();
	fake_log(__func__, "result=0");
	return hipSuccess;
}

/* ---- Initialization and devices: one device, number 0 ------------------- */

#define FAKE_HIP_VERSION	50221153	/* HIP_VERSION of 5.2.21153 */

static int current_device;

EXPORT hipError_t hipInit(unsigned int flags)
{
	hipError_t r = flags ? hipErrorInvalidValue : hipSuccess;

	SCRIPTED();
	fake_log(__func__, "flags=0x%x result=%d", flags, r);
	return ret(r);
}

/* Functions writing one int: VALUE on success, hipErrorInvalidValue for a NULL pointer. */
static hipError_t get_int(const char *func, const char *key, int *out, int value)
{
	hipError_t r = out ? hipSuccess : hipErrorInvalidValue;

	if (out)
		*out = value;
	fake_log(func, "%s=%d result=%d", key, out ? value : 0, r);
	return ret(r);
}

EXPORT hipError_t hipDriverGetVersion(int *driverVersion)
{
	SCRIPTED();
	return get_int(__func__, "version", driverVersion, FAKE_HIP_VERSION);
}

EXPORT hipError_t hipRuntimeGetVersion(int *runtimeVersion)
{
	SCRIPTED();
	return get_int(__func__, "version", runtimeVersion, FAKE_HIP_VERSION);
}

EXPORT hipError_t hipGetDeviceCount(int *count)
{
	SCRIPTED();
	return get_int(__func__, "count", count, 1);
}

EXPORT hipError_t hipGetDevice(int *deviceId)
{
	SCRIPTED();
	return get_int(__func__, "device", deviceId, current_device);
}

EXPORT hipError_t hipSetDevice(int deviceId)
{
	hipError_t r = deviceId ? hipErrorInvalidDevice : hipSuccess;

	SCRIPTED();
	if (!r)
		current_device = deviceId;
	fake_log(__func__, "device=%d result=%d", deviceId, r);
	return ret(r);
}

EXPORT hipError_t hipDeviceReset(void)
{
	SCRIPTED();
	fake_log(__func__, "result=0");
	return hipSuccess;
}

/* ---- Errors --------------------------------------------------------------- */

EXPORT hipError_t hipGetLastError(void)
{
	hipError_t r;

	SCRIPTED();
	r = last_error;
	last_error = hipSuccess;
	fake_log(__func__, "result=%d", r);
	return r;
}

EXPORT hipError_t hipPeekAtLastError(void)
{
	SCRIPTED();
	fake_log(__func__, "result=%d", last_error);
	return last_error;
}

/* The names ROCm 5.2's hipGetErrorName gives the values the fake returns. */
static const struct {
	hipError_t error;
	const char *name;
} error_names[] = {
	{ hipSuccess, "hipSuccess" },
	{ hipErrorInvalidValue, "hipErrorInvalidValue" },
	{ hipErrorOutOfMemory, "hipErrorOutOfMemory" },
	{ hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration" },
	{ hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection" },
	{ hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction" },
	{ hipErrorNoDevice, "hipErrorNoDevice" },
	{ hipErrorInvalidDevice, "hipErrorInvalidDevice" },
	{ hipErrorFileNotFound, "hipErrorFileNotFound" },
	{ hipErrorInvalidHandle, "hipErrorInvalidHandle" },
	{ hipErrorNotFound, "hipErrorNotFound" },
	{ hipErrorLaunchFailure, "hipErrorLaunchFailure" },
	{ hipErrorUnknown, "hipErrorUnknown" },
};

static const char *error_name(hipError_t e)
{
	size_t i;

	for (i = 0; i < sizeof(error_names) / sizeof(error_names[0]); i++)
		if (error_names[i].error == e)
			return error_names[i].name;
	return "hipErrorUnknown";
}

EXPORT const char *hipGetErrorName(hipError_t hip_error)
{
	const char *name = error_name(hip_error);

	fake_log(__func__, "error=%d name=%s", hip_error, name);
	return name;
}

/* ROCm 5.2's hipGetErrorString returns the name, not a description. */
EXPORT const char *hipGetErrorString(hipError_t hipError)
{
	const char *name = error_name(hipError);

	fake_log(__func__, "error=%d string=%s", hipError, name);
	return name;
}
