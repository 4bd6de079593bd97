/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slice of AMD's HIP runtime API (libamdhip64.so.5) that hiptrace
 * probes, as hip/hip_runtime_api.h and hip/driver_types.h of ROCm 5.2
 * (Debian's libamdhip64-dev 5.2.3) declare it: function names, argument
 * types and the hipError_t values used here.  Written out in C so the fake
 * library and its workload build without the HIP headers, which are C++
 * at heart (default arguments, templates, a clang-only __HIP_NODISCARD).
 *
 * hipError_t is an enum there: an int here, the same 4 bytes in the same
 * register.  The values below are the enum's own, one by one; a few have
 * two names in the header (hipErrorOutOfMemory and the deprecated
 * hipErrorMemoryAllocation are both 2; hipErrorInvalidHandle and
 * hipErrorInvalidResourceHandle both 400, and the library's
 * hipGetErrorName(400) says "hipErrorInvalidHandle").
 *
 * The fake adds two things of its own:
 *   fake_hip_script(FUNC, RESULT, DELAY_US)  the next call of FUNC sleeps
 *       DELAY_US and returns RESULT instead of doing its work;
 *   $FAKE_HIP_LOG  a file that gets one line per call, with the arguments
 *       as the library received them (key=value), for the tests to compare.
 */
#ifndef FAKE_HIP_H
#define FAKE_HIP_H

#include <stddef.h>
#include <stdint.h>

/* hip_runtime_api.h: typedef enum hipError_t { ... } hipError_t; */
typedef int hipError_t;

#define hipSuccess			0
#define hipErrorInvalidValue		1
#define hipErrorOutOfMemory		2
#define hipErrorInvalidConfiguration	9
#define hipErrorInvalidMemcpyDirection	21
#define hipErrorInvalidDeviceFunction	98
#define hipErrorNoDevice		100
#define hipErrorInvalidDevice		101
#define hipErrorFileNotFound		301
#define hipErrorInvalidHandle		400
#define hipErrorInvalidResourceHandle	400
#define hipErrorNotFound		500
#define hipErrorLaunchFailure		719
#define hipErrorUnknown			999

/* driver_types.h */
typedef void *hipDeviceptr_t;

typedef enum hipMemcpyKind {
	hipMemcpyHostToHost = 0,
	hipMemcpyHostToDevice = 1,
	hipMemcpyDeviceToHost = 2,
	hipMemcpyDeviceToDevice = 3,
	hipMemcpyDefault = 4,
} hipMemcpyKind;

/* hip_runtime_api.h */
typedef struct ihipStream_t *hipStream_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;

typedef struct dim3 {
	uint32_t x, y, z;
} dim3;

#define hipStreamDefault		0x00
#define hipStreamNonBlocking		0x01
#define hipHostMallocDefault		0x0
#define hipHostMallocMapped		0x2
#define hipMemAttachGlobal		0x01
#define hipDeviceMallocDefault		0x0
#define hipDeviceMallocFinegrained	0x1

/* Initialization and devices */
hipError_t hipInit(unsigned int flags);
hipError_t hipDriverGetVersion(int *driverVersion);
hipError_t hipRuntimeGetVersion(int *runtimeVersion);
hipError_t hipGetDeviceCount(int *count);
hipError_t hipSetDevice(int deviceId);
hipError_t hipGetDevice(int *deviceId);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);

/* Errors */
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorName(hipError_t hip_error);
const char *hipGetErrorString(hipError_t hipError);

/* Memory */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipMallocManaged(void **dev_ptr, size_t size, unsigned int flags);
hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags);
hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags);
hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream);
hipError_t hipFree(void *ptr);
hipError_t hipHostFree(void *ptr);
hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream);

/* Copies and sets */
hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
			  hipStream_t stream);
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes);
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes);
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream);
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
			      hipStream_t stream);
hipError_t hipMemset(void *dst, int value, size_t sizeBytes);
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream);

/* Modules and kernels */
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
				 unsigned int gridDimZ, unsigned int blockDimX,
				 unsigned int blockDimY, unsigned int blockDimZ,
				 unsigned int sharedMemBytes, hipStream_t stream,
				 void **kernelParams, void **extra);
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
			   void **args, size_t sharedMemBytes, hipStream_t stream);
/* Not in the fake: hipLaunchCooperativeKernel (a library lacking it). */

/* Streams */
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamDestroy(hipStream_t stream);

void fake_hip_script(const char *func, hipError_t result, unsigned int delay_us);

#endif /* FAKE_HIP_H */
