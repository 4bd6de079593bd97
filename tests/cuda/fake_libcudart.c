// SPDX-License-Identifier: GPL-2.0
/*
 * A fake libcudart.so.13 for cudatrace's tests: the runtime functions
 * cudatrace probes, built like the real runtime on the driver API (the
 * fake libcuda.so.1): cudaMalloc calls cuMemAlloc_v2 and cudaFree
 * cuMemFree_v2, so a traced cudaMalloc nests a traced cuMemAlloc_v2 in
 * the same thread.  Driver results become runtime ones as the real
 * runtime maps them (CUDA_ERROR_OUT_OF_MEMORY -> cudaErrorMemoryAllocation).
 * Every call is logged like the fake driver's ($FAKE_CUDA_LOG).
 */
#include <stdint.h>

#include "fake_cuda.h"
#include "fake_log.h"

#define EXPORT __attribute__((visibility("default")))

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
	cudaError_t e = from_driver(cuMemAlloc_v2(&p, size));

	if (!e)
		*devPtr = (void *)(uintptr_t)p;
	fake_log(__func__, "bytes=%zu ptr=0x%llx result=%d", size, e ? 0 : p, e);
	return e;
}

EXPORT cudaError_t cudaFree(void *devPtr)
{
	cudaError_t e = devPtr ? from_driver(cuMemFree_v2((uintptr_t)devPtr)) : cudaSuccess;

	fake_log(__func__, "ptr=0x%lx result=%d", (unsigned long)(uintptr_t)devPtr, e);
	return e;
}

static const char *const kinds[] = { "HtoH", "HtoD", "DtoH", "DtoD", "default" };

static cudaError_t copy(const char *func, size_t count, enum cudaMemcpyKind kind, cudaStream_t s,
			int has_stream)
{
	cudaError_t e = (unsigned int)kind <= cudaMemcpyDefault ? cudaSuccess
								 : cudaErrorInvalidMemcpyDirection;
	const char *k = e ? "?" : kinds[kind];

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
	cudaError_t e = f ? cudaSuccess : cudaErrorInvalidDeviceFunction;

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

static cudaError_t synced(const char *func, CUresult r, cudaStream_t s, int has_stream)
{
	cudaError_t e = from_driver(r);

	if (has_stream)
		fake_log(func, "stream=0x%lx result=%d", (unsigned long)(uintptr_t)s, e);
	else
		fake_log(func, "result=%d", e);
	return e;
}

EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	return synced(__func__, cuStreamSynchronize(stream), stream, 1);
}

EXPORT cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return synced(__func__, cuStreamSynchronize_ptsz(stream), stream, 1);
}

EXPORT cudaError_t cudaDeviceSynchronize(void)
{
	return synced(__func__, cuCtxSynchronize(), NULL, 0);
}
