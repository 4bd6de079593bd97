// SPDX-License-Identifier: GPL-2.0
/*
 * A fake libcudart.so.13 for cudatrace's tests: the runtime functions
 * cudatrace probes, built like the real runtime on the driver API (the
 * fake libcuda.so.1): cudaMalloc calls cuMemAlloc_v2 and cudaFree
 * cuMemFree_v2, so a traced cudaMalloc nests a traced cuMemAlloc_v2 in
 * the same thread.  Driver results become runtime ones as the real
 * runtime maps them (CUDA_ERROR_OUT_OF_MEMORY -> cudaErrorMemoryAllocation).
 * Every call is logged like the fake driver's ($FAKE_CUDA_LOG).
 *
 * Like the real runtime, it is not linked to the driver: it loads
 * libcuda.so.1 at its first call (found next to it, through its
 * $ORIGIN run path, or where ld.so finds it).  So a program linked to the
 * runtime alone has no libcuda mapped before that call, and none at all
 * where no driver can be found: then every call fails with
 * cudaErrorInsufficientDriver, as the real runtime's do.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

#include "fake_cuda.h"
#define FAKE_LOG_ENV "FAKE_CUDA_LOG"
#include "fake/fake_log.h"

#define EXPORT __attribute__((visibility("default")))

static struct {
	CUresult (*mem_alloc)(CUdeviceptr *, size_t);
	CUresult (*mem_free)(CUdeviceptr);
	CUresult (*stream_sync)(CUstream);
	CUresult (*stream_sync_ptsz)(CUstream);
	CUresult (*ctx_sync)(void);
} drv;
static cudaError_t init_error;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void load_driver(void)
{
	void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);

	if (h) {
		drv.mem_alloc = (CUresult (*)(CUdeviceptr *, size_t))dlsym(h, "cuMemAlloc_v2");
		drv.mem_free = (CUresult (*)(CUdeviceptr))dlsym(h, "cuMemFree_v2");
		drv.stream_sync = (CUresult (*)(CUstream))dlsym(h, "cuStreamSynchronize");
		drv.stream_sync_ptsz = (CUresult (*)(CUstream))dlsym(h, "cuStreamSynchronize_ptsz");
		drv.ctx_sync = (CUresult (*)(void))dlsym(h, "cuCtxSynchronize");
	}
	if (!drv.mem_alloc || !drv.mem_free || !drv.stream_sync || !drv.stream_sync_ptsz ||
	    !drv.ctx_sync)
		init_error = cudaErrorInsufficientDriver;
}

/* The runtime's lazy initialization: every entry point starts with it. */
static cudaError_t init(void)
{
	pthread_once(&init_once, load_driver);
	return init_error;
}

static cudaError_t from_driver(CUresult r)
{
	switch (r) {
	case CUDA_SUCCESS:
		return cudaSuccess;
	case CUDA_ERROR_OUT_OF_MEMORY:
		return cudaErrorMemoryAllocation;
	default:
		return cudaErrorInvalidValue;
	}
}

EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size)
{
	CUdeviceptr p = 0;
	cudaError_t e = init();

	if (!e)
		e = from_driver(drv.mem_alloc(&p, size));

	if (!e)
		*devPtr = (void *)(uintptr_t)p;
	fake_log(__func__, "bytes=%zu ptr=0x%llx result=%d", size, e ? 0 : p, e);
	return e;
}

EXPORT cudaError_t cudaFree(void *devPtr)
{
	cudaError_t e = init();

	if (!e && devPtr)
		e = from_driver(drv.mem_free((uintptr_t)devPtr));
	fake_log(__func__, "ptr=0x%lx result=%d", (unsigned long)(uintptr_t)devPtr, e);
	return e;
}

static const char *const kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default" };

static cudaError_t copy(const char *func, size_t count, enum cudaMemcpyKind kind, cudaStream_t s,
			int has_stream)
{
	const char *k = (unsigned int)kind <= cudaMemcpyDefault ? kinds[kind] : "?";
	cudaError_t e = init();

	if (!e && (unsigned int)kind > cudaMemcpyDefault)
		e = cudaErrorInvalidMemcpyDirection;
	if (has_stream)
		fake_log(func, "bytes=%zu kind=%s stream=0x%lx result=%d", count, k,
			 (unsigned long)(uintptr_t)s, e);
	else
		fake_log(func, "bytes=%zu kind=%s result=%d", count, k, e);
	return e;
}

EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
	return copy(__func__, count, kind, NULL, 0);
}

EXPORT cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind)
{
	return copy(__func__, count, kind, NULL, 0);
}

EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
				   enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy(__func__, count, kind, stream, 1);
}

EXPORT cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
					enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return copy(__func__, count, kind, stream, 1);
}

static cudaError_t launch(const char *func, const void *f, dim3 g, dim3 b, size_t shmem,
			  cudaStream_t s)
{
	cudaError_t e = init();

	if (!e && !f)
		e = cudaErrorInvalidDeviceFunction;
	fake_log(func, "func=0x%lx grid=%ux%ux%u block=%ux%ux%u shmem=%zu stream=0x%lx result=%d",
		 (unsigned long)(uintptr_t)f, g.x, g.y, g.z, b.x, b.y, b.z, shmem,
		 (unsigned long)(uintptr_t)s, e);
	return e;
}

EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
				    size_t sharedMem, cudaStream_t stream)
{
	return launch(__func__, func, gridDim, blockDim, sharedMem, stream);
}

EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
					 void **args, size_t sharedMem, cudaStream_t stream)
{
	return launch(__func__, func, gridDim, blockDim, sharedMem, stream);
}

/* sync: where the driver function will be, once init() has loaded it; NULL: cuCtxSynchronize */
static cudaError_t synced(const char *func, CUresult (**sync)(CUstream), cudaStream_t s)
{
	cudaError_t e = init();

	if (!e)
		e = from_driver(sync ? (*sync)(s) : drv.ctx_sync());
	if (sync)
		fake_log(func, "stream=0x%lx result=%d", (unsigned long)(uintptr_t)s, e);
	else
		fake_log(func, "result=%d", e);
	return e;
}

EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return synced(__func__, &drv.stream_sync, stream);
}

EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return synced(__func__, &drv.stream_sync_ptsz, stream);
}

EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	return synced(__func__, NULL, NULL);
}
