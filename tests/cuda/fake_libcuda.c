// SPDX-License-Identifier: GPL-2.0
/*
 * A fake libcuda.so.1 for cudatrace's tests: the driver API functions
 * cudatrace probes, under their real exported names (the _v2 versions,
 * the legacy v1 names with 32-bit sizes and pointers, and the _ptds /
 * _ptsz per-thread-stream variants), with enough behaviour to give real
 * answers: a device memory allocator with a capacity (16 GiB, or
 * $FAKE_CUDA_MEM bytes), frees checked against it, kernel handles by
 * name, launches checked for a valid handle.  Results and latencies can
 * be scripted (fake_cuda_script), and every call is logged with the
 * arguments as received ($FAKE_CUDA_LOG).
 *
 * Deliberately missing: cuLaunchCooperativeKernel_ptsz and
 * cuCtxSynchronize_v2, so cudatrace has something to report as lacking.
 */
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "fake_cuda.h"
#define FAKE_LOG_ENV "FAKE_CUDA_LOG"
#include "fake/fake_log.h"
#include "fake/fake_script.h"
#define FAKE_MEM_ENV "FAKE_CUDA_MEM"
#include "fake/fake_mem.h"

#define EXPORT __attribute__((visibility("default")))

/* ---- Scripted results (tests/fake/fake_script.h) ------------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;	/* the fake's own state */

EXPORT void fake_cuda_script(const char *func, CUresult result, unsigned int delay_us)
{
	script_push(func, result, delay_us);
}

/* fake_cuda_hold(): calls of cuCtxSynchronize still to hold, and those inside. */
static pthread_cond_t hold_cond = PTHREAD_COND_INITIALIZER;
static unsigned int hold_n, hold_in;

EXPORT void fake_cuda_hold(unsigned int n)
{
	pthread_mutex_lock(&lock);
	hold_n = n;
	hold_in = 0;
	pthread_mutex_unlock(&lock);
}

static void held(void)
{
	pthread_mutex_lock(&lock);
	if (hold_n && ++hold_in == hold_n) {
		hold_n = 0;
		pthread_cond_broadcast(&hold_cond);
	}
	while (hold_n)
		pthread_cond_wait(&hold_cond, &lock);
	pthread_mutex_unlock(&lock);
}

#define SCRIPTED()                                   \
	do {                                         \
		int r_;                              \
		if (scripted(__func__, &r_))         \
			return r_;                   \
	} while (0)

/* ---- Memory ------------------------------------------------------------- */

#define DEV_BASE	0x7e0000000000ULL	/* device pointers: unused by host mappings */
#define DEV_BASE_V1	0x10000000ULL		/* CUdeviceptr_v1: below 4 GiB */

/* fake/fake_mem.h's allocator, in CUresults: a size of 0 is invalid. */
static CUresult dev_alloc(unsigned long long base, unsigned long long size,
			  unsigned long long *addr)
{
	if (!size)
		return CUDA_ERROR_INVALID_VALUE;
	return mem_alloc(base, size, 0, addr) ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_SUCCESS;
}

/* Forget a live allocation of that kind; CUDA_ERROR_INVALID_VALUE if there is none. */
static CUresult untrack(unsigned long long addr, int host)
{
	return mem_forget(addr, host) < 0 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult alloc_logged(const char *func, CUdeviceptr *dptr, unsigned long long size,
			     unsigned long long base, CUstream s, int has_stream)
{
	unsigned long long addr = 0;
	CUresult r = dev_alloc(base, size, &addr);

	if (!r)
		*dptr = addr;
	if (has_stream)
		fake_log(func, "bytes=%llu ptr=0x%llx stream=0x%lx result=%d", size, r ? 0 : addr,
			 (unsigned long)(uintptr_t)s, r);
	else
		fake_log(func, "bytes=%llu ptr=0x%llx result=%d", size, r ? 0 : addr, r);
	return r;
}

EXPORT CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize)
{
	SCRIPTED();
	return alloc_logged(__func__, dptr, bytesize, DEV_BASE, NULL, 0);
}

EXPORT CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)
{
	CUdeviceptr p = 0;
	CUresult r;

	SCRIPTED();
	r = alloc_logged(__func__, &p, bytesize, DEV_BASE_V1, NULL, 0);
	if (!r)
		*dptr = (CUdeviceptr_v1)p;
	return r;
}

EXPORT CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags)
{
	SCRIPTED();
	return alloc_logged(__func__, dptr, bytesize, DEV_BASE, NULL, 0);
}

static CUresult host_alloc(const char *func, void **pp, unsigned long long size)
{
	void *p = size ? malloc(size) : NULL;

	if (!p) {
		fake_log(func, "bytes=%llu ptr=0x0 result=%d", size, CUDA_ERROR_OUT_OF_MEMORY);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	mem_track_host(p, size);
	*pp = p;
	fake_log(func, "bytes=%llu ptr=0x%lx result=0", size, (unsigned long)(uintptr_t)p);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	SCRIPTED();
	return host_alloc(__func__, pp, bytesize);
}

EXPORT CUresult cuMemAllocHost(void **pp, unsigned int bytesize)
{
	SCRIPTED();
	return host_alloc(__func__, pp, bytesize);
}

EXPORT CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	SCRIPTED();
	return alloc_logged(__func__, dptr, bytesize, DEV_BASE, hStream, 1);
}

EXPORT CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytesize, CUstream hStream)
{
	SCRIPTED();
	return alloc_logged(__func__, dptr, bytesize, DEV_BASE, hStream, 1);
}

static CUresult free_logged(const char *func, unsigned long long addr, CUstream s, int has_stream)
{
	CUresult r = untrack(addr, 0);

	if (has_stream)
		fake_log(func, "ptr=0x%llx stream=0x%lx result=%d", addr, (unsigned long)(uintptr_t)s, r);
	else
		fake_log(func, "ptr=0x%llx result=%d", addr, r);
	return r;
}

EXPORT CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	SCRIPTED();
	return free_logged(__func__, dptr, NULL, 0);
}

EXPORT CUresult cuMemFree(CUdeviceptr_v1 dptr)
{
	SCRIPTED();
	return free_logged(__func__, dptr, NULL, 0);
}

EXPORT CUresult cuMemFreeHost(void *p)
{
	CUresult r;

	SCRIPTED();
	r = untrack((uintptr_t)p, 1);
	if (!r)
		free(p);
	fake_log(__func__, "ptr=0x%lx result=%d", (unsigned long)(uintptr_t)p, r);
	return r;
}

EXPORT CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)
{
	SCRIPTED();
	return free_logged(__func__, dptr, hStream, 1);
}

EXPORT CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream)
{
	SCRIPTED();
	return free_logged(__func__, dptr, hStream, 1);
}

/* ---- Copies: the device side is imaginary, so only the sizes matter. ----- */

static CUresult copy_logged(const char *func, unsigned long long bytes, CUstream s, int has_stream)
{
	if (has_stream)
		fake_log(func, "bytes=%llu stream=0x%lx result=0", bytes, (unsigned long)(uintptr_t)s);
	else
		fake_log(func, "bytes=%llu result=0", bytes);
	return CUDA_SUCCESS;
}

#define COPY(name, dst_t, src_t, size_t_)                                  \
	EXPORT CUresult name(dst_t dst, src_t src, size_t_ bytes)          \
	{                                                                  \
		SCRIPTED();                                                \
		return copy_logged(__func__, bytes, NULL, 0);              \
	}
#define COPY_ASYNC(name, dst_t, src_t, size_t_)                            \
	EXPORT CUresult name(dst_t dst, src_t src, size_t_ bytes, CUstream s) \
	{                                                                  \
		SCRIPTED();                                                \
		return copy_logged(__func__, bytes, s, 1);                 \
	}

COPY(cuMemcpyHtoD_v2, CUdeviceptr, const void *, size_t)
COPY(cuMemcpyHtoD_v2_ptds, CUdeviceptr, const void *, size_t)
COPY(cuMemcpyHtoD, CUdeviceptr_v1, const void *, unsigned int)
COPY(cuMemcpyDtoH_v2, void *, CUdeviceptr, size_t)
COPY(cuMemcpyDtoH_v2_ptds, void *, CUdeviceptr, size_t)
COPY(cuMemcpyDtoH, void *, CUdeviceptr_v1, unsigned int)
COPY(cuMemcpyDtoD_v2, CUdeviceptr, CUdeviceptr, size_t)
COPY(cuMemcpyDtoD_v2_ptds, CUdeviceptr, CUdeviceptr, size_t)
COPY(cuMemcpyDtoD, CUdeviceptr_v1, CUdeviceptr_v1, unsigned int)
COPY_ASYNC(cuMemcpyHtoDAsync_v2, CUdeviceptr, const void *, size_t)
COPY_ASYNC(cuMemcpyHtoDAsync_v2_ptsz, CUdeviceptr, const void *, size_t)
COPY_ASYNC(cuMemcpyHtoDAsync, CUdeviceptr_v1, const void *, unsigned int)
COPY_ASYNC(cuMemcpyDtoHAsync_v2, void *, CUdeviceptr, size_t)
COPY_ASYNC(cuMemcpyDtoHAsync_v2_ptsz, void *, CUdeviceptr, size_t)
COPY_ASYNC(cuMemcpyDtoHAsync, void *, CUdeviceptr_v1, unsigned int)
COPY_ASYNC(cuMemcpyDtoDAsync_v2, CUdeviceptr, CUdeviceptr, size_t)
COPY_ASYNC(cuMemcpyDtoDAsync_v2_ptsz, CUdeviceptr, CUdeviceptr, size_t)
COPY_ASYNC(cuMemcpyDtoDAsync, CUdeviceptr_v1, CUdeviceptr_v1, unsigned int)

/* ---- Kernels ------------------------------------------------------------ */

#define MAX_KERNELS	32
#define FUNC_BASE	0x6b000000UL	/* CUfunction handles */
#define KERNEL_BASE	0x6c000000UL	/* CUkernel handles */
#define HANDLE_STEP	0x40

static char kernel_names[2][MAX_KERNELS][64];

/* The handle of a kernel by name (a module or a library namespace); 0: unknown. */
static uintptr_t kernel_handle(int lib, const char *name)
{
	uintptr_t base = lib ? KERNEL_BASE : FUNC_BASE, h = 0;
	int i;

	/* A real module has a fixed set; "missing" stands for a name it lacks. */
	if (!name || !*name || !strcmp(name, "missing"))
		return 0;
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAX_KERNELS; i++) {
		if (!kernel_names[lib][i][0])
			snprintf(kernel_names[lib][i], sizeof(kernel_names[lib][i]), "%s", name);
		if (!strcmp(kernel_names[lib][i], name)) {
			h = base + i * HANDLE_STEP;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	return h;
}

static const char *handle_name(uintptr_t h)
{
	int lib = h >= KERNEL_BASE && h < KERNEL_BASE + MAX_KERNELS * HANDLE_STEP;
	uintptr_t base = lib ? KERNEL_BASE : FUNC_BASE;

	if (h < base || h >= base + MAX_KERNELS * HANDLE_STEP || (h - base) % HANDLE_STEP ||
	    !kernel_names[lib][(h - base) / HANDLE_STEP][0])
		return NULL;
	return kernel_names[lib][(h - base) / HANDLE_STEP];
}

static CUresult get_kernel(const char *func, int lib, void **out, const char *name)
{
	uintptr_t h = kernel_handle(lib, name);
	CUresult r = h ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;

	if (h)
		*out = (void *)h;
	fake_log(func, "kernel=%s handle=0x%lx result=%d", name ? name : "(null)",
		 (unsigned long)h, r);
	return r;
}

EXPORT CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name)
{
	SCRIPTED();
	return get_kernel(__func__, 0, (void **)hfunc, name);
}

EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
	SCRIPTED();
	return get_kernel(__func__, 1, (void **)pKernel, name);
}

static CUresult launch(const char *func, CUfunction f, unsigned int gx, unsigned int gy,
		       unsigned int gz, unsigned int bx, unsigned int by, unsigned int bz,
		       unsigned int shmem, CUstream s)
{
	const char *name = handle_name((uintptr_t)f);
	CUresult r = CUDA_SUCCESS;

	if (!name)
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (!gx || !gy || !gz || !bx || !by || !bz)
		r = CUDA_ERROR_INVALID_VALUE;
	fake_log(func, "kernel=%s grid=%ux%ux%u block=%ux%ux%u shmem=%u stream=0x%lx result=%d",
		 name ? name : "?", gx, gy, gz, bx, by, bz, shmem, (unsigned long)(uintptr_t)s, r);
	return r;
}

EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
			       unsigned int gridDimZ, unsigned int blockDimX,
			       unsigned int blockDimY, unsigned int blockDimZ,
			       unsigned int sharedMemBytes, CUstream hStream, void **kernelParams,
			       void **extra)
{
	SCRIPTED();
	return launch(__func__, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
		      sharedMemBytes, hStream);
}

EXPORT CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
				    unsigned int gridDimZ, unsigned int blockDimX,
				    unsigned int blockDimY, unsigned int blockDimZ,
				    unsigned int sharedMemBytes, CUstream hStream,
				    void **kernelParams, void **extra)
{
	SCRIPTED();
	return launch(__func__, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
		      sharedMemBytes, hStream);
}

EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **kernelParams,
				 void **extra)
{
	SCRIPTED();
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	return launch(__func__, f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX,
		      c->blockDimY, c->blockDimZ, c->sharedMemBytes, c->hStream);
}

EXPORT CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f, void **kernelParams,
				      void **extra)
{
	SCRIPTED();
	if (!c)
		return CUDA_ERROR_INVALID_VALUE;
	return launch(__func__, f, c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX,
		      c->blockDimY, c->blockDimZ, c->sharedMemBytes, c->hStream);
}

EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
					  unsigned int gridDimY, unsigned int gridDimZ,
					  unsigned int blockDimX, unsigned int blockDimY,
					  unsigned int blockDimZ, unsigned int sharedMemBytes,
					  CUstream hStream, void **kernelParams)
{
	SCRIPTED();
	return launch(__func__, f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
		      sharedMemBytes, hStream);
}

/* ---- Streams and synchronization ---------------------------------------- */

#define STREAM_BASE 0x5000UL

static unsigned int nr_streams;

EXPORT CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags)
{
	uintptr_t s;

	SCRIPTED();
	pthread_mutex_lock(&lock);
	s = STREAM_BASE + 0x10 * ++nr_streams;
	pthread_mutex_unlock(&lock);
	*phStream = (CUstream)s;
	fake_log(__func__, "stream=0x%lx result=0", (unsigned long)s);
	return CUDA_SUCCESS;
}

static CUresult stream_op(const char *func, CUstream s)
{
	fake_log(func, "stream=0x%lx result=0", (unsigned long)(uintptr_t)s);
	return CUDA_SUCCESS;
}

EXPORT CUresult cuStreamDestroy_v2(CUstream hStream)
{
	SCRIPTED();
	return stream_op(__func__, hStream);
}

EXPORT CUresult cuStreamDestroy(CUstream hStream)
{
	SCRIPTED();
	return stream_op(__func__, hStream);
}

EXPORT CUresult cuStreamSynchronize(CUstream hStream)
{
	SCRIPTED();
	return stream_op(__func__, hStream);
}

EXPORT CUresult cuStreamSynchronize_ptsz(CUstream hStream)
{
	SCRIPTED();
	return stream_op(__func__, hStream);
}

EXPORT CUresult cuCtxSynchronize(void)
{
	SCRIPTED();
	held();
	fake_log(__func__, "result=0");
	return CUDA_SUCCESS;
}

/* ---- Set-up: devices, contexts, modules ------------------------------------ */

/*
 * One device, one context, modules and libraries by number: every call
 * succeeds unless scripted (a machine without a GPU fails them: the tests
 * script its errors), and is logged.
 */
#define SETUP_FN(name, params, ...)						\
	EXPORT CUresult name params						\
	{									\
		SCRIPTED();							\
		__VA_ARGS__;							\
		fake_log(__func__, "result=0");					\
		return CUDA_SUCCESS;						\
	}

static int fake_ctx, fake_module;

SETUP_FN(cuInit, (unsigned int Flags))
SETUP_FN(cuDriverGetVersion, (int *driverVersion), *driverVersion = 13000)
SETUP_FN(cuDeviceGet, (CUdevice *device, int ordinal), *device = ordinal)
SETUP_FN(cuDeviceGetCount, (int *count), *count = 1)
SETUP_FN(cuDeviceGetName, (char *name, int len, CUdevice dev), snprintf(name, len, "Fake GPU %d", dev))
SETUP_FN(cuDeviceGetAttribute, (int *pi, int attrib, CUdevice dev), *pi = 0)
SETUP_FN(cuDeviceTotalMem_v2, (size_t *bytes, CUdevice dev), *bytes = 16ULL << 30)
SETUP_FN(cuDevicePrimaryCtxRetain, (CUcontext *pctx, CUdevice dev), *pctx = (CUcontext)&fake_ctx)
SETUP_FN(cuDevicePrimaryCtxRelease_v2, (CUdevice dev))
SETUP_FN(cuCtxCreate_v2, (CUcontext *pctx, unsigned int flags, CUdevice dev),
	 *pctx = (CUcontext)&fake_ctx)
SETUP_FN(cuCtxCreate_v3, (CUcontext *pctx, void *paramsArray, int numParams, unsigned int flags,
			  CUdevice dev), *pctx = (CUcontext)&fake_ctx)
SETUP_FN(cuCtxCreate_v4, (CUcontext *pctx, void *ctxCreateParams, unsigned int flags, CUdevice dev),
	 *pctx = (CUcontext)&fake_ctx)
SETUP_FN(cuCtxDestroy_v2, (CUcontext ctx))
SETUP_FN(cuCtxSetCurrent, (CUcontext ctx))
SETUP_FN(cuModuleLoad, (CUmodule *module, const char *fname), *module = (CUmodule)&fake_module)
SETUP_FN(cuModuleLoadData, (CUmodule *module, const void *image), *module = (CUmodule)&fake_module)
SETUP_FN(cuModuleLoadDataEx, (CUmodule *module, const void *image, unsigned int numOptions,
			      void *options, void **optionValues), *module = (CUmodule)&fake_module)
SETUP_FN(cuModuleLoadFatBinary, (CUmodule *module, const void *fatCubin),
	 *module = (CUmodule)&fake_module)
SETUP_FN(cuModuleUnload, (CUmodule hmod))
SETUP_FN(cuLibraryLoadData, (CUlibrary *library, const void *code, void *jitOptions,
			     void **jitOptionsValues, unsigned int numJitOptions, void *libraryOptions,
			     void **libraryOptionValues, unsigned int numLibraryOptions),
	 *library = (CUlibrary)&fake_module)
SETUP_FN(cuLibraryLoadFromFile, (CUlibrary *library, const char *fileName, void *jitOptions,
				 void **jitOptionsValues, unsigned int numJitOptions,
				 void *libraryOptions, void **libraryOptionValues,
				 unsigned int numLibraryOptions), *library = (CUlibrary)&fake_module)
SETUP_FN(cuLibraryUnload, (CUlibrary library))

/*
 * Two functions cudatrace has no argument reading for (and one alias, at
 * cuMemGetInfo_v2's address, as real libraries export some): probed
 * where every exported function is (multi-uprobe links) or -f names them.
 */
SETUP_FN(cuMemGetInfo_v2, (size_t *free, size_t *total), *free = 1ULL << 30; *total = 16ULL << 30)
EXPORT CUresult cuMemGetInfo(size_t *free, size_t *total) __attribute__((alias("cuMemGetInfo_v2")));
SETUP_FN(cuCtxGetDevice, (CUdevice *device), *device = 0)
